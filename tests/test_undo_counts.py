"""Records with undos under every scoring scheme.

The game's move counter keeps undone moves (docs/rules.md, Undo), and the cards-left
scheme counts moves. So:

- ``hint``'s best line, appended to the record, replays on the plain-Python game to
  exactly the best score and move count hint printed (for the position and for each
  move it rates);
- ``analyze`` judges each move as ``hint`` rates it before the move: the same best
  score and move count after it, the same ``?`` / ``??`` (one objective per scheme);
- the coach, ``replay``, ``analyze``, its plot and ``hint`` count the moves of a record
  with undos alike, an undo numbered by the move it takes back.

The expected values come from replaying records on ``game.Game``, never from the code
under test.
"""

from __future__ import annotations

import io
import json
import random
import re
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tripeaks_solver.analysis.hints import analyze, hint
from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.game import Game, Status
from tripeaks_solver.model.position import Position
from tripeaks_solver.model.rules import CLASSIC, EASY, Rules
from tripeaks_solver.model.scoring import RUN_SCHEMES, SCHEMES

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cli_run import run


def final(deal: Deal, rules: Rules, tokens: list[str], scheme: str) -> tuple[int, int]:
    """(score under ``scheme``, the game's move counter) after ``tokens``, replayed on
    the plain-Python game; under cards-left the score is the cards left."""
    game = Game(deal, rules)
    for token in tokens:
        game.play(token)
    score = game.cards_left if scheme == "cards-left" else game.score_under(scheme)
    return score, game.moves


# --- hint counts the moves undone ---------------------------------------------------------
def test_hint_counts_the_undone_move_in_best_moves(capsys):
    record = ["8h", "u", "8h"]
    code, out, err = run(capsys, "hint", "TP1-E-AAAAAAD", *record, "--scoring", "cards-left",
                         "--json")
    assert code == 0, err
    data = json.loads(out)
    deal = Deal.from_number(3)
    assert (data["best_score"], data["best_moves"]) == final(deal, EASY,
                                                             record + data["line"],
                                                             "cards-left")
    assert data["moves_played"] == final(deal, EASY, record, "cards-left")[1] == 2
    for m in data["moves"]:  # each move's best, through its own best line
        after = Position.after(deal, EASY, record + [m["move"]])
        line = hint(after, "cards-left").line
        assert (m["best_score"], m["best_moves"]) == final(
            deal, EASY, record + [m["move"]] + [x.token for x in line], "cards-left")
    code, text, _ = run(capsys, "hint", "TP1-E-AAAAAAD", *record, "--scoring", "cards-left")
    assert f"best 0 left in {data['best_moves']} moves" in text
    assert "after 2 moves" in text


def test_a_finished_game_counts_its_undone_moves():
    deal = Deal.from_number(3)
    line = hint(Position(deal, EASY), "cards-left").line
    tokens = [line[0].token, "u"] + [m.token for m in line]
    position = Position.after(deal, EASY, tokens)
    assert position.status is Status.WON
    h = hint(position, "cards-left")
    assert (h.best_score, h.solution.best_moves) == final(deal, EASY, tokens, "cards-left")
    assert h.solution.best_moves == len(line) + 1


# --- analyze marks a move that costs a move under cards-left ------------------------------
def test_analyze_marks_a_move_that_costs_a_move_under_cards_left():
    record = ["8h", "d", "4s", "d", "8c", "d", "d", "6h", "d", "8d", "d", "4c"]
    deal = Deal.from_number(3)
    before = Position.after(deal, EASY, record[:-1])
    rated = next(m for m in hint(before, "cards-left").moves if m.move.token == "4c")
    review = analyze(deal, EASY, record, "cards-left")
    row = review.moves[-1]
    assert rated.mark == "?"  # 44 moves instead of 43
    assert row.exact_mark == rated.mark  # the exact judgement (``mark``: as seen then)
    assert (row.best_after, row.best_moves_after) == (rated.best_score, rated.best_moves)


# --- both, as properties over generated records ----------------------------------------------
def random_record(deal: Deal, rules: Rules, rng: random.Random, length: int) -> list[str]:
    """Legal moves and undos, about one in five an undo (of one or more moves)."""
    game = Game(deal, rules)
    tokens: list[str] = []
    for _ in range(length):
        if game.history and rng.random() < 0.2:
            game.undo()
            tokens.append("u")
            continue
        moves = Position.of(game).legal_moves()
        if not moves:
            break
        move = rng.choice(moves)
        game.play(move)
        tokens.append(move.token)
    return tokens


