"""The ``tripeaks-solve`` command: what ``solve``, ``deal`` and ``replay`` print, their
JSON, the rule options and scorings, exit codes (0 done, 1 an illegal move in a replay,
2 malformed input: one line on stderr, never a traceback).

The commands run through the real entry point ``tripeaks_solver.cli.main`` in this
process (as ``tests/test_batch.py`` does); two tests run the installed command. Printed
lines of moves are checked against the plain-Python game and, for scores, against the
scoring rules written out again here.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tripeaks_solver import CLASSIC, EASY, Card, Deal, Game, GameCode, Status
from tripeaks_solver.cli import cli
from tripeaks_solver.model.geometry import PEAK_POSITIONS
from tripeaks_solver.solver.solve import solve

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cli_run import assert_one_line_error, run

EXE = shutil.which("tripeaks-solve")
PEAK_NAMES = ("left", "middle", "right")


# --- the scoring rules, written out again (docs/rules.md) --------------------------------

PEAK_OF = {p: k for k, ps in enumerate(PEAK_POSITIONS) for p in ps}


def test_peak_table_is_the_rules_one():
    # The bottom row splits 3 / 3 / 4; each peak holds its top, two row-2, three row-3 cards.
    assert PEAK_POSITIONS == ((0, 3, 4, 9, 10, 11, 18, 19, 20),
                              (1, 5, 6, 12, 13, 14, 21, 22, 23),
                              (2, 7, 8, 15, 16, 17, 24, 25, 26, 27))


def app_scores(deal: Deal, tokens: list[str]) -> list[tuple[int, str | None]]:
    """(score, peak cleared or None) after each move: 500, −1 a move, +100 a cleared peak."""
    left = [set(ps) for ps in PEAK_POSITIONS]
    score, out = 500, []
    for tok in tokens:
        score -= 1
        cleared = None
        if tok != "draw":
            p = deal.tableau.index(Card.parse(tok))
            left[PEAK_OF[p]].discard(p)
            if not left[PEAK_OF[p]]:
                score += 100
                cleared = PEAK_NAMES[PEAK_OF[p]]
        out.append((score, cleared))
    return out


def original_scores(deal: Deal, tokens: list[str]) -> list[int]:
    """Runs score 1, 2, 3 …; a draw ends the run and costs 5; peaks +15, +15, +30."""
    left = [set(ps) for ps in PEAK_POSITIONS]
    score, run_length, peaks, out = 0, 0, 0, []
    for tok in tokens:
        if tok == "draw":
            run_length = 0
            score -= 5
        else:
            run_length += 1
            score += run_length
            p = deal.tableau.index(Card.parse(tok))
            left[PEAK_OF[p]].discard(p)
            if not left[PEAK_OF[p]]:
                score += (15, 15, 30)[peaks]
                peaks += 1
        out.append(score)
    return out


MOVE_LINE = re.compile(
    r"^\s*(\d+)\. (draw |undo )?(\S+)\s+"
    r"(?:score|original score|cards left) (-?\d+)"
    r"(  peak cleared \((left|middle|right)\))?$")


def numbered_moves(text: str) -> list[tuple[int, bool, str, int, str | None]]:
    """(number, is draw, card as printed, score, peak cleared) of each numbered line;
    under the cards-left scoring ``solve`` and ``replay`` both print ``cards left 27``."""
    out = []
    for line in text.splitlines():
        m = MOVE_LINE.match(line)
        if m:
            assert m[2] != "undo ", line
            out.append((int(m[1]), bool(m[2]), m[3], int(m[4]), m[6]))
        else:
            assert not re.match(r"^\s*\d+\. ", line), line
    return out


def replay_printed(deal: Deal, rules, moves) -> tuple[Game, list[str]]:
    """Play the printed moves on the plain-Python game, checking each printed score."""
    game = Game(deal, rules, lang="en")
    tokens = []
    for i, (number, is_draw, card, score, peak) in enumerate(moves, 1):
        assert number == i
        action = game.draw() if is_draw else game.remove(Card.parse(card))
        assert action.card.pretty == card
        assert game.score == score, (i, card)
        assert (peak is not None) == bool(action.peaks_cleared)
        if peak:
            assert peak == PEAK_NAMES[PEAK_OF[action.position]]
        tokens.append("draw" if is_draw else action.card.token)
    return game, tokens


# --- solve: text ----------------------------------------------------------------------


@pytest.mark.parametrize(("code", "shown"), [
    ("TP1-E-AAAAAAD", EASY),    # won under both
    ("TP1-C-AAAAAAI", CLASSIC),  # deal 8: won under Easy, lost under Classic
    ("TP1-E-AAAAAAB", EASY),
])
def test_solve_text_layout_verdicts_and_line(capsys, code, shown):
    status, out, err = run(capsys, code)
    assert status == 0, err
    deal = Deal.from_code(code)
    lines = out.splitlines()
    number = GameCode.parse(code).number
    assert lines[0] == f"{code}  (deal {number})"
    # The layout: three rows of face-down cards (3, 6, 9), the bottom row, the waste.
    assert [ln.split().count("##") for ln in lines[1:4]] == [3, 6, 9]
    assert lines[4].split() == [c.pretty for c in deal.tableau[18:]]
    assert f"Waste: {deal.waste.pretty}    Stock: 23 cards" in lines
    # One verdict per rule set, agreeing with the solver.
    sols = {r.name: solve(deal, r) for r in (EASY, CLASSIC)}
    for name, sol in sols.items():
        (verdict,) = [ln for ln in lines if ln.startswith(f"{name.capitalize()}:")]
        if sol.winnable:
            draws = "draw" if sol.min_draws == 1 else "draws"
            assert verdict.endswith(f"winnable, best score {sol.best_score} "
                                    f"({sol.min_draws} {draws})")
        else:
            assert verdict.endswith(f"not winnable, at most {sol.max_removed} of 28 cards, "
                                    f"best score {sol.best_score}")
    # The numbered line of the code's own rule set, every printed score the game's.
    sol = sols[shown.name]
    goal = "win" if sol.winnable else "best end"
    moves = numbered_moves(out)
    assert f"{shown} line to the {goal}, {len(moves)} moves:" in lines
    game, tokens = replay_printed(deal, shown, moves)
    assert moves[-1][3] == sol.best_score == game.score
    assert game.status is (Status.WON if sol.winnable else Status.STUCK)
    # ... and the same scores as the rules compute them from the moves alone.
    assert [(s, p) for _, _, _, s, p in moves] == app_scores(deal, tokens)
    assert re.search(r"^Searched [\d,]+ states \(easy\), [\d,]+ states \(classic\) in "
                     r"[\d.]+ ms$", out, re.MULTILINE)


def test_solve_line_shows_a_peak_mark_for_each_peak(capsys):
    status, out, _ = run(capsys, "TP1-E-AAAAAAD", "--rules", "easy")
    assert status == 0
    marks = [p for *_, p in numbered_moves(out) if p]
    assert sorted(marks) == ["left", "middle", "right"]


def test_no_solution_leaves_out_the_line(capsys):
    status, out, err = run(capsys, "TP1-E-AAAAAAD", "--no-solution")
    assert status == 0, err
    assert numbered_moves(out) == [] and "line to the" not in out
    assert "Easy:" in out and "Classic:" in out


@pytest.mark.parametrize(("choice", "code", "names"), [
    ("code", "TP1-C-AAAAAAD", ["classic"]),
    ("code", "TP1-E-AAAAAAD", ["easy"]),
    ("code", "tp1-n-aaaaaad", ["easy"]),  # legacy N reads as Easy
    ("easy", "TP1-C-AAAAAAD", ["easy"]),
    ("classic", "TP1-E-AAAAAAD", ["classic"]),
    ("both", "TP1-C-AAAAAAD", ["easy", "classic"]),
    (None, "TP1-C-AAAAAAD", ["easy", "classic"]),  # the default is both
])
def test_rules_choice(capsys, choice, code, names):
    extra = [] if choice is None else ["--rules", choice]
    status, out, err = run(capsys, code, *extra, "--json", "--no-solution")
    assert status == 0, err
    rows = json.loads(out)
    assert [r["rules"] for r in rows] == names
    assert all(r["code"] == str(GameCode.parse(code)) for r in rows)
    status, out, err = run(capsys, code, *extra, "--no-solution")
    assert status == 0, err
    assert [ln.split(":")[0] for ln in out.splitlines() if ln.startswith(("Easy:", "Classic:"))] \
        == [n.capitalize() for n in names]


def test_exit_0_on_a_lost_deal(capsys):
    status, out, err = run(capsys, "TP1-C-AAAAAAI", "--rules", "classic")
    assert status == 0 and err == ""
    assert "Classic: not winnable" in out


# --- solve: JSON -----------------------------------------------------------------------

NONE = type(None)
# Every object of `solve --json` has these keys (docs/json.md); a solved deal
# ("kind": "deal") has these types, its share fields null.
JSON_TYPES = {
    "kind": str, "source": str, "code": str, "deal": int, "line": NONE, "pysol": NONE, "rules": str,
    "variant": str, "scoring": str, "must_clear": bool, "winnable": bool, "min_draws": (int, NONE),
    "best_score": int, "best_moves": NONE, "max_removed": int, "states": int,
    "seconds": (int, float), "solution": list, "completions": NONE, "wins": NONE,
    "share": NONE, "share_95": NONE, "exact": NONE,
}


def test_solve_json_fields_types_and_values(capsys):
    codes = ["TP1-E-AAAAAAD", "TP1-C-AAAAAAI", "TP1-E-BCDEFGH"]
    status, out, err = run(capsys, *codes, "--json")
    assert status == 0, err
    rows = json.loads(out)
    assert isinstance(rows, list) and len(rows) == 6
    for i, row in enumerate(rows):
        assert set(row) == set(JSON_TYPES)
        for key, kind in JSON_TYPES.items():
            assert isinstance(row[key], kind), key
            if kind is int:
                assert not isinstance(row[key], bool), key
        assert row["kind"] == "deal" and row["source"] == codes[i // 2]
        assert row["code"] == codes[i // 2] and row["rules"] == ("easy", "classic")[i % 2]
        assert row["deal"] == GameCode.parse(codes[i // 2]).number
        assert (row["variant"], row["scoring"]) == ("", "app")
        assert row["seconds"] >= 0 and row["states"] > 0
        deal = Deal.from_number(row["deal"])
        rules = EASY if row["rules"] == "easy" else CLASSIC
        sol = solve(deal, rules)
        assert (row["winnable"], row["min_draws"], row["best_score"], row["max_removed"]) == \
            (sol.winnable, sol.min_draws, sol.best_score, sol.max_removed)
        # The solution replays on the game to the best score.
        game = Game(deal, rules)
        for tok in row["solution"]:
            game.play(tok)
        assert all(t == "draw" or len(t) == 2 for t in row["solution"])
        assert game.score == row["best_score"]
        assert game.status is (Status.WON if row["winnable"] else Status.STUCK)
        if row["winnable"]:
            assert row["solution"].count("draw") == row["min_draws"]
            assert row["max_removed"] == 28
        else:
            # The best stuck end need not remove the most cards (a peak is worth 100).
            assert row["min_draws"] is None and 28 - game.cards_left <= row["max_removed"] < 28
    assert any(not r["winnable"] for r in rows)


def test_solve_json_no_solution(capsys):
    status, out, err = run(capsys, "TP1-E-AAAAAAB", "--json", "--no-solution")
    assert status == 0, err
    rows = json.loads(out)
    assert len(rows) == 2 and all(r["solution"] is None for r in rows)
    assert all(list(r) == list(JSON_TYPES) for r in rows)


def test_fast_answers_winnability_only(capsys):
    status, out, err = run(capsys, "TP1-E-AAAAAAI", "--json", "--fast")
    assert status == 0, err
    easy, classic = json.loads(out)
    assert easy["winnable"] is True and classic["winnable"] is False
    assert easy["best_score"] is None and easy["min_draws"] is None
    assert classic["max_removed"] is None
    game = Game(Deal.from_number(8), EASY)
    for tok in easy["solution"]:
        game.play(tok)
    assert game.status is Status.WON


# --- malformed input -------------------------------------------------------------------

BAD_CODES = ["TP1-E-AAAAAA", "TP1-E-AAAAAAAA", "TP2-E-AAAAAAB", "TP1-X-AAAAAAB", "hello",
             "", "TP1-E-AAAAAA1", "TP1-E-AAAAAAB-C", "TP1-EJJ-AAAAAAB", "TP1-E-ÄAAAAAB",
             "TP1-E-AAAAAAß", "TP1--AAAAAAB"]


@pytest.mark.parametrize("bad", BAD_CODES)
@pytest.mark.parametrize("command", ["solve", "deal", "replay", None])
def test_malformed_code_one_line_exit_2(capsys, command, bad):
    args = ([command] if command else []) + [bad]
    status, out, err = run(capsys, *args)
    assert_one_line_error(status, err, "tripeaks-solve: error:")
    assert out == ""


@pytest.mark.parametrize("command", ["solve", "hint", "analyze", "batch"])
def test_an_empty_layout_file_is_named_as_such(capsys, command):
    # As a path, "" would be the current directory, and the error would name "." instead.
    status, out, err = run(capsys, command, "--layout-file", "")
    assert_one_line_error(status, err, "--layout-file", "the path is empty")
    assert out == ""


def test_a_bad_code_among_good_ones_stops_before_any_output(capsys):
    status, out, err = run(capsys, "TP1-E-AAAAAAB", "TP1-E-AAAAAA", "--json")
    assert_one_line_error(status, err, "'TP1-E-AAAAAA'")
    assert out == ""


@pytest.mark.parametrize("args", [
    ["solve"], ["TP1-E-AAAAAAB", "--rules", "hard"], ["TP1-E-AAAAAAB", "--scoring", "best"],
    ["TP1-E-AAAAAAB", "--bogus"], ["deal", "TP1-E-AAAAAAB", "--format", "xml"],
    ["deal"], ["replay"], ["replay", "TP1-E-AAAAAAB", "--lang", "fr"],
    ["TP1-E-AAAAAAB", "--samples", "0"], ["TP1-E-AAAAAAB", "--seed", "x"],
])
def test_usage_errors_one_line_exit_2(capsys, args):
    status, out, err = run(capsys, *args)
    assert_one_line_error(status, err, "tripeaks-solve: error:")
    assert out == ""


@pytest.mark.skipif(EXE is None, reason="tripeaks-solve is not installed")
def test_installed_command_exit_codes_and_stderr():
    r = subprocess.run([EXE, "TP1-E-AAAAAAB", "TP1-Q-AAAAAAB"], check=False,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert "unknown rules letter" in r.stderr
    r = subprocess.run([EXE, "replay", "TP1-E-AAAAAAB", "Js", "2c", "--lang", "en"],
                       check=False, capture_output=True, text=True, timeout=120)
    assert r.returncode == 1
    assert r.stderr == "move 2 (2c): Must be one rank higher or lower\n"
    assert r.stdout.splitlines()[0] == "TP1-E-AAAAAAB  (deal 1, Easy rules)"
    assert r.stdout.splitlines()[1].split() == ["1.", "J♠", "score", "499"]


# --- deal --------------------------------------------------------------------------------


def shown_cards(text: str) -> set[Card]:
    """The cards a text shows in people's notation (the first line, the title, left out)."""
    return {Card.parse(t) for ln in text.splitlines()[1:] for t in ln.split()
            if re.fullmatch(r"(10|[A2-9JQK])[♣♦♥♠]", t)}



