"""Compiled policies: how a simple player picks its move from what it sees, and the
seeded random numbers of the playouts (``playouts.py`` plays whole games with them).

A policy only ever receives what a player sees:

``vis[p]``      the rank of tableau position p when it is face up, ``HIDDEN`` (-1)
                when it is face down, ``GONE`` (-2) when it has been removed
``waste``       the waste rank (13, wild, for an empty waste or the joker)
``stock_left``  how many cards the stock still holds

Policies (``RANDOM``, ``GREEDY``, ``UNCOVER``, ``CAREFUL``):
- random: a uniformly random legal move, the draw included when allowed;
- greedy: when a card plays, play one — the one that starts the longest chain of
  cards face up now (each card of the chain uncovered by then and adjacent to the
  one before), ties toward the chain that uncovers more face-down cards, then the
  fixed order bottom row first, left to right (or a random one of the tied cards when
  ``random_ties``); draw only when nothing plays;
- uncover: as greedy, the chain uncovering more face-down cards first, then longer;
- careful: as greedy, but a chain (any prefix of one counts) is valued
  ``CAREFUL_LENGTH`` a card + ``CAREFUL_UNCOVER`` a face-down card it uncovers
  (+ ``CAREFUL_BOTTOM`` when it starts in the bottom row), minus, for every face-up
  card still on the board after it, ``CAREFUL_RISK[h]``, where h counts the cards
  that could still go on it: unseen cards (face down or in the stock) and other
  face-up cards still on the board, of an adjacent rank. A card with no such card
  left can never be removed; one with few is at risk, so the policy avoids using up
  their last partners and removes them while it can. The highest value plays, ties
  to the fixed order; draw only when nothing plays. The weights were tuned on deals
  100000–103999 (data/README-players.md).

The policies see the unseen cards only as counts per rank (``unseen[k]``): what a
player works out from the deck and the cards seen so far.

Moves are tableau positions 0–27, or ``DRAW`` (28). Random numbers come from a
SplitMix64 stream held in a one-element ``uint64`` array, so a seed fixes every game.

The inputs, as named tuples (``RuleMasks``, the rules, is the search kernels',
``shared.py``; its ``open`` shows every card face up):

``Sight`` — what a policy reads, all it reads: ``vis``, ``removed``, ``waste``,
    ``stock_left`` (above) and ``unseen[k]``, how many cards of rank k the player
    has not seen
``Policy`` — a policy and its settings (``policy()`` makes one):
    kind            RANDOM, GREEDY, UNCOVER or CAREFUL
    random_ties     ties between equal chains broken at random (else the fixed order)
    length, uncover, bottom, risk   the careful policy's weights (CAREFUL_*)
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numba
import numpy as np

from ..model.geometry import COVERED_BY, PEAK_POSITIONS, ROWS, TABLEAU_SIZE
from .jit import njit
from .shared import RANKS, _may_draw  # RANKS: 13 card ranks + the wild rank

TABLEAU = TABLEAU_SIZE
DRAW = TABLEAU
STUCK = -1
HIDDEN = -1
GONE = -2

RANDOM = 0
GREEDY = 1
UNCOVER = 2  # as greedy, but the chain uncovering more face-down cards first, then longer
CAREFUL = 3
POLICIES = {"random": RANDOM, "greedy": GREEDY, "uncover": UNCOVER, "careful": CAREFUL}
# The careful policy's weights (see the module's docstring).
CAREFUL_LENGTH = 2
CAREFUL_UNCOVER = 8
CAREFUL_BOTTOM = 8
CAREFUL_RISK = np.array([320, 100, 16, 8, 1], dtype=np.int64)  # h = 0, 1, 2, 3, 4; 0 above

# cover[p]: mask of the cards covering p; above[p, :]: the cards p covers (-1: none).
COVER = np.array([sum(1 << q for q in COVERED_BY[p]) for p in range(TABLEAU)], dtype=np.int64)
ABOVE = np.full((TABLEAU, 2), -1, dtype=np.int64)
for _q in range(TABLEAU):
    for _p in COVERED_BY[_q]:
        ABOVE[_p, 0 if ABOVE[_p, 0] < 0 else 1] = _q
PEAKS = np.array([sum(1 << p for p in ps) for ps in PEAK_POSITIONS], dtype=np.int64)
# The greedy player's fixed order: bottom row first, each row left to right.
ORDER = np.array([p for a, b in reversed(ROWS) for p in range(a, b)], dtype=np.int64)
BOTTOM_ROW = ROWS[-1][0]  # the first position of the bottom row
CHAIN_BUDGET = 4096  # DFS steps per chain (only open peaks, 28 cards face up, come near)


class Sight(NamedTuple):
    vis: np.ndarray
    removed: int
    waste: int
    stock_left: int
    unseen: np.ndarray


class Policy(NamedTuple):
    kind: int
    random_ties: bool
    length: int
    uncover: int
    bottom: int
    risk: np.ndarray


def policy(kind: int | str, random_ties: bool = False) -> Policy:
    """The kernels' form of a policy: ``kind`` a name of POLICIES or its code, with the
    careful policy's weights."""
    code = POLICIES[kind] if isinstance(kind, str) else int(kind)
    return Policy(code, bool(random_ties), CAREFUL_LENGTH, CAREFUL_UNCOVER, CAREFUL_BOTTOM,
                  CAREFUL_RISK)


