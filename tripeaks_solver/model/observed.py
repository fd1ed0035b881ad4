"""Games played elsewhere, as far as the player has seen them.

A player following a game in an app tells the tool what they see: the start (the face-up
cards and the waste, or a code, or a layout with ``??``) and each move with what it
showed. An observed record is ``replay``'s tokens plus those cards: ``Kc:7s`` (removing
K♣ turned up 7♠), ``Kc:7s,Qd`` (two cards turned up, in the order of their places, left
to right), ``d:9h`` (the draw showed 9♥), ``u``.

What the player knows is a :class:`layout.Layout` that only grows: an undo turns a card
face down again in the app, but the player has seen it. Where the game stands is a
plain-Python :class:`game.Game` on a deal that agrees with that knowledge: the deal
itself when it is known (a code, a full layout), otherwise the knowledge with the cards
not seen yet put in sorted order on the places not known. Every move a player can make
depends only on cards they see, so the game plays the same whatever those places hold,
and it is played again on the new filling when a card is learnt.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..errors import IllegalMoveError, InputError, quoted
from .cards import DECK_SIZE, Card
from .dealing import WASTE_INDEX, Deal
from .game import Action, Game, Status
from .geometry import ROWS, TABLEAU_SIZE
from .i18n import _, ngettext
from .layout import Layout, place_name
from .messages import message
from .moves import Move, parse_numbered
from .position import Position
from .rules import Rules


@dataclass(frozen=True)
class Observed:
    """A move of a record and the cards it showed, in the order of their places."""

    move: Move
    shown: tuple[Card, ...] = ()
    typed: str = field(default="", compare=False)  # as the user wrote it, for messages

    @classmethod
    def parse(cls, text: str) -> Observed:
        """Read ``Kc``, ``Kc:7s``, ``Kc:7s,Qd``, ``d:9h``, ``u`` (InputError otherwise)."""
        head, colon, tail = text.strip().partition(":")
        move = Move.parse(head)
        if not colon:
            return cls(move, (), text.strip())
        if move.is_undo:
            raise InputError(_("{text}: an undo shows no card", text=quoted(text)))
        words = [w for w in tail.replace(",", " ").split() if w]
        if not words:
            raise InputError(_("{text}: name the cards after the colon (e.g. {example})",
                               text=quoted(text), example=head + ":7s"))
        try:
            shown = tuple(Card.parse(w) for w in words)
        except InputError as exc:
            raise InputError(f"{quoted(text)}: {exc}") from None
        return cls(move, shown, text.strip())

    @property
    def said(self) -> str:
        """The move as the user wrote it (its token when made here)."""
        return self.typed or self.token

    @property
    def token(self) -> str:
        """Machine notation: ``Kc:7s,Qd``, ``draw:9h``, ``undo``."""
        if not self.shown:
            return self.move.token
        return f"{self.move.token}:{','.join(c.token for c in self.shown)}"

    @property
    def pretty(self) -> str:
        """People's notation: ``K♣:7♠,Q♦``."""
        if not self.shown:
            return self.move.pretty
        return f"{self.move.pretty}:{','.join(c.pretty for c in self.shown)}"

    def __str__(self) -> str:
        return self.pretty


def parse_observed(words: Iterable[str]) -> list[Observed]:
    """Observed moves from command-line words, several per word allowed (spaces or
    commas between moves; a comma inside an observation belongs to it). An InputError
    names the move's place in the record."""
    tokens = []
    for word in words:
        for chunk in word.split():
            # "Kc:7s,Qd" is one move; "Kc,d" two: a comma splits only outside a colon.
            head, colon, tail = chunk.partition(":")
            parts = head.split(",")
            if colon:
                parts[-1] = f"{parts[-1]}:{tail}"
            tokens += [p for p in parts if p]
    return parse_numbered(tokens, Observed.parse)


