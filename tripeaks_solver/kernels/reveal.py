"""Compiled test of a peek line's prospects (``analysis/peek.py`` builds the inputs;
nothing else calls it): in a deal whose every card is given (one sample of the cards a
player has not seen), can some line from a state turn up the cards the player does not
know yet? Private: named tuples of plain integer arrays in, outcomes written out.

A state is ``removed | drawn << 28 | waste << 33`` (as in ``peek.py``): the removed
tableau positions, the cards drawn, the waste rank (13: wild). Every move adds one
removal or one draw, so states never repeat along a line, and ``removed``'s count plus
``drawn`` is the number of moves played since the deal began.

``Goal`` — what counts as turning the cards up, and the search's bounds:
    cover[p]        mask of the positions covering p
    targets[j]      the tableau positions not known (turned up once their covers go)
    stock_count[d]  how many of the first d stock cards are not known
    need            how many of the places not known must turn up
    most_moves      the most moves (removals + draws since the deal began) a line may
                    reach: the undo limit, counted from the peek's start
    cap             the most states one search may enter before it gives up (CAPPED)
``rules`` — the search kernels' ``RuleMasks`` (neighbours, draw_when_stuck).
``Deals`` — the samples, one row each: ``tableau[i, p]`` and ``stock[i, d]`` ranks.
``Ask`` — ``states[k]`` the states to judge; ``out[i, k, m]`` is written for sample i,
    state k and move m (0–27 a removal, 28 the draw): ALIVE, DEAD, CAPPED, or
    ILLEGAL (not a legal move there, or beyond ``most_moves``).
``Table`` — work space: ``stamp``/``keys``/``mark`` an open-addressing table (a power of
    two), ``stack``/``next`` the search's line (64 entries).

The states met while judging one state's moves in one sample share the table: a state
found DEAD stays dead for its siblings (the goal and the sample are the same), so the
outcome of each state does not depend on which others are asked in the same call.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .jit import njit

DRAW = 28
MOVES = 29
FULL = (1 << 28) - 1
ILLEGAL, DEAD, ALIVE, CAPPED = -1, 0, 1, 2
_FREE, _DEAD, _ALIVE, _OPEN = 0, 1, 2, 3  # marks in the table


class Goal(NamedTuple):
    cover: np.ndarray
    targets: np.ndarray
    stock_count: np.ndarray
    need: int
    most_moves: int
    cap: int


class Deals(NamedTuple):
    tableau: np.ndarray
    stock: np.ndarray


class Ask(NamedTuple):
    states: np.ndarray
    out: np.ndarray


class Table(NamedTuple):
    stamp: np.ndarray
    keys: np.ndarray
    mark: np.ndarray
    stack: np.ndarray
    next: np.ndarray
    generation: np.ndarray


def new_table(cap: int) -> Table:
    """Work space for searches of up to ``cap`` states (a table of at least 8 × cap
    entries; a state whose searches fill half of it gives up on the rest: CAPPED)."""
    size = 1 << max(6, (8 * cap).bit_length())
    return Table(np.zeros(size, np.int64), np.zeros(size, np.int64), np.zeros(size, np.int8),
                 np.zeros(64, np.int64), np.zeros(64, np.int64), np.zeros(3, np.int64))


@njit(cache=True)
def _count(x):
    x = x - (x >> 1 & 0x5555555555555555)
    x = (x & 0x3333333333333333) + (x >> 2 & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x += x >> 8  # no multiplication: plain Python (NUMBA_DISABLE_JIT=1) warns on a wrap
    x += x >> 16
    x += x >> 32
    return x & 0x7F


@njit(cache=True)
def _reached(goal, key):
    """Does ``key`` turn up (or have turned up) enough of the places not known?"""
    removed = key & FULL
    shown = goal.stock_count[key >> 28 & 31]
    for j in range(len(goal.targets)):
        c = goal.cover[goal.targets[j]]
        if removed & c == c:
            shown += 1
    return shown >= goal.need


@njit(cache=True)
def _slot(table, key):
    """The slot of ``key`` in this generation's table, or the free slot for it."""
    mask = len(table.keys) - 1
    mixed = (key ^ key >> 19 ^ key >> 31) & FULL
    slot = (mixed * 0x9E3779B1 >> 24) & mask
    gen = table.generation[0]
    while table.stamp[slot] == gen and table.keys[slot] != key:
        slot = (slot + 1) & mask
    return slot


