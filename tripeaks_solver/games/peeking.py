"""A peek in a coach session: started and stopped, its next step (the coach's
walk-through, planned by ``analysis.peek``), and where it began when the player takes
moves back past it. :class:`session.CoachSession` has these methods from
:class:`Peeking`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import InputError
from ..model.i18n import _
from ..model.moves import Move
from ..model.observed import ObservedGame
from ..model.scoring import Scheme
from .turns import PeekTurn

if TYPE_CHECKING:
    from ..model.rules import Rules


class Peeking:
    """The peek of a session (a part of :class:`session.CoachSession`, which sets these
    attributes). ``peek_base``: the moves before the peek began (None: no peek);
    ``peek_began``: the record's length when the player asked for it."""

    game: ObservedGame
    scoring: Scheme
    seed: int
    undo_limit: int
    pending: Move | None
    peek_base: int | None
    peek_began: int

    if TYPE_CHECKING:
        @property
        def exact(self) -> bool: ...

        @property
        def rules(self) -> Rules: ...

    def toggle_peek(self) -> str:
        """Start a peek here ("" said), or stop the one going on (what to undo to go back
        to where it began); InputError when there is nothing to peek."""
        if self.peek_base is not None:
            back = self._peek_stack()
            self.peek_base = None
            if not back:
                return _("Peek stopped.")
            return _("Peek stopped. Undo {n} to go back to where it began (or play on from "
                     "here).", n=len(back))
        if self.exact:
            raise InputError(_("every card is known already: nothing to peek"))
        if self.scoring == Scheme.PYSOL:
            raise InputError(_("PySolFC's scored games have no undo (--scoring pysol): "
                               "nothing to peek"))
        if not self.undo_limit:
            raise InputError(_("the app cannot undo (--undo-limit 0): nothing to peek"))
        self.peek_base = self.peek_began = len(self.game.record)
        return ""

    def _peek_stack(self) -> list[Move]:
        # The moves played since the peek began that are still on the board.
        stack: list[Move]
        moves, stack = self.game.moves, []
        if self.peek_base is None:  # no peek
            return stack
        for i in range(self.peek_base, len(moves)):
            if not moves[i].is_undo:
                stack.append(moves[i])
            elif stack:
                stack.pop()
        return stack

    def _settle_peek(self) -> None:
        # Taken back past where the peek began: it begins there now.
        if self.peek_base is None:
            return
        moves, depth = self.game.moves, 0
        for i in range(self.peek_base, len(moves)):
            if not moves[i].is_undo:
                depth += 1
            elif depth:
                depth -= 1
            else:
                self.peek_base = i + 1

    def peek_turn(self) -> PeekTurn | None:
        """The peek's next step (None when not peeking), from what the player knows and
        the moves played since it began; a finished peek ends here (its PeekTurn says
        so, ``finished``)."""
        from ..analysis.peek import next_step

        if self.peek_base is None or self.pending is not None:
            return None
        stack = self._peek_stack()
        knowledge = self.game.knowledge
        step = None
        if not knowledge.complete:
            # The session's seed: peek --seed S plans the same walk.
            step = next_step(knowledge, self.rules, self.game.moves[:self.peek_base], stack,
                             self.undo_limit, seed=self.seed)
        turn = PeekTurn(step, len(stack), len(self.game.record) - self.peek_began,
                        len(knowledge.unknown_places))
        if turn.finished:
            self.peek_base = None
        return turn


__all__ = ["Peeking"]
