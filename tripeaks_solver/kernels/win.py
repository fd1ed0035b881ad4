"""Compiled search for a win: depth-first from a position, pruned by Hall's condition
and by dominance (proved sound below), restarting in the other order when a try runs
long. ``shared.py`` documents the inputs.
"""

from __future__ import annotations

import warnings

import numba
import numpy as np

from ..model.geometry import TABLEAU_SIZE as TABLEAU
from .jit import njit
from .shared import (
    DRAW,
    MAX_DEPTH,
    RANKS,
    RankTables,
    WinSearch,
    _clear_layers,
    _code,
    _highest_position,
    _layer_bits,
    _lowest_layer,
    _lowest_position,
    _may_draw,
    _new_generation,
    _positions_on,
    _test_and_set,
    _unmark_line,
    _visit,
)

DRAW_BIT = 1 << 32  # the draw, in a frame's bits of moves still to try
NO_LIMIT = 1 << 62
RESTART_BUDGET = 1_000  # states before the first restart; see _search (300 and 5,000: no better)

# numba.config sets its options at import, from the environment: its types lack them.
if numba.config.DISABLE_JIT:  # type: ignore[attr-defined]
    # The Hall lanes wrap modulo 2^64 by design (_shift_rank); compiled code wraps
    # silently, numpy's scalars warn.
    warnings.filterwarnings("ignore", "overflow encountered in scalar", RuntimeWarning,
                            module=__name__)


# --- the depth-first search for a win -------------------------------------------------
#
# Pruning (sound): every removal happens right after a waste top of a rank adjacent to
# the removed card, and every waste top (the current one, a stock card still to be
# drawn within the draw limit, a tableau card still to be removed) is followed by at
# most one removal. So the removals still needed for a win are matched to distinct
# tops adjacent to them, and by Hall's condition no win lies ahead of a state where,
# for some set S of ranks,
#     cards of a rank in S left  >  tableau cards left of a rank adjacent to S
#                                   + stock cards still to draw of a rank adjacent to S
#                                   + (1 if the current waste is adjacent to S),
# "adjacent to S" meaning adjacent to some rank in S. The search tests the sets S of
# ``_hall_sets``: each single rank, and the runs {a, a+2, …} of up to HALL_RUN ranks
# (on the ranks' cycle their neighbourhoods overlap: {a, a+2} has 3 neighbour ranks
# against 4 for the two singles). It keeps the tableau part of the difference (the
# slack: tableau cards left adjacent to S less the cards left in S) of every set up to
# date along its path.
#
# Only the sets adjacent to the waste a move replaces need a test after the move: a
# removal of a card of rank j takes one top adjacent to S from the tableau exactly
# when it gives S an adjacent waste (j is the new waste), and a draw takes one from
# the stock exactly when it does the same; what S can lose beyond that is the old
# waste's adjacency, and a removal only lowers the left-hand side.
#
# Dominance (sound): the waste rank of a state matters only through the cards it lets
# the next move play. A state (c, s, r) whose playable cards are a subset of those of
# (c, s, r'), which may draw when it may, has only successors of (c, s, r'). When
# (c, s, r') is marked it has been searched to the end without a win (it cannot be on
# the current line: every move changes c or s), so (c, s, r) is marked and skipped
# (``_visit``). Most of the states it skips can only draw, into a state already seen.
#
# Dominance across layers (sound when a draw is always allowed while the stock lasts,
# i.e. not under draw-when-stuck): a state (c, s, r) has no win within the draw limit
# when (c, s', r) with s' < s has none. The removals of any line from (c, s, r) up to
# its first draw can be made from (c, s', r) (the same waste ranks, the same cards
# playable); where the line then draws stock card s, the other draws the s - s' + 1
# cards s', …, s in a row, and both stand on the same state with the same draws. So
# when the search enters (c, s, r) by a removal and this search marked (c, s', r)
# before (``low``), it is skipped: (c, s', r) cannot be on the current line (every
# state of the line before a removal into c has fewer cards removed), so it was
# searched to the end, or pruned, without a win. The sweep skips such states in the
# same way below its last layer: it has met (c, s', r), hence every configuration and
# every later state the skipped state leads to (the stuck ends, on the last layer,
# come after a draw). So below its last layer it makes the removals of each (c, r)
# once, at the lowest layer where it meets it (see ``_sweep``).

