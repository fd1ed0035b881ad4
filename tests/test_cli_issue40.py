"""The smaller defects of issue 40 (items 5, 6 and 8), one reproduction each:

- a won board says the peaks are cleared; ``--joker`` names the joker code; no empty
  table; ``play``'s header; shares rounded in JSON; the review's lines whole (item 5);
- deal numbers wherever a code goes (item 6);
- ``help CMD`` is ``CMD --help``, ``help`` alone the top help (item 8).
"""

from __future__ import annotations

import io
import json
import re
import sys

import pytest
from cli_run import assert_one_line_error, run

from tripeaks_solver.cli import cli
from tripeaks_solver.errors import InputError
from tripeaks_solver.games.records import header, make_start
from tripeaks_solver.model.codes import GameCode
from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.geometry import ROWS
from tripeaks_solver.model.position import Position
from tripeaks_solver.model.render import CLEARED, board_lines
from tripeaks_solver.model.rules import CLASSIC, EASY

DEAL3_MOVES = "8h d 4s d 8c d d 6h d 8d d 4c d 8s d Qc Kh Ah Kd Ac Ks Qh"  # docs/cli.md


# --- item 8: help CMD -------------------------------------------------------------------
@pytest.mark.parametrize("command", sorted(cli.commands))
def test_help_command_is_the_command_help(capsys, command):
    asked = run(capsys, "help", command)
    direct = run(capsys, command, "--help")
    assert asked == direct
    assert asked[0] == 0 and asked[1].startswith(f"Usage: tripeaks-solve {command} ")


@pytest.mark.parametrize("words", [(), ("help",), ("--help",)])
def test_help_alone_is_the_top_help(capsys, words):
    code, out, err = run(capsys, "help", *words)
    assert (code, err) == (0, "")
    assert out == run(capsys, "--help")[1]
    assert out.startswith("Usage: tripeaks-solve [OPTIONS] COMMAND")
    assert "tripeaks-solve help COMMAND" in out


def test_help_of_an_unknown_command_names_the_closest(capsys):
    code, out, err = run(capsys, "help", "hnt")
    assert_one_line_error(code, err, "no command 'hnt'", "did you mean 'hint'")
    assert out == ""
    code, out, err = run(capsys, "help", "hint", "analyze")
    assert_one_line_error(code, err, "one command name")


# --- item 5: the smaller defects -----------------------------------------------------------
def _won_line(number: int = 1) -> list[str]:
    from tripeaks_solver.solver.solve import solve

    sol = solve(Deal.from_number(number), EASY)
    assert sol.winnable
    return list(sol.tokens)


def test_replay_of_a_won_game_says_the_peaks_are_cleared(capsys, tmp_path):
    line = _won_line()
    record = tmp_path / "won.txt"
    record.write_text(header(make_start("code", "TP1-E-AAAAAAB", EASY), "app")
                      + "".join(t + "\n" for t in line), encoding="utf-8")
    for args in (("replay", "TP1-E-AAAAAAB", *line), ("replay", "--record", str(record))):
        code, out, err = run(capsys, *args)
        assert code == 0, err
        lines = out.splitlines()
        at = lines.index(CLEARED)
        # the moves, a blank line, the cleared peaks, a blank line, the waste: no rows of
        # nothing where the peaks were
        assert lines[at - 1] == "" and lines[at + 1] == "" and lines[at + 2].startswith("Waste:")
        assert "\n\n\n" not in out
        assert lines[-1].startswith("Won: ")


def test_the_coach_at_a_win_says_the_peaks_are_cleared(capsys, monkeypatch, tmp_path):
    line = _won_line()
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(
        "".join(t + "\n" for t in line).encode()), encoding="utf-8"))
    code, out, err = run(capsys, "coach", "TP1-E-AAAAAAB", "--no-analysis", "--record",
                         str(tmp_path / "g.txt"))
    assert code == 0, err
    tail = out[out.rindex(", after 41 moves: won"):]
    assert tail.splitlines()[1] == CLEARED and "\n\n\n" not in tail


