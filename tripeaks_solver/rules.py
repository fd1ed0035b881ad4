"""Rule sets: Easy (K and A adjacent, the app's default) and Classic (no wrap)."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import InputError

RANK_COUNT = 13


@dataclass(frozen=True)
class Rules:
    """What a game allows. ``wrap``: K and A are adjacent ranks (Easy) or not (Classic)."""

    wrap: bool = True

    @property
    def name(self) -> str:
        return "easy" if self.wrap else "classic"

    @classmethod
    def named(cls, name: str) -> Rules:
        """``easy`` or ``classic`` (any case)."""
        key = name.strip().lower()
        if key not in RULE_SETS:
            raise InputError(f"unknown rules {name!r} (expected easy or classic)")
        return RULE_SETS[key]

    def adjacent(self, a: int, b: int) -> bool:
        """May a card of rank ``b`` go on a waste of rank ``a`` (ranks 0 = A … 12 = K)?"""
        d = abs(a - b)
        return d == 1 or (self.wrap and d == RANK_COUNT - 1)

    def __str__(self) -> str:
        return self.name.capitalize()


EASY = Rules(wrap=True)
CLASSIC = Rules(wrap=False)
RULE_SETS = {"easy": EASY, "classic": CLASSIC}
