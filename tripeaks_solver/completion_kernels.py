"""Compiled loops over completions of the unseen cards: each completion solved from a
position, after each of a list of moves. Private, like kernels.py, whose helpers and
searches they call: the Python front (fair.py) never loops per completion or per state.

The shares need only winnability, and the moves of one completion lead into one state
space, so they are solved by one depth-first search that shares its visited set
(``_dfs_shared``): the position itself first, then each move. A state the search has
left exhausted is lost whatever move led to it, so a later move that reaches it stops
there; the states on a winning line are kept in a second bitset ``won``, so a later
move that reaches one of them is known winnable at once. No state is searched twice
for one completion.
"""

from __future__ import annotations

import numpy as np

from .geometry import TABLEAU_SIZE as TABLEAU
from .jit import njit
from .kernels import (
    ALL_RANKS,
    DRAW,
    MAX_DEPTH,
    RANKS,
    Cards,
    _clear_layers,
    _code,
    _is_seen,
    _layer_bits,
    _lowest_position,
    _may_draw,
    _optimal,
    _original_optimal,
    _positions_on,
    _rank_tables,
    _shift_rank,
    _short_of_tops,
    _test_and_set,
)
from .scoring import MOVE_COST, WIN_BASE_SCORE

STAY = -1  # "no move": the position itself
APP, CARDS_LEFT, ORIGINAL = 0, 1, 2  # the scheme of the scores
SCHEME_CODES = {"app": APP, "cards-left": CARDS_LEFT, "original": ORIGINAL}


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
def _dfs_shared(board, cards, rules, fits, nbr_list, nbr_count, stock_nb, seen, won,
                won_list, n_won, frames, path):
    """Is a win left from the start position of ``cards``? The search of kernels._dfs,
    over the ``seen`` and ``won`` bitsets that earlier searches of the same completion
    left: a state in ``won`` is winnable, a state in ``seen`` but not in ``won`` is lost.
    On a win the states of the line found are added to ``won`` (their indices appended
    to ``won_list``). Returns (found, states, deepest stock index, n_won)."""
    neighbours = rules.neighbours
    layer = _layer_bits(board.next_id.shape[0])
    stock_len = cards.stock.shape[0]
    c = np.int64(cards.config)
    s = np.int64(cards.drawn)
    r = np.int64(cards.waste)
    index = s * layer + _code(c, r)
    if _is_seen(won, index):
        return True, 0, s, n_won
    if _test_and_set(seen, index):
        return False, 0, s, n_won
    at_config = frames[0]
    at_drawn = frames[1]
    at_waste = frames[2]
    untried = frames[3]
    draw_untried = frames[4]
    left = np.zeros(RANKS, dtype=np.int64)
    supply = np.zeros(RANKS, dtype=np.int64)
    start_mask = board.mask[cards.config]
    for p in range(TABLEAU):
        if not (start_mask >> p) & 1:
            _shift_rank(left, supply, nbr_list, nbr_count, cards.tableau[p], 1)
    states = 0
    found = False
    depth = 0
    deepest = s
    while True:
        states += 1
        if c == board.full_id:
            found = True
            break
        at_config[depth] = c
        at_drawn[depth] = s
        at_waste[depth] = r
        check = ALL_RANKS if depth == 0 else neighbours[r] | neighbours[at_waste[depth - 1]]
        if _short_of_tops(left, supply, stock_nb[s], r, neighbours, check):
            untried[depth] = 0
            draw_untried[depth] = 0
        else:
            cand = board.available[c] & fits[r]
            untried[depth] = cand
            draw_untried[depth] = 1 if s < stock_len and _may_draw(rules, cand) else 0
        while depth >= 0:
            pc = at_config[depth]
            ps = at_drawn[depth]
            bits = untried[depth]
            if bits != 0:
                p = _lowest_position(bits)
                untried[depth] = bits & (bits - 1)
                c = np.int64(board.next_id[pc, p])
                s = ps
                r = np.int64(cards.tableau[p])
                move = p
            elif draw_untried[depth]:
                draw_untried[depth] = 0
                c = pc
                s = ps + 1
                r = np.int64(cards.stock[ps])
                move = DRAW
                deepest = max(deepest, s)
            else:
                depth -= 1
                if depth >= 0 and path[depth] != DRAW:
                    _shift_rank(left, supply, nbr_list, nbr_count, cards.tableau[path[depth]], 1)
                continue
            index = s * layer + _code(c, r)
            if _is_seen(won, index):  # a winning line of an earlier search goes on from here
                path[depth] = move
                depth += 1
                found = True
                break
            if not _test_and_set(seen, index):
                path[depth] = move
                if move != DRAW:
                    _shift_rank(left, supply, nbr_list, nbr_count, r, -1)
                depth += 1
                break
        if found or depth < 0:
            break
    if found:
        # The line's states: the frames below `depth`, and (c, s, r) where it ended.
        for d in range(depth + 1):
            if d < depth:
                index = at_drawn[d] * layer + _code(at_config[d], at_waste[d])
            else:
                index = s * layer + _code(c, r)
            if not _test_and_set(won, index):
                won_list[n_won] = index
                n_won += 1
    return found, states, deepest, n_won


