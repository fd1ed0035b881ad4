"""``analyze``: every move of a record judged, against ``solve`` move by move.

- a best line of ``solve``, analysed, loses nothing: no ``?`` nor ``??``, its final
  score is the best from the start, which is ``solve``'s best score (many deals per
  rule set, option and scheme; hundreds with ``-m slow``);
- on random records each row is recomputed here from ``solve`` on the positions before
  and after the move, and the marks, the move after which the game was lost and the
  totals from their definitions;
- ``--fair`` adds shares, and a verdict exactly on the ``??`` moves, as ``fair_hint``
  rates them;
- the command: JSON, the CSV with the same rows, the plot, refusing to overwrite a file
  without ``--force``, one-line errors.
"""

from __future__ import annotations

import csv
import json
import os
import random
import stat
import sys
from pathlib import Path

import pytest

from tripeaks_solver.analysis.fair import View, fair_hint
from tripeaks_solver.analysis.hints import ROW_FIELDS, analyze
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
    EASY.with_options(empty_waste=True),
    CLASSIC.with_options(empty_waste=True),
    CLASSIC.with_options(draw_when_stuck=True),
]
SCHEMES = ("app", "original", "cards-left")
ANALYZE_KEYS = {"code", "deal", "pysol", "layout", "rules", "variant", "scoring", "fair", "samples", "status",
                "final_score", "best_start", "final_best", "lost_at", "lost_total", "marks",
                "exact_marks", "accuracy", "luck", "costliest",
                "moves", "error", "error_move", "seen", "seed", "exact"}


def label(rules: Rules) -> str:
    return f"{rules.name}+{rules.variant}" if rules.variant else rules.name


def check_best_line(number: int, rules: Rules, scheme: str) -> None:
    deal = Deal.from_number(number, rules.joker)
    sol = solve(deal, rules, scheme=scheme)
    review = analyze(deal, rules, sol.moves, scheme, judged=False)
    assert review.best_start == sol.best_score
    assert review.final_score == sol.best_score == review.final_best
    assert review.count_exact("?") == 0 and review.lost_total == 0
    if scheme != "original":  # the best original score may end stuck with a win left
        assert review.count_exact("??") == 0 and review.lost_at is None
    assert all(r.best_before == r.best_after == sol.best_score for r in review.moves)


# The default run takes every scheme under Easy and Classic and one scheme under each
# other rule set (in turn); the slow run takes every pair.
SAMPLED = [(r, s) for r in RULE_SETS[:2] for s in SCHEMES] + [
    (r, SCHEMES[i % len(SCHEMES)]) for i, r in enumerate(RULE_SETS[2:])]


def cases(count: int, pairs=None) -> list:
    pairs = pairs or [(r, s) for r in RULE_SETS for s in SCHEMES]
    return [pytest.param(r, s, range(max(1, count // 5) if s == "original" else count),
                         id=f"{label(r)}-{s}") for r, s in pairs]


@pytest.mark.parametrize(("rules", "scheme", "deals"), cases(2, SAMPLED))
def test_best_line_loses_nothing(rules: Rules, scheme: str, deals: range) -> None:
    for number in deals:
        check_best_line(number, rules, scheme)


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "scheme", "deals"), cases(40))
def test_best_line_loses_nothing_many(rules: Rules, scheme: str, deals: range) -> None:
    for number in deals:
        check_best_line(2000 + number, rules, scheme)


def random_record(seed: int, rules: Rules, length: int = 60) -> tuple[Deal, list[Move]]:
    rng = random.Random(seed)
    deal = Deal.from_number(rng.randrange(100_000), rules.joker)
    game = Game(deal, rules)
    record: list[Move] = []
    for _ in range(length):
        legal = Position.of(game).legal_moves()
        if not legal:
            break
        move = Move.UNDO if game.history and rng.random() < 0.05 else rng.choice(legal)
        game.play(move)
        record.append(move)
    return deal, record


def _value(sol, scheme: str) -> tuple[int, int]:
    return (-sol.best_score, -sol.best_moves) if scheme == "cards-left" else (sol.best_score, 0)


