"""Compiled search kernels. Private: plain integer arrays in, integers out.

A search state is (configuration id, stock index, waste rank). The stock index is the
number of draws so far, so it is also the draw count of every line reaching the state.
States index a dense bitset ``seen`` laid out layer by layer: bit
``stock_index * layer_bits + (config << 4 | rank)``. A layer (one stock index) is a
contiguous ~40 KB block, so a search works in cache, and a kernel clears only the
layers it touched before it returns: ``seen`` is all zero between calls.

Rank 13 is the wild rank: it is adjacent to every rank (an empty waste takes any card).
Moves are encoded as tableau positions 0–27, or ``DRAW`` for a draw.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .cards import WILD_RANK as WILD
from .geometry import TABLEAU_SIZE as TABLEAU
from .scoring import ORIGINAL_DRAW_COST, ORIGINAL_PEAK_BONUS, PEAK_BONUS, START_SCORE

RANKS = 14  # 13 card ranks + the wild rank
ALL_RANKS = (1 << RANKS) - 1
SHIFT = 4  # a state's (config, rank) code is config << SHIFT | rank: no division to decode
DRAW = TABLEAU
MAX_DEPTH = 64  # 28 removals + at most 24 draws + the start

_DEBRUIJN = np.array([0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8,
                      31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9],
                     dtype=np.int64)


@njit(cache=True, inline="always")
def _lowest_position(bits):
    # Index of the lowest set bit of a non-zero mask below 2^32 (de Bruijn multiply).
    low = bits & -bits
    return _DEBRUIJN[((low * 0x077CB531) & 0xFFFFFFFF) >> 27]


@njit(cache=True, inline="always")
def _ranks_adjacent(a, b, wrap):
    d = abs(a - b)
    return a == WILD or b == WILD or d == 1 or (wrap and d == 12)


@njit(cache=True)
def _adjacent_masks(tab_rank, wrap):
    """Per waste rank, the mask of tableau positions whose rank may go on it."""
    masks = np.zeros(RANKS, dtype=np.int64)
    for w in range(RANKS):
        for p in range(TABLEAU):
            if _ranks_adjacent(w, tab_rank[p], wrap):
                masks[w] |= np.int64(1) << p
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
def _is_seen(seen, index):
    return (seen[index >> 6] >> np.uint64(index & 63)) & np.uint64(1) != 0


@njit(cache=True)
def _layer_bits(n_configs):
    return ((n_configs << SHIFT) + 63) // 64 * 64


@njit(cache=True)
def _clear_layers(seen, layer_bits, last_layer):
    # Leave the workspace as the next call expects it: all zero.
    seen[: (last_layer + 1) * layer_bits // 64] = 0


@njit(cache=True)
def _stuck_score(removed, peaks, draws):
    return START_SCORE - removed - draws + PEAK_BONUS * peaks


# --- the depth-first search for a win -------------------------------------------------
#
# Pruning (sound): a card of rank k leaves only right after a waste top of a rank
# adjacent to k, and every waste top (the current one, a stock card still to be drawn
# within the draw limit, a tableau card still to be removed) is followed by exactly one
# action. Distinct removals of rank-k cards therefore follow distinct such waste tops,
# so no win lies ahead of a state where, for some rank k,
#     cards of rank k left  >  adjacent-rank cards left in the tableau
#                              + adjacent-rank stock cards still to draw
#                              + (1 if the current waste is adjacent to k).
# The search keeps both tableau counts up to date along its path.

@njit(cache=True)
def _rank_tables(tab_rank, stock_rank, wrap, max_draws):
    """``nbr[k]``: mask of ranks adjacent to k, also listed in ``nbr_list[k, :nbr_count[k]]``;
    ``stock_nb[s, k]``: how many of stock[s:max_draws] are adjacent to k."""
    nbr = np.zeros(RANKS, dtype=np.int64)
    nbr_list = np.zeros((RANKS, RANKS), dtype=np.int64)
    nbr_count = np.zeros(RANKS, dtype=np.int64)
    for a in range(RANKS):
        for b in range(RANKS):
            if _ranks_adjacent(a, b, wrap):
                nbr[a] |= np.int64(1) << b
                nbr_list[a, nbr_count[a]] = b
                nbr_count[a] += 1
    n = stock_rank.shape[0]
    stock_nb = np.zeros((n + 1, RANKS), dtype=np.int64)
    for s in range(min(max_draws, n) - 1, -1, -1):
        for k in range(RANKS):
            stock_nb[s, k] = stock_nb[s + 1, k] + ((nbr[k] >> stock_rank[s]) & 1)
    return nbr, nbr_list, nbr_count, stock_nb


@njit(cache=True, inline="always")
def _shift_rank(left, supply, nbr_list, nbr_count, rank, delta):
    # A tableau card of `rank` leaves (-1) or comes back on undo (+1).
    left[rank] += delta
    for i in range(nbr_count[rank]):
        supply[nbr_list[rank, i]] += delta


@njit(cache=True, inline="always")
def _short_of_tops(left, supply, stock_nb, waste, nbr, ranks):
    # The test above, for the ranks in the mask `ranks`.
    while ranks != 0:
        k = _lowest_position(ranks)
        ranks &= ranks - 1
        if left[k] > supply[k] + stock_nb[k] + ((nbr[k] >> waste) & 1):
            return True
    return False


@njit(cache=True)
def _dfs(next_id, available, full_id, tab_rank, stock_rank, start_rank, wrap, max_draws,
         draw_when_stuck, seen, path):
    """Depth-first search for a win: all 28 removed with at most ``max_draws`` draws.

    Removals are tried before the draw. Returns (found, path_length, states) with the
    line in ``path``; the search is exhaustive when nothing is found.
    """
    layer = _layer_bits(next_id.shape[0])
    adj = _adjacent_masks(tab_rank, wrap)
    nbr, nbr_list, nbr_count, stock_nb = _rank_tables(tab_rank, stock_rank, wrap, max_draws)
    left = np.zeros(RANKS, dtype=np.int64)
    supply = np.zeros(RANKS, dtype=np.int64)
    for p in range(TABLEAU):
        _shift_rank(left, supply, nbr_list, nbr_count, tab_rank[p], 1)
    f_c = np.empty(MAX_DEPTH, dtype=np.int64)
    f_s = np.empty(MAX_DEPTH, dtype=np.int64)
    f_cand = np.empty(MAX_DEPTH, dtype=np.int64)
    f_draw = np.empty(MAX_DEPTH, dtype=np.bool_)
    f_r = np.empty(MAX_DEPTH, dtype=np.int64)

    states = 0
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
        if c == full_id:
            found = True
            break
        f_c[depth] = c
        f_s[depth] = s
        f_r[depth] = r
        # After a move only the ranks adjacent to the old or the new waste top can have
        # lost supply or the waste's help; the parent passed the test for all the others.
        check = ALL_RANKS if depth == 0 else nbr[r] | nbr[f_r[depth - 1]]
        if _short_of_tops(left, supply, stock_nb[s], r, nbr, check):
            f_cand[depth] = 0
            f_draw[depth] = False
        else:
            cand = available[c] & adj[r]
            f_cand[depth] = cand
            f_draw[depth] = s < max_draws and not (draw_when_stuck and cand != 0)
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
                deepest = max(deepest, s)
            else:
                depth -= 1
                if depth >= 0 and path[depth] != DRAW:
                    _shift_rank(left, supply, nbr_list, nbr_count, tab_rank[path[depth]], 1)
                continue
            if not _test_and_set(seen, s * layer + (c << SHIFT | r)):
                path[depth] = move
                if move != DRAW:
                    _shift_rank(left, supply, nbr_list, nbr_count, r, -1)
                depth += 1
                break
        if depth < 0:
            break
    _clear_layers(seen, layer, deepest)
    return found, depth if found else 0, states


# --- the full sweep, for lost deals ----------------------------------------------------

@njit(cache=True)
def _sweep(next_id, available, removed, peaks, tab_rank, stock_rank, start_rank, adj,
           draw_when_stuck, most_removed, seen, stack, frontier, next_frontier):
    """Every reachable state, layer by layer over the stock (0 draws, then 1, …).

    Marks them all in ``seen`` (left marked for :func:`_trace`). Returns (states,
    max_removed, best_key, goal_config, goal_rank) where the goal is a stuck end
    (stock exhausted, nothing playable) with the best key: its app score, or with
    ``most_removed`` its cards removed (-1 if there is no stuck end).
    """
    stock_len = stock_rank.shape[0]
    layer = _layer_bits(next_id.shape[0])
    states = 0
    max_removed = 0
    best_stuck = -1
    goal_c = -1
    goal_r = -1
    # Every frontier entry has its state bit set already, so it is pushed exactly once.
    _test_and_set(seen, start_rank)
    frontier[0] = 0
    n_frontier = 1
    entry_rank = start_rank
    for s in range(stock_len + 1):
        for top in range(n_frontier):
            stack[top] = frontier[top] << SHIFT | entry_rank
        top = n_frontier
        n_next = 0
        base = s * layer
        while top > 0:
            top -= 1
            c = stack[top] >> SHIFT
            r = stack[top] & 15
            states += 1
            max_removed = max(max_removed, removed[c])
            cand = available[c] & adj[r]
            if s < stock_len:
                # This configuration enters the next layer; its state bit dedups it.
                may_draw = not (draw_when_stuck and cand != 0)
                if may_draw and not _test_and_set(seen, base + layer + (c << SHIFT | stock_rank[s])):
                    next_frontier[n_next] = c
                    n_next += 1
            elif cand == 0:
                score = removed[c] if most_removed else _stuck_score(removed[c], peaks[c], s)
                if score > best_stuck:
                    best_stuck = score
                    goal_c = c
                    goal_r = r
            while cand != 0:
                p = _lowest_position(cand)
                cand &= cand - 1
                child = next_id[c, p]
                if not _test_and_set(seen, base + (child << SHIFT | tab_rank[p])):
                    stack[top] = (child << SHIFT | tab_rank[p])
                    top += 1
        if s < stock_len:
            entry_rank = stock_rank[s]
        frontier, next_frontier = next_frontier, frontier
        n_frontier = n_next
    return states, max_removed, best_stuck, goal_c, goal_r


@njit(cache=True)
def _trace(prev_id, available, tab_rank, stock_rank, start_rank, adj, wrap, draw_when_stuck,
           seen, c, s, r, path):
    """Walk back from a marked state (c, s, r) to the start through marked states.

    Every marked state was reached from the start, so a marked predecessor always
    exists and the walk ends at the start. Writes the line to ``path``; returns its length.
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
                if _ranks_adjacent(pr, r, wrap) and _is_seen(seen, s * layer + (pc << SHIFT | pr)):
                    path[n] = p
                    c = pc
                    r = pr
                    moved = True
                    break
            if moved:
                break
        if not moved:
            # A draw: a state one layer down with the same configuration.
            for pr in range(RANKS):
                if _is_seen(seen, (s - 1) * layer + (c << SHIFT | pr)) and not (
                    draw_when_stuck and available[c] & adj[pr] != 0
                ):
                    path[n] = DRAW
                    s -= 1
                    r = pr
                    break
        n += 1
    path[:n] = path[:n][::-1].copy()
    return n