def test_deal_formats(capsys):
    deal = Deal.from_number(1)
    status, out, err = run(capsys, "deal", "TP1-E-AAAAAAB", "--format", "line")
    assert status == 0, err
    assert out == deal.line() + "\n" and len(out.split()) == 52
    status, out, err = run(capsys, "deal", "TP1-C-AAAAAAB", "--format", "json")
    assert status == 0, err
    obj = json.loads(out)
    assert set(obj) == {"code", "deal", "pysol", "rules", "variant", "tableau", "waste", "stock"}
    assert (obj["code"], obj["deal"], obj["rules"], obj["variant"]) == \
        ("TP1-C-AAAAAAB", 1, "classic", "")
    assert len(obj["tableau"]) == 28 and len(obj["stock"]) == 23
    assert obj["tableau"] + [obj["waste"]] + obj["stock"] == deal.line().split()
    status, out, err = run(capsys, "deal", "TP1-E-AAAAAAB")  # text is the default
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0] == "TP1-E-AAAAAAB  (deal 1, Easy rules)"
    assert [ln.split().count("##") for ln in lines[1:4]] == [3, 6, 9]
    assert out.count("##") == 18
    assert lines[4].split() == [c.pretty for c in deal.tableau[18:]]
    assert "Waste: Q♣    Stock: 23 cards" in lines
    assert "Stock (draw order)" not in out
    assert shown_cards(out) == set(deal.tableau[18:]) | {deal.waste}  # nothing hidden shows


