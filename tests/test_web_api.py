"""The web server's HTTP API and its guards, through Starlette's test client; the
``serve`` command's address, port and Ctrl-C as a process."""

from __future__ import annotations

import logging
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import pytest

with warnings.catch_warnings():  # starlette's note on httpx's successor
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tripeaks_solver.errors import InputError
from tripeaks_solver.games.record_file import RecordFile
from tripeaks_solver.games.records import parse_record_file
from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.game import Game
from tripeaks_solver.model.observed import ObservedGame, seen_places
from tripeaks_solver.model.position import Position
from tripeaks_solver.model.rules import CLASSIC, EASY
from tripeaks_solver.solver.solve import solve
from tripeaks_solver.web.app import MAX_BODY, make_app

REPO = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1:8765"
ORIGIN = f"http://{HOST}"


def client(folder: Path, token: str | None = None) -> TestClient:
    app = make_app(folder, lambda: {HOST, "localhost:8765"}, token)
    return TestClient(app, base_url=f"http://{HOST}", raise_server_exceptions=False)


def seen_line(deal: Deal, rules=EASY) -> str:
    return " ".join(deal.cards[p].token for p in seen_places(rules))


def start(c: TestClient, text: str, **extra) -> dict:
    r = c.post("/api/games", json={"start": text, **extra})
    assert r.status_code == 201, r.text
    return r.json()


def play_through(c: TestClient, name: str, deal: Deal, samples: int = 20) -> dict:
    """Follow the advice to the end, saying every card that turns up from ``deal``
    (which only this test knows)."""
    state = c.get(f"/api/games/{name}").json()
    for _ in range(200):
        if state["status"] != "in play":
            return state
        advice = c.get(f"/api/games/{name}/advice",
                       params={"at": state["at"], "samples": samples, "seed": 3}).json()
        assert advice["at"] == state["at"]
        assert advice["recommended"] in state["legal"]
        # one measure: the chance of the move recommended is the top bar's (1 or 0 exact)
        assert advice["moves"][0]["move"] == advice["recommended"]
        assert advice["chance"] == advice["moves"][0]["chance"]
        if advice["exact"]:
            assert advice["chance"] in (0.0, 1.0)
        state = c.post(f"/api/games/{name}/move",
                       json={"move": advice["recommended"], "at": state["at"]}).json()
        while state["need"] is not None:
            card = deal.cards[state["need"]["place"]].token
            assert card not in state["known_cards"]
            r = c.post(f"/api/games/{name}/reveal", json={"card": card, "at": state["at"]})
            assert r.status_code == 200, r.text
            state = r.json()
    raise AssertionError("the game did not end")


def test_a_whole_game_on_a_deal_only_the_test_knows(tmp_path):
    deal = Deal.from_number(11)
    c = client(tmp_path)
    state = start(c, seen_line(deal), rules="easy", scoring="app")
    name = state["name"]
    assert state["known"] == 11 and state["record"] == [] and state["need"] is None
    # The board as the player sees it: the bottom row face up, the rest as backs.
    assert [b["card"] for b in state["board"][18:]] == [deal.cards[p].token
                                                        for p in range(18, 28)]
    assert all(b["card"] is None and not b["face_up"] for b in state["board"][:18])
    final = play_through(c, name, deal)
    # The plain-Python game on the real deal, the same moves: the same end.
    game = Game(deal, EASY)
    for token in final["record"]:
        game.play(token.split(":")[0])
    assert final["status"] == game.status.value
    assert final["score"] == game.score_under("app")
    assert final["moves_played"] == game.moves
    # The record on disk holds that game, every card said where the deal has it.
    stored = parse_record_file((tmp_path / name).read_text(), name)
    assert [o.token for o in stored.moves] == final["record"]
    replayed = ObservedGame.replay(stored.start, stored.moves)
    for place, card in enumerate(replayed.knowledge.places):
        assert card is None or card == deal.cards[place]
    end = c.get(f"/api/games/{name}/analysis", params={"samples": 20, "seed": 3}).json()
    assert end["result"] == final["status"] and end["score"] == final["score"]
    assert len(end["analysis"]["moves"]) == len(final["record"])
    # The list shows it, with its result.
    games = c.get("/api/games").json()["games"]
    assert [(g["file"], g["result"], g["moves"]) for g in games] == [
        (name, final["status"], final["moves_played"])]


def test_a_code_is_advised_exactly_and_undo_counts(tmp_path):
    c = client(tmp_path)
    state = start(c, "TP1-C-AAAAAAD")
    assert state["rules"] == "classic" and state["exact"]
    name = state["name"]
    advice = c.get(f"/api/games/{name}/advice", params={"at": state["at"]}).json()
    best = solve(Deal.from_code("TP1-C-AAAAAAD"), CLASSIC)
    assert advice["player"] == "exact" and advice["best_score"] == best.best_score
    rec = advice["recommended"]
    after = solve(Position.after(Deal.from_code("TP1-C-AAAAAAD"), CLASSIC, [rec]))
    assert after.best_score == best.best_score and advice["line"][0] == rec
    state = c.post(f"/api/games/{name}/move", json={"move": rec, "at": state["at"]}).json()
    state = c.post(f"/api/games/{name}/move", json={"move": "u", "at": state["at"]}).json()
    # the move taken back still counts, as the app counts it
    assert state["moves_played"] == 1 and state["can_undo"] is False
    assert state["record"] == [rec, "undo"]
    text = (tmp_path / name).read_text()
    assert text.endswith("moves:\n" + rec + "\nundo\n")


def test_a_tab_behind_the_game_is_refused(tmp_path):
    c = client(tmp_path)
    state = start(c, "TP1-E-AAAAAAD")
    name, at = state["name"], state["at"]
    first = c.post(f"/api/games/{name}/move", json={"move": "draw", "at": at})
    assert first.status_code == 200 and first.json()["at"] != at
    again = c.post(f"/api/games/{name}/move", json={"move": "draw", "at": at})
    assert again.status_code == 409 and "another tab" in again.json()["error"]
    assert (tmp_path / name).read_text().endswith("moves:\ndraw:3s\n")


