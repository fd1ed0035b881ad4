"""Compiled sweep of every state reachable from a position, layer by layer over the
stock: the best stuck end of a lost position, or the win with the fewest draws; and
the walk back from the state it ends on to the start (``_trace``). ``shared.py``
documents the inputs; ``win.py`` proves the dominance across layers it uses.
"""

from __future__ import annotations

import numpy as np

from ..model.geometry import TABLEAU_SIZE as TABLEAU
from ..model.scoring import MOVE_COST, START_SCORE
from .jit import njit
from .shared import (
    DRAW,
    RANKS,
    SHIFT,
    _app_score,
    _code,
    _is_seen,
    _layer_bits,
    _lowest_position,
    _may_draw,
    _positions_on,
    _reverse,
    _test_and_set,
)

# --- the full sweep, for lost positions --------------------------------------------------

@njit(cache=True)
def _due_tables(cards, fits):
    """For the sweep: ``due[s, r]``, the first layer after s, below the last, that a draw
    of rank r enters (the last layer when none does); ``due_ranks[s]``, the mask of the
    ranks r with such a layer; ``takes[p]``, the mask of the waste ranks that position
    p's card goes on."""
    n = cards.stock.shape[0]
    due = np.full((n + 1, RANKS), n, dtype=np.int64)
    due_ranks = np.zeros(n + 1, dtype=np.int64)
    for s in range(n - 2, -1, -1):
        for r in range(RANKS):  # element by element (see _reverse)
            due[s, r] = due[s + 1, r]
        due[s, np.int64(cards.stock[s])] = s + 1
        due_ranks[s] = due_ranks[s + 1] | np.int64(1) << np.int64(cards.stock[s])
    takes = np.zeros(TABLEAU, dtype=np.int64)
    for r in range(RANKS):
        for p in range(TABLEAU):
            if (fits[r] >> p) & 1:
                takes[p] |= np.int64(1) << r
    return due, due_ranks, takes


NEW_CONFIG = 1 << 32  # on a sweep stack entry: the first state met with its configuration


@njit(cache=True, inline="always")
def _end_key(board, c, s, most_removed):
    # What the sweep ranks a stuck end by (on the last layer, s = the stock's length).
    if most_removed:
        return np.int64(board.removed[c])
    return _app_score(np.int64(board.removed[c]), np.int64(board.peaks[c]), s)


@njit(cache=True, inline="always")
def _best_end_beyond(board, c, s, most_removed):
    # No stuck end that removals from c reach ranks higher (Board.beyond; under
    # most_removed, 27: a stuck end is not the full configuration).
    if most_removed:
        return np.int64(TABLEAU - 1)
    return START_SCORE - MOVE_COST * s + np.int64(board.beyond[c])


@njit(cache=True)
def _stuck_on_top(board, fits, rank, stack, top):
    # Reorder stack[:top] so that the entries with nothing to play on ``rank`` lie on
    # top: the sweep pops them first.
    i = 0
    j = top - 1
    while i < j:
        if board.available[stack[i] >> SHIFT] & fits[rank] == 0:
            stack[i], stack[j] = stack[j], stack[i]
            j -= 1
        else:
            i += 1


