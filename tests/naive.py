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

A state is (set of removed positions as a bitmask, cards drawn so far, waste rank).
The search simply collects every state reachable from the start (a worklist and a
Python set). All four answers are properties of single reachable states:

- winnable / min_draws: the fewest draws of a reachable won state (the draw count of a
  line is the ``drawn`` of the state it reaches);
- max_removed: the most removed cards of any reachable state;
- best_score: 772 − min_draws on a win, else the best score of a reachable stuck end.

The only shortcut (``stop_at_first_win``, on by default) visits states in order of
``drawn`` and stops at the first won state: no move lowers ``drawn``, so when a state
with ``drawn = k`` is taken, every state with fewer draws has been taken already, and
the first won state taken has the fewest draws. ``stop_at_first_win=False`` visits
every reachable state; a test checks that both give the same answers.
"""

from __future__ import annotations

from dataclasses import dataclass

from tripeaks_solver.geometry import COVERED_BY, PEAK_POSITIONS

N_POSITIONS = 28
ALL_REMOVED = (1 << N_POSITIONS) - 1
START_SCORE = 500
PEAK_BONUS = 100
WIN_SCORE_NO_DRAWS = START_SCORE - N_POSITIONS + 3 * PEAK_BONUS  # 772

# The cover relation and the peaks as bitmasks, from the shared board description.
COVER_MASK = tuple(sum(1 << q for q in COVERED_BY[p]) for p in range(N_POSITIONS))
PEAK_MASK = tuple(sum(1 << p for p in peak) for peak in PEAK_POSITIONS)


def ranks_adjacent(a: int, b: int, wrap: bool) -> bool:
    """Ranks 0 = A … 12 = K. One apart, or A and K when the rules wrap."""
    if abs(a - b) == 1:
        return True
    return wrap and {a, b} == {0, 12}


def count_bits(mask: int) -> int:
    return mask.bit_count()


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

    def answers(self) -> tuple[bool, int | None, int, int]:
        return self.winnable, self.min_draws, self.best_score, self.max_removed


def naive_solve(deal, wrap: bool, stop_at_first_win: bool = True) -> NaiveResult:
    """Solve ``deal`` (a :class:`tripeaks_solver.Deal`) under Easy (``wrap``) or Classic."""
    tab_rank = [c.rank for c in deal.tableau]
    stock_rank = [c.rank for c in deal.stock]
    stock_len = len(stock_rank)

    # For each waste rank, (position, its bit, the bits of the cards covering it) of the
    # tableau cards whose rank may go on it: the rank test, done once per deal.
    follows = [
        [(p, 1 << p, COVER_MASK[p]) for p in range(N_POSITIONS)
         if ranks_adjacent(w, tab_rank[p], wrap)]
        for w in range(13)
    ]

    def playable(removed: int, waste_rank: int) -> list[int]:
        """Positions still there, with every covering card gone, one rank from the waste."""
        return [
            p
            for p, bit, cover in follows[waste_rank]
            if not removed & bit and removed & cover == cover
        ]

    start = (0, 0, deal.waste.rank)
    seen = {start}
    todo: list[list[tuple[int, int, int]]] = [[] for _ in range(stock_len + 1)]
    todo[0].append(start)  # todo[k]: the states with k draws not yet expanded
    min_draws = None  # fewest draws of a reached won state
    most_removed = 0  # most cards removed in a reached state
    best_stuck = -1  # best score of a reached stuck end
    for layer in todo:  # layers only ever feed later layers, so this visits them all
        while layer:
            state = layer.pop()
            removed, drawn, waste_rank = state
            most_removed = max(most_removed, count_bits(removed))
            if removed == ALL_REMOVED:  # won: the game ends here
                if min_draws is None or drawn < min_draws:
                    min_draws = drawn
                continue
            moves = playable(removed, waste_rank)
            if drawn == stock_len and not moves:  # stuck: the game ends here
                best_stuck = max(best_stuck, app_score(removed, drawn))
                continue
            children = [(removed | 1 << p, drawn, tab_rank[p]) for p in moves]
            if drawn < stock_len:
                children.append((removed, drawn + 1, stock_rank[drawn]))
            for child in children:
                if child not in seen:
                    seen.add(child)
                    todo[child[1]].append(child)
        if min_draws is not None and stop_at_first_win:
            break

    if min_draws is not None:
        return NaiveResult(True, min_draws, WIN_SCORE_NO_DRAWS - min_draws, N_POSITIONS, len(seen))
    return NaiveResult(False, None, best_stuck, most_removed, len(seen))
