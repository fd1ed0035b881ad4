"""Dealing: deal numbers to cards, frozen forever (golden tests pin it).

The algorithm (documented in the README so other programs can reproduce our deals):
deck index ``suit * 13 + rank``; SplitMix64 seeded with the deal number; an unbiased
bounded draw by rejection; Fisher–Yates from the end; ``deck[0..27]`` to tableau
positions 0–27, ``deck[28]`` to the waste, ``deck[29..51]`` to the stock, drawn in order.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .cards import DECK_SIZE, Card, parse_card
from .codes import DEAL_COUNT, GameCode, deal_id
from .errors import InputError
from .geometry import BOTTOM_MASK, TABLEAU_SIZE

_MASK64 = (1 << 64) - 1
WASTE_INDEX = TABLEAU_SIZE
STOCK_SIZE = DECK_SIZE - TABLEAU_SIZE - 1


class SplitMix64:
    """The SplitMix64 generator, 64-bit state, as frozen for dealing."""

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def bounded(self, m: int) -> int:
        """Uniform in 0 … m-1 without modulo bias (rejects the top 2^64 mod m values)."""
        limit = (1 << 64) - ((1 << 64) % m)
        while True:
            x = self.next()
            if x < limit:
                return x % m


def shuffled_deck(number: int, size: int = DECK_SIZE) -> list[int]:
    """The deck of a deal number after the frozen Fisher–Yates shuffle."""
    rng = SplitMix64(number)
    deck = list(range(size))
    for i in range(size - 1, 0, -1):
        j = rng.bounded(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@dataclass(frozen=True)
class Deal:
    """An immutable deal: 28 tableau cards, the starting waste card and the stock.

    ``cards`` holds 52 cards in the order positions 0–27, waste, stock in draw order.
    ``number`` is the deal number when the deal came from a code, else None.
    """

    cards: tuple[Card, ...]
    number: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if len(self.cards) != DECK_SIZE:
            raise InputError(f"a deal has {DECK_SIZE} cards, got {len(self.cards)}")
        seen: dict[int, int] = {}
        for i, c in enumerate(self.cards):
            if int(c) in seen:
                raise InputError(
                    f"card {Card(c).token} appears twice (places {seen[int(c)] + 1} and {i + 1})"
                )
            seen[int(c)] = i
        object.__setattr__(self, "cards", tuple(Card(c) for c in self.cards))

    @classmethod
    def from_number(cls, number: int) -> Deal:
        """The deal of a deal number (0 … 26^7 − 1)."""
        if not 0 <= number < DEAL_COUNT:
            raise InputError(f"deal number {number} is outside 0 … {DEAL_COUNT - 1}")
        return cls(tuple(Card(c) for c in shuffled_deck(number)), number)

    @classmethod
    def from_code(cls, code: str | GameCode) -> Deal:
        """The deal of a game code; its rules letter does not change the cards."""
        gc = code if isinstance(code, GameCode) else GameCode.parse(code)
        return cls.from_number(gc.number)

    @classmethod
    def from_cards(cls, cards: Iterable[int | str]) -> Deal:
        """A deal from 52 cards (ints or tokens) in line order: positions, waste, stock."""
        parsed = tuple(Card(parse_card(c)) if isinstance(c, str) else Card(c) for c in cards)
        return cls(parsed)

    @property
    def tableau(self) -> tuple[Card, ...]:
        return self.cards[:TABLEAU_SIZE]

    @property
    def waste(self) -> Card:
        return self.cards[WASTE_INDEX]

    @property
    def stock(self) -> tuple[Card, ...]:
        return self.cards[WASTE_INDEX + 1 :]

    @property
    def deal_id(self) -> str | None:
        return None if self.number is None else deal_id(self.number)

    def face_up_at_start(self, position: int) -> bool:
        """Only the bottom row is face up when the deal starts."""
        return bool(BOTTOM_MASK >> position & 1)

    def line(self) -> str:
        """The 52 machine tokens on one line (positions 0–27, waste, stock)."""
        return " ".join(c.token for c in self.cards)

    def position_of(self, card: int) -> int:
        """Index of ``card`` in :attr:`cards` (0–27 tableau, 28 waste, 29+ stock)."""
        return self.cards.index(card)
