"""The server's safety measured against a real ``tripeaks-solve serve`` process.

    python benchmarks/bench_serve.py                  # 600 records, 3 runs of each
    python benchmarks/bench_serve.py --records 600 --runs 5
    python benchmarks/bench_serve.py --part latency   # the kept-alive round trip only
    python benchmarks/bench_serve.py --part load --clients 50 --seconds 20

Prints, for the games list of a data directory holding ``--records`` records (games
of 0 to 60 moves): the first call (every record read and replayed) and the repeat calls
(nothing changed: the index answers); then again after one record changed. For Ctrl-C
(SIGINT) and SIGTERM sent while an expensive advice is computed: the seconds until
the process is gone. For four clients killed during expensive advice: the CPU seconds
the server used in the two seconds after, and the time a cheap advice then took. With
``--browser`` (headless Chromium at /usr/bin/chromium): Ctrl-C with the page of a game
open, its advice (2,000 samples) under way. For the round trip on one kept-alive
connection (as a browser keeps it): the median and 95th percentile of the state of a game
and of ``/api/messages``. For load (``--part load``, not part of ``all``): ``--clients``
players, each on a game of its own on one kept-alive connection, playing as the page
does (the state, the advice at 50 samples, the move it recommends, the cards that turn
up, a new game at the end) for ``--seconds``: requests a second, the median, 95th
percentile and slowest answer, and every status that was not 2xx (409s above all: a
game let go under a player). A benchmark, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import http.client
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(REPO)}
SEEN = "Jd 4s Ac 8h 4c 2h 8c 6h 8d 8s 9c"


class Server:
    def __init__(self, folder: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tripeaks_solver", "serve", "--no-open", "--port", "0",
             "--data-dir", str(folder)], env=ENV, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        self.port = int(re.search(r":(\d+)/", self.proc.stdout.readline()).group(1))

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
        data = None if body is None else json.dumps(body).encode()
        c.request(method, path, body=data,
                  headers={"Content-Type": "application/json"} if data else {})
        r = c.getresponse()
        out = json.loads(r.read())
        c.close()
        return r.status, out

    def timed(self, method: str, path: str, body: dict | None = None) -> float:
        start = time.perf_counter()
        status, _ = self.call(method, path, body)
        assert status in (200, 201), status
        return time.perf_counter() - start

    def cpu(self) -> float:
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self, sig: int = signal.SIGINT) -> float:
        sent = time.perf_counter()
        self.proc.send_signal(sig)
        self.proc.communicate(timeout=60)
        return time.perf_counter() - sent


def make_records(folder: Path, n: int) -> None:
    """``n`` records of code games, 0 to 60 moves each (draws and the moves the exact
    hint recommends), written as the server writes them."""
    server = Server(folder)
    try:
        state = server.call("POST", "/api/games", {"start": "TP1-E-AAAAAAD"})[1]
        lines = []
        for _ in range(60):
            if state["status"] != "in play":
                break
            token = state["legal"][0]
            state = server.call("POST", f"/api/games/{state['name']}/move",
                                {"move": token, "at": state["at"]})[1]
            lines.append(state["record"][-1])
        text = (folder / state["name"]).read_text()
        head = text[:text.index("moves:\n") + len("moves:\n")]
    finally:
        server.stop()
    for p in folder.iterdir():
        p.unlink()
    for i in range(n):
        moves = lines[:i % (len(lines) + 1)]
        (folder / f"game-{i:04}.txt").write_text(head + "".join(m + "\n" for m in moves))


def round_trips(folder: Path, n: int) -> None:
    """``n`` requests one after the other on one kept-alive connection: the state of a
    game, and the page's messages (no game at all)."""
    server = Server(folder)
    try:
        name = server.call("POST", "/api/games", {"start": SEEN})[1]["name"]
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        for path in (f"/api/games/{name}", "/api/messages"):
            took = []
            for _ in range(n):
                start = time.perf_counter()
                conn.request("GET", path)
                r = conn.getresponse()
                r.read()
                took.append(time.perf_counter() - start)
                assert r.status == 200, r.status
            took.sort()
            print(f"kept-alive round trip, GET {path.replace(name, 'NAME')}, {n} in a row: "
                  f"median {1000 * statistics.median(took):.2f} ms, 95th percentile "
                  f"{1000 * took[int(0.95 * (n - 1))]:.2f} ms")
        conn.close()
    finally:
        server.stop()


