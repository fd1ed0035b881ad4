"""What is known of a deal: its places in line order, each a card or unknown (``??``).

Line order is that of ``deal --format line``: tableau positions 0–27, the waste, then
the stock in draw order (53 places with the joker). A layout typed in is one; so is
what a player knows of a game played elsewhere, which grows with every card a move
shows (:meth:`Layout.learn`). The cards named nowhere fill the ``??`` places.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..errors import InputError
from .cards import DECK_SIZE, Card
from .dealing import Deal
from .geometry import ROW_OF, ROWS, TABLEAU_SIZE
from .i18n import _, pgettext

UNKNOWN = "??"


@dataclass(frozen=True)
class Layout:
    """The places of a deal in line order, each a Card or None (unknown)."""

    places: tuple[Card | None, ...]

    @classmethod
    def of_deal(cls, deal: Deal, known: Iterable[int]) -> Layout:
        """What is known of ``deal`` when only the places ``known`` have been seen."""
        shown = set(known)
        return cls(tuple(c if i in shown else None for i, c in enumerate(deal.cards)))

    @classmethod
    def parse(cls, text: str) -> Layout:
        """Read 52 tokens separated by spaces or commas; every error names the token."""
        tokens = text.replace(",", " ").split()
        if len(tokens) != DECK_SIZE:
            raise InputError(_("a layout has {size} tokens (positions 0–27, waste, 23 stock "
                               "cards), got {count}", size=DECK_SIZE, count=len(tokens)))
        places: list[Card | None] = []
        where: dict[int, int] = {}
        for i, tok in enumerate(tokens, 1):
            if tok == UNKNOWN:
                places.append(None)
                continue
            try:
                card = Card.parse(tok)
            except InputError:
                raise InputError(_("token {i} {token} is not a card (e.g. Kc, K♣, 10d) nor "
                                   "{unknown}", i=i, token=repr(tok), unknown=UNKNOWN)) from None
            if card.is_joker:
                raise InputError(_("token {i} {token}: a layout holds the {size} cards "
                                   "without the joker", i=i, token=repr(tok), size=DECK_SIZE))
            if card in where:
                raise InputError(_("token {i} {token}: {card} is already token {other}", i=i,
                                   token=repr(tok), card=card.token, other=where[card]))
            where[card] = i
            places.append(card)
        return cls(tuple(places))

    def __repr__(self) -> str:
        return f"Layout.parse({self.line()!r})" if len(self.places) == DECK_SIZE else \
            f"<Layout {self.line()}>"

    @property
    def unknown_places(self) -> list[int]:
        return [i for i, c in enumerate(self.places) if c is None]

    @property
    def known_places(self) -> frozenset[int]:
        return frozenset(i for i, c in enumerate(self.places) if c is not None)

    @property
    def complete(self) -> bool:
        return None not in self.places

    @property
    def missing_cards(self) -> list[Card]:
        """The cards named nowhere, which fill the unknown places."""
        named = {int(c) for c in self.places if c is not None}
        return [Card(i) for i in range(len(self.places)) if i not in named]

    def card(self, place: int) -> Card:
        """The card at ``place``, which must be known (LookupError otherwise)."""
        card = self.places[place]
        if card is None:
            raise LookupError(f"place {place + 1} of the layout is not known")
        return card

    def where(self, card: int) -> int | None:
        """The place of ``card``, None when it is known nowhere."""
        try:
            return self.places.index(card)
        except ValueError:
            return None

    def learn(self, place: int, card: Card,
              name: Callable[[int], str] = lambda p: place_name(p)) -> Layout:
        """The layout with ``card`` known at ``place``; InputError when that contradicts
        what is known (another card there, or this card known elsewhere). ``name``
        names a place in the messages."""
        there = self.places[place]
        if there == card:
            return self
        if there is not None:
            raise InputError(_("{place} is {card}, not {other}", place=name(place),
                               card=there.name, other=card.name))
        elsewhere = self.where(card)
        if elsewhere is not None:
            raise InputError(_("{card} is known already ({place})", card=card.name,
                               place=name(elsewhere)))
        return Layout(self.places[:place] + (card,) + self.places[place + 1:])

    def filled(self) -> Deal:
        """One deal with this knowledge: the missing cards, sorted, in the unknown places."""
        return self.deal(self.missing_cards)

    @property
    def completions(self) -> int:
        return math.factorial(len(self.unknown_places))

    def deal(self, filling: list[Card] | tuple[Card, ...] = ()) -> Deal:
        """The deal with the unknown places filled, in order, from ``filling``."""
        it = iter(filling)
        return Deal(tuple(next(it) if c is None else c for c in self.places))

    def line(self) -> str:
        return " ".join(UNKNOWN if c is None else c.token for c in self.places)


def _ordinal(n: int) -> str:
    # 1st … 10th: the places of a row (each text written out, for pybabel to find it).
    return (pgettext("place in a row", "1st"), pgettext("place in a row", "2nd"),
            pgettext("place in a row", "3rd"), pgettext("place in a row", "4th"),
            pgettext("place in a row", "5th"), pgettext("place in a row", "6th"),
            pgettext("place in a row", "7th"), pgettext("place in a row", "8th"),
            pgettext("place in a row", "9th"), pgettext("place in a row", "10th"))[n - 1]


def place_name(place: int, empty_waste: bool = False) -> str:
    """A place of the line as a player finds it: ``row 3 from the top, 4th card from
    the left``, ``the peaks, 2nd card from the left`` (the top row), ``the bottom row, 1st
    card from the left`` (the face-up row at the start),
    ``the waste card``, ``stock card 5`` (the 5th drawn). Under the empty-waste rule
    place 28, the waste card's, heads the stock."""
    if place < TABLEAU_SIZE:
        row = ROW_OF[place]
        ordinal = _ordinal(place - ROWS[row][0] + 1)
        if row == 0:  # the first and last rows as the app names them
            return _("the peaks, {ordinal} card from the left", ordinal=ordinal)
        if row == len(ROWS) - 1:
            return _("the bottom row, {ordinal} card from the left", ordinal=ordinal)
        return _("row {row} from the top, {ordinal} card from the left", row=row + 1,
                 ordinal=ordinal)
    drawn = place - TABLEAU_SIZE + (1 if empty_waste else 0)
    return _("the waste card") if drawn == 0 else _("stock card {n}", n=drawn)


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
            raise InputError(_("line {number}: {error}", number=number, error=exc)) from None
    return out
