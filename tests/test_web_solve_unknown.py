"""/solve with a layout holding ``??`` cards: each rule set's share of its completions
won, the figures ``solve --layout`` gives (every completion when there are few), the
same keys as a whole deal's answer."""

from __future__ import annotations

import warnings

with warnings.catch_warnings():  # starlette's note on httpx's successor
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.layout import Layout
from tripeaks_solver.model.rules import CLASSIC, EASY
from tripeaks_solver.solver.solve import solve
from tripeaks_solver.web import app as web_app

HOST = "127.0.0.1:8765"


def test_a_layout_with_two_cards_unknown_gets_its_exact_share(tmp_path):
    deal = Deal.from_number(6)
    tokens = [c.token for c in deal.cards]
    hidden = (40, 45)  # two stock cards: two completions, each a deal to solve here
    text = " ".join("??" if i in hidden else t for i, t in enumerate(tokens))
    swapped = list(tokens)
    swapped[40], swapped[45] = tokens[45], tokens[40]
    wins = {rules.name.lower(): sum(solve(Layout.parse(" ".join(t)).deal(), rules).winnable
                                    for t in (tokens, swapped)) for rules in (EASY, CLASSIC)}
    with TestClient(web_app.make_app(tmp_path, lambda: {HOST}), base_url=f"http://{HOST}") as c:
        got = c.post("/api/solve", json={"text": text}).json()
        whole = c.post("/api/solve", json={"text": " ".join(tokens)}).json()
    assert got["unknown"] == 2 and whole["unknown"] == 0
    assert set(got) == set(whole)
    for row, full in zip(got["rules"], whole["rules"], strict=True):
        assert set(row) == set(full) and full["share"] is None
        share = row["share"]
        assert share["exact"] and share["total"] == 2 and share["wins"] == wins[row["rules"]]
        assert share["low"] == share["high"] == share["share"] == share["wins"] / 2
        assert row["winnable"] is None and row["moves"] == [] and row["frames"] == []