HALL_RUN = 3


@njit(cache=True)
def _hall_sets(rules):
    """``demand[i]``, ``supply[i]``: the rank mask of set i and of the ranks adjacent
    to it; the single ranks 0–13 first, then the runs {a, a+2, …} (mod 13)."""
    n_sets = RANKS + 13 * (HALL_RUN - 1)
    demand = np.zeros(n_sets, dtype=np.int64)
    supply = np.zeros(n_sets, dtype=np.int64)
    for k in range(RANKS):
        demand[k] = np.int64(1) << k
    i = RANKS
    for m in range(2, HALL_RUN + 1):
        for a in range(13):
            for j in range(m):
                demand[i] |= np.int64(1) << ((a + 2 * j) % 13)
            i += 1
    for i in range(n_sets):
        for k in range(RANKS):
            if (demand[i] >> k) & 1:
                supply[i] |= rules.neighbours[k]
    return demand, supply


# The slack of every set is kept in 8-bit lanes of a few 64-bit words, biased by
# LANE_BIAS, so that one integer addition updates eight sets (no lane ever leaves
# 0…127: a slack is at least -12 and at most 28, stock counts at most 25) and a set
# is short exactly when bit 6 of its lane sum (slack + stock + waste) is clear.
LANE_BIAS = 64
WORDS = 5  # 8 lanes a word; the 40 sets of _hall_sets


