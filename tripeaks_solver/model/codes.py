"""Game codes such as ``TP1-E-AAAAAAB``: version, rules letter, deal number in base 26."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import InputError
from .i18n import _
from .pysol import PysolGame, is_pysol

VERSION = "TP1"
DEAL_LETTERS = 7
DEAL_COUNT = 26**DEAL_LETTERS
# The rules letter names a rule set; legacy N reads as Easy and prints back as E.
RULES_LETTERS = {"E": "easy", "N": "easy", "C": "classic"}
LETTER_OF_RULES = {"easy": "E", "classic": "C"}


_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_PAIRS = tuple(a + b for a in _LETTERS for b in _LETTERS)  # two base-26 digits at a time


def deal_id(number: int) -> str:
    """The seven letters of a deal number: 3 -> ``AAAAAAD``."""
    if not 0 <= number < DEAL_COUNT:
        raise InputError(_("deal number {number} is outside 0 … {last}", number=number,
                           last=DEAL_COUNT - 1))
    # Letters in pairs (a batch CSV read back checks millions of codes): 1 + 2 + 2 + 2.
    rest, low = divmod(number, 676)
    rest, mid = divmod(rest, 676)
    top, high = divmod(rest, 676)
    return _LETTERS[top] + _PAIRS[high] + _PAIRS[mid] + _PAIRS[low]


def parse_deal_id(text: str) -> int:
    """Read seven letters A–Z (any case) as a base-26 deal number."""
    # Check each character before upper-casing: "ß".upper() is "SS", "ſ".upper() is "S".
    letters = text.strip()
    if len(letters) != DEAL_LETTERS:
        raise InputError(_("deal id {id} must have {count} letters A–Z, not {got}",
                           id=repr(text.strip()), count=DEAL_LETTERS, got=len(letters)))
    number = 0
    for ch in letters:
        if not (ch.isascii() and ch.isalpha()):
            raise InputError(_("deal id {id} has {char}: only letters A–Z are allowed",
                               id=repr(text.strip()), char=repr(ch)))
        number = number * 26 + (ord(ch.upper()) - ord("A"))
    return number


@dataclass(frozen=True)
class GameCode:
    """A parsed game code: the deal number, the rule set its letter names, and the
    joker flag (a ``J`` after the rules letter, ``TP1-EJ-AAAAAAB``: a 53-card deal)."""

    number: int
    rules: str = "easy"
    joker: bool = False

    @classmethod
    def parse(cls, text: str) -> GameCode:
        """Read ``TP1-E-AAAAAAB`` (any case, surrounding spaces allowed)."""
        if not isinstance(text, str):
            raise InputError(_("not a game code: {text}", text=repr(text)))
        raw = text.strip()
        parts = raw.split("-")
        if len(parts) != 3:
            raise InputError(_("game code {code} must look like TP1-E-AAAAAAB "
                               "(version-rules-deal)", code=repr(raw)))
        version, letter, letters = parts[0].upper(), parts[1].upper(), parts[2]
        if version != VERSION:
            raise InputError(_("game code {code}: unknown version {version} (expected "
                               "{expected})", code=repr(raw), version=repr(version),
                               expected=VERSION))
        joker = len(letter) == 2 and letter.endswith("J")
        if joker:
            letter = letter[0]
        if letter not in RULES_LETTERS:
            raise InputError(_("game code {code}: unknown rules letter {letter} (E = Easy, "
                               "C = Classic, legacy N = Easy; a J after it marks a joker deal)",
                               code=repr(raw), letter=repr(parts[1])))
        try:
            number = parse_deal_id(letters)
        except InputError as exc:
            raise InputError(_("game code {code}: {error}", code=repr(raw), error=exc)) from None
        return cls(number, RULES_LETTERS[letter], joker)

    @property
    def deal_id(self) -> str:
        return deal_id(self.number)

    def played(self, rules: str, joker: bool = False) -> GameCode:
        """The code of this deal as played under ``rules`` (``easy``, ``classic``), with
        the joker or not: ``TP1-C-…`` played under Easy is ``TP1-E-…``."""
        return GameCode(self.number, rules, joker)

    def __str__(self) -> str:
        flag = "J" if self.joker else ""
        return f"{VERSION}-{LETTER_OF_RULES[self.rules]}{flag}-{self.deal_id}"


def parse_deal_bound(text: str, what: str = "deal") -> int:
    """A deal number, a 7-letter deal id (``AAAAAAB``) or a game code, as an int."""
    raw = text.strip()
    body = raw[1:] if raw[:1] in "+-" else raw
    if body.isdigit() and body.isascii():
        significant = body.lstrip("0")
        if len(significant) > len(str(DEAL_COUNT)):
            # Not even converted: Python refuses ints of more than 4,300 digits.
            shown = f"{raw[:12]}… ({len(significant):,} digits)"
            if raw[:1] == "-":
                raise InputError(f"{what} {shown} is negative: deal numbers start at 0")
            raise InputError(f"{what} {shown} is beyond 26^7 = {DEAL_COUNT}")
        number = int(raw)
        if number < 0:
            raise InputError(f"{what} {raw} is negative: deal numbers start at 0")
        return number
    if "-" in raw:
        try:
            return GameCode.parse(raw).number
        except InputError as exc:
            raise InputError(f"{what}: {exc}") from None
    try:
        return parse_deal_id(raw)
    except InputError as exc:
        raise InputError(f"{what} {raw!r} is neither a deal number nor a deal id: {exc}") from None


def parse_range(start_text: str, stop_text: str) -> range:
    """The half-open range START … STOP-1 from two bounds as typed."""
    start = parse_deal_bound(start_text, "START")
    stop = parse_deal_bound(stop_text, "STOP")
    if start >= DEAL_COUNT:
        raise InputError(f"START {start} is beyond the last deal, {DEAL_COUNT - 1} (ZZZZZZZ)")
    if stop > DEAL_COUNT:
        raise InputError(f"STOP {stop} is beyond 26^7 = {DEAL_COUNT}, one past the last deal")
    if stop <= start:
        raise InputError(f"STOP ({stop}) must be greater than START ({start}): "
                         "the range is START … STOP-1")
    return range(start, stop)


def is_deal_number(text: str) -> bool:
    """Does ``text`` read as a deal number (ASCII digits) rather than a code?"""
    word = text.strip()
    return word.isdigit() and word.isascii()


NamedDeal = GameCode | PysolGame
"""What names a deal: a game code (or deal number), or a PySolFC game number. Both have
``rules``, ``joker``, ``number`` (None for PySolFC's) and ``played``; ``Deal.of`` deals
either."""


def game_code(text: str) -> NamedDeal:
    """A game code, a deal number (``1132``, whose code then has the Easy letter), or a
    PySolFC game number (``pysol:123456``, dealt as PySolFC deals it)."""
    if is_pysol(text):
        return PysolGame.parse(text)
    return tp_code(text)


def tp_code(text: str) -> GameCode:
    """A game code, or a deal number (``1132``, whose code then has the Easy letter)."""
    if not is_deal_number(text):
        return GameCode.parse(text)
    number = parse_deal_bound(text, "deal number")
    if number >= DEAL_COUNT:
        raise InputError(f"deal number {number} is beyond the last deal, {DEAL_COUNT - 1}")
    return GameCode(number)
