"""Layouts typed in: 52 tokens in line order, ``??`` for cards the player cannot see.

Line order is that of ``deal --format line``: tableau positions 0–27, the waste, then
the stock in draw order. The cards named nowhere fill the ``??`` places.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .cards import DECK_SIZE, Card
from .dealing import Deal
from .errors import InputError

UNKNOWN = "??"


@dataclass(frozen=True)
class Layout:
    """52 places in line order, each a Card or None (unknown)."""

    places: tuple[Card | None, ...]

    @classmethod
    def parse(cls, text: str) -> Layout:
        """Read 52 tokens separated by spaces or commas; every error names the token."""
        tokens = text.replace(",", " ").split()
        if len(tokens) != DECK_SIZE:
            raise InputError(f"a layout has {DECK_SIZE} tokens (positions 0–27, waste, "
                             f"23 stock cards), got {len(tokens)}")
        places: list[Card | None] = []
        where: dict[int, int] = {}
        for i, tok in enumerate(tokens, 1):
            if tok == UNKNOWN:
                places.append(None)
                continue
            try:
                card = Card.parse(tok)
            except InputError:
                raise InputError(f"token {i} {tok!r} is not a card (e.g. Kc, K♣, 10d) "
                                 f"nor {UNKNOWN}") from None
            if card.is_joker:
                raise InputError(f"token {i} {tok!r}: a layout holds the {DECK_SIZE} cards "
                                 "without the joker")
            if card in where:
                raise InputError(f"token {i} {tok!r}: {card.token} is already token {where[card]}")
            where[card] = i
            places.append(card)
        return cls(tuple(places))

    @property
    def unknown_places(self) -> list[int]:
        return [i for i, c in enumerate(self.places) if c is None]

    @property
    def missing_cards(self) -> list[Card]:
        """The cards named nowhere, which fill the unknown places."""
        named = {int(c) for c in self.places if c is not None}
        return [Card(i) for i in range(DECK_SIZE) if i not in named]

    @property
    def completions(self) -> int:
        return math.factorial(len(self.unknown_places))

    def deal(self, filling: list[Card] | tuple[Card, ...] = ()) -> Deal:
        """The deal with the unknown places filled, in order, from ``filling``."""
        it = iter(filling)
        return Deal(tuple(next(it) if c is None else c for c in self.places))

    def line(self) -> str:
        return " ".join(UNKNOWN if c is None else c.token for c in self.places)


def parse_layout_file(text: str) -> list[tuple[int, Layout]]:
    """One layout per line; blank lines and ``#`` comments skipped. Returns (line number,
    layout) pairs; an error names the line."""
    out = []
    for number, raw in enumerate(text.splitlines(), 1):
        body = raw.split("#", 1)[0].strip()
        if not body:
            continue
        try:
            out.append((number, Layout.parse(body)))
        except InputError as exc:
            raise InputError(f"line {number}: {exc}") from None
    return out
