"""Rule sets: Easy (K and A adjacent, the app's default), Classic (no wrap), and the
variants of the literature as options that combine."""

from __future__ import annotations

from dataclasses import dataclass, fields

from .cards import WILD_RANK
from .errors import InputError

RANK_COUNT = 13

# Option name in output and CSV -> field of Rules; in this order.
VARIANT_OPTIONS = {
    "empty-waste": "empty_waste",
    "joker": "joker",
    "draw-when-stuck": "draw_when_stuck",
    "open": "open",
}


@dataclass(frozen=True)
class Rules:
    """What a game allows.

    ``wrap``: K and A are adjacent ranks (Easy) or not (Classic).
    ``empty_waste``: the waste starts empty and takes any card first; the card that
    would have started it is the first card of the stock instead.
    ``joker``: a 53-card deal with one joker, which goes on any card and takes any card.
    ``draw_when_stuck``: drawing only when no card can be removed (the traditional rule).
    ``open``: every tableau card face up from the start (what a player sees only).
    """

    wrap: bool = True
    empty_waste: bool = False
    joker: bool = False
    draw_when_stuck: bool = False
    open: bool = False

    @property
    def name(self) -> str:
        return "easy" if self.wrap else "classic"

    @property
    def variant(self) -> str:
        """The non-default options, e.g. ``empty-waste+joker``; empty for the app's rules."""
        return "+".join(k for k, f in VARIANT_OPTIONS.items() if getattr(self, f))

    @classmethod
    def named(cls, name: str) -> Rules:
        """``easy`` or ``classic`` (any case)."""
        key = name.strip().lower()
        if key not in RULE_SETS:
            raise InputError(f"unknown rules {name!r} (expected easy or classic)")
        return RULE_SETS[key]

    def with_options(self, **options: bool) -> Rules:
        """A copy with some fields changed (unknown names are a programming error)."""
        known = {f.name for f in fields(self)}
        unknown = set(options) - known
        if unknown:
            raise TypeError(f"unknown rule options: {sorted(unknown)}")
        return Rules(**{f: options.get(f, getattr(self, f)) for f in known})

    def adjacent(self, a: int, b: int) -> bool:
        """May a card of rank ``b`` go on a waste of rank ``a`` (0 = A … 12 = K, 13 = wild)?"""
        if a == WILD_RANK or b == WILD_RANK:
            return True
        d = abs(a - b)
        return d == 1 or (self.wrap and d == RANK_COUNT - 1)

    def __str__(self) -> str:
        base = self.name.capitalize()
        return f"{base} ({self.variant.replace('+', ', ')})" if self.variant else base


EASY = Rules(wrap=True)
CLASSIC = Rules(wrap=False)
RULE_SETS = {"easy": EASY, "classic": CLASSIC}