@njit(cache=True)
def _sweep(board, cards, rules, most_removed, scratch, stop_at_win):
    """Every state reachable from the start, layer by layer over the stock, but those
    dominated across layers (see win.py: what they lead to is met anyway).

    Unless drawing waits until stuck, a configuration met once enters every later
    layer by a draw, but below the last layer only the first entry with each waste
    rank needs its removals made: a configuration is listed, when first met, for the
    next layer that draws each rank it can remove a card on, and each layer takes its
    list. The last layer takes every configuration met, for the stuck ends. A state
    is marked on the layer where it is visited, so a configuration is marked only on
    the layer where it was first met and where it made removals (:func:`_trace` looks
    down for its draws).

    On the last layer a state whose (configuration, rank) was met below leads only
    to states met below: it adds no configuration, so only its stuck ends matter,
    and its removals are not made when no configuration they lead to could beat the
    best stuck end found (``Board.beyond``). The stuck entries are ranked first, so
    that the best end is known early.

    Marks the states it visits in ``seen`` (left marked for :func:`_trace`: each was
    reached from a marked state). Returns (states, max_removed, best_key, goal_config,
    goal_rank) where the goal is a stuck end (stock exhausted, nothing playable) with
    the best key: its app score, or with ``most_removed`` its cards removed (-1 if
    there is no stuck end), and -1. With ``stop_at_win`` it stops at the first win:
    the layers come in order of draws, so that win has the fewest draws; it returns
    (states, 28, -1, full_id, rank, draws).
    """
    seen = scratch.seen
    known = scratch.layer_seen  # the (config, rank) codes met on any layer below the last
    stack = scratch.stack
    pending = scratch.pending
    met = scratch.met
    n_cfg = board.next_id.shape[0]
    stock_len = cards.stock.shape[0]
    layer = _layer_bits(n_cfg)
    fits = _positions_on(cards, rules)
    across_layers = not rules.draw_when_stuck
    # The codes met below the last layer are closed under removals (each made its
    # removals there), unless the start is on the last layer.
    met_below_closed = across_layers and cards.drawn < stock_len
    due, due_ranks, takes = _due_tables(cards, fits)
    n_pending = np.zeros(stock_len + 1, dtype=np.int64)
    states = 0
    max_removed = 0
    best_stuck = -1
    goal_c = -1
    goal_r = -1
    won_at = -1
    start = _code(cards.config, cards.waste)
    _test_and_set(seen, cards.drawn * layer + start)
    _test_and_set(known, start)
    met[0] = cards.config
    n_met = 1
    stack[0] = start | NEW_CONFIG
    top = 1
    for s in range(cards.drawn, stock_len + 1):
        base = s * layer
        below_last = across_layers and s < stock_len
        if s > cards.drawn:
            # The states entered by a draw. Under draw-when-stuck, the configurations
            # that drew into this layer (marked, and so listed once, when they drew).
            # Otherwise every configuration met goes on from layer to layer, but its
            # removals on a rank need making only at the first layer that draws that
            # rank after it was met (at later ones they are dominated across layers):
            # the lists hold those; the last layer takes every configuration met.
            r = np.int64(cards.stock[s - 1])
            last = across_layers and s == stock_len
            for i in range(n_met if last else n_pending[s]):
                code = _code(met[i] if last else pending[s * n_cfg + i], r)
                if below_last and _test_and_set(known, code):
                    continue  # dominated across layers
                _test_and_set(seen, base + code)
                stack[top] = code
                top += 1
            if s == stock_len:
                _stuck_on_top(board, fits, r, stack, top)
        while top > 0:
            top -= 1
            item = stack[top]
            c = (item & (NEW_CONFIG - 1)) >> SHIFT
            r = item & 15
            states += 1
            max_removed = max(max_removed, np.int64(board.removed[c]))
            if stop_at_win and c == board.full_id:
                won_at = s
                goal_c = c
                goal_r = r
                break
            cand = board.available[c] & fits[r]
            if s == stock_len:
                if cand == 0:
                    key = _end_key(board, c, s, most_removed)
                    if key > best_stuck:
                        best_stuck = key
                        goal_c = c
                        goal_r = r
                elif (met_below_closed and _is_seen(known, item)
                      and _best_end_beyond(board, c, s, most_removed) <= best_stuck):
                    cand = 0  # nothing ahead to find (see above)
            elif not across_layers:
                if _may_draw(rules, cand) and not _test_and_set(
                        seen, base + layer + _code(c, cards.stock[s])):
                    pending[(s + 1) * n_cfg + n_pending[s + 1]] = c
                    n_pending[s + 1] += 1
            elif item & NEW_CONFIG:
                # List it for the next layer of each rank it can remove a card on.
                ranks = 0
                avail = np.int64(board.available[c])
                while avail != 0:
                    ranks |= takes[_lowest_position(avail)]
                    avail &= avail - 1
                ranks &= due_ranks[s]
                while ranks != 0:
                    d = due[s, _lowest_position(ranks)]
                    ranks &= ranks - 1
                    pending[d * n_cfg + n_pending[d]] = c
                    n_pending[d] += 1
            while cand != 0:
                p = _lowest_position(cand)
                cand &= cand - 1
                child = _code(board.next_id[c, p], cards.tableau[p])
                if below_last:
                    word = child >> 6
                    old = known[word]
                    bit = np.uint64(1) << np.uint64(child & 63)
                    if old & bit:
                        continue  # met on this layer, or dominated across layers
                    known[word] = old | bit
                    _test_and_set(seen, base + child)
                    if (old >> np.uint64(child & 48)) & np.uint64(0xFFFF) == 0:
                        met[n_met] = child >> SHIFT
                        n_met += 1
                        child |= NEW_CONFIG
                elif _test_and_set(seen, base + child):
                    continue
                stack[top] = child
                top += 1
        if won_at >= 0:
            break
    for i in range(n_met):
        known[np.int64(met[i]) >> 2] = 0  # a configuration's 16 codes share a word
    if won_at >= 0:
        return states, TABLEAU, -1, goal_c, goal_r, won_at
    return states, max_removed, best_stuck, goal_c, goal_r, -1


@njit(cache=True)
def _trace(board, cards, rules, scratch, goal, path):
    """Walk back from the marked state ``goal`` = (c, s, r) to the start through marked
    states. Every marked state was reached from the start, so a marked predecessor
    always exists and the walk ends at the start. Writes the line to ``path``; returns
    its length.
    """
    seen = scratch.seen
    neighbours = rules.neighbours
    fits = _positions_on(cards, rules)
    layer = _layer_bits(board.next_id.shape[0])
    c, s, r = goal
    n = 0
    while not (c == cards.config and s == cards.drawn and r == cards.waste):
        moved = False
        # A removal of position p (of rank r) from configuration prev_id[c, p].
        for p in range(TABLEAU):
            pc = np.int64(board.prev_id[c, p])
            if pc < 0 or cards.tableau[p] != r:
                continue
            for pr in range(RANKS):
                if (neighbours[pr] >> r) & 1 and _is_seen(seen, s * layer + _code(pc, pr)):
                    path[n] = p
                    n += 1
                    c = pc
                    r = pr
                    moved = True
                    break
            if moved:
                break
        # Draws: from a state with the same configuration one layer down, that was
        # allowed to draw; unless drawing waits until stuck, the sweep marks a
        # configuration only on the layer it first met it, so look further down.
        lowest = s - 1 if rules.draw_when_stuck else cards.drawn
        down = s - 1
        while not moved and down >= lowest:
            for pr in range(RANKS):
                if _is_seen(seen, down * layer + _code(c, pr)) and _may_draw(
                        rules, board.available[c] & fits[pr]):
                    while s > down:
                        path[n] = DRAW
                        n += 1
                        s -= 1
                    r = pr
                    moved = True
                    break
            down -= 1
        if not moved:
            raise AssertionError("_trace: a marked state without a marked predecessor")
    _reverse(path, n)
    return n
