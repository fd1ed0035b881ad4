"""Rule sets: Easy (K and A adjacent, the app's default), Classic (no wrap), and the
variants of the literature as options that combine."""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum

from ..errors import InputError
from .cards import WILD_RANK
from .i18n import _

RANK_COUNT = 13

class RuleSet(StrEnum):
    """The two rule sets of the app, by the name every output, code and CSV row gives
    them. The code names them so; what leaves the package (``Rules.name``, rows, JSON)
    is the plain string, ``RuleSet.EASY.value``, so that a user's data holds no enum."""

    EASY = "easy"  # K and A adjacent: the app's default
    CLASSIC = "classic"  # no wrap


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
        return (RuleSet.EASY if self.wrap else RuleSet.CLASSIC).value

    @property
    def variant(self) -> str:
        """The non-default options, e.g. ``empty-waste+joker``; empty for the app's rules."""
        return "+".join(k for k, f in VARIANT_OPTIONS.items() if getattr(self, f))

    @classmethod
    def named(cls, name: str) -> Rules:
        """``easy`` or ``classic`` (any case)."""
        key = name.strip().lower()
        if key not in RULE_SETS:
            raise InputError(_("unknown rules {name} (expected easy or classic)",
                               name=repr(name)))
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

    def neighbours(self, rank: int) -> int:
        """Bit mask of the ranks (0–13) that may go on, or take, a card of ``rank``."""
        return sum(1 << b for b in range(RANK_COUNT + 1) if self.adjacent(rank, b))

    def may_draw(self, can_remove: bool) -> bool:
        """May the player draw now (the stock not being empty), given whether a card
        could be removed instead?"""
        return not (self.draw_when_stuck and can_remove)

    def __str__(self) -> str:
        base = self.name.capitalize()
        return f"{base} ({self.variant.replace('+', ', ')})" if self.variant else base


EASY = Rules(wrap=True)
CLASSIC = Rules(wrap=False)
# Keyed by name, as the commands and files give it (a plain string finds its RuleSet).
RULE_SETS: dict[str, Rules] = {RuleSet.EASY.value: EASY, RuleSet.CLASSIC.value: CLASSIC}
RULE_ORDER = tuple(r.value for r in RuleSet)  # the order of rule sets in every output
RULE_CHOICES = ("code", "easy", "classic", "both")


def select_rules(choice: str, code_rules: str | None = None, *, wrap: bool | None = None,
                 **options: bool) -> tuple[Rules, ...]:
    """The rule sets a command runs under, decided in this one place.

    ``choice`` is ``code`` (the game code's letter ``code_rules``, Easy without one),
    ``easy``, ``classic`` or ``both``; ``wrap`` (when not None) overrides it with the
    one rule set whose K–A wrap it names. ``options`` (``empty_waste``, ``joker``,
    ``draw_when_stuck``, ``open``) apply to every rule set chosen.
    """
    if wrap is not None:
        names: tuple[str, ...] = ((RuleSet.EASY if wrap else RuleSet.CLASSIC).value,)
    elif choice == "both":
        names = RULE_ORDER
    elif choice == "code":
        names = (code_rules or "easy",)
    else:
        names = (Rules.named(choice).name,)
    return tuple(Rules.named(n).with_options(**options) for n in names)
