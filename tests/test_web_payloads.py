"""The server's JSON against its typed contracts (web/payloads.py): each endpoint's
answer, through Starlette's test client, has exactly the keys its TypedDict declares,
at every depth (a nested object's keys too, a null only where the type allows one);
and docs/web.md names every TypedDict and each of its keys."""

from __future__ import annotations

import re
import types
import typing
import warnings
from pathlib import Path
from typing import Any, get_args, get_origin, get_type_hints, is_typeddict

import pytest

with warnings.catch_warnings():  # starlette's note on httpx's successor
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.game import Game
from tripeaks_solver.model.observed import seen_places
from tripeaks_solver.model.rules import EASY
from tripeaks_solver.web import payloads as p
from tripeaks_solver.web.app import make_app

REPO = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1:8765"


class Checker:
    """Checks answers against TypedDicts, noting each TypedDict met with a value."""

    def __init__(self) -> None:
        self.met: set[type] = set()

    def check(self, kind: type, value: object, where: str = "") -> None:
        assert isinstance(value, dict), f"{where or kind.__name__}: {value!r}"
        declared = kind.__required_keys__ | kind.__optional_keys__  # type: ignore[attr-defined]
        assert set(value) == declared, (
            f"{where or kind.__name__}: extra {set(value) - declared}, "
            f"missing {declared - set(value)}")
        self.met.add(kind)
        for key, hint in get_type_hints(kind).items():
            self.value(hint, value[key], f"{where or kind.__name__}.{key}")

    def value(self, hint: Any, value: object, where: str) -> None:
        origin, args = get_origin(hint), get_args(hint)
        if hint is Any or hint is object:
            return
        if origin in (types.UnionType, typing.Union):
            if value is None:
                assert type(None) in args, f"{where}: null, not allowed by {hint}"
                return
            kinds = [a for a in args if a is not type(None)]
            assert len(kinds) == 1, f"{where}: {hint}"  # the payloads' unions: X | None
            self.value(kinds[0], value, where)
        elif is_typeddict(hint):
            self.check(hint, value, where)
        elif origin is list:
            assert isinstance(value, list), f"{where}: {value!r}"
            for i, item in enumerate(value):
                self.value(args[0], item, f"{where}[{i}]")
        elif origin is dict:
            assert isinstance(value, dict), f"{where}: {value!r}"
            for k, item in value.items():
                self.value(args[1], item, f"{where}[{k!r}]")
        elif hint is float:  # JSON: a whole number may stand for a float
            assert isinstance(value, (int, float)) and not isinstance(value, bool), where
        elif hint is int:
            assert isinstance(value, int) and not isinstance(value, bool), f"{where}: {value!r}"
        else:
            assert isinstance(value, hint), f"{where}: {value!r} is not {hint}"


