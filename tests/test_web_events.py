"""The open tabs of a game kept in step (web/events.py): a change made by one tab reaches
the stream of every other within a second; the streams behind the same guards as every
request, bounded, and ended when the server stops; a stale tab told the truth of what
became of the question it still shows. Against a real uvicorn on the loopback."""

from __future__ import annotations

import contextlib
import queue
import threading
import time
import warnings
from pathlib import Path

import httpx
import pytest
import uvicorn

with warnings.catch_warnings():  # starlette's note on httpx's successor
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tripeaks_solver.web import app as web_app

SEEN = "Jd 4s Ac 8h 4c 2h 8c 6h 8d 8s 9c"  # deal 0's face-up cards and waste under Easy


@contextlib.contextmanager
def live(folder: Path, token: str | None = None, **kw):
    """The application served by uvicorn on 127.0.0.1 (a free port) in a thread: its
    base address and the guard."""
    hosts: set[str] = set()
    app = web_app.make_app(folder, lambda: hosts, token, **kw)
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning",
                            lifespan="on", timeout_graceful_shutdown=1)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(500):
        if server.started:
            break
        time.sleep(0.01)
    assert server.started
    port = server.servers[0].sockets[0].getsockname()[1]
    hosts.add(f"127.0.0.1:{port}")
    try:
        yield f"http://127.0.0.1:{port}", app, server
    finally:
        app.stop()
        server.should_exit = True
        thread.join(10)
        assert not thread.is_alive()


def reader(url: str, lines: queue.Queue, **kw) -> threading.Thread:
    """A tab's stream read in a thread: each line put in ``lines`` as it comes (its
    status first), then None when it ends."""

    def run() -> None:
        try:
            with httpx.stream("GET", url, timeout=30, **kw) as r:
                lines.put(r.status_code)
                for line in r.iter_lines():
                    lines.put(line)
        except httpx.HTTPError as exc:
            lines.put(repr(exc))
        lines.put(None)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def next_event(lines: queue.Queue, within: float) -> str | None:
    """The data of the next ``at`` event within ``within`` seconds."""
    end = time.monotonic() + within
    while (left := end - time.monotonic()) > 0:
        try:
            line = lines.get(timeout=left)
        except queue.Empty:
            return None
        if line is None:
            return None
        if isinstance(line, str) and line.startswith("data: "):
            return line[6:]
    return None


def test_a_move_in_one_tab_reaches_every_other_tab_within_a_second(tmp_path):
    with live(tmp_path) as (base, _app, _server):
        c = httpx.Client(base_url=base)
        state = c.post("/api/games", json={"start": SEEN}).json()
        name = state["name"]
        tabs = [queue.Queue() for _ in range(2)]
        for lines in tabs:
            reader(f"{base}/api/games/{name}/events", lines)
            assert lines.get(timeout=10) == 200
        time.sleep(0.2)  # both streams registered
        start = time.monotonic()
        asked = c.post(f"/api/games/{name}/move", json={"move": "draw", "at": state["at"]}).json()
        for lines in tabs:
            assert next_event(lines, 1.0) == f'{{"at": {asked["at"]}}}'
        assert time.monotonic() - start < 1.0
        said = c.post(f"/api/games/{name}/reveal", json={"card": "Kd", "at": asked["at"]}).json()
        for lines in tabs:
            assert next_event(lines, 1.0) == f'{{"at": {said["at"]}}}'
        # another game's change is not this game's
        other = c.post("/api/games", json={"start": "TP1-E-AAAAAAD"}).json()
        c.post(f"/api/games/{other['name']}/move", json={"move": "draw", "at": other["at"]})
        assert next_event(tabs[0], 0.5) is None


def test_a_record_changed_outside_reaches_the_tabs(tmp_path):
    with live(tmp_path) as (base, _app, _server):
        c = httpx.Client(base_url=base)
        state = c.post("/api/games", json={"start": "TP1-E-AAAAAAD"}).json()
        name = state["name"]
        lines: queue.Queue = queue.Queue()
        reader(f"{base}/api/games/{name}/events", lines)
        assert lines.get(timeout=10) == 200
        path = tmp_path / name
        tmp = path.with_name(name + ".new")
        tmp.write_text(path.read_text() + "draw\n")
        tmp.replace(path)  # as an editor saves: a new file renamed over the record
        assert next_event(lines, 5.0) == '{"at": null}'


