"""The Python API: docs/api.md's examples run and print what it shows, ``tp.batch``
yields the rows ``batch --csv`` writes, and every result's ``to_dict()`` is its
command's ``--json`` object.

The examples of docs/api.md are the ```` ```python ```` blocks that start with ``>>> ``:
doctest's format, run in order in one namespace (a session at the prompt), each line's
output compared exactly.
"""

from __future__ import annotations

import csv
import doctest
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cli_run import run

import tripeaks_solver as tp

ROOT = Path(__file__).resolve().parent.parent
API_DOC = ROOT / "docs" / "api.md"
# The values of ``seconds`` are timings: each run has its own.
TIMING = ("seconds",)


def python_blocks(path: Path) -> list[tuple[int, str]]:
    """(line number, text) of each ```python block whose first line starts with >>>."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks = []
    i = 0
    while i < len(lines):
        if lines[i].strip() != "```python":
            i += 1
            continue
        end = i + 1
        while lines[end] != "```":
            end += 1
        body = lines[i + 1:end]
        if body and body[0].startswith(">>> "):
            blocks.append((i + 2, "\n".join(body) + "\n"))
        i = end + 1
    return blocks


def run_examples(path: Path) -> doctest.TestResults:
    """Run the examples of ``path`` in order in one namespace; fail with doctest's
    report of every line whose output differs."""
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    namespace: dict = {}
    report: list[str] = []
    where = path.relative_to(ROOT)
    for line, text in python_blocks(path):
        test = parser.get_doctest(text, namespace, f"{where}:{line}", str(path), line)
        test.globs = namespace  # one session: later blocks use what earlier ones made
        runner.run(test, out=report.append, clear_globs=False)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, "\n".join(report)
    return result


def test_the_examples_of_api_md_print_what_it_shows():
    shown = " ".join(text for _, text in python_blocks(API_DOC))
    for name in ("Deal.from_code", "solve", "hint", "analyze", "play", "peek",
                 "win_probability", "difficulty", "batch"):
        assert f"tp.{name}(" in shown, f"docs/api.md has no example of tp.{name}"
    assert run_examples(API_DOC).attempted >= 30


def test_the_python_example_of_the_readme_prints_what_it_shows():
    assert run_examples(ROOT / "README.md").attempted == 2


def test_a_changed_output_fails_the_example_check():
    # The harness must catch drift: an example with a wrong output fails.
    test = doctest.DocTestParser().get_doctest(">>> 1 + 1\n3\n", {}, "drift", None, 0)
    runner = doctest.DocTestRunner()
    runner.run(test, out=lambda _: None)
    assert runner.summarize(verbose=False).failed == 1


def test_importing_the_package_loads_no_solver():
    code = ("import sys, tripeaks_solver as tp; tp.Deal; tp.solve; tp.batch; "
            "print(sorted(m for m in ('numpy', 'numba', 'click') if m in sys.modules))")
    # tp.solve loads the solver; before it, the bare import must not.
    bare = ("import sys, tripeaks_solver; "
            "print(sorted(m for m in ('numpy', 'numba', 'click') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", bare], check=True, capture_output=True,
                         text=True, cwd=ROOT).stdout
    assert out.strip() == "[]"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                         text=True, cwd=ROOT).stdout
    assert "numba" in out  # the API itself did load


def test_the_api_has_docstrings_and_type_hints():
    import inspect

    for name in ("solve", "hint", "analyze", "play", "peek", "win_probability",
                 "difficulty"):
        f = getattr(tp, name)
        assert f.__doc__ and len(f.__doc__) > 80, name
        sig = inspect.signature(f)
        assert sig.return_annotation is not inspect.Signature.empty, name
        assert all(p.annotation is not inspect.Parameter.empty
                   for p in sig.parameters.values()), name
    assert tp.batch.__call__.__doc__ and tp.api.batch.__doc__
    assert inspect.signature(tp.api.batch).return_annotation is not inspect.Signature.empty
    assert callable(tp.batch) and tp.batch is sys.modules["tripeaks_solver.batch"]
    assert tp.Deal.from_code.__doc__


# --- tp.batch against the CSV --------------------------------------------------------
INTS = {"deal", "min_draws", "best_score", "max_removed", "states", "seed",
        "difficulty_games"}
FLOATS = {"seconds", "difficulty"}
BOOLS = {"winnable", "must_clear"}


def read_back(text: str, column: str) -> object:
    """docs/api.md's table, written again here: a CSV field as tp.batch gives it."""
    if column in INTS:
        return int(text) if text else None
    if column in FLOATS:
        return float(text)
    if column in BOOLS:
        assert text in ("true", "false"), (column, text)
        return text == "true"
    return text


