"""``must_clear`` (``--must-clear``): the best score among the lines that clear the board.

- the fast answers against the naive twin (tests/naive.py, which keeps the best won
  end beside the best end), from openings and mid-game positions, under every scheme
  and rule option, with and without ``must_clear``;
- every line found with ``must_clear`` replays on the plain-Python game to a cleared
  board with exactly the best score;
- real deals where the best original score ends stuck with a win left, found by
  benchmarks/must_clear_deals.py, and a lost deal, where no line clears the board.

Default run: a few positions per case; ``-m slow``: many.
"""

from __future__ import annotations

import json
import re

import pytest
from cli_run import assert_one_line_error, run
from helpers import label
from naive import naive_solve, position_of
from test_positions import RULE_SETS, SCHEMES, random_position

from tripeaks_solver.batch.rows import CSV_HEADER, Row
from tripeaks_solver.model.codes import GameCode
from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.game import Game, Status
from tripeaks_solver.model.moves import Move
from tripeaks_solver.model.position import Position
from tripeaks_solver.model.rules import CLASSIC, EASY
from tripeaks_solver.solver.solve import solve


def fast_answers(sol) -> tuple:
    return sol.winnable, sol.min_draws, sol.best_score, sol.best_moves, sol.max_removed


def expected(want, scheme: str, must_clear: bool) -> tuple:
    """The naive answers as ``solve`` gives them: under the original scoring without
    the fewest draws, and the most cards removed only as 28 on a won game."""
    won, draws, best, moves, most = want.clear_answers() if must_clear else want.answers()
    if scheme == "original":
        draws, most = None, 28 if won else None
    return won, draws, best, moves, most


def clear_line_problems(sol) -> list[str]:
    """What is wrong with a must_clear solution's line: it must clear the board with
    exactly the best score, or be empty when no win is left."""
    where = f"deal {sol.deal.number} {label(sol.rules)} {sol.scheme}"
    if not sol.winnable:
        lost_right = sol.moves == () and sol.best_score is None
        return [] if lost_right else [f"{where}: lost, yet a line or a score"]
    game = (sol.start or Position(sol.deal, sol.rules)).game()
    for move in sol.moves:
        game.play(move)
    if game.status is not Status.WON:
        return [f"{where}: the line ends {game.status.value}"]
    score = game.score_under(sol.scheme)
    want = (sol.best_score, sol.best_moves) if sol.scheme == "cards-left" else sol.best_score
    if score != want:
        return [f"{where}: the line scores {score}, best {want}"]
    if sol.steps()[-1].score != (0 if sol.scheme == "cards-left" else sol.best_score):
        return [f"{where}: the last step does not score the best"]
    return []


def check(position: Position, scheme: str) -> list[str]:
    want = naive_solve(position.deal, position.rules, scheme,
                       position_of(position.game(), scheme))
    problems = []
    for must_clear in (False, True):
        sol = solve(position, scheme=scheme, must_clear=must_clear)
        got, wanted = fast_answers(sol), expected(want, scheme, must_clear)
        if got != wanted:
            problems.append(f"deal {position.deal.number} {label(position.rules)} "
                            f"{[m.token for m in position.record]} {scheme} "
                            f"must_clear={must_clear}: fast {got}, naive {wanted}")
        if must_clear:
            problems += clear_line_problems(sol)
    return problems


