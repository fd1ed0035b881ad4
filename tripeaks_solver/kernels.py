"""Compiled search kernels. Private: plain integer arrays in, integers out.

A search state is (configuration id, stock index, waste rank). The stock index is the
number of draws so far, so it is also the draw count of every line reaching the state.
States index a dense bitset ``seen`` laid out layer by layer: bit
``stock_index * layer_bits + config * RANKS + rank``. A layer (one stock index) is a
contiguous ~40 KB block, so a sweep works in cache, and a kernel clears only the layers
it touched before it returns: ``seen`` is all zero between calls.

Rank 13 is the wild rank: it is adjacent to every rank (an empty waste takes any card).
Moves are encoded as tableau positions 0–27, or ``DRAW`` for a draw.
"""

from __future__ import annotations

import numpy as np
from numba import njit

RANKS = 14  # 13 card ranks + the wild rank
WILD = 13
DRAW = 28
TABLEAU = 28
MAX_DEPTH = 64  # 28 removals + at most 24 draws + the start
START_SCORE = 500
PEAK_BONUS = 100


@njit(cache=True, inline="always")
def _ranks_adjacent(a, b, wrap):
    d = abs(a - b)
    return a == WILD or b == WILD or d == 1 or (wrap and d == 12)


@njit(cache=True)
def _adjacent_masks(tab_rank, wrap):
    """Per waste rank, the mask of tableau positions whose rank may go on it."""
    masks = np.zeros(RANKS, dtype=np.int64)
    for w in range(RANKS):
        m = np.int64(0)
        for p in range(tab_rank.shape[0]):
            if _ranks_adjacent(w, tab_rank[p], wrap):
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
def _layer_bits(n_configs):
    return (n_configs * RANKS + 63) // 64 * 64


