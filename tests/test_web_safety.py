"""The server's safety in-process (issue 45): records changed under it, the games list's
index, advice as shared and cancelled jobs, bounded caches and open files, every status
right, `at` covering the card asked for. The faults as real processes (a rename under
a live server, `ulimit -n`, signals and killed clients mid-advice) are in
tests/test_web_faults.py."""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import numpy as np
import pytest

with warnings.catch_warnings():  # starlette's note on httpx's successor
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tripeaks_solver.analysis import players
from tripeaks_solver.analysis.fair import Cancelled, View, fair_hint
from tripeaks_solver.analysis.hints import fair_advice
from tripeaks_solver.errors import InputError
from tripeaks_solver.games import files, record_file, saved
from tripeaks_solver.games.record_file import RecordFile
from tripeaks_solver.games.records import parse_record_file
from tripeaks_solver.games.session import CoachSession, RecordWriteError
from tripeaks_solver.model.observed import ObservedGame, Start
from tripeaks_solver.model.rules import EASY
from tripeaks_solver.web import app as web_app
from tripeaks_solver.web.hub import Hub
from tripeaks_solver.web.jobs import LRU, Jobs

HOST = "127.0.0.1:8765"
SEEN = "Jd 4s Ac 8h 4c 2h 8c 6h 8d 8s 9c"  # deal 0's face-up cards and waste under Easy
RECORD = ("# tripeaks-solver game record\nstart: code TP1-E-AAAAAAD\nrules: easy\n"
          "variant: none\nscoring: app\nmoves:\n")


def client(folder: Path, **kw) -> TestClient:
    app = web_app.make_app(folder, lambda: {HOST}, **kw)
    return TestClient(app, base_url=f"http://{HOST}", raise_server_exceptions=False)


def start(c: TestClient, text: str = "TP1-E-AAAAAAD") -> dict:
    r = c.post("/api/games", json={"start": text})
    assert r.status_code == 201, r.text
    return r.json()


def move(c: TestClient, state: dict, token: str):
    return c.post(f"/api/games/{state['name']}/move", json={"move": token, "at": state["at"]})


def hub_of(c: TestClient) -> Hub:
    return c.app.app.state.hub


def sed_i(path: Path, old: str, new: str) -> None:
    """What ``sed -i`` does: a new file with the edit, renamed over the old one."""
    tmp = path.with_name(path.name + ".sed")
    tmp.write_text(path.read_text().replace(old, new))
    os.replace(tmp, path)


# --- 1: a record changed under the server ------------------------------------------------
def test_a_record_replaced_under_the_page_is_never_written_and_the_lock_follows(tmp_path):
    c = client(tmp_path)
    state = move(c, start(c), "draw").json()
    path = tmp_path / state["name"]
    sed_i(path, "draw:3s\n", "draw:3s\ndraw:9d\n")  # a move added by hand, by rename
    edited = path.read_text()
    r = move(c, state, "draw")
    assert r.status_code == 409 and r.json() == {
        "error": "the record changed outside the page: reload"}
    assert path.read_text() == edited  # nothing appended to the old file or the new
    # The page reloads: the game is the file's; the server holds the new file's lock.
    now = c.get(f"/api/games/{state['name']}").json()
    assert now["record"] == ["draw:3s", "draw:9d"]
    with pytest.raises(InputError, match="in use"):
        RecordFile(path).open()
    after = move(c, now, "draw").json()
    assert after["record"] == ["draw:3s", "draw:9d", "draw:6d"]
    assert parse_record_file(path.read_text(), "x").moves[-1].token == "draw:6d"
    assert move(c, state, "draw").status_code == 409  # a tab from before the change


def test_the_timer_follows_a_record_replaced_under_a_game_without_a_request(tmp_path):
    hub = Hub(tmp_path)
    table = hub.create({"start": "TP1-E-AAAAAAD"})
    path = tmp_path / table.name
    sed_i(path, "moves:\n", "moves:\ndraw:3s\n")
    free = RecordFile(path)
    free.open()  # the server holds the old file's lock, not this one's
    free.close()
    hub.sweep()  # the timer's work, every second
    with pytest.raises(InputError, match="in use"):
        RecordFile(path).open()
    assert hub.table(table.name).state()["record"] == ["draw:3s"]
    hub.close()


@pytest.mark.parametrize("edit", ["append", "cut"])
def test_a_line_added_or_cut_by_hand_is_read_again_not_written_after(tmp_path, edit):
    c = client(tmp_path)
    state = move(c, move(c, start(c), "draw").json(), "draw").json()
    path = tmp_path / state["name"]
    with open(path, "r+") as f:  # in place: same file, another size
        if edit == "append":
            f.seek(0, os.SEEK_END)
            f.write("draw:6d\n")
        else:
            f.truncate(len(f.read()) - len("draw:9d\n"))
    edited = path.read_text()
    r = move(c, state, "draw")
    assert r.status_code == 409 and path.read_text() == edited
    again = c.get(f"/api/games/{state['name']}").json()
    assert again["record"] == (["draw:3s", "draw:9d", "draw:6d"] if edit == "append"
                               else ["draw:3s"])
    assert move(c, again, "draw").status_code == 200
    stored = parse_record_file(path.read_text(), "x")  # whole, one move more
    assert len(stored.moves) == len(again["record"]) + 1 and stored.torn is None


def test_a_record_emptied_under_the_server_is_never_removed(tmp_path):
    """Another program rewrites the record in place (``cat new > record``: emptied, then
    written): the timer finds it empty meanwhile and lets the game go, but the file the
    server wrote to stays, and what the program writes is read (issue 54, D2)."""
    hub = Hub(tmp_path)
    table = hub.create({"start": SEEN})
    name, path = table.name, tmp_path / table.name
    table.move("8h", None)
    text = path.read_text()
    with open(path, "r+") as f:
        f.truncate(0)  # ``> record``
        hub.sweep()  # the timer's look, between the truncate and the write
        assert path.exists()
        f.write(text + "draw:Kd\n")
    assert path.read_text() == text + "draw:Kd\n"
    hub.sweep()
    assert hub.table(name).state()["record"] == ["8h", "draw:Kd"]
    hub.close()
    assert path.read_text() == text + "draw:Kd\n"