def cases(count: int) -> list:
    return [pytest.param(r, s, n, id=f"{label(r)}-{s}") for r in RULE_SETS for s in SCHEMES
            for n in [max(1, count // 3) if s == "original" else count]]


@pytest.mark.parametrize(("rules", "scheme", "count"), cases(1))
def test_agrees_with_the_naive_twin(rules, scheme: str, count: int) -> None:
    problems = []
    for seed in range(count):  # the naive twin takes seconds from an opening: mid-game here
        problems += check(random_position(seed + 300, rules), scheme)
    assert not problems, problems[:5]


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "scheme", "count"), cases(12))
def test_agrees_with_the_naive_twin_many(rules, scheme: str, count: int) -> None:
    problems = []
    for seed in range(count):
        problems += check(Position(Deal.from_number(500 + seed, rules.joker), rules), scheme)
        problems += check(random_position(seed + 3000, rules, most=30), scheme)
    assert not problems, problems[:5]


@pytest.mark.nojit
def test_late_positions_agree_with_the_naive_twin() -> None:
    # Few cards left: quick enough for CI's run of the kernels as plain Python.
    problems = []
    for seed in (12, 13):  # Classic positions with 19 and 18 cards left, a win left in one
        problems += check(random_position(seed, CLASSIC, most=60), "original")
    assert not problems, problems


# Found by `python benchmarks/must_clear_deals.py 0 1000`: the best original score of
# each ends stuck although the deal can be won.
STUCK_BEST = [(48, EASY), pytest.param(23, CLASSIC, marks=pytest.mark.slow)]


@pytest.mark.parametrize(("number", "rules"), STUCK_BEST, ids=lambda x: str(x))
def test_the_best_original_score_may_end_stuck(number: int, rules) -> None:
    deal = Deal.from_number(number)
    best = solve(deal, rules, scheme="original")
    clear = solve(deal, rules, scheme="original", must_clear=True)
    want = naive_solve(deal, rules, "original")
    assert best.winnable and clear.winnable and want.winnable
    assert best.best_score == want.best_score
    assert clear.best_score == want.clear_score < best.best_score
    game = Position(deal, rules).game()
    for move in best.moves:
        game.play(move)
    assert game.status is Status.STUCK and game.original == best.best_score
    assert clear_line_problems(clear) == []


@pytest.mark.parametrize("scheme", SCHEMES)
def test_no_line_clears_a_lost_deal(scheme: str) -> None:
    deal = Deal.from_number(8)  # lost under Classic (docs/rules.md)
    sol = solve(deal, CLASSIC, scheme=scheme, must_clear=True)
    assert fast_answers(sol) == (False, None, None, None, None) and sol.moves == ()
    assert sol.must_clear and solve(deal, CLASSIC, scheme=scheme).best_score is not None


def test_under_app_and_cards_left_a_win_is_already_the_best() -> None:
    for number in range(10):
        for rules in (EASY, CLASSIC):
            for scheme in ("app", "cards-left"):
                plain = solve(Deal.from_number(number), rules, scheme=scheme)
                clear = solve(Deal.from_number(number), rules, scheme=scheme, must_clear=True)
                if plain.winnable:
                    assert fast_answers(clear) == fast_answers(plain)
                    assert clear_line_problems(clear) == []
                else:
                    assert fast_answers(clear) == (False, None, None, None, None)


@pytest.mark.parametrize("scheme", ["app", "cards-left"])
def test_a_looser_solution_changes_no_answer(scheme: str) -> None:
    spared = 0
    for number in range(40):
        deal = Deal.from_number(number)
        easy = solve(deal, EASY, scheme=scheme, must_clear=True)
        bounded = solve(deal, CLASSIC, scheme=scheme, must_clear=True, looser=easy)
        assert fast_answers(bounded) == fast_answers(
            solve(deal, CLASSIC, scheme=scheme, must_clear=True))
        spared += not easy.winnable and bounded.states == 0
    assert spared > 0  # some deal was lost under Easy and not searched again


def test_must_clear_needs_the_optimum() -> None:
    with pytest.raises(ValueError, match="must_clear"):
        solve(Deal.from_number(0), EASY, optimal=False, must_clear=True)


# --- the command line ---------------------------------------------------------------------
def replayed(code: str, rules, tokens: list[str], before: tuple[str, ...] = ()) -> Game:
    game = Game(Deal.from_number(GameCode.parse(code).number), rules)
    for token in (*before, *tokens):
        game.play(token)
    return game


def test_solve_prints_the_best_win_and_its_line(capsys) -> None:
    code, out, err = run(capsys, "TP1-E-AAAAABW", "--rules", "easy", "--scoring", "original",
                         "--must-clear")
    assert code == 0, err
    want = naive_solve(Deal.from_number(48), EASY, "original")
    assert f"Easy:    winnable, best original score {want.clear_score} with the board cleared" \
        in out
    assert "line to the win" in out
    scores = re.findall(r"^ *\d+\. .* original score (-?\d+)", out, re.MULTILINE)
    assert scores and scores[-1] == str(want.clear_score)


@pytest.mark.slow  # naive twins from six openings: CI's slow step (the fast set keeps
# test_solve_prints_the_best_win_and_its_line and test_hint_json_with_must_clear)
@pytest.mark.parametrize("scheme", SCHEMES)
def test_solve_json_lines_clear_the_board(capsys, scheme: str) -> None:
    codes = ["TP1-E-AAAAABW", "TP1-E-AAAAAAX", "TP1-E-AAAAAAI"]  # deals 48, 23, 8
    code, out, err = run(capsys, *codes, "--scoring", scheme, "--must-clear", "--json")
    assert code == 0, err
    rows = json.loads(out)
    assert len(rows) == 6 and all(r["must_clear"] is True for r in rows)
    for r in rows:
        rules = EASY if r["rules"] == "easy" else CLASSIC
        want = naive_solve(Deal.from_number(r["deal"]), rules, scheme)
        assert r["winnable"] == want.winnable
        if not r["winnable"]:  # deal 8 under Classic
            assert (r["best_score"], r["solution"], r["max_removed"]) == (None, None, None)
            continue
        game = replayed(r["code"], rules, r["solution"])
        assert game.status is Status.WON
        assert r["best_score"] == want.clear_score
        if scheme == "cards-left":
            assert (game.cards_left, game.moves) == (0, r["best_moves"])
        else:
            assert game.score_under(scheme) == r["best_score"]
    assert any(not r["winnable"] for r in rows)


def test_solve_text_says_when_no_line_clears(capsys) -> None:
    code, out, err = run(capsys, "TP1-C-AAAAAAI", "--scoring", "original", "--must-clear")
    assert code == 0, err
    assert "Classic: not winnable: no line clears the board" in out
    assert "line to" not in out


@pytest.mark.slow  # a naive twin a move (the fast set keeps hint's text with must-clear)
def test_hint_json_with_must_clear(capsys) -> None:
    before = ("draw", "draw")
    code, out, err = run(capsys, "hint", "TP1-E-AAAAABW", *before, "--scoring", "original",
                         "--must-clear", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["must_clear"] is True and data["winnable"] is True
    game = replayed("TP1-E-AAAAABW", EASY, data["line"], before)
    assert game.status is Status.WON and game.original == data["best_score"]
    position = Position.of(replayed("TP1-E-AAAAABW", EASY, [], before))
    for m in data["moves"]:  # each move's best win, from the naive twin after the move
        after = naive_solve(position.deal, EASY, "original",
                            position_of(position.play(Move.parse(m["move"])).game(), "original"))
        assert (m["winnable"], m["best_score"]) == (after.winnable, after.clear_score)
        assert (m["mark"] == "??") == (not after.winnable)
    best = [m["best_score"] for m in data["moves"] if m["best_score"] is not None]
    assert best and data["best_score"] == max(best) == data["moves"][0]["best_score"]


def test_hint_text_says_when_no_line_clears(capsys) -> None:
    code, out, err = run(capsys, "hint", "TP1-C-AAAAAAI", "--scoring", "original",
                         "--must-clear")
    assert code == 0, err
    assert "not winnable: no line clears the board" in out
    assert "best none (no win left)" in out


@pytest.mark.parametrize("args", [["solve", "TP1-E-AAAAAAA", "--no-optimal", "--must-clear"],
                                  ["hint", "TP1-E-AAAAAAA", "--fair", "--must-clear"],
                                  ["solve", "--layout", " ".join(["??"] * 52), "--must-clear"]])
def test_must_clear_where_it_means_nothing_is_refused(capsys, args) -> None:
    code, _, err = run(capsys, *args)
    assert_one_line_error(code, err, "--must-clear")


@pytest.mark.parametrize("command", ["solve", "hint", "batch"])
def test_help_explains_must_clear(capsys, command: str) -> None:
    code, out, _ = run(capsys, command, "--help")
    assert code == 0 and "--must-clear" in out and "clear the board" in " ".join(out.split())


# --- batch ----------------------------------------------------------------------------------
@pytest.mark.slow  # CI's slow step (the fast set keeps the other batch must-clear tests)
def test_batch_must_clear_rows_are_the_solvers(capsys, tmp_path) -> None:
    path = tmp_path / "clear.csv"
    code, out, err = run(capsys, "batch", "20", "26", "--scoring", "original", "--must-clear",
                         "--csv", str(path), "--jobs", "1", "--json")
    assert code == 0, err
    assert json.loads(out)["must_clear"] is True
    lines = path.read_text().splitlines()
    assert lines[0] == ",".join(CSV_HEADER) + ",must_clear"
    rows = [Row.from_csv_fields(line.split(","), ("must_clear",)) for line in lines[1:]]
    assert len(rows) == 12 and all(r.must_clear for r in rows)
    changed = 0
    for row in rows:
        rules = EASY if row.rules == "easy" else CLASSIC
        sol = solve(Deal.from_number(row.deal), rules, scheme="original", must_clear=True)
        assert row.answer() == (sol.winnable, sol.min_draws, sol.best_score, sol.max_removed)
        assert row.csv_line() == lines[rows.index(row) + 1] + "\n"
        changed += row.winnable and row.best_score != solve(
            Deal.from_number(row.deal), rules, scheme="original").best_score
    assert changed >= 1  # deal 23 under Classic: its best original score ends stuck
    code, out, err = run(capsys, "report", str(path), "--json")
    assert code == 0, err
    assert json.loads(out)["must_clear"] is True and json.loads(out)["rows"] == 12


def test_batch_resume_keeps_must_clear_apart(capsys, tmp_path) -> None:
    path = tmp_path / "clear.csv"
    assert run(capsys, "batch", "8", "10", "--must-clear", "--csv", str(path), "--jobs",
               "1")[0] == 0
    before = path.read_bytes()
    code, _, err = run(capsys, "batch", "8", "12", "--csv", str(path), "--resume", "--jobs", "1")
    assert_one_line_error(code, err, "--must-clear")
    assert path.read_bytes() == before  # the refused run changed nothing
    code, _, err = run(capsys, "batch", "8", "12", "--must-clear", "--csv", str(path),
                       "--resume", "--jobs", "1")
    assert code == 0, err
    assert path.read_text().count("\n") == 1 + 2 * 4


def test_batch_must_clear_with_added_columns_reads_back(capsys, tmp_path) -> None:
    path = tmp_path / "both.csv"
    args = ["8", "10", "--must-clear", "--difficulty", "2", "--player", "greedy", "--jobs", "1",
            "--csv", str(path)]
    assert run(capsys, "batch", *args)[0] == 0
    header = path.read_text().splitlines()[0].split(",")
    assert header[len(CSV_HEADER):] == ["must_clear", "seed", "difficulty", "rating",
                                        "difficulty_games", "player", "player_won",
                                        "player_score", "player_moves"]
    code, out, err = run(capsys, "report", str(path), "--json")
    assert code == 0, err
    assert json.loads(out)["must_clear"] is True and json.loads(out)["rows"] == 4
    code, _, err = run(capsys, "batch", *args[:2], "--difficulty", "2", "--player", "greedy",
                       "--jobs", "1", "--csv", str(path), "--resume")
    assert_one_line_error(code, err, "--must-clear")


def test_batch_without_must_clear_has_no_such_column(capsys, tmp_path) -> None:
    path = tmp_path / "plain.csv"
    code, out, err = run(capsys, "batch", "8", "10", "--csv", str(path), "--jobs", "1",
                         "--json")
    assert code == 0, err
    assert path.read_text().splitlines()[0] == ",".join(CSV_HEADER)
    assert json.loads(out)["must_clear"] is False


def test_a_must_clear_row_that_no_run_writes_is_refused() -> None:
    good = "TP1-C-AAAAAAI,8,classic,,app,false,,,,10,0.1,,true"
    assert not Row.from_csv_fields(good.split(","), ("must_clear",)).winnable
    for bad in ("TP1-C-AAAAAAI,8,classic,,app,false,,600,,10,0.1,,true",  # a lost best
                "TP1-C-AAAAAAI,8,classic,,app,false,,,20,10,0.1,,true",  # cards removed
                "TP1-C-AAAAAAI,8,classic,,app,false,,,,10,0.1,,yes"):
        with pytest.raises(ValueError):
            Row.from_csv_fields(bad.split(","), ("must_clear",))
