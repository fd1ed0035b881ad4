"""Compiled search of a peek's next step (``analysis/peek.py`` builds the inputs;
nothing else calls it). Private: named tuples of plain integer arrays in, an integer out.

A state is ``removed | drawn << 28 | waste << 33``: the removed tableau positions, the
cards drawn, the waste rank (13: wild, the joker's or an empty waste's). The search is
breadth first in taps: the player's line (the base position, then each move played on
it) gives the start states, the one ``u`` moves back costing ``u`` undos; every move
costs one tap. It stops at the cheapest move that turns up a card the player does not
know, ties going to the move that shows more cards, then to the shallower line, then to
the first found (starts in order of undos, moves in order of position, the draw last).

``Known`` — what the player knows, nothing more:
    tableau[p]      rank at position p, -1 when not known
    stock[i]        rank of the i-th stock card, -1 when not known
    first           the place number of stock card 0 (places: 0–27, 28 waste, stock)
    cover[p]        mask of the positions covering p
    covers[p, j]    the positions p covers (-1: none)
``rules`` — the search kernels' ``RuleMasks`` (neighbours, draw_when_stuck).
``Line`` — where the player stands:
    states[i]       state after the base (i = 0) and each move of the line after it
    undo_limit      the deepest a line may go beyond the base (moves)
    back_to_base    start only from the base (undo the whole line first)
    free_undos      count only the moves played, not the undos: every start is met at
                    cost 0 (deepest first), and ties go to the deeper line
``PeekScratch`` — work space, grown by the caller when a search fills it:
    slots           open-addressing table of entry numbers (-1 empty), a power of two
    keys, parent, move, depth  one entry per state met: its state, the entry it
                    came from (-1: a start), the move to it (0–27, 28 draw; a start:
                    -1 - undos), the moves beyond the base
    queue           entries in the order they are expanded
    result          found, parent entry, move, count shown, shown places (2, -1:
                    none), cost, depth: the best reveal so far
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .jit import njit

DRAW = 28
FULL = (1 << 28) - 1
FULL_SEARCH = -1  # the scratch is too small: grow it and search again
NOT_FOUND = 0
FOUND = 1


class Known(NamedTuple):
    tableau: np.ndarray
    stock: np.ndarray
    first: int
    cover: np.ndarray
    covers: np.ndarray


class Line(NamedTuple):
    states: np.ndarray
    undo_limit: int
    back_to_base: bool
    free_undos: bool


class PeekScratch(NamedTuple):
    slots: np.ndarray
    keys: np.ndarray
    parent: np.ndarray
    move: np.ndarray
    depth: np.ndarray
    queue: np.ndarray
    result: np.ndarray


# result's fields
FOUND_AT, PARENT, MOVE, SHOWN, SHOW, COST, DEPTH = 0, 1, 2, 3, 4, 6, 7


def new_scratch(entries: int) -> PeekScratch:
    """Work space for searches meeting up to ``entries`` states."""
    size = 1 << max(4, (2 * entries - 1).bit_length())  # a table at most half full

    def zeros() -> np.ndarray:
        return np.zeros(entries, np.int64)

    return PeekScratch(np.full(size, -1, np.int64), zeros(), zeros(), zeros(), zeros(),
                       zeros(), np.zeros(8, np.int64))


def state_key(removed: int, drawn: int, waste: int) -> int:
    return removed | drawn << 28 | waste << 33


@njit(cache=True)
def _find(scratch, key):
    """The slot of ``key`` in the table, or the empty slot where it would go."""
    mask = len(scratch.slots) - 1
    # fold the 37 key bits into 28 and multiply without overflowing 63 bits (plain
    # Python, NUMBA_DISABLE_JIT=1, warns on a wrapping int64)
    mixed = (key ^ key >> 19 ^ key >> 31) & FULL
    slot = (mixed * 0x9E3779B1 >> 24) & mask
    while True:
        entry = scratch.slots[slot]
        if entry < 0 or scratch.keys[entry] == key:
            return slot
        slot = (slot + 1) & mask


@njit(cache=True)
def _meet(scratch, count, key, parent, move, depth):
    """Entry ``count`` for ``key`` if it is new (the caller checked there is room):
    whether it was new."""
    slot = _find(scratch, key)
    if scratch.slots[slot] >= 0:
        return False
    scratch.slots[slot] = count
    scratch.keys[count] = key
    scratch.parent[count] = parent
    scratch.move[count] = move
    scratch.depth[count] = depth
    return True


@njit(cache=True)
def _better(result, cost, shown, depth, deeper):
    """Is a reveal at ``cost`` taps showing ``shown`` cards at ``depth`` better than
    the best so far (ties to the shallower line, or the ``deeper``)? Then it becomes
    the best."""
    if result[FOUND_AT] == FOUND and (
            cost > result[COST] or cost == result[COST] and (
                shown < result[SHOWN] or shown == result[SHOWN] and (
                    depth <= result[DEPTH] if deeper else depth >= result[DEPTH]))):
        return False
    result[FOUND_AT] = FOUND
    result[COST] = cost
    result[SHOWN] = shown
    result[DEPTH] = depth
    return True


@njit(cache=True)
def _cheapest_reveal(known, rules, line, scratch):
    """FOUND (``scratch.result`` says what), NOT_FOUND, or FULL_SEARCH."""
    scratch.slots[:] = -1
    result = scratch.result
    result[FOUND_AT] = NOT_FOUND
    capacity = len(scratch.keys)
    starts = len(line.states)
    count = 0
    for u in range(starts):  # every start is met before any move, at its own cost
        if line.back_to_base and u < starts - 1:
            continue
        if count == capacity:
            return FULL_SEARCH
        if _meet(scratch, count, line.states[starts - 1 - u], -1, -1 - u, starts - 1 - u):
            count += 1
    start_count = count
    next_start = 0
    head = 0
    tail = 0
    cost = 0
    if line.free_undos:  # every start at cost 0, the deepest first
        for entry in range(start_count):
            scratch.queue[tail] = entry
            tail += 1
        next_start = start_count
    elif start_count and scratch.move[0] == -1:  # no undo: the first of level 0
        scratch.queue[tail] = 0
        tail += 1
        next_start = 1
    while head < tail or next_start < start_count:
        if result[FOUND_AT] == FOUND and result[COST] <= cost:
            break
        level_end = tail
        # the start one more undo away goes first in the next level, before the moves
        # this level leads to
        if next_start < start_count and -1 - scratch.move[next_start] == cost + 1:
            scratch.queue[tail] = next_start
            tail += 1
            next_start += 1
        while head < level_end:
            entry = scratch.queue[head]
            head += 1
            key = scratch.keys[entry]
            removed = key & FULL
            drawn = key >> 28 & 31
            depth = scratch.depth[entry]
            if depth >= line.undo_limit or removed == FULL:
                continue
            near = rules.neighbours[key >> 33]
            can_remove = False
            for p in range(28):
                rank = known.tableau[p]
                if removed >> p & 1 or removed & known.cover[p] != known.cover[p] \
                        or rank < 0 or not near >> rank & 1:
                    continue
                can_remove = True
                after = removed | 1 << p
                shown = 0
                first_shown = -1
                second_shown = -1
                for j in range(2):
                    q = known.covers[p, j]
                    if q >= 0 and after & known.cover[q] == known.cover[q] \
                            and known.tableau[q] < 0:
                        shown += 1
                        if shown == 1:
                            first_shown = q
                        else:
                            second_shown = q
                if shown:
                    if _better(result, cost + 1, shown, depth + 1, line.free_undos):
                        result[PARENT] = entry
                        result[MOVE] = p
                        result[SHOW] = first_shown
                        result[SHOW + 1] = second_shown
                    continue
                if count == capacity:
                    return FULL_SEARCH
                if _meet(scratch, count, after | drawn << 28 | rank << 33, entry, p,
                         depth + 1):
                    scratch.queue[tail] = count
                    tail += 1
                    count += 1
            if drawn >= len(known.stock) or rules.draw_when_stuck and can_remove:
                continue
            rank = known.stock[drawn]
            if rank < 0:
                if _better(result, cost + 1, 1, depth + 1, line.free_undos):
                    result[PARENT] = entry
                    result[MOVE] = DRAW
                    result[SHOW] = known.first + drawn
                    result[SHOW + 1] = -1
                continue
            if count == capacity:
                return FULL_SEARCH
            if _meet(scratch, count, removed | (drawn + 1) << 28 | rank << 33, entry, DRAW,
                     depth + 1):
                scratch.queue[tail] = count
                tail += 1
                count += 1
        cost += 1
    return result[FOUND_AT]
