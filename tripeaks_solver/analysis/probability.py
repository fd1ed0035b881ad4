"""Win probability of a layout with unknown cards: the share of its completions won.

The share is exact when the completions are few enough to solve them all, and
estimated from uniform random completions otherwise.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..errors import InputError
from ..model.cards import Card
from ..model.layout import Layout
from ..model.rules import Rules
from ..solver.solve import solve, solve_object
from .stats import fraction, fractions, wilson_interval


@dataclass(frozen=True)
class WinShare:
    """Completions of a layout won, of how many. ``exact``: every completion was
    counted (``total`` is then the number of completions); otherwise ``total`` uniform
    random completions were solved."""

    rules: Rules
    wins: int
    total: int
    exact: bool
    solved: int  # distinct deals the solver ran on (completions alike in ranks share one)
    layout: Layout | None = field(default=None, compare=False)  # the layout answered

    def __repr__(self) -> str:
        how = "exact" if self.exact else "sampled"
        return (f"<WinShare {self.rules} rules: won {self.wins} of {self.total} completions "
                f"({self.share:.1%}, {how})>")

    @property
    def share(self) -> float:
        return self.wins / self.total

    @property
    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of the share (the share itself when exact)."""
        if self.exact:
            return self.share, self.share
        return wilson_interval(self.wins, self.total)

    def to_dict(self, source: str = "layout") -> dict:
        """The object ``solve --json`` prints for a layout with ``??`` cards (``kind``
        "completions"; the verdict fields null, ``seconds`` too: the same seed gives
        the same output); ``source`` names the layout (``solve`` says ``layout 1``)."""
        low, high = self.interval
        return solve_object(self.rules, source, None, None,
                            None if self.layout is None else self.layout.line(),
                            kind="completions", completions=self.total, wins=self.wins,
                            share=fraction(self.share), share_95=fractions((low, high)),
                            exact=self.exact)


def _rank_fillings(missing: list[Card]) -> Iterator[tuple[list[Card], int]]:
    """Every distinct sequence of ranks for the unknown places, as one filling of cards
    with the number of completions (suit orders) that share its ranks."""
    by_rank: dict[int, list[Card]] = {}
    for card in missing:
        by_rank.setdefault(card.rank, []).append(card)
    weight = math.prod(math.factorial(len(cs)) for cs in by_rank.values())
    left = {r: len(cs) for r, cs in by_rank.items()}
    sequence: list[int] = []

    def extend() -> Iterator[tuple[list[Card], int]]:
        if len(sequence) == len(missing):
            used = {r: 0 for r in by_rank}
            filling = []
            for r in sequence:
                filling.append(by_rank[r][used[r]])
                used[r] += 1
            yield filling, weight
            return
        for r in by_rank:
            if left[r]:
                left[r] -= 1
                sequence.append(r)
                yield from extend()
                sequence.pop()
                left[r] += 1

    return extend()


def distinct_rank_fillings(layout: Layout) -> int:
    """How many different rank sequences can fill the unknown places."""
    counts: dict[int, int] = {}
    for card in layout.missing_cards:
        counts[card.rank] = counts.get(card.rank, 0) + 1
    n = sum(counts.values())
    return math.factorial(n) // math.prod(math.factorial(m) for m in counts.values())


def win_probability(layout: Layout | str, rules: Rules, samples: int = 1000,
                    seed: int | None = None) -> WinShare:
    """The share of completions of ``layout`` that can be won under ``rules``.

    Suits never matter to play, so completions with the same ranks in the unknown
    places share a verdict. When there are at most ``samples`` distinct rank fillings,
    all are solved and the share is exact; otherwise ``samples`` uniform random
    completions (seeded with ``seed``) are solved.
    """
    if isinstance(layout, str):
        layout = Layout.parse(layout)
    if samples < 1:
        raise InputError(f"samples must be at least 1, got {samples}")
    if distinct_rank_fillings(layout) <= samples:
        wins = total = solved = 0
        for filling, weight in _rank_fillings(layout.missing_cards):
            total += weight
            solved += 1
            if solve(layout.deal(filling), rules, optimal=False).winnable:
                wins += weight
        return WinShare(rules, wins, total, True, solved, layout)
    rng = random.Random(seed)
    missing = layout.missing_cards
    verdicts: dict[tuple[int, ...], bool] = {}
    wins = 0
    for _ in range(samples):
        rng.shuffle(missing)
        key = tuple(c.rank for c in missing)
        if key not in verdicts:
            verdicts[key] = solve(layout.deal(missing), rules, optimal=False).winnable
        wins += verdicts[key]
    return WinShare(rules, wins, samples, False, len(verdicts), layout)