# --- the start as seen -----------------------------------------------------------------
START_KINDS = ("code", "layout", "seen")
BOTTOM_ROW = tuple(range(*ROWS[-1]))


def seen_places(rules: Rules) -> tuple[int, ...]:
    """The places of the line a player sees at the start, in the order ``--seen`` lists
    them: the bottom row (every tableau card under open rules), then the waste card."""
    tableau = tuple(range(TABLEAU_SIZE)) if rules.open else BOTTOM_ROW
    return tableau if rules.empty_waste else tableau + (WASTE_INDEX,)


def seen_help(rules: Rules) -> str:
    """What ``--seen`` lists under ``rules``, for messages and prompts."""
    if rules.open:
        return (_("the 28 peak cards left to right, row by row") if rules.empty_waste else
                _("the 28 peak cards left to right, row by row, then the waste card"))
    return (_("the 10 face-up cards left to right") if rules.empty_waste else
            _("the 10 face-up cards left to right, then the waste card"))


@dataclass(frozen=True)
class Start:
    """How a game played elsewhere began, as the player told it.

    ``kind`` is ``code``, ``layout`` or ``seen`` and ``text`` what was typed (the code,
    the 52 tokens, the cards seen); ``knowledge`` is what the player knows at the start;
    ``deal`` the whole deal when it is known (a code, a layout without ``??``).
    """

    kind: str
    text: str
    rules: Rules
    knowledge: Layout
    deal: Deal | None

    @classmethod
    def of_deal(cls, kind: str, text: str, deal: Deal, rules: Rules) -> Start:
        """A start from a whole deal (a code, a full layout): the player knows what the
        opening shows."""
        shown = Game(deal, rules).visible_places()
        return cls(kind, text, rules, Layout.of_deal(deal, shown), deal)

    @classmethod
    def of_layout(cls, layout: Layout, rules: Rules) -> Start:
        """A start from a layout typed in: the player knows its cards, and must know
        those the opening shows."""
        if rules.joker:
            raise InputError(_("a layout holds 52 cards without the joker: for the joker "
                               "variant give a game code (TP1-EJ-…)"))
        if layout.complete:
            return cls.of_deal("layout", layout.line(), layout.deal(), rules)
        missing = [p for p in seen_places(rules) if layout.places[p] is None]
        if missing:
            raise InputError(_("the player sees place {number} of the layout ({place}) at "
                               "the start, which is ??: name that card",
                               number=missing[0] + 1, place=name_place(missing[0], rules)))
        return cls("layout", layout.line(), rules, layout, None)

    @classmethod
    def of_seen(cls, text: str, rules: Rules, option: bool = True) -> Start:
        """A start from the cards a player sees: ``seen_help(rules)`` says which. Its
        errors name ``--seen`` (``option``) or, for a start typed at a prompt or on the
        page, the start itself."""
        if rules.joker:
            raise InputError(_("--seen lists the 52-card deal's cards: for the joker variant "
                               "give a game code (TP1-EJ-…)") if option else
                             _("the start is the 52-card deal's cards: for the joker variant "
                               "give a game code (TP1-EJ-…)"))
        places = seen_places(rules)
        words = text.replace(",", " ").split()
        if len(words) != len(places):
            counts = {"count": len(places), "which": seen_help(rules), "got": len(words)}
            raise InputError(_("--seen lists {count} cards ({which}), got {got}", **counts)
                             if option else
                             _("the start needs {count} cards ({which}), got {got}", **counts))
        known: list[Card | None] = [None] * DECK_SIZE
        where: dict[Card, int] = {}
        for i, (word, place) in enumerate(zip(words, places, strict=True), 1):
            try:
                card = Card.parse(word)
            except InputError as exc:
                raise InputError(_("--seen card {i}: {error}", i=i, error=exc) if option else
                                 _("card {i}: {error}", i=i, error=exc)) from None
            if card.is_joker:
                raise InputError(_("--seen card {i} {word}: no joker in a 52-card deal", i=i,
                                   word=repr(word)) if option else
                                 _("card {i} {word}: no joker in a 52-card deal", i=i,
                                   word=repr(word)))
            if card in where:
                counts = {"i": i, "card": card.name, "other": where[card]}
                raise InputError(_("--seen card {i}: {card} is card {other} too", **counts)
                                 if option else _("card {i}: {card} is card {other} too",
                                                  **counts))
            where[card] = i
            known[place] = card
        line = " ".join(Card.parse(w).token for w in words)
        return cls("seen", line, rules, Layout(tuple(known)), None)

    def __repr__(self) -> str:
        return f"<Start {self.kind} {self.text}, {self.rules} rules>"

    @property
    def title(self) -> str:
        if self.kind == "code":
            return self.text
        if self.kind == "seen":
            return _("game seen in an app")
        return _("layout typed in")


