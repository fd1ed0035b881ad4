"""Compiled search kernels. Private: a few named tuples of plain integer arrays in,
integers out. The solver (solver.py) builds the tuples; nothing else calls these.

A search state is (configuration id, stock index, waste rank). The stock index is the
number of cards drawn so far, so it is also the draw count of every line reaching the
state. Every search starts from a position given in ``Cards`` (configuration, cards
drawn, waste rank, run in progress): solving a deal is solving its opening position.

States index a dense bitset ``seen`` laid out layer by layer: bit
``stock_index * layer_bits + (config << SHIFT | rank)``. A layer (one stock index) is a
contiguous block of about 46 KB, so a search works in cache, and a kernel clears the
layers it touched before it returns: ``seen`` is all zero between calls.

Rank 13 is the wild rank: the joker's, and an empty waste's (it takes any card).
Moves are encoded as tableau positions 0–27, or ``DRAW`` for a draw.

The inputs, each field documented once:

``Board`` — the geometry tables, the same for every deal (``geometry.configurations``):
    next_id[c, p]   configuration after removing position p from c (-1: p not playable)
    prev_id[c, p]   configuration from which removing p leads to c (-1: none)
    available[c]    mask of the playable (uncovered, present) positions of c
    removed[c]      cards removed in c
    peaks[c]        peaks cleared in c
    mask[c]         the removed positions of c as a 28-bit mask
    full_id         the configuration with all 28 cards removed
    beyond[c]       the best PEAK_BONUS × peaks − MOVE_COST × removed of the
                    configurations that removals from c lead to, c and the full one
                    left out (NO_END when there are none): a bound on the stuck ends
                    ahead (``_sweep``)
``Cards`` — the deal as ranks, and the position a search starts from:
    tableau[p]      rank of position p (0 = A … 12 = K, 13 = the joker)
    stock[i]        rank of the i-th stock card, in draw order
    config          the start configuration
    drawn           cards drawn from the stock so far (the start stock index)
    waste           the start waste rank (13 for an empty waste)
    run             removals since the last draw (the original scoring's run)
``RuleMasks`` — what a rule set decides, built by ``rules.py`` in the solver:
    neighbours[k]   mask of the ranks adjacent to rank k (K–A wrap, the wild rank)
    draw_when_stuck drawing only when no card can be removed
    open            every card face up (what the players' kernels show; a search sees
                    every card anyway)
    must_clear      only a won game counts: the score search (``_original_optimal``)
                    takes no stuck end (``--must-clear``; the others ignore it, their
                    optimum being a win whenever one is left)
``Scratch`` — work space reused from deal to deal (about 10 MB):
    seen            the layer-major state bitset
    low, generation the lowest layer at which each (config << SHIFT | rank) code was
                    marked by the current search (``_lowest_layer``)
    layer_seen      a bitset of (config << SHIFT | rank) codes: one layer's, or the
                    codes the sweep met on any layer
    stack, parent   one entry per (config, rank) code
    met             the configurations the sweep met, in order (one entry per configuration)
    pending         the sweep's lists of the configurations entering each layer by a
                    draw (one list per layer, one entry per configuration)
    trial           a second line buffer
``WinSearch`` — what a win search (``_search``) looks for, and how:
    max_draws       a win with the stock index at most this
    limit           give up after this many states (NO_LIMIT: never)
    keep            leave the states it marked marked in ``seen`` (see ``_optimal``)
    low_first       try the removals lowest position first (else highest; restarts
                    alternate)
``Goal`` — what the optimum (``_optimal``) ranks, and what is known of it:
    most_removed    rank the stuck ends by cards removed (cards-left), not app score
    floor           no win has fewer draws (0: nothing known; NO_WIN: no win is left)
``RankTables`` — the Hall test's lane words for one deal and draw limit (``_rank_tables``)
``LayerWalk`` — a walk over the removals within one layer (``_layer_reach``):
    config, rank    the configuration and waste rank it starts from
    target_config   stop there (-1: no target) …
    target_rank     … with this waste rank (-1: any rank that may leave by a draw)
"""

from __future__ import annotations

import warnings
from typing import NamedTuple

