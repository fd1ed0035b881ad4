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
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypedDict, overload

from pysol_cards.cards import ms_rearrange
from pysol_cards.random import LCRandom31, MTRandom

from ..errors import InputError, quoted
from .i18n import _
from .scoring import Scheme

if TYPE_CHECKING:
    from .rules import Rules


class Dealt(Protocol):
    """What the functions below read of a deal: its PySolFC game number (``Deal.pysol``),
    None for a deal that is not PySolFC's (the Deal itself is made in dealing.py,
    ``Deal.from_pysol``, which builds on this module)."""

    @property
    def pysol(self) -> str | None: ...


PREFIX = "pysol:"
MS_FIRST_LARGE = 32000
"""PySolFC deals numbers below this one with the Microsoft-compatible generator."""
MS_MAX = int(LCRandom31.MAX_SEED)
"""The largest ``ms`` number (2^33 − 1)."""
MAX_NUMBER = int(MTRandom.MAX_SEED)
"""The largest plain game number (10^20, the Mersenne Twister's range in PySolFC)."""
MAX_RANGE = 10**10
"""The most games a range may hold (every ``ms`` game fits; a longer one is a typo)."""
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


def _body(text: str) -> str:
    """``text`` without surrounding spaces and its ``pysol:`` prefix."""
    raw = text.strip()
    return raw[len(PREFIX):].strip() if raw[:len(PREFIX)].lower() == PREFIX else raw


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

    # As a game code has them: PySolFC plays Easy rules (K and A adjacent) on 52 cards;
    # no deal number of this tool's own dealing.
    rules = "easy"
    joker = False
    number = None

    @classmethod
    def parse(cls, text: str) -> PysolGame:
        """Read a game number as PySolFC reads it (``123456``, ``#00042``,
        ``00000000000000123456``, ``ms123``), with or without the ``pysol:`` prefix.
        Only ASCII digits; ``#ms42``, as PySolFC's status bar shows it, is read too."""
        if not isinstance(text, str):
            raise InputError(_("not a PySolFC game number: {text}", text=quoted(text)))
        raw = _body(text)
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

    def played(self, rules: str, joker: bool = False) -> PysolGame:
        """The game as played under other rules: the same number (as ``GameCode.played``
        names a code by the rules it is played under); the joker is refused: PySolFC
        deals 52 cards."""
        if joker:
            raise InputError(_("{game} is a PySolFC deal of 52 cards: the joker variant "
                               "needs a game code (TP1-EJ-…)", game=str(self)))
        return self


GAMES = ("Three Peaks", "Three Peaks (Scored)")
OPEN_GAMES = ("Three Peaks (Open)", "Three Peaks (Scored/Open)")


def pysol_games(rules: Rules, scheme: Scheme | None = None) -> tuple[str, ...]:
    """PySolFC's games whose rules ``rules`` are: K and A adjacent (Easy), one card
    starting the waste, draws at any time, one pass through the stock; its Open games
    with ``open``; none under other rules. Under PySolFC's scoring (``scheme`` "pysol")
    only its Scored game: the other keeps no such score."""
    if not rules.wrap or rules.empty_waste or rules.joker or rules.draw_when_stuck:
        return ()
    games = OPEN_GAMES if rules.open else GAMES
    return games[1:] if scheme == Scheme.PYSOL else games


def _games_words(games: tuple[str, ...]) -> str:
    # "Three Peaks and Three Peaks (Scored)", or the one game
    if len(games) == 1:
        return games[0]
    return _("{first} and {second}", first=games[0], second=games[1])


class PysolInfo(TypedDict):
    """The ``pysol`` key of the JSON outputs (:func:`pysol_info`): the game number as
    PySolFC shows it (``00000000000000123456``, ``ms42``) and its games under the rules."""
    number: str
    games: list[str]


def pysol_info(deal: Dealt | None, rules: Rules,
               scheme: Scheme | None = None) -> PysolInfo | None:
    """The ``pysol`` key of the JSON outputs: the PySolFC game number as PySolFC shows
    it and the games the answer covers (an empty list under other rules); None for a
    deal that is not PySolFC's."""
    if deal is None or deal.pysol is None:
        return None
    return {"number": deal.pysol, "games": list(pysol_games(rules, scheme))}