def name_place(place: int, rules: Rules) -> str:
    """A place of the line as the player finds it under ``rules``."""
    return place_name(place, rules.empty_waste)


def names(places: Iterable[int], rules: Rules) -> str:
    """``row 3 from the top, 4th card from the left and row 3 from the top, 5th card
    from the left``."""
    said = [name_place(p, rules) for p in places]
    if len(said) == 1:
        return said[0]
    return _("{places} and {last}", places=", ".join(said[:-1]), last=said[-1])


def move_error(number: int, said: str, error: object) -> str:
    """``move 3 (8h): …``: an error of a record's move, named by its number and as it
    was typed."""
    return _("move {number} ({move}): {error}", number=number, move=said, error=error)


class NeedsObservation(InputError):
    """A move turned up cards the player has not said: ``places`` names them."""

    def __init__(self, text: str, places: tuple[int, ...]) -> None:
        super().__init__(text)
        self.places = places


# --- the game --------------------------------------------------------------------------
def _eliminate(knowledge: Layout) -> Layout:
    """``knowledge`` with its one unknown place learnt, when only one is left: it holds
    the one card seen nowhere."""
    unknown = knowledge.unknown_places
    if len(unknown) != 1:
        return knowledge
    return knowledge.learn(unknown[0], knowledge.missing_cards[0])