def test_deal_reveal_shows_every_card(capsys):
    deal = Deal.from_number(1)
    status, out, err = run(capsys, "deal", "TP1-E-AAAAAAB", "--reveal")
    assert status == 0, err
    assert "##" not in out
    lines = out.splitlines()
    # The 18 face-down cards in brackets, the bottom row's face-up ones plain.
    rows = [ln.split() for ln in lines[1:5]]
    assert rows == [[f"[{c.pretty}]" for c in deal.tableau[a:b]] for a, b in
                    ((0, 3), (3, 9), (9, 18))] + [[c.pretty for c in deal.tableau[18:]]]
    assert "face down" in lines[5]
    (stock_line,) = [ln for ln in lines if ln.startswith("Stock (draw order): ")]
    assert stock_line.split()[3:] == [c.pretty for c in deal.stock]
    assert shown_cards(out.replace("[", " ").replace("]", " ")) == set(deal.cards)


def test_deal_open_shows_the_peaks_not_the_stock(capsys):
    status, out, err = run(capsys, "deal", "TP1-E-AAAAAAB", "--open")
    assert status == 0, err
    assert "##" not in out and "Stock (draw order)" not in out
    assert "Easy (open) rules" in out.splitlines()[0]


# --- replay ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def deal3_line() -> list[str]:
    return solve(Deal.from_number(3), EASY).tokens