# --- the optimum ----------------------------------------------------------------------

@njit(cache=True)
def _draws_in(path, length):
    n = 0
    for i in range(length):
        if path[i] == DRAW:
            n += 1
    return n


@njit(cache=True)
def _optimal(next_id, prev_id, available, removed, peaks, full_id, tab_rank, stock_rank,
             start_rank, wrap, draw_when_stuck, most_removed, seen, stack, frontier,
             next_frontier, path):
    """Exact optimum and a line to it. Returns (min_draws, states, max_removed,
    best_stuck_key, line_length), min_draws -1 on a lost deal; leaves ``seen`` zero.
    The best stuck end is the one with the best app score, or with ``most_removed``
    the one with the most cards removed.

    A win scores 772 − draws, so on a winnable deal the optimum is the win with the
    fewest draws: search again for a win with fewer draws than the last one found,
    until a search proves (exhaustively) that there is none. On a lost deal the
    unpruned sweep visits every reachable state, for the exact best stuck end.
    """
    stock_len = stock_rank.shape[0]
    found, length, states = _dfs(next_id, available, full_id, tab_rank, stock_rank,
                                 start_rank, wrap, stock_len, draw_when_stuck, seen, path)
    if found:
        trial = np.empty_like(path)
        draws = _draws_in(path, length)
        while draws > 0:
            better, n, more = _dfs(next_id, available, full_id, tab_rank, stock_rank,
                                   start_rank, wrap, draws - 1, draw_when_stuck, seen, trial)
            states += more
            if not better:
                break
            path[:n] = trial[:n]
            length = n
            draws = _draws_in(path, length)
        return draws, states, TABLEAU, -1, length
    adj = _adjacent_masks(tab_rank, wrap)
    more, max_removed, best_stuck, gc, gr = _sweep(
        next_id, available, removed, peaks, tab_rank, stock_rank, start_rank, adj,
        draw_when_stuck, most_removed, seen, stack, frontier, next_frontier)
    length = _trace(prev_id, available, tab_rank, stock_rank, start_rank, adj, wrap,
                    draw_when_stuck, seen, gc, stock_len, gr, path)
    _clear_layers(seen, _layer_bits(next_id.shape[0]), stock_len)
    return -1, states + more, max_removed, best_stuck, length


