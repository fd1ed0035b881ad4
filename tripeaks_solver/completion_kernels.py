"""Compiled loops over completions of the unseen cards: each completion solved from a
position, after each of a list of moves. Private, like kernels.py, whose searches they
call: the Python front (fair.py) never loops per completion or per state.
"""

from __future__ import annotations

import numpy as np

from .jit import njit
from .kernels import DRAW, Cards, _dfs, _optimal
from .scoring import MOVE_COST, WIN_BASE_SCORE

STAY = -1  # "no move": the position itself


@njit(cache=True)
def _after(board, cards, move):
    """The start position after ``move`` (a position 0–27, DRAW, or STAY)."""
    if move == STAY:
        return cards
    if move == DRAW:
        return Cards(cards.tableau, cards.stock, cards.config, cards.drawn + 1,
                     cards.stock[cards.drawn], 0)
    return Cards(cards.tableau, cards.stock, np.int64(board.next_id[cards.config, move]),
                 cards.drawn, cards.tableau[move], cards.run + 1)


@njit(cache=True)
def _solve_completions(board, cards, rules, hidden, fills, moves, scored, scratch, path):
    """For completion i and move j: is a win left after the move, and (for the first
    ``scored`` completions) the best final app score after it.

    ``hidden``: the face-down tableau positions; ``fills[i]``: the ranks completion i
    puts there, in that order, then on the stock from ``cards.drawn`` on. Returns
    (wins[i, j] as 0/1, scores[i, j], states).
    """
    n = fills.shape[0]
    m = moves.shape[0]
    k = hidden.shape[0]
    tableau = cards.tableau.copy()
    stock = cards.stock.copy()
    stock_len = stock.shape[0]
    wins = np.zeros((n, m), dtype=np.int64)
    scores = np.zeros((n, m), dtype=np.int64)
    states = 0
    for i in range(n):
        for t in range(k):
            tableau[hidden[t]] = fills[i, t]
        for t in range(stock_len - cards.drawn):
            stock[cards.drawn + t] = fills[i, k + t]
        base = Cards(tableau, stock, cards.config, cards.drawn, cards.waste, cards.run)
        for j in range(m):
            child = _after(board, base, moves[j])
            if child.config == board.full_id:
                wins[i, j] = 1
                scores[i, j] = WIN_BASE_SCORE - MOVE_COST * child.drawn
                continue
            if i < scored:
                draws, more, _, key, _ = _optimal(board, child, rules, False, scratch, path)
                states += more
                wins[i, j] = draws >= 0
                scores[i, j] = WIN_BASE_SCORE - MOVE_COST * draws if draws >= 0 else key
            else:
                found, _, more = _dfs(board, child, rules, stock_len, scratch, path)
                states += more
                wins[i, j] = found
    return wins, scores, states
