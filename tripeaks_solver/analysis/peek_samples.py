"""The sampled judgement behind a peek's adaptive line (``peek.py`` asks; nothing else).

What the player knows is a layout; the cards not known are dealt at random into the
places not known, ``SAMPLES`` times (as the fair player does), and for each sample a
compiled search (``kernels/reveal.py``) says, for every legal move from a state,
whether some line after it still turns up every card not known but one (the last
follows by elimination). The samples are drawn from a generator seeded by the seed and
what is known (never by a card not known), so the same knowledge gives the same
samples: the plan is reproducible and blind, and a walk-through that asks again after
every move gets the same answers.

The samples are searched on two threads at once (the kernel lets go of the GIL), each
with its own table: every (sample, state) search starts from an empty table, so the
answers do not depend on how the samples are split. One judgement runs at a time (a
lock), whatever thread asks.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple

import numpy as np

from ..kernels import reveal
from ..model.dealing import Deal
from ..model.geometry import COVER_MASK, TABLEAU_SIZE
from ..model.layout import Layout
from ..model.rules import Rules
from ..solver.solve import rule_masks

SAMPLES = 32  # 64 gained 0.3 taps a deal in the measurement
CAP = 3000  # states one search may enter before it gives up (the answer: CAPPED)
_COVER = np.array(COVER_MASK, np.int64)
WORKERS = min(2, os.cpu_count() or 1)  # threads searching the samples
_tables = [reveal.new_table(CAP) for _ in range(WORKERS)]
_pool: ThreadPoolExecutor | None = None
_lock = threading.Lock()  # the tables and what is judged: one judgement at a time
_judged: dict[tuple, Judged] = {}  # (what the Sampler depends on, state) -> judged
_KEEP = 50_000


def moves_of(state: int) -> int:
    """Moves played since the deal began to reach ``state`` (removals and draws)."""
    return int(state & reveal.FULL).bit_count() + int(state >> 28 & 31)


class Judged(NamedTuple):
    """Per legal move (0–27 a removal, 28 the draw): the samples in which a line after
    it turns up what is asked, and those whose search gave up."""

    alive: np.ndarray
    capped: np.ndarray
    legal: np.ndarray


def knowledge_digest(knowledge: Layout) -> int:
    """A number that depends on the cards known and their places only."""
    data = bytes(255 if c is None else int(c) for c in knowledge.places)
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little")


class Sampler:
    """The samples and the goal for one state of knowledge."""

    def __init__(self, knowledge: Layout, rules: Rules, most_moves: int, seed: int) -> None:
        first = Deal.stock_start(rules)
        places = knowledge.places
        unknown = knowledge.unknown_places
        ranks = np.array([-1 if c is None else c.rank for c in places], np.int64)
        rng = np.random.default_rng([seed, knowledge_digest(knowledge)])
        fill = np.array(sorted(c.rank for c in knowledge.missing_cards), np.int64)
        rows = np.tile(ranks, (SAMPLES, 1))
        if len(unknown):
            rows[:, unknown] = rng.permuted(np.tile(fill, (SAMPLES, 1)), axis=1)
        self.deals = reveal.Deals(np.ascontiguousarray(rows[:, :TABLEAU_SIZE]),
                                  np.ascontiguousarray(rows[:, first:]))
        targets = np.array([p for p in unknown if p < TABLEAU_SIZE], np.int64)
        stock_unknown = np.array([c is None for c in places[first:]], np.int64)
        counts = np.concatenate([[0], np.cumsum(stock_unknown)]).astype(np.int64)
        self.goal = reveal.Goal(_COVER, targets, counts, max(0, len(unknown) - 1),
                                most_moves, CAP)
        self.masks = rule_masks(rules)
        self.key = (knowledge.places, rules, most_moves, seed, CAP)

    def judge(self, states: Sequence[int]) -> list[Judged]:
        """For each state: its legal moves and, per move, the samples still alive.
        Each state is judged on its own, so answers kept from earlier calls (the
        walk-through asks after every tap) are the answers."""
        with _lock:
            todo = [k for k in dict.fromkeys(states) if (self.key, k) not in _judged]
            if todo:
                out = self._search(np.array(todo, np.int64))
                if len(_judged) > _KEEP:
                    _judged.clear()
                for j, k in enumerate(todo):
                    _judged[self.key, k] = Judged((out[:, j] == reveal.ALIVE).sum(axis=0),
                                                  (out[:, j] == reveal.CAPPED).sum(axis=0),
                                                  out[0, j] != reveal.ILLEGAL)
            return [_judged[self.key, k] for k in states]

    def choice(self, state: int) -> Judged:
        """What :meth:`judge` says of ``state`` where more than one move is legal; where
        one is (or none), only which: there is nothing to choose, nothing is searched."""
        legal = 0
        if moves_of(state) < self.goal.most_moves:
            legal = reveal._legal(self.masks, self.goal, self.deals, 0, state)
        if legal & (legal - 1):
            return self.judge([state])[0]
        none = np.zeros(reveal.MOVES, np.int64)
        return Judged(none, none, np.array([legal >> m & 1 for m in range(reveal.MOVES)], bool))

    def _search(self, states: np.ndarray) -> np.ndarray:
        """The kernel's outcomes for ``states``, the samples split over the threads."""
        global _pool
        out = np.empty((SAMPLES, len(states), reveal.MOVES), np.int64)
        bounds = np.linspace(0, SAMPLES, WORKERS + 1).astype(int)

        def part(w: int) -> None:
            a, b = bounds[w], bounds[w + 1]
            reveal._judge(self.masks, self.goal,
                          reveal.Deals(self.deals.tableau[a:b], self.deals.stock[a:b]),
                          reveal.Ask(states, out[a:b]), _tables[w])

        if WORKERS > 1 and _pool is None:
            _pool = ThreadPoolExecutor(WORKERS - 1, thread_name_prefix="peek-samples")
        others = [_pool.submit(part, w) for w in range(1, WORKERS)] if _pool else []
        part(0)
        for job in others:
            job.result()
        return out


__all__ = ["CAP", "SAMPLES", "Judged", "Sampler", "knowledge_digest", "moves_of"]
