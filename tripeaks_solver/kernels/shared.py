"""Compiled search kernels: what every search shares. Private: a few named tuples of
plain integer arrays in, integers out. The solver (``solver/solve.py``) builds the
tuples; the completions' and the peek's kernels call the searches too. The searches:

``win.py``       the depth-first search for a win, pruned (``_dfs``, ``_search``)
``sweep.py``     every state reachable, layer by layer, and the line back (``_trace``)
``optimum.py``   the optimum of the app and cards-left schemes (``_optimal``)
``original.py``  the optimum of the original scoring (``_original_optimal``)
``pysol.py``     the optimum of PySolFC's scoring (``_pysol_optimal``)

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
``RuleMasks`` — what a rule set decides (``model/rules.py``), as the solver builds it:
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

from typing import NamedTuple

import numba
import numpy as np
from llvmlite import ir
from llvmlite.binding import llvm_version_info
from numba.core import cgutils, types
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros
from numba.extending import intrinsic

from ..model.geometry import TABLEAU_SIZE as TABLEAU
from ..model.scoring import MOVE_COST, PEAK_BONUS, START_SCORE
from .jit import njit

RANKS = 14  # 13 card ranks + the wild rank
ALL_RANKS = (1 << RANKS) - 1
SHIFT = 4  # a state's (config, rank) code is config << SHIFT | rank: no division to decode
DRAW = TABLEAU
MAX_DEPTH = 64  # a line: at most 28 removals + 25 draws (joker, empty waste), + the start
NO_END = -1000  # Board.beyond where no stuck end lies ahead: below any score part


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
# numba.config sets its options at import, from the environment: its types lack them.
if numba.config.DISABLE_JIT:  # type: ignore[attr-defined]
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


# A hint to bring array[index] (a 2-D array's row) into cache before it is read: the
# PySolFC search reads its tables at random and waits on memory (docs/design.md). It
# changes nothing but the time; as plain Python it does nothing.
# LLVM names the intrinsic after its pointer type: opaque from LLVM 15 on (numba ≥ 0.61).
PREFETCH = "llvm.prefetch.p0" if llvm_version_info[0] >= 15 else "llvm.prefetch.p0i8"
if numba.config.DISABLE_JIT:  # type: ignore[attr-defined]
    def _prefetch(array, index):
        pass
else:
    @intrinsic
    def _prefetch(typingctx, array, index):
        def codegen(context, builder, signature, args):
            array_type = signature.args[0]
            view = context.make_array(array_type)(context, builder, args[0])
            at = [args[1]] + [context.get_constant(types.intp, 0)] * (array_type.ndim - 1)
            item = cgutils.get_item_pointer(context, builder, array_type, view, at,
                                            wraparound=False)
            byte_pointer = ir.IntType(8).as_pointer()
            hint = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(ir.VoidType(), [byte_pointer] + [ir.IntType(32)] * 3),
                PREFETCH)
            i32 = ir.IntType(32)  # a read, kept in every cache level, of data
            builder.call(hint, [builder.bitcast(item, byte_pointer), i32(0), i32(3), i32(1)])
            return context.get_dummy_value()
        return types.void(array, index), codegen


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


# --- lines ------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def _reverse(path, n):
    # In place, element by element, like every array copy in the kernels: assigning
    # one array to a slice of another makes numba compile its shape-error message
    # formatting, seconds of compile time in every cold start.
    for i in range(n // 2):
        path[i], path[n - 1 - i] = path[n - 1 - i], path[i]


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
