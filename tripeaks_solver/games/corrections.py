"""Checks and corrections of what a player says of a game played along: what the app
would refuse, where a card was said, and the game again with a card said wrong put
right (``coach``'s ``fix OLD NEW``), in a session too (:class:`Correcting`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import IllegalMoveError, InputError
from ..model.cards import Card
from ..model.game import Status
from ..model.i18n import _, ngettext
from ..model.moves import Move
from ..model.observed import Observed, ObservedGame, name_place
from .records import header, make_start, replay_record

if TYPE_CHECKING:
    from .record_file import RecordFile


def _by_elimination() -> str:
    return _("by elimination (the one card not seen)")


def app_refusal(game: ObservedGame, step: Observed, undo_limit: int) -> str | None:
    """Why the app would refuse ``step`` where the game alone does not know it: a move
    after the game ended (an undo is still taken when stuck, none after a win: the app
    ends the game there), a joker in a game without one, more undos in a row than the
    app keeps moves."""
    status = game.game.status
    if status is Status.WON:
        return (_("the game is won: the app ends it there, with no undo") if step.move.is_undo
                else _("the game is over (won)"))
    if status is Status.STUCK and not step.move.is_undo:
        return _("the game is over (stuck)")
    card = step.move.card  # None: a draw or an undo
    cards = step.shown + (() if card is None else (card,))
    if not game.rules.joker and any(c.is_joker for c in cards):
        return _("this game has no joker (a 52-card deal)")
    if step.move.is_undo and undo_depth(game.moves, undo_limit) == 0 < undo_depth(game.moves):
        if not undo_limit:
            return _("the app cannot undo (undo limit 0)")
        return ngettext("the app takes back at most {n} move in a row (the undo limit {n})",
                        "the app takes back at most {n} moves in a row (the undo limit {n})",
                        undo_limit)
    return None


def undo_depth(moves: list[Move], limit: int | None = None) -> int:
    """How many moves an app could take back after ``moves``, keeping the last ``limit``
    (None: all)."""
    depth = 0
    for move in moves:
        depth = max(depth - 1, 0) if move.is_undo else depth + 1
        depth = depth if limit is None else min(depth, limit)
    return depth


def said_where(game: ObservedGame, card: Card) -> str:
    """Where the player said ``card``: ``at the start``, ``with move 7, Q♠`` (the move
    whose cards turned up held it), or how it became known (``by elimination …``)."""
    if game.start.knowledge.where(card) is not None:
        return _("at the start")
    for number, step in enumerate(game.record, 1):
        if card in step.shown:
            return _("with move {number}, {move}", number=number, move=step.move.pretty)
    return _by_elimination()


def known_already(game: ObservedGame, step: Observed) -> str | None:
    """The message for a card of ``step`` that the player said elsewhere already: where,
    and how to correct it (None when there is none)."""
    try:
        here = game.shows(step.move)
    except IllegalMoveError:
        return None
    for card in step.shown:
        place = game.knowledge.where(card)
        if place is not None and place not in here:
            return _("{card} is known already ({place}, said {where}): if that was another "
                     "card, fix {token} CARD corrects it", card=card.name,
                     place=name_place(place, game.rules), where=said_where(game, card),
                     token=card.token)
    return None


def corrected(game: ObservedGame, wrong: Card, right: Card) -> tuple[ObservedGame, str]:
    """The game with the card said as ``wrong`` put right as ``right`` everywhere (the
    start, the cards moves turned up, the moves that played it), and where it was said;
    an InputError when that cannot be."""
    start, rules = game.start, game.rules
    if start.deal is not None:
        raise InputError(_("every card of this deal is known from its start: nothing to fix"))
    if right.is_joker and not rules.joker:
        raise InputError(_("this game has no joker (a 52-card deal)"))
    place = game.knowledge.where(wrong)
    said = "" if place is None else said_where(game, wrong)
    if place is None or said == _by_elimination():
        raise InputError(_("{card} was not said: nothing to fix", card=wrong.name))
    if wrong == right:
        raise InputError(_("{card} is {other}: nothing to fix", card=wrong.name,
                           other=right.name))
    there = game.knowledge.where(right)
    if there is not None:
        raise InputError(_("{card} is known already ({place}, said {where}): fix that card "
                           "first", card=right.name, place=name_place(there, rules),
                           where=said_where(game, right)))

    def swap(card: Card) -> Card:
        return right if card == wrong else card

    words = [w if w == "??" else swap(Card.parse(w)).token for w in start.text.split()]
    moves = [Observed(o.move if o.move.card is None else Move.remove(swap(o.move.card)),
                      tuple(swap(c) for c in o.shown)) for o in game.record]
    new_start = make_start(start.kind, " ".join(words), rules)
    try:
        return replay_record(new_start, moves, game.lang), said
    except InputError as exc:
        raise InputError(_("with {card} for {other}, {error}", card=right.name,
                           other=wrong.name, error=exc)) from None


class Correcting:
    """A card said wrong corrected in a coach session, its record rewritten (a part of
    :class:`session.CoachSession`, which sets these attributes; ``pending``, ``need``
    and ``said``: the move waiting for the cards it turned up, their places, the cards
    said so far; ``_lines``: in a step, the moves it has written so far)."""

    game: ObservedGame
    scoring: str
    record: RecordFile
    pending: Move | None
    need: tuple[int, ...]
    said: list[Card]
    _lines: list[str] | None

    if TYPE_CHECKING:
        def cancel(self) -> None: ...

    def fix(self, *cards: str) -> str:
        """Correct a card said earlier: ``fix(OLD, NEW)``, the card said as OLD was NEW.
        The record is rewritten in one step and the game played again with it; an
        InputError (nothing changed) when NEW contradicts another card or a move no
        longer plays. A move waiting for its cards goes on waiting (its own card
        corrected too) while it still plays; else it is dropped, and the words say so.
        NEW said already for that move is refused. Returns what was corrected, in words."""
        if len(cards) != 2:
            raise InputError(_("fix OLD NEW: the card said wrong, then the card it was (e.g. "
                               "fix 5d 6d)"))
        wrong, right = Card.parse(cards[0]), Card.parse(cards[1])
        if right in self.said:
            raise InputError(_("{card} is said already, for the move waiting for its cards: "
                               "say the rest, or drop the move, first", card=right.name))
        fixed, said = corrected(self.game, wrong, right)
        waiting = self._waiting_after(fixed, wrong, right)
        self.record.replace(header(fixed.start, self.scoring)
                            + "".join(o.token + "\n" for o in fixed.record))
        if self._lines:  # the moves of the step so far: in the record rewritten
            self._lines.clear()
        self.game = fixed
        done = _("{card}, said {where}, is now {other}; the record is rewritten.",
                 card=wrong.name, where=said, other=right.name)
        if self.pending is None or waiting == self.pending:
            return done
        if waiting is not None:
            self.pending = waiting
            return done
        move = self.pending
        self.cancel()
        return done + " " + _("{move}, which waited for the card it turned up, does not "
                              "play after the correction: it is dropped, play your move "
                              "again.", move=move.name)

    def _waiting_after(self, fixed: ObservedGame, wrong: Card, right: Card) -> Move | None:
        # The move waiting for its cards in the game corrected (its own card corrected
        # too), or None when it no longer plays there or turns up other places.
        move = self.pending
        if move is None:
            return None
        if move.card == wrong:
            move = Move.remove(right)
        try:
            return move if fixed.needs(move) == self.need else None
        except (IllegalMoveError, InputError):
            return None


__all__ = ["Correcting", "app_refusal", "corrected", "known_already", "said_where",
           "undo_depth"]