import numba
import numpy as np
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from ..model.geometry import TABLEAU_SIZE as TABLEAU
from ..model.scoring import (
    MOVE_COST,
    ORIGINAL_BONUS_AFTER,
    ORIGINAL_DRAW_COST,
    PEAK_BONUS,
    START_SCORE,
)
from .jit import njit

RANKS = 14  # 13 card ranks + the wild rank
ALL_RANKS = (1 << RANKS) - 1
SHIFT = 4  # a state's (config, rank) code is config << SHIFT | rank: no division to decode
DRAW = TABLEAU
DRAW_BIT = 1 << 32  # the draw, in a frame's bits of moves still to try
MAX_DEPTH = 64  # a line: at most 28 removals + 25 draws (joker, empty waste), + the start
NEG = -(1 << 40)
NO_LIMIT = 1 << 62
NO_END = -1000  # Board.beyond where no stuck end lies ahead: below any score part
NO_WIN = -1  # _optimal's floor when no win is left (known from rules with more moves)
RESTART_BUDGET = 1_000  # states before the first restart; see _search (300 and 5,000: no better)
FIRST_SEARCH_LIMIT = 20_000  # states; see _optimal (5_000 to 50_000 measured no better)


class Board(NamedTuple):
    next_id: np.ndarray
    prev_id: np.ndarray
    available: np.ndarray
    removed: np.ndarray
    peaks: np.ndarray
    mask: np.ndarray
    full_id: int
    beyond: np.ndarray


class Cards(NamedTuple):
    tableau: np.ndarray
    stock: np.ndarray
    config: int
    drawn: int
    waste: int
    run: int


class RuleMasks(NamedTuple):
    neighbours: np.ndarray
    draw_when_stuck: bool
    open: bool
    must_clear: bool = False


class Scratch(NamedTuple):
    seen: np.ndarray
    layer_seen: np.ndarray
    stack: np.ndarray
    parent: np.ndarray
    met: np.ndarray
    pending: np.ndarray
    trial: np.ndarray
    low: np.ndarray
    generation: np.ndarray


class WinSearch(NamedTuple):
    max_draws: int
    limit: int
    keep: bool
    low_first: bool


class Goal(NamedTuple):
    most_removed: bool
    floor: int


class RankTables(NamedTuple):
    change: np.ndarray
    supply: np.ndarray
    stock: np.ndarray
    start: np.ndarray
    tests: np.ndarray


class LayerWalk(NamedTuple):
    config: int
    rank: int
    target_config: int
    target_rank: int


# --- small helpers ----------------------------------------------------------------------
# Table reads go through np.int64(...): the tables are narrow (int16, int32) to stay in
# cache, and arithmetic on a narrow value would overflow when the kernels run as plain
# Python (NUMBA_DISABLE_JIT=1).

# The index of the lowest (highest) set bit of a non-zero mask. Compiled, each is one
# instruction (count trailing / leading zeros): with a de Bruijn multiply and table
# lookup the kernels took 9-20% longer (docs/design.md). numba's intrinsics do not run
# as plain Python, so with NUMBA_DISABLE_JIT=1 Python's bit_length stands in.
if numba.config.DISABLE_JIT:
    # The Hall lanes wrap modulo 2^64 by design (_shift_rank); compiled code wraps
    # silently, numpy's scalars warn.
    warnings.filterwarnings("ignore", "overflow encountered in scalar", RuntimeWarning,
                            module=__name__)

    def _lowest_position(bits):
        return (int(bits) & -int(bits)).bit_length() - 1

    def _highest_position(bits):
        return int(bits).bit_length() - 1
else:
    @njit(cache=True, inline="always")
    def _lowest_position(bits):
        return np.int64(trailing_zeros(np.int64(bits)))

    @njit(cache=True, inline="always")
    def _highest_position(bits):
        return 63 - np.int64(leading_zeros(np.int64(bits)))


@njit(cache=True, inline="always")
def _may_draw(rules, can_remove):
    # The one place the kernels decide whether a draw is allowed (the stock aside).
    return not (rules.draw_when_stuck and can_remove != 0)


