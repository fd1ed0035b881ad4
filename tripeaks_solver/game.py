"""The plain-Python game: moves, undo, score, status. The reference every solution replays on."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from enum import Enum

from .cards import Card
from .dealing import Deal
from .errors import IllegalMoveError, InputError
from .geometry import COVERED_BY, FULL_MASK, PEAK_MASKS, TABLEAU_SIZE, peaks_cleared
from .messages import check_language, message
from .rules import EASY, Rules

START_SCORE = 500
PEAK_BONUS = 100
UNDO_LIMIT = 100


class Status(Enum):
    IN_PLAY = "in play"
    WON = "won"
    STUCK = "stuck"


@dataclass(frozen=True)
class Action:
    """One done action, enough to undo it: a removal (``position`` ≥ 0) or a draw (-1)."""

    card: Card
    position: int
    previous_waste: Card
    previous_score: int
    peaks_cleared: int = 0

    @property
    def is_draw(self) -> bool:
        return self.position < 0


class Game:
    """A game in progress on ``deal`` under ``rules``, with the app's score and undo."""

    def __init__(self, deal: Deal, rules: Rules = EASY, lang: str | None = None) -> None:
        self.deal = deal
        self.rules = rules
        self.lang = None if lang is None else check_language(lang)
        self.removed = 0  # bit p set when tableau position p is gone
        self.stock_index = 0  # cards drawn so far
        self.waste: Card = deal.waste
        self.score = START_SCORE
        self.moves = 0
        self.history: deque[Action] = deque(maxlen=UNDO_LIMIT)
        self._position = {int(c): p for p, c in enumerate(deal.tableau)}

    # --- what the player sees -------------------------------------------------
    def is_removed(self, position: int) -> bool:
        return bool(self.removed >> position & 1)

    def is_uncovered(self, position: int) -> bool:
        """Present and not covered; such a card is face up (the bottom row always is)."""
        return not self.is_removed(position) and all(
            self.is_removed(q) for q in COVERED_BY[position]
        )

    is_face_up = is_uncovered

    def playable(self) -> list[Card]:
        """Tableau cards that may be removed now, left to right by position."""
        return [
            c
            for p, c in enumerate(self.deal.tableau)
            if self.is_uncovered(p) and self.rules.adjacent(self.waste.rank, c.rank)
        ]

    @property
    def stock_left(self) -> int:
        return len(self.deal.stock) - self.stock_index

    @property
    def cards_left(self) -> int:
        return TABLEAU_SIZE - self.removed.bit_count()

    @property
    def peaks_cleared(self) -> int:
        return peaks_cleared(self.removed)

    @property
    def status(self) -> Status:
        if self.removed == FULL_MASK:
            return Status.WON
        if self.stock_left == 0 and not self.playable():
            return Status.STUCK
        return Status.IN_PLAY

    # --- actions --------------------------------------------------------------
    def _refuse(self, key: str) -> IllegalMoveError:
        return IllegalMoveError(key, message(key, self.lang))

    def _check_in_play(self) -> None:
        status = self.status
        if status is Status.WON:
            raise self._refuse("game_over")
        if status is Status.STUCK:
            raise self._refuse("stuck")

    def remove(self, card: int | str) -> Action:
        """Remove a tableau card onto the waste; returns the action (with peaks it cleared)."""
        card = Card.parse(card) if isinstance(card, str) else Card(card)
        self._check_in_play()
        position = self._position.get(int(card))
        if position is None or self.is_removed(position):
            raise self._refuse("not_in_tableau")
        if not self.is_uncovered(position):
            raise self._refuse("blocked")
        if not self.rules.adjacent(self.waste.rank, card.rank):
            raise self._refuse("not_adjacent")
        before = self.removed
        self.removed |= 1 << position
        cleared = sum(1 for m in PEAK_MASKS if self.removed & m == m and before & m != m)
        action = Action(card, position, self.waste, self.score, cleared)
        self._apply(action, card, -1 + PEAK_BONUS * cleared)
        return action

    def draw(self) -> Action:
        """Turn the top stock card onto the waste."""
        self._check_in_play()
        if self.stock_left == 0:
            raise self._refuse("stock_empty")
        card = self.deal.stock[self.stock_index]
        self.stock_index += 1
        action = Action(card, -1, self.waste, self.score)
        self._apply(action, card, -1)
        return action

    def _apply(self, action: Action, new_waste: Card, points: int) -> None:
        self.waste = new_waste
        self.score = max(0, self.score + points)
        self.moves += 1
        self.history.append(action)

    def undo(self) -> Action:
        """Take back the last action (up to 100): card, face-down state and score return."""
        if not self.history:
            raise self._refuse("nothing_to_undo")
        action = self.history.pop()
        if action.is_draw:
            self.stock_index -= 1
        else:
            self.removed &= ~(1 << action.position)
        self.waste = action.previous_waste
        self.score = action.previous_score
        return action

    def play(self, move: str) -> Action:
        """Play one record token: a card (``Kc``/``K♣``) removes it, ``draw``/``d``, ``undo``/``u``."""
        word = move.strip().lower()
        if word in ("draw", "d"):
            return self.draw()
        if word in ("undo", "u"):
            return self.undo()
        try:
            card = Card.parse(move)
        except InputError:
            raise InputError(f"not a move: {move!r} (expected a card such as Kc or K♣, draw, undo)")
        return self.remove(card)
