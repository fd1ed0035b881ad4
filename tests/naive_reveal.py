"""The slow twin of ``kernels/reveal.py``: in a deal whose every card is given, can a
line from a state turn up all the places a player does not know but one? Written over
plain Python: the rules' own ``adjacent`` and ``may_draw``, the geometry's cover masks,
a memo of the states already decided, no cap."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from tripeaks_solver.model.geometry import COVER_MASK, FULL_MASK, TABLEAU_SIZE
from tripeaks_solver.model.layout import Layout
from tripeaks_solver.model.rules import Rules

DRAW = 28


def naive_judge(rules: Rules, tableau: Sequence[int], stock: Sequence[int], knowledge: Layout,
                first: int, most_moves: int, state: tuple[int, int, int]
                ) -> dict[int, bool]:
    """For each legal move from ``state`` (removed, drawn, waste rank) that stays
    within ``most_moves`` moves since the deal began: can a line after it turn up every
    place ``knowledge`` does not know, but one? ``tableau``/``stock``: every rank."""
    unknown = knowledge.unknown_places
    targets = [p for p in unknown if p < TABLEAU_SIZE]
    stock_unknown = [i for i in range(len(stock)) if knowledge.places[first + i] is None]
    need = max(0, len(unknown) - 1)

    def reached(removed: int, drawn: int) -> bool:
        shown = sum(removed & COVER_MASK[p] == COVER_MASK[p] for p in targets)
        shown += sum(i < drawn for i in stock_unknown)
        return shown >= need

    def children(removed: int, drawn: int, waste: int) -> dict[int, tuple[int, int, int]]:
        if removed == FULL_MASK:
            return {}
        out = {}
        for p in range(TABLEAU_SIZE):
            uncovered = removed & COVER_MASK[p] == COVER_MASK[p]
            if not removed >> p & 1 and uncovered and rules.adjacent(waste, tableau[p]):
                out[p] = (removed | 1 << p, drawn, tableau[p])
        if drawn < len(stock) and rules.may_draw(bool(out)):
            out[DRAW] = (removed, drawn + 1, stock[drawn])
        return {m: s for m, s in out.items() if s[0].bit_count() + s[1] <= most_moves}

    @cache
    def alive(removed: int, drawn: int, waste: int) -> bool:
        if reached(removed, drawn):
            return True
        return any(alive(*s) for s in children(removed, drawn, waste).values())

    return {m: alive(*s) for m, s in children(*state).items()}
