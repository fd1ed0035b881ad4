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

A state is dropped when one of the same configuration and waste rank with as long a
run and as good a score is in its layer (``_add``). An arrival from which no card can be
removed can only draw (or, on the last layer, is stuck), and what follows a draw depends
on neither the waste nor the run: it is no state of its own but goes straight to the
next layer's entry of its configuration, which keeps the best score (``draw_move``
remembers the removal for the line); an entry that cannot play either is carried on to
the next layer (``_enter``). No bound prunes: bounds on what a state can still score
(the deal's longest runs, the peaks' thresholds, the stock) were measured to cost as much
as they saved, the search visiting nearly every reachable state either way
(docs/design.md). ``floor`` (the gain of a line the solver has, else −1) only decides
whether the line found replaces that one.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..model.geometry import TABLEAU_SIZE as TABLEAU
from ..model.scoring import PYSOL_PEAK_POINTS, PYSOL_RUN_STEP, PYSOL_STOCK_POINTS
from .jit import njit
from .shared import DRAW, _lowest_position, _may_draw, _positions_on, _reverse

NEG = -(1 << 30)
RUN_BITS = 5  # a state's key: (config << 4 | rank) << RUN_BITS | run (run ≤ 28): 24 bits
EMPTY = -1
NO_MOVE = -1  # PysolWork.draw_move: the draw is made from draw_from itself


class PysolGoal(NamedTuple):
    """``floor``: the gain of a line the caller has (−1: none); the search reports a line
    only when it beats it."""

    floor: int


class PysolWork(NamedTuple):
    """Work space: the states found (``key``, score so far ``g``, ``parent`` state,
    the ``move`` that led there, ``link`` to the next state with as many cards removed),
    ``chain`` to the next state of the layer with the same configuration and waste rank,
    ``first_of`` each (configuration, rank) code's first state in the layer (index + 1,
    0 none; all 0 between calls), ``found`` the states found, and the best entries of
    the next layer per configuration (``draw_g``, ``draw_from``, kept at NEG between
    calls; ``draw_list``; ``draw_move``: the removal made from ``draw_from`` just before
    the draw, or NO_MOVE)."""

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
    draw_move: np.ndarray


@njit(cache=True, inline="always")
def _points(run, peaks_after, cleared):
    # One removal's points, as scoring.pysol_removal_points.
    i = np.int64(1) << peaks_after
    gain = i * (np.int64(1) << ((run - 1) // PYSOL_RUN_STEP))
    if cleared:
        gain += PYSOL_PEAK_POINTS * i
    return gain


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
def _enter(board, cards, fits, work, head, layer):
    """The layer's entries, ``layer`` = (stock index s ≥ 1, configurations entering):
    the best draw into each configuration. An entry with a card to play is a state
    (``_add``); one without can only draw again (or, on the last layer, is stuck), so
    below the last layer it is only recorded, for the line, and enters the next layer
    with the same score. A draw made right after a removal (``draw_move``) records
    that removal's state too. Returns (ok, the configurations kept as entries of the
    next layer, first in ``draw_list``); ok is False when the work space is full."""
    s, n_draws = layer
    r = np.int64(cards.stock[s - 1])
    last = s == cards.stock.shape[0]
    kept = 0
    ok = True
    for e in range(n_draws):
        c = np.int64(work.draw_list[e])
        carry = not last and board.available[c] & fits[r] == 0
        if ok:
            key = (c << 4 | r) << RUN_BITS
            g = np.int64(work.draw_g[c])
            at = np.int64(work.draw_from[c])
            n = work.found[0]
            via = work.draw_move[c] != NO_MOVE
            if n + via + carry > work.key.shape[0]:
                ok = False
            else:
                if via:
                    work.key[n], work.g[n] = key, g
                    work.parent[n], work.move[n] = at, work.draw_move[c]
                    at, n = n, n + 1
                if carry:
                    work.key[n], work.g[n] = key, g
                    work.parent[n], work.move[n] = at, DRAW
                    work.draw_from[c], work.draw_move[c] = n, NO_MOVE
                    n += 1
                work.found[0] = n
                if not carry:
                    ok = _add(work, head, (key, g, np.int64(board.removed[c])), (at, DRAW))
        if carry and ok:
            work.draw_list[kept] = c
            kept += 1
        else:
            work.draw_g[c] = NEG
    return ok, kept


@njit(cache=True)
def _pysol_optimal(board, cards, rules, goal, work, path):
    """The most PySolFC points still to be earned from the start position over complete
    games (won or stuck; won only with ``rules.must_clear``), if more than
    ``goal.floor``. Returns (best_gain, states, line_length, overflow): best_gain is
    ``goal.floor`` and the line empty when no game beats it; overflow is True when the
    work space was too small (nothing else is then meaningful)."""
    stock_len = cards.stock.shape[0]
    fits = _positions_on(cards, rules)
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
            ok, n_draws = _enter(board, cards, fits, work, head, (s, n_draws))
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
                    work.draw_from[c], work.draw_move[c] = here, NO_MOVE
                peaks = np.int64(board.peaks[c])
                while cand != 0 and ok:
                    p = _lowest_position(cand)
                    cand &= cand - 1
                    c2 = np.int64(board.next_id[c, p])
                    peaks2 = np.int64(board.peaks[c2])
                    g2 = g + _points(run + 1, peaks2, peaks2 > peaks)
                    if c2 == board.full_id:
                        g2 += PYSOL_STOCK_POINTS * (stock_len - s)
                    r2 = np.int64(cards.tableau[p])
                    if c2 != board.full_id and board.available[c2] & fits[r2] == 0:
                        if s == stock_len:  # stuck: a state only if the best end
                            if rules.must_clear or g2 <= best:
                                continue
                        else:  # it can only draw: no state, the next layer's entry
                            # (as the draw above, written out: the same lines as an
                            # inlined helper made the search 2.5 times slower, measured)
                            if g2 > work.draw_g[c2]:
                                if work.draw_g[c2] == NEG:
                                    work.draw_list[n_draws] = c2
                                    n_draws += 1
                                work.draw_g[c2] = g2
                                work.draw_from[c2], work.draw_move[c2] = here, p
                            continue
                    key2 = (c2 << 4 | r2) << RUN_BITS | (run + 1)
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
