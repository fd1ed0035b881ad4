"""One JSON shape per command: every object of a command has the same keys, in the same
order, whatever the input (null where a key does not apply), a ``kind`` where kinds
differ, and docs/json.md documents them; shares rounded to six decimals."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cli_run import run
from test_observed import seen_text

import tripeaks_solver
from tripeaks_solver import EASY, Deal, Game
from tripeaks_solver.cli.coach import TURN_KEYS
from tripeaks_solver.solver.solve import solve

JSON_DOC = Path(tripeaks_solver.__file__).resolve().parents[1] / "docs" / "json.md"

SOLVE_KEYS = ["kind", "source", "code", "deal", "line", "pysol", "rules", "variant", "scoring",
              "must_clear", "winnable", "min_draws", "best_score", "best_moves", "max_removed", "states",
              "seconds", "solution", "completions", "wins", "share", "share_95", "exact"]
VERDICT_KEYS = ["scoring", "must_clear", "winnable", "min_draws", "best_score", "best_moves", "max_removed",
                "states", "seconds", "solution"]
SHARE_KEYS = ["completions", "wins", "share", "share_95", "exact"]
REPLAY_KEYS = ["code", "deal", "pysol", "layout", "seen", "rules", "variant", "scoring", "status",
               "score", "moves", "cards_left", "stock_left", "record", "known", "steps",
               "error", "error_move"]
STEP_KEYS = ["number", "action", "card", "shown", "score", "peaks_cleared"]
DEAL_KEYS = ["code", "deal", "pysol", "rules", "variant", "tableau", "waste", "stock"]


def with_unknown(n: int, *cards: str) -> str:
    return " ".join("??" if t in cards else t for t in Deal.from_number(n).line().split())


MIXED = ["TP1-E-AAAAAAD", "--layout", Deal.from_number(8).line(),
         "--layout", with_unknown(0, "Kc", "Kd")]


@pytest.mark.parametrize("extra", [[], ["--no-solution"], ["--no-optimal"],
                                   ["--scoring", "cards-left"], ["--scoring", "original"],
                                   ["--scoring", "original", "--must-clear"],
                                   ["--empty-waste", "--rules", "classic"]],
                         ids=["app", "no-solution", "no-optimal", "cards-left", "original",
                              "must-clear", "variant"])
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
            clear = "--must-clear" in extra
            assert r["must_clear"] is clear
            # No line clears a lost deal (the layout, deal 8, is lost under Classic).
            assert (r["solution"] is None) == ("--no-solution" in extra
                                               or clear and not r["winnable"])
            assert not clear or r["winnable"] or r["best_score"] is None
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


def _doc_section(command: str) -> str:
    """The section of docs/json.md on ``command --json`` (batch and report share one)."""
    text = JSON_DOC.read_text(encoding="utf-8")
    sections = re.split(r"^## ", text, flags=re.MULTILINE)[1:]
    (section,) = [s for s in sections if re.search(rf"`{command} --json`", s.split("\n")[0])]
    return section


def _keys(value, data_keys: bool = False) -> set[str]:
    """Every key of a JSON value, nested ones too, but not the keys that are data (the
    draw counts of ``min_draws``, the player names of a rule set's ``players``)."""
    found: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            if not data_keys:
                found.add(key)
            found |= _keys(item, key in ("min_draws", "players") and isinstance(item, dict))
    elif isinstance(value, list):
        for item in value:
            found |= _keys(item)
    return found


def _coach_turns(tmp_path: Path, *args: str) -> list[dict]:
    from click.testing import CliRunner

    from tripeaks_solver.cli import cli

    tmp_path.mkdir()
    result = CliRunner().invoke(cli, ["coach", "--json", "--record", str(tmp_path / "g.txt"),
                                      *args], input="8h\nd\n3s\nq\n")
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_docs_json_documents_every_key(capsys, tmp_path):
    """Every key the commands print, taken from real outputs (exact and fair, every
    option that adds keys), is named in its command's section of docs/json.md."""
    def out(*args: str) -> object:
        code, text, err = run(capsys, *args, "--json")
        assert code in (0, 1), err
        return json.loads(text)

    moves = ["8h", "d", "4s"]
    csv = tmp_path / "b.csv"
    printed = {
        "solve": [out(*MIXED), out(*MIXED, "--scoring", "cards-left")],
        "deal": [out("deal", "TP1-E-AAAAAAB")],
        "replay": [out("replay", "TP1-E-AAAAAAB", "Js", "d", "u", "7d")],
        "hint": [out("hint", "TP1-E-AAAAAAD", *moves),
                 out("hint", "TP1-E-AAAAAAD", *moves, "--fair", "--seed", "1", "--samples", "20",
                     "--score-samples", "2")],
        "analyze": [out("analyze", "TP1-E-AAAAAAD", *moves, "--fair", "--seed", "1",
                        "--samples", "10")],
        "play": [out("play", "TP1-E-AAAAAAD")],
        "peek": [out("peek", "TP1-E-AAAAAAD", "--undo-limit", "3"), out("peek", "TP1-E-AAAAAAB")],
        "batch": [out("batch", "0", "3", "--jobs", "1", "--player", "greedy", "--difficulty",
                      "2", "--csv", str(csv))],
        "report": [out("report", str(csv))],
        "coach": _coach_turns(tmp_path / "1", "--seen", seen_text(Deal.from_number(3), EASY), "--seed", "1",
                              "--samples", "10")
        + _coach_turns(tmp_path / "2", "TP1-E-AAAAAAD")
        + _coach_turns(tmp_path / "3", "--seen", seen_text(Deal.from_number(3), EASY), "--peek",
                       "--seed", "1", "--samples", "10", "--no-analysis"),
    }
    assert set(printed["coach"][-1]) == set(TURN_KEYS)
    assert any(turn["final"] and turn["final"]["analysis"] for turn in printed["coach"])
    assert any(turn["peek"] for turn in printed["coach"])
    assert printed["peek"][1]["complete"] and printed["peek"][1]["best_line"]
    for command, values in printed.items():
        section = _doc_section(command)
        documented = set(re.findall(r"`([^`\s]+)`", section)) | set(re.findall(r'"([^"]+)"',
                                                                             section))
        keys = set().union(*(_keys(v) for v in values))
        assert keys, command
        assert keys <= documented, (command, keys - documented)


# --- shares rounded to six decimals -----------------------------------------------------
def _floats(obj) -> list[float]:
    if isinstance(obj, float):
        return [obj]
    if isinstance(obj, dict):
        return [x for v in obj.values() for x in _floats(v)]
    if isinstance(obj, list):
        return [x for v in obj for x in _floats(v)]
    return []



def test_shares_in_json_have_six_decimals(capsys):
    code, out, err = run(capsys, "hint", "TP1-E-AAAAAAD", "8h", "--fair", "--seed", "1",
                         "--samples", "7", "--score-samples", "0", "--json")
    assert code == 0, err
    moves = json.loads(out)["moves"]
    values = [x for m in moves for x in (m["share"], *m["share_95"])]
    assert any(0 < x < 1 for x in values)
    assert all(x == round(x, 6) for x in values)
    # the wins of 7 samples: the share is k/7, rounded
    assert all(any(m["share"] == round(k / 7, 6) for k in range(8)) for m in moves)
    layout = " ".join(["??"] * 18) + " 2c Ad 6s Kc Kh Th Ts Js Td 8s Qc " + " ".join(["??"] * 23)
    code, out, err = run(capsys, "--layout", layout, "--samples", "7", "--seed", "1", "--json")
    assert code == 0, err
    rows = json.loads(out)
    assert all(x == round(x, 6) for r in rows for x in (r["share"], *r["share_95"]))
    code, out, err = run(capsys, "analyze", "TP1-E-AAAAAAD", "8h", "d", "--fair", "--seed", "1",
                         "--samples", "7", "--json")
    assert all(x == round(x, 6) for x in _floats(json.loads(out)["moves"]))
