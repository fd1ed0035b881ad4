"""PySolFC's Three Peaks deals, by the game number PySolFC shows (``pysol:123456``).

PySolFC (the free solitaire collection) deals every game from its game number:

* the number as typed: an ``ms`` prefix (``ms123``) names the Microsoft-compatible
  generator; otherwise spaces and the characters ``# - _ . ,`` are ignored, a final ``L``
  is dropped, and the digits read as a number; 1 … 31,999 use the Microsoft-compatible
  generator too, 32,000 … 10^20 the Mersenne Twister (Python's own);
* the 52 cards made clubs, spades, hearts, diamonds, ace to king each, put in the
  Microsoft order for the Microsoft generator, then shuffled (the generators and the
  shuffle are those of the ``pysol-cards`` package, PySolFC's own);
* Three Peaks deals from the top of the shuffled pile (its end): the 18 peak cards of
  rows 1–3, left to right, the 10 bottom cards, then one card to the waste; the rest is
  the stock, its top drawn next.

PySolFC's rows are numbered as this project's tableau positions (row 1 0–2 … bottom row
18–27, left to right), so the deal's line is the shuffled pile read from its end.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pysol_cards.cards import ms_rearrange
from pysol_cards.random import LCRandom31, MTRandom

from ..errors import InputError, quoted
from .i18n import _

if TYPE_CHECKING:
    from .dealing import Deal

PREFIX = "pysol:"
MS_FIRST_LARGE = 32000
"""PySolFC deals numbers below this one with the Microsoft-compatible generator."""
MS_MAX = int(LCRandom31.MAX_SEED)
"""The largest ``ms`` number (2^33 − 1)."""
MAX_NUMBER = int(MTRandom.MAX_SEED)
"""The largest plain game number (10^20, the Mersenne Twister's range in PySolFC)."""
_LONGEST = 64  # characters: longer text is no game number (and never becomes a huge int)

_MS = re.compile(r"#?ms([0-9]+)")
_IGNORED = re.compile(r"[\s#\-_.,]")
_DIGITS = re.compile(r"\+?[0-9]+")
# PySolFC's card c is suit c // 13 (clubs, spades, hearts, diamonds), rank c % 13 (A … K);
# ours are suit * 13 + rank with suits clubs, diamonds, hearts, spades.
_OUR_SUIT = (0, 3, 2, 1)
_OUR_CARD = tuple(_OUR_SUIT[c // 13] * 13 + c % 13 for c in range(52))
_MS_ORDER = tuple(ms_rearrange(list(range(52))))


class _Twister(MTRandom):
    """PySolFC's Mersenne Twister (pysol-cards' MTRandom: Python's own generator and the
    shuffle of pysol-cards), seeded without the copy of its whole state that MTRandom
    keeps for a reset we never do (it was most of the time a deal took)."""

    def __init__(self, seed: int) -> None:
        random.Random.__init__(self, seed)


def accepted() -> str:
    """What a PySolFC game number may be, in a few words (for error messages)."""
    return _("PySolFC game numbers are 1 … {most} (5- or 20-digit forms such as 00042, a "
             "leading # allowed) or ms1 … ms{ms_most}", most=MAX_NUMBER, ms_most=MS_MAX)


def is_pysol(text: object) -> bool:
    """Does ``text`` name a PySolFC game (``pysol:…``, the prefix in any case)?"""
    return isinstance(text, str) and text.strip()[:len(PREFIX)].lower() == PREFIX


@dataclass(frozen=True, order=True)
class PysolGame:
    """A PySolFC game number: ``seed`` and its generator, the Microsoft-compatible one
    when ``ms`` (an ``ms`` number, or a number below 32,000), else the Mersenne Twister.
    ``42``, ``00042`` and ``ms42`` are one game; ``ms32000`` and ``32000`` are two."""

    ms: bool
    seed: int

    @classmethod
    def parse(cls, text: str) -> PysolGame:
        """Read a game number as PySolFC reads it (``123456``, ``#00042``,
        ``00000000000000123456``, ``ms123``), with or without the ``pysol:`` prefix.
        Only ASCII digits; ``#ms42``, as PySolFC's status bar shows it, is read too."""
        if not isinstance(text, str):
            raise InputError(_("not a PySolFC game number: {text}", text=quoted(text)))
        raw = text.strip()
        if raw[:len(PREFIX)].lower() == PREFIX:
            raw = raw[len(PREFIX):].strip()
        shown = quoted(raw)
        if len(raw) > _LONGEST:
            raise InputError(_("{text} is not a PySolFC game number: {accepted}",
                               text=shown, accepted=accepted()))
        ms = _MS.fullmatch(raw)
        if ms:
            seed = int(ms.group(1))
            if not 1 <= seed <= MS_MAX:
                raise InputError(_("{text} is not a PySolFC game number: {accepted}",
                                   text=shown, accepted=accepted()))
            return cls(True, seed)
        body = _IGNORED.sub("", raw.removesuffix("L").lower())
        if not _DIGITS.fullmatch(body) or not 1 <= int(body) <= MAX_NUMBER:
            raise InputError(_("{text} is not a PySolFC game number: {accepted}",
                               text=shown, accepted=accepted()))
        seed = int(body)
        return cls(seed < MS_FIRST_LARGE, seed)

    @property
    def shown(self) -> str:
        """The number as PySolFC shows it (its status bar adds a ``#``): ``ms42`` for the
        Microsoft-compatible generator, 20 digits for the others."""
        return f"ms{self.seed}" if self.ms else f"{self.seed:020d}"

    def __str__(self) -> str:
        return PREFIX + self.shown

    def line(self) -> tuple[int, ...]:
        """The 52 card indices (``suit * 13 + rank``) in the order of a deal's line:
        tableau 0–27, the waste, the stock (next draw first)."""
        rng = LCRandom31(self.seed) if self.ms else _Twister(self.seed)
        pile = list(_MS_ORDER) if self.ms else list(range(52))
        rng.shuffle(pile)
        return tuple(_OUR_CARD[c] for c in reversed(pile))

    def deal(self) -> Deal:
        """The project's :class:`Deal` of this game (it keeps the game as ``pysol``)."""
        from .dealing import Deal

        return Deal.from_pysol(self)


def parse_pysol(text: str) -> PysolGame:
    """The PySolFC game ``text`` names (``pysol:123456``, or the number alone)."""
    return PysolGame.parse(text)


def pysol_deal(text: str | PysolGame) -> Deal:
    """The deal PySolFC deals for a game number (``pysol:123456``, ``ms42``, …)."""
    game = text if isinstance(text, PysolGame) else PysolGame.parse(text)
    return game.deal()
