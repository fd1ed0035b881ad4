"""Positions: a deal under a rule set and the moves that stand, as the game shows them.

A position is what a player sees after a record: undone moves do not stand, so the
record is kept as the removals and draws that lead from the opening to the position,
and the moves taken back only as a count (the game's move counter keeps them).
Everything about it (removed cards, cards drawn, waste, run, scores, legal moves) is
read off the plain-Python game replaying that record, the reference of every answer.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal, overload

from .cards import Card
from .dealing import Deal
from .game import Game, Status
from .geometry import COVERED_BY
from .moves import Move
from .rules import EASY, Rules
from .scoring import Scheme


@dataclass(frozen=True)
class Position:
    """``deal`` under ``rules`` after ``record`` (removals and draws only, no undos),
    with ``undone`` more moves made and taken back on the way (they still count as
    moves: the cards-left scoring counts them)."""

    deal: Deal
    rules: Rules = EASY
    record: tuple[Move, ...] = field(default=())
    undone: int = 0

    def __repr__(self) -> str:
        return f"<Position {self.title}: {self.status.value}, score {self._snapshot.score}>"

    @property
    def title(self) -> str:
        """``TP1-E-AAAAAAD, Easy rules, moves 3`` (the moves left out at the opening)."""
        after = f", moves {self.moves_played}" if self.moves_played else ""
        return f"{self.deal.title}, {self.rules} rules{after}"

    @classmethod
    def of(cls, game: Game) -> Position:
        """The position a game in progress shows."""
        record = tuple(a.move for a in game.history)
        position = cls(game.deal, game.rules, record, game.moves - len(record))
        position.__dict__["_snapshot"] = game.copy()  # the replay it would make
        return position

    @classmethod
    def after(cls, deal: Deal, rules: Rules, moves: Iterable[Move | str]) -> Position:
        """The position after playing ``moves`` (undos included) from the opening.
        IllegalMoveError at the first illegal move, InputError for a malformed token."""
        game = Game(deal, rules)
        for move in moves:
            game.play(move)
        return cls.of(game)

    def game(self) -> Game:
        """A fresh game standing at this position (the record replayed)."""
        game = Game(self.deal, self.rules)
        for move in self.record:
            game.play(move)
        game.moves += self.undone
        return game

    @cached_property
    def _snapshot(self) -> Game:
        return self.game()

    # --- what the game shows -----------------------------------------------------
    @property
    def removed(self) -> int:
        """Mask of the removed tableau positions."""
        return self._snapshot.removed

    @property
    def drawn(self) -> int:
        """Cards drawn from the stock so far."""
        return self._snapshot.stock_index

    @property
    def waste(self) -> Card | None:
        return self._snapshot.waste

    @property
    def run(self) -> int:
        """Removals since the last draw (the original and pysol scorings' run)."""
        return self._snapshot.run

    @property
    def stock_left(self) -> int:
        return self._snapshot.stock_left

    @property
    def cards_left(self) -> int:
        return self._snapshot.cards_left

    @property
    def status(self) -> Status:
        return self._snapshot.status

    @overload
    def score_under(self, scheme: Literal[Scheme.APP, Scheme.ORIGINAL, Scheme.PYSOL,
                                          "app", "original", "pysol"]) -> int: ...
    @overload
    def score_under(self, scheme: Literal[Scheme.CARDS_LEFT, "cards-left"]
                    ) -> tuple[int, int]: ...
    @overload
    def score_under(self, scheme: Scheme | str) -> int | tuple[int, int]: ...

    def score_under(self, scheme: Scheme | str) -> int | tuple[int, int]:
        """The score so far: see :meth:`Game.score_under`."""
        return self._snapshot.score_under(scheme)

    def shown_score(self, scheme: Scheme | str) -> int:
        """The score so far as the commands show it: see :meth:`Game.shown_score`."""
        return self._snapshot.shown_score(scheme)

    @property
    def moves_played(self) -> int:
        """The game's move counter: the moves that stand and those taken back."""
        return len(self.record) + self.undone

    def visible_places(self) -> frozenset[int]:
        """The places of the deal's line the game has shown: see
        :meth:`Game.visible_places`."""
        return self._snapshot.visible_places()

    def face_up(self, position: int) -> bool:
        """Is tableau ``position`` still there and face up (or shown by open rules)?"""
        if self.removed >> position & 1:
            return False
        return self.rules.open or all(self.removed >> q & 1 for q in COVERED_BY[position])

    def legal_moves(self) -> list[Move]:
        """Every legal move: playable cards left to right by position, then the draw."""
        game = self._snapshot
        if game.status is not Status.IN_PLAY:
            return []
        moves = [Move.remove(c) for c in game.playable()]
        if game.stock_left and self.rules.may_draw(bool(moves)):
            moves.append(Move.DRAW)
        return moves

    def play(self, move: Move | str) -> Position:
        """The position after one legal move (IllegalMoveError otherwise)."""
        game = self._snapshot.copy()
        game.play(move)
        return Position.of(game)
