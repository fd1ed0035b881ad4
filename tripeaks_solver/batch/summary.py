"""The statistics of a batch, accumulated row by row in memory bounded by the range.

Which (deal, rules) pairs have a row, and which of them were won, is kept in one byte
per deal (blocks allocated as deals are seen), not as Row objects: resuming a file of
ten million rows costs ten megabytes, and the Easy × Classic table is read off the
bytes at the end whatever order the rows came in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from ..analysis.difficulty import RATINGS
from ..analysis.stats import mean_of_counts, median_of_counts, wilson_interval
from ..model.rules import RULE_ORDER
from ..model.scoring import RUN_SCHEMES, Scheme
from .extras import PLAIN, Extras
from .rows import Row

_BLOCK = 1 << 16  # deals per block of flags
_SEEN = {name: 1 << i for i, name in enumerate(RULE_ORDER)}  # a row of these rules exists
_WON = {name: 1 << (i + len(RULE_ORDER)) for i, name in enumerate(RULE_ORDER)}


class DealFlags:
    """One byte per deal of a range: which rule sets have a row, and which were won."""

    def __init__(self, deals: range) -> None:
        self.deals = deals
        self._blocks: dict[int, np.ndarray] = {}

    def get(self, deal: int) -> int:
        i = deal - self.deals.start
        block = self._blocks.get(i // _BLOCK)
        return 0 if block is None else int(block[i % _BLOCK])

    def set(self, deal: int, bits: int) -> None:
        i = deal - self.deals.start
        block = self._blocks.get(i // _BLOCK)
        if block is None:
            block = self._blocks[i // _BLOCK] = np.zeros(_BLOCK, dtype=np.uint8)
        block[i % _BLOCK] |= bits

    def chunks(self) -> Iterator[np.ndarray]:
        """The flags of the whole range in order, a block at a time (zeros where unseen)."""
        n = len(self.deals)
        for b in range((n + _BLOCK - 1) // _BLOCK):
            size = min(_BLOCK, n - b * _BLOCK)
            block = self._blocks.get(b)
            yield np.zeros(size, dtype=np.uint8) if block is None else block[:size]


@dataclass
class RuleTally:
    """Counts for one rule set."""

    deals: int = 0
    wins: int = 0
    won_scores: Counter = field(default_factory=Counter)
    lost_scores: Counter = field(default_factory=Counter)
    min_draws: Counter = field(default_factory=Counter)
    ratings: Counter = field(default_factory=Counter)  # with --difficulty
    # with --difficulty: (difficulty, rating) -> deals (at most R + 1 values a rating)
    difficulties: Counter = field(default_factory=Counter)
    # with --player: player -> [games won, winnable deals lost]
    plays: dict[str, list[int]] = field(default_factory=dict)

    def add(self, row: Row) -> None:
        self.deals += 1
        if row.winnable:
            self.wins += 1
        if row.extra is not None:
            if row.extra.rating:
                self.ratings[row.extra.rating] += 1
                self.difficulties[row.extra.difficulty, row.extra.rating] += 1
            for p in row.extra.plays:
                counts = self.plays.setdefault(p.player, [0, 0])
                counts[0] += p.won
                counts[1] += row.winnable and not p.won
        if row.best_score is not None:
            (self.won_scores if row.winnable else self.lost_scores)[row.best_score] += 1
        if row.min_draws is not None:
            self.min_draws[row.min_draws] += 1

    def as_dict(self, optimal: bool, scoring: Scheme = Scheme.APP) -> dict:
        """The rule set's numbers; the best scores and draws are null without optimal
        scores, the draws also under the original scoring (its rows have none)."""
        ci = wilson_interval(self.wins, self.deals) if self.deals else None
        mean = mean_of_counts(self.won_scores) if optimal else None
        draws = optimal and scoring not in RUN_SCHEMES
        return {
            "deals": self.deals,
            "wins": self.wins,
            "win_rate": None if not self.deals else round(self.wins / self.deals, 6),
            "win_rate_95": None if ci is None else [round(ci[0], 6), round(ci[1], 6)],
            "best_score_mean": None if mean is None else round(mean, 4),
            "best_score_median": median_of_counts(self.won_scores) if optimal else None,
            "min_draws": ({str(k): self.min_draws[k] for k in sorted(self.min_draws)}
                          if draws else None),
        }

    def extras_dict(self, extras: Extras) -> dict:
        """``ratings`` (with --difficulty) and ``players`` (with --player), else null."""
        out: dict = {"ratings": None, "players": None}
        if extras.games is not None:
            out["ratings"] = {word: self.ratings[word] for word in RATINGS}
        if extras.players:
            exact = None if not self.deals else round(self.wins / self.deals, 6)
            out["players"] = {}
            for name in extras.players:
                won, lost = self.plays.get(name, (0, 0))
                ci = wilson_interval(won, self.deals) if self.deals else None
                out["players"][name] = {
                    "wins": won,
                    "win_rate": None if not self.deals else round(won / self.deals, 6),
                    "win_rate_95": None if ci is None else [round(ci[0], 6), round(ci[1], 6)],
                    "exact_win_rate": exact,
                    "winnable_lost": lost,
                }
        return out


class Summary:
    """Statistics of a batch over a range, accumulated row by row.

    Rows outside the range are ignored; rows of rule sets not asked for are remembered
    (so that a second one is a duplicate) but not counted. :meth:`missing` counts the
    (deal, rules) pairs of the range without a row.
    """

    def __init__(self, deals: range, rules: tuple[str, ...], optimal: bool,
                 variant: str = "", scoring: Scheme = Scheme.APP, extras: Extras = PLAIN,
                 must_clear: bool = False) -> None:
        self.deals = deals
        self.extras = extras
        self.rules = rules
        self.optimal = optimal
        self.variant = variant
        self.scoring = scoring
        self.must_clear = must_clear
        self.tally = {name: RuleTally() for name in rules}
        self.flags = DealFlags(deals)

    def has(self, deal: int, rules: str) -> bool:
        """Was a row of ``deal`` under ``rules`` added (``deal`` in the range)?"""
        return bool(self.flags.get(deal) & _SEEN[rules])

    def todo(self, deal: int) -> tuple[str, ...]:
        """The rule sets asked for that ``deal`` (in the range) has no row of yet."""
        seen = self.flags.get(deal)
        return tuple(r for r in self.rules if not seen & _SEEN[r])

    def add(self, row: Row) -> bool:
        """Count ``row``; False when it is outside the range (and so ignored)."""
        if row.deal not in self.deals:
            return False
        self.flags.set(row.deal, _SEEN[row.rules] | (_WON[row.rules] if row.winnable else 0))
        if row.rules in self.tally:
            self.tally[row.rules].add(row)
        return True

    def _asked(self) -> int:
        return sum(_SEEN[r] for r in self.rules)

    def pending_deals(self) -> int:
        """Deals of the range that lack a row of a rule set asked for."""
        asked = self._asked()
        return sum(int(np.count_nonzero(b & asked != asked)) for b in self.flags.chunks())

    def missing(self) -> int:
        """(deal, rules) pairs of the range, of the rule sets asked for, without a row."""
        return sum(len(self.deals) - t.deals for t in self.tally.values())

    def check_complete(self) -> None:
        """Raise unless each rule set has exactly one row per deal of the range."""
        for name, t in self.tally.items():
            if t.deals != len(self.deals):
                raise AssertionError(f"{name}: {t.deals} rows for {len(self.deals)} deals")

    def cross(self) -> dict[str, int]:
        """The Easy × Classic table over the deals that have both rows."""
        e_seen, c_seen = _SEEN["easy"], _SEEN["classic"]
        e_won, c_won = _WON["easy"], _WON["classic"]
        table = Counter({"both": 0, "easy_only": 0, "classic_only": 0, "neither": 0})
        for b in self.flags.chunks():
            paired = b[(b & (e_seen | c_seen)) == (e_seen | c_seen)]
            easy, classic = (paired & e_won) != 0, (paired & c_won) != 0
            table["both"] += int(np.count_nonzero(easy & classic))
            table["easy_only"] += int(np.count_nonzero(easy & ~classic))
            table["classic_only"] += int(np.count_nonzero(~easy & classic))
            table["neither"] += int(np.count_nonzero(~easy & ~classic))
        return {"deals": sum(table.values()), **table}

    def as_dict(self) -> dict:
        out = {
            "start": self.deals.start,
            "stop": self.deals.stop,
            "deals": len(self.deals),
            "optimal": self.optimal,
            "variant": self.variant,
            "scoring": str(self.scoring),
            "must_clear": self.must_clear,
            # Both rule sets always, null for one not asked for (one shape for every run).
            "rules": {name: self.tally[name].as_dict(self.optimal, self.scoring)
                      | self.tally[name].extras_dict(self.extras)
                      if name in self.tally else None for name in ("easy", "classic")},
            "cross": self.cross() if len(self.rules) == 2 else None,
            "difficulty_games": self.extras.games,
            "players": list(self.extras.players),
            "seed": self.extras.seed if self.extras.active else None,
        }
        return out


__all__ = ["DealFlags", "RuleTally", "Summary"]
