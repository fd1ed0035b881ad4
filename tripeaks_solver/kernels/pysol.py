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
BOUND_FROM = 20  # the bound costs more than it saves earlier (measured)


class PysolGoal(NamedTuple):
    """``clear_at[c, q]``: the fewest removals from configuration c that empty q + 1
    more peaks (99 where fewer are left); ``order``: the configurations, most cards
    removed first; ``floor``: the gain of a line the caller has (−1: none), the search
    looks for a better one; ``win_draws``: the fewest draws (from the deal's opening) of
    any win from the start position, more than the stock holds when none is left."""

    clear_at: np.ndarray
    order: np.ndarray
    floor: int
    win_draws: int


class PysolWork(NamedTuple):
    """Work space: the states found (``key``, score so far ``g``, ``parent`` state,
    the ``move`` that led there, ``link`` to the next state with as many cards removed),
    ``chain`` to the next state of the layer with the same configuration and waste rank,
    ``first_of`` each (configuration, rank) code's first state in the layer (index + 1,
    0 none; all 0 between calls), ``found`` the states found, and the best entries of the next layer per configuration
    (``draw_g``, ``draw_from``, kept at NEG between calls; ``draw_list``); the deal's
    ``longest[c, r]``, the most removals in a row from configuration c and waste rank r,
    and ``longest_after[c]``, the most from c or any configuration after it (``_runs``)."""

    key: np.ndarray
    g: np.ndarray
    parent: np.ndarray
    move: np.ndarray
    link: np.ndarray
    chain: np.ndarray
    first_of: np.ndarray
    found: np.ndarray
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


@njit(cache=True, inline="always")
def _at_least(e, spans, n):
    """Of the run factors of n removals, the most that can be 2^e or more: the current
    run's first ``a`` (at most ``first``; its (run + t)-th removals) and the rest in later
    runs of at most ``later`` each, full ones first (the most of the larger factors), a
    taken at its best for this e."""
    first, later, run = spans
    most = np.int64(-1)
    low = 4 * e + 1  # the first place in a run whose factor is 2^e
    for a in range(min(first, n) + 1):
        m = n - a
        if later == 0:
            if m > 0:
                continue
            full, rest = np.int64(0), np.int64(0)
        else:
            full, rest = m // later, m % later
        count = max(0, a - max(0, low - 1 - run)) + full * max(0, later - low + 1) + max(
            0, rest - low + 1)
        most = max(most, count)
    return most


@njit(cache=True)
def _removals_bound(clear_at, c, peaks, spans, n):
    """The most n more removals from configuration c (``peaks`` empty) can score, with
    ``spans`` = (first, later, run) as in ``_at_least``: the factors, smallest first,
    meet the j-th removal's largest i (the q-th peak emptied from here needs at least
    ``clear_at[c, q-1]`` removals), and each peak emptied within n adds its points."""
    total = np.int64(0)
    emptied = peaks
    q = 0
    for j in range(1, n + 1):
        if q < 3 - peaks and np.int64(clear_at[c, q]) <= j:
            q += 1
            emptied += 1
            total += PYSOL_PEAK_POINTS * (np.int64(1) << emptied)
    j = 0
    emptied = peaks
    q = 0
    above = _at_least(0, spans, n)  # = n
    for e in range(8):
        higher = _at_least(e + 1, spans, n) if e < 7 else 0
        for _ in range(above - higher):
            j += 1
            while q < 3 - peaks and np.int64(clear_at[c, q]) <= j:
                q += 1
                emptied += 1
            total += (np.int64(1) << emptied) << e
        above = higher
    return total


@njit(cache=True)
def _bound(board, cards, goal, work, key, s):
    """The most any line from the state ``key`` (configuration, waste rank, run) at
    stock index s can still score.

    The current run can last at most ``longest[c, r]`` more removals, and any later run
    at most ``longest_after[c]``; each later run needs a draw first. Of n removals the
    run factors can be no larger than those of the current run cut at its best and
    full later runs (``_at_least``), and the largest of them go, at best, with the
    latest removals, whose i is the largest. An end without a win removes at most all
    cards but one; a win all of them, with at least as many draws as its runs need and
    as ``goal.win_draws`` (the fewest of any win from the start) says, and scores 10
    for each card the stock keeps.
    """
    run = key & ((1 << RUN_BITS) - 1)
    r = (key >> RUN_BITS) & 15
    c = key >> (RUN_BITS + 4)
    stock_left = cards.stock.shape[0] - s
    peaks = np.int64(board.peaks[c])
    left = TABLEAU - np.int64(board.removed[c])
    first = np.int64(work.longest[c, r])
    later = np.int64(work.longest_after[c])
    spans = (first, later, run)
    most_cards = left
    draws = np.int64(0)
    if first < left:
        if later == 0:
            most_cards = first
            draws = stock_left + 1
        else:
            draws = (left - first + later - 1) // later
            most_cards = min(left, first + stock_left * later)
    draws = max(draws, goal.win_draws - s)
    stuck = _removals_bound(goal.clear_at, c, peaks, spans, min(most_cards, left - 1))
    if draws > stock_left:
        return stuck
    won = _removals_bound(goal.clear_at, c, peaks, spans, left)
    return max(stuck, won + PYSOL_STOCK_POINTS * (stock_left - draws))