@njit(cache=True, inline="always")
def _code(config, rank):
    return np.int64(config) << SHIFT | rank


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
def _visit(seen, index, rank, avail, fits, rules):
    # Mark state `index`; True when it was new and no other waste rank already marked
    # with the same configuration and stock index dominates it: plays a superset of its
    # cards (and may draw when it may).
    word = index >> 6
    bit = np.uint64(1) << np.uint64(index & 63)
    old = seen[word]
    if old & bit:
        return False
    seen[word] = old | bit
    group = np.int64((old >> np.uint64(index & 48)) & np.uint64(0x3FFF))
    if group == 0:
        return True
    cand = avail & fits[rank]
    while group != 0:
        other = _lowest_position(group)
        group &= group - 1
        more = avail & fits[other]
        if cand & ~more == 0 and (not rules.draw_when_stuck or cand != 0 or more == 0):
            return False
    return True


# ``low[code]`` holds GENERATIONS stamp << 5 | layer: the lowest layer (stock index, at
# most 25) at which the current search marked a state with that (config, rank) code.
# Each search try takes a new stamp, so older entries read as unknown without clearing
# 370 KB per call; every GENERATIONS - 1 calls it is cleared.
GENERATIONS = 8
NO_LAYER = 1 << 10


@njit(cache=True)
def _new_generation(scratch):
    generation = scratch.generation[0] + 1
    if generation == GENERATIONS:
        scratch.low[:] = 0
        generation = 1
    scratch.generation[0] = generation
    return generation


@njit(cache=True, inline="always")
def _lowest_layer(low, generation, code):
    # The lowest layer where this generation marked a state of `code`, or NO_LAYER.
    entry = np.int64(low[code])
    return entry & 31 if entry >> 5 == generation else NO_LAYER


@njit(cache=True)
def _layer_bits(n_configs):
    return ((n_configs << SHIFT) + 63) // 64 * 64