def test_replay_a_won_game(capsys, deal3_line):
    deal = Deal.from_number(3)
    status, out, err = run(capsys, "replay", "TP1-E-AAAAAAD", *deal3_line)
    assert status == 0 and err == ""
    moves = numbered_moves(out)
    assert len(moves) == len(deal3_line)
    game, tokens = replay_printed(deal, EASY, moves)
    assert tokens == deal3_line
    assert [(s, p) for _, _, _, s, p in moves] == app_scores(deal, tokens)
    assert sum(p is not None for *_, p in moves) == 3
    assert out.splitlines()[-1] == (f"Won: score {game.score}, {len(tokens)} moves, 0 cards "
                                    f"left in the peaks, {game.stock_left} in the stock")


def test_replay_moves_in_one_argument_people_notation_and_undo(capsys, deal3_line):
    people = [t if t == "draw" else Card.parse(t).pretty for t in deal3_line[:6]]
    status, out, err = run(capsys, "replay", "TP1-E-AAAAAAD", " ".join(people[:3]),
                           ",".join(people[3:]), "u", "d")
    assert status == 0, err
    lines = out.splitlines()
    # Six moves, undo of the sixth (a draw of 6♦ in this line), then the same draw again.
    # Undo gives the score back; the move counter never goes down (tests/test_game.py):
    # the moves are numbered by it, the undo by the move it takes back.
    assert deal3_line[5] == "draw"
    assert lines[0] == "TP1-E-AAAAAAD  (deal 3, Easy rules)"  # the title, as hint's
    assert [ln.split() for ln in lines[6:9]] == [
        ["6.", "draw", "6♦", "score", "494"],
        ["undo", "6♦", "score", "495", "(move", "6", "taken", "back)"],
        ["7.", "draw", "6♦", "score", "494"]]
    assert lines[-1] == "In play: score 494, 7 moves, 25 cards left in the peaks, 20 in the stock"


