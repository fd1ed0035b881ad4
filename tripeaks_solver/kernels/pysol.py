"""Compiled optimum of PySolFC's scoring (``pysol``) from a position, and a line to it.
``shared.py`` documents the board, cards and rules; ``model/scoring.py`` the scoring.

What a line still scores depends on the state (stock index, configuration, waste rank,
run): a removal's points depend on the run's length and the peaks empty after it (a
function of the configuration), the win's on the stock index. So the search goes
forward, layer by layer (a layer is one stock index, its states in order of cards
removed: every removal adds one, every draw opens the next layer), keeping for each
state the best score so far with which a line reaches it and the state it came from. The
run is part of the key: it is not capped, since each further removal of a run can still
change what the run's next removals score (2^⌊(k−1)/4⌋ grows without bound).

Branch and bound: a state is not expanded when its score so far plus a bound on what any
line from it can still score is no better than the best end known (``floor``, given by
the solver: the score of a line it has, else −1). The bound lets every remaining card
be removed in one run continuing the current one, each with the largest i its place
allows (the q-th peak emptied from here needs at least ``clear_at[c, q-1]`` more
removals), plus the peaks' points still to come and 10 for each card now in the stock.
Pruning a state that cannot beat the floor changes no answer: the answer is the best end
found, or the floor's own line when nothing beats it.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..model.geometry import TABLEAU_SIZE as TABLEAU
from ..model.scoring import PYSOL_PEAK_POINTS, PYSOL_RUN_STEP, PYSOL_STOCK_POINTS
from .jit import njit
from .shared import DRAW, RANKS, _lowest_position, _may_draw, _positions_on, _reverse

NEG = -(1 << 30)
RUN_BITS = 5  # a state's key: (config << 4 | rank) << RUN_BITS | run (run ≤ 28)
EMPTY = -1
HASH_FACTOR = 0x9E3779B1  # keys are below 2^24: the product stays within 63 bits


class PysolGoal(NamedTuple):
    """``clear_at[c, q]``: the fewest removals from configuration c that empty q + 1
    more peaks (99 where fewer are left); ``order``: the configurations, most cards
    removed first; ``floor``: the gain of a line the caller has (−1: none), the search
    looks for a better one."""

    clear_at: np.ndarray
    order: np.ndarray
    floor: int


class PysolWork(NamedTuple):
    """Work space: the states found (``key``, score so far ``g``, ``parent`` state,
    the ``move`` that led there, ``link`` to the next state with as many cards removed),
    an open-addressing ``table`` of one layer's states (index + 1, 0 empty; cleared
    before returning), and the best entries of the next layer per configuration
    (``draw_g``, ``draw_from``, kept at NEG between calls; ``draw_list``); the deal's
    ``longest[c, r]``, the most removals in a row from configuration c and waste rank r,
    and ``longest_after[c]``, the most from c or any configuration after it (``_runs``)."""

    key: np.ndarray
    g: np.ndarray
    parent: np.ndarray
    move: np.ndarray
    link: np.ndarray
    table: np.ndarray
    draw_g: np.ndarray
    draw_from: np.ndarray
    draw_list: np.ndarray
    longest: np.ndarray
    longest_after: np.ndarray


@njit(cache=True, inline="always")
def _points(run, peaks_after, cleared):
    # One removal's points, as scoring.pysol_removal_points.
    i = np.int64(1) << peaks_after
    gain = i * (np.int64(1) << ((run - 1) // PYSOL_RUN_STEP))
    if cleared:
        gain += PYSOL_PEAK_POINTS * i
    return gain


@njit(cache=True)
def _runs(board, cards, rules, order, work):
    """Fill ``work.longest`` and ``work.longest_after`` for this deal (see PysolWork):
    the configurations in ``order``, each after those its removals lead to."""
    longest = work.longest
    after = work.longest_after
    best_of = np.zeros(RANKS, dtype=np.int64)  # the longest run starting with a card of rank q
    for e in range(order.shape[0]):
        c = np.int64(order[e])
        best_of[:] = 0
        most = np.int64(0)
        cand = np.int64(board.available[c])
        while cand != 0:
            p = _lowest_position(cand)
            cand &= cand - 1
            c2 = np.int64(board.next_id[c, p])
            q = np.int64(cards.tableau[p])
            run = 1 + np.int64(longest[c2, q])
            best_of[q] = max(best_of[q], run)
            most = max(most, np.int64(after[c2]))
        for r in range(RANKS):
            ranks = rules.neighbours[r]
            run = np.int64(0)
            while ranks != 0:
                q = _lowest_position(ranks)
                ranks &= ranks - 1
                run = max(run, best_of[q])
            longest[c, r] = run
            most = max(most, run)
        after[c] = most


@njit(cache=True)
def _bound(board, clear_at, work, c, r, run, stock_left):
    """The most any line from configuration c, waste rank r, with ``run`` removals in
    the current run and ``stock_left`` cards in the stock can still score.

    The j-th removal from here gets the largest i its place allows (``clear_at``) and
    the largest run factor: that of the current run's (run + j)-th removal while the
    run can last j more (``longest``), else that of a later run's min(j, longest
    after)-th. Each later run needs a draw first, so with d more draws at most
    longest + d × longest after cards are removed: a win needs the fewest d that removes
    them all, and scores 10 for each card the stock keeps; an end without a win leaves
    a card and has no stock points.
    """
    peaks = np.int64(board.peaks[c])
    left = TABLEAU - np.int64(board.removed[c])
    first = np.int64(work.longest[c, r])
    later = np.int64(work.longest_after[c])
    # The most the removals can score: ``upto`` after j of them.
    most_cards = left
    if first < left:
        if later == 0:
            most_cards = first
        else:
            draws = (left - first + later - 1) // later
            if draws > stock_left:
                most_cards = first + stock_left * later
    most_cards = min(most_cards, left)
    upto = np.int64(0)
    won = np.int64(-1)
    emptied = peaks
    q = 0
    for j in range(1, most_cards + 1):
        while q < 3 - peaks and np.int64(clear_at[c, q]) <= j:
            q += 1
            emptied += 1
            upto += PYSOL_PEAK_POINTS * (np.int64(1) << emptied)
        place = min(j, later)
        if j <= first and run + j > place:
            place = run + j
        upto += (np.int64(1) << emptied) * (np.int64(1) << ((place - 1) // PYSOL_RUN_STEP))
        if j == left - 1:
            won = upto  # the most an end without a win can score
    if most_cards < left:
        return upto
    if left == 1:
        won = 0
    draws = 0 if first >= left else (left - first + later - 1) // later
    return max(won, upto + PYSOL_STOCK_POINTS * (stock_left - draws))


@njit(cache=True, inline="always")
def _slot(table, key, keys):
    # The table slot holding `key`, or the empty slot where it goes.
    mask = table.shape[0] - 1
    h = (key * HASH_FACTOR) >> 16 & mask
    while True:
        e = table[h]
        if e == 0 or keys[e - 1] == key:
            return h
        h = (h + 1) & mask


@njit(cache=True)
def _pysol_optimal(board, cards, rules, goal, work, path):
    """The most PySolFC points still to be earned from the start position over complete
    games (won or stuck; won only with ``rules.must_clear``), if more than
    ``goal.floor``. Returns (best_gain, states, line_length, overflow): best_gain is
    ``goal.floor`` and the line empty when no game beats it; overflow is True when the
    work space was too small (nothing else is then meaningful)."""
    stock_len = cards.stock.shape[0]
    fits = _positions_on(cards, rules)
    clear_at = goal.clear_at
    _runs(board, cards, rules, goal.order, work)
    cap = work.key.shape[0]
    head = np.full(TABLEAU + 1, EMPTY, dtype=np.int64)
    best = np.int64(goal.floor)
    best_at = EMPTY
    n = 0
    n_draws = 0
    overflow = False
    s0 = cards.drawn
    layer_first = 0
    for s in range(s0, stock_len + 1):
        layer_first = n
        for m in range(TABLEAU + 1):
            head[m] = EMPTY
        # The layer's entries: the start, or the best arrival by a draw at each config.
        if s == s0:
            c = np.int64(cards.config)
            key = (c << 4 | cards.waste) << RUN_BITS | cards.run
            work.key[0], work.g[0], work.parent[0], work.move[0] = key, 0, EMPTY, DRAW
            h = _slot(work.table, key, work.key)
            work.table[h] = 1
            m = np.int64(board.removed[c])
            work.link[0] = head[m]
            head[m] = 0
            n = 1
        else:
            r = np.int64(cards.stock[s - 1])
            for e in range(n_draws):
                c = np.int64(work.draw_list[e])
                if n == cap:
                    overflow = True
                    break
                key = (c << 4 | r) << RUN_BITS
                work.key[n], work.g[n] = key, work.draw_g[c]
                work.parent[n], work.move[n] = work.draw_from[c], DRAW
                work.table[_slot(work.table, key, work.key)] = n + 1
                m = np.int64(board.removed[c])
                work.link[n] = head[m]
                head[m] = n
                n += 1
            for e in range(n_draws):
                work.draw_g[work.draw_list[e]] = NEG
            n_draws = 0
        stock_left = stock_len - s
        for m in range(TABLEAU + 1):
            idx = head[m]
            while idx != EMPTY and not overflow:
                key = work.key[idx]
                g = np.int64(work.g[idx])
                run = key & ((1 << RUN_BITS) - 1)
                r = (key >> RUN_BITS) & 15
                c = key >> (RUN_BITS + 4)
                here = idx
                idx = work.link[idx]
                if c == board.full_id:
                    if g > best:
                        best, best_at = g, here
                    continue
                if g + _bound(board, clear_at, work, c, r, run, stock_left) <= best:
                    continue
                cand = board.available[c] & fits[r]
                if cand == 0 and s == stock_len:  # stuck
                    if not rules.must_clear and g > best:
                        best, best_at = g, here
                    continue
                if s < stock_len and _may_draw(rules, cand) and g > work.draw_g[c]:
                    if work.draw_g[c] == NEG:
                        work.draw_list[n_draws] = c
                        n_draws += 1
                    work.draw_g[c] = g
                    work.draw_from[c] = here
                peaks = np.int64(board.peaks[c])
                while cand != 0:
                    p = _lowest_position(cand)
                    cand &= cand - 1
                    c2 = np.int64(board.next_id[c, p])
                    peaks2 = np.int64(board.peaks[c2])
                    g2 = g + _points(run + 1, peaks2, peaks2 > peaks)
                    if c2 == board.full_id:
                        g2 += PYSOL_STOCK_POINTS * stock_left
                    elif g2 + _bound(board, clear_at, work, c2, np.int64(cards.tableau[p]), run + 1,
                                     stock_left) <= best:
                        continue
                    key2 = (c2 << 4 | np.int64(cards.tableau[p])) << RUN_BITS | (run + 1)
                    h = _slot(work.table, key2, work.key)
                    e = work.table[h]
                    if e != 0:
                        if g2 > work.g[e - 1]:
                            work.g[e - 1], work.parent[e - 1], work.move[e - 1] = g2, here, p
                        continue
                    if n == cap:
                        overflow = True
                        break
                    work.key[n], work.g[n], work.parent[n], work.move[n] = key2, g2, here, p
                    work.table[h] = n + 1
                    work.link[n] = head[m + 1]
                    head[m + 1] = n
                    n += 1
        # Leave the table empty for the next layer (and the next call), last in first:
        # each key's probe from its home slot then still meets only the keys before it.
        for e in range(n - 1, layer_first - 1, -1):
            work.table[_slot(work.table, work.key[e], work.key)] = 0
        if overflow:
            break
    for e in range(n_draws):
        work.draw_g[work.draw_list[e]] = NEG
    if overflow:
        return best, n, 0, True
    length = 0
    e = best_at
    while e != EMPTY and work.parent[e] != EMPTY:
        path[length] = work.move[e]
        length += 1
        e = work.parent[e]
    _reverse(path, length)
    return best, n, length, False