def pysol_title(deal: Dealt | None, rules: Rules, scheme: Scheme | None = None) -> str | None:
    """``PySolFC: Three Peaks and Three Peaks (Scored)``, for the title of a game; None
    for a deal that is not PySolFC's."""
    if deal is None or deal.pysol is None:
        return None
    games = pysol_games(rules, scheme)
    if not games:
        return _("not PySolFC's rules")
    return _("PySolFC: {games}", games=_games_words(games))


def pysol_line(deal: Dealt | None, rules: Rules, scheme: Scheme | None = None) -> str | None:
    """``PySolFC game 00000000000000123456: Three Peaks and Three Peaks (Scored)`` (the
    Scored game alone under ``scheme`` "pysol"), for text outputs; None for a deal that
    is not PySolFC's."""
    if deal is None or deal.pysol is None:
        return None
    games = pysol_games(rules, scheme)
    if not games:
        return _("PySolFC game {number}: these rules are not those of PySolFC's Three Peaks "
                 "(Easy, one waste card, draws at any time)", number=deal.pysol)
    return _("PySolFC game {number}: {games}", number=deal.pysol, games=_games_words(games))


def parse_pysol(text: str) -> PysolGame:
    """The PySolFC game ``text`` names (``pysol:123456``, or the number alone)."""
    return PysolGame.parse(text)


@dataclass(frozen=True)
class PysolRange(Sequence[tuple[int, ...]]):
    """The PySolFC games ``start`` … ``stop`` - 1 (``batch pysol:1 pysol:32001``): item
    ``i`` is the line (52 card indices) of game ``start + i``, dealt when asked for.
    ``ms``: every game by the Microsoft-compatible generator (``ms`` numbers); otherwise
    each number by its own (below 32,000 Microsoft's, from 32,000 the Twister)."""

    ms: bool
    start: int
    stop: int

    def __len__(self) -> int:
        return self.stop - self.start

    @overload
    def __getitem__(self, i: int) -> tuple[int, ...]: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[tuple[int, ...]]: ...

    def __getitem__(self, i: int | slice) -> tuple[int, ...] | Sequence[tuple[int, ...]]:
        if isinstance(i, slice):
            return [self[j] for j in range(len(self))[i]]
        return self.game(i).line()

    def game(self, i: int) -> PysolGame:
        """The ``i``-th game of the range (0 is ``start``)."""
        if not 0 <= i < len(self):
            raise IndexError(i)
        seed = self.start + i
        return PysolGame(self.ms or seed < MS_FIRST_LARGE, seed)

    def __str__(self) -> str:
        """``pysol:1 … pysol:32000``: the first and last games, as PySolFC shows them."""
        return f"{self.game(0)} … {self.game(len(self) - 1)}"


def parse_pysol_range(start: str, stop: str) -> PysolRange:
    """The half-open range of PySolFC games START … STOP-1, both ``pysol:`` numbers of
    one kind (plain or ``ms``); STOP may be one past the last game."""
    first = PysolGame.parse(start)
    ms = _MS.fullmatch(_body(start)) is not None
    raw = _body(stop)
    end_ms = _MS.fullmatch(raw) is not None
    most = MS_MAX if end_ms else MAX_NUMBER
    if end_ms != ms:
        raise InputError(_("START and STOP must be both ms numbers or both plain numbers "
                           "(ms numbers are another generator's games)"))
    if end_ms:
        last = int(raw[raw.index("ms") + 2:])
    else:
        body = _IGNORED.sub("", raw.removesuffix("L").lower())
        last = int(body) if _DIGITS.fullmatch(body) and len(body) <= 22 else -1
    if not 2 <= last <= most + 1:
        raise InputError(_("STOP {text} is not a PySolFC game number nor one past the last: "
                           "{accepted}", text=quoted(stop.strip()), accepted=accepted()))
    if last <= first.seed:
        raise InputError(_("STOP ({stop}) must be greater than START ({start}): the range "
                           "is START … STOP-1", stop=stop.strip(), start=start.strip()))
    if last - first.seed > MAX_RANGE:
        raise InputError(_("a range holds at most {most} games, not {count}",
                           most=f"{MAX_RANGE:,}", count=f"{last - first.seed:,}"))
    return PysolRange(ms, first.seed, last)