class Connection:
    """One kept-alive HTTP/1.1 connection on asyncio streams (a client that costs the
    machine little, so that the server gets the cores)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def call(self, method: str, path: str, body: dict | None = None
                   ) -> tuple[int, dict]:
        if self.streams is None:
            self.streams = await asyncio.open_connection("127.0.0.1", self.port)
        reader, writer = self.streams
        data = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
        writer.write(head.encode() + b"\r\n" + data)
        status = int((await reader.readline()).split()[1])
        length = 0
        while (line := await reader.readline()) not in (b"\r\n", b""):
            name, _colon, value = line.decode("latin-1").partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
        return status, json.loads(await reader.readexactly(length)) if length else {}

    def close(self) -> None:
        if self.streams is not None:
            self.streams[1].close()


async def player(port: int, number: int, until: float, took: list[float],
                 statuses: collections.Counter) -> None:
    """Games of deal ``number`` and on, played as the page plays them, until ``until``."""
    from tripeaks_solver.model.dealing import Deal

    conn = Connection(port)

    async def call(method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        start = time.perf_counter()
        status, out = await conn.call(method, path, body)
        took.append(time.perf_counter() - start)
        statuses[status] += 1
        return status, out

    try:
        while time.perf_counter() < until:
            deal = Deal.from_number(number)
            number += 1000
            seen = " ".join(deal.cards[p].token for p in range(18, 29))
            status, state = await call("POST", "/api/games", {"start": seen})
            if status != 201:
                continue
            game = f"/api/games/{state['name']}"
            while state["status"] == "in play" and time.perf_counter() < until:
                if state["need"] is not None:
                    card = deal.cards[state["need"]["place"]].token
                    status, out = await call("POST", f"{game}/reveal",
                                             {"card": card, "at": state["at"]})
                else:
                    status, advice = await call(
                        "GET", f"{game}/advice?samples=50&seed={number}&at={state['at']}")
                    move = advice.get("recommended") if status == 200 else None
                    status, out = await call("POST", f"{game}/move",
                                             {"move": move or state["legal"][0],
                                              "at": state["at"]})
                if status != 200:
                    status, out = await call("GET", game)  # as the page: read it again
                    if status != 200:
                        break
                state = out
    finally:
        conn.close()


def load(folder: Path, clients: int, seconds: float) -> None:
    """``clients`` players at once for ``seconds``; the figures of their requests."""
    server = Server(folder)
    try:
        time.sleep(3)  # serve loads the kernels meanwhile (its warm-up)
        took: list[float] = []
        statuses: collections.Counter = collections.Counter()

        async def run() -> None:
            until = time.perf_counter() + seconds
            await asyncio.gather(*(player(server.port, n, until, took, statuses)
                                   for n in range(clients)))

        begun = time.perf_counter()
        cpu = server.cpu()
        asyncio.run(run())
        spent, cpu = time.perf_counter() - begun, server.cpu() - cpu
    finally:
        server.stop()
    took.sort()
    others = ", ".join(f"{n} × {s}" for s, n in sorted(statuses.items()) if s >= 300)
    print(f"{clients} clients playing for {spent:.0f} s: {len(took)} requests, "
          f"{len(took) / spent:.0f}/s; median {1000 * statistics.median(took):.0f} ms, "
          f"95th percentile {1000 * took[int(0.95 * (len(took) - 1))]:.0f} ms, slowest "
          f"{1000 * took[-1]:.0f} ms; server CPU {cpu:.1f} s ({os.cpu_count()} cores); "
          f"not 2xx: {others or 'none'}")


def median(xs: list[float]) -> str:
    return f"{statistics.median(xs):.3f} s (of {len(xs)}: {min(xs):.3f}–{max(xs):.3f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=600, help="records listed (600)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each (3)")
    parser.add_argument("--browser", action="store_true", help="Ctrl-C with a page open too")
    parser.add_argument("--part", choices=("all", "list", "signals", "latency", "load"),
                        default="all", help="one part only (all: but load)")
    parser.add_argument("--clients", type=int, default=50, help="players at once (50)")
    parser.add_argument("--seconds", type=float, default=20, help="of load (20)")
    args = parser.parse_args()
    if args.part == "load":
        with tempfile.TemporaryDirectory() as tmp:
            load(Path(tmp), args.clients, args.seconds)
    if args.part in ("all", "latency"):
        with tempfile.TemporaryDirectory() as tmp:
            round_trips(Path(tmp), 300)
    if args.part in ("all", "list"):
        games_list(args)
    if args.part in ("all", "signals"):
        signals(args)


def games_list(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        make_records(folder, args.records)
        first, repeat, changed = [], [], []
        for _ in range(args.runs):
            server = Server(folder)
            first.append(server.timed("GET", "/api/games"))
            repeat += [server.timed("GET", "/api/games") for _ in range(5)]
            with open(folder / "game-0007.txt", "a") as f:
                f.write("# a note\n")
            changed.append(server.timed("GET", "/api/games"))
            server.stop()
        print(f"games list, {args.records} records: first call {median(first)}")
        print(f"  repeat call, nothing changed: {median(repeat)}")
        print(f"  after one record changed: {median(changed)}")


def signals(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for sig in (signal.SIGINT, signal.SIGTERM):
            took = []
            for _ in range(args.runs):
                server = Server(Path(tmp))
                name = server.call("POST", "/api/games", {"start": SEEN})[1]["name"]
                asking = threading.Thread(target=lambda s=server, n=name: s.call(
                    "GET", f"/api/games/{n}/advice?samples=5000&seed=1"))
                asking.start()
                time.sleep(1.5)
                took.append(server.stop(sig))
                asking.join()
            print(f"{signal.Signals(sig).name} during an advice (samples 5000): gone in "
                  f"{median(took)}")

        cpu, cheap = [], []
        for _ in range(args.runs):
            server = Server(Path(tmp))
            name = server.call("POST", "/api/games", {"start": SEEN})[1]["name"]
            base = f"http://127.0.0.1:{server.port}/api/games/{name}/advice"
            server.timed("GET", f"/api/games/{name}/advice?samples=10&seed=1")
            clients = [subprocess.Popen([sys.executable, "-c", (
                "import urllib.request, sys; urllib.request.urlopen(sys.argv[1]).read()"),
                f"{base}?samples=5000&seed={seed}"]) for seed in range(2, 6)]
            time.sleep(2)
            for c in clients:
                c.kill()
                c.wait()
            time.sleep(0.5)
            before = server.cpu()
            time.sleep(2)
            cpu.append(server.cpu() - before)
            cheap.append(server.timed("GET", f"/api/games/{name}/advice?samples=10&seed=9"))
            server.stop()
        print(f"4 clients killed during advice (samples 5000): server CPU in the 2 s after "
              f"{median(cpu).replace(' s ', ' CPU s ')}; a cheap advice (samples 10) then "
              f"{median(cheap)}")
        if args.browser:
            print(f"Ctrl-C with the page open in Chromium: gone in "
                  f"{median(with_page(Path(tmp), args.runs))}")


def with_page(folder: Path, runs: int) -> list[float]:
    """Seconds from Ctrl-C to the end of the server while headless Chromium shows a
    game's page (its advice of 2,000 samples under way)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--user-data-dir={tempfile.mkdtemp(prefix='bench-chromium-')}"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    took = []
    try:
        for _ in range(runs):
            server = Server(folder)
            name = server.call("POST", "/api/games", {"start": SEEN})[1]["name"]
            driver.get(f"http://127.0.0.1:{server.port}/play/{name}?samples=2000")
            time.sleep(2)
            took.append(server.stop())
    finally:
        driver.quit()
    return took


if __name__ == "__main__":
    main()