def test_an_emptied_record_is_kept_as_changed_outside(tmp_path):
    c = client(tmp_path)
    state = move(c, start(c, SEEN), "8h").json()
    path = tmp_path / state["name"]
    path.write_bytes(b"")  # ``> record``
    r = move(c, state, "draw")
    assert r.status_code == 409 and path.exists() and path.read_bytes() == b""
    hub_of(c).sweep()
    r = c.get(f"/api/games/{state['name']}")
    assert r.status_code == 400 and path.exists()  # not a record now: said, not removed
    c.close()
    assert path.exists()


def test_an_edit_in_place_of_the_same_size_with_its_time_put_back_is_seen(tmp_path):
    """``draw:Kd`` made ``draw:Kh`` in place, the modification time put back (``touch
    -d``): the change time says the file was written (issue 54, D15)."""
    c = client(tmp_path)
    state = move(c, move(c, start(c, SEEN), "8h").json(), "draw").json()
    state = c.post(f"/api/games/{state['name']}/reveal",
                   json={"card": "Kd", "at": state["at"]}).json()
    path = tmp_path / state["name"]
    before = os.stat(path)
    time.sleep(0.01)  # a change time the file system tells apart
    data = path.read_bytes().replace(b"draw:Kd", b"draw:Kh")
    with open(path, "r+b") as f:
        f.write(data)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    r = move(c, state, "undo")
    assert r.status_code == 409 and path.read_bytes() == data
    again = c.get(f"/api/games/{state['name']}").json()
    assert again["record"] == ["8h", "draw:Kh"]
    assert move(c, again, "undo").status_code == 200


def test_a_crlf_record_is_continued_with_crlf_line_ends(tmp_path):
    """A record saved by a Windows editor keeps one kind of line end whoever writes it
    next: a move, a correction, a torn line's end (issue 54, D19)."""
    path = tmp_path / "win.txt"
    path.write_bytes(RECORD_8H.replace("\n", "\r\n").encode() + b"draw:4")  # a torn tail
    c = client(tmp_path)
    state = c.get("/api/games/win.txt").json()
    state = move(c, state, "draw").json()
    r = c.post("/api/games/win.txt/reveal", json={"card": "5d", "at": state["at"]})
    assert r.status_code == 200, r.text
    data = path.read_bytes()
    assert data.count(b"\n") == data.count(b"\r\n") and data.endswith(b"draw:5d\r\n")
    state = c.post("/api/games/win.txt/correct",
                   json={"told": "5d", "to": "6d", "at": r.json()["at"]}).json()
    data = path.read_bytes()
    assert data.count(b"\n") == data.count(b"\r\n") and data.endswith(b"draw:6d\r\n")
    assert move(c, state, "undo").status_code == 200
    data = path.read_bytes()
    assert data.count(b"\n") == data.count(b"\r\n") and data.endswith(b"undo\r\n")


def test_a_record_removed_under_the_page_is_not_written_again(tmp_path):
    c = client(tmp_path)
    state = move(c, start(c), "draw").json()
    path = tmp_path / state["name"]
    path.rename(tmp_path / "elsewhere.txt")
    r = move(c, state, "draw")
    assert r.status_code == 409
    assert not path.exists()
    assert (tmp_path / "elsewhere.txt").read_text().endswith("moves:\ndraw:3s\n")
    assert c.get(f"/api/games/{state['name']}").status_code == 404


def test_the_terminal_coach_refuses_to_write_a_record_replaced_under_it(tmp_path):
    path = tmp_path / "game.txt"
    session = CoachSession.new(Start.of_seen(SEEN, EASY), record=path)
    session.play("8h")  # on the 9c: a card seen from the start, no question
    sed_i(path, "moves:\n", "moves:\n# my note\n")
    edited = path.read_text()
    with pytest.raises(RecordWriteError) as caught:
        session.play("d:Kd")
    message = str(caught.value)
    assert message == (f"{path} was replaced outside this session: the move was not written; "
                       f"start again with --record {path} to go on from what it holds")
    assert path.read_text() == edited and session.game.tokens == ["8h"]
    session.close()


