"""Compiled loops over completions of the unseen cards: each completion solved from a
position, after each of a list of moves. Private, like the searches they call: the
Python front (``analysis/fair.py``) never loops per completion or per state.

The shares need only winnability, and the moves of one completion lead into one state
space, so their searches share the visited set (``win._search`` with ``keep``):
the position itself first, then each move. With the same draw limit for all, a state
a search marked and left is lost whatever move led to it, so a later search treats it
as visited; only the states of a winning line are unmarked after a win (as in
``optimum._optimal``), and a later move that reaches one follows it again at once.

The inputs beyond the search kernels' (``shared.py`` documents those):

``Completions`` — the completions to solve, and the arrays for their answers:
    places          the places of the unseen cards: a tableau position, or TABLEAU + i
                    for stock card i
    fills[i]        the ranks completion i puts there, in that order
    wins[i, j]      1 when a win is left after move j in completion i, else 0; column m
                    (the number of moves) for the position itself
    scores[i, j]    the best final score after move j in completion i (scored ones only)
``Asked`` — what is asked of every completion:
    moves           the moves: a tableau position, DRAW, or STAY (the position itself)
    scored          how many completions (the first ones) also get their scores
    scheme          the scheme of the scores: APP, CARDS_LEFT (cards left at the end),
                    ORIGINAL (base[j], the original score after move j, plus the most
                    points still to earn)
    base            see ORIGINAL

Each completion is solved on its own (``seen`` is clear between them), so solving the
completions in several calls (``fills[a:b]``, ``wins[a:b]``, …, and ``scored`` less
``a``) gives the same answers as one call.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..model.geometry import TABLEAU_SIZE as TABLEAU
from ..model.scoring import MOVE_COST, WIN_BASE_SCORE, Scheme
from .jit import njit
from .optimum import _optimal
from .original import _original_optimal
from .shared import (
    DRAW,
    MAX_DEPTH,
    Cards,
    Goal,
    WinSearch,
    _clear_layers,
    _layer_bits,
    _unmark_line,
)
from .win import NO_LIMIT, _search

STAY = -1  # "no move": the position itself
APP, CARDS_LEFT, ORIGINAL = 0, 1, 2  # the scheme of the scores
# The kernels take the scheme as one of these integers, never the enum.
SCHEME_CODES = {Scheme.APP: APP, Scheme.CARDS_LEFT: CARDS_LEFT, Scheme.ORIGINAL: ORIGINAL}


class Completions(NamedTuple):
    places: np.ndarray
    fills: np.ndarray
    wins: np.ndarray
    scores: np.ndarray


class Asked(NamedTuple):
    moves: np.ndarray
    scored: int
    scheme: int
    base: np.ndarray


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
def _solve_completions(board, cards, rules, completions, asked, scratch):
    """For completion i and move j: is a win left after the move, and (for the first
    ``asked.scored`` completions) the best final score after it under ``asked.scheme``
    (see the module's docstring).

    Fills ``completions.wins`` and ``completions.scores``, arrays the caller makes, and
    returns the states visited. (Arrays made here and returned would be handed to
    Python by a call back into it, where a Ctrl-C pending since the kernel started
    crashes the process.)
    """
    places = completions.places
    fills = completions.fills
    wins = completions.wins
    scores = completions.scores
    moves = asked.moves
    scored = asked.scored
    scheme = asked.scheme
    base = asked.base
    path = np.empty(MAX_DEPTH, dtype=np.int64)
    n = fills.shape[0]
    m = moves.shape[0]
    k = places.shape[0]
    tableau = cards.tableau.copy()
    stock = cards.stock.copy()
    stock_len = stock.shape[0]
    layer = _layer_bits(board.next_id.shape[0])
    states = 0
    for i in range(n):
        for t in range(k):
            if places[t] < TABLEAU:
                tableau[places[t]] = fills[i, t]
            else:
                stock[places[t] - TABLEAU] = fills[i, t]
        here = Cards(tableau, stock, cards.config, cards.drawn, cards.waste, cards.run)
        # The position itself first: when it is lost every move is, at no further cost;
        # when it is won, the line found is the first move's, unmarked for it.
        for j in range(-1, m):
            child = here if j < 0 else _after(board, here, moves[j])
            found, length, more, _ = _search(board, child, rules,
                                             WinSearch(stock_len, NO_LIMIT, True, False),
                                             scratch, path)
            states += more
            if found:
                _unmark_line(board, child, scratch, path, length)
            wins[i, m if j < 0 else j] = 1 if found else 0
        _clear_layers(scratch.seen, layer, cards.drawn, stock_len)
        if i >= scored:
            continue
        for j in range(m):
            child = _after(board, here, moves[j])
            if child.config == board.full_id:
                scores[i, j] = (0 if scheme == CARDS_LEFT else base[j] if scheme == ORIGINAL
                                else WIN_BASE_SCORE - MOVE_COST * child.drawn)
            elif scheme == ORIGINAL:
                gain, more, _ = _original_optimal(board, child, rules, scratch, path)
                states += more
                scores[i, j] = base[j] + gain
            else:
                draws, more, _, key, _ = _optimal(board, child, rules,
                                                  Goal(scheme == CARDS_LEFT, 0), scratch, path)
                states += more
                if draws >= 0:
                    scores[i, j] = 0 if scheme == CARDS_LEFT else WIN_BASE_SCORE - MOVE_COST * draws
                else:
                    scores[i, j] = TABLEAU - key if scheme == CARDS_LEFT else key
    return states


__all__ = ["APP", "CARDS_LEFT", "ORIGINAL", "SCHEME_CODES", "STAY", "Asked", "Completions",
           "_solve_completions"]
