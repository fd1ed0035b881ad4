"""Cards: plain integers ``suit * 13 + rank`` with names for people and machines.

Ranks run A=0 … K=12, suits c d h s = 0 … 3. People read ``K♣ 10♦ A♠``; machine
formats use ``Kc Td As``. Both parse, in any case, and ``10`` is accepted for T.
The joker of the joker variant is card 52, rank 13 (wild): ``Jk`` for machines,
``🃏`` for people (``joker`` also parses).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

import numpy as np

from ..errors import InputError, quoted
from .i18n import _, pgettext

RANKS = "A23456789TJQK"
SUITS = "cdhs"
SUIT_SYMBOLS = "♣♦♥♠"
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
DECK_SIZE = 52
JOKER = 52
WILD_RANK = 13
_JOKER_WORDS = {"jk", "joker", "🃏", "jkr"}

_SUIT_BY_CHAR = {c: i for i, c in enumerate(SUITS)} | {c: i for i, c in enumerate(SUIT_SYMBOLS)}
# Variation selectors and the white-suit symbols people paste from other apps.
_SUIT_BY_CHAR |= {"♧": 0, "♢": 1, "♡": 2, "♤": 3}


class Card(int):
    """A card as an int 0..51 (``suit * 13 + rank``), or 52 for the joker, that prints
    for people."""

    __slots__ = ()

    def __new__(cls, value: int) -> Self:
        if not 0 <= value <= JOKER:
            raise InputError(_("card index out of range: {value} (expected 0 … 51, 52 = "
                               "joker)", value=value))
        return super().__new__(cls, value)

    @classmethod
    def of(cls, rank: int, suit: int) -> Card:
        return cls(suit * 13 + rank)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``Kc``, ``K♣``, ``10d``, ``td`` …; raise InputError naming a bad token."""
        return cls(parse_card(text))

    @property
    def is_joker(self) -> bool:
        return int(self) == JOKER

    @property
    def rank(self) -> int:
        """0 = A … 12 = K; 13 (wild) for the joker."""
        return WILD_RANK if self.is_joker else int(self) % 13

    @property
    def suit(self) -> int:
        """0 … 3 for c d h s; 4 for the joker."""
        return int(self) // 13

    @property
    def token(self) -> str:
        """Machine notation: ``Kc``."""
        return "Jk" if self.is_joker else RANKS[self.rank] + SUITS[self.suit]

    @property
    def pretty(self) -> str:
        """People's notation: ``K♣``."""
        return "🃏" if self.is_joker else RANK_NAMES[self.rank] + SUIT_SYMBOLS[self.suit]

    @property
    def name(self) -> str:
        """The card in a sentence, as the current language names it: ``K♣`` in English,
        ``vua chuồn`` in Vietnamese, ``krížový kráľ`` in Slovak (the app's words)."""
        if self.is_joker:
            return pgettext("card name", "🃏")
        return pgettext("card name in words", "{rank}{suit}", rank=_rank_word(self.rank),
                        suit=_suit_word(self.rank, self.suit))

    def __str__(self) -> str:
        return self.pretty

    def __repr__(self) -> str:
        return f"Card({self.token})"


_EVERY_CARD = tuple(Card(c) for c in range(JOKER + 1))


def cards_of(indices: Sequence[int]) -> tuple[Card, ...]:
    """The cards of ``indices``, which the caller knows are card indices (0 … 52): one
    shared Card per index, without a check per card (dealing makes one deal a deal)."""
    return tuple(_EVERY_CARD[i] for i in indices)


_RANK_OF = np.array([c % 13 for c in range(DECK_SIZE)] + [WILD_RANK], dtype=np.int64)


def ranks(cards: Sequence[int]) -> np.ndarray:
    """The ranks of ``cards`` as an int64 array (13, wild, for the joker): what the
    kernels read, made without a Python call per card."""
    return _RANK_OF[np.fromiter(cards, dtype=np.intp, count=len(cards))]


def _rank_word(rank: int) -> str:
    # Each text written out, for pybabel to find it.
    words = {0: pgettext("rank name", "A"), 10: pgettext("rank name", "J"),
             11: pgettext("rank name", "Q"), 12: pgettext("rank name", "K")}
    return words.get(rank, RANK_NAMES[rank])


def _suit_word(rank: int, suit: int) -> str:
    # Slovak's suit agrees with the rank's gender: krížové eso, krížový kráľ, krížová 7.
    if rank == 0:
        words = (pgettext("suit, with an ace", "♣"), pgettext("suit, with an ace", "♦"),
                 pgettext("suit, with an ace", "♥"), pgettext("suit, with an ace", "♠"))
    elif rank in (10, 12):
        words = (pgettext("suit, with a jack or a king", "♣"),
                 pgettext("suit, with a jack or a king", "♦"),
                 pgettext("suit, with a jack or a king", "♥"),
                 pgettext("suit, with a jack or a king", "♠"))
    else:
        words = (pgettext("suit, with a queen or a number", "♣"),
                 pgettext("suit, with a queen or a number", "♦"),
                 pgettext("suit, with a queen or a number", "♥"),
                 pgettext("suit, with a queen or a number", "♠"))
    return words[suit]


def _not_a_card(text: str) -> str:
    return _("not a card: {text} (expected rank and suit, e.g. Kc or K♣)", text=quoted(text))


def parse_card(text: str) -> int:
    """Return the card index of ``text`` or raise InputError that names the token."""
    if not isinstance(text, str):
        raise InputError(_("not a card: {text}", text=quoted(text)))
    token = text.strip().replace("\ufe0f", "")
    if token.lower() in _JOKER_WORDS:
        return JOKER
    if len(token) < 2:
        raise InputError(_not_a_card(text))
    rank_text, suit_char = token[:-1].upper(), token[-1]
    suit = _SUIT_BY_CHAR.get(suit_char.lower(), _SUIT_BY_CHAR.get(suit_char))
    if rank_text == "10":
        rank_text = "T"
    if len(rank_text) != 1 or rank_text not in RANKS or suit is None:
        raise InputError(_not_a_card(text))
    return suit * 13 + RANKS.index(rank_text)


def parse_cards(text: str) -> list[Card]:
    """Parse cards separated by spaces or commas."""
    return [Card.parse(tok) for tok in text.replace(",", " ").split()]