@pytest.fixture(scope="module")
def met(tmp_path_factory: pytest.TempPathFactory) -> set[type]:
    """Every endpoint asked, each answer checked; the TypedDicts met with a value."""
    folder = tmp_path_factory.mktemp("games")
    c = TestClient(make_app(folder, lambda: {HOST}), base_url=f"http://{HOST}",
                   raise_server_exceptions=False)
    ck = Checker()

    def get(kind: type, url: str, status: int = 200, **params: object) -> Any:
        r = c.get(url, params=params)
        assert r.status_code == status, r.text
        ck.check(kind, r.json(), url)
        return r.json()

    def post(kind: type, url: str, body: object, status: int = 200) -> Any:
        r = c.post(url, json=body)
        assert r.status_code == status, r.text
        ck.check(kind, r.json(), url)
        return r.json()

    get(p.ShareInfo, "/api/share")
    get(p.PageFacts, "/api/facts")
    # A game from the cards seen: cards asked, told, corrected, cancelled; a peek.
    deal = Deal.from_number(4)
    seen = " ".join(deal.cards[i].token for i in seen_places(EASY))
    state = post(p.GameState, "/api/games", {"start": seen, "rules": "easy"}, 201)
    api = f"/api/games/{state['name']}"
    get(p.AdviceAnswer, f"{api}/advice", at=state["at"], samples=20, seed=3)
    state = post(p.GameState, f"{api}/move", {"move": "draw", "at": state["at"]})
    assert state["need"] is not None
    wrong = next(card for card in deal.cards[30:] if card.rank != deal.cards[29].rank)
    state = post(p.GameState, f"{api}/reveal", {"card": wrong.token, "at": state["at"]})
    state = post(p.GameState, f"{api}/correct",
                 {"told": wrong.token, "to": deal.cards[29].token, "at": state["at"]})
    state = post(p.GameState, f"{api}/move", {"move": "draw", "at": state["at"]})
    state = post(p.GameState, f"{api}/cancel", {"at": state["at"]})
    state = post(p.GameState, f"{api}/peek", {"at": state["at"]})
    assert state["peek"] is not None and state["need"] is not None
    state = post(p.GameState, f"{api}/peek", {"at": state["at"]})  # stopped
    post(p.ErrorAnswer, f"{api}/peek-next", {"at": state["at"]}, 400)
    post(p.ErrorAnswer, f"{api}/move", {"move": "draw", "at": 1}, 409)
    get(p.ErrorAnswer, "/api/games/nothing-here.tps", 404)
    # Played to its end on the advice, every card said; judged, its boards shown.
    for _ in range(200):
        if state["status"] != "in play":
            break
        advice = get(p.AdviceAnswer, f"{api}/advice", at=state["at"], samples=20, seed=3)
        state = post(p.GameState, f"{api}/move",
                     {"move": advice["recommended"], "at": state["at"]})
        while state["need"] is not None:
            card = deal.cards[state["need"]["place"]].token
            state = post(p.GameState, f"{api}/reveal", {"card": card, "at": state["at"]})
    get(p.ReviewAnswer, f"{api}/review", at=state["at"], samples=20, seed=3)
    for ply in (0, 1, len(state["record"])):
        get(p.BoardAnswer, f"{api}/review/{ply}")
    get(p.EndAnswer, f"{api}/analysis", samples=20, seed=3)
    # A code: exact advice, a thrown win judged exactly, a peek walked to its last step.
    state = post(p.GameState, "/api/games", {"start": "TP1-E-AAAAAAD"}, 201)
    api = f"/api/games/{state['name']}"
    for _ in range(23):
        get(p.AdviceAnswer, f"{api}/advice", at=state["at"])
        state = post(p.GameState, f"{api}/move", {"move": "draw", "at": state["at"]})
    get(p.ReviewAnswer, f"{api}/review", at=state["at"], samples=30, seed=1)
    get(p.BoardAnswer, f"{api}/review/1")
    get(p.EndAnswer, f"{api}/analysis", samples=30, seed=1)
    deal = Deal.from_number(2)
    seen = " ".join(deal.cards[i].token for i in seen_places(EASY))
    state = post(p.GameState, "/api/games", {"start": seen}, 201)
    api = f"/api/games/{state['name']}"
    state = post(p.GameState, f"{api}/peek", {"at": state["at"]})
    for _ in range(100):
        if state["peek"] is None or state["peek"]["done"]:
            break
        if state["need"] is not None:
            card = deal.cards[state["need"]["place"]].token
            state = post(p.GameState, f"{api}/reveal", {"card": card, "at": state["at"]})
        else:
            state = post(p.GameState, f"{api}/peek-next", {"at": state["at"]})
    # The solver's page: a deal, and a layout with cards not known.
    post(p.Solved, "/api/solve", {"text": "TP1-E-AAAAAAD"})
    layout = Game(Deal.from_number(7), EASY).deal.line().split()
    layout[0] = layout[5] = "??"
    post(p.Solved, "/api/solve", {"text": " ".join(layout)})
    post(p.ErrorAnswer, "/api/solve", {"text": "nonsense"}, 400)
    get(p.GameList, "/api/games")
    return ck.met


def test_every_answer_has_exactly_its_typed_keys(met: set[type]) -> None:
    """The checks ran in the fixture; here: every payload was met with a value (not
    only null), so each TypedDict, nested ones too, was checked against a real answer."""
    assert {k.__name__ for k in p.PAYLOADS} - {k.__name__ for k in met} == set()


def test_the_checker_refuses_a_key_too_many_or_missing() -> None:
    ck = Checker()
    good = {"ply": 1, "number": 1, "move": "8h", "keepers": []}
    ck.check(p.LostAt, good)
    for bad in ({**good, "extra": 1}, {k: v for k, v in good.items() if k != "move"},
                {**good, "keepers": None}, {**good, "ply": "1"}):
        with pytest.raises(AssertionError):
            ck.check(p.LostAt, bad)


def test_docs_name_every_payload_and_its_keys() -> None:
    text = (REPO / "docs" / "web.md").read_text(encoding="utf-8")
    for kind in p.PAYLOADS:
        rows = [line for line in text.splitlines()
                if line.startswith(f"| `{kind.__name__}` |")]
        assert len(rows) == 1, f"docs/web.md: no row for {kind.__name__}"
        named = set(re.findall(r"`(\w+)`", rows[0].split("|")[3]))
        keys = kind.__required_keys__ | kind.__optional_keys__  # type: ignore[attr-defined]
        assert named == keys, f"{kind.__name__}: {named ^ keys}"