def check_record(deal: Deal, rules: Rules, tokens: list[str], scheme: str) -> None:
    position = Position.after(deal, rules, tokens)
    h = hint(position, scheme)
    best = final(deal, rules, tokens + [m.token for m in h.line], scheme)
    if scheme == "cards-left":
        assert (h.best_score, h.solution.best_moves) == best
    else:
        assert h.best_score == best[0]
    review = analyze(deal, rules, tokens, scheme)
    assert review.final_best == h.best_score
    # a row is taken back when it is an undo, or the game's history later gets shorter
    # than it was just after the move
    game, depth = Game(deal, rules), []
    for token in tokens:
        game.play(token)
        depth.append(len(game.history))
    if scheme != "cards-left":  # an undo gives the points back: what stands adds up
        assert review.lost_total == review.best_start - review.final_best
    assert [r.taken_back for r in review.moves] == [
        tokens[i] == "u" or min(depth[i:]) < depth[i] for i in range(len(tokens))]
    # analyze's judgement of each move is hint's rating of it before the move
    for i, row in enumerate(review.moves):
        if row.move.is_undo:
            continue
        before = Position.after(deal, rules, tokens[:i])
        rated = next(m for m in hint(before, scheme).moves if m.move == row.move)
        assert row.best_after == rated.best_score
        assert row.best_moves_after == (rated.best_moves if scheme == "cards-left" else None)
        exact = row.exact_mark or ""  # hindsight's mark (``mark``: as it was seen then)
        if row.taken_back:  # not part of the game as it stands: never marked
            assert row.mark == "" and exact == "", (i, row)
        else:
            assert (exact if exact != "!" else "") == rated.mark, (i, row, rated)


@pytest.mark.slow  # CI's slow step (the fast set keeps test_the_commands_agree_with_replay)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(number=st.integers(0, 10_000), classic=st.booleans(), scheme=st.sampled_from(SCHEMES),
       seed=st.integers(0, 2**32 - 1), length=st.integers(1, 14))
def test_hint_and_analyze_agree_on_records_with_undos(number, classic, scheme, seed, length):
    rules = CLASSIC if classic else EASY
    deal = Deal.from_number(number)
    check_record(deal, rules, random_record(deal, rules, random.Random(seed), length), scheme)


@pytest.mark.slow
@pytest.mark.parametrize("scheme", SCHEMES)
def test_many_records_with_undos(scheme):
    rng = random.Random(31)
    for _ in range(10 if scheme == "original" else 20):  # original's searches cost most
        rules = rng.choice([EASY, CLASSIC, EASY.with_options(empty_waste=True)])
        deal = Deal.from_number(rng.randrange(100_000))
        check_record(deal, rules, random_record(deal, rules, rng, rng.randrange(4, 30)),
                     scheme)


# The run schemes' searches cost most: the slow set has them.
@pytest.mark.parametrize("scheme", [pytest.param(s, marks=pytest.mark.slow)
                                    if s in RUN_SCHEMES else s for s in SCHEMES])
def test_the_commands_agree_with_replay(capsys, scheme):
    """hint's printed line replays (through ``replay``) to hint's best score and moves."""
    rng = random.Random(scheme)
    for _ in range(3):
        number = rng.randrange(1000)
        deal = Deal.from_number(number)
        tokens = random_record(deal, EASY, rng, rng.randrange(3, 12))
        code = f"TP1-E-{_letters(number)}"
        status, out, err = run(capsys, "hint", code, *tokens, "--scoring", scheme, "--json")
        assert status == 0, err
        data = json.loads(out)
        status, out, err = run(capsys, "replay", code, *tokens, *data["line"], "--scoring",
                               scheme, "--json")
        assert status == 0, err
        replayed = json.loads(out)
        assert replayed["score"] == data["best_score"]
        if scheme == "cards-left":
            assert replayed["moves"] == data["best_moves"]
        status, out, err = run(capsys, "analyze", code, *tokens, "--scoring", scheme, "--json")
        assert status == 0, err
        assert json.loads(out)["final_best"] == data["best_score"]


def _letters(number: int) -> str:
    out = ""
    for _ in range(7):
        number, r = divmod(number, 26)
        out = chr(65 + r) + out
    return out


# --- one move count: undos numbered by the move they take back --------------------------
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