def test_replay_json(capsys, deal3_line):
    status, out, err = run(capsys, "replay", "TP1-E-AAAAAAD", *deal3_line[:5], "u", "--json")
    assert status == 0, err
    obj = json.loads(out)
    assert obj["code"] == "TP1-E-AAAAAAD" and obj["status"] == "in play"
    assert [s["action"] for s in obj["steps"]] == ["remove", "draw", "remove", "draw", "remove",
                                                  "undo"]
    assert [s["score"] for s in obj["steps"]] == [499, 498, 497, 496, 495, 496]
    assert obj["score"] == 496 and obj["stock_left"] == 21 and obj["cards_left"] == 26
    assert obj["moves"] == 5  # the move counter never goes down


@pytest.mark.parametrize(("moves", "number", "message"), [
    (["Js", "2c"], 2, "Must be one rank higher or lower"),
    (["7d"], 1, "This card is blocked"),
    (["Qc"], 1, "This card is not in the peaks"),  # the waste card of deal 1
    (["u"], 1, "Nothing to undo"),
])
def test_replay_illegal_move_exit_1_names_the_move(capsys, moves, number, message):
    status, out, err = run(capsys, "replay", "TP1-E-AAAAAAB", *moves, "--lang", "en")
    assert_one_line_error(status, err, exit_code=1)
    assert err == f"move {number} ({moves[number - 1]}): {message}\n"
    assert len(numbered_moves(out)) == number - 1


def test_replay_stuck_and_won_games_refuse_more_moves(capsys, deal3_line):
    # Deal 0: after the 23 draws no card follows the last one, so the game is stuck.
    game = Game(Deal.from_number(0), EASY)
    for _ in range(23):
        game.draw()
    assert game.status is Status.STUCK
    status, out, err = run(capsys, "replay", "TP1-E-AAAAAAA", *["d"] * 23)
    assert status == 0, err
    assert out.splitlines()[-1].startswith("Stuck: score 477, 23 moves, 28 cards left")
    status, out, err = run(capsys, "replay", "TP1-E-AAAAAAA", *["d"] * 24, "--lang", "en")
    assert status == 1 and err == "move 24 (d): No more valid moves\n"
    status, out, err = run(capsys, "replay", "TP1-E-AAAAAAD", *deal3_line, "d", "--lang", "en")
    assert status == 1 and err == f"move {len(deal3_line) + 1} (d): The game is won\n"


@pytest.mark.parametrize(("lang", "env", "message"), [
    ("vi", None, "Phải cao hơn hoặc thấp hơn một bậc"),
    ("sk", None, "Musí mať hodnotu o jeden stupeň vyššiu alebo nižšiu"),
    (None, "vi_VN.UTF-8", "Phải cao hơn hoặc thấp hơn một bậc"),
    (None, "sk_SK.UTF-8", "Musí mať hodnotu o jeden stupeň vyššiu alebo nižšiu"),
    (None, "de_DE.UTF-8", "Must be one rank higher or lower"),
    (None, "", "Must be one rank higher or lower"),
    ("en", "sk_SK.UTF-8", "Must be one rank higher or lower"),  # --lang wins over LANG
    ("vi", "sk_SK.UTF-8", "Phải cao hơn hoặc thấp hơn một bậc"),
])
def test_replay_messages_by_language(capsys, monkeypatch, lang, env, message):
    if env is None:
        monkeypatch.delenv("LANG", raising=False)
    else:
        monkeypatch.setenv("LANG", env)
    extra = [] if lang is None else ["--lang", lang]
    status, _, err = run(capsys, "replay", "TP1-E-AAAAAAB", "Js", "2c", *extra)
    assert status == 1
    move = {"Phải cao hơn hoặc thấp hơn một bậc": "nước đi",  # the whole line speaks it
            "Musí mať hodnotu o jeden stupeň vyššiu alebo nižšiu": "ťah"}.get(message, "move")
    assert err == f"{move} 2 (2c): {message}\n"


def test_replay_blocked_in_slovak(capsys):
    status, _, err = run(capsys, "replay", "TP1-E-AAAAAAB", "Js", "7d", "--lang", "sk")
    assert status == 1 and err == "ťah 2 (7d): Táto karta je zablokovaná\n"


@pytest.mark.parametrize("bad", ["Zz", "1c", "drawx", "K", "10", "♣K"])
def test_replay_malformed_move_exit_2(capsys, bad):
    status, out, err = run(capsys, "replay", "TP1-E-AAAAAAB", "Js", bad)
    assert_one_line_error(status, err, "move 2", repr(bad))
    assert out == ""  # the record is read whole before any move is played