@njit(cache=True)
def _clear_layers(seen, layer_bits, first_layer, last_layer):
    # Leave the workspace as the next call expects it: all zero.
    seen[first_layer * layer_bits // 64: (last_layer + 1) * layer_bits // 64] = 0


@njit(cache=True)
def _positions_on(cards, rules):
    """``fits[w]``: mask of the tableau positions whose card may go on a waste of rank w."""
    fits = np.zeros(RANKS, dtype=np.int64)
    for w in range(RANKS):
        for p in range(TABLEAU):
            if (rules.neighbours[w] >> cards.tableau[p]) & 1:
                fits[w] |= np.int64(1) << p
    return fits


@njit(cache=True)
def _app_score(removed, peaks, draws):
    return START_SCORE - MOVE_COST * (removed + draws) + PEAK_BONUS * peaks


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
    dominated across layers (see above: what they lead to is met anyway).

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


@njit(cache=True, inline="always")
def _reverse(path, n):
    # In place, element by element, like every array copy in the kernels: assigning
    # one array to a slice of another makes numba compile its shape-error message
    # formatting, seconds of compile time in every cold start.
    for i in range(n // 2):
        path[i], path[n - 1 - i] = path[n - 1 - i], path[i]


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


# --- the optimum ----------------------------------------------------------------------

@njit(cache=True)
def _draws_in(path, length):
    n = 0
    for i in range(length):
        if path[i] == DRAW:
            n += 1
    return n


@njit(cache=True)
def _unmark_line(board, cards, scratch, path, length):
    # Clear the marks of the states along a line from the start (see _optimal).
    layer = _layer_bits(board.next_id.shape[0])
    c = np.int64(cards.config)
    s = np.int64(cards.drawn)
    r = np.int64(cards.waste)
    for i in range(length + 1):
        code = _code(c, r)
        index = s * layer + code
        scratch.seen[index >> 6] &= ~(np.uint64(1) << np.uint64(index & 63))
        if _lowest_layer(scratch.low, scratch.generation[0], code) == s:
            scratch.low[code] = 0  # unknown again: `low` names marked states only
        if i == length:
            break
        if path[i] == DRAW:
            r = np.int64(cards.stock[s])
            s += 1
        else:
            r = np.int64(cards.tableau[path[i]])
            c = np.int64(board.next_id[c, path[i]])


@njit(cache=True)
def _optimal(board, cards, rules, goal, scratch, path):
    """Exact optimum from the start position and a line to it. Returns (min_draws,
    states, max_removed, best_stuck_key, line_length); min_draws counts every draw of
    the game (those made before the start too) and is -1 when no win is left. The best
    stuck end is the one with the best app score, or with ``goal.most_removed`` the one
    with the most cards removed. Leaves ``seen`` zero.

    A win scores 772 − draws, so when a win is left the optimum is the win with the
    fewest draws: search again for a win with fewer draws than the last one found,
    until a search proves (exhaustively) that there is none. When none is left the
    unpruned sweep visits every reachable state, for the exact best stuck end.

    ``goal.floor``, known from elsewhere (the solver's ``looser``; 0 when nothing is known):
    no win has fewer draws, so the chain stops at a win with that many, unproved;
    NO_WIN: no win is left, so the sweep comes at once.

    The searches of the chain share their marks (sound): when a search with draw
    limit B finds a win, every state it marked other than those of the winning line
    has no win with at most B draws ahead of it — it was pruned by the test, whose
    bound only tightens as B falls, or dominated (on its layer or across layers) by
    such a state, or its frame was exhausted, all its successors being such states
    (the state graph has no cycle, so a successor is never an open frame of the
    line), or it was left by a try of the
    search that gave up and restarted (its open line was unmarked). The next search,
    with a limit below B, may therefore treat them as visited; only the line's own
    states are unmarked before it.

    The first search gives up after FIRST_SEARCH_LIMIT states. It finds a win within
    that in about nine won deals in ten, and a position that takes longer is often
    lost, when the sweep is needed anyway; so the sweep takes over at once. It changes
    no answer: the sweep goes layer by layer in order of draws, so the first win it
    meets (where it stops) has the fewest draws. On deals 0–999 this saves about a
    quarter of the lost deals' work and costs about as much as it saves on the won
    deals it takes over.
    """
    stock_len = cards.stock.shape[0]
    layer = _layer_bits(board.next_id.shape[0])
    most_removed = goal.most_removed
    floor = goal.floor
    if floor == NO_WIN:
        found, length, states, gave_up = False, 0, 0, False
    else:
        found, length, states, gave_up = _search(
            board, cards, rules, WinSearch(stock_len, FIRST_SEARCH_LIMIT, True, False),
            scratch, path)
    if gave_up:
        # Likely lost: the sweep is needed then and settles a win as well.
        _clear_layers(scratch.seen, layer, cards.drawn, stock_len)
        more, max_removed, best_stuck, gc, gr, won_at = _sweep(board, cards, rules,
                                                               most_removed, scratch, True)
        goal_s = stock_len if won_at < 0 else won_at
        length = _trace(board, cards, rules, scratch, (gc, goal_s, gr), path)
        _clear_layers(scratch.seen, layer, cards.drawn, stock_len)
        return won_at, states + more, max_removed, best_stuck, length
    if found:
        trial = scratch.trial
        draws = cards.drawn + _draws_in(path, length)
        while draws > max(cards.drawn, floor):
            _unmark_line(board, cards, scratch, path, length)
            better, n, more, _ = _search(board, cards, rules,
                                         WinSearch(draws - 1, NO_LIMIT, True, False),
                                         scratch, trial)
            states += more
            if not better:
                break
            for i in range(n):
                path[i] = trial[i]
            length = n
            draws = cards.drawn + _draws_in(path, length)
        _clear_layers(scratch.seen, layer, cards.drawn, stock_len)
        return draws, states, TABLEAU, -1, length
    _clear_layers(scratch.seen, layer, cards.drawn, stock_len)
    more, max_removed, best_stuck, gc, gr, _ = _sweep(board, cards, rules, most_removed,
                                                      scratch, False)
    length = _trace(board, cards, rules, scratch, (gc, stock_len, gr), path)
    _clear_layers(scratch.seen, _layer_bits(board.next_id.shape[0]), cards.drawn, stock_len)
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