def test_a_board_with_cards_left_is_drawn_as_peaks():
    position = Position.after(Deal.from_number(1), EASY, _won_line()[:-1])
    assert CLEARED not in board_lines(position)
    assert len(board_lines(position)) == len(ROWS) + 2


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


@pytest.mark.parametrize("start", [("TP1-E-AAAAAAD",),
                                   ("--seen", "4c Jd Ad Qs Js 8h 9c 7c 2s Tc Qc", "--seed", "1")])
def test_analyze_without_moves_prints_no_empty_table(capsys, start):
    code, out, err = run(capsys, "analyze", *start)
    assert code == 0, err
    assert "move" in out.splitlines()[0] and "no move to judge" in out.splitlines()[0]
    assert not any(line.split()[:2] == ["#", "move"] for line in out.splitlines() if line)
    summary = out.splitlines()[-1]
    assert summary.startswith("Summary: score 500 at the start")
    if start[0] == "TP1-E-AAAAAAD":
        from tripeaks_solver.solver.solve import solve

        assert summary.endswith(f", best from the start {solve(Deal.from_number(3), EASY).best_score}.")


def test_play_header_is_the_other_commands_and_shows_no_original_score(capsys):
    code, out, err = run(capsys, "play", "TP1-E-AAAAAAD", "--player", "greedy")
    assert code == 0, err
    _, hint, _ = run(capsys, "hint", "TP1-E-AAAAAAD")
    title = hint.splitlines()[0].split(", after")[0]
    assert out.splitlines()[0] == f"{title}, player greedy, seed 0"
    assert "original" not in out
    assert re.fullmatch(r"(Won|Lost, \d+ cards? left in the peaks) in \d+ moves: score \d+",
                        out.splitlines()[-1])


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


def test_the_review_breaks_its_lines_between_words(capsys):
    code, out, err = run(capsys, "analyze", "TP1-E-AAAAAAD", DEAL3_MOVES, "--fair", "--seed", "1",
                         "--samples", "5")
    assert code == 0, err
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 100
    words = out.split()
    # the sentences are whole: every word of them is there, unbroken
    flat = " ".join(words)
    for sentence in (("Verdict of a ?? move, from the fair shares (what the player could "
                      "see): mistake when another move kept a higher share, bad luck when it "
                      "was rated best."),
                     ("Marks: ?? threw the win away, ? lost points, ! the only move that "
                      "kept the win.")):
        assert sentence in flat
    assert any(line.startswith("Summary: ") for line in lines)


# --- item 6: deal numbers where codes go ------------------------------------------------------
def test_a_deal_number_is_solved_as_its_code(capsys):
    code, out, err = run(capsys, "1132", "--no-solution")
    assert code == 0, err
    _, by_code, _ = run(capsys, "TP1-E-AAAABRO", "--no-solution")
    assert out.splitlines()[0] == "TP1-E-AAAABRO  (deal 1132)"
    strip = [line for line in out.splitlines() if not line.startswith("Searched")]
    assert strip == [line for line in by_code.splitlines() if not line.startswith("Searched")]
    _, js, _ = run(capsys, "1132", "--json", "--no-solution")
    assert {(r["code"], r["deal"], r["source"]) for r in json.loads(js)} == {
        ("TP1-E-AAAABRO", 1132, "TP1-E-AAAABRO")}
    # Classic when asked: its code says so
    _, js, _ = run(capsys, "1132", "--json", "--no-solution", "--rules", "classic")
    (row,) = json.loads(js)
    assert (row["code"], row["deal"], row["rules"]) == ("TP1-C-AAAABRO", 1132, "classic")


def test_deal_numbers_read_from_standard_input(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("3 1132  # two deals\n"))
    code, out, err = run(capsys, "-", "--json", "--no-solution", "--rules", "easy")
    assert code == 0, err
    assert [(r["code"], r["deal"]) for r in json.loads(out)] == [("TP1-E-AAAAAAD", 3),
                                                                 ("TP1-E-AAAABRO", 1132)]