# --- rule variants and scorings ----------------------------------------------------------

VARIANT_FLAGS = {"empty_waste": "--empty-waste", "joker": "--joker",
                 "draw_when_stuck": "--draw-when-stuck", "open_peaks": "--open",
                 "wrap": "--wrap / --no-wrap"}


@pytest.mark.parametrize("command", ["solve", "deal", "replay", "batch"])
def test_variant_options_in_help_one_sentence_each(capsys, command):
    status, out, err = run(capsys, command, "--help")
    assert status == 0, err
    params = {p.name: p for p in cli.commands[command].params}
    flat = "".join(out.split())
    for name, flag in VARIANT_FLAGS.items():
        helptext = params[name].help
        assert helptext and helptext[0].isupper() and helptext.endswith(".")
        assert len(re.findall(r"[.!?](?:\s|$)", helptext)) == 1, helptext  # one sentence
        assert flag in out
        assert "".join(helptext.split()) in flat  # shown, however the help is wrapped
    assert ("--scoring" in out) == (command != "deal")


def test_joker_deals_have_53_cards(capsys):
    status, out, err = run(capsys, "deal", "TP1-EJ-AAAAAAD", "--format", "json")
    assert status == 0, err
    obj = json.loads(out)
    assert obj["code"] == "TP1-EJ-AAAAAAD" and obj["variant"] == "joker"
    assert len(obj["tableau"]) == 28 and len(obj["stock"]) == 24
    cards = obj["tableau"] + [obj["waste"]] + obj["stock"]
    assert len(set(cards)) == 53 and cards.count("Jk") == 1
    assert cards == Deal.from_number(3, joker=True).line().split()
    status, same, _ = run(capsys, "deal", "TP1-E-AAAAAAD", "--joker", "--format", "json")
    assert status == 0 and same == out
    status, line, _ = run(capsys, "deal", "TP1-EJ-AAAAAAD", "--format", "line")
    assert status == 0 and line.split() == cards
    status, text, _ = run(capsys, "deal", "TP1-EJ-AAAAAAD")
    assert status == 0 and "Stock: 24 cards" in text and "Easy (joker) rules" in text


def test_joker_solve_line_replays(capsys):
    status, out, err = run(capsys, "TP1-EJ-AAAAAAD", "--json", "--rules", "classic")
    assert status == 0, err
    (row,) = json.loads(out)
    assert (row["code"], row["rules"], row["variant"]) == ("TP1-EJ-AAAAAAD", "classic", "joker")
    rules = CLASSIC.with_options(joker=True)
    deal = Deal.from_number(3, joker=True)
    game = Game(deal, rules)
    for tok in row["solution"]:
        game.play(tok)
    assert game.score == row["best_score"]
    assert (game.status is Status.WON) == row["winnable"]
    assert solve(deal, rules).best_score == row["best_score"]


def test_solve_joker_names_the_joker_code(capsys):
    code, out, err = run(capsys, "TP1-E-AAAAAAD", "--joker", "--no-solution", "--rules", "easy")
    assert code == 0, err
    assert out.splitlines()[0] == "TP1-EJ-AAAAAAD  (deal 3)"
    code, out, err = run(capsys, "TP1-E-AAAAAAD", "--joker", "--json", "--no-solution")
    rows = json.loads(out)
    assert [(r["code"], r["source"], r["variant"]) for r in rows] == [
        ("TP1-EJ-AAAAAAD", "TP1-EJ-AAAAAAD", "joker")] * 2
    _, dealt, _ = run(capsys, "deal", "TP1-E-AAAAAAD", "--joker", "--json")
    assert json.loads(dealt)["code"] == "TP1-EJ-AAAAAAD"
    _, batch, _ = run(capsys, "batch", "3", "4", "--joker", "--rules", "easy", "--csv", "-",
                      "--jobs", "1", "--no-progress")
    assert batch.splitlines()[1].startswith("TP1-EJ-AAAAAAD,3,easy,joker,")
    # the same deal as the joker code's
    _, same, _ = run(capsys, "TP1-EJ-AAAAAAD", "--json", "--no-solution")
    assert [r["best_score"] for r in json.loads(same)] == [r["best_score"] for r in rows]


