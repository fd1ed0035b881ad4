"""``hint``: the library against ``solve`` from the opening, and the command line.

- from the opening position, ``hint`` gives ``solve``'s verdict, best score and line,
  and its best move keeps that best score, on many deals per rule set, option and
  scheme (hundreds with ``-m slow``);
- the command: the position as the player sees it, every legal move, a best line that
  replays on the plain-Python game to the printed best score; the JSON shape (same
  keys whatever the input); ``--fair`` prints nothing the player has not seen, and two
  deals that agree on what the player has seen give the same output; a layout with
  ``??`` is fair by nature; one-line errors and exit codes.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import numpy as np
import pytest

from tripeaks_solver.analysis.fair import View, seen_at
from tripeaks_solver.analysis.hints import hint
from tripeaks_solver.analysis.players import make_player
from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.game import Game
from tripeaks_solver.model.moves import Move
from tripeaks_solver.model.position import Position
from tripeaks_solver.model.rules import CLASSIC, EASY, Rules
from tripeaks_solver.solver.solve import solve

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cli_run import assert_one_line_error, run

RULE_SETS = [
    EASY,
    CLASSIC,
    EASY.with_options(joker=True),
    CLASSIC.with_options(joker=True),
    EASY.with_options(empty_waste=True),
    CLASSIC.with_options(empty_waste=True),
    EASY.with_options(draw_when_stuck=True),
    CLASSIC.with_options(draw_when_stuck=True),
]
SCHEMES = ("app", "original", "cards-left")
HINT_KEYS = {"code", "deal", "pysol", "layout", "rules", "variant", "scoring", "must_clear", "fair", "moves_played", "status",
             "score", "cards_left", "stock_left", "waste", "winnable", "best_score",
             "best_moves", "line", "moves", "samples", "scored", "exact", "recommended",
             "error", "error_move", "seen", "record", "known", "unknown", "player", "seed",
             "chance"}
MOVE_KEYS = {"move", "winnable", "best_score", "best_moves", "mark", "share", "share_95",
             "mean_score", "chance", "points"}


def label(rules: Rules) -> str:
    return f"{rules.name}+{rules.variant}" if rules.variant else rules.name


def check_opening(number: int, rules: Rules, scheme: str) -> None:
    deal = Deal.from_number(number, rules.joker)
    h = hint(Position(deal, rules), scheme)
    sol = solve(deal, rules, scheme=scheme)
    assert (h.winnable, h.best_score, h.line) == (sol.winnable, sol.best_score, sol.moves)
    assert h.moves[0].best_score == sol.best_score and not h.moves[0].loses_points
    if scheme != "original":  # there the best score may end stuck with a win left
        assert h.moves[0].winnable == sol.winnable and not h.moves[0].throws_win
    if sol.moves:  # the first move of solve's line is rated as good as the best
        first = next(m for m in h.moves if m.move == sol.moves[0])
        assert (first.best_score, first.best_moves) == (h.moves[0].best_score,
                                                        h.moves[0].best_moves)


def opening_cases(count: int) -> list:
    """Every rule set under every scheme, on ``count`` deals (a quarter, at least one,
    under the original scheme: its searches are the slow ones)."""
    return [pytest.param(r, s, range(n), id=f"{label(r)}-{s}") for r in RULE_SETS
            for s in SCHEMES for n in [max(1, count // 4) if s == "original" else count]]


@pytest.mark.parametrize(("rules", "scheme", "deals"), opening_cases(1))
def test_opening_agrees_with_solve(rules: Rules, scheme: str, deals: range) -> None:
    for number in deals:
        check_opening(number, rules, scheme)


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "scheme", "deals"), opening_cases(50))
def test_opening_agrees_with_solve_many(rules: Rules, scheme: str, deals: range) -> None:
    for number in deals:
        check_opening(1000 + number, rules, scheme)


# --- the command ----------------------------------------------------------------------
CODE = "TP1-E-AAAAAAD"  # deal 3
RECORD = ["8h", "d", "4s", "d", "8c", "d", "d"]


def hint_json(capsys, *args: str) -> dict:
    code, out, err = run(capsys, "hint", *args, "--json")
    assert code == 0, err
    return json.loads(out)


def test_text_shows_the_position_moves_and_line(capsys) -> None:
    code, out, err = run(capsys, "hint", CODE, *RECORD)
    assert code == 0, err
    position = Position.after(Deal.from_number(3), EASY, RECORD)
    h = hint(position)
    assert "after 7 moves" in out and "Stock: 19 cards left" in out and "Score: 493" in out
    assert f"Exact (every card known): winnable, best score {h.best_score}" in out
    for m in h.moves:
        assert f"  {m.move.pretty:<6} winnable      best {m.best_score}" in out
    assert f"Best line from here to the win, {len(h.line)} moves:" in out
    # Face-down cards hidden: 18 at the opening, fewer once some are uncovered.
    assert out.count("##") == sum(not position.face_up(p) and not position.removed >> p & 1
                                  for p in range(28))
    code, out, _ = run(capsys, "hint", CODE, *RECORD, "--reveal")
    assert code == 0 and "##" not in out


@pytest.mark.parametrize("scheme", SCHEMES)
def test_json_line_replays_to_the_best_score(capsys, scheme: str) -> None:
    rng = random.Random(7)
    for number in range(6):
        game = Game(Deal.from_number(number), CLASSIC)
        record = []
        for _ in range(rng.randrange(30)):
            legal = Position.of(game).legal_moves()
            if not legal:
                break
            move = rng.choice(legal)
            game.play(move)
            record.append(move.token)
        code = f"TP1-C-{'AAAAAA' + 'ABCDEF'[number]}"
        data = hint_json(capsys, code, *record, "--scoring", scheme)
        assert set(data) == HINT_KEYS and all(set(m) == MOVE_KEYS for m in data["moves"])
        for token in data["line"]:
            game.play(token)
        if scheme == "cards-left":
            assert game.cards_left == data["best_score"]
            assert game.moves == data["best_moves"]
        else:
            assert game.score_under(scheme) == data["best_score"]
        assert data["moves"][0]["best_score"] == data["best_score"] or not data["moves"]


def test_json_same_keys_whatever_the_input(capsys) -> None:
    line = Deal.from_number(3).line()
    won = [m.token for m in solve(Deal.from_number(3), EASY).moves]
    shapes = [
        hint_json(capsys, CODE),
        hint_json(capsys, CODE, *RECORD, "--fair", "--samples", "20", "--seed", "1"),
        hint_json(capsys, "--layout", line, *RECORD, "--scoring", "cards-left"),
        hint_json(capsys, CODE, *won),  # the game is over: no moves left
    ]
    for data in shapes:
        assert set(data) == HINT_KEYS
        assert all(set(m) == MOVE_KEYS for m in data["moves"])
    assert shapes[3]["moves"] == [] and shapes[3]["status"] == "won"
    assert shapes[3]["best_score"] == shapes[0]["best_score"]


def test_fair_prints_nothing_unseen(capsys) -> None:
    data = hint_json(capsys, CODE, *RECORD, "--fair", "--samples", "50", "--seed", "3",
                     "--score-samples", "5")
    assert data["fair"] and data["samples"] == 50 and data["scored"] == 5
    assert data["winnable"] is None and data["best_score"] is None and data["line"] is None
    for m in data["moves"]:
        assert m["winnable"] is None and m["best_score"] is None
        assert 0 <= m["share_95"][0] <= m["share"] <= m["share_95"][1] <= 1
    # The recommendation is the fair:50 player's, from what the player has seen only.
    position = Position.after(Deal.from_number(3), EASY, RECORD)
    legal = position.legal_moves()
    chosen = make_player("fair:50").choose(View.of(position), legal, np.random.default_rng(3))
    assert data["recommended"] == chosen.token and data["player"] == "fair:50"
    assert data["seed"] == 3
    code, out, _ = run(capsys, "hint", CODE, *RECORD, "--fair", "--samples", "50")
    assert code == 0 and "Exact" not in out and "line" not in out and "Fair" in out
    assert_one_line_error(*run(capsys, "hint", CODE, "--fair", "--reveal")[::2], "--reveal")


def _twin_line(deal: Deal, rules: Rules, record: list[str], seed: int) -> str:
    """The deal with the cards the player has not seen after ``record`` shuffled."""
    seen = seen_at(Position.after(deal, rules, record))
    cards = list(deal.cards)
    hidden = [i for i in range(len(cards)) if i not in seen]
    moved = [cards[i] for i in hidden]
    random.Random(seed).shuffle(moved)
    for i, card in zip(hidden, moved, strict=True):
        cards[i] = card
    return " ".join(c.token for c in cards)


@pytest.mark.parametrize("seed", range(4))
def test_fair_output_is_the_same_for_deals_that_look_the_same(capsys, seed: int) -> None:
    deal = Deal.from_number(100 + seed)
    rng = random.Random(seed)
    game = Game(deal, CLASSIC)
    record = []
    for _ in range(rng.randrange(5, 25)):
        legal = Position.of(game).legal_moves()
        if not legal:
            break
        move = rng.choice(legal)
        game.play(move)
        record.append(move.token)
    twin = _twin_line(deal, CLASSIC, record, seed)
    assert twin != deal.line()
    for fmt in (["--json"], []):
        outputs = [run(capsys, "hint", "--layout", line, *record, "--rules", "classic",
                       "--fair", "--samples", "60", "--score-samples", "6", "--seed", "9",
                       *fmt) for line in (deal.line(), twin)]
        assert outputs[0][0] == 0
        assert outputs[0] == outputs[1]


def test_layout_with_unknown_cards_is_fair(capsys) -> None:
    deal = Deal.from_number(3)
    seen = seen_at(Position.after(deal, EASY, RECORD))
    masked = " ".join(c.token if i in seen else "??" for i, c in enumerate(deal.cards))
    args = [*RECORD, "--samples", "40", "--seed", "2", "--score-samples", "4"]
    typed = hint_json(capsys, "--layout", masked, *args)
    full = hint_json(capsys, "--layout", deal.line(), *args, "--fair")
    assert typed["fair"] and typed == full
    assert typed["layout"] == masked


def test_errors(capsys, tmp_path) -> None:
    out = run(capsys, "hint", CODE, "8h", "d", "Kc")
    assert_one_line_error(out[0], out[2], "move 3 (Kc)", exit_code=1)
    code, out, err = run(capsys, "hint", CODE, "8h", "d", "Kc", "--json")
    assert_one_line_error(code, err, "move 3 (Kc)", exit_code=1)
    data = json.loads(out)  # the one shape, stopped where the record did
    assert set(data) == HINT_KEYS and data["error_move"] == 3 and data["error"] in err
    assert data["moves_played"] == 2 and data["winnable"] is None and data["moves"] == []
    out = run(capsys, "hint", CODE, "8h", "zz")
    assert_one_line_error(out[0], out[2], "move 2", "zz")
    out = run(capsys, "hint", "TP9-X-AAAA")
    assert_one_line_error(out[0], out[2], "TP9-X-AAAA")
    out = run(capsys, "hint")
    assert_one_line_error(out[0], out[2], "game code")
    out = run(capsys, "hint", CODE, "--fair", "--samples", "0")
    assert_one_line_error(out[0], out[2], "--samples")
    line = Deal.from_number(3).line()
    out = run(capsys, "hint", "--layout", line, "--layout", line)
    assert_one_line_error(out[0], out[2], "one deal")
    bottom_unknown = line.split()
    bottom_unknown[20] = bottom_unknown[5] = "??"  # two: one alone follows by elimination
    out = run(capsys, "hint", "--layout", " ".join(bottom_unknown))
    assert_one_line_error(out[0], out[2], "place 21", "??")
    stock_unknown = line.split()
    stock_unknown[29] = stock_unknown[40] = "??"  # 29 is shown by the second move
    out = run(capsys, "hint", "--layout", " ".join(stock_unknown), "8h", "d", "4s")
    assert_one_line_error(out[0], out[2], "move 2 (d)", "stock card 1", "d:")
    out = run(capsys, "hint", "--layout", line, "--joker")
    assert_one_line_error(out[0], out[2], "joker")
    empty = tmp_path / "none.txt"
    empty.write_text("# nothing\n")
    out = run(capsys, "hint", "--layout-file", str(empty))
    assert_one_line_error(out[0], out[2], "no layout")


def test_joker_code_and_options(capsys) -> None:
    data = hint_json(capsys, "TP1-EJ-AAAAAAB", "--draw-when-stuck")
    assert data["variant"] == "joker+draw-when-stuck" and data["code"] == "TP1-EJ-AAAAAAB"
    rules = EASY.with_options(joker=True, draw_when_stuck=True)
    h = hint(Position(Deal.from_number(1, joker=True), rules))
    assert [m["move"] for m in data["moves"]] == [m.move.token for m in h.moves]
    assert data["best_score"] == h.best_score
    assert Move.parse(data["moves"][0]["move"]) == h.moves[0].move


# --- generated command lines (the harness of tests/test_cli_generated.py) ---------------
from hypothesis import given, settings
from hypothesis import strategies as st
from test_cli_generated import (
    CODES,
    LAYOUT_FILES,
    LAYOUTS,
    MOVES,
    RECORD_FILES,
    SAMPLES,
    SCORING,
    SEEDS,
    SEEN,
    SETTINGS,
    VARIANTS,
    Command,
    check,
    command_lines,
    files,  # noqa: F401  (the fixture)
)
from test_cli_generated import STDIN as STDIN_BYTES

POSITION_OPTIONS = {
    "--rules": st.sampled_from(["code", "easy", "classic", "both", ""]),
    "--layout": LAYOUTS, "--layout-file": LAYOUT_FILES, "--seed": SEEDS, "--json": None,
    "--seen": SEEN, "--record": RECORD_FILES, "--lang": st.sampled_from(["en", "vi", "sk", "fr"]),
    "--fair": None, "--samples": SAMPLES, **SCORING, **VARIANTS,
}
RECORDS = st.builds(lambda c, m: [*c, *m], st.lists(CODES, max_size=1),
                   st.lists(MOVES, max_size=8))
PATHS = st.sampled_from(["<dir>", "/nonexistent/x.out", "", "<good>"])
POSITION_COMMANDS = {
    "hint": Command(("hint",), RECORDS, {**POSITION_OPTIONS, "--reveal": None,
                                        "--must-clear": None,
                                        "--score-samples": st.one_of(SAMPLES, st.just("0"))}),
    "analyze": Command(("analyze",), RECORDS, {**POSITION_OPTIONS, "--plot": PATHS,
                                              "--csv": PATHS, "--force": None}),
}


@pytest.mark.parametrize("command", sorted(POSITION_COMMANDS))
def test_every_option_is_generated(command: str) -> None:
    import click

    from tripeaks_solver.cli import cli
    names = {o for p in cli.commands[command].params if isinstance(p, click.Option)
             for o in (*p.opts, *p.secondary_opts)}
    assert names == set(POSITION_COMMANDS[command].options)


@settings(max_examples=150, **SETTINGS)
@given(data=st.data())
def test_generated_command_lines(capsys, monkeypatch, files, data) -> None:  # noqa: F811
    """Whatever the words and options: exit 0, 1 or 2, no traceback, at most one line on
    stderr, JSON under --json. (--force never meets a file it could overwrite: the
    paths given are a directory, a missing one, empty, or used only without --force.)"""
    command = data.draw(st.sampled_from(sorted(POSITION_COMMANDS)), label="command")
    args, json_mode = data.draw(command_lines(POSITION_COMMANDS[command]), label="args")
    if "--force" in args and "<good>" in args:
        args = [a for a in args if a != "--force"]
    check(capsys, monkeypatch, files, args, json_mode, data.draw(STDIN_BYTES, label="stdin"))