def test_deal_number_731(capsys):
    assert GameCode.parse("TP1-E-AAAABCD").number == 731
    code, out, err = run(capsys, "deal", "731")
    assert code == 0, err
    assert out == run(capsys, "deal", "TP1-E-AAAABCD")[1]
    assert out.splitlines()[0] == "TP1-E-AAAABCD  (deal 731, Easy rules)"
    _, js, _ = run(capsys, "deal", "731", "--json", "--rules", "classic")
    doc = json.loads(js)
    assert (doc["code"], doc["deal"], doc["rules"]) == ("TP1-C-AAAABCD", 731, "classic")


@pytest.mark.parametrize("command", ["hint", "analyze", "replay", "peek"])
def test_a_deal_number_starts_a_game(capsys, command):
    extra = ["--undo-limit", "2"] if command == "peek" else []
    code, out, err = run(capsys, command, "3", "8h", *extra)
    assert code == 0, err
    assert out == run(capsys, command, "TP1-E-AAAAAAD", "8h", *extra)[1]
    assert out.splitlines()[0].startswith("TP1-E-AAAAAAD  (deal 3, Easy rules)")
    code, js, err = run(capsys, command, "3", "8h", *extra, "--json")
    doc = json.loads(js)
    assert (doc["code"], doc["deal"]) == ("TP1-E-AAAAAAD", 3)
    code, js, err = run(capsys, command, "3", "--rules", "classic", *extra, "--json")
    doc = json.loads(js)
    assert (doc["code"], doc["deal"], doc["rules"]) == ("TP1-C-AAAAAAD", 3, "classic")


def test_play_and_coach_take_a_deal_number(capsys, monkeypatch, tmp_path):
    code, out, err = run(capsys, "play", "3")
    assert code == 0, err
    assert out == run(capsys, "play", "TP1-E-AAAAAAD")[1]
    _, js, _ = run(capsys, "play", "3", "--json")
    assert (json.loads(js)["code"], json.loads(js)["deal"]) == ("TP1-E-AAAAAAD", 3)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(sys, "stdin", io.StringIO("8h\nq\n"))
    record = tmp_path / "g.txt"
    code, out, err = run(capsys, "coach", "3", "--no-analysis", "--record", str(record))
    assert code == 0, err
    assert "start: code TP1-E-AAAAAAD\n" in record.read_text(encoding="utf-8")
    assert "TP1-E-AAAAAAD" in out


@pytest.mark.parametrize("word, needle", [("8031810176", "beyond the last deal"),
                                          ("99999999999999", "beyond 26^7")])
def test_a_deal_number_out_of_range_is_one_line(capsys, word, needle):
    for args in ((word,), ("deal", word), ("hint", word)):
        code, out, err = run(capsys, *args)
        assert_one_line_error(code, err, needle)
        assert out == ""


# --- item 4: one move count ------------------------------------------------------------------
UNDONE = "8h d 4s u 4s d 8c d d u u d d 6h"  # deal 3: 14 taps, 3 undos, 11 moves counted


