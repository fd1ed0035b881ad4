"""A peek followed by a front end itself: the page plays each step of the plan as the
player taps it in the app and asks only for the cards that turn up.

The plan is the session's (:meth:`CoachSession.peek_turn`, the coach's walk-through):
:func:`follow_peek` plays the next step's undos and moves on the session, each written
to the record like any move, and leaves the last move waiting for its cards
(``session.need``, then ``session.answer``); :func:`peek_back` makes the last step (the
moves still on the board undone, back to where the peek began).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import InputError
from ..model.i18n import _
from ..model.moves import Move
from ..model.observed import Observed
from .turns import PeekTurn

if TYPE_CHECKING:
    from .session import CoachSession


@dataclass(frozen=True)
class Followed:
    """A peek step played for the player (``turn``), the record's length after its
    moves but the last, which waits for its cards."""

    turn: PeekTurn
    length: int

    def waiting(self, session: CoachSession) -> bool:
        """Does the step's last move still wait for its cards?"""
        step = self.turn.step
        return (step is not None and session.pending == step.moves[-1]
                and len(session.game.record) == self.length)


def follow_peek(session: CoachSession) -> Followed | PeekTurn | None:
    """Play the peek's next step as the player taps it in the app: its undos and its
    moves, the last one left waiting for the cards it turns up. Returns the step
    followed; the peek's turn when it has no card to show (its last step, or done: the
    turn that says so, the peek ended); None when not peeking."""
    turn = session.peek_turn()
    if turn is None or turn.step is None:
        return turn
    step = turn.step
    for _undo in range(step.undos):
        session.undo()
    for move in step.moves[:-1]:
        session.play(Observed(move))
        if session.pending is not None:  # the plan plays only cards known before the last
            raise InputError(_("{move} turned up a card the peek did not expect",
                               move=move.name))
    session.play(Observed(step.moves[-1]))
    return Followed(turn, len(session.game.record)) if session.pending is not None else None


def peek_back(session: CoachSession) -> None:
    """The peek's last step, made in the app: the moves it still has on the board
    undone, back to where it began (the next ``peek_turn`` says it is done, and ends
    it). InputError when no peek is going on, or it has a card to show first."""
    turn = session.peek_turn()
    if turn is None or session.pending is not None:
        raise InputError(_("no peek is going on"))
    if turn.step is not None:
        raise InputError(_("the peek has a card to show first"))
    for _undo in range(turn.back):
        session.play(Observed(Move.UNDO))


__all__ = ["Followed", "follow_peek", "peek_back"]
