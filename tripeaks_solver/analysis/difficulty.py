"""Deal difficulty: how often a simple human-like player loses the deal.

The difficulty of a deal under a rule set is the share of R seeded games (default 100)
that the ``greedy`` player with random tie-breaks loses: 0 for a deal it always wins,
1 for one it never wins; a deal the exact solver calls lost is 1 by definition. The
rating word comes from fixed bins:

============  =========================================
rating        difficulty
============  =========================================
easy          at most 0.2
medium        above 0.2, at most 0.5
hard          above 0.5, at most 0.8
expert        above 0.8 (winnable: the solver finds a win)
impossible    the exact solver finds no win
============  =========================================

All R games of every deal run in one numba kernel (``playouts._games``); the exact
solver runs only on deals the player never won, to tell expert from impossible.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..kernels import playouts, policies
from ..model.cards import ranks
from ..model.dealing import Deal
from ..model.rules import EASY, Rules
from ..solver.solve import rule_masks, solve

DEFAULT_GAMES = 100
RATINGS = ("easy", "medium", "hard", "expert", "impossible")
BINS = ((0.2, "easy"), (0.5, "medium"), (0.8, "hard"))  # upper bounds, inclusive


@dataclass(frozen=True)
class Difficulty:
    """``losses`` of ``games`` greedy games (random tie-breaks); ``winnable`` per the
    exact solver (None when the player won a game, which proves it)."""

    games: int
    losses: int
    winnable: bool

    def __repr__(self) -> str:
        return (f"<Difficulty {self.value:g} ({self.rating}): the greedy player lost "
                f"{self.losses} of {self.games} games>")

    @property
    def value(self) -> float:
        """Share of the games lost; 1 for a deal the solver calls lost."""
        return self.losses / self.games if self.winnable else 1.0

    @property
    def rating(self) -> str:
        return rating_of(self.value, self.winnable)

    def to_dict(self) -> dict:
        """The columns ``batch --difficulty`` adds to a row (``difficulty``, ``rating``,
        ``difficulty_games``), then ``losses`` and ``winnable``."""
        return {"difficulty": self.value, "rating": self.rating, "difficulty_games": self.games,
                "losses": self.losses, "winnable": self.winnable}


def rating_of(value: float, winnable: bool = True) -> str:
    """The rating word of a difficulty value (see the module's table)."""
    if not winnable:
        return "impossible"
    for upper, word in BINS:
        if value <= upper:
            return word
    return "expert"


def _seed_of(seed: int, number: int) -> int:
    # One generator per (seed, deal), whatever else the batch holds.
    return (seed * 0x100000001B3 + number * 0x9E3779B97F4A7C15) & ((1 << 64) - 1)


def difficulties(deals: Sequence[Deal], rules: Rules = EASY, games: int = DEFAULT_GAMES,
                 seed: int = 0, winnable: Sequence[bool | None] | None = None
                 ) -> list[Difficulty]:
    """The difficulty of each deal (its ``number`` picks its games' seed, or its index
    when it has none). ``winnable`` may give the exact verdicts already known (None
    where unknown); deals never won are solved otherwise."""
    if games < 1:
        raise ValueError("games must be at least 1")
    n = len(deals)
    stock_len = len(deals[0].opening(rules)[1]) if n else 0
    tabs = np.empty((n, 28), dtype=np.int64)
    stocks = np.empty((n, stock_len), dtype=np.int64)
    waste0 = np.empty(n, dtype=np.int64)
    seeds = np.empty(n, dtype=np.uint64)
    for i, deal in enumerate(deals):
        waste, stock = deal.opening(rules)
        tabs[i] = ranks(deal.tableau)
        stocks[i] = ranks(stock)
        waste0[i] = 13 if waste is None else waste.rank
        seeds[i] = _seed_of(seed, i if deal.number is None else deal.number)
    out = np.zeros((n, 4), dtype=np.int64)
    masks = rule_masks(rules)
    playouts._games(playouts.Deals(tabs, stocks, waste0), masks,
                    policies.policy(policies.GREEDY, random_ties=True), games, seeds, out)
    result = []
    for i, deal in enumerate(deals):
        wins = int(out[i, 0])
        known = None if winnable is None else winnable[i]
        if wins:
            won = True
        elif known is not None:
            won = bool(known)
        else:
            won = solve(deal, rules, optimal=False).winnable
        result.append(Difficulty(games, games - wins, won))
    return result


def difficulty(deal: Deal, rules: Rules = EASY, games: int = DEFAULT_GAMES,
               seed: int = 0) -> Difficulty:
    """The difficulty of one deal: see the module's docstring."""
    return difficulties([deal], rules, games, seed)[0]