def test_moves_from_many_threads_keep_the_record_whole(tmp_path):
    c = client(tmp_path)
    name = start(c, "TP1-E-AAAAAAD")["name"]
    codes: list[int] = []

    def draw():
        for _ in range(5):
            state = c.get(f"/api/games/{name}").json()
            r = c.post(f"/api/games/{name}/move", json={"move": "draw", "at": state["at"]})
            codes.append(r.status_code)

    threads = [threading.Thread(target=draw) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert set(codes) <= {200, 409}
    stored = parse_record_file((tmp_path / name).read_text(), name)
    assert all(o.move.is_draw for o in stored.moves)
    assert len(stored.moves) == codes.count(200)
    assert c.get(f"/api/games/{name}").json()["record"] == [o.token for o in stored.moves]


def test_the_question_of_the_card_that_turned_up(tmp_path):
    deal = Deal.from_number(4)
    c = client(tmp_path)
    begun = start(c, seen_line(deal))
    name = begun["name"]
    state = c.post(f"/api/games/{name}/move", json={"move": "draw", "at": begun["at"]}).json()
    need = state["need"]
    assert need == {"move": "draw", "place": 29, "name": "stock card 1", "of": 1, "asked": 1}
    assert state["legal"] == [] and (tmp_path / name).read_text().endswith("moves:\n")
    at = state["at"]  # names the question: not the version before it
    assert at != begun["at"]
    known = state["known_cards"][0]
    r = c.post(f"/api/games/{name}/reveal", json={"card": known, "at": at})
    assert r.status_code == 400 and "known already" in r.json()["error"]
    r = c.post(f"/api/games/{name}/move", json={"move": "draw", "at": at})
    assert r.status_code == 400
    card = deal.cards[29].token
    state = c.post(f"/api/games/{name}/reveal", json={"card": card, "at": at}).json()
    assert state["need"] is None and state["waste"] == card
    assert (tmp_path / name).read_text().endswith(f"moves:\ndraw:{card}\n")


def test_peek_walks_through_the_cards(tmp_path):
    """The page follows the peek's plan itself: each step's taps are played and only
    the cards that turn up are asked, so a whole peek takes a request per card shown,
    one to start and one for the last step (the moves undone); the moves are those of
    ``plan_peek`` with the session's seed (the coach's walk-through)."""
    from tripeaks_solver.analysis.peek import plan_peek
    from tripeaks_solver.model.layout import Layout

    deal = Deal.from_number(2)
    c = client(tmp_path)
    name = start(c, seen_line(deal))["name"]
    state = c.post(f"/api/games/{name}/peek", json={"at": c.get(f"/api/games/{name}")
                                                    .json()["at"]}).json()
    clicks, picked = 1, 0
    peek = state["peek"]
    assert peek["of"] == 41 and peek["seen"] == 0 and peek["following"]
    seed = peek["seed"]
    for _ in range(100):
        peek = state["peek"]
        if peek is None or peek["done"]:
            break
        if state["need"] is not None:  # the step's taps made: its card asked
            assert peek["following"] and state["need"]["move"] == peek["moves"][-1]
            card = deal.cards[state["need"]["place"]].token
            state = c.post(f"/api/games/{name}/reveal",
                           json={"card": card, "at": state["at"]}).json()
            picked += 1
        else:  # the last step: undo back to where the peek began
            assert peek["moves"] == [] and peek["back"] > 0 and not peek["following"]
            state = c.post(f"/api/games/{name}/peek-next", json={"at": state["at"]}).json()
        clicks += 1
    assert state["peek"] is None or state["peek"]["done"]
    assert state["exact"] and clicks <= picked + 3
    plan = plan_peek(deal, EASY, Layout.of_deal(deal, Game(deal, EASY).visible_places()),
                     seed=seed)
    assert plan.complete and len(plan.revealed) == picked
    want = [t for e in plan.excursions for t in [m.token for m in e.moves] + ["undo"] * e.undos]
    assert [t.split(":")[0] for t in state["record"]] == want
    advice = c.get(f"/api/games/{name}/advice", params={"at": state["at"]}).json()
    assert advice["player"] == "exact" and advice["line"]


def test_a_peek_stops_at_its_question(tmp_path):
    deal = Deal.from_number(2)
    c = client(tmp_path)
    begun = start(c, seen_line(deal))
    name = begun["name"]
    state = c.post(f"/api/games/{name}/peek", json={"at": begun["at"]}).json()
    assert state["need"] is not None
    state = c.post(f"/api/games/{name}/peek", json={"at": state["at"]}).json()
    assert state["peek"] is None and state["need"] is None
    r = c.post(f"/api/games/{name}/peek-next", json={"at": state["at"]})
    assert r.status_code == 400


def test_a_card_told_wrongly_is_corrected(tmp_path):
    """The player picks 2-of-something wrong for a card; the page lists the cards told
    (where and when), the correction rewrites the record, and the real card, when it
    turns up, can be said."""
    deal = Deal.from_number(4)
    c = client(tmp_path)
    begun = start(c, seen_line(deal))
    name = begun["name"]
    state = c.post(f"/api/games/{name}/move", json={"move": "draw", "at": begun["at"]}).json()
    truth = deal.cards[29]
    wrong = next(card for card in deal.cards[30:] if card.rank != truth.rank)
    state = c.post(f"/api/games/{name}/reveal",
                   json={"card": wrong.token, "at": state["at"]}).json()
    told = {t["card"]: t for t in state["told"]}
    # each named as the question that asked for it named it: the first card drawn
    assert len(told) == 12 and told[wrong.token] == {"card": wrong.token, "place": 29,
                                                     "name": "stock card 1", "ply": 1}
    assert told[deal.cards[18].token] == {"card": deal.cards[18].token, "place": 18, "ply": 0,
                                          "name": "the bottom row, 1st card from the left"}
    assert state["moves"] == [{"ply": 1, "number": 1, "move": "draw",
                               "shown": [wrong.token], "taken_back": False}]
    r = c.post(f"/api/games/{name}/correct", json={"told": wrong.token,
                                                   "to": deal.cards[18].token,
                                                   "at": state["at"]})
    assert r.status_code == 400 and "known already" in r.json()["error"]
    r = c.post(f"/api/games/{name}/correct", json={"told": wrong.token, "to": truth.token,
                                                   "at": begun["at"]})
    assert r.status_code == 409
    told = state
    state = c.post(f"/api/games/{name}/correct", json={"told": wrong.token,
                                                       "to": truth.token,
                                                       "at": told["at"]}).json()
    assert state["waste"] == truth.token and state["record"] == [f"draw:{truth.token}"]
    # The record rewritten is a new version: a tab that showed the card told is behind.
    assert state["at"] != told["at"]
    for path, body in (("move", {"move": "draw"}), ("correct", {"told": truth.token,
                                                                  "to": wrong.token})):
        r = c.post(f"/api/games/{name}/{path}", json={**body, "at": told["at"]})
        assert r.status_code == 409 and "another tab" in r.json()["error"], path
    advice = c.get(f"/api/games/{name}/advice", params={"at": state["at"], "samples": 10})
    assert advice.json()["at"] == state["at"]
    assert c.get(f"/api/games/{name}/advice", params={"at": told["at"]}).status_code == 409
    assert wrong.token not in state["known_cards"]
    assert (tmp_path / name).read_text().endswith(f"moves:\ndraw:{truth.token}\n")
    for bad in ({"told": 5, "to": "Ks"}, {"told": "Ks"}, {"told": "Zz", "to": "Ks"}):
        assert c.post(f"/api/games/{name}/correct", json=bad).status_code == 400


def test_a_code_has_nothing_to_correct(tmp_path):
    c = client(tmp_path)
    state = start(c, "TP1-E-AAAAAAD")
    assert state["told"] == []
    r = c.post(f"/api/games/{state['name']}/correct", json={"told": "9c", "to": "Ks"})
    assert r.status_code == 400


def test_the_move_list_judged_and_the_board_after_a_move(tmp_path):
    """The review's rows are ``analyze``'s (its marks, its lost_at); the board after
    move N shows move N's waste."""
    from tripeaks_solver.analysis.hints import analyze

    code = "TP1-E-AAAAAAD"
    deal = Deal.from_code(code)
    c = client(tmp_path)
    begun = start(c, code)
    name = begun["name"]
    game, ats = Game(deal, EASY), [begun["at"]]
    for move in ("draw", "draw", "draw", "undo", "draw", "draw"):  # a move taken back
        game.play(move)
        ats.append(c.post(f"/api/games/{name}/move",
                          json={"move": move, "at": ats[-1]}).json()["at"])
    at = ats[-1]
    state = c.get(f"/api/games/{name}").json()
    assert [(r["number"], r["taken_back"]) for r in state["moves"]] == [
        (1, False), (2, False), (3, True), (3, True), (4, False), (5, False)]
    review = c.get(f"/api/games/{name}/review", params={"at": at}).json()
    theirs = analyze(deal, EASY, [r["move"] for r in state["moves"]],
                     samples=review["samples"], seed=review["seed"])  # the game's own
    assert review["exact"] and [r["mark"] for r in review["rows"]] == [
        r.mark for r in theirs.moves]
    assert [r["exact_mark"] for r in review["rows"]] == [r.exact_mark or "" for r in theirs.moves]
    assert review["lost_total"] == theirs.lost_total
    lost = review["lost"]
    assert (lost and lost["number"]) == theirs.lost_at
    replay = Game(deal, EASY)
    for ply, token in enumerate(state["record"], 1):
        replay.play(token.split(":")[0])
        board = c.get(f"/api/games/{name}/review/{ply}").json()
        assert board["ply"] == ply and board["waste"] == replay.waste.token
        assert board["stock_left"] == replay.stock_left
        assert board["line"] == solve(Position.of(replay)).tokens
    assert c.get(f"/api/games/{name}/review/99").status_code == 400
    assert c.get(f"/api/games/{name}/review", params={"at": ats[2]}).status_code == 409


def test_fair_marks_while_cards_are_unseen(tmp_path):
    from tripeaks_solver.analysis.judgement import BLUNDER, INACCURACY, MISTAKE

    deal = Deal.from_number(11)
    c = client(tmp_path)
    name = start(c, seen_line(deal))["name"]
    final = play_through(c, name, deal)
    review = c.get(f"/api/games/{name}/review",
                   params={"at": final["at"], "samples": 20, "seed": 3}).json()
    assert final["status"] != "in play"
    assert len(review["rows"]) == len(final["record"])
    for r in review["rows"]:
        assert r["followed"]  # the advice followed all the way: nothing marked
        loss = r["chance_best"] - r["chance_played"]
        assert r["mark"] == "" and r["better"] is None and loss < INACCURACY
    assert INACCURACY < MISTAKE < BLUNDER
    assert review["accuracy"] == 1 and review["costliest"] == []


def test_a_won_game_takes_no_undo_and_no_peek(tmp_path):
    code = "TP1-E-AAAAAAD"
    best = solve(Deal.from_code(code), EASY)
    assert best.winnable
    c = client(tmp_path)
    begun = start(c, code)
    name, at = begun["name"], begun["at"]
    for move in best.tokens:
        state = c.post(f"/api/games/{name}/move", json={"move": move, "at": at}).json()
        at = state["at"]
    assert state["status"] == "won" and not state["can_undo"] and not state["can_peek"]
    r = c.post(f"/api/games/{name}/move", json={"move": "undo", "at": at})
    assert r.status_code == 400 and "won" in r.json()["error"]
    assert c.post(f"/api/games/{name}/peek", json={"at": at}).status_code == 400
    assert (tmp_path / name).read_text().endswith(f"{best.tokens[-1]}\n")


def test_the_advice_says_why_not_the_top_bar(tmp_path):
    """When the recommended move is not alone at the top (a tie within the noise of the
    samples, or every chance the same and the points chose), the advice says so."""
    from tripeaks_solver.analysis.chances import move_chances
    from tripeaks_solver.analysis.fair import View
    from tripeaks_solver.web.review import rather_than

    c = client(tmp_path)
    seen = 0
    for number in range(60):
        deal = Deal.from_number(number)
        ch = move_chances(View.of(Position(deal, EASY)), 50, 3)
        note = rather_than(ch)
        top = ch.top
        if ch.why is None:
            assert note is None
            assert top is not None and top.chance == ch.moves[0].chance
            continue
        assert note == {"why": ch.why, "top": top.move.token,
                        "more": top.wins - ch.moves[0].wins,
                        "points": round(ch.moves[0].points, 2)}
        begun = start(c, seen_line(deal))
        advice = c.get(f"/api/games/{begun['name']}/advice",
                       params={"at": begun["at"], "samples": 50, "seed": 3}).json()
        assert advice["rather"] == note
        seen += 1
        if seen == 2:
            break
    assert seen, "no deal of 60 recommends a move not alone at the top"


# --- the guards ------------------------------------------------------------------------
@pytest.mark.parametrize("host", ["evil.example", "evil.example:8765", "127.0.0.1:9999",
                                  "localhost"])
def test_a_foreign_host_header_is_refused(tmp_path, host):
    c = client(tmp_path)
    for r in (c.get("/", headers={"host": host}),
              c.get("/api/games", headers={"host": host}),
              c.post("/api/games", json={"start": "TP1-E-AAAAAAD"}, headers={"host": host})):
        assert 400 <= r.status_code < 500 and "Host" in r.json()["error"]
    assert not list(tmp_path.iterdir())


def test_both_loopback_names_are_served(tmp_path):
    c = client(tmp_path)
    assert c.get("/", headers={"host": "localhost:8765"}).status_code == 200
    page = c.get("/")
    assert page.status_code == 200 and 'data-action="start"' in page.text
    for name in ("cards.js", "app.js", "style.css"):
        assert c.get(f"/static/{name}").status_code == 200


def test_a_request_from_another_site_is_refused(tmp_path):
    c = client(tmp_path)
    body = {"start": "TP1-E-AAAAAAD"}
    for headers in ({"origin": "http://evil.example"}, {"origin": "null"},
                    {"origin": "http://127.0.0.1:9999"}, {"sec-fetch-site": "cross-site"}):
        r = c.post("/api/games", json=body, headers=headers)
        assert r.status_code == 403 and "another site" in r.json()["error"]
    # a form a site could post without asking: not JSON
    r = c.post("/api/games", content=b"start=TP1-E-AAAAAAD",
               headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 415
    assert not list(tmp_path.iterdir())
    assert c.post("/api/games", json=body, headers={"origin": ORIGIN}).status_code == 201


def test_a_large_body_is_refused(tmp_path):
    c = client(tmp_path)
    big = b'{"start": "' + b"x" * MAX_BODY + b'"}'
    r = c.post("/api/games", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413

    def chunks():  # no Content-Length: counted as it comes
        for _ in range(20):
            yield b" " * 1024

    r = c.post("/api/games", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("name", ["..", ".hidden", "a b", "x%2F..%2Fy", "%2Fetc%2Fpasswd",
                                  "..%2Fescape.txt", "~", "a\\b"])
def test_record_names_that_leave_the_folder_are_refused(tmp_path, name):
    folder = tmp_path / "data"
    folder.mkdir()
    (tmp_path / "escape.txt").write_text("# tripeaks-solver game record\n")
    c = client(folder)
    r = c.get(f"/api/games/{name}")
    assert 400 <= r.status_code < 500 and "error" in r.json()
    r = c.post(f"/api/games/{name}/move", json={"move": "draw"})
    assert 400 <= r.status_code < 500


def test_a_symlink_out_of_the_folder_is_refused(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    outside = tmp_path / "outside.txt"
    outside.write_text("keep")
    (folder / "link.txt").symlink_to(outside)
    c = client(folder)
    r = c.get("/api/games/link.txt")
    assert r.status_code == 400
    assert outside.read_text() == "keep"


def test_bad_requests_are_short_json_4xx(tmp_path, caplog):
    c = client(tmp_path)
    (tmp_path / "notes.txt").write_text("my notes\n")
    cases = [
        (c.get("/nowhere"), 404), (c.put("/api/games", json={}), 405),
        (c.post("/api/games", content=b"{", headers={"content-type": "application/json"}), 400),
        (c.post("/api/games", json=[1, 2]), 400),
        (c.post("/api/games", json={"start": "Zz 4s"}), 400),
        (c.post("/api/games", json={"start": "TP1-E-AAAAAAD", "scoring": "x"}), 400),
        (c.post("/api/games", json={"start": "TP1-E-AAAAAAD", "rules": 7}), 400),
        (c.post("/api/games", json={"start": "TP1-E-AAAAAAD", "variants": "open"}), 400),
        (c.get("/api/games/missing.txt"), 404), (c.get("/api/games/notes.txt"), 400),
        (c.post("/api/solve", json={"text": "nonsense"}), 400),
        (c.post("/api/solve", json={"text": 5}), 400),
    ]
    name = start(c, "TP1-E-AAAAAAD")["name"]
    cases += [
        (c.post(f"/api/games/{name}/move", json={"move": "Qx"}), 400),
        (c.post(f"/api/games/{name}/move", json={"move": "Kd"}), 400),
        (c.post(f"/api/games/{name}/move", json={}), 400),
        (c.post(f"/api/games/{name}/move", json={"move": "draw", "at": "x"}), 400),
        (c.post(f"/api/games/{name}/reveal", json={"card": "Ks"}), 400),
        (c.post(f"/api/games/{name}/peek", json={}), 400),
        (c.get(f"/api/games/{name}/advice", params={"samples": 0}), 400),
        (c.get(f"/api/games/{name}/advice", params={"samples": 10**9}), 400),
        (c.get(f"/api/games/{name}/advice", params={"seed": -1}), 400),
    ]
    for r, status in cases:
        assert r.status_code == status, (r.request.url, r.text)
        data = r.json()
        assert list(data) == ["error"] and "\n" not in data["error"]
        assert "Traceback" not in r.text
    assert (tmp_path / "notes.txt").read_text() == "my notes\n"
    assert (tmp_path / name).read_text().endswith("moves:\n")


def test_an_unexpected_error_is_one_log_line_and_json(tmp_path, monkeypatch, caplog):
    from tripeaks_solver.web import hub

    def broken(self):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(hub.Hub, "games", broken)
    c = client(tmp_path)
    with caplog.at_level(logging.ERROR, logger="tripeaks_solver.web"):
        r = c.get("/api/games")
    assert r.status_code == 500 and r.json() == {"error": "internal error"}
    lines = [rec.getMessage() for rec in caplog.records]
    assert len(lines) == 1 and "disk on fire" in lines[0] and "\n" not in lines[0]


def test_a_record_held_by_a_terminal_coach_is_refused(tmp_path):
    path = tmp_path / "held.txt"
    path.write_text("# tripeaks-solver game record\nstart: code TP1-E-AAAAAAD\nrules: easy\n"
                    "variant: none\nscoring: app\nmoves:\ndraw\n")
    # Another process holds it as coach does while it runs (the server's own locks are
    # its games': held_elsewhere looks at other processes').
    hold = ("import sys\nfrom tripeaks_solver.games.record_file import RecordFile\n"
            "RecordFile(sys.argv[1]).open()\nprint('held', flush=True)\nsys.stdin.read()\n")
    held = subprocess.Popen([sys.executable, "-c", hold, str(path)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(REPO)})
    try:
        assert held.stdout.readline() == "held\n"
        c = client(tmp_path)
        assert [g["held_elsewhere"] for g in c.get("/api/games").json()["games"]] == [True]
        r = c.get("/api/games/held.txt")
        assert r.status_code == 409 and "another session" in r.json()["error"]
    finally:
        held.communicate("")
    c = client(tmp_path)
    assert [g["held_elsewhere"] for g in c.get("/api/games").json()["games"]] == [False]
    r = c.get("/api/games/held.txt")
    assert r.status_code == 200 and r.json()["record"] == ["draw:3s"]


def test_the_token_of_a_server_on_another_address(tmp_path):
    c = client(tmp_path, token="s3cret")
    assert c.get("/").status_code == 403
    assert c.get("/api/games", params={"token": "wrong"}).status_code == 403
    # The first visit sets the cookie and takes the token out of the address.
    r = c.get("/play/x.txt", params={"token": "s3cret", "seed": "4"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/play/x.txt?seed=4"
    assert "tripeaks_token=s3cret" in r.headers["set-cookie"]
    assert "HttpOnly" in r.headers["set-cookie"]
    assert c.get(r.headers["location"]).status_code == 200  # the cookie carries it now
    assert c.get("/api/games").status_code == 200


def test_games_are_listed_newest_first(tmp_path):
    c = client(tmp_path)
    old = start(c, "TP1-E-AAAAAAD")["name"]
    new = start(c, "TP1-E-AAAAAAB")["name"]
    os.utime(tmp_path / old, (1_000_000, 1_000_000))
    (tmp_path / "notes.txt").write_text("not a record\n")
    os.utime(tmp_path / "notes.txt", (500_000, 500_000))
    (tmp_path / "a b.txt").write_text((tmp_path / new).read_text())  # no name for a page
    games = c.get("/api/games").json()["games"]
    assert [g["file"] for g in games] == [new, old, "notes.txt"]
    assert [g["error"] is None for g in games] == [True, True, False]
    assert games[0]["rules"] == "Easy" and games[0]["start"] == "code TP1-E-AAAAAAB"


def test_solve_gives_both_rules_and_the_line_step_by_step(tmp_path):
    c = client(tmp_path)
    data = c.post("/api/solve", json={"text": "TP1-E-AAAAAAD"}).json()
    deal = Deal.from_code("TP1-E-AAAAAAD")
    assert [r["rules"] for r in data["rules"]] == ["easy", "classic"]
    for r, rules in zip(data["rules"], (EASY, CLASSIC), strict=True):
        best = solve(deal, rules)
        assert (r["winnable"], r["best_score"], r["moves"]) == (
            best.winnable, best.best_score, best.tokens)
        assert len(r["frames"]) == len(r["moves"]) + 1
        steps = best.steps()
        assert [f["score"] for f in r["frames"][1:]] == [s.score for s in steps]
    layout = " ".join(card.token for card in deal.cards)
    same = c.post("/api/solve", json={"text": layout}).json()
    assert [r["best_score"] for r in same["rules"]] == [r["best_score"] for r in data["rules"]]


def test_solve_says_which_rules_a_code_names_and_none_for_a_layout(tmp_path):
    c = client(tmp_path)
    named = {text: c.post("/api/solve", json={"text": text}).json()["code_rules"]
             for text in ("TP1-E-AAAAAAD", "TP1-C-AAAAAAD")}
    assert named == {"TP1-E-AAAAAAD": "easy", "TP1-C-AAAAAAD": "classic"}
    layout = " ".join(card.token for card in Deal.from_code("TP1-C-AAAAAAD").cards)
    assert c.post("/api/solve", json={"text": layout}).json()["code_rules"] is None


def test_the_start_form_is_given_the_bounds_the_server_holds_the_advice_to(tmp_path):
    import json
    import re

    from tripeaks_solver.web.advice import MAX_SAMPLES, check_samples
    from tripeaks_solver.web.app import number

    html = client(tmp_path).get("/").text
    facts = json.loads(re.search(r'<script type="application/json" id="page-facts">(.*?)'
                                 r'</script>', html).group(1))
    assert facts["limits"]["max_samples"] == MAX_SAMPLES
    assert facts["limits"]["max_seed"] == str(2**63 - 1)
    # the bounds are the ones the advice's checks stop at
    assert check_samples(MAX_SAMPLES) == MAX_SAMPLES and number(str(2**63 - 1), "seed")
    for samples, seed in ((MAX_SAMPLES + 1, None), (None, str(2**63))):
        with pytest.raises(InputError):
            check_samples(samples) if samples else number(seed, "seed")


def test_the_page_s_largest_seed_is_asked_again_in_the_terminal(tmp_path, capsys):
    """Every seed the page takes (up to 2⁶³−1) ``hint --fair --seed`` takes too, and gives
    the page's advice for it; one past is refused by both (issue 54, D12: the terminal
    stopped at 2⁶²−1, so such an advice could not be asked again)."""
    import json

    from cli_run import assert_one_line_error, run

    from tripeaks_solver.limits import MAX_ADVICE_SEED
    from tripeaks_solver.web.app import number

    assert MAX_ADVICE_SEED == 2**63 - 1 and number(str(MAX_ADVICE_SEED), "seed")
    deal = Deal.from_number(5)
    c = client(tmp_path)
    begun = start(c, seen_line(deal))
    advice = c.get(f"/api/games/{begun['name']}/advice",
                   params={"at": begun["at"], "samples": 30, "seed": str(MAX_ADVICE_SEED)})
    assert advice.status_code == 200, advice.text
    code, out, err = run(capsys, "hint", "--seen", seen_line(deal), "--fair", "--samples", "30",
                         "--seed", str(MAX_ADVICE_SEED), "--json")
    assert code == 0, err
    assert json.loads(out)["recommended"] == advice.json()["recommended"]
    for command in ("hint", "coach", "analyze", "peek"):
        code, _, err = run(capsys, command, "--seed", str(MAX_ADVICE_SEED + 1), "TP1-E-AAAAAAD")
        assert_one_line_error(code, err, "--seed")
    assert c.get(f"/api/games/{begun['name']}/advice",
                 params={"seed": str(MAX_ADVICE_SEED + 1)}).status_code == 400


@pytest.mark.parametrize("typed", ["+7", " 7", "7 ", "7_0", "\u0667", "\uff17", "-0", "7.0",
                                   "0x7", "1e3"])
def test_whole_numbers_are_ascii_digits_only(tmp_path, typed):
    """``int()`` reads ``+7``, `` 7``, ``7_0`` (70), Arabic-Indic and full-width digits:
    the page then showed "seed +7" for seed 7 (issue 54, D11)."""
    from tripeaks_solver.web.app import number

    with pytest.raises(InputError):
        number(typed, "seed")
    c = client(tmp_path)
    name = start(c, "TP1-E-AAAAAAD")["name"]
    for field in ("seed", "samples", "at"):
        r = c.get(f"/api/games/{name}/advice", params={field: typed})
        assert r.status_code == 400, (field, r.text)
    r = c.post(f"/api/games/{name}/move", json={"move": "draw", "at": typed})
    assert r.status_code == 400
    assert c.get(f"/api/games/{name}/review/{typed}").status_code in (400, 404)
    assert number("007", "seed") == 7 and number(7, "seed") == 7


def test_the_page_files_are_package_data():
    from importlib.resources import files

    static = files("tripeaks_solver.web") / "static"
    names = {p.name for p in static.iterdir()}
    assert {"index.html", "cards.js", "app.js", "style.css"} <= names
    text = "".join((static / name).read_text() for name in ("index.html", "cards.js",
                                                            "app.js"))
    assert "http://" not in text.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in text
    config = (REPO / "pyproject.toml").read_text()
    assert '"tripeaks_solver.web" = ["static/*.html", "static/*.js", "static/*.css"]' in config


# --- the command -----------------------------------------------------------------------
def serve(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "tripeaks_solver", "serve", "--no-open",
                             *args], env={**os.environ, "PYTHONPATH": str(REPO)},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def address(proc: subprocess.Popen) -> str:
    line = proc.stdout.readline()
    found = re.search(r"http://\S+", line)
    assert found, (line, proc.stderr.read() if proc.poll() is not None else "")
    return found.group(0)


def test_serve_listens_on_loopback_and_stops_on_ctrl_c(tmp_path):
    proc = serve("--port", "0", "--data-dir", str(tmp_path))
    try:
        url = address(proc)
        host, port = re.match(r"http://([\d.]+):(\d+)/$", url).groups()
        assert host == "127.0.0.1" and int(port) > 0
        out = subprocess.run(["ss", "-Hltn", f"sport = :{port}"], check=False, capture_output=True,
                             text=True)
        if out.returncode == 0:  # every socket listening on the port is the loopback's
            local = [line.split()[3] for line in out.stdout.splitlines() if line.strip()]
            assert local and all(a.startswith("127.0.0.1:") for a in local), local
        with socket.create_connection(("127.0.0.1", int(port)), timeout=5) as s:
            s.sendall(b"GET /api/games HTTP/1.1\r\nHost: evil.example\r\n\r\n")
            assert s.recv(100).startswith(b"HTTP/1.1 421")
        proc.send_signal(signal.SIGINT)
        sent = time.monotonic()
        _, err = proc.communicate(timeout=10)
        assert time.monotonic() - sent < 1.5
        assert proc.returncode == 130 and "Traceback" not in err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
def test_the_connections_of_serve_send_at_once(host):
    """The listening socket is a TCP one by its protocol number, so that asyncio sets
    TCP_NODELAY on every connection it accepts: an answer's head and body (two writes)
    never wait ~40 ms for the client's delayed ACK (issue 54, D3)."""
    import asyncio

    from tripeaks_solver.cli.serve import _bind

    sock = _bind(host, 0)
    assert sock.proto == socket.IPPROTO_TCP
    seen: list[int] = []

    async def run() -> None:
        async def handle(reader, writer) -> None:
            seen.append(writer.get_extra_info("socket").getsockopt(socket.IPPROTO_TCP,
                                                                   socket.TCP_NODELAY))
            writer.close()

        server = await asyncio.start_server(handle, sock=sock)
        port = sock.getsockname()[1]
        async with server:
            _reader, writer = await asyncio.open_connection(sock.getsockname()[0], port)
            await _reader.read()
            writer.close()

    asyncio.run(run())
    assert seen and seen[0] != 0


@pytest.mark.parametrize("host, loopback", [("127.0.0.1", True), ("::1", True),
                                             ("::ffff:127.0.0.1", True), ("::ffff:7f00:2", True),
                                             ("::ffff:10.0.0.1", False), ("10.0.0.1", False),
                                             ("::", False)])
def test_an_ipv4_loopback_written_as_ipv6_is_the_loopback(host, loopback):
    """``--host ::ffff:127.0.0.1`` (IPv4-mapped) was taken for a foreign address: a
    warning and a token (issue 54, D16)."""
    import ipaddress

    from tripeaks_solver.cli.serve import _is_loopback

    assert _is_loopback(ipaddress.ip_address(host)) is loopback


def test_serve_on_a_port_in_use_is_one_line_exit_2(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        proc = serve("--port", str(port), "--data-dir", str(tmp_path))
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("tripeaks-solve: error: port ")
    assert "in use" in err


def test_a_game_left_alone_is_let_go_for_the_terminal(tmp_path, monkeypatch):
    from tripeaks_solver.web import hub

    c = client(tmp_path)
    begun = start(c, "TP1-E-AAAAAAD")
    name = begun["name"]
    c.post(f"/api/games/{name}/move", json={"move": "draw", "at": begun["at"]})
    taken = RecordFile(tmp_path / name)
    with pytest.raises(InputError, match="in use"):
        taken.open()
    monkeypatch.setattr(hub, "IDLE_SECONDS", -1)
    c.app.app.state.hub.sweep()  # the server's timer lets idle games go
    text = taken.open()  # a terminal coach may take it now
    assert text.endswith("moves:\ndraw:3s\n")
    r = c.get(f"/api/games/{name}")
    assert r.status_code == 409 and "another session" in r.json()["error"]
    taken.close()
    assert c.get(f"/api/games/{name}").json()["record"] == ["draw:3s"]


def get_raw(host: str, port: int, path: str, header_host: str, headers: str = "") -> bytes:
    with socket.create_connection((host, port), timeout=10) as s:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: {header_host}\r\n{headers}"
                  "Connection: close\r\n\r\n".encode())
        return s.recv(4096)


def test_serve_on_another_loopback_address_is_not_warned_about(tmp_path):
    # 127.0.0.0/8 is the loopback: no other machine reaches it, no token needed.
    proc = serve("--host", "127.0.0.2", "--port", "0", "--data-dir", str(tmp_path))
    try:
        url = address(proc)
        found = re.match(r"http://127\.0\.0\.2:(\d+)/$", url)
        assert found, url
        port = int(found.group(1))
        assert get_raw("127.0.0.2", port, "/api/games", f"127.0.0.2:{port}").startswith(
            b"HTTP/1.1 200")
        assert get_raw("127.0.0.2", port, "/api/games", f"evil.example:{port}").startswith(
            b"HTTP/1.1 421")
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=10)
    assert err == "tripeaks-solve: interrupted\n"


@pytest.mark.slow
def test_serve_on_ipv6_loopback_is_bracketed(tmp_path):
    if not socket.has_ipv6:
        pytest.skip("no IPv6 on this machine")
    proc = serve("--host", "::1", "--port", "0", "--data-dir", str(tmp_path))
    try:
        url = address(proc)
        found = re.match(r"http://\[::1\]:(\d+)/$", url)
        assert found, url
        port = int(found.group(1))
        assert get_raw("::1", port, "/api/games", f"[::1]:{port}").startswith(b"HTTP/1.1 200")
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=10)
    assert err == "tripeaks-solve: interrupted\n"


@pytest.mark.slow
def test_serve_on_every_address_warns_shows_the_name_and_needs_the_token(tmp_path):
    # --host 0 is 0.0.0.0: every address. The address printed is the machine's name.
    proc = serve("--host", "0", "--port", "0", "--data-dir", str(tmp_path))
    try:
        url = address(proc)
        found = re.match(r"http://([^:/]+):(\d+)/\?token=([\w-]+)$", url)
        assert found, url
        name, port, token = found.group(1), int(found.group(2)), found.group(3)
        assert name == socket.gethostname()
        host = f"{name}:{port}"
        assert get_raw("127.0.0.1", port, "/api/games", host).startswith(b"HTTP/1.1 403")
        answer = get_raw("127.0.0.1", port, f"/?token={token}", host)
        assert answer.startswith(b"HTTP/1.1 303")  # the token out of the address bar
        cookie = f"tripeaks_token_{port}={token}"
        assert f"set-cookie: {cookie};".lower() in answer.decode().lower()
        assert get_raw("127.0.0.1", port, "/api/games", host,
                       f"Cookie: {cookie}\r\n").startswith(b"HTTP/1.1 200")
        # another port's cookie is not this server's
        assert get_raw("127.0.0.1", port, "/api/games", host,
                       f"Cookie: tripeaks_token_1={token}\r\n").startswith(b"HTTP/1.1 403")
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=10)
    assert err.startswith("warning: --host 0 (0.0.0.0: every address of this machine) lets "
                          "other machines reach the server")


def test_a_start_is_refused_in_the_page_words(tmp_path):
    c = client(tmp_path)
    for text in ("Jd 4s Ac 8h 4c 2h 8c 6h 8d 8s", "Jd Jd 4s Ac 8h 4c 2h 8c 6h 8d 8s"):
        r = c.post("/api/games", json={"start": text})
        assert r.status_code == 400 and "--" not in r.json()["error"], r.json()
    assert not list(tmp_path.iterdir())


def test_the_judging_waits_while_an_advice_is_computed():
    """The move list's judging (web.jobs' background lane) pauses between two short
    searches while any advice runs, and begins only once no advice waits or runs; the
    judgement is kept, shared by the requests that ask for it."""
    import asyncio

    from tripeaks_solver.web.jobs import Jobs

    jobs = Jobs(caches={"advice": 4, "review": 4})
    steps: list[int] = []
    judging, go_on = threading.Event(), threading.Event()
    began = {k: threading.Event() for k in ("a", "b", "c")}
    release = {k: threading.Event() for k in ("a", "b", "c")}

    def judge(should_stop):
        for n in range(5):
            if should_stop():
                raise AssertionError("stopped")
            steps.append(n)
            judging.set()
            if n == 0:
                go_on.wait(10)  # an advice comes while the first search runs
        return {"done": True}

    def advice(name):
        def compute(should_stop):
            began[name].set()
            release[name].wait(10)
            return name
        return compute

    async def wait_for(event):
        assert await asyncio.to_thread(event.wait, 10)

    async def scenario():
        judged = asyncio.ensure_future(jobs.get(("review", 1), judge, "background"))
        await wait_for(judging)
        a = asyncio.ensure_future(jobs.get(("advice", "a"), advice("a"), "heavy"))
        await wait_for(began["a"])
        go_on.set()
        await asyncio.sleep(0.3)
        assert steps == [0]  # paused after its first search: the advice goes first
        b = asyncio.ensure_future(jobs.get(("advice", "b"), advice("b"), "heavy"))
        while jobs.foreground < 2:  # b asked for (its task run up to its wait) before a ends
            await asyncio.sleep(0.01)
        release["a"].set()  # b, waiting for its turn behind a, runs next
        assert await a == "a"
        await wait_for(began["b"])
        await asyncio.sleep(0.3)
        assert steps == [0]  # still paused
        release["b"].set()
        assert await b == "b"
        out = await judged
        assert steps == [0, 1, 2, 3, 4]
        # A judgement asked for while an advice runs does not begin before it ends.
        c = asyncio.ensure_future(jobs.get(("advice", "c"), advice("c"), "light"))
        await wait_for(began["c"])
        again = asyncio.ensure_future(jobs.get(("review", 2), judge, "background"))
        await asyncio.sleep(0.3)
        assert steps == [0, 1, 2, 3, 4]
        release["c"].set()
        await c
        assert await again == {"done": True} and len(steps) == 10
        # kept: asked again, not judged again
        assert await jobs.get(("review", 1), judge, "background") is out
        return out

    assert asyncio.run(scenario()) == {"done": True}
    assert len(steps) == 10
    jobs.close()


def test_a_judgement_the_game_has_left_is_dropped(tmp_path):
    """A judgement of a record the game has left (a move played while it waited behind
    an advice) ends with 409, the page asks for the record as it is; that one is
    judged."""
    import asyncio

    deal = Deal.from_number(4)
    c = client(tmp_path)
    begun = start(c, seen_line(deal))
    name = begun["name"]
    state = c.post(f"/api/games/{name}/move", json={"move": "draw", "at": begun["at"]}).json()
    state = c.post(f"/api/games/{name}/reveal",
                   json={"card": deal.cards[29].token, "at": state["at"]}).json()
    jobs = c.app.jobs
    held = threading.Event()

    def hold(should_stop):  # an advice running: the judging waits for it
        held.wait(30)
        return {}

    holder = threading.Thread(target=lambda: asyncio.run(
        jobs.get(("advice", "hold"), hold, "heavy")))
    holder.start()
    answers: list = []
    asking = threading.Thread(target=lambda: answers.append(c.get(
        f"/api/games/{name}/review", params={"at": state["at"], "samples": 10, "seed": 3})))
    asking.start()
    for _ in range(1000):  # until the judgement waits (10 s at most)
        if any(key[0] == "review" for key in jobs.running):
            break
        time.sleep(0.01)
    assert any(key[0] == "review" for key in jobs.running)
    drawn = deal.cards[30].token
    moved = c.post(f"/api/games/{name}/move", json={"move": f"draw:{drawn}",
                                                    "at": state["at"]})
    assert moved.status_code == 200 and moved.json()["record"][-1] == f"draw:{drawn}"
    held.set()
    holder.join(30)
    asking.join(30)
    (r,) = answers
    assert r.status_code == 409 and "moved on" in r.json()["error"]
    state = moved.json()
    review = c.get(f"/api/games/{name}/review",
                   params={"at": state["at"], "samples": 10, "seed": 3})
    assert review.status_code == 200
    judged = review.json()
    assert judged["at"] == state["at"] and len(judged["rows"]) == len(state["record"]) == 2
    assert judged["samples"] == 10  # the advice's samples: its chances are reused


# --- a correction while a move waits for its card (issue 54, D1, D14) -----------------------
def waiting_on_ac(c: TestClient) -> tuple[str, dict]:
    """8h on 9c, a draw that showed 2c, then A♣ played: its card asked."""
    state = start(c, "Jd 4s Ac 8h 4c 2h 8c 6h 8d 8s 9c")
    name = state["name"]
    for path, body in (("move", {"move": "8h"}), ("move", {"move": "draw"}),
                       ("reveal", {"card": "2c"}), ("move", {"move": "Ac"})):
        state = c.post(f"/api/games/{name}/{path}", json={**body, "at": state["at"]}).json()
    assert state["need"]["move"] == "Ac"
    return name, state


@pytest.mark.parametrize("told, to", [("Ac", "Qd"), ("2c", "5c")])
def test_a_correction_under_a_waiting_move_never_locks_the_game(tmp_path, told, to):
    """The page's own "Correct that card" on the question: A♣ was Q♦ (or the 2♣ under it
    was 5♣), so the move no longer plays: it is dropped, and the game goes on."""
    c = client(tmp_path)
    name, asked = waiting_on_ac(c)
    r = c.post(f"/api/games/{name}/correct", json={"told": told, "to": to, "at": asked["at"]})
    assert r.status_code == 200, r.text
    state = r.json()
    assert state["need"] is None and "Ac" not in state["record"]
    assert state["legal"]  # a move is asked for again
    again = c.get(f"/api/games/{name}")
    assert again.status_code == 200 and again.json()["at"] == state["at"]
    r = c.post(f"/api/games/{name}/reveal", json={"card": "5s", "at": asked["at"]})
    assert r.status_code == 409  # a tab still asking: told why, not "a restart"
    assert "correct" in r.json()["error"] and "restarted" not in r.json()["error"]
    r = c.post(f"/api/games/{name}/move", json={"move": "undo", "at": state["at"]})
    assert r.status_code == 200, r.text
    stored = parse_record_file((tmp_path / name).read_text(), name)
    assert [o.token for o in stored.moves] == r.json()["record"]


def test_a_correction_of_the_waiting_card_that_still_plays_keeps_the_question(tmp_path):
    c = client(tmp_path)
    name, asked = waiting_on_ac(c)
    state = c.post(f"/api/games/{name}/correct",
                   json={"told": "Ac", "to": "Ad", "at": asked["at"]}).json()
    assert state["need"]["move"] == "Ad" and state["need"]["place"] == asked["need"]["place"]
    state = c.post(f"/api/games/{name}/reveal", json={"card": "5s", "at": state["at"]}).json()
    assert state["record"][-1] == "Ad:5s"
    assert (tmp_path / name).read_text().endswith("Ad:5s\n")
