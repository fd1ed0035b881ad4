"""A slow, obviously-correct TriPeaks solver: the reference the numba kernels are checked on.

Deliberately naive. It uses neither the configuration tables nor the kernels nor
``Rules.adjacent``: only the deal's cards and the board as written in
``geometry.COVERED_BY`` / ``geometry.PEAK_POSITIONS`` (the layout is written down in
exactly one place). The rules are restated here from RULES.md:

- a tableau card is playable when it is still there, every card covering it is gone,
  and its rank is one above or one below the waste top's rank (or A on K / K on A when
  ``wrap``, the Easy rules);
- drawing is allowed at any time while the stock has cards;
- the game is won as soon as all 28 tableau cards are gone, and stuck when the stock is
  empty and no card is playable;
- score: 500, −1 per removal, −1 per draw, +100 per cleared peak. A win therefore
  scores 500 − 28 − draws + 300 = 772 − draws.

A state is (bitmask of removed positions, cards drawn so far, waste rank). The search
visits every state reachable from the start (no pruning at all, not even on a win) with
a memoised recursion, and returns per state:

- the fewest total draws of any win reachable from it (``INF`` when none),
- the most tableau cards removed in any state reachable from it,
- the best score of a stuck end reachable from it (``-1`` when none).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from tripeaks_solver.geometry import COVERED_BY, PEAK_POSITIONS

INF = float("inf")
N_POSITIONS = 28
ALL_REMOVED = (1 << N_POSITIONS) - 1
START_SCORE = 500
PEAK_BONUS = 100

# The cover relation and the peaks as bitmasks, from the shared board description.
COVER_MASK = tuple(sum(1 << q for q in COVERED_BY[p]) for p in range(N_POSITIONS))
PEAK_MASK = tuple(sum(1 << p for p in peak) for peak in PEAK_POSITIONS)


def ranks_adjacent(a: int, b: int, wrap: bool) -> bool:
    """Ranks 0 = A … 12 = K. One apart, or A and K when the rules wrap."""
    if abs(a - b) == 1:
        return True
    return wrap and {a, b} == {0, 12}


def count_bits(mask: int) -> int:
    return bin(mask).count("1")


def peaks_cleared(removed: int) -> int:
    return sum(1 for m in PEAK_MASK if removed & m == m)


def app_score(removed: int, draws: int) -> int:
    """The app's score after ``draws`` draws and the removals in ``removed`` (never below 0)."""
    score = START_SCORE - count_bits(removed) - draws + PEAK_BONUS * peaks_cleared(removed)
    return max(0, score)


@dataclass(frozen=True)
class NaiveResult:
    winnable: bool
    min_draws: int | None
    best_score: int
    max_removed: int
    states: int


def naive_solve(deal, wrap: bool) -> NaiveResult:
    """Exhaustively solve ``deal`` (a :class:`tripeaks_solver.Deal`) under Easy (wrap) or Classic."""
    tab_rank = [c.rank for c in deal.tableau]
    stock_rank = [c.rank for c in deal.stock]
    stock_len = len(stock_rank)
    start_rank = deal.waste.rank

    def playable(removed: int, waste_rank: int) -> list[int]:
        out = []
        for p in range(N_POSITIONS):
            gone = removed >> p & 1
            uncovered = removed & COVER_MASK[p] == COVER_MASK[p]
            if not gone and uncovered and ranks_adjacent(waste_rank, tab_rank[p], wrap):
                out.append(p)
        return out

    memo: dict[tuple[int, int, int], tuple[float, int, int]] = {}

    def explore(removed: int, drawn: int, waste_rank: int) -> tuple[float, int, int]:
        key = (removed, drawn, waste_rank)
        if key in memo:
            return memo[key]
        if removed == ALL_REMOVED:  # won: the game ends here
            result = (drawn, N_POSITIONS, -1)
            memo[key] = result
            return result
        best_win = INF
        most_removed = count_bits(removed)
        best_stuck = -1
        moves = playable(removed, waste_rank)
        if drawn == stock_len and not moves:  # stuck: the game ends here
            best_stuck = app_score(removed, drawn)
        for p in moves:
            w, m, s = explore(removed | 1 << p, drawn, tab_rank[p])
            best_win, most_removed, best_stuck = min(best_win, w), max(most_removed, m), max(best_stuck, s)
        if drawn < stock_len:
            w, m, s = explore(removed, drawn + 1, stock_rank[drawn])
            best_win, most_removed, best_stuck = min(best_win, w), max(most_removed, m), max(best_stuck, s)
        result = (best_win, most_removed, best_stuck)
        memo[key] = result
        return result

    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 1000))  # depth is at most 28 + 23 + 1 frames
    try:
        best_win, most_removed, best_stuck = explore(0, 0, start_rank)
    finally:
        sys.setrecursionlimit(old_limit)

    if best_win < INF:
        draws = int(best_win)
        return NaiveResult(True, draws, START_SCORE - N_POSITIONS - draws + 3 * PEAK_BONUS,
                           N_POSITIONS, len(memo))
    return NaiveResult(False, None, best_stuck, most_removed, len(memo))
