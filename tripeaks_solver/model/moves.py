"""Moves: one type for the game, the solver's lines and the command line.

A move is a removal of a tableau card (named by the card), a draw, or an undo. Its
token is the record notation ``replay`` reads and every machine format writes:
``Kc``, ``draw``, ``undo`` (``d`` and ``u`` are read too).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from ..errors import InputError, quoted
from .cards import JOKER, Card
from .i18n import _, pgettext

T = TypeVar("T")

_DRAW_WORDS = ("draw", "d")
_UNDO_WORDS = ("undo", "u")


@dataclass(frozen=True)
class Move:
    """``card`` for a removal; None with ``kind`` ``draw`` or ``undo``."""

    kind: str
    card: Card | None = None

    DRAW: ClassVar[Move]
    UNDO: ClassVar[Move]

    @classmethod
    def remove(cls, card: int | Card) -> Move:
        # Moves are immutable, so one per card serves every line (lines are built often).
        if 0 <= card < len(_REMOVALS):
            return _REMOVALS[card]
        return cls("remove", Card(card))  # Card refuses it with a clear message

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a record token: a card (``Kc``, ``K♣``), ``draw``/``d``, ``undo``/``u``."""
        word = text.strip().lower()
        if word in _DRAW_WORDS:
            return cls.DRAW
        if word in _UNDO_WORDS:
            return cls.UNDO
        try:
            return cls.remove(Card.parse(text))
        except InputError:
            raise InputError(_("not a move: {text} (expected a card such as Kc or K♣, draw, "
                               "undo)", text=quoted(text))) from None

    @property
    def is_draw(self) -> bool:
        return self.kind == "draw"

    @property
    def is_undo(self) -> bool:
        return self.kind == "undo"

    @property
    def is_removal(self) -> bool:
        return self.kind == "remove"

    @property
    def token(self) -> str:
        """Machine notation: ``Kc``, ``draw`` or ``undo``."""
        return self.card.token if self.card is not None else self.kind

    @property
    def pretty(self) -> str:
        """People's notation: ``K♣``, ``draw`` or ``undo`` (the words in the current
        language)."""
        if self.card is not None:
            return self.card.pretty
        return pgettext("move", "draw") if self.is_draw else pgettext("move", "undo")

    @property
    def name(self) -> str:
        """The move in a sentence: the card as the current language names it (``K♣``,
        ``vua chuồn``), or the draw's or undo's word."""
        return self.card.name if self.card is not None else self.pretty

    def __str__(self) -> str:
        return self.pretty

    def __repr__(self) -> str:
        return f"Move({self.token})"


Move.DRAW = Move("draw")
Move.UNDO = Move("undo")
_REMOVALS = tuple(Move("remove", Card(c)) for c in range(JOKER + 1))


def parse_record(args: tuple[str, ...] | list[str]) -> list[Move]:
    """Moves from command-line words, several per word allowed (spaces or commas);
    an InputError names the move's place in the record."""
    return parse_numbered([t for arg in args for t in arg.replace(",", " ").split()],
                          Move.parse)


def parse_numbered(tokens: Iterable[str], parse: Callable[[str], T]) -> list[T]:
    """``parse`` of every token; an InputError names the token's place in the record."""
    out = []
    for i, token in enumerate(tokens, 1):
        try:
            out.append(parse(token))
        except InputError as exc:
            raise InputError(_("move {number}: {error}", number=i, error=exc)) from None
    return out


def move_numbers(moves: Iterable[Move]) -> list[int]:
    """The number of each move of a record as the app's move counter shows it (the count
    every command uses): a removal or draw is numbered by the counter after it, which
    an undo never turns back, so a move taken back keeps its number and the next move
    gets the next one; an undo has no number of its own and gets that of the move it
    takes back (0 when there is none: the game refuses such an undo)."""
    numbers: list[int] = []
    standing: list[int] = []  # the numbers of the moves an undo could take back
    played = 0
    for move in moves:
        if move.is_undo:
            numbers.append(standing.pop() if standing else 0)
        else:
            played += 1
            standing.append(played)
            numbers.append(played)
    return numbers