def test_the_streams_are_guarded_bounded_and_end_when_the_server_stops(tmp_path):
    with live(tmp_path, token="secret") as (base, app, _server):
        c = httpx.Client(base_url=base, cookies={"tripeaks_token": "secret"})
        name = c.post("/api/games", json={"start": SEEN}).json()["name"]
        url = f"{base}/api/games/{name}/events"
        host = base.split("//")[1]
        assert httpx.get(url).status_code == 403  # no token
        assert httpx.get(url, headers={"Host": "evil.example:80"},
                         cookies={"tripeaks_token": "secret"}).status_code == 421
        assert httpx.get(url, cookies={"tripeaks_token": "secret"},
                         headers={"Origin": "http://evil.example"}).status_code == 403
        assert httpx.get(url, cookies={"tripeaks_token": "secret"},
                         headers={"Sec-Fetch-Site": "cross-site"}).status_code == 403
        assert c.get("/api/games/nothing-here.txt/events").status_code == 404
        assert c.get("/api/games/..%2Fx.txt/events").status_code in (400, 404)
        events = app.app.state.events
        events.max_streams = 2
        tabs = [queue.Queue() for _ in range(2)]
        threads = [reader(url, lines, cookies={"tripeaks_token": "secret"},
                          headers={"Origin": f"http://{host}"}) for lines in tabs]
        for lines in tabs:
            assert lines.get(timeout=10) == 200
        time.sleep(0.2)
        r = c.get(f"/api/games/{name}/events")
        assert r.status_code == 503 and "too many" in r.json()["error"]
        start = time.monotonic()
        app.stop()  # what Ctrl-C does first: every stream ends at once
        for thread in threads:
            thread.join(5)
            assert not thread.is_alive()
        assert time.monotonic() - start < 2
        for _ in range(200):  # each stream's end is noted just after its last byte
            if events.open == 0:
                break
            time.sleep(0.01)
        assert events.open == 0


def test_a_tab_that_goes_away_frees_its_stream(tmp_path):
    with live(tmp_path) as (base, app, _server):
        c = httpx.Client(base_url=base)
        name = c.post("/api/games", json={"start": SEEN}).json()["name"]
        events = app.app.state.events
        with httpx.stream("GET", f"{base}/api/games/{name}/events", timeout=10) as r:
            assert r.status_code == 200
            time.sleep(0.2)
            assert events.open == 1
        for _ in range(200):  # the server notices the closed connection
            if events.open == 0:
                break
            time.sleep(0.01)
        assert events.open == 0


@pytest.mark.parametrize("path, body, said", [
    ("reveal", {"card": "Qd"}, "another tab answered this card"),
    ("cancel", {}, "another tab answered this card"),
])
def test_a_stale_tab_is_told_the_card_was_answered_not_dropped(tmp_path, path, body, said):
    """Tab A and tab B show the card question; B answers it; A's answer or cancel is
    refused (409) with the truth: never "dropped … play it again"."""
    app = web_app.make_app(tmp_path, lambda: {"127.0.0.1:8765"})
    with TestClient(app, base_url="http://127.0.0.1:8765") as c:
        state = c.post("/api/games", json={"start": SEEN}).json()
        name = state["name"]
        asked = c.post(f"/api/games/{name}/move", json={"move": "draw", "at": state["at"]}).json()
        assert asked["need"] is not None
        r = c.post(f"/api/games/{name}/reveal", json={"card": "Kd", "at": asked["at"]})
        assert r.status_code == 200
        r = c.post(f"/api/games/{name}/{path}", json={**body, "at": asked["at"]})
        assert r.status_code == 409
        error = r.json()["error"]
        assert error.startswith(said) and "dropped" not in error and "again" not in error
        assert c.get(f"/api/games/{name}").json()["record"] == ["draw:Kd"]  # one move


def test_a_stale_tab_is_told_the_move_was_cancelled(tmp_path):
    app = web_app.make_app(tmp_path, lambda: {"127.0.0.1:8765"})
    with TestClient(app, base_url="http://127.0.0.1:8765") as c:
        state = c.post("/api/games", json={"start": SEEN}).json()
        name = state["name"]
        asked = c.post(f"/api/games/{name}/move", json={"move": "draw", "at": state["at"]}).json()
        assert c.post(f"/api/games/{name}/cancel", json={"at": asked["at"]}).status_code == 200
        # the version asked is left by the cancel (and is asked again by a new draw)
        r = c.post(f"/api/games/{name}/reveal", json={"card": "Kd", "at": asked["at"]})
        assert r.status_code == 409
        assert r.json()["error"].startswith("another tab cancelled this move")
