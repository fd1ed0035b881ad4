"""Compiled search kernels. Private: plain integer arrays in, integers out.

A search state is (configuration id, stock index, waste rank). The stock index is the
number of draws so far, so it is also the draw count of every line reaching the state.
States index a dense bitset ``seen``: ``(config * stock_slots + stock_index) * RANKS + rank``.

Rank 13 is the wild rank: it is adjacent to every rank (an empty waste takes any card).
Moves are encoded as tableau positions 0–27, or ``DRAW`` for a draw.
"""

from __future__ import annotations

import numpy as np
from numba import njit

RANKS = 14  # 13 card ranks + the wild rank
WILD = 13
DRAW = 28
MAX_DEPTH = 64  # 28 removals + at most 24 draws + the start
START_SCORE = 500
PEAK_BONUS = 100
GOAL_WIN = 0
GOAL_STUCK = 1


@njit(cache=True)
def _adjacent_masks(tab_rank, wrap):
    """Per waste rank, the mask of tableau positions whose rank may go on it."""
    masks = np.zeros(RANKS, dtype=np.int64)
    for w in range(RANKS):
        m = np.int64(0)
        for p in range(tab_rank.shape[0]):
            r = tab_rank[p]
            d = abs(w - r)
            if w == WILD or r == WILD or d == 1 or (wrap and d == 12):
                m |= np.int64(1) << p
        masks[w] = m
    return masks


@njit(cache=True, inline="always")
def _test_and_set(seen, index):
    word = index >> 6
    bit = np.uint64(1) << np.uint64(index & 63)
    if seen[word] & bit:
        return True
    seen[word] |= bit
    return False


@njit(cache=True, inline="always")
def _lowest_position(bits):
    # Index of the lowest set bit; bits is a non-zero int64 with at most 28 bits.
    p = 0
    while not (bits >> p) & 1:
        p += 1
    return p


@njit(cache=True)
def _stuck_score(removed, peaks, draws):
    return START_SCORE - removed - draws + PEAK_BONUS * peaks


@njit(cache=True)
def _dfs(next_id, available, removed, peaks, full_id, tab_rank, stock_rank, start_rank,
         wrap, max_draws, draw_when_stuck, goal, goal_score, seen, path):
    """Depth-first search from the start for a goal state.

    goal GOAL_WIN: all 28 removed using at most ``max_draws`` draws.
    goal GOAL_STUCK: stock exhausted, no playable card, app score == ``goal_score``.
    Returns (found, path_length, states, max_removed, best_stuck_score); the line is
    written to ``path``. When nothing is found the search was exhaustive, so
    max_removed and best_stuck_score (-1 if no stuck end) describe every reachable state.
    """
    stock_len = stock_rank.shape[0]
    slots = stock_len + 1
    seen[:] = 0
    adj = _adjacent_masks(tab_rank, wrap)
    f_c = np.empty(MAX_DEPTH, dtype=np.int32)
    f_s = np.empty(MAX_DEPTH, dtype=np.int32)
    f_cand = np.empty(MAX_DEPTH, dtype=np.int64)
    f_draw = np.empty(MAX_DEPTH, dtype=np.bool_)

    states = 0
    max_removed = 0
    best_stuck = -1
    depth = 0
    c = 0
    s = 0
    r = start_rank
    _test_and_set(seen, (c * slots + s) * RANKS + r)
    while True:
        # A new frame for state (c, s, r) at `depth`.
        states += 1
        cand = available[c] & adj[r]
        if removed[c] > max_removed:
            max_removed = removed[c]
        if s == stock_len and cand == 0:
            score = _stuck_score(removed[c], peaks[c], s)
            if score > best_stuck:
                best_stuck = score
            if goal == GOAL_STUCK and score == goal_score:
                return True, depth, states, max_removed, best_stuck
        if goal == GOAL_WIN and c == full_id:
            return True, depth, states, max_removed, best_stuck
        f_c[depth] = c
        f_s[depth] = s
        f_cand[depth] = cand
        f_draw[depth] = s < max_draws and s < stock_len and not (draw_when_stuck and cand != 0)
        # Advance to the next unexplored child, popping exhausted frames.
        while True:
            if depth < 0:
                return False, 0, states, max_removed, best_stuck
            pc = f_c[depth]
            ps = f_s[depth]
            bits = f_cand[depth]
            if bits != 0:
                p = _lowest_position(bits)
                f_cand[depth] = bits & (bits - 1)
                c = next_id[pc, p]
                s = ps
                r = tab_rank[p]
                move = p
            elif f_draw[depth]:
                f_draw[depth] = False
                c = pc
                s = ps + 1
                r = stock_rank[ps]
                move = DRAW
            else:
                depth -= 1
                continue
            if not _test_and_set(seen, (c * slots + s) * RANKS + r):
                path[depth] = move
                depth += 1
                break


@njit(cache=True)
def _sweep(next_id, available, removed, peaks, full_id, tab_rank, stock_rank, start_rank,
           wrap, draw_when_stuck, seen, stack, frontier, next_frontier):
    """Layer-by-layer sweep over the stock: every state with 0 draws, then 1, …

    Returns (min_draws, states, max_removed, best_stuck_score). ``min_draws`` is the
    first layer holding a win (-1 if none); on a lost deal every layer is swept, so
    max_removed and best_stuck_score (-1 if there is no stuck end) are exact.
    """
    stock_len = stock_rank.shape[0]
    slots = stock_len + 1
    seen[:] = 0
    adj = _adjacent_masks(tab_rank, wrap)
    states = 0
    max_removed = 0
    best_stuck = -1
    # Every frontier entry has its state bit set already, so it is pushed exactly once.
    _test_and_set(seen, start_rank)
    frontier[0] = 0
    n_frontier = 1
    entry_rank = start_rank
    for s in range(slots):
        for top in range(n_frontier):
            stack[top] = frontier[top] * RANKS + entry_rank
        top = n_frontier
        n_next = 0
        while top > 0:
            top -= 1
            c = stack[top] // RANKS
            r = stack[top] % RANKS
            states += 1
            if c == full_id:
                return s, states, 28, best_stuck
            if removed[c] > max_removed:
                max_removed = removed[c]
            cand = available[c] & adj[r]
            if s < stock_len:
                if not (draw_when_stuck and cand != 0):
                    # Entering the next layer with this configuration; dedup by its state bit.
                    if not _test_and_set(seen, (c * slots + s + 1) * RANKS + stock_rank[s]):
                        next_frontier[n_next] = c
                        n_next += 1
            elif cand == 0:
                score = _stuck_score(removed[c], peaks[c], s)
                if score > best_stuck:
                    best_stuck = score
            while cand != 0:
                p = _lowest_position(cand)
                cand &= cand - 1
                child = next_id[c, p]
                if not _test_and_set(seen, (child * slots + s) * RANKS + tab_rank[p]):
                    stack[top] = child * RANKS + tab_rank[p]
                    top += 1
        if s < stock_len:
            entry_rank = stock_rank[s]
        frontier, next_frontier = next_frontier, frontier
        n_frontier = n_next
    return -1, states, max_removed, best_stuck
