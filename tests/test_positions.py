"""Positions in play: the exact answers from any position, and the fair ones.

- Bellman consistency on random positions, under every scheme and rule option: the
  best final score reachable before a move is the best over the legal moves of the
  best reachable after it, and a win is left before a move iff some move keeps one;
  the per-move verdicts of ``hint`` agree with the fast winnability search;
- every best line from a position replays on the plain-Python game from that position
  to a finished game with exactly the best score;
- the compiled loop over completions (one search sharing its visited set over all the
  moves of a completion) agrees with ``solve`` on each completion, move by move, for
  winnability and for the best score under every scheme;
- fair answers never read a hidden card: two deals that agree on everything the player
  has seen (the unseen cards permuted) give the same view and the same fair hint.

Default run: a few positions per case; ``-m slow``: hundreds.
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import random
import signal
import threading
from collections.abc import Iterator

import numpy as np
import pytest
from naive import naive_solve, position_of

from tripeaks_solver.analysis import fair
from tripeaks_solver.analysis.fair import View, fair_hint, seen_at
from tripeaks_solver.analysis.hints import hint
from tripeaks_solver.kernels import completions as completion_kernels
from tripeaks_solver.kernels.jit import chunks
from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.game import Status
from tripeaks_solver.model.position import Position
from tripeaks_solver.model.rules import CLASSIC, EASY, Rules
from tripeaks_solver.solver.solve import board, cards_at, rule_masks, scratch, solve

RULE_SETS = [
    EASY,
    CLASSIC,
    EASY.with_options(joker=True),
    EASY.with_options(empty_waste=True),
    CLASSIC.with_options(empty_waste=True),
    EASY.with_options(draw_when_stuck=True),
    CLASSIC.with_options(draw_when_stuck=True),
]
SCHEMES = ("app", "original", "cards-left")


def label(rules: Rules) -> str:
    return f"{rules.name}+{rules.variant}" if rules.variant else rules.name


def random_position(seed: int, rules: Rules, most: int = 45) -> Position:
    """A deal and a random record of legal moves (with the odd undo) played on it."""
    rng = random.Random(seed)
    deal = Deal.from_number(rng.randrange(1_000_000), rules.joker)
    game = Position(deal, rules).game()
    for _ in range(rng.randrange(most)):
        position = Position.of(game)
        legal = position.legal_moves()
        if not legal:
            break
        if game.history and rng.random() < 0.05:
            game.undo()
        else:
            game.play(rng.choice(legal))
    return Position.of(game)


def _key(value: int, moves: int | None, scheme: str) -> tuple[int, int]:
    """Higher is better under every scheme."""
    return (-value, -(moves or 0)) if scheme == "cards-left" else (value, 0)


def check_bellman(position: Position, scheme: str) -> None:
    h = hint(position, scheme)
    legal = position.legal_moves()
    assert sorted(m.move.token for m in h.moves) == sorted(m.token for m in legal)
    if not legal:
        so_far = position.score_under(scheme)
        assert h.best_score == (position.cards_left if scheme == "cards-left" else so_far)
        assert h.winnable == (position.status is Status.WON)
        return
    assert h.winnable == any(m.winnable for m in h.moves)
    best = max(_key(m.best_score, m.best_moves, scheme) for m in h.moves)
    assert _key(h.best_score, h.solution.best_moves, scheme) == best
    for m in h.moves:
        assert m.winnable == solve(position.play(m.move), optimal=False).winnable
        assert m.throws_win == (h.winnable and not m.winnable)
        assert m.loses_points == (_key(m.best_score, m.best_moves, scheme)
                                  < _key(h.best_score, h.solution.best_moves, scheme))
    # Best first: by best score, then winnable moves first.
    keys = [(_key(m.best_score, m.best_moves, scheme), m.winnable) for m in h.moves]
    assert keys == sorted(keys, reverse=True)


def check_line(position: Position, scheme: str) -> None:
    h = hint(position, scheme)
    game = position.game()
    for move in h.line:
        game.play(move)
    assert game.status is not Status.IN_PLAY
    if scheme != "original":  # the best original score may end stuck with a win left
        assert (game.status is Status.WON) == h.winnable
    if scheme == "cards-left":
        assert game.cards_left == h.best_score
        # the game's move counter: undone moves count (docs/rules.md, Undo)
        assert game.moves == h.solution.best_moves
    else:
        assert game.score_under(scheme) == h.best_score


def cases(count: int) -> list:
    return [pytest.param(r, s, n, id=f"{label(r)}-{s}") for r in RULE_SETS for s in SCHEMES
            for n in [count // 3 if s == "original" else count]]


@pytest.mark.parametrize(("rules", "scheme", "count"), cases(6))
def test_bellman_and_lines(rules: Rules, scheme: str, count: int) -> None:
    runs = 0
    for seed in range(count):
        position = random_position(seed, rules)
        runs += position.run > 0
        check_bellman(position, scheme)
        check_line(position, scheme)
    assert count < 3 or runs > 0  # some positions have a run in progress


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "scheme", "count"), cases(60))
def test_bellman_and_lines_many(rules: Rules, scheme: str, count: int) -> None:
    for seed in range(1000, 1000 + count):
        position = random_position(seed, rules)
        check_bellman(position, scheme)
        check_line(position, scheme)


# --- the loop over completions against solve -----------------------------------------
def known_beyond(position: Position, seed: int) -> frozenset[int]:
    """What the game shows at ``position`` and, as if seen before an undo, a random
    half of the other places (face-down tableau cards, the stock not drawn)."""
    shown = seen_at(position)
    rng = random.Random(seed)
    more = [p for p in range(len(position.deal.cards)) if p not in shown and rng.random() < 0.5]
    return shown | frozenset(more)


def completions_against_solve(position: Position, scheme: str, n: int, scored: int,
                              seed: int, known: frozenset[int] | None = None) -> int:
    """Run the compiled loop on ``n`` random completions of the view of a player who
    knows the places ``known`` (None: what the position shows) and compare every answer
    with ``solve`` on the completed deal. Returns the number of (completion, move)
    pairs compared."""
    view = View.of(position, known)
    canonical = view.canonical()
    legal = canonical.legal_moves()
    rng = random.Random(seed)
    fillings = [rng.sample(view.unseen, len(view.unseen)) for _ in range(n)]
    fills = np.array([[c.rank for c in f] for f in fillings], dtype=np.int64).reshape(n, -1)
    where = {int(c): p for p, c in enumerate(canonical.deal.tableau)}
    codes = np.array([completion_kernels.DRAW if m.is_draw else where[int(m.card)]
                      for m in legal], dtype=np.int64)
    base = np.array([canonical.play(m).score_under("original") for m in legal], dtype=np.int64)
    # Filled with a value no answer has, so that an entry left unwritten fails below.
    wins = np.full((n, len(legal) + 1), -1, dtype=np.int64)
    scores = np.full((n, len(legal)), -1, dtype=np.int64)
    completion_kernels._solve_completions(
        board(), cards_at(canonical), rule_masks(position.rules),
        completion_kernels.Completions(np.array(view.fill_places, dtype=np.int64), fills, wins,
                                       scores),
        completion_kernels.Asked(codes, scored, completion_kernels.SCHEME_CODES[scheme], base),
        scratch())
    compared = 0
    for i, fill in enumerate(fillings):
        here = view.completion(fill)
        assert View.of(here, known) == view
        assert wins[i, len(legal)] == solve(here, optimal=False).winnable
        for j, move in enumerate(legal):
            after = here.play(move)
            assert wins[i, j] == solve(after, optimal=False).winnable, (i, move)
            if i < scored:
                assert scores[i, j] == solve(after, scheme=scheme).best_score, (i, move)
            compared += 1
    return compared


@pytest.mark.parametrize(("rules", "scheme", "count"), cases(3))
def test_completions_agree_with_solve(rules: Rules, scheme: str, count: int) -> None:
    compared = 0
    for seed in range(count):
        position = random_position(seed + 50, rules)
        compared += completions_against_solve(position, scheme, 8, 3, seed)
        # A player who saw more before undos: the known face-down and stock cards stay.
        compared += completions_against_solve(position, scheme, 4, 2, seed,
                                              known_beyond(position, seed))
    assert compared > 0


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "scheme", "count"), cases(20))
def test_completions_agree_with_solve_many(rules: Rules, scheme: str, count: int) -> None:
    for seed in range(count):
        position = random_position(seed + 5000, rules)
        completions_against_solve(position, scheme, 12, 4, seed)
        completions_against_solve(position, scheme, 6, 2, seed, known_beyond(position, seed))


# --- fair answers see only what the player has seen ------------------------------------
def twin(position: Position, seed: int) -> Position:
    """The same record on a deal whose unseen cards (face-down tableau cards, stock not
    drawn) are shuffled among their places: everything the player saw is the same."""
    seen = seen_at(position)
    cards = list(position.deal.cards)
    hidden = [i for i in range(len(cards)) if i not in seen]
    moved = [cards[i] for i in hidden]
    random.Random(seed).shuffle(moved)
    for i, card in zip(hidden, moved, strict=True):
        cards[i] = card
    return dataclasses.replace(position, deal=Deal(tuple(cards)))


def check_fair_blind(position: Position, seed: int, scheme: str = "app") -> bool:
    other = twin(position, seed)
    assert other.legal_moves() == position.legal_moves()
    assert View.of(other) == View.of(position)
    a = fair_hint(View.of(position), 40, seed, 5, with_now=True, scheme=scheme)
    b = fair_hint(View.of(other), 40, seed, 5, with_now=True, scheme=scheme)
    assert (a.moves, a.samples, a.scored, a.exact, a.share_now) == (
        b.moves, b.samples, b.scored, b.exact, b.share_now)
    return other.deal != position.deal


@pytest.mark.parametrize("rules", RULE_SETS, ids=label)
def test_fair_never_reads_hidden_cards(rules: Rules) -> None:
    differ = sum(check_fair_blind(random_position(seed + 300, rules), seed) for seed in range(5))
    assert differ >= 3  # the twins really hold other cards


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULE_SETS, ids=label)
@pytest.mark.parametrize("scheme", SCHEMES)
def test_fair_never_reads_hidden_cards_many(rules: Rules, scheme: str) -> None:
    for seed in range(30 if scheme != "original" else 8):
        check_fair_blind(random_position(seed + 3000, rules), seed, scheme)


@pytest.mark.parametrize("seed", range(3))
def test_fair_shares_are_exact_when_few_fillings(seed: int) -> None:
    """With few distinct fillings all are solved, and the share of a move is the share
    of the fillings, counted here one by one with solve. (Open peaks and a stock drawn
    down to five cards: five unseen cards.)"""
    rules = CLASSIC.with_options(open=True)
    game = Position(Deal.from_number(seed), rules).game()
    while game.stock_left > 5:
        game.draw()
    position = Position.of(game)
    view = View.of(position)
    assert len(view.unseen) == 5 and position.legal_moves()
    rating = fair_hint(view, samples=1000, score_samples=0)
    orders = {tuple(c.rank for c in p) for p in itertools.permutations(view.unseen)}
    assert rating.exact and rating.samples == len(orders)
    for fm in rating.moves:
        wins = 0
        for order in orders:
            pool = list(view.unseen)
            fill = [pool.pop(next(i for i, c in enumerate(pool) if c.rank == r)) for r in order]
            wins += solve(view.completion(fill).play(fm.move), optimal=False).winnable
        assert fm.wins == wins
        assert fm.share == wins / len(orders) and fm.share_95 == (fm.share, fm.share)


# --- the completions in chunks (Ctrl-C stops between them) -----------------------------
def _one_call(n: int) -> Iterator[tuple[int, int]]:
    if n:
        yield 0, n


def _small_calls(n: int) -> Iterator[tuple[int, int]]:
    """Ranges of 1, 2, 3, 1, … items: many calls, one ending inside the scored ones."""
    a = k = 0
    while a < n:
        b = min(n, a + 1 + k % 3)
        yield a, b
        a, k = b, k + 1


def test_sampled_fillings_drawn_in_chunks_are_those_of_one_draw() -> None:
    view = View.of(Position(Deal.from_number(5), EASY))
    n, exact, rows = fair._fills(view, 50, 9)
    assert not exact and n == 50
    once = rows(0, n)
    _, _, rows = fair._fills(view, 50, 9)
    assert np.array_equal(np.concatenate([rows(a, b) for a, b in _small_calls(n)]), once)
    assert sorted(once[0]) == sorted(c.rank for c in view.unseen)
    assert len({tuple(r) for r in once}) == n  # the rows are not one filling repeated


@pytest.mark.parametrize("scheme", SCHEMES)
def test_fair_hint_in_chunks_answers_as_one_call(monkeypatch, scheme: str) -> None:
    # Sampled completions (positions with several moves) and every distinct one (open
    # peaks, five cards left in the stock: at most 120), the first 7 also scored.
    mid = (random_position(seed + 900, EASY, 20) for seed in range(20))
    cases = [(View.of(p), 30, False) for p in mid if len(p.legal_moves()) > 1][:2]
    game = Position(Deal.from_number(1), CLASSIC.with_options(open=True)).game()
    while game.stock_left > 5:
        game.draw()
    cases.append((View.of(Position.of(game)), 200, True))
    for view, samples, exact in cases:
        answers = []
        for split in (_one_call, _small_calls, chunks):
            monkeypatch.setattr(fair, "chunks", split)
            h = fair_hint(view, samples, 4, score_samples=7, with_now=True, scheme=scheme)
            answers.append((h.moves, h.samples, h.scored, h.exact, h.share_now))
        assert answers[0] == answers[1] == answers[2]
        moves, n, scored, was_exact, _ = answers[0]
        assert n > scored == 7 and was_exact == exact and moves
        assert [m for m in moves if m.mean_score is None] == []
    assert len(cases) == 3


# --- the kernels against the naive twin, from mid-game positions ------------------------
def check_naive(position: Position, scheme: str) -> None:
    """``solve`` from the position against tests/naive.py from the same position."""
    sol = solve(position, scheme=scheme)
    want = naive_solve(position.deal, position.rules, scheme,
                       position_of(position.game(), scheme))
    assert sol.winnable == want.winnable
    assert sol.best_score == want.best_score
    if scheme == "cards-left":
        assert sol.best_moves == want.best_moves
    if scheme != "original":
        assert sol.min_draws == want.min_draws


def naive_cases(count: int) -> list:
    return [pytest.param(r, s, n, id=f"{label(r)}-{s}") for r in RULE_SETS for s in SCHEMES
            for n in [max(1, count // 3) if s == "original" else count]]


@pytest.mark.parametrize(("rules", "scheme", "count"), naive_cases(1))
def test_kernels_agree_with_naive_from_positions(rules: Rules, scheme: str, count: int) -> None:
    for seed in range(count):
        check_naive(random_position(seed + 700, rules), scheme)


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "scheme", "count"), naive_cases(6))
def test_kernels_agree_with_naive_from_positions_many(rules: Rules, scheme: str,
                                                      count: int) -> None:
    for seed in range(count):
        check_naive(random_position(seed + 7000, rules), scheme)


def test_ctrl_c_while_the_completions_run_is_an_ordinary_interrupt() -> None:
    # Compiled code cannot be interrupted: a Ctrl-C that comes while the loop over
    # completions runs is raised when it returns. It used to return arrays made inside
    # it, which numba hands to Python through a call back into it, and the pending
    # signal crashed the process there (exit 139). The loop takes about 2 s here; the
    # Python before it a few milliseconds, so the signal comes while it runs.
    view = View.of(Position(Deal.from_number(3), EASY))
    fair_hint(view, 10, 1, score_samples=0)  # compiled before the clock starts
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            fair_hint(view, 2000, 1, score_samples=0)
    finally:
        timer.cancel()