@njit(cache=True)
def _rank_tables(cards, rules, max_draws):
    """The sets of ``_hall_sets`` as lane words (lane i of word i // 8 is set i):
    ``supply[k]``: 1 in the lanes of the sets whose supply holds rank k; ``change[k]``:
    what a removal of rank k adds to the slacks, 1 in the lanes of the sets that hold
    rank k less ``supply[k]`` (modulo 2^64, see _shift_rank); ``stock[s]``: in lane i, how
    many of stock[s:max_draws] have a rank in set i's supply; ``start``: LANE_BIAS in
    every set's lane; ``tests[k]``: bit 6 of the lanes of the sets whose supply holds
    rank k, and ``tests[RANKS]`` of every set's lane (the first test, at the start)."""
    demand_of, supply_of = _hall_sets(rules)
    change = np.zeros((RANKS, WORDS), dtype=np.uint64)
    supply = np.zeros((RANKS, WORDS), dtype=np.uint64)
    start = np.zeros(WORDS, dtype=np.uint64)
    for i in range(demand_of.shape[0]):
        one = np.uint64(1) << np.uint64(8 * (i % 8))
        start[i // 8] += np.uint64(LANE_BIAS) * one
        for k in range(RANKS):
            if (demand_of[i] >> k) & 1:
                change[k, i // 8] += one
            if (supply_of[i] >> k) & 1:
                supply[k, i // 8] += one
                change[k, i // 8] -= one  # wraps: see _shift_rank
    n = cards.stock.shape[0]
    stock = np.zeros((n + 1, WORDS), dtype=np.uint64)
    for s in range(min(max_draws, n) - 1, -1, -1):
        for w in range(WORDS):
            stock[s, w] = stock[s + 1, w] + supply[np.int64(cards.stock[s]), w]
    # Element by element (see _reverse).
    tests = np.zeros((RANKS + 1, WORDS), dtype=np.uint64)
    for w in range(WORDS):
        for k in range(RANKS):
            tests[k, w] = supply[k, w] << np.uint64(6)
        tests[RANKS, w] = start[w]  # LANE_BIAS is bit 6
    return RankTables(change, supply, stock, start, tests)


@njit(cache=True, inline="always")
def _shift_rank(slack, change, rank, removed):
    # A tableau card of `rank` leaves (removed) or comes back when the search backs up.
    # ``change`` is demand - supply modulo 2^64: adding it gives the same word as adding
    # the demand and subtracting the supply, and every lane of the result lies within
    # 0…127, so the lanes come out right.
    if removed:
        for w in range(WORDS):
            slack[w] = slack[w] + change[rank, w]
    else:
        for w in range(WORDS):
            slack[w] = slack[w] - change[rank, w]


@njit(cache=True)
def _count_sets(board, cards, tables, config, slack):
    """``slack``: per set, LANE_BIAS + tableau cards left adjacent to it - cards left in it."""
    for w in range(WORDS):
        slack[w] = tables.start[w]
    mask = board.mask[config]
    for p in range(TABLEAU):
        if not (mask >> p) & 1:
            _shift_rank(slack, tables.change, np.int64(cards.tableau[p]), False)


@njit(cache=True, inline="always")
def _short_of_tops(slack, tables, s, waste, row):
    # The test above, for the sets whose lanes have bit 6 in tables.tests[row].
    short = np.uint64(0)
    for w in range(WORDS):
        short |= (~(slack[w] + tables.stock[s, w] + tables.supply[waste, w])
                  & tables.tests[row, w])
    return short != 0


@njit(cache=True)
def _no_win_ahead(board, cards, rules, max_draws):
    """The pruning test of the search on the start state of ``cards`` (tests compare it
    with a plain-Python statement of it)."""
    tables = _rank_tables(cards, rules, max_draws)
    slack = np.empty(WORDS, dtype=np.uint64)
    _count_sets(board, cards, tables, cards.config, slack)
    return _short_of_tops(slack, tables, cards.drawn, cards.waste, RANKS)


@njit(cache=True)
def _dfs(board, cards, rules, max_draws, scratch, path):
    """Depth-first search from the start position for a win: all 28 removed with the
    stock index at most ``max_draws``. Removals are tried before the draw.

    Returns (found, line_length, states) with the line in ``path``; the search is
    exhaustive when nothing is found.
    """
    return _search(board, cards, rules, WinSearch(max_draws, NO_LIMIT, False, False),
                   scratch, path)[:3]


@njit(cache=True)
def _search(board, cards, rules, search, scratch, path):
    """:func:`_dfs` as ``search`` (a WinSearch) says; with ``search.keep`` the states it
    marked stay marked in ``seen`` (see :func:`_optimal`), and a state marked before the
    call counts as already visited.

    Tries the removals highest position first (lowest with ``search.low_first``); after
    RESTART_BUDGET states it starts again in the other order, and so on, doubling the
    budget each time, and keeps the marks of the tries it gave up but those of their
    open lines (every other one is a lost state, docs/design.md). Gives up after
    ``search.limit`` states in all; the fourth result says whether it did. The open line
    of that last try stays marked then, and it is not known to be lost: a caller that
    gives up must clear ``seen`` (``_optimal`` does)."""
    states = 0
    budget = RESTART_BUDGET
    low_first = search.low_first
    deepest = cards.drawn
    while True:
        found, length, more, gave_up, last = _ordered_search(
            board, cards, rules,
            WinSearch(search.max_draws, min(budget, search.limit - states), True, low_first),
            scratch, path)
        states += more
        deepest = max(deepest, last)
        if not gave_up or states >= search.limit:
            break
        # The states of the open line are not known to be lost: unmark them. Every
        # other mark is a lost state, so the next try (in the other order) skips them.
        _unmark_line(board, cards, scratch, path, length)
        budget *= 2
        low_first = not low_first
    if not search.keep:
        _clear_layers(scratch.seen, _layer_bits(board.next_id.shape[0]), cards.drawn, deepest)
    return found, length if found else 0, states, gave_up


@njit(cache=True)
def _ordered_search(board, cards, rules, search, scratch, path):
    """One try of the search of :func:`_search`: marks kept (whatever ``search.keep``),
    removals tried lowest position first with ``search.low_first``, else highest.
    Returns (found, depth, states, gave_up, deepest layer touched) with the line (or,
    when it gave up, the open line) in ``path[:depth]``."""
    seen = scratch.seen
    layer = _layer_bits(board.next_id.shape[0])
    max_draws = search.max_draws
    limit = search.limit
    low_first = search.low_first
    fits = _positions_on(cards, rules)
    tables = _rank_tables(cards, rules, max_draws)
    change = tables.change
    slack = np.empty(WORDS, dtype=np.uint64)
    _count_sets(board, cards, tables, cards.config, slack)
    # Frame d holds the state at depth d, packed as config | drawn << 16 | waste << 24,
    # and what is still to try from it: the removals' bits, and DRAW_BIT for the draw
    # (two arrays instead of five: the loop then keeps more in registers). path[d] is
    # the move that led from frame d to frame d + 1. Invariant: slack counts
    # the tableau after the removals in path[:depth].
    at_state = np.empty(MAX_DEPTH, dtype=np.int64)
    untried = np.empty(MAX_DEPTH, dtype=np.int64)

    states = 0
    found = False
    gave_up = False
    depth = 0
    c = np.int64(cards.config)
    s = np.int64(cards.drawn)
    r = np.int64(cards.waste)
    deepest = s
    _test_and_set(seen, s * layer + _code(c, r))
    low = scratch.low
    generation = _new_generation(scratch)
    low[_code(c, r)] = generation << 5 | s
    across_layers = not rules.draw_when_stuck
    while True:
        # Enter the frame of state (c, s, r) at `depth`.
        states += 1
        if c == board.full_id:
            found = True
            break
        if states > limit:
            gave_up = True
            break
        at_state[depth] = c | s << 16 | r << 24
        # Only the sets adjacent to the replaced waste can fail now (see above).
        old = RANKS if depth == 0 else at_state[depth - 1] >> 24
        if _short_of_tops(slack, tables, s, r, old):
            untried[depth] = 0
        else:
            cand = board.available[c] & fits[r]
            untried[depth] = cand | (DRAW_BIT if s < max_draws and _may_draw(rules, cand)
                                     else 0)
        # Advance to the next unexplored child, popping exhausted frames.
        while depth >= 0:
            bits = untried[depth]
            if bits != 0:
                pc = at_state[depth] & 0xFFFF
                ps = (at_state[depth] >> 16) & 0xFF
                if bits != DRAW_BIT:
                    # Bottom row first (highest positions): the first win comes sooner
                    # (docs/design.md); the other way round on every other restart.
                    removals = bits & ~DRAW_BIT
                    p = _lowest_position(removals) if low_first else _highest_position(removals)
                    untried[depth] = bits & ~(np.int64(1) << p)
                    c = np.int64(board.next_id[pc, p])
                    s = ps
                    r = np.int64(cards.tableau[p])
                    move = p
                else:
                    untried[depth] = 0
                    c = pc
                    s = ps + 1
                    r = np.int64(cards.stock[ps])
                    move = DRAW
                    deepest = max(deepest, s)
            else:
                depth -= 1
                if depth >= 0 and path[depth] != DRAW:  # undo the removal that led here
                    _shift_rank(slack, change, np.int64(cards.tableau[path[depth]]), False)
                continue
            code = _code(c, r)
            index = s * layer + code
            if _visit(seen, index, r, np.int64(board.available[c]), fits, rules):
                lowest = _lowest_layer(low, generation, code)
                if s < lowest:
                    low[code] = generation << 5 | s
                elif lowest < s and move != DRAW and across_layers:
                    continue  # dominated by (c, lowest, r), see above
                path[depth] = move
                if move != DRAW:
                    _shift_rank(slack, change, r, True)
                depth += 1
                break
        if depth < 0:
            break
    return found, depth, states, gave_up, deepest