def test_a_hard_linked_record_is_refused_and_never_written(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    outside = tmp_path / "outside.txt"
    outside.write_text(RECORD)
    os.link(outside, folder / "linked.txt")
    c = client(folder)
    r = c.get("/api/games/linked.txt")
    assert r.status_code == 400 and "hard link" in r.json()["error"]
    listed = c.get("/api/games").json()["games"]
    assert [(g["file"], g["start"], "hard link" in g["error"]) for g in listed] == [
        ("linked.txt", None, True)]
    # A link made while the page plays the record: the next move is refused.
    state = start(c)
    os.link(folder / state["name"], tmp_path / "second-name.txt")
    before = (folder / state["name"]).read_text()
    r = move(c, state, "draw")
    assert r.status_code in (400, 409) and (folder / state["name"]).read_text() == before
    assert outside.read_text() == RECORD


# --- 2: the games list --------------------------------------------------------------------
def test_the_games_list_reads_only_the_records_that_changed(tmp_path, monkeypatch):
    for i in range(5):
        (tmp_path / f"game-{i}.txt").write_text(RECORD + "draw\n" * i)
    read: list[str] = []
    real = saved._saved_game

    def counted(path, st):
        read.append(path.name)
        return real(path, st)

    monkeypatch.setattr(saved, "_saved_game", counted)
    c = client(tmp_path)
    first = c.get("/api/games").json()["games"]
    assert sorted(read) == [f"game-{i}.txt" for i in range(5)]
    read.clear()
    assert c.get("/api/games").json()["games"] == first and read == []
    with open(tmp_path / "game-2.txt", "a") as f:
        f.write("draw\n")
    (tmp_path / "game-4.txt").unlink()
    games = c.get("/api/games").json()["games"]
    assert read == ["game-2.txt"]
    assert {g["file"]: g["moves"] for g in games} == {
        "game-0.txt": 0, "game-1.txt": 1, "game-2.txt": 3, "game-3.txt": 3}


HOLD = """
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.read()
"""


@pytest.mark.parametrize("proc_locks", [True, False])
def test_a_record_a_terminal_coach_holds_is_listed_as_held_elsewhere(tmp_path, monkeypatch,
                                                                     proc_locks):
    held, starting = tmp_path / "held.txt", tmp_path / "starting.txt"
    held.write_text(RECORD + "draw\n")
    if not proc_locks:  # a system without /proc/locks: the file itself is asked
        monkeypatch.setattr("tripeaks_solver.web.hub.held_files", lambda: None)
    holders = [subprocess.Popen([sys.executable, "-c", HOLD, str(p)], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True) for p in (held, starting)]
    try:
        for h in holders:
            assert h.stdout.readline() == "held\n"
        c = client(tmp_path)
        free = start(c)["name"]
        games = {g["file"]: g for g in c.get("/api/games").json()["games"]}
        assert (games["held.txt"]["held_elsewhere"], games["held.txt"]["open"],
                games["held.txt"]["moves"], games["held.txt"]["error"]) == (True, False, 1, None)
        assert games["starting.txt"]["held_elsewhere"] and "being started in another" in \
            games["starting.txt"]["error"]
        assert (games[free]["held_elsewhere"], games[free]["open"]) == (False, True)
        r = c.get("/api/games/held.txt")
        assert r.status_code == 409 and "open in another session" in r.json()["error"]
    finally:
        for h in holders:
            h.communicate("")
    assert held.read_text() == RECORD + "draw\n"


# --- 3: open files ------------------------------------------------------------------------
def test_at_most_max_open_games_are_held_the_least_recently_used_let_go(tmp_path):
    hub = Hub(tmp_path, max_open=3)
    names = [hub.create({"start": code}).name for code in
             ("TP1-E-AAAAAAB", "TP1-E-AAAAAAC", "TP1-E-AAAAAAD", "TP1-E-AAAAAAE")]
    assert list(hub.tables) == names[1:]
    hub.table(names[1])  # used again: now the most recent
    hub.table(names[0])  # opened again: the least recently used (names[2]) goes
    assert list(hub.tables) == [names[3], names[1], names[0]]
    free = RecordFile(tmp_path / names[2])
    free.open()  # its lock is free
    free.close()
    hub.close()


def test_idle_games_are_let_go_by_the_timer_without_a_request(tmp_path, monkeypatch):
    from tripeaks_solver.web import hub as hub_module

    monkeypatch.setattr(hub_module, "IDLE_SECONDS", 0.2)
    monkeypatch.setattr(hub_module, "SWEEP_SECONDS", 0.05)
    hub = Hub(tmp_path)
    name = hub.create({"start": "TP1-E-AAAAAAD"}).name
    hub.start()
    try:
        for _ in range(200):  # a safety bound, not a timing: 10 s
            if not hub.tables:
                break
            time.sleep(0.05)
        taken = RecordFile(tmp_path / name)
        taken.open()  # a terminal coach may take it now
        taken.close()
    finally:
        hub.close()


def test_out_of_file_descriptors_lets_games_go_then_answers_503(tmp_path, monkeypatch, caplog):
    c = client(tmp_path)
    names = [start(c, code)["name"] for code in ("TP1-E-AAAAAAB", "TP1-E-AAAAAAC")]
    real_open = os.open
    refused = {"n": 0}

    def no_more_files(path, flags, *args):
        if str(path).startswith(str(tmp_path)) and refused["n"] < refused["max"]:
            refused["n"] += 1
            raise OSError(errno.EMFILE, "Too many open files")
        return real_open(path, flags, *args)

    refused["max"] = 1  # once: a game let go makes room and the start is tried again
    monkeypatch.setattr(files.os, "open", no_more_files)
    assert c.post("/api/games", json={"start": "TP1-E-AAAAAAD"}).status_code == 201
    assert names[0] not in hub_of(c).tables  # the least recently used went
    refused.update(n=0, max=10**6)  # always: nothing helps
    with caplog.at_level(logging.ERROR, logger="tripeaks_solver.web"):
        answers = [c.post("/api/games", json={"start": "TP1-E-AAAAAAE"}) for _ in range(3)]
    assert [r.status_code for r in answers] == [503] * 3
    assert answers[0].json()["error"].endswith("Too many open files")
    assert len(caplog.records) == 1  # one line, not one a request
    refused.update(n=0, max=0)
    assert c.post("/api/games", json={"start": "TP1-E-AAAAAAE"}).status_code == 201


# --- 4, 5: advice as jobs -----------------------------------------------------------------
def test_fair_advice_stops_between_short_searches_when_asked():
    game = ObservedGame(Start.of_seen(SEEN, EASY))
    view = View.of(game.position(), game.known_places)
    asked = {"n": 0}

    def stop_after(n):
        def should_stop():
            asked["n"] += 1
            return asked["n"] > n
        return should_stop

    with pytest.raises(Cancelled):
        fair_hint(view, 1000, 1, 0, should_stop=stop_after(2))
    assert asked["n"] == 3  # asked before each search: the third said stop
    with pytest.raises(Cancelled):  # the fair player's rollouts ask it too
        seen = players.Seen.of(view)
        legal = view.canonical().legal_moves()
        candidates = np.array([seen.kernel_move(m) for m in legal], dtype=np.int64)
        players.make_player("fair:1000").values(seen, candidates, EASY, 1,
                                                should_stop=lambda: True)
    # Asked or not, the answer is the same.
    plain = fair_advice(view, 30, 4, 0)
    asked_too = fair_advice(view, 30, 4, 0, should_stop=lambda: False)
    assert plain.recommended == asked_too.recommended and plain.wins == asked_too.wins
    assert [m.share for m in plain.rating.moves] == [m.share for m in asked_too.rating.moves]


def test_one_job_for_the_requests_that_ask_the_same_and_it_stops_when_they_leave():
    jobs = Jobs(caches={"advice": 4})
    began, ended = threading.Event(), threading.Event()
    release = threading.Event()
    checks = {"n": 0}

    def long_search(should_stop):
        began.set()
        try:
            while not should_stop():
                checks["n"] += 1
                if release.wait(0.01):
                    return "done"
            raise Cancelled
        finally:
            ended.set()

    async def scenario():
        a = asyncio.ensure_future(jobs.get(("advice", 1), long_search, "heavy"))
        b = asyncio.ensure_future(jobs.get(("advice", 1), long_search, "heavy"))
        await asyncio.to_thread(began.wait, 10)
        assert jobs.started == 1  # shared
        a.cancel()
        await asyncio.sleep(0.05)
        assert not ended.is_set()  # b still waits: the search goes on
        release.set()
        return await b

    assert asyncio.run(scenario()) == "done"
    assert jobs.cached(("advice", 1)) == "done"

    began.clear(), ended.clear(), release.clear()

    async def everyone_leaves():
        a = asyncio.ensure_future(jobs.get(("advice", 2), long_search, "heavy"))
        await asyncio.to_thread(began.wait, 10)
        a.cancel()
        await asyncio.to_thread(ended.wait, 10)

    asyncio.run(everyone_leaves())
    assert ended.is_set() and not release.is_set()  # stopped by its flag, not released
    assert jobs.cached(("advice", 2)) is None


def test_a_job_nobody_waits_for_any_more_never_starts():
    jobs = Jobs()
    ran: list[str] = []
    gate = threading.Event()

    def first(should_stop):
        gate.wait(10)
        return "first"

    def abandoned(should_stop):
        ran.append("abandoned")
        return "abandoned"

    async def scenario():
        one = asyncio.ensure_future(jobs.get(("advice", "a"), first, "heavy"))
        two = asyncio.ensure_future(jobs.get(("advice", "b"), abandoned, "heavy"))
        await asyncio.sleep(0.05)
        two.cancel()  # its client left while it waited for its turn
        cheap = await jobs.get(("advice", "c"), lambda stop: "cheap", "light")
        gate.set()
        return cheap, await one

    assert asyncio.run(scenario()) == ("cheap", "first")
    jobs.close()
    assert ran == []


def test_a_cheap_advice_is_answered_while_an_expensive_one_runs(tmp_path):
    c = client(tmp_path)
    state = start(c, SEEN)
    base = f"/api/games/{state['name']}/advice"
    expensive: list[int] = []
    asking = threading.Thread(target=lambda: expensive.append(
        c.get(base, params={"samples": 5000, "seed": 1}).status_code))
    asking.start()
    jobs = c.app.jobs
    for _ in range(1000):  # until it runs (10 s at most)
        if jobs.running:
            break
        time.sleep(0.01)
    cheap = c.get(base, params={"samples": 10, "seed": 2})
    assert cheap.status_code == 200 and cheap.json()["player"] == "fair:10"
    assert asking.is_alive() and not expensive  # the expensive one still runs
    jobs.stop_all()  # the server stopping: the expensive one ends now
    asking.join(30)
    assert expensive == [503]


def test_the_answers_are_kept_in_caches_of_a_bounded_size(tmp_path, monkeypatch):
    cache = LRU(2)
    for key in "abc":
        cache.put(key, key)
    assert "a" not in cache and cache.get("b") == "b"
    cache.put("d", "d")  # b was used: c goes
    assert list(cache.items) == ["b", "d"]
    c = client(tmp_path)
    state = start(c)
    jobs = c.app.jobs
    for size in jobs.caches.values():
        assert size.size <= 256
    for seed in range(5):
        r = c.get(f"/api/games/{state['name']}/analysis", params={"seed": seed, "samples": 1})
        assert r.status_code == 200
    assert len(jobs.caches["analysis"]) == 5
    jobs.caches["analysis"].size = 3
    c.get(f"/api/games/{state['name']}/analysis", params={"seed": 9, "samples": 1})
    assert len(jobs.caches["analysis"]) == 3


def test_a_search_a_client_left_is_not_an_error_and_stops(tmp_path, caplog, monkeypatch):
    from tripeaks_solver.web import jobs as jobs_module

    made: list[jobs_module.Job] = []

    class Seen(jobs_module.Job):
        def __init__(self, *args) -> None:
            super().__init__(*args)
            made.append(self)

    monkeypatch.setattr(jobs_module, "Job", Seen)
    app = web_app.make_app(tmp_path, lambda: {HOST})
    name = app.app.state.hub.create({"start": SEEN}).name
    messages = [{"type": "http.request", "body": b"", "more_body": False}]

    async def receive():
        if messages:
            return messages.pop(0)
        await asyncio.sleep(0.3)  # the client leaves while the advice is computed
        return {"type": "http.disconnect"}

    sent = []

    async def send(message):
        sent.append(message)

    path = f"/api/games/{name}/advice"
    scope = {"type": "http", "method": "GET", "path": path, "raw_path": path.encode(),
             "root_path": "", "query_string": b"samples=5000&seed=1",
             "headers": [(b"host", HOST.encode())], "scheme": "http", "http_version": "1.1",
             "server": ("127.0.0.1", 8765), "client": ("127.0.0.1", 1)}
    with caplog.at_level(logging.DEBUG, logger="tripeaks_solver.web"):
        asyncio.run(app(scope, receive, send))
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(made) == 1 and not app.jobs.running
    assert isinstance(made[0].future.exception(timeout=30), Cancelled)  # it stopped
    assert not [m for m in sent if m.get("status") == 200]


# --- 7: status codes ----------------------------------------------------------------------
@pytest.mark.parametrize("body", [b"[" * 3000, b'{"a":' * 2000 + b"1" + b"}" * 2000,
                                  b'{"start": "TP1-E-AAAAAAD", "variants": [{}]}',
                                  b'{"start": "TP1-E-AAAAAAD", "variants": [["open"]]}',
                                  b'{"start": "TP1-E-AAAAAAD", "scoring": {}}',
                                  b'{"start": "TP1-E-AAAAAAD", "scoring": ["app"]}',
                                  b'{"start": ["TP1-E-AAAAAAD"]}', b'"start"', b"\xff\xfe"])
def test_malformed_bodies_are_400(tmp_path, body):
    c = client(tmp_path)
    r = c.post("/api/games", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400, r.text
    assert list(r.json()) == ["error"]
    assert not list(tmp_path.iterdir())


def test_the_solve_page_stops_between_its_searches_when_its_client_left():
    """Issue 54, D22: a solve ran to its end after its client left."""
    from tripeaks_solver.web.solving import solve_page

    asked: list[int] = []

    def stop_after(n: int):
        def should_stop() -> bool:
            asked.append(1)
            return len(asked) > n
        return should_stop

    with pytest.raises(Cancelled):
        solve_page("TP1-E-AAAAAAD", "app", stop_after(0))
    asked.clear()
    with pytest.raises(Cancelled):
        solve_page("TP1-E-AAAAAAD", "app", stop_after(1))  # after one rule set
    assert len(asked) == 2
    from tripeaks_solver.model.rules import RULE_ORDER

    page = solve_page("TP1-E-AAAAAAD", "app", lambda: False)
    assert [r["rules"] for r in page["rules"]] == list(RULE_ORDER)


def test_malformed_fields_of_the_other_requests_are_400(tmp_path):
    c = client(tmp_path)
    state = start(c)
    name = state["name"]
    for path, body in ((f"/api/games/{name}/move", {"move": {"x": 1}}),
                       (f"/api/games/{name}/move", {"move": "draw", "at": [1]}),
                       (f"/api/games/{name}/reveal", {"card": ["Ks"]}),
                       (f"/api/games/{name}/cancel", {"at": {"a": 1}}),
                       (f"/api/games/{name}/peek", {"at": 1.5}),
                       ("/api/solve", {"text": "TP1-E-AAAAAAD", "scoring": {}}),
                       ("/api/solve", {"text": ["TP1-E-AAAAAAD"]})):
        r = c.post(path, json=body)
        assert r.status_code == 400, (path, body, r.text)


def test_media_types_are_compared_without_case_and_unknown_methods_are_405(tmp_path):
    c = client(tmp_path)
    for kind in ("APPLICATION/JSON", "Application/Json; charset=UTF-8"):
        r = c.post("/api/games", content=b'{"start": "TP1-E-AAAAAAD"}',
                   headers={"content-type": kind})
        assert r.status_code == 201, r.text
    for method in ("FOO", "TRACE", "PUT", "DELETE", "PATCH"):
        r = c.request(method, "/api/games")
        assert r.status_code == 405, (method, r.text)
        assert "GET" in r.headers["allow"] and list(r.json()) == ["error"]
    assert c.request("TRACE", "/").status_code == 405


@pytest.mark.parametrize("number, status", [(errno.ENOSPC, 507), (errno.EFBIG, 507),
                                            (errno.EDQUOT, 507), (errno.EROFS, 503),
                                            (errno.EIO, 503)])
def test_the_servers_own_write_failures_are_5xx_with_the_reason(tmp_path, monkeypatch,
                                                                number, status):
    c = client(tmp_path)
    state = start(c)
    path = tmp_path / state["name"]
    before = path.read_text()

    def refuse(fd):
        raise OSError(number, os.strerror(number))

    monkeypatch.setattr(record_file.os, "fsync", refuse)
    r = move(c, state, "draw")
    assert r.status_code == status
    assert r.json()["error"].endswith(os.strerror(number))
    assert path.read_text() == before  # the write undone
    monkeypatch.undo()
    assert move(c, c.get(f"/api/games/{state['name']}").json(), "draw").status_code == 200


def test_a_read_only_data_directory_is_503(tmp_path, monkeypatch):
    c = client(tmp_path)

    def read_only(path, flags, *args):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(files.os, "open", read_only)
    r = c.post("/api/games", json={"start": "TP1-E-AAAAAAD"})
    assert r.status_code == 503 and r.json()["error"].endswith("Read-only file system")


def test_a_game_on_a_read_only_data_directory_can_be_looked_at(tmp_path, monkeypatch):
    """Opened to read only: the game, its advice and its moves shown; a move or a
    correction 503 with why, the file as it was (issue 54, D18)."""
    c = client(tmp_path)
    state = move(c, start(c, SEEN), "8h").json()
    name, path = state["name"], tmp_path / state["name"]
    hub_of(c).close()  # the server stops; the folder is mounted read-only
    before = path.read_bytes()
    real = files.os.open

    def read_only(path, flags, *args):
        if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            raise OSError(errno.EROFS, "Read-only file system")
        return real(path, flags, *args)

    monkeypatch.setattr(files.os, "open", read_only)
    c = client(tmp_path)
    r = c.get(f"/api/games/{name}")
    assert r.status_code == 200, r.text
    assert r.json()["record"] == ["8h"] and r.json()["at"] == state["at"]
    advice = c.get(f"/api/games/{name}/advice", params={"samples": 10, "at": state["at"]})
    assert advice.status_code == 200
    asked = move(c, state, "draw").json()  # nothing written until its card is said
    for path_, body in (("reveal", {"card": "Kd"}), ("correct", {"told": "Jd", "to": "Qs"})):
        r = c.post(f"/api/games/{name}/{path_}", json={**body, "at": asked["at"]})
        assert r.status_code == 503 and r.json()["error"].endswith("Read-only file system")
    assert c.get(f"/api/games/{name}").json() == asked  # still asking
    assert path.read_bytes() == before


def test_two_servers_starting_the_same_game_in_the_same_second_take_the_next_names(tmp_path):
    servers = [client(tmp_path), client(tmp_path)]
    codes: list[int] = []
    names: list[str] = []

    def begin(c):
        for _ in range(10):
            r = c.post("/api/games", json={"start": "TP1-E-AAAAAAD"})
            codes.append(r.status_code)
            if r.status_code == 201:
                names.append(r.json()["name"])

    threads = [threading.Thread(target=begin, args=(c,)) for c in servers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert codes == [201] * 20 and len(set(names)) == 20
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names)


def test_symbolic_links_are_listed_with_why_and_never_read_or_opened(tmp_path):
    """A link out of the data directory is not read (the list said its start, moves and
    score); a link to another record of the folder names that record, which is the one
    to open (opening the link said "open in another session") (issue 54, D9)."""
    folder = tmp_path / "data"
    folder.mkdir()
    (tmp_path / "outside.txt").write_text(RECORD + "draw\n")
    (folder / "out.txt").symlink_to(tmp_path / "outside.txt")
    c = client(folder)
    name = start(c)["name"]
    (folder / "same.txt").symlink_to(folder / name)
    games = {g["file"]: g for g in c.get("/api/games").json()["games"]}
    assert set(games) == {name, "out.txt", "same.txt"}
    for link in ("out.txt", "same.txt"):
        g = games[link]
        assert g["start"] is None and g["moves"] is None and g["score"] is None, g
        assert "symbolic link" in g["error"], g
    assert "out of" in games["out.txt"]["error"] and name in games["same.txt"]["error"]
    r = c.get("/api/games/same.txt")
    assert r.status_code == 400 and name in r.json()["error"]
    assert c.get("/api/games/out.txt").status_code == 400
    assert c.get(f"/api/games/{name}").status_code == 200


RECORD_8H = RECORD.replace("code TP1-E-AAAAAAD", f"seen {SEEN}") + "8h\ndraw:Kd\n"


@pytest.mark.parametrize("name, data, why", [
    ("cr-only.txt", RECORD_8H.replace("\n", "\r").encode(), "CR alone"),
    ("long-line.txt", (RECORD_8H + "# " + "x" * 5000 + "\n").encode(), "4,096 bytes"),
    ("huge.txt", (RECORD_8H + ("# " + "x" * 98 + "\n") * 11_000).encode(), "1,000,000 bytes")])
def test_the_list_the_page_coach_and_replay_agree_on_what_a_record_is(tmp_path, capsys,
                                                                      name, data, why):
    """A record with CR-only line ends (an old Mac editor's), a line over 4,096 bytes,
    or over 1 MB in all: refused alike by the list, the page, coach and replay, with the
    same reason (the list read CR-only ends as line ends; replay alone refused the long
    line; a 95 MB record took 30 s to list) (issue 54, D10, D21)."""
    from cli_run import run

    (tmp_path / name).write_bytes(data)
    (tmp_path / "good.txt").write_bytes(RECORD_8H.replace("\n", "\r\n").encode())
    c = client(tmp_path)
    games = {g["file"]: g for g in c.get("/api/games").json()["games"]}
    assert games["good.txt"]["moves"] == 2 and games["good.txt"]["error"] is None
    assert games[name]["moves"] is None and why in games[name]["error"], games[name]
    r = c.get(f"/api/games/{name}")
    assert r.status_code == 400 and why in r.json()["error"], r.text
    for command in (["replay"], ["coach", "--json"]):
        code, _out, err = run(capsys, *command, "--record", str(tmp_path / name))
        assert code == 2 and why in err, (command, err)
    code, _out, err = run(capsys, "replay", "--record", str(tmp_path / "good.txt"))
    assert code == 0, err
    assert (tmp_path / name).read_bytes() == data


def test_a_record_that_is_not_utf8_is_listed_with_why_in_the_readers_language(tmp_path):
    """Not Python's codec message inside a translated sentence (issue 54, D20)."""
    (tmp_path / "latin1.txt").write_bytes(RECORD_8H.encode() + "# café\n".encode("latin-1"))
    c = client(tmp_path)
    for lang in ("en", "sk", "vi"):
        g = c.get("/api/games", params={"lang": lang}).json()["games"][0]
        assert g["moves"] is None and "codec" not in g["error"] and "0xe9" not in g["error"]
        if lang == "en":
            assert "not UTF-8 text" in g["error"]


def test_records_not_named_txt_are_neither_listed_nor_served(tmp_path):
    (tmp_path / "game.rec").write_text(RECORD)
    c = client(tmp_path)
    assert c.get("/api/games").json()["games"] == []
    r = c.get("/api/games/game.rec")
    assert r.status_code == 404 and ".txt" in r.json()["error"]


# --- 8: `at` covers the card asked for ------------------------------------------------------
def test_a_stale_tab_cannot_cancel_or_answer_another_tabs_question(tmp_path):
    c = client(tmp_path)
    seen = start(c, SEEN)
    name = seen["name"]
    asked = move(c, seen, "draw").json()  # tab A: which card did the draw turn up?
    assert asked["need"] is not None and asked["at"] != seen["at"]
    for path, body in (("cancel", {}), ("reveal", {"card": "Kd"}), ("move", {"move": "d"}),
                       ("peek", {})):
        r = c.post(f"/api/games/{name}/{path}", json={**body, "at": seen["at"]})  # tab B
        assert r.status_code == 409 and "another tab" in r.json()["error"], path
    now = c.get(f"/api/games/{name}").json()
    assert now["need"] == asked["need"] and now["at"] == asked["at"]
    assert (tmp_path / name).read_text().endswith("moves:\n")
    # Cancelled by A, then drawn again: the same question, the same version.
    again = c.post(f"/api/games/{name}/cancel", json={"at": asked["at"]}).json()
    assert again["at"] == seen["at"] and again["need"] is None
    assert move(c, again, "draw").json()["at"] == asked["at"]
    r = c.post(f"/api/games/{name}/reveal", json={"card": "Kd", "at": asked["at"]})
    assert r.status_code == 200 and r.json()["record"] == ["draw:Kd"]


def test_a_question_left_by_a_restart_says_the_move_was_dropped(tmp_path):
    with client(tmp_path) as c:  # its end (the lifespan's) closes the games: a restart
        seen = start(c, SEEN)
        asked = move(c, seen, "draw").json()
    name = seen["name"]
    assert (tmp_path / name).read_text().endswith("moves:\n")  # the draw was never written
    with client(tmp_path) as again:
        for path, body in (("reveal", {"card": "Kd"}), ("cancel", {})):
            r = again.post(f"/api/games/{name}/{path}", json={**body, "at": asked["at"]})
            assert r.status_code == 409, path
            assert "dropped" in r.json()["error"] and "moved on" not in r.json()["error"]
        # a move from a page behind is still "another tab": no question was pending there
        r = again.post(f"/api/games/{name}/move", json={"move": "d", "at": asked["at"]})
        assert r.status_code == 409 and "another tab" in r.json()["error"]


def two_card_question(tmp_path):
    """Deal 1 on the page from its seen cards, to its two-card question: after Kc Ad d d
    d, 6s turns up places 10 and 11. (deal, client, game's name, the state asking.)"""
    from tripeaks_solver.model.dealing import Deal

    deal = Deal.from_number(1)  # Easy: after Kc Ad d d d, 6s turns up places 10 and 11
    c = client(tmp_path)
    state = start(c, "2c Ad 6s Kc Kh Th Ts Js Td 8s Qc")
    name = state["name"]
    for token in ("Kc", "Ad", "d", "d", "d", "6s"):
        state = move(c, state, token).json()
        while state["need"] is not None and token != "6s":
            card = deal.cards[state["need"]["place"]].token
            state = c.post(f"/api/games/{name}/reveal",
                           json={"card": card, "at": state["at"]}).json()
    return deal, c, name, state


def test_each_card_said_of_a_two_card_question_is_a_new_version(tmp_path):
    deal, c, name, state = two_card_question(tmp_path)
    asked = state
    assert (asked["need"]["of"], asked["need"]["place"]) == (2, 10)
    left, right = deal.cards[10].token, deal.cards[11].token
    first = c.post(f"/api/games/{name}/reveal", json={"card": left, "at": asked["at"]}).json()
    assert first["need"]["asked"] == 2 and first["at"] != asked["at"]
    r = c.post(f"/api/games/{name}/reveal", json={"card": right, "at": asked["at"]})
    assert r.status_code == 409  # the tab that saw the first question is behind
    r = c.post(f"/api/games/{name}/reveal", json={"card": right, "at": first["at"]})
    assert r.status_code == 200 and r.json()["need"] is None
    assert r.json()["record"][-1] == f"6s:{left},{right}"


def test_a_card_said_for_the_open_question_cannot_be_a_corrections_card(tmp_path):
    """The page greys it out; the API refused nothing, and the question started over
    with a misleading "known already" (issue 54, D14)."""
    deal, c, name, state = two_card_question(tmp_path)
    left, right = deal.cards[10].token, deal.cards[11].token
    first = c.post(f"/api/games/{name}/reveal", json={"card": left, "at": state["at"]}).json()
    r = c.post(f"/api/games/{name}/correct", json={"told": "Th", "to": left, "at": first["at"]})
    assert r.status_code == 400 and "said already" in r.json()["error"]
    assert c.get(f"/api/games/{name}").json() == first
    r = c.post(f"/api/games/{name}/reveal", json={"card": right, "at": first["at"]})
    assert r.status_code == 200 and r.json()["record"][-1] == f"6s:{left},{right}"


# --- 10, 11: exposure and the end -----------------------------------------------------------
def test_the_token_cookie_is_named_per_port(tmp_path):
    one = client(tmp_path, token="aaa", cookie="tripeaks_token_8765")
    r = one.get("/api/games", params={"token": "aaa"})
    assert r.status_code == 200
    assert r.headers["set-cookie"].startswith("tripeaks_token_8765=aaa;")
    other = client(tmp_path, token="bbb", cookie="tripeaks_token_8766")
    other.cookies.set("tripeaks_token_8765", "aaa")
    assert other.get("/api/games").status_code == 403


@pytest.mark.parametrize("path, where", [
    ("//evil.example/", "/evil.example/"), ("/%2F%2Fevil.example", "/evil.example"),
    ("/%5C%5Cevil.example", "/%5C%5Cevil.example"), ("/%E2%82%AC", "/%E2%82%AC"),
    ("/%0d%0aX-Injected:%201", "/%0D%0AX-Injected%3A%201"),
    ("/play/a.txt", "/play/a.txt")])
def test_the_token_visit_sends_the_page_to_a_path_of_this_server(tmp_path, path, where):
    """The 303 that takes the token out of the address names a path of this server,
    percent-encoded, beginning with one slash: never another host (``//evil.example``),
    never a 500 for a character a header cannot hold (issue 54, D6)."""
    from urllib.parse import unquote

    from starlette.requests import Request

    guard = web_app.make_app(tmp_path, lambda: {HOST}, "aaa")
    scope = {"type": "http", "method": "GET", "path": unquote(path),  # as uvicorn gives it
             "raw_path": path.encode(), "query_string": b"token=aaa&lang=sk",
             "headers": [(b"host", HOST.encode())]}
    r = guard.token_visit(Request(scope))
    assert r is not None and r.status_code == 303
    assert r.headers["location"] == where + "?lang=sk"


def test_the_page_is_served_only_with_its_headers(tmp_path):
    """The page's template is not a static file (framed from another site, its API
    calls answered: clickjacking); every static file carries the page's headers (issue
    54, D7)."""
    c = client(tmp_path)
    for path in ("/static/index.html", "/static/Index.html", "/static/index.html/"):
        assert c.get(path).status_code == 404, path
    for path in ("/", "/static/app.js", "/static/style.css"):
        r = c.get(path)
        assert r.status_code == 200, path
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"], path
        assert r.headers["x-content-type-options"] == "nosniff", path
        assert r.headers["referrer-policy"] == "no-referrer", path


@pytest.mark.parametrize("name, values", [
    ("origin", [f"http://{HOST}", "http://evil.example"]),
    ("origin", ["http://evil.example", f"http://{HOST}"]),
    ("sec-fetch-site", ["same-origin", "cross-site"])])
def test_a_guarded_header_given_twice_is_refused(tmp_path, name, values):
    """Only the first was checked (issue 54, D17); a browser never sends two."""
    c = client(tmp_path)
    headers = [(name, v) for v in values]
    r = c.get("/api/games", headers=headers)
    assert r.status_code in (400, 403), r.text
    r = c.post("/api/games", json={"start": "TP1-E-AAAAAAD"}, headers=headers)
    assert r.status_code in (400, 403) and list(tmp_path.iterdir()) == []
    r = c.get("/api/games", headers=[(name, values[0])])  # once: as before
    assert r.status_code == (200 if values[0] != "http://evil.example" else 403)


def test_api_requests_from_another_site_are_refused_even_gets(tmp_path):
    c = client(tmp_path)
    state = start(c)
    for headers in ({"sec-fetch-site": "cross-site"}, {"sec-fetch-site": "same-site"},
                    {"origin": "http://evil.example"}, {"origin": "null"}):
        for path in ("/api/games", f"/api/games/{state['name']}",
                     f"/api/games/{state['name']}/advice"):
            r = c.get(path, headers=headers)
            assert r.status_code == 403 and "another site" in r.json()["error"], (path, headers)
    # The page itself may be opened from a link on another site; its own requests pass.
    assert c.get("/", headers={"sec-fetch-site": "cross-site"}).status_code == 200
    assert c.get("/api/games", headers={"sec-fetch-site": "same-origin",
                                        "origin": f"http://{HOST}"}).status_code == 200


def test_the_end_judges_with_the_advice_samples(tmp_path):
    c = client(tmp_path)
    state = move(c, start(c, SEEN), "8h").json()
    end = c.get(f"/api/games/{state['name']}/analysis",
                params={"samples": 300, "seed": 1}).json()
    assert (end["samples"], end["samples_asked"]) == (300, 300)  # no cap: chances reused
    exact = move(c, start(c), "draw").json()
    end = c.get(f"/api/games/{exact['name']}/analysis", params={"samples": 1000}).json()
    assert (end["samples"], end["samples_asked"]) == (None, None)


# --- issue 54, D4: a peek step is all or nothing on the disk ---------------------------------
def peek_walk(c: TestClient, deal, each) -> dict:
    """A peek followed to its end on a seen start of ``deal``; ``each(state)`` before
    every request (reveal or peek-next) returns the state to go on from."""
    state = start(c, " ".join(deal.cards[p].token for p in range(18, 29)))
    name = state["name"]
    state = c.post(f"/api/games/{name}/peek", json={"at": state["at"]}).json()
    for _ in range(100):
        if state["peek"] is None or state["peek"]["done"]:
            return state
        state = each(state)
    raise AssertionError("the peek did not end")


def next_request(c: TestClient, deal, state: dict):
    name = state["name"]
    if state["need"] is not None:
        card = deal.cards[state["need"]["place"]].token
        return c.post(f"/api/games/{name}/reveal", json={"card": card, "at": state["at"]})
    return c.post(f"/api/games/{name}/peek-next", json={"at": state["at"]})


def test_each_request_of_a_peek_is_one_write_of_its_lines(tmp_path, monkeypatch):
    """A card said and the step that follows it (undos and moves), or the last step's
    ~dozens of undos: one write and one sync each, so a kill leaves all or none."""
    from tripeaks_solver.model.dealing import Deal

    deal = Deal.from_number(2)
    c = client(tmp_path)
    writes: list[bytes] = []
    real = record_file.write_all
    monkeypatch.setattr(record_file, "write_all",
                        lambda fd, data: (writes.append(data), real(fd, data))[1])
    most = 0

    def each(state: dict) -> dict:
        nonlocal most
        writes.clear()
        r = next_request(c, deal, state)
        assert r.status_code == 200, r.text
        assert len(writes) <= 1, writes  # none: the first card of two said
        most = max([most] + [w.count(b"\n") for w in writes])
        return r.json()

    final = peek_walk(c, deal, each)
    assert most > 2  # some requests wrote several lines, at once
    stored = parse_record_file((tmp_path / final["name"]).read_text(), "x")
    assert [o.token for o in stored.moves] == final["record"]


def test_a_peek_step_refused_by_a_full_disk_leaves_the_record_and_the_game(tmp_path,
                                                                           monkeypatch):
    """The file may grow by the card said's own line, not by the step after it (as a
    file size limit or a full disk): 507, the record and the game as they were; with
    room again, the same request goes through (the docs' "the record as it was")."""
    from tripeaks_solver.model.dealing import Deal

    deal = Deal.from_number(2)
    c = client(tmp_path)
    real = record_file.write_all
    room: list[int | None] = [None]

    def limited(fd: int, data: bytes) -> None:
        if room[0] is not None and os.fstat(fd).st_size + len(data) > room[0]:
            raise OSError(errno.EFBIG, os.strerror(errno.EFBIG))
        real(fd, data)

    monkeypatch.setattr(record_file, "write_all", limited)
    refused = 0

    def each(state: dict) -> dict:
        nonlocal refused
        path = tmp_path / state["name"]
        before = path.read_bytes()
        need = state["need"]
        if need is not None and need["of"] == 1:
            card = deal.cards[need["place"]].token
            room[0] = len(before) + len(f"{need['move']}:{card}\n")  # its own line only
            r = next_request(c, deal, state)
            room[0] = None
            if r.status_code == 200:
                return r.json()
            assert r.status_code == 507, r.text
            assert path.read_bytes() == before
            assert c.get(f"/api/games/{state['name']}").json() == state
            refused += 1
        r = next_request(c, deal, state)
        assert r.status_code == 200, r.text
        return r.json()

    final = peek_walk(c, deal, each)
    assert refused > 0
    stored = parse_record_file((tmp_path / final["name"]).read_text(), "x")
    assert [o.token for o in stored.moves] == final["record"]


# --- issue 54, D5: the games open never drop one that asks for a card or peeks -------------
def test_opening_many_games_never_drops_one_waiting_for_a_card_or_peeking(tmp_path):
    c = client(tmp_path)
    hub = hub_of(c)
    hub.max_open = 5
    asking = move(c, start(c, SEEN), "draw").json()  # its card asked
    seen = start(c, SEEN)
    peeking = c.post(f"/api/games/{seen['name']}/peek", json={"at": seen["at"]}).json()
    assert asking["need"] is not None and peeking["peek"] is not None
    for _ in range(hub.max_open + 3):  # as a player browsing the saved games
        c.get(f"/api/games/{start(c, SEEN)['name']}")
    hub.sweep()
    assert asking["name"] in hub.tables and peeking["name"] in hub.tables
    assert len(hub.tables) == hub.max_open  # the others, least recently used, went
    r = c.post(f"/api/games/{asking['name']}/reveal", json={"card": "Kd", "at": asking["at"]})
    assert r.status_code == 200 and r.json()["record"] == ["draw:Kd"]
    now = c.get(f"/api/games/{peeking['name']}").json()
    assert now == peeking  # the peek and its question kept


def test_a_game_let_go_for_lack_of_room_says_so(tmp_path, monkeypatch):
    """Only past MAX_HELD games busy at once is one let go (a client cannot pin every
    file of the server); its question's answer then names the cause, not a restart."""
    from tripeaks_solver.web import hub as hub_module

    monkeypatch.setattr(hub_module, "MAX_HELD", 3)
    c = client(tmp_path)
    hub_of(c).max_open = 2
    asked = [move(c, start(c, SEEN), "draw").json() for _ in range(4)]
    first = asked[0]
    assert first["name"] not in hub_of(c).tables
    assert all(a["name"] in hub_of(c).tables for a in asked[1:])
    r = c.post(f"/api/games/{first['name']}/reveal", json={"card": "Kd", "at": first["at"]})
    assert r.status_code == 409
    said = r.json()["error"]
    assert "room" in said and "restarted" not in said and "another tab" not in said
    r = c.post(f"/api/games/{first['name']}/cancel", json={"at": first["at"]})
    assert r.status_code == 409 and "room" in r.json()["error"]
    # said once: the page reloads, and the game goes on from its record
    state = c.get(f"/api/games/{first['name']}").json()
    assert move(c, state, "draw").status_code == 200