# --- random numbers -----------------------------------------------------------------------
def _wrapping(kernel):
    # SplitMix64 wraps modulo 2^64 by design: compiled code wraps silently, numpy's
    # scalars (the kernels as plain Python, NUMBA_DISABLE_JIT=1) warn. So as plain Python
    # the generator's arithmetic, and nothing else, runs with overflow excused.
    if not numba.config.DISABLE_JIT:
        return kernel

    @functools.wraps(kernel)
    def plain(rng):
        with np.errstate(over="ignore"):
            return kernel(rng)
    return plain


@_wrapping
@njit(cache=True)
def _next(rng):
    rng[0] += np.uint64(0x9E3779B97F4A7C15)
    z = rng[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def _below(rng, n):
    # Uniform in 0 … n-1 (the bias of a 53-bit modulo is below 1e-13 for n ≤ 64).
    return np.int64((_next(rng) >> np.uint64(11)) % np.uint64(n))


def new_rng(seed: int) -> np.ndarray:
    """A generator state for the kernels from any integer seed."""
    return np.array([seed & ((1 << 64) - 1)], dtype=np.uint64)


def rollout_rng(seed: int) -> np.ndarray:
    """The generator of the rollouts of ``seed``: seeded, then advanced once, as each
    deal's in ``_games``."""
    rng = new_rng(seed)
    _next(rng)
    return rng


# --- the board as a player sees it ------------------------------------------------------
@njit(cache=True)
def _popcount(x):
    n = 0
    while x != 0:
        x &= x - 1
        n += 1
    return n


@njit(cache=True)
def _peaks(removed):
    n = 0
    for k in range(PEAKS.shape[0]):
        if removed & PEAKS[k] == PEAKS[k]:
            n += 1
    return n


@njit(cache=True)
def _uncovered(removed, p):
    return (removed >> p) & 1 == 0 and removed & COVER[p] == COVER[p]


@njit(cache=True)
def _fill_visible(tab, removed, open_rules, vis):
    for p in range(TABLEAU):
        if (removed >> p) & 1:
            vis[p] = GONE
        elif open_rules or removed & COVER[p] == COVER[p]:
            vis[p] = tab[p]
        else:
            vis[p] = HIDDEN


@njit(cache=True)
def _fits(neighbours, waste, rank):
    return (neighbours[waste] >> rank) & 1 != 0


# --- policies: they read what the player sees (a Sight) only ----------------------------
# The policy functions are inlined into the game loop: a call that passes named tuples
# of arrays counts references to every array in them, and at a call per move (and per
# chain) that made the games 15-45% slower. Inlined, greedy and careful games take the
# time they took with plain arguments, or less; random ones about 0.6 µs (15%) more
# (benchmarks/bench_players.py).
@njit(cache=True, inline="always")
def _chain_value(policy, rules, sight, start, work):
    """The value of playing ``start`` for a chain policy: the best, over the chains of
    cards face up now that start with it (every prefix counts), of
    greedy: length * 64 + face-down cards uncovered; uncover: the two the other way;
    careful: the weighted sum of the module docstring (+ the bottom-row bonus)."""
    vis = sight.vis
    neighbours = rules.neighbours
    path = work[0]
    todo = work[1]
    uncovers = work[2]
    best = -(1 << 40)
    depth = 0
    path[0] = start
    todo[0] = 0
    rem = sight.removed | (np.int64(1) << start)
    uncovers[0] = _newly_uncovered(vis, rem, start)
    steps = 0
    while depth >= 0:
        if policy.kind == CAREFUL:
            value = (policy.length * (depth + 1) + policy.uncover * uncovers[depth]
                     - _risk(policy, rules, sight, rem, work[3]))
        elif policy.kind == UNCOVER:
            value = uncovers[depth] * 64 + depth + 1
        else:
            value = (depth + 1) * 64 + uncovers[depth]
        best = max(best, value)
        # Next untried follower of path[depth].
        last = vis[path[depth]]
        moved = False
        while todo[depth] < TABLEAU and steps < CHAIN_BUDGET:
            q = todo[depth]
            todo[depth] += 1
            if vis[q] >= 0 and _uncovered(rem, q) and _fits(neighbours, last, vis[q]):
                steps += 1
                rem |= np.int64(1) << q
                depth += 1
                path[depth] = q
                todo[depth] = 0
                uncovers[depth] = uncovers[depth - 1] + _newly_uncovered(vis, rem, q)
                moved = True
                break
        if not moved:
            rem &= ~(np.int64(1) << path[depth])
            depth -= 1
    if policy.kind == CAREFUL and start >= BOTTOM_ROW:
        best += policy.bottom
    return best


@njit(cache=True)
def _newly_uncovered(vis, rem, p):
    # Face-down cards that removing p (already in rem) leaves uncovered.
    n = 0
    for i in range(2):
        q = ABOVE[p, i]
        if q >= 0 and vis[q] == HIDDEN and rem & COVER[q] == COVER[q]:
            n += 1
    return n


@njit(cache=True, inline="always")
def _risk(policy, rules, sight, rem, counts):
    """The careful policy's penalty: ``policy.risk[h]`` summed over the face-up cards not
    in ``rem``, h = unseen cards and other face-up cards left of a rank adjacent to it."""
    vis = sight.vis
    unseen = sight.unseen
    neighbours = rules.neighbours
    risk = policy.risk
    counts[:RANKS] = 0
    for q in range(TABLEAU):
        if vis[q] >= 0 and (rem >> q) & 1 == 0:
            counts[vis[q]] += 1
    penalty = 0
    for q in range(TABLEAU):
        if vis[q] < 0 or (rem >> q) & 1:
            continue
        k = vis[q]
        h = -((neighbours[k] >> k) & 1)  # a wild card does not partner itself
        for j in range(RANKS):
            if (neighbours[k] >> j) & 1:
                h += unseen[j] + counts[j]
        if h < risk.shape[0]:
            penalty += risk[h]
    return penalty


@njit(cache=True)
def _new_work():
    # The policies' work space: a chain's path, its untried followers, the face-down
    # cards it uncovered, and rank counts (careful).
    return np.empty((4, TABLEAU + 1), dtype=np.int64)


@njit(cache=True, inline="always")
def _choose(policy, rules, sight, rng, work):
    """The policy's move: a position, DRAW, or STUCK when no move is legal."""
    vis = sight.vis
    removed = sight.removed
    neighbours = rules.neighbours
    if policy.kind == RANDOM:
        count = 0
        pick = STUCK
        for p in range(TABLEAU):
            if vis[p] >= 0 and _uncovered(removed, p) and _fits(neighbours, sight.waste, vis[p]):
                count += 1
                if _below(rng, count) == 0:
                    pick = p
        if sight.stock_left > 0 and _may_draw(rules, count):
            count += 1
            if _below(rng, count) == 0:
                pick = DRAW
        return pick
    best = STUCK
    best_key = -(1 << 50)
    ties = 0
    for i in range(TABLEAU):
        p = ORDER[i]
        if vis[p] < 0 or not _uncovered(removed, p) or not _fits(neighbours, sight.waste,
                                                                  vis[p]):
            continue
        key = _chain_value(policy, rules, sight, p, work)
        if key > best_key:
            best_key = key
            best = p
            ties = 1
        elif key == best_key and policy.random_ties:
            ties += 1
            if _below(rng, ties) == 0:
                best = p
    if best == STUCK and sight.stock_left > 0:
        return DRAW
    return best


@njit(cache=True)
def _policy_move(policy, rules, sight):
    """A deterministic policy's move (a position or DRAW; STUCK when none is legal)."""
    rng = np.zeros(1, dtype=np.uint64)
    return _choose(policy, rules, sight, rng, _new_work())
