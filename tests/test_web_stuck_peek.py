"""A peek offered after a stuck game: the app still undoes there, so the page's peek may
take the game's own moves back to show the cards never seen; it ends where it has shown
what it can (no going back: the app's game was over there), and the advice is exact
from there when every card is known."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

with warnings.catch_warnings():  # starlette's note on httpx's successor
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.game import Game
from tripeaks_solver.model.observed import seen_places
from tripeaks_solver.model.rules import EASY
from tripeaks_solver.web import app as web_app

HOST = "127.0.0.1:8765"


def stuck_game(c: TestClient, deal: Deal) -> dict:
    """A game begun from the cards seen and played to a stuck end (draws first), each
    card that turns up said from ``deal``; its last state."""
    seen = " ".join(deal.cards[p].token for p in seen_places(EASY))
    state = c.post("/api/games", json={"start": seen}).json()
    name = state["name"]
    while state["status"] == "in play":
        move = "draw" if state["stock_left"] else state["legal"][0]
        state = c.post(f"/api/games/{name}/move", json={"move": move, "at": state["at"]}).json()
        while state["need"]:
            card = deal.cards[state["need"]["place"]].token
            state = c.post(f"/api/games/{name}/reveal",
                           json={"card": card, "at": state["at"]}).json()
    return state


@pytest.mark.slow  # a whole game played to its end: the fast set keeps the refusal
def test_a_stuck_game_with_cards_never_seen_can_be_peeked(tmp_path: Path):
    deal = Deal.from_number(5)
    with TestClient(web_app.make_app(tmp_path, lambda: {HOST}), base_url=f"http://{HOST}") as c:
        state = stuck_game(c, deal)
        name = state["name"]
        assert state["status"] == "stuck" and not state["exact"]
        assert state["can_peek"]
        unknown_before = state["places"] - state["known"]
        state = c.post(f"/api/games/{name}/peek", json={"at": state["at"]}).json()
        asked = 0
        while state["need"] is not None:
            peek = state["peek"]
            assert peek is not None and peek["following"] and not peek["done"]
            card = deal.cards[state["need"]["place"]].token
            state = c.post(f"/api/games/{name}/reveal",
                           json={"card": card, "at": state["at"]}).json()
            asked += 1
            assert asked < 60
        assert asked > 0
        peek = state["peek"]
        assert peek is not None and peek["done"]  # ended: no "undo back" step
        assert state["places"] - state["known"] < unknown_before
        # the record replays to the page's game: every move the peek played is in it,
        # and the test's own game reaches the same position with the deal's cards
        game = Game(deal, EASY)
        for token in state["record"]:
            game.play(token.split(":")[0])
        assert (game.status.value, game.moves) == (state["status"], state["moves_played"])
        assert game.waste.token == state["waste"]
        # the advice from there: exact when every card is known
        advice = c.get(f"/api/games/{name}/advice?at={state['at']}&samples=20&seed=1").json()
        assert advice["exact"] == state["exact"]


def test_a_stuck_game_with_every_card_known_has_nothing_to_peek(tmp_path: Path):
    with TestClient(web_app.make_app(tmp_path, lambda: {HOST}), base_url=f"http://{HOST}") as c:
        state = c.post("/api/games", json={"start": "TP1-E-AAAAAAD"}).json()
        while state["status"] == "in play":
            move = "draw" if state["stock_left"] else state["legal"][0]
            state = c.post(f"/api/games/{state['name']}/move",
                           json={"move": move, "at": state["at"]}).json()
        assert state["status"] == "stuck" and state["exact"] and not state["can_peek"]
        r = c.post(f"/api/games/{state['name']}/peek", json={"at": state["at"]})
        assert r.status_code == 400