def taken_back(deal: Deal, rules: Rules, record: list[Move]) -> list[bool]:
    """Undos, and the moves after which the game's history later gets shorter than it
    was just after them: the moves an undo took back."""
    game, depth = Game(deal, rules), []
    for move in record:
        game.play(move)
        depth.append(len(game.history))
    return [m.is_undo or min(depth[i:]) < depth[i] for i, m in enumerate(record)]


def check_rows(seed: int, rules: Rules, scheme: str) -> None:
    deal, record = random_record(seed, rules)
    review = analyze(deal, rules, record, scheme, judged=False)
    back = taken_back(deal, rules, record)
    assert [r.taken_back for r in review.moves] == back
    game = Game(deal, rules)
    lost_at = None
    counted: list[int] = []  # the app's counter after each move that stands
    for i, (row, move) in enumerate(zip(review.moves, record, strict=True)):
        before = Position.of(game)
        game.play(move)
        after = Position.of(game)
        b, a = solve(before, scheme=scheme), solve(after, scheme=scheme)
        # Numbered as the app's move counter shows it; an undo by the move it takes back.
        if move.is_undo:
            number = counted.pop()
        else:
            number = game.moves
            counted.append(number)
        assert (row.number, row.move) == (number, move)
        assert (row.winnable_before, row.winnable_after) == (b.winnable, a.winnable)
        assert (row.best_before, row.best_after) == (b.best_score, a.best_score)
        moves = (b.best_moves, a.best_moves) if scheme == "cards-left" else (None, None)
        assert (row.best_moves_before, row.best_moves_after) == moves
        sign = -1 if scheme == "cards-left" else 1
        assert row.lost == sign * (b.best_score - a.best_score)
        if back[i]:  # not part of the game as it stands
            expected = ""
        elif b.winnable and not a.winnable:
            expected = "??"
        elif _value(a, scheme) < _value(b, scheme):  # the scheme's whole objective
            expected = "?"
        else:
            legal = before.legal_moves()
            keepers = [m for m in legal if solve(before.play(m), optimal=False).winnable]
            expected = "!" if b.winnable and len(legal) > 1 and keepers == [move] else ""
        assert row.exact_mark == expected, (row.number, move)
        if b.winnable and not a.winnable:
            lost_at = row.number
        if a.winnable:
            lost_at = None
    assert review.lost_at == lost_at
    assert review.status == game.status
    final = game.score_under(scheme)
    assert review.final_score == (final[0] if isinstance(final, tuple) else final)
    assert review.lost_total == sum(r.lost for r, b in zip(review.moves, back, strict=True)
                                    if not b)
    assert sum(review.count_exact(m) for m in ("", "?", "??", "!")) == len(record)


@pytest.mark.parametrize(("rules", "scheme"), SAMPLED[:6],  # Easy and Classic; slow: all
                         ids=[f"{label(r)}-{s}" for r, s in SAMPLED[:6]])
def test_rows_from_their_definitions(rules: Rules, scheme: str) -> None:
    for seed in range(1):
        check_rows(seed, rules, scheme)


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULE_SETS, ids=label)
@pytest.mark.parametrize("scheme", SCHEMES)
def test_rows_from_their_definitions_many(rules: Rules, scheme: str) -> None:
    for seed in range(100, 102 if scheme == "original" else 107):
        check_rows(seed, rules, scheme)


@pytest.mark.slow
def test_fair_verdicts() -> None:
    """Ceiling shares on every move that stands (not undos nor the moves they took
    back); a verdict exactly on the exact ?? moves, ``mistake`` when the judgement of
    its moment marked it too, ``bad luck`` when it did not."""
    verdicts = 0
    for seed in range(12):
        deal, record = random_record(seed, CLASSIC, 40)
        review = analyze(deal, CLASSIC, record, fair=True, samples=30, seed=seed)
        back = taken_back(deal, CLASSIC, record)
        game = Game(deal, CLASSIC)
        known: frozenset[int] = frozenset()  # what the player has seen survives undo
        for row, move, gone in zip(review.moves, record, back, strict=True):
            known |= game.visible_places()
            view = View.of(Position.of(game), known)
            game.play(move)
            if gone:
                assert row.share_before is row.share_after is row.verdict is None
                continue
            rating = fair_hint(view, 30, seed, score_samples=0, with_now=True)
            assert row.share_before == rating.share_now
            assert row.share_after == next(m.share for m in rating.moves if m.move == move)
            if row.exact_mark != "??":
                assert row.verdict is None
                continue
            verdicts += 1
            assert row.verdict == ("mistake" if row.mark else "bad luck")
    assert verdicts > 0