@njit(cache=True)
def _mark_of(table, key):
    slot = _slot(table, key)
    if table.stamp[slot] != table.generation[0]:
        return _FREE
    return table.mark[slot]


@njit(cache=True)
def _set(table, key, mark):
    slot = _slot(table, key)
    if table.stamp[slot] != table.generation[0]:
        table.generation[2] += 1
    table.stamp[slot] = table.generation[0]
    table.keys[slot] = key
    table.mark[slot] = mark


@njit(cache=True)
def _legal(rules, goal, deals, i, key):
    """The legal moves from ``key`` in sample ``i`` as a mask (bit 28: the draw)."""
    removed = key & FULL
    if removed == FULL:  # won: the game takes no more moves
        return 0
    near = rules.neighbours[key >> 33]
    moves = 0
    for p in range(28):
        c = goal.cover[p]
        if not removed >> p & 1 and removed & c == c and near >> deals.tableau[i, p] & 1:
            moves |= 1 << p
    if (key >> 28 & 31) < deals.stock.shape[1] and not (rules.draw_when_stuck and moves):
        moves |= 1 << DRAW
    return moves


@njit(cache=True)
def _child(deals, i, key, move):
    """The state after the legal ``move`` from ``key`` in sample ``i``."""
    removed = key & FULL
    drawn = key >> 28 & 31
    if move == DRAW:
        return removed | (drawn + 1) << 28 | deals.stock[i, drawn] << 33
    return removed | 1 << move | drawn << 28 | deals.tableau[i, move] << 33


@njit(cache=True)
def _lowest(mask):
    """The lowest set bit's index (mask > 0)."""
    return _count((mask & -mask) - 1)


@njit(cache=True)
def _search(rules, goal, deals, i, start, table):
    """Depth first from ``start`` (a state within the bounds, not yet in the table):
    ALIVE, DEAD or CAPPED. Finished states are marked DEAD; the line to a goal ALIVE.
    ``table.next`` holds each entry's moves not tried yet."""
    if _reached(goal, start):
        _set(table, start, _ALIVE)
        return ALIVE
    stack, todo = table.stack, table.next
    stack[0] = start
    todo[0] = _legal(rules, goal, deals, i, start)
    _set(table, start, _OPEN)
    top = 1
    entered = 1
    while top:
        key = stack[top - 1]
        moves = todo[top - 1]
        if moves == 0:
            _set(table, key, _DEAD)
            top -= 1
            continue
        move = _lowest(moves)
        todo[top - 1] = moves & (moves - 1)
        child = _child(deals, i, key, move)
        if _count(child & FULL) + (child >> 28 & 31) > goal.most_moves:
            continue
        mark = _mark_of(table, child)
        if mark == _DEAD or mark == _OPEN:
            continue
        if mark == _ALIVE or _reached(goal, child):
            for k in range(top):
                _set(table, stack[k], _ALIVE)
            return ALIVE
        if entered >= goal.cap or 2 * table.generation[2] >= len(table.keys):
            for k in range(top):  # not finished: unknown to a later search
                _set(table, stack[k], _FREE)
            return CAPPED
        entered += 1
        table.generation[1] += 1
        _set(table, child, _OPEN)
        stack[top] = child
        todo[top] = _legal(rules, goal, deals, i, child)
        top += 1
    return DEAD


@njit(cache=True, nogil=True)
def _judge(rules, goal, deals, ask, table):
    """Fill ``ask.out``: for every sample, state and move, can a line after the move
    turn up what the goal asks?"""
    ask.out[:] = ILLEGAL
    for i in range(deals.tableau.shape[0]):
        for k in range(len(ask.states)):
            table.generation[0] += 1
            table.generation[2] = 0
            key = ask.states[k]
            moves = _legal(rules, goal, deals, i, key)
            while moves:
                m = _lowest(moves)
                moves &= moves - 1
                child = _child(deals, i, key, m)
                if _count(child & FULL) + (child >> 28 & 31) > goal.most_moves:
                    continue
                mark = _mark_of(table, child)
                if mark == _DEAD:
                    ask.out[i, k, m] = DEAD
                elif mark == _ALIVE:
                    ask.out[i, k, m] = ALIVE
                else:
                    ask.out[i, k, m] = _search(rules, goal, deals, i, child, table)
