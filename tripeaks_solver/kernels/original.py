"""Compiled optimum of the original scoring from a position, and a line to it: run
bonuses make the score depend on the path, so it is a longest path over the layers'
entries. ``shared.py`` documents the inputs.
"""

from __future__ import annotations

import numpy as np

from ..model.geometry import TABLEAU_SIZE as TABLEAU
from ..model.scoring import ORIGINAL_BONUS_AFTER, ORIGINAL_DRAW_COST
from .jit import njit
from .shared import (
    DRAW,
    SHIFT,
    LayerWalk,
    _code,
    _lowest_position,
    _may_draw,
    _positions_on,
    _reverse,
    _test_and_set,
)

NEG = -(1 << 40)


# --- the original scoring: run bonuses make the score depend on the path ---------------
#
# Under the original scoring a removal scores one more than the previous removal of
# its run, and a draw ends the run. The removals between two draws are one run, so a
# layer (the play between draw s and draw s+1) that enters at configuration c and
# leaves at c' scores T(removed[c'] - removed[c]) with T(m) = m(m+1)/2, plus the peak
# bonuses it earns, minus 5 for the draw that leaves it. What lies ahead depends only
# on (s, c') — the waste after a draw is the drawn card — so the best total is a
# longest path over layer entries, computed layer by layer from each entry's reach.
# The start layer continues the run in progress: its m counts from ``run`` and the
# points the run already scored (T(run)) are not counted again.

@njit(cache=True)
def _layer_reach(board, cards, rules, fits, walk, scratch):
    """Breadth-first over removals within one layer from (walk.config, walk.rank).

    Fills ``scratch.stack`` with the codes (c << SHIFT | r) reached and
    ``scratch.parent`` with the index of each one's predecessor. Stops early at
    (walk.target_config, walk.target_rank) (target_rank -1: any rank that may leave the
    layer by a draw; target_config -1: no target). Returns (count, index of the target
    or -1). Clears ``scratch.layer_seen`` before returning.
    """
    target_c = walk.target_config
    target_r = walk.target_rank
    reach = scratch.stack
    parent = scratch.parent
    layer_seen = scratch.layer_seen
    reach[0] = _code(walk.config, walk.rank)
    parent[0] = -1
    _test_and_set(layer_seen, reach[0])
    n = 1
    head = 0
    hit = -1
    while head < n:
        c = reach[head] >> SHIFT
        r = reach[head] & 15
        cand = board.available[c] & fits[r]
        if c == target_c and (r == target_r or (target_r < 0 and _may_draw(rules, cand))):
            hit = head
            break
        if c != board.full_id:
            while cand != 0:
                p = _lowest_position(cand)
                cand &= cand - 1
                code = _code(board.next_id[c, p], cards.tableau[p])
                if not _test_and_set(layer_seen, code):
                    reach[n] = code
                    parent[n] = head
                    n += 1
        head += 1
    for i in range(n):
        layer_seen[reach[i] >> 6] = 0
    return n, hit


@njit(cache=True)
def _original_optimal(board, cards, rules, scratch, path):
    """The most original points still to be earned from the start position, over
    complete games (won or stuck; won only with ``rules.must_clear``). Returns
    (best_gain, states, line_length) with the line in ``path``; best_gain is NEG and the
    line empty when no game counts (no win is left under ``must_clear``).
    """
    n_cfg = board.next_id.shape[0]
    stock_len = cards.stock.shape[0]
    s0 = cards.drawn
    fits = _positions_on(cards, rules)
    value = np.full((stock_len + 1, n_cfg), NEG, dtype=np.int64)
    came_from = np.full((stock_len + 1, n_cfg), -1, dtype=np.int64)
    entries = np.empty(n_cfg, dtype=np.int64)
    value[s0, cards.config] = 0
    best = NEG
    end_s = end_c0 = end_c = end_r = -1
    states = 0
    for s in range(s0, stock_len + 1):
        n_entries = 0
        for c in range(n_cfg):
            if value[s, c] > NEG:
                entries[n_entries] = c
                n_entries += 1
        r0 = cards.waste if s == s0 else cards.stock[s - 1]
        run0 = cards.run if s == s0 else 0
        for e in range(n_entries):
            c0 = entries[e]
            removed0 = np.int64(board.removed[c0]) - run0
            v0 = (value[s, c0] - run0 * (run0 + 1) // 2
                  - ORIGINAL_BONUS_AFTER[np.int64(board.peaks[c0])])
            n, _ = _layer_reach(board, cards, rules, fits, LayerWalk(c0, r0, -1, -1), scratch)
            states += n
            for i in range(n):
                c = scratch.stack[i] >> SHIFT
                r = scratch.stack[i] & 15
                m = np.int64(board.removed[c]) - removed0
                v = v0 + m * (m + 1) // 2 + ORIGINAL_BONUS_AFTER[np.int64(board.peaks[c])]
                cand = board.available[c] & fits[r]
                ends = c == board.full_id or (s == stock_len and cand == 0
                                              and not rules.must_clear)
                if ends:
                    if v > best:
                        best = v
                        end_s, end_c0, end_c, end_r = s, c0, c, r
                elif (s < stock_len and _may_draw(rules, cand)
                      and v - ORIGINAL_DRAW_COST > value[s + 1, c]):
                    value[s + 1, c] = v - ORIGINAL_DRAW_COST
                    came_from[s + 1, c] = c0
    # The line, last layer first: within each layer the removals from its entry to its
    # exit, then the draw that led into it.
    length = 0
    s, c0, c_exit, r_exit = end_s, end_c0, end_c, end_r
    while s >= s0:
        r0 = cards.waste if s == s0 else cards.stock[s - 1]
        _, hit = _layer_reach(board, cards, rules, fits, LayerWalk(c0, r0, c_exit, r_exit),
                              scratch)
        i = hit
        while scratch.parent[i] >= 0:
            # Which position was removed: the one configuration c differs from its parent.
            c = scratch.stack[i] >> SHIFT
            pc = scratch.stack[scratch.parent[i]] >> SHIFT
            for p in range(TABLEAU):
                if board.next_id[pc, p] == c:
                    path[length] = p
                    break
            length += 1
            i = scratch.parent[i]
        if s == s0:
            break
        path[length] = DRAW
        length += 1
        c_exit = c0
        r_exit = -1
        c0 = came_from[s, c0]
        s -= 1
    _reverse(path, length)
    return best, states, length
