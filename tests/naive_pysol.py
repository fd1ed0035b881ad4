"""The slow twin of the pysol scoring's kernel: PySolFC's Three Peaks hand score, the best
any line reaches from a position, by visiting every reachable state.

Deliberately naive. The moves are those of :class:`naive.NaiveGame` (the rules restated
there); the score is restated here from PySolFC's rules page, without ``scoring.py``:

- a hand starts at −52;
- a removal that is the k-th of its run (the removals since the last draw, counting
  itself) scores i × 2^⌊(k−1)/4⌋: 1, 1, 1, 1, 2, 2, 2, 2, 4, … times i;
- i is 1, doubled for each peak empty after the removal; a peak is empty when its top
  card (position 0, 1 or 2) is gone;
- the removal that empties a peak scores 5 × i more (i counting that peak: 10, 20, 40);
- the removal that clears the tableau scores 10 more for each card left in the stock;
- a draw scores nothing and ends the run.

A state is (removed mask, cards drawn, waste rank, run). What a line still scores depends
on the state only, so each layer (cards drawn, cards removed) keeps the best score so far
of each state; the best final score is the best over the ends (no move left). With
``must_clear`` only the won ends count (None when there is none).
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from naive import ALL_REMOVED, DRAW, N_POSITIONS, NaiveGame, rank_of

if TYPE_CHECKING:
    from tripeaks_solver.model.dealing import Deal
    from tripeaks_solver.model.game import Game
    from tripeaks_solver.model.rules import Rules

START = -52
PEAK_TOPS = (0, 1, 2)


def empty_peaks(removed: int) -> int:
    return sum(removed >> top & 1 for top in PEAK_TOPS)


def points(removed: int, move: int, run: int, stock_left: int) -> int:
    """What removing ``move`` scores from a position with ``removed`` gone, ``run``
    removals since the last draw and ``stock_left`` cards in the stock."""
    after = removed | 1 << move
    i = 2 ** empty_peaks(after)
    k = run + 1
    gain = i * 2 ** ((k - 1) // 4)
    if empty_peaks(after) > empty_peaks(removed):
        gain += 5 * i
    if after == ALL_REMOVED:
        gain += 10 * stock_left
    return gain


def naive_pysol_best(deal: Deal, rules: Rules, start: tuple[int, int, int | None, int, int]
                     | None = None, must_clear: bool = False) -> int | None:
    """The best final hand score from ``start`` = (removed, drawn, waste card, run, score
    so far), default the opening; None under ``must_clear`` when no win is left."""
    game = NaiveGame(deal, rules, "app")  # the moves only: the app score is not read
    if start is None:
        start = (0, 0, game.first_waste, 0, START)
    removed0, drawn0, waste0, run0, score0 = start
    stock = len(game.stock)
    layers: dict[tuple[int, int], dict[tuple[int, int, int], int]] = defaultdict(dict)
    count0 = removed0.bit_count()
    layers[drawn0, count0][(removed0, rank_of(waste0), run0)] = score0
    best = None
    for drawn in range(drawn0, stock + 1):
        for count in range(count0, N_POSITIONS + 1):
            for (removed, top, run), score in layers.pop((drawn, count), {}).items():
                moves = game._moves(removed, drawn, top)
                if not moves:
                    if (not must_clear or removed == ALL_REMOVED) and (best is None
                                                                       or score > best):
                        best = score
                    continue
                for move in moves:
                    if move == DRAW:
                        key, child, after = ((drawn + 1, count),
                                             (removed, game.stock_ranks[drawn], 0), score)
                    else:
                        key = (drawn, count + 1)
                        child = (removed | 1 << move, game.tableau_ranks[move], run + 1)
                        after = score + points(removed, move, run, stock - drawn)
                    later = layers[key]
                    if child not in later or after > later[child]:
                        later[child] = after
    return best


def start_of(game: Game, score: int) -> tuple[int, int, int | None, int, int]:
    """The start tuple of the position a game shows, with its pysol score so far."""
    return game.removed, game.stock_index, game.waste, game.run, score


def replay_score(deal: Deal, rules: Rules, tokens: list[str]) -> int:
    """The hand score a line reaches, counted here (not by the game): for checking the
    plain-Python game's own count."""
    game = NaiveGame(deal, rules, "app")
    pos = game.opening()
    run, score = 0, START
    position_of = {c: p for p, c in enumerate(game.tableau)}
    from tripeaks_solver.model.cards import Card  # parsing tokens only
    for token in tokens:
        if token in ("d", "draw"):
            pos = game.play(pos, DRAW)
            run = 0
            continue
        move = position_of[int(Card.parse(token))]
        score += points(pos.removed, move, run, len(game.stock) - pos.drawn)
        pos = game.play(pos, move)
        run += 1
    return score
