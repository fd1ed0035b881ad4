"""Dealing: deal numbers to cards, frozen forever (golden tests pin it).

The algorithm (documented in docs/rules.md so other programs can reproduce our deals):
deck index ``suit * 13 + rank``; SplitMix64 seeded with the deal number; an unbiased
bounded draw by rejection; Fisher–Yates from the end; ``deck[0..27]`` to tableau
positions 0–27, ``deck[28]`` to the waste, ``deck[29..51]`` to the stock, drawn in order.
Joker deals run the same steps on a 53-card deck whose card 52 is the joker
(Fisher–Yates from index 52), so their stock has 24 cards, ``deck[29..52]``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..errors import InputError
from .cards import DECK_SIZE, JOKER, Card, cards_of, parse_card
from .codes import DEAL_COUNT, GameCode, NamedDeal, deal_id
from .geometry import TABLEAU_SIZE
from .pysol import PysolGame

if TYPE_CHECKING:
    from .rules import Rules

_MASK64 = (1 << 64) - 1
_TWO64 = 1 << 64
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
        limit = _TWO64 - _TWO64 % m
        x = self.next()
        while x >= limit:
            x = self.next()
        return x % m


def shuffled_deck(number: int, size: int = DECK_SIZE) -> list[int]:
    """The deck of a deal number after the frozen Fisher–Yates shuffle."""
    bounded = SplitMix64(number).bounded
    deck = list(range(size))
    for i in range(size - 1, 0, -1):
        j = bounded(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@dataclass(frozen=True)
class Deal:
    """An immutable deal: 28 tableau cards, the starting waste card and the stock.

    ``cards`` holds 52 cards (53 with the joker) in the order positions 0–27, waste,
    stock in draw order. ``number`` is the deal number when the deal came from a number
    or a code, ``code`` the game code it came from (as ``GameCode`` writes it), ``pysol``
    the PySolFC game number it came from (as PySolFC shows it: ``ms42``,
    ``00000000000000123456``).
    """

    cards: tuple[Card, ...]
    number: int | None = field(default=None, compare=False)
    code: str | None = field(default=None, compare=False)
    pysol: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if len(self.cards) not in (DECK_SIZE, DECK_SIZE + 1):
            raise InputError(f"a deal has {DECK_SIZE} cards ({DECK_SIZE + 1} with the joker), "
                             f"got {len(self.cards)}")
        if len(self.cards) == DECK_SIZE and JOKER in self.cards:
            raise InputError(f"a deal with the joker has {DECK_SIZE + 1} cards, got {DECK_SIZE}")
        if len(set(self.cards)) < len(self.cards):
            seen: dict[int, int] = {}
            for i, c in enumerate(self.cards):
                if int(c) in seen:
                    raise InputError(f"card {Card(c).token} appears twice "
                                     f"(places {seen[int(c)] + 1} and {i + 1})")
                seen[int(c)] = i
        if not all(type(c) is Card for c in self.cards):  # Card checks the range
            object.__setattr__(self, "cards", tuple(Card(c) for c in self.cards))

    @classmethod
    def from_number(cls, number: int, joker: bool = False) -> Deal:
        """The deal of a deal number (0 … 26^7 − 1), with 53 cards if ``joker``."""
        if not 0 <= number < DEAL_COUNT:
            raise InputError(f"deal number {number} is outside 0 … {DEAL_COUNT - 1}")
        deck = shuffled_deck(number, DECK_SIZE + 1 if joker else DECK_SIZE)
        return cls(cards_of(deck), number)

    @classmethod
    def from_code(cls, code: str | GameCode, joker: bool = False) -> Deal:
        """The deal of a game code (``TP1-E-AAAAAAD``), which it keeps as ``code``; its
        rules letter does not change the cards, its joker flag does (``joker`` True
        deals the 53 cards whatever the flag, as ``--joker`` does)."""
        gc = code if isinstance(code, GameCode) else GameCode.parse(code)
        deck = cls.from_number(gc.number, gc.joker or bool(joker))
        return cls(deck.cards, gc.number, str(gc))

    @classmethod
    def from_pysol(cls, game: str | PysolGame) -> Deal:
        """The deal PySolFC deals for a game number (``pysol:123456``, ``123456``,
        ``ms42``; docs/pysol.md), which it keeps as ``pysol``."""
        g = game if isinstance(game, PysolGame) else PysolGame.parse(game)
        return cls(cards_of(g.line()), pysol=g.shown)

    @classmethod
    def of(cls, named: NamedDeal, joker: bool = False) -> Deal:
        """The deal a game code, a deal number or a PySolFC game names (``game_code``'s
        answer), with 53 cards if ``joker`` (refused for a PySolFC game: 52 cards)."""
        if isinstance(named, PysolGame):
            return cls.from_pysol(named.played(named.rules, joker))
        return cls.from_number(named.number, joker)

    @classmethod
    def from_cards(cls, cards: str | Iterable[int | str]) -> Deal:
        """A deal from 52 (or 53, with the joker) cards, ints or tokens, in line order:
        positions, waste, stock; or one string of the tokens (``deal --format line``),
        spaces or commas between them."""
        if isinstance(cards, str):
            cards = cards.replace(",", " ").split()
        parsed = tuple(Card(parse_card(c)) if isinstance(c, str) else Card(c) for c in cards)
        return cls(parsed)

    def __repr__(self) -> str:
        # How to make it again, not 52 Card objects.
        if self.pysol is not None:
            return f"Deal.from_pysol({self.pysol!r})"
        if self.code is not None:
            return f"Deal.from_code({self.code!r})"
        if self.number is not None:
            return f"Deal.from_number({self.number}{', joker=True' if self.has_joker else ''})"
        return f"Deal.from_cards({self.line()!r})"

    @property
    def title(self) -> str:
        """The deal in a few words: its code, its number, or its first cards."""
        if self.pysol is not None:
            return f"pysol:{self.pysol}"
        if self.code is not None:
            return self.code
        if self.number is not None:
            return f"deal {self.number}"
        return "cards " + " ".join(c.token for c in self.cards[:4]) + " …"

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
    def has_joker(self) -> bool:
        return len(self.cards) > DECK_SIZE

    def opening(self, rules: Rules) -> tuple[Card | None, tuple[Card, ...]]:
        """The starting waste and stock under ``rules``: with an empty waste, the waste
        card is the first card of the stock. Rules with the joker need a joker deal."""
        if rules.joker != self.has_joker:
            need = "a 53-card deal with the joker" if rules.joker else "a 52-card deal"
            raise InputError(f"{rules} rules need {need}")
        if rules.empty_waste:
            return None, (self.waste, *self.stock)
        return self.waste, self.stock

    @property
    def deal_id(self) -> str | None:
        return None if self.number is None else deal_id(self.number)

    @staticmethod
    def stock_start(rules: Rules) -> int:
        """The place of the line where the stock of ``rules`` begins: after the waste,
        or at the waste card's place when the waste starts empty."""
        return WASTE_INDEX if rules.empty_waste else WASTE_INDEX + 1

    def line(self) -> str:
        """The machine tokens on one line (positions 0–27, waste, stock)."""
        return " ".join(c.token for c in self.cards)

    def position_of(self, card: int) -> int:
        """Index of ``card`` in :attr:`cards` (0–27 tableau, 28 waste, 29+ stock)."""
        return self.cards.index(card)