# --- the command ----------------------------------------------------------------------
CODE = "TP1-E-AAAAAAD"


def greedy_record(number: int, rules: Rules) -> list[str]:
    """A greedy player's game: the first legal move every time."""
    position = Position(Deal.from_number(number), rules)
    out = []
    while legal := position.legal_moves():
        out.append(legal[0].token)
        position = position.play(legal[0])
    return out


GREEDY = greedy_record(3, EASY)  # 50 moves, lost at move 21


def test_json_csv_and_text(capsys, tmp_path) -> None:
    path = tmp_path / "rows.csv"
    code, out, err = run(capsys, "analyze", CODE, *GREEDY, "--json", "--csv", str(path),
                         "--samples", "60", "--seed", "4")
    assert code == 0, err
    data = json.loads(out)
    assert set(data) == ANALYZE_KEYS
    review = analyze(Deal.from_number(3), EASY, GREEDY, samples=60, seed=4)
    assert data["moves"] == review.rows() and len(data["moves"]) == len(GREEDY)
    assert (data["final_score"], data["best_start"], data["lost_at"]) == (
        review.final_score, review.best_start, review.lost_at)
    assert data["marks"] == {"??": review.count("??"), "?": review.count("?"),
                             "?!": review.count("?!")}
    assert data["exact_marks"] == {"??": review.count_exact("??"), "?": review.count_exact("?"),
                                   "!": review.count_exact("!")}
    assert data["costliest"] == [r.number for r in review.costliest()]
    with path.open() as fh:
        rows = list(csv.reader(fh))
    assert tuple(rows[0]) == ROW_FIELDS and len(rows) == len(GREEDY) + 1
    for row, obj in zip(rows[1:], data["moves"], strict=True):
        assert row[ROW_FIELDS.index("move")] == obj["move"]
        assert row[ROW_FIELDS.index("mark")] == obj["mark"]
        assert int(row[ROW_FIELDS.index("best_after")]) == obj["best_after"]
        assert row[ROW_FIELDS.index("winnable_after")] == str(obj["winnable_after"]).lower()
    code, out, _ = run(capsys, "analyze", CODE, *GREEDY, "--samples", "60", "--seed", "4")
    assert code == 0
    assert f"lost after move {review.lost_at}" in out
    lost = next(r for r in review.moves if r.exact_mark == "??")
    assert any(line.split()[:2] == [f"{lost.number}.", lost.move.pretty] and "??" in line
               for line in out.splitlines())