def test_empty_waste(capsys):
    deal = Deal.from_number(3)
    status, out, err = run(capsys, "deal", "TP1-E-AAAAAAD", "--empty-waste")
    assert status == 0, err
    assert "Waste: empty    Stock: 24 cards" in out.splitlines()
    assert "Easy (empty-waste) rules" in out.splitlines()[0]
    status, out, err = run(capsys, "deal", "TP1-E-AAAAAAD", "--empty-waste", "--format", "json")
    obj = json.loads(out)
    assert obj["waste"] is None and obj["variant"] == "empty-waste"
    assert obj["stock"] == [deal.waste.token] + [c.token for c in deal.stock]
    status, out, err = run(capsys, "TP1-E-AAAAAAD", "--empty-waste", "--no-solution")
    assert status == 0, err
    assert "Waste: empty    Stock: 24 cards" in out
    assert re.search(r"^Easy \(empty-waste\): ", out, re.MULTILINE)
    assert re.search(r"^Classic \(empty-waste\): ", out, re.MULTILINE)
    # Anything goes on the empty waste: 4♠ (position 19) is a legal first move there, not
    # on the usual waste 9♣.
    assert (deal.tableau[19].token, deal.waste.token) == ("4s", "9c")
    status, out, err = run(capsys, "replay", "TP1-E-AAAAAAD", "--empty-waste", "4s")
    assert status == 0, err
    assert numbered_moves(out) == [(1, False, "4♠", 499, None)]
    status, _, err = run(capsys, "replay", "TP1-E-AAAAAAD", "4s", "--lang", "en")
    assert status == 1 and err == "move 1 (4s): Must be one rank higher or lower\n"


@pytest.mark.parametrize(("code", "shown"), [("TP1-E-AAAAAAD", EASY), ("TP1-C-AAAAAAI", CLASSIC)])
def test_scoring_original_verdicts_and_line(capsys, code, shown):
    deal = Deal.from_code(code)
    status, out, err = run(capsys, code, "--scoring", "original")
    assert status == 0, err
    for rules in (EASY, CLASSIC):
        sol = solve(deal, rules, scheme="original")
        word = "winnable" if sol.winnable else "not winnable"
        assert f"{rules.name.capitalize() + ':':<8} {word}, best original score " \
               f"{sol.best_score}" in out.splitlines()
    best = solve(deal, shown, scheme="original").best_score
    assert f"{shown} line to the best end, " in out
    moves = numbered_moves(out)
    tokens = ["draw" if is_draw else Card.parse(card).token for _, is_draw, card, _, _ in moves]
    assert [s for _, _, _, s, _ in moves] == original_scores(deal, tokens)
    assert moves[-1][3] == best
    game = Game(deal, shown)
    for tok in tokens:
        game.play(tok)
    assert game.status is not Status.IN_PLAY  # a complete game
    status, out, err = run(capsys, code, "--scoring", "original", "--json", "--no-solution")
    rows = json.loads(out)
    assert [r["scoring"] for r in rows] == ["original", "original"]
    assert [r["best_score"] for r in rows] == [
        solve(deal, r, scheme="original").best_score for r in (EASY, CLASSIC)]


def test_scoring_cards_left_verdicts(capsys):
    deal = Deal.from_number(8)  # won under Easy, lost under Classic
    status, out, err = run(capsys, "TP1-C-AAAAAAI", "--scoring", "cards-left")
    assert status == 0, err
    lines = out.splitlines()
    (easy,) = [ln for ln in lines if ln.startswith("Easy:")]
    (classic,) = [ln for ln in lines if ln.startswith("Classic:")]
    assert re.fullmatch(r"Easy:    winnable, 0 cards left in \d+ moves", easy)
    m = re.fullmatch(r"Classic: not winnable, at best (\d+) cards left in (\d+) moves", classic)
    assert m
    left, moves = int(m[1]), int(m[2])
    assert left == 28 - solve(deal, CLASSIC).max_removed  # the most cards any line removes
    printed = numbered_moves(out)
    assert f"Classic line to the best end, {moves} moves:" in lines and len(printed) == moves
    assert [s for *_, s, _ in printed][-1] == left  # the line ends with that many left
    game = Game(deal, CLASSIC)
    for _, is_draw, card, score, _ in printed:
        game.draw() if is_draw else game.remove(Card.parse(card))
        assert game.cards_left == score
    assert game.status is Status.STUCK
    status, out, err = run(capsys, "TP1-C-AAAAAAI", "--scoring", "cards-left", "--json",
                           "--rules", "classic")
    (row,) = json.loads(out)
    assert (row["scoring"], row["best_score"], row["best_moves"]) == ("cards-left", left, moves)


def test_replay_scoring_original_and_cards_left(capsys, deal3_line):
    deal = Deal.from_number(3)
    status, out, err = run(capsys, "replay", "TP1-E-AAAAAAD", *deal3_line, "--scoring",
                           "original")
    assert status == 0, err
    moves = numbered_moves(out)
    steps = out.splitlines()[1:len(deal3_line) + 1]  # the title, then the final board and
    # the summary
    assert all(re.search(r"\boriginal score -?\d+", ln) for ln in steps)
    assert [s for *_, s, _ in moves] == original_scores(deal, deal3_line)
    final = original_scores(deal, deal3_line)[-1]
    assert out.splitlines()[-1].startswith(f"Won: original score {final}, ")
    status, out, err = run(capsys, "replay", "TP1-E-AAAAAAD", *deal3_line[:4], "--scoring",
                           "original", "--json")
    obj = json.loads(out)
    assert obj["scoring"] == "original"
    assert [s["score"] for s in obj["steps"]] == original_scores(deal, deal3_line[:4])
    status, out, err = run(capsys, "replay", "TP1-E-AAAAAAD", *deal3_line[:3], "--scoring",
                           "cards-left")
    assert status == 0, err
    assert [s for *_, s, _ in numbered_moves(out)] == [27, 27, 26]  # remove, draw, remove
    assert out.splitlines()[-1].startswith("In play: 3 moves, 26 cards left in the peaks")