def test_one_move_count_in_coach_replay_analyze_and_plot(capsys, monkeypatch, tmp_path):
    """A game with undos counts 11 moves in the coach; replay and analyze number its
    moves 1–11 (an undo by the move it takes back) and the plot's axis ends at 11."""
    pytest.importorskip("matplotlib")
    record = tmp_path / "g.txt"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(UNDONE.split()) + "\nq\n"))
    code, out, err = run(capsys, "coach", "TP1-E-AAAAAAD", "--no-analysis", "--record",
                         str(record))
    assert code == 0, err
    assert "TP1-E-AAAAAAD, after 11 moves" in out
    assert "Game stopped: score 492, 11 moves" in out
    # replay: moves numbered by the counter, undos unnumbered naming the move taken back
    code, out, err = run(capsys, "replay", "--record", str(record))
    assert code == 0, err
    numbered = [int(m[1]) for m in re.finditer(r"^ *(\d+)\. ", out, re.MULTILINE)]
    assert numbered == list(range(1, 12))
    assert re.findall(r"\(move (\d+) taken back\)", out) == ["3", "8", "7"]
    assert out.splitlines()[-1].startswith("In play: score 492, 11 moves,")
    code, js, err = run(capsys, "replay", "--record", str(record), "--json")
    doc = json.loads(js)
    assert doc["moves"] == 11
    assert [s["number"] for s in doc["steps"]] == [1, 2, 3, 3, 4, 5, 6, 7, 8, 8, 7, 9, 10, 11]
    # analyze: the same numbers, the moves taken back marked apart
    code, out, err = run(capsys, "analyze", "--record", str(record), "--plot",
                         str(tmp_path / "p.png"))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("TP1-E-AAAAAAD  (deal 3, Easy rules): 11 moves, 8 judged and 3 "
                               "taken back by 3 undos")
    assert "    3. 4♠ undo  (taken back)" in lines
    assert "    7–8. draw draw undo undo  (taken back)" in lines
    judged = [int(ln.split(".")[0]) for ln in lines[2:]
              if re.match(r" +\d+\. ", ln) and "taken back" not in ln]
    assert judged == [1, 2, 4, 5, 6, 9, 10, 11]
    code, js, err = run(capsys, "analyze", "--record", str(record), "--json")
    rows = json.loads(js)["moves"]
    assert [(r["number"], r["move"], r["taken_back"]) for r in rows] == [
        (1, "8h", False), (2, "draw", False), (3, "4s", True), (3, "undo", True),
        (4, "4s", False), (5, "draw", False), (6, "8c", False), (7, "draw", True),
        (8, "draw", True), (8, "undo", True), (7, "undo", True), (9, "draw", False),
        (10, "draw", False), (11, "6h", False)]
    from tripeaks_solver.analysis.hints import analyze
    from tripeaks_solver.analysis.review_plot import review_figure

    review = analyze(Deal.from_number(3), EASY, UNDONE.split())
    axes = review_figure(review, "t").axes[0]
    assert axes.get_xlim() == (-0.5, 11.5)
    assert list(axes.lines[0].get_xdata()) == [0, 1, 2, 4, 5, 6, 9, 10, 11]
    # hint counts the same
    _, out, _ = run(capsys, "hint", "3", *UNDONE.split())
    assert out.splitlines()[0] == "TP1-E-AAAAAAD  (deal 3, Easy rules), after 11 moves"


def test_move_numbers_follow_the_game_counter():
    from tripeaks_solver.model.game import Game
    from tripeaks_solver.model.moves import Move, move_numbers

    game = Game(Deal.from_number(3), EASY)
    moves = [Move.parse(t) for t in UNDONE.split()]
    counter = []
    for move in moves:
        game.play(move)
        counter.append(game.moves)
    numbers = move_numbers(moves)
    # a removal or draw: the counter after it; an undo: the number of the move it took back
    assert [n for n, m in zip(numbers, moves, strict=True) if not m.is_undo] == \
        [c for c, m in zip(counter, moves, strict=True) if not m.is_undo]
    assert [n for n, m in zip(numbers, moves, strict=True) if m.is_undo] == [3, 8, 7]


def test_help_completes_the_command_names(capsys, monkeypatch):
    monkeypatch.setenv("_TRIPEAKS_SOLVE_COMPLETE", "bash_complete")
    monkeypatch.setenv("COMP_WORDS", "tripeaks-solve help an")
    monkeypatch.setenv("COMP_CWORD", "2")
    code, out, _ = run(capsys)
    assert code == 0 and out.splitlines() == ["plain,analyze"]
    monkeypatch.setenv("COMP_WORDS", "tripeaks-solve help ")
    code, out, _ = run(capsys)
    assert {line.split(",")[1] for line in out.splitlines()} >= set(cli.commands)


@pytest.mark.parametrize(("rules", "code"), [(EASY, "TP1-E-AAAAAAD"), (CLASSIC, "TP1-C-AAAAAAD")])
def test_a_start_typed_as_a_deal_number_is_its_code(rules, code):
    """The coach's start prompt (and the page's pasted start) takes a deal number, named
    by its code under the rules chosen."""
    from tripeaks_solver.games.records import start_from_text

    start = start_from_text(" 3 ", rules, lambda gc: rules)
    assert (start.kind, start.text, start.rules) == ("code", code, rules)
    assert start.deal == Deal.from_number(3)
    with pytest.raises(InputError, match="beyond the last deal"):
        start_from_text(str(26 ** 7), rules, lambda gc: rules)