def test_fair_columns_and_verdict_named(capsys) -> None:
    code, out, err = run(capsys, "analyze", CODE, *GREEDY[:25], "--fair", "--samples", "20",
                         "--seed", "1", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["fair"] and data["samples"] == 20
    for row in data["moves"]:
        assert 0 <= row["share_before"] <= 1 and 0 <= row["share_after"] <= 1
        assert (row["verdict"] in ("mistake", "bad luck")) == (row["exact_mark"] == "??")
    code, out, _ = run(capsys, "analyze", CODE, *GREEDY[:25], "--fair", "--samples", "20")
    assert "Ceiling: the share of guesses still winnable" in out


def test_files_are_not_overwritten_without_force(capsys, tmp_path) -> None:
    csv_path, png = tmp_path / "a.csv", tmp_path / "a.png"
    csv_path.write_text("mine\n")
    png.write_text("mine too\n")
    for option, path in (("--csv", csv_path), ("--plot", png)):
        code, _, err = run(capsys, "analyze", CODE, *GREEDY, option, str(path), "--samples", "5")
        assert_one_line_error(code, err, str(path), "--force")
    assert csv_path.read_text() == "mine\n" and png.read_text() == "mine too\n"
    code, _, err = run(capsys, "analyze", CODE, *GREEDY, "--csv", str(csv_path), "--plot",
                       str(png), "--fair", "--samples", "10", "--force")  # judged over 10
    assert code == 0, err
    assert csv_path.read_text().startswith(",".join(ROW_FIELDS))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.csv", "a.png"]  # no temp left


def test_plot_without_matplotlib(capsys, tmp_path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails
    code, _, err = run(capsys, "analyze", CODE, "8h", "--plot", str(tmp_path / "p.png"))
    assert_one_line_error(code, err, "matplotlib", "[plot]")
    assert not (tmp_path / "p.png").exists()


def test_plot_of_a_game_with_unseen_cards_draws_the_chance(capsys, tmp_path) -> None:
    """Its best scores are not known (no exact search while a card is unseen): the
    picture is the chance of each move alone, not a traceback."""
    pytest.importorskip("matplotlib")
    from tripeaks_solver.analysis.hints import analyze_game
    from tripeaks_solver.analysis.review_plot import review_figure
    from tripeaks_solver.games.records import make_start

    seen, moves = "Jd 4s Ac 8h 4c 2h 8c 6h 8d 8s 9c", ["8h", "d:3s"]  # deal 3's start
    png = tmp_path / "p.png"
    code, _, err = run(capsys, "analyze", "--seen", seen, *moves, "--samples", "5", "--seed",
                       "1", "--plot", str(png))
    assert code == 0, err
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    review = analyze_game(make_start("seen", seen, EASY), moves, samples=5, seed=1)
    assert not review.exact and review.best_start is None
    (axes,) = review_figure(review, "t").axes
    (line,) = axes.lines
    assert list(line.get_ydata()) == [review.moves[0].decision.chance_best,
                                      *(r.decision.chance_played for r in review.moves)]
    assert "best" not in axes.get_title()


def test_errors(capsys, tmp_path) -> None:
    code, _, err = run(capsys, "analyze", CODE, "8h", "d", "Kc")
    assert_one_line_error(code, err, "move 3 (Kc)", exit_code=1)
    code, out, err = run(capsys, "analyze", CODE, "8h", "d", "Kc", "--json")
    assert_one_line_error(code, err, "move 3 (Kc)", exit_code=1)
    data = json.loads(out)
    assert set(data) == ANALYZE_KEYS and data["error_move"] == 3 and data["error"] in err
    assert data["moves"] == [] and data["final_score"] is None
    code, _, err = run(capsys, "analyze", CODE, "8h", "10x")
    assert_one_line_error(code, err, "move 2", "10x")
    masked = Deal.from_number(3).line().split()
    masked[0] = "??"
    code, _, err = run(capsys, "analyze", "--layout", " ".join(masked[:18] + ["??"] + masked[19:]),
                       "8h")
    assert_one_line_error(code, err, "place 19", "??")
    same = tmp_path / "x"
    code, _, err = run(capsys, "analyze", CODE, "8h", "--csv", str(same), "--plot", str(same))
    assert_one_line_error(code, err, "same file")
    code, _, err = run(capsys, "analyze", CODE, "8h", "--csv", str(tmp_path / "no" / "a.csv"))
    assert_one_line_error(code, err, "does not exist")


def test_outputs_are_regular_files_only_and_keep_their_mode_and_links(capsys, tmp_path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for option in ("--csv", "--plot"):
        for path in (fifo, Path("/dev/null")):  # --force or not, never replaced
            code, _, err = run(capsys, "analyze", CODE, "8h", option, str(path), "--force")
            assert_one_line_error(code, err, str(path), "not a regular file")
    assert stat.S_ISFIFO(fifo.stat().st_mode) and stat.S_ISCHR(os.stat("/dev/null").st_mode)
    target = tmp_path / "target.csv"
    target.write_text("old\n")
    target.chmod(0o640)
    link = tmp_path / "link.csv"
    link.symlink_to(target.name)
    code, _, err = run(capsys, "analyze", CODE, "8h", "--csv", str(link), "--force")
    assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == target.name  # the link stays
    assert target.read_text().startswith(",".join(ROW_FIELDS))  # its file is replaced
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_csv_to_standard_output(capsys) -> None:
    code, out, err = run(capsys, "analyze", CODE, "8h", "d", "--csv", "-")
    assert code == 0, err
    rows = list(csv.reader(out.splitlines()))
    assert rows[0] == list(ROW_FIELDS) and len(rows) == 3  # the header and two moves
    assert "2 moves judged" in err  # the review moves to stderr
    code, _, err = run(capsys, "analyze", CODE, "8h", "--csv", "-", "--json")
    assert_one_line_error(code, err, "standard output")
    code, _, err = run(capsys, "analyze", CODE, "8h", "--plot", "-")
    assert_one_line_error(code, err, "--plot")


# --- moves taken back ------------------------------------------------------------------------
def test_moves_taken_back_are_listed_not_judged(capsys):
    """A look ahead taken back (five draws, five undos: a peek's excursion) is not part of
    the game as it stands: no mark, no fair share, out of the points lost, one line."""
    record = ["8h", *["d"] * 5, *["u"] * 5, "d", "4s"]
    deal = Deal.from_number(3)
    review = analyze(deal, EASY, record, fair=True, samples=20, seed=1)
    assert [r.taken_back for r in review.moves] == [False] + [True] * 10 + [False] * 2
    assert review.standing == 3
    for r in review.moves[1:11]:
        assert r.mark == r.exact_mark == "" and r.share_before is None and r.share_after is None
        assert r.decision is None and r.luck is None
    # the draws alone would lose the win (the stock gone before the peaks): judged
    # one by one, they would be marked
    drawn = analyze(deal, EASY, record[:6], judged=False)
    assert any(r.exact_mark for r in drawn.moves[1:])
    assert review.lost_total == review.best_start - review.final_best
    from tripeaks_solver.analysis.review_plot import review_figure

    # The app counts 8 moves (the 5 draws taken back too, the undos not): moves 2–6 are
    # taken back, 7 and 8 stand.
    assert [r.number for r in review.moves] == [1, 2, 3, 4, 5, 6, 6, 5, 4, 3, 2, 7, 8]
    figure = review_figure(review, "t")  # the picture leaves them out and says so
    assert "8 moves, 5 taken back" in figure.axes[0].get_title()
    assert list(figure.axes[0].lines[0].get_xdata()) == [0, 1, 7, 8]
    shaded = figure.axes[0].patches  # the numbers taken back, marked apart
    assert [(p.get_x(), p.get_x() + p.get_width()) for p in shaded] == [
        (n - 0.5, n + 0.5) for n in range(2, 7)]
    code, out, err = run(capsys, "analyze", "TP1-E-AAAAAAD", *record, "--samples", "20")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("TP1-E-AAAAAAD  (deal 3, Easy rules): 8 moves, 3 judged and 5 "
                               "taken back by 5 undos")
    assert "    2–6. 5 moves and 5 undos (taken back)" in lines
    assert [ln.split()[1] for ln in lines[2:] if ln.strip() and ln.split()[0][-1] == "."] == \
        ["8♥", "5", "draw", "4♠"]


# --- the text: no empty table, sentences whole ------------------------------------------
DEAL3_MOVES = "8h d 4s d 8c d d 6h d 8d d 4c d 8s d Qc Kh Ah Kd Ac Ks Qh"  # docs/cli.md



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



def test_the_review_breaks_its_lines_between_words(capsys):
    code, out, err = run(capsys, "analyze", "TP1-E-AAAAAAD", DEAL3_MOVES, "--fair", "--seed", "1",
                         "--samples", "5")
    assert code == 0, err
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 100
    words = out.split()
    # the sentences are whole: every word of them is there, unbroken
    flat = " ".join(words)
    for sentence in (("Ceiling: the share of guesses still winnable after the move by a "
                      "player who saw every card."),
                     ("Exact marks: ?? threw the win away, ? lost points, ! the only move "
                      "that kept the win.")):
        assert sentence in flat
    assert any(line.startswith("Summary: ") for line in lines)