# --- the original scoring: run bonuses make the score depend on the path ---------------
#
# Under the original scoring a removal scores one more than the previous removal of
# its run, and a draw ends the run. The removals between two draws are one run, so a
# layer (the play between draw s and draw s+1) that enters at configuration c and
# leaves at c' scores T(removed[c'] - removed[c]) with T(m) = m(m+1)/2, plus the peak
# bonuses it earns, minus 5 for the draw that leaves it. What lies ahead depends only
# on (s, c') — the waste after a draw is the drawn card — so the best total is a
# longest path over layer entries, computed layer by layer from each entry's reach.

NEG = -(1 << 40)
# Cumulative peak bonus after 0, 1, 2, 3 cleared peaks.
_ORIGINAL_BONUS = (0, *[sum(ORIGINAL_PEAK_BONUS[:k]) for k in (1, 2, 3)])


@njit(cache=True)
def _original_bonus(peaks_cleared):
    return _ORIGINAL_BONUS[peaks_cleared]


@njit(cache=True)
def _layer_reach(next_id, available, full_id, tab_rank, adj, draw_when_stuck, c0, r0,
                 layer_seen, reach, parent, target_c, target_r):
    """Breadth-first over removals within one layer from (c0, r0).

    Fills ``reach`` with the states ((c << SHIFT | r)) reached and ``parent`` with the
    index of each one's predecessor. Stops early at (target_c, target_r) (target_r -1:
    any rank that may leave the layer by a draw; target_c -1: no target). Returns
    (count, index of the target or -1). Clears ``layer_seen`` before returning.
    """
    reach[0] = c0 << SHIFT | r0
    parent[0] = -1
    _test_and_set(layer_seen, reach[0])
    n = 1
    head = 0
    hit = -1
    while head < n:
        c = reach[head] >> SHIFT
        r = reach[head] & 15
        cand = available[c] & adj[r]
        if c == target_c and (r == target_r or (target_r < 0 and not (
                draw_when_stuck and cand != 0))):
            hit = head
            break
        if c != full_id:
            while cand != 0:
                p = _lowest_position(cand)
                cand &= cand - 1
                code = next_id[c, p] << SHIFT | tab_rank[p]
                if not _test_and_set(layer_seen, code):
                    reach[n] = code
                    parent[n] = head
                    n += 1
        head += 1
    for i in range(n):
        layer_seen[reach[i] >> 6] = 0
    return n, hit