@njit(cache=True)
def _clear_layers(seen, layer_bits, last_layer):
    # Leave the workspace as the next call expects it: all zero.
    seen[: (last_layer + 1) * layer_bits // 64] = 0


@njit(cache=True)
def _dfs(next_id, available, removed, peaks, full_id, tab_rank, stock_rank, start_rank,
         wrap, max_draws, draw_when_stuck, seen, path):
    """Depth-first search from the start for a win (all 28 removed, at most ``max_draws`` draws).

    Returns (found, path_length, states, max_removed, best_stuck_score); the line is
    written to ``path``. When nothing is found the search was exhaustive, so
    max_removed and best_stuck_score (-1 if no stuck end) describe every reachable state.
    """
    stock_len = stock_rank.shape[0]
    layer = _layer_bits(next_id.shape[0])
    adj = _adjacent_masks(tab_rank, wrap)
    f_c = np.empty(MAX_DEPTH, dtype=np.int32)
    f_s = np.empty(MAX_DEPTH, dtype=np.int32)
    f_cand = np.empty(MAX_DEPTH, dtype=np.int64)
    f_draw = np.empty(MAX_DEPTH, dtype=np.bool_)

    states = 0
    max_removed = 0
    best_stuck = -1
    deepest = 0
    found = False
    depth = 0
    c = 0
    s = 0
    r = start_rank
    _test_and_set(seen, r)
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
        if c == full_id:
            found = True
            break
        f_c[depth] = c
        f_s[depth] = s
        f_cand[depth] = cand
        f_draw[depth] = s < max_draws and s < stock_len and not (draw_when_stuck and cand != 0)
        # Advance to the next unexplored child, popping exhausted frames.
        while depth >= 0:
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
                if s > deepest:
                    deepest = s
            else:
                depth -= 1
                continue
            if not _test_and_set(seen, s * layer + c * RANKS + r):
                path[depth] = move
                depth += 1
                break
        if depth < 0:
            break
    _clear_layers(seen, layer, deepest)
    return found, depth if found else 0, states, max_removed, best_stuck


@njit(cache=True)
def _sweep(next_id, available, removed, peaks, full_id, tab_rank, stock_rank, start_rank,
           adj, draw_when_stuck, seen, stack, frontier, next_frontier):
    """Layer-by-layer sweep over the stock: every state with 0 draws, then 1, …

    Marks every reached state in ``seen`` (and leaves it marked for :func:`_trace`).
    Returns (min_draws, states, max_removed, best_stuck_score, goal_config, goal_rank,
    last_layer). ``min_draws`` is the first layer holding a win (-1 if none) and the goal
    is that win; on a lost deal every layer is swept, so max_removed and best_stuck_score
    (-1 if there is no stuck end) are exact and the goal is a best stuck end.
    """
    stock_len = stock_rank.shape[0]
    layer = _layer_bits(next_id.shape[0])
    states = 0
    max_removed = 0
    best_stuck = -1
    min_draws = -1
    goal_c = -1
    goal_r = -1
    # Every frontier entry has its state bit set already, so it is pushed exactly once.
    _test_and_set(seen, start_rank)
    frontier[0] = 0
    n_frontier = 1
    entry_rank = start_rank
    s = 0
    while n_frontier > 0:
        for top in range(n_frontier):
            stack[top] = frontier[top] * RANKS + entry_rank
        top = n_frontier
        n_next = 0
        base = s * layer
        while top > 0:
            top -= 1
            c = stack[top] // RANKS
            r = stack[top] % RANKS
            states += 1
            if c == full_id:
                return s, states, TABLEAU, best_stuck, c, r, min(s + 1, stock_len)
            if removed[c] > max_removed:
                max_removed = removed[c]
            cand = available[c] & adj[r]
            if s < stock_len:
                if not (draw_when_stuck and cand != 0):
                    # Entering the next layer with this configuration; dedup by its state bit.
                    if not _test_and_set(seen, base + layer + c * RANKS + stock_rank[s]):
                        next_frontier[n_next] = c
                        n_next += 1
            elif cand == 0:
                score = _stuck_score(removed[c], peaks[c], s)
                if score > best_stuck:
                    best_stuck = score
                    goal_c = c
                    goal_r = r
            while cand != 0:
                p = _lowest_position(cand)
                cand &= cand - 1
                child = next_id[c, p]
                if not _test_and_set(seen, base + child * RANKS + tab_rank[p]):
                    stack[top] = child * RANKS + tab_rank[p]
                    top += 1
        if s < stock_len:
            entry_rank = stock_rank[s]
        frontier, next_frontier = next_frontier, frontier
        n_frontier = n_next
        s += 1
    return min_draws, states, max_removed, best_stuck, goal_c, goal_r, min(s, stock_len)


@njit(cache=True, inline="always")
def _is_seen(seen, index):
    return (seen[index >> 6] >> np.uint64(index & 63)) & np.uint64(1) != 0


@njit(cache=True)
def _trace(prev_id, available, tab_rank, stock_rank, start_rank, adj, wrap, draw_when_stuck,
           seen, c, s, r, path):
    """Walk back from a marked goal state (c, s, r) to the start through marked states.

    Every marked state was reached from the start, so a marked predecessor always exists
    and the walk ends at the start. Writes the line to ``path``; returns its length.
    """
    layer = _layer_bits(prev_id.shape[0])
    n = 0
    while not (c == 0 and s == 0 and r == start_rank):
        moved = False
        # A removal of position p (of rank r) from configuration prev_id[c, p].
        for p in range(TABLEAU):
            pc = prev_id[c, p]
            if pc < 0 or tab_rank[p] != r:
                continue
            for pr in range(RANKS):
                if _ranks_adjacent(pr, r, wrap) and _is_seen(seen, s * layer + pc * RANKS + pr):
                    path[n] = p
                    c = pc
                    r = pr
                    moved = True
                    break
            if moved:
                break
        if not moved:
            # A draw: the state one layer down with the same configuration.
            for pr in range(RANKS):
                if _is_seen(seen, (s - 1) * layer + c * RANKS + pr) and not (
                    draw_when_stuck and available[c] & adj[pr] != 0
                ):
                    path[n] = DRAW
                    s -= 1
                    r = pr
                    break
        n += 1
    path[:n] = path[:n][::-1].copy()
    return n


@njit(cache=True)
def _optimal(next_id, prev_id, available, removed, peaks, full_id, tab_rank, stock_rank,
             start_rank, wrap, draw_when_stuck, seen, stack, frontier, next_frontier, path):
    """The sweep, then the line to its goal. Returns (min_draws, states, max_removed,
    best_stuck_score, line_length); leaves ``seen`` zero."""
    adj = _adjacent_masks(tab_rank, wrap)
    min_draws, states, max_removed, best_stuck, gc, gr, last = _sweep(
        next_id, available, removed, peaks, full_id, tab_rank, stock_rank, start_rank,
        adj, draw_when_stuck, seen, stack, frontier, next_frontier)
    length = 0
    if gc >= 0:
        s = min_draws if min_draws >= 0 else stock_rank.shape[0]
        length = _trace(prev_id, available, tab_rank, stock_rank, start_rank, adj, wrap,
                        draw_when_stuck, seen, gc, s, gr, path)
    _clear_layers(seen, _layer_bits(next_id.shape[0]), last)
    return min_draws, states, max_removed, best_stuck, length