@njit(cache=True)
def _add(work, head, state, parent_move):
    """Record ``state`` = (key, g, bucket) reached from ``parent_move`` = (index, move)
    in this layer, unless a state of its configuration and waste rank with as long a
    run and as good a score is there already (what is ahead of it is then no better:
    every line from it is a line from that one, each removal scoring as much or more);
    those it beats in turn are marked dead (g = NEG). Returns False when the work space
    is full."""
    key, g, bucket = state
    code = key >> RUN_BITS
    run = key & ((1 << RUN_BITS) - 1)
    e = work.first_of[code] - 1
    while e >= 0:
        other = work.key[e] & ((1 << RUN_BITS) - 1)
        if other >= run and work.g[e] >= g:
            return True
        if other <= run and work.g[e] <= g:
            work.g[e] = NEG
        e = work.chain[e] - 1
    n = work.found[0]
    if n == work.key.shape[0]:
        return False
    work.key[n], work.g[n] = key, g
    work.parent[n], work.move[n] = parent_move
    work.chain[n] = work.first_of[code]
    work.first_of[code] = n + 1
    work.link[n] = head[bucket]
    head[bucket] = n
    work.found[0] = n + 1
    return True


@njit(cache=True)
def _pysol_optimal(board, cards, rules, goal, work, path):
    """The most PySolFC points still to be earned from the start position over complete
    games (won or stuck; won only with ``rules.must_clear``), if more than
    ``goal.floor``. Returns (best_gain, states, line_length, overflow): best_gain is
    ``goal.floor`` and the line empty when no game beats it; overflow is True when the
    work space was too small (nothing else is then meaningful)."""
    stock_len = cards.stock.shape[0]
    fits = _positions_on(cards, rules)
    _runs(board, cards, rules, goal.order, work)
    head = np.full(TABLEAU + 1, EMPTY, dtype=np.int64)
    best = np.int64(goal.floor)
    best_at = EMPTY
    work.found[0] = 0
    n_draws = 0
    ok = True
    s0 = cards.drawn
    for s in range(s0, stock_len + 1):
        layer_first = work.found[0]
        for m in range(TABLEAU + 1):
            head[m] = EMPTY
        # The layer's entries: the start, or the best arrival by a draw at each config.
        if s == s0:
            c = np.int64(cards.config)
            key = (c << 4 | cards.waste) << RUN_BITS | cards.run
            ok = _add(work, head, (key, np.int64(0), np.int64(board.removed[c])),
                      (EMPTY, DRAW))
        else:
            r = np.int64(cards.stock[s - 1])
            for e in range(n_draws):
                c = np.int64(work.draw_list[e])
                if ok:
                    ok = _add(work, head, ((c << 4 | r) << RUN_BITS, np.int64(work.draw_g[c]),
                                           np.int64(board.removed[c])),
                              (np.int64(work.draw_from[c]), DRAW))
                work.draw_g[c] = NEG
            n_draws = 0
        for m in range(TABLEAU + 1):
            idx = head[m]
            while idx != EMPTY and ok:
                key = work.key[idx]
                g = np.int64(work.g[idx])
                here = idx
                idx = work.link[idx]
                if g == NEG:  # beaten by a state found after it
                    continue
                run = key & ((1 << RUN_BITS) - 1)
                r = (key >> RUN_BITS) & 15
                c = key >> (RUN_BITS + 4)
                if c == board.full_id:
                    if g > best:
                        best, best_at = g, here
                    continue
                if m >= BOUND_FROM and g + _bound(board, cards, goal, work, key, s) <= best:
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
                while cand != 0 and ok:
                    p = _lowest_position(cand)
                    cand &= cand - 1
                    c2 = np.int64(board.next_id[c, p])
                    peaks2 = np.int64(board.peaks[c2])
                    g2 = g + _points(run + 1, peaks2, peaks2 > peaks)
                    if c2 == board.full_id:
                        g2 += PYSOL_STOCK_POINTS * (stock_len - s)
                    key2 = (c2 << 4 | np.int64(cards.tableau[p])) << RUN_BITS | (run + 1)
                    ok = _add(work, head, (key2, g2, np.int64(m + 1)), (here, np.int64(p)))
        # Leave first_of empty for the next layer (and the next call).
        for e in range(layer_first, work.found[0]):
            work.first_of[work.key[e] >> RUN_BITS] = 0
        if not ok:
            break
    for e in range(n_draws):
        work.draw_g[work.draw_list[e]] = NEG
    if not ok:
        return best, work.found[0], 0, True
    length = 0
    e = best_at
    while e != EMPTY and work.parent[e] != EMPTY:
        path[length] = work.move[e]
        length += 1
        e = work.parent[e]
    _reverse(path, length)
    return best, work.found[0], length, False
