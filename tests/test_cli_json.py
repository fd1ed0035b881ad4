"""One JSON shape per command (issue "Hardening", item 16): every object of a command
has the same keys, in the same order, whatever the input (null where a key does not
apply), a ``kind`` where kinds differ, and the README's "JSON output" documents them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cli_run import run

import tripeaks_solver
from tripeaks_solver import EASY, Deal, Game
from tripeaks_solver.solver import solve

README = Path(tripeaks_solver.__file__).resolve().parents[1] / "README.md"

SOLVE_KEYS = ["kind", "source", "code", "deal", "line", "rules", "variant", "scoring",
              "winnable", "min_draws", "best_score", "best_moves", "max_removed", "states",
              "seconds", "solution", "completions", "wins", "share", "share_95", "exact"]
VERDICT_KEYS = ["scoring", "winnable", "min_draws", "best_score", "best_moves", "max_removed",
                "states", "seconds", "solution"]
SHARE_KEYS = ["completions", "wins", "share", "share_95", "exact"]
REPLAY_KEYS = ["code", "deal", "layout", "seen", "rules", "variant", "scoring", "status",
               "score", "moves", "cards_left", "stock_left", "record", "known", "steps",
               "error", "error_move"]
STEP_KEYS = ["number", "action", "card", "shown", "score", "peaks_cleared"]
DEAL_KEYS = ["code", "deal", "rules", "variant", "tableau", "waste", "stock"]


def with_unknown(n: int, *cards: str) -> str:
    return " ".join("??" if t in cards else t for t in Deal.from_number(n).line().split())


MIXED = ["TP1-E-AAAAAAD", "--layout", Deal.from_number(8).line(),
         "--layout", with_unknown(0, "Kc", "Kd")]


@pytest.mark.parametrize("extra", [[], ["--no-solution"], ["--no-optimal"],
                                   ["--scoring", "cards-left"], ["--scoring", "original"],
                                   ["--empty-waste", "--rules", "classic"]],
                         ids=["app", "no-solution", "no-optimal", "cards-left", "original",
                              "variant"])
def test_solve_objects_share_one_shape(capsys, extra):
    code, out, err = run(capsys, *MIXED, "--json", *extra)
    assert code == 0, err
    rows = json.loads(out)
    per_input = 1 if "--rules" in extra else 2
    assert len(rows) == 3 * per_input
    assert all(list(r) == SOLVE_KEYS for r in rows)
    kinds = [r["kind"] for r in rows]
    assert kinds == ["deal"] * (2 * per_input) + ["completions"] * per_input
    by_code, by_layout, by_share = (rows[i * per_input] for i in range(3))
    assert (by_code["source"], by_code["code"], by_code["deal"], by_code["line"]) == \
        ("TP1-E-AAAAAAD", "TP1-E-AAAAAAD", 3, None)
    assert (by_layout["source"], by_layout["code"], by_layout["deal"], by_layout["line"]) == \
        ("layout 1", None, None, Deal.from_number(8).line())
    assert (by_share["source"], by_share["line"]) == ("layout 2", with_unknown(0, "Kc", "Kd"))
    for r in rows:
        if r["kind"] == "deal":
            assert all(r[k] is None for k in SHARE_KEYS)
            assert isinstance(r["winnable"], bool) and isinstance(r["states"], int)
            assert r["scoring"] == (extra[1] if extra[:1] == ["--scoring"] else "app")
            assert (r["solution"] is None) == ("--no-solution" in extra)
        else:
            assert all(r[k] is None for k in VERDICT_KEYS)
            assert r["completions"] == 2 and r["exact"] is True
            assert r["share_95"] == [r["share"], r["share"]]
        assert r["variant"] == ("empty-waste" if "--empty-waste" in extra else "")


def test_solve_sampled_share_interval(capsys):
    args = ["--layout", with_unknown(0, *Deal.from_number(0).line().split()[:20]),
            "--samples", "10", "--seed", "3", "--rules", "easy", "--json"]
    code, out, err = run(capsys, *args)
    assert code == 0, err
    (row,) = json.loads(out)
    assert list(row) == SOLVE_KEYS and row["kind"] == "completions" and row["exact"] is False
    low, high = row["share_95"]
    assert 0 <= low <= row["share"] <= high <= 1 and low < high
    assert run(capsys, *args)[1] == out  # the same seed, the same output


def replay_json(capsys, *args: str) -> tuple[int, dict]:
    code, out, err = run(capsys, "replay", *args, "--json", "--lang", "en")
    assert code in (0, 1), err
    obj = json.loads(out)
    assert list(obj) == REPLAY_KEYS
    assert all(list(s) == STEP_KEYS for s in obj["steps"])
    return code, obj


@pytest.mark.parametrize("scoring", ["app", "original", "cards-left"])
def test_replay_one_shape_whether_the_record_ends_or_stops(capsys, scoring):
    code, done = replay_json(capsys, "TP1-E-AAAAAAB", "Js", "d", "--scoring", scoring)
    assert code == 0 and done["error"] is None and done["error_move"] is None
    assert done["status"] == "in play" and done["moves"] == 2
    code, stopped = replay_json(capsys, "TP1-E-AAAAAAB", "Js", "d", "7d", "--scoring", scoring)
    assert code == 1
    assert (stopped["error"], stopped["error_move"]) == ("This card is blocked", 3)
    # Where the illegal move left it, the game is what the legal record made it.
    assert {k: v for k, v in stopped.items() if not k.startswith("error")} == \
        {k: v for k, v in done.items() if not k.startswith("error")}
    assert [s["number"] for s in done["steps"]] == [1, 2]
    assert [s["action"] for s in done["steps"]] == ["remove", "draw"]
    game = Game(Deal.from_number(1), EASY)
    game.play("Js")
    game.play("d")
    want = game.cards_left if scoring == "cards-left" else game.score_under(scoring)
    assert done["score"] == done["steps"][-1]["score"] == want
    assert isinstance(done["score"], int)


def test_replay_illegal_move_on_a_won_game_keeps_its_status(capsys):
    line = solve(Deal.from_number(3), EASY).tokens
    code, obj = replay_json(capsys, "TP1-E-AAAAAAD", *line, "d")
    assert code == 1 and obj["status"] == "won" and obj["error"] == "The game is won"
    assert obj["error_move"] == len(line) + 1 and len(obj["steps"]) == len(line)


def test_replay_malformed_move_prints_no_json(capsys):
    code, out, err = run(capsys, "replay", "TP1-E-AAAAAAB", "Js", "Zz", "--json")
    assert code == 2 and out == "" and err.count("\n") == 1


def test_deal_one_shape(capsys):
    for args in (["TP1-E-AAAAAAB"], ["TP1-E-AAAAAAB", "--empty-waste"], ["TP1-CJ-AAAAAAB"]):
        code, out, err = run(capsys, "deal", *args, "--json")
        assert code == 0, err
        assert list(json.loads(out)) == DEAL_KEYS


def _json_section() -> str:
    text = README.read_text(encoding="utf-8")
    return re.search(r"^## JSON output\n(.*?)(?=^## )", text, re.DOTALL | re.MULTILINE)[1]


def test_readme_documents_every_key():
    section = _json_section()
    solve_part = section[section.index("**`solve --json`**"):section.index("**`deal --json`**")]
    documented = set(re.findall(r"`([a-z_0-9]+)`", solve_part))
    assert set(SOLVE_KEYS) <= documented, set(SOLVE_KEYS) - documented
    deal_part = section[section.index("**`deal --json`**"):section.index("**`replay --json`**")]
    assert all(f'"{k}"' in deal_part for k in DEAL_KEYS)
    replay_part = section[section.index("**`replay --json`**"):]
    assert all(f'"{k}"' in replay_part for k in REPLAY_KEYS + STEP_KEYS)