@njit(cache=True)
def _solve_completions(board, cards, rules, hidden, fills, moves, scored, scheme, base,
                       scratch, won, path):
    """For completion i and move j: is a win left after the move, and (for the first
    ``scored`` completions) the best final score after it under ``scheme`` (APP,
    CARDS_LEFT: cards left at the end, ORIGINAL: ``base[j]``, the original score after
    move j, plus the most points still to earn).

    ``hidden``: the face-down tableau positions; ``fills[i]``: the ranks completion i
    puts there, in that order, then on the stock from ``cards.drawn`` on. ``won``: a
    bitset the size of ``scratch.seen``, all zero (left so). Returns (wins[i, j] as
    0/1, with column m for the position itself, scores[i, j], states).
    """
    n = fills.shape[0]
    m = moves.shape[0]
    k = hidden.shape[0]
    tableau = cards.tableau.copy()
    stock = cards.stock.copy()
    stock_len = stock.shape[0]
    layer = _layer_bits(board.next_id.shape[0])
    wins = np.zeros((n, m + 1), dtype=np.int64)
    scores = np.zeros((n, m), dtype=np.int64)
    won_list = np.empty(MAX_DEPTH * (m + 2), dtype=np.int64)
    frames = np.empty((5, MAX_DEPTH), dtype=np.int64)
    states = 0
    for i in range(n):
        for t in range(k):
            tableau[hidden[t]] = fills[i, t]
        for t in range(stock_len - cards.drawn):
            stock[cards.drawn + t] = fills[i, k + t]
        here = Cards(tableau, stock, cards.config, cards.drawn, cards.waste, cards.run)
        fits = _positions_on(here, rules)
        nbr_list, nbr_count, stock_nb = _rank_tables(here, rules, stock_len)
        n_won = 0
        deepest = cards.drawn
        # The position itself first: when it is lost every move is, at no further cost;
        # when it is won, its line marks the first move of that line won.
        for j in range(-1, m):
            child = here if j < 0 else _after(board, here, moves[j])
            if child.config == board.full_id:
                found = True
            else:
                found, more, far, n_won = _dfs_shared(board, child, rules, fits, nbr_list,
                                                      nbr_count, stock_nb, scratch.seen, won,
                                                      won_list, n_won, frames, path)
                states += more
                deepest = max(deepest, far)
            wins[i, m if j < 0 else j] = 1 if found else 0
        _clear_layers(scratch.seen, layer, cards.drawn, deepest)
        for t in range(n_won):
            won[won_list[t] >> 6] = 0
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
                draws, more, _, key, _ = _optimal(board, child, rules, scheme == CARDS_LEFT,
                                                  scratch, path)
                states += more
                if draws >= 0:
                    scores[i, j] = 0 if scheme == CARDS_LEFT else WIN_BASE_SCORE - MOVE_COST * draws
                else:
                    scores[i, j] = TABLEAU - key if scheme == CARDS_LEFT else key
    return wins, scores, states


__all__ = ["APP", "CARDS_LEFT", "ORIGINAL", "SCHEME_CODES", "STAY", "_solve_completions"]