@dataclass
class ObservedGame:
    """A game played elsewhere: what the player knows, where the game stands, and the
    observed record (every move with the cards it showed, undos included)."""

    start: Start
    lang: str | None = None
    knowledge: Layout = field(init=False)
    game: Game = field(init=False)
    record: list[Observed] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        self.knowledge = _eliminate(self.start.knowledge)
        self.game = Game(self._deal_to_play(), self.start.rules, self.lang)

    @classmethod
    def replay(cls, start: Start, record: Iterable[Observed], lang: str | None = None,
               ) -> ObservedGame:
        """The game after ``record``; an InputError or IllegalMoveError names the move
        (``move N (token): …``)."""
        observed = cls(start, lang)
        for number, step in enumerate(record, 1):
            try:
                observed.play(step)
            except InputError as exc:
                raise InputError(move_error(number, step.said, exc)) from None
            except IllegalMoveError as exc:
                raise IllegalMoveError(exc.key, move_error(number, step.said, exc)) from None
        return observed

    # --- what is known -------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        return self.start.rules

    @property
    def deal(self) -> Deal | None:
        """The whole deal, when it is known (from the start, or every card seen)."""
        if self.start.deal is not None:
            return self.start.deal
        return self.knowledge.filled() if self.knowledge.complete else None

    @property
    def exact(self) -> bool:
        return self.deal is not None

    @property
    def known_places(self) -> frozenset[int]:
        """The places of the line whose cards the player knows."""
        return self.knowledge.known_places

    def position(self) -> Position:
        """Where the game stands (on the deal played: see the module's docstring)."""
        return Position.of(self.game)

    @property
    def moves(self) -> list[Move]:
        return [o.move for o in self.record]

    @property
    def tokens(self) -> list[str]:
        return [o.token for o in self.record]

    def _deal_to_play(self) -> Deal:
        return self.start.deal or self.knowledge.filled()

    # --- moves -----------------------------------------------------------------------
    def shows(self, move: Move) -> tuple[int, ...]:
        """The places ``move`` would turn up now, in order (IllegalMoveError when the
        move is illegal): a removal's uncovered cards, a draw's stock card."""
        trial, _action = self._trial(move)
        return tuple(sorted(trial.visible_places() - self.game.visible_places()))

    def needs(self, move: Move) -> tuple[int, ...]:
        """The places ``move`` would turn up whose cards the player has not said."""
        if self.start.deal is not None:
            return ()
        return tuple(p for p in self.shows(move) if self.knowledge.places[p] is None)

    def _trial(self, move: Move) -> tuple[Game, Action]:
        # The move on a copy, with the game's own refusals, and one more: a card nobody
        # has seen cannot be played, whatever the places not known hold.
        if (move.card is not None and self.start.deal is None
                and self.game.status is Status.IN_PLAY
                and self.knowledge.where(move.card) is None):
            raise IllegalMoveError("not_face_up", message("not_face_up", self.lang))
        trial = self.game.copy()
        return trial, trial.play(move)

    def play(self, step: Observed | Move | str) -> Action:
        """Play one observed move (a token, a Move, or an :class:`Observed`), learning
        the cards it shows. InputError (NeedsObservation when cards must be said) or
        IllegalMoveError leave the game as it was."""
        if isinstance(step, str):
            step = Observed.parse(step)
        elif isinstance(step, Move):
            step = Observed(step)
        move, rules, truth = step.move, self.rules, self.start.deal
        trial, action = self._trial(move)
        # An undo shows nothing new: what it turns face down stays known.
        shown = tuple(sorted(trial.visible_places() - self.game.visible_places()))

        def name(p: int) -> str:
            return name_place(p, rules)

        knowledge = self.knowledge
        if step.shown:
            if len(step.shown) != len(shown):
                if not shown:
                    raise InputError(_("turns up no card (cards given: {count})",
                                       count=len(step.shown)))
                raise InputError(ngettext("turns up {n} card ({places}); cards given: {count}",
                                          "turns up {n} cards ({places}); cards given: {count}",
                                          len(shown), places=names(shown, rules),
                                          count=len(step.shown)))
            for place, card in zip(shown, step.shown, strict=True):
                if truth is not None and truth.cards[place] != card:
                    raise InputError(_("{place} holds {card} in this deal, not {other}: is it "
                                       "the right deal?", place=name(place),
                                       card=truth.cards[place].name, other=card.name))
                knowledge = knowledge.learn(place, card, name)
        elif truth is not None:
            for place in shown:
                knowledge = knowledge.learn(place, truth.cards[place], name)
        else:
            unknown = tuple(p for p in shown if knowledge.places[p] is None)
            if unknown:
                # The example names cards the player has not seen, so it reads as one.
                spare = iter(knowledge.missing_cards)
                head = "d" if move.is_draw else move.token
                example = head + ":" + ",".join(next(spare).token for _place in shown)
                raise NeedsObservation(ngettext(
                    "say the card it turned up ({places}), e.g. {example}",
                    "say the cards it turned up ({places}), e.g. {example}", len(shown),
                    places=names(shown, rules), example=example), unknown)
        knowledge = _eliminate(knowledge)
        if truth is None and knowledge is not self.knowledge:
            # A card learnt: the game again, on the deal that now agrees with it.
            trial = Game(knowledge.filled(), rules, self.lang)
            for earlier in self.record:
                trial.play(earlier.move)
            action = trial.play(move)
        self.knowledge = knowledge
        self.game = trial
        self.record.append(Observed(move, tuple(knowledge.card(p) for p in shown)))
        return action