def test_draw_when_stuck_refuses_a_draw_while_a_card_plays(capsys):
    # Deal 3: 8♥ follows the waste 9♣, so a draw at once is barred under the option.
    status, _, err = run(capsys, "replay", "TP1-E-AAAAAAD", "d", "--draw-when-stuck",
                         "--lang", "en")
    assert status == 1 and err == "move 1 (d): Draw only when no card can be played\n"
    status, _, err = run(capsys, "replay", "TP1-E-AAAAAAD", "d", "--lang", "en")
    assert status == 0, err


def test_wrap_overrides_the_rules(capsys):
    status, out, _ = run(capsys, "TP1-E-AAAAAAI", "--no-wrap", "--json", "--no-solution")
    assert status == 0
    assert [r["rules"] for r in json.loads(out)] == ["classic"]
    status, out, _ = run(capsys, "TP1-C-AAAAAAI", "--wrap", "--rules", "classic", "--json",
                         "--no-solution")
    assert [r["rules"] for r in json.loads(out)] == ["easy"]


# --- fuzz: random argument strings never end in a traceback ------------------------------

CODES = ["TP1-E-AAAAAAB", "TP1-C-AAAAAAD", "tp1-n-aaaaaai", "TP1-EJ-AAAAAAC", "TP1-CJ-BCDEFGH",
         "TP1-E-ZZZZZZZ", "TP1-E-", "TP1-Q-AAAAAAB", "X", "", "TP1-E-AAAAAAß", "ТР1-Е-ААААААА",
         "TP1-E-AAAAAAB\n", "-", "--", "TP1-E-AAAAAAAB"]
MOVES = ["Js", "Th", "d", "draw", "u", "undo", "Kc", "10♥", "K♣", "Jk", "🃏", "Zz", "", ",",
         "7d 9c", "2c,Ad", "A♦", "D", "UNDO", "♣", "10", "1c", "-d", "Qc"]
VALUES = {
    "--rules": ["code", "easy", "classic", "both", "hard", ""],
    "--scoring": ["app", "original", "cards-left", "best"],
    "--format": ["text", "line", "json", "xml"],
    "--lang": ["en", "vi", "sk", "fr"],
    "--samples": ["1", "3", "0", "-1", "x"],
    "--seed": ["1", "-5", "99999999999999999999", "s"],
    "--layout": ["", "Kc", "?? " * 52, " ".join(Deal.from_number(5).line().split()[:51]),
                 " ".join(["??", "??"] + Deal.from_number(5).line().split()[2:]),
                 Deal.from_number(5).line().replace("Qh", "Jk")],
    "--layout-file": ["/nonexistent/deals.txt", "/", ""],
}
FLAGS = ["--json", "--no-solution", "--fast", "--empty-waste", "--joker", "--draw-when-stuck",
         "--open", "--wrap", "--no-wrap", "--reveal", "--bogus", "-h", "--version"]


def random_args(rng: random.Random) -> list[str]:
    command = rng.choice(["solve", "deal", "replay", None])
    args = [] if command is None else [command]
    if rng.random() < 0.7:
        args.append(rng.choice(CODES[:5]))  # mostly a valid code first, to get further
    for _ in range(rng.randint(0, 6)):
        kind = rng.random()
        if kind < 0.3:
            args.append(rng.choice(CODES))
        elif kind < 0.55:
            args.append(rng.choice(MOVES))
        elif kind < 0.8:
            option = rng.choice(list(VALUES))
            args += [option] + ([rng.choice(VALUES[option])] if rng.random() < 0.9 else [])
        else:
            args.append(rng.choice(FLAGS))
    if rng.random() < 0.2:
        args.insert(rng.randint(0, len(args)), "".join(
            chr(rng.randint(32, 0x2FFF)) for _ in range(rng.randint(1, 8))))
    return args


def test_random_arguments_never_end_in_a_traceback(capsys, monkeypatch):
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    rng = random.Random(20240601)
    failures, seen = [], set()
    for _ in range(250):
        args = random_args(rng)
        try:
            status, _, err = run(capsys, *args)
        except Exception as exc:  # noqa: BLE001  every escape is a failure to report
            capsys.readouterr()
            failures.append((args, f"{type(exc).__name__}: {exc}"))
            continue
        seen.add(status)
        one_line = status == 0 or err.count("\n") == 1
        if status not in (0, 1, 2) or "Traceback" in err or not one_line:
            failures.append((args, status, err))
    assert failures == []
    assert seen == {0, 1, 2}  # the inputs reach all three exits, so the loop tests something


def test_an_argument_holding_a_newline_still_gives_one_line(capsys):
    status, out, err = run(capsys, "deal", "TP1-E-AAAAAAB", "extra\nargument")
    assert out == ""
    assert_one_line_error(status, err, "extra")