@njit(cache=True)
def _original_optimal(next_id, available, removed, peaks, full_id, tab_rank, stock_rank,
                      start_rank, wrap, draw_when_stuck, layer_seen, reach, parent, path):
    """Best final score under the original scoring over complete games (won or stuck).

    Returns (best_score, states, line_length) with the line in ``path``.
    """
    n_cfg = next_id.shape[0]
    stock_len = stock_rank.shape[0]
    adj = _adjacent_masks(tab_rank, wrap)
    value = np.full((stock_len + 1, n_cfg), NEG, dtype=np.int64)
    came_from = np.full((stock_len + 1, n_cfg), -1, dtype=np.int64)
    entries = np.empty(n_cfg, dtype=np.int64)
    value[0, 0] = 0
    best = NEG
    end_s = end_c0 = end_c = end_r = -1
    states = 0
    for s in range(stock_len + 1):
        n_entries = 0
        for c in range(n_cfg):
            if value[s, c] > NEG:
                entries[n_entries] = c
                n_entries += 1
        r0 = start_rank if s == 0 else stock_rank[s - 1]
        for e in range(n_entries):
            c0 = entries[e]
            v0 = value[s, c0] - _original_bonus(peaks[c0])
            n, _ = _layer_reach(next_id, available, full_id, tab_rank, adj, draw_when_stuck,
                                c0, r0, layer_seen, reach, parent, -1, -1)
            states += n
            for i in range(n):
                c = reach[i] >> SHIFT
                r = reach[i] & 15
                m = removed[c] - removed[c0]
                v = v0 + m * (m + 1) // 2 + _original_bonus(peaks[c])
                cand = available[c] & adj[r]
                ends = c == full_id or (s == stock_len and cand == 0)
                if ends:
                    if v > best:
                        best = v
                        end_s, end_c0, end_c, end_r = s, c0, c, r
                elif (s < stock_len and not (draw_when_stuck and cand != 0)
                      and v - ORIGINAL_DRAW_COST > value[s + 1, c]):
                    value[s + 1, c] = v - ORIGINAL_DRAW_COST
                    came_from[s + 1, c] = c0
    # The line, last layer first: within each layer the removals from its entry to its
    # exit, then the draw that led into it.
    length = 0
    s, c0, c_exit, r_exit = end_s, end_c0, end_c, end_r
    while s >= 0:
        r0 = start_rank if s == 0 else stock_rank[s - 1]
        _, hit = _layer_reach(next_id, available, full_id, tab_rank, adj, draw_when_stuck,
                              c0, r0, layer_seen, reach, parent, c_exit, r_exit)
        i = hit
        while parent[i] >= 0:
            # Which position was removed: the one configuration c differs from its parent.
            c = reach[i] >> SHIFT
            pc = reach[parent[i]] >> SHIFT
            for p in range(TABLEAU):
                if next_id[pc, p] == c:
                    path[length] = p
                    break
            length += 1
            i = parent[i]
        if s == 0:
            break
        path[length] = DRAW
        length += 1
        c_exit = c0
        r_exit = -1
        c0 = came_from[s, c0]
        s -= 1
    path[:length] = path[:length][::-1].copy()
    return best, states, length