def csv_rows(path: Path) -> tuple[list[str], list[dict]]:
    with path.open(newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        header = next(reader)
        return header, [{c: read_back(t, c) for c, t in zip(header, line, strict=True)}
                        for line in reader]


def untimed(row: dict) -> dict:
    assert isinstance(row["seconds"], float) and row["seconds"] >= 0
    return {k: v for k, v in row.items() if k not in TIMING}


def check_batch_equals_csv(capsys, tmp_path: Path, args: list[str], **kwargs) -> list[dict]:
    path = tmp_path / "rows.csv"
    code, _, err = run(capsys, "batch", *args, "--csv", str(path), "--jobs", "1")
    assert code == 0, err
    header, expected = csv_rows(path)
    start, stop = args[0], args[1]
    got = list(tp.batch(start, stop, **kwargs))
    assert all(list(row) == header for row in got)
    assert [untimed(r) for r in got] == [untimed(r) for r in expected]
    return got


def test_batch_rows_equal_the_csv(capsys, tmp_path):
    rows = check_batch_equals_csv(capsys, tmp_path, ["0", "40"])
    assert len(rows) == 80
    assert {type(r["winnable"]) for r in rows} == {bool}
    assert any(r["min_draws"] is None for r in rows)  # a lost deal: an empty field
    assert all(type(r["states"]) is int and type(r["code"]) is str for r in rows)
    # What a table library takes as it is: the same keys in every row, scalar values.
    assert all(type(v) in (int, float, bool, str, type(None)) for r in rows for v in r.values())


def test_batch_rows_with_players_difficulty_and_options(capsys, tmp_path):
    rows = check_batch_equals_csv(
        capsys, tmp_path, ["AAAAAAK", "AAAAAAU", "--rules", "classic", "--difficulty", "20",
                           "--player", "greedy", "--player", "careful", "--seed", "3",
                           "--scoring", "cards-left", "--must-clear", "--empty-waste"],
        rules="classic", difficulty=20, players=["greedy", "careful"], seed=3,
        scoring="cards-left", must_clear=True, empty_waste=True)
    assert len(rows) == 10 and rows[0]["deal"] == 10
    assert rows[0]["variant"] == "empty-waste" and rows[0]["must_clear"] is True
    assert all(type(r["difficulty"]) is float and r["player"] == "greedy;careful"
               for r in rows)


@pytest.mark.slow
def test_batch_0_200_equals_the_csv(capsys, tmp_path):
    rows = check_batch_equals_csv(capsys, tmp_path, ["0", "200"])
    assert len(rows) == 400


def test_a_batch_row_reads_back_as_column_value_says():
    from tripeaks_solver.batch.rows import column_value

    for column, text in [("deal", "12"), ("min_draws", ""), ("seconds", "0.001234"),
                         ("winnable", "false"), ("variant", ""), ("player_won", "true;false"),
                         ("difficulty", "0.35"), ("must_clear", "true")]:
        assert column_value(column, text) == read_back(text, column), column


# --- to_dict() is the command's --json -------------------------------------------------
PLAYED = "8h d 4s d 8c d d 6h d 8d d 4c d 8s d Qc Kh Ah Kd Ac Ks Qh"  # README's record


def cli_json(capsys, *args: str) -> object:
    code, out, err = run(capsys, *args, "--json")
    assert code == 0, err
    return json.loads(out)


def untimed_object(obj: dict) -> dict:
    return {k: v for k, v in obj.items() if k not in TIMING}


@pytest.mark.parametrize("code", ["TP1-E-AAAAAAD", "TP1-C-AAAAABC", "TP1-EJ-AAAAAAF"])
@pytest.mark.parametrize("scoring", ["app", "cards-left"])
def test_solve_to_dict_is_solve_json(capsys, code, scoring):
    objects = cli_json(capsys, code, "--scoring", scoring)
    assert [o["rules"] for o in objects] == ["easy", "classic"]
    for rules, expected in zip((tp.EASY, tp.CLASSIC), objects, strict=True):
        got = tp.solve(tp.Deal.from_code(code), rules, scoring=scoring).to_dict()
        assert list(got) == list(expected)
        assert untimed_object(got) == untimed_object(expected)
        assert got == json.loads(json.dumps(got))  # plain JSON values


def test_solve_to_dict_of_a_typed_deal_is_solve_json(capsys):
    deal = tp.Deal.from_number(8)
    [expected] = cli_json(capsys, "--layout", deal.line(), "--rules", "classic")
    got = tp.solve(tp.Deal.from_cards(deal.line().split()), "classic").to_dict("layout 1")
    assert untimed_object(got) == untimed_object(expected)
    assert got["line"] == deal.line() and got["code"] is None


def test_hint_to_dict_is_hint_json(capsys):
    moves = PLAYED.split()[:10]
    expected = cli_json(capsys, "hint", "TP1-C-AAAAAAD", *moves)
    assert tp.hint("TP1-C-AAAAAAD", moves).to_dict() == expected
    expected = cli_json(capsys, "hint", "TP1-E-AAAAAAD", *moves, "--fair", "--seed", "5",
                        "--samples", "50", "--score-samples", "10")
    got = tp.hint(tp.Deal.from_code("TP1-E-AAAAAAD"), " ".join(moves), fair=True, seed=5,
                  samples=50, score_samples=10).to_dict()
    assert got == expected


def test_a_game_seen_in_an_app_is_a_start(capsys):
    from test_observed import seen_text

    from tripeaks_solver.games.records import make_start

    seen = seen_text(tp.Deal.from_number(3), tp.CLASSIC)
    moves = ["8h", "d:3s", "4s"]
    expected = cli_json(capsys, "hint", "--seen", seen, "--rules", "classic", *moves,
                        "--seed", "3", "--samples", "40", "--score-samples", "5")
    start = make_start("seen", seen, tp.CLASSIC)
    got = tp.hint(start, moves, seed=3, samples=40, score_samples=5).to_dict()
    assert got == expected and got["fair"] is True and got["seen"] == seen
    expected = cli_json(capsys, "analyze", "--seen", seen, "--rules", "classic", *moves,
                        "--seed", "3", "--samples", "5")
    assert tp.analyze(start, moves, "classic", seed=3, samples=5).to_dict() == expected
    with pytest.raises(tp.InputError, match="played under Classic rules"):
        tp.hint(start, moves, "easy")
    with pytest.raises(tp.InputError, match="cards are all known"):
        tp.peek(start, moves)


def test_analyze_to_dict_is_analyze_json(capsys):
    moves = [*PLAYED.split(), "u"]
    expected = cli_json(capsys, "analyze", "TP1-E-AAAAAAD", *moves, "--fair", "--seed", "2",
                        "--samples", "8")
    got = tp.analyze("TP1-E-AAAAAAD", moves, fair=True, seed=2, samples=8).to_dict()
    assert got == expected
    assert got["moves"][-1]["taken_back"] is True


def test_play_to_dict_is_play_json(capsys):
    expected = cli_json(capsys, "play", "TP1-E-AAAAAAD", "--player", "fair:20", "--seed", "4",
                        "--rules", "classic")
    assert tp.play("TP1-E-AAAAAAD", "fair:20", "classic", seed=4).to_dict() == expected


def test_peek_to_dict_is_peek_json(capsys):
    expected = cli_json(capsys, "peek", "TP1-C-AAAAABC", "d", "--undo-limit", "30",
                        "--scoring", "original")
    got = tp.peek("TP1-C-AAAAABC", ["d"], undo_limit=30, scoring="original").to_dict()
    assert got == expected


def test_win_probability_to_dict_is_solve_json(capsys):
    line = " ".join("??" if i in (0, 3, 40) else t
                    for i, t in enumerate(tp.Deal.from_number(5).line().split()))
    [expected] = cli_json(capsys, "--layout", line, "--rules", "easy", "--samples", "4",
                          "--seed", "9")
    got = tp.win_probability(line, "easy", samples=4, seed=9).to_dict("layout 1")
    assert got == expected and got["exact"] is False


def test_difficulty_is_the_batch_column(capsys, tmp_path):
    path = tmp_path / "d.csv"
    code, _, err = run(capsys, "batch", "3", "5", "--difficulty", "30", "--seed", "7",
                       "--csv", str(path), "--jobs", "1")
    assert code == 0, err
    _, rows = csv_rows(path)
    for row in rows:
        d = tp.difficulty(tp.Deal.from_number(row["deal"]), row["rules"], games=30, seed=7)
        got = d.to_dict()
        assert {k: got[k] for k in ("difficulty", "rating", "difficulty_games")} == \
            {k: row[k] for k in ("difficulty", "rating", "difficulty_games")}
        assert got["winnable"] == row["winnable"]


# --- arguments -------------------------------------------------------------------------
def test_rules_default_to_the_code_and_a_joker_deal_plays_the_joker():
    assert tp.solve("TP1-C-AAAAAAD").rules == tp.CLASSIC
    assert tp.solve(tp.Deal.from_number(3)).rules == tp.EASY
    sol = tp.solve(tp.Deal.from_code("TP1-EJ-AAAAAAF"), "classic")
    assert sol.rules.joker and sol.rules.name == "classic"
    assert tp.hint("TP1-E-AAAAAAD", rules="classic").to_dict()["code"] == "TP1-C-AAAAAAD"


def test_bad_input_raises_the_library_errors():
    with pytest.raises(tp.InputError, match="unknown rules"):
        tp.solve("TP1-E-AAAAAAD", "hard")
    with pytest.raises(tp.InputError, match="game code"):
        tp.solve("TP9-E-AAAAAAD")
    with pytest.raises(tp.IllegalMoveError, match=re.escape("move 2 (Kc)")):
        tp.hint("TP1-E-AAAAAAD", "8h Kc")
    with pytest.raises(tp.InputError, match="unknown player"):
        tp.play("TP1-E-AAAAAAD", "grredy")
    for bad in (3.0, None, True, b"TP1-E-AAAAAAD", {"deal": 3}.items()):
        with pytest.raises((TypeError, tp.InputError)):
            tp.solve(bad)


# --- a deal as the commands take it: a code, a number, its cards ------------------------
LINE3 = tp.Deal.from_number(3).line()


@pytest.mark.parametrize("deal", [3, "3", " 3 ", "TP1-E-AAAAAAD", tp.Deal.from_number(3),
                                  tp.Deal.from_code("TP1-E-AAAAAAD")], ids=repr)
def test_a_deal_number_is_played_as_the_command_plays_it(capsys, deal):
    import numpy as np

    [expected] = [o for o in cli_json(capsys, "3") if o["rules"] == "easy"]
    assert untimed_object(tp.solve(deal).to_dict()) == untimed_object(expected)
    assert untimed_object(tp.solve(np.int64(3)).to_dict()) == untimed_object(expected)
    assert tp.hint(deal, "8h").to_dict() == cli_json(capsys, "hint", "3", "8h")
    assert tp.analyze(deal, "8h d", seed=1, samples=50).to_dict() == cli_json(
        capsys, "analyze", "3", "8h", "d", "--seed", "1", "--samples", "50")
    assert tp.play(deal).to_dict() == cli_json(capsys, "play", "3")
    assert tp.peek(deal, undo_limit=2).to_dict() == cli_json(capsys, "peek", "3",
                                                             "--undo-limit", "2")
    assert tp.difficulty(deal, games=10) == tp.difficulty(tp.Deal.from_number(3), games=10)


def test_a_deal_number_is_named_by_the_code_of_its_rules(capsys):
    [expected] = [o for o in cli_json(capsys, "1132", "--rules", "classic")]
    got = tp.solve(1132, "classic").to_dict()
    assert untimed_object(got) == untimed_object(expected)
    assert (got["code"], got["deal"]) == ("TP1-C-AAAABRO", 1132)
    joker = tp.solve(3, tp.EASY.with_options(joker=True))
    assert joker.deal == tp.Deal.from_code("TP1-EJ-AAAAAAD") and joker.rules.joker
    assert tp.hint("3", rules="classic").to_dict() == cli_json(capsys, "hint", "3", "--rules",
                                                               "classic")


@pytest.mark.parametrize("cards", [LINE3, LINE3.replace(" ", ","), LINE3.split(),
                                   tuple(int(c) for c in tp.Deal.from_number(3).cards)],
                         ids=["line", "commas", "tokens", "ints"])
def test_the_cards_of_a_deal_are_played_as_the_layout_command_plays_them(capsys, cards):
    [expected] = cli_json(capsys, "--layout", LINE3, "--rules", "easy")
    assert untimed_object(tp.solve(cards).to_dict("layout 1")) == untimed_object(expected)
    assert tp.hint(cards, "8h").to_dict() == cli_json(capsys, "hint", "--layout", LINE3, "8h")
    assert tp.analyze(cards, ["8h"], "classic", seed=1, samples=50).to_dict() == cli_json(
        capsys, "analyze", "--layout", LINE3, "8h", "--rules", "classic", "--seed", "1",
        "--samples", "50")
    # play takes no layout: the same game as on deal 3, of a deal without a number
    assert tp.play(cards).to_dict() == {**cli_json(capsys, "play", "3"), "code": None,
                                        "deal": None}
    assert tp.peek(cards, undo_limit=2).to_dict() == cli_json(
        capsys, "peek", "--layout", LINE3, "--undo-limit", "2")
    assert tp.Deal.from_cards(cards) == tp.Deal.from_number(3)


def test_a_53_card_line_is_a_joker_deal():
    deal = tp.Deal.from_code("TP1-EJ-AAAAAAF")
    sol = tp.solve(deal.line())
    assert sol.rules.joker and sol.deal == deal
    assert sol.best_score == tp.solve(deal).best_score


def test_a_layout_with_unknown_cards_is_a_start_of_hint_and_analyze(capsys):
    masked = " ".join("??" if i < 18 or i > 40 else t for i, t in enumerate(LINE3.split()))
    expected = cli_json(capsys, "hint", "--layout", masked, "8h", "--seed", "3", "--samples",
                        "30", "--score-samples", "5")
    assert tp.hint(masked, "8h", seed=3, samples=30, score_samples=5).to_dict() == expected
    assert tp.hint(tp.Layout.parse(masked), "8h", seed=3, samples=30,
                   score_samples=5).to_dict() == expected
    expected = cli_json(capsys, "analyze", "--layout", masked, "8h", "--seed", "3",
                        "--samples", "5")
    assert tp.analyze(masked, "8h", seed=3, samples=5).to_dict() == expected
    with pytest.raises(tp.InputError, match="a layout with \\?\\? cards is not a deal"):
        tp.solve(masked)


@pytest.mark.parametrize(("deal", "message"), [
    (26 ** 7, "deal number 8031810176 is outside 0 … 8031810175"),
    (-1, "deal number -1 is outside 0"),
    (10 ** 5000, "deal number of 4153 hex digits is outside"),
    ("8031810176", "beyond the last deal"),
    ("9" * 5000, "beyond 26^7"),
    ("TP1-E-AAAAAA", "game code"),
    (LINE3.rsplit(" ", 1)[0], "a deal has 52 cards (53 with the joker), got 51"),
    (LINE3.replace("Ad", "3d"), "card 3d appears twice (places 1 and 2)"),
    (LINE3.replace("Ad", "Zz"), "not a card: 'Zz'"),
], ids=lambda v: v if isinstance(v, str) and len(v) < 40 else "")
def test_a_bad_deal_is_one_input_error(deal, message):
    for call in (tp.solve, tp.hint, tp.play, tp.peek, tp.difficulty):
        with pytest.raises(tp.InputError, match=re.escape(message)):
            call(deal)


# --- results print in a line ----------------------------------------------------------------
def test_results_print_in_a_line_of_what_they_hold():
    sol = tp.solve(3, "classic")
    hint = tp.hint(3, PLAYED.split()[:20])
    fair = tp.hint(3, PLAYED.split()[:20], fair=True, seed=1, samples=30, score_samples=0)
    review = tp.analyze(3, PLAYED)
    played = tp.play(3, "greedy")
    peeked = tp.peek(3, undo_limit=5)
    share = tp.win_probability(" ".join(["??", "??", *LINE3.split()[2:]]))
    hard = tp.difficulty(3, games=10)
    results = [sol, hint, hint.exact, hint.position, fair, fair.advice, fair.advice.rating,
               fair.advice.rating.view, review, review.review, played, peeked, peeked.plan,
               share, hard]
    for result in results:
        for text in (repr(result), str(result)):
            assert "\n" not in text and len(text) <= 200 and "Card(" not in text, text
    assert repr(sol) == (f"<Solution TP1-C-AAAAAAD, Classic rules, app scoring: winnable, "
                         f"best score {sol.best_score}, min draws {sol.min_draws}, line of "
                         f"{len(sol.moves)}: {' '.join(sol.tokens[:3])} …>")
    assert f"best score {hint.exact.best_score}" in repr(hint)
    assert f"play {hint.recommended.token}" in repr(hint) and ", moves 20" in repr(hint)
    assert f"seed 1), play {fair.recommended.token}" in repr(fair)
    assert f"lost at move {review.review.lost_at}" in repr(review)
    assert f"score {played.score}, moves {len(played.moves)}" in repr(played)
    assert f"taps {peeked.plan.actions}" in repr(peeked)
    assert f"won {share.wins} of {share.total}" in repr(share)
    assert f"lost {hard.losses} of 10 games" in repr(hard)


@pytest.mark.parametrize("deal", [tp.Deal.from_code("TP1-C-AAAAAAD"), tp.Deal.from_number(3),
                                  tp.Deal.from_number(5, joker=True),
                                  tp.Deal.from_cards(LINE3)], ids=str)
def test_a_deal_prints_as_the_call_that_makes_it(deal):
    made = eval(repr(deal), {"Deal": tp.Deal})  # our own repr
    assert made == deal and (made.code, made.number) == (deal.code, deal.number)
    assert "Card(" not in repr(deal) and "\n" not in repr(deal)
    layout = tp.Layout.parse(" ".join(["??", *LINE3.split()[1:]]))
    assert eval(repr(layout), {"Layout": tp.Layout}) == layout
