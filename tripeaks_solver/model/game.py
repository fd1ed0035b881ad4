"""The plain-Python game: moves, undo, scores, status. The reference every solution replays on.

The scoring schemes of ``scoring.py`` are kept side by side (``score_under``
picks one). The rules are those of docs/rules.md.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from enum import Enum
from typing import Literal, overload

from ..errors import IllegalMoveError
from .cards import WILD_RANK, Card
from .dealing import WASTE_INDEX, Deal
from .geometry import COVERED_BY, FULL_MASK, PEAK_MASKS, TABLEAU_SIZE, peaks_cleared
from .messages import check_language, message
from .moves import Move
from .rules import EASY, Rules
from .scoring import (
    MOVE_COST,
    ORIGINAL_DRAW_COST,
    ORIGINAL_PEAK_BONUS,
    PEAK_BONUS,
    PYSOL_START,
    PYSOL_STOCK_POINTS,
    START_SCORE,
    Scheme,
    check_scheme,
    pysol_removal_points,
)

UNDO_LIMIT = 100
PEEK_SEED = 1  # the default seed of a peek plan's samples (``peek --seed``)


class Status(Enum):
    IN_PLAY = "in play"
    WON = "won"
    STUCK = "stuck"


@dataclass(frozen=True)
class Action:
    """One done action, enough to undo it: a removal (``position`` ≥ 0) or a draw (-1)."""

    card: Card
    position: int
    previous_waste: Card | None
    previous_score: int
    peaks_cleared: int = 0
    previous_original: int = 0
    previous_run: int = 0
    previous_pysol: int = PYSOL_START

    @property
    def is_draw(self) -> bool:
        return self.position < 0

    @property
    def move(self) -> Move:
        """The move this action did (an undo returns the action it took back)."""
        return Move.DRAW if self.is_draw else Move.remove(self.card)


class Game:
    """A game in progress on ``deal`` under ``rules``, with scores and undo."""

    def __init__(self, deal: Deal, rules: Rules = EASY, lang: str | None = None) -> None:
        self.deal = deal
        self.rules = rules
        self.lang = None if lang is None else check_language(lang)
        self.removed = 0  # bit p set when tableau position p is gone
        self.stock_index = 0  # cards drawn so far
        self.waste, self.stock = deal.opening(rules)
        self.score = START_SCORE
        self.original = 0
        self.run = 0  # removals since the last draw, for the original and pysol scorings
        self.pysol = PYSOL_START
        self.moves = 0
        self.history: deque[Action] = deque(maxlen=UNDO_LIMIT)
        self._position: dict[int, int] | None = None  # card -> place, made at the first removal

    def copy(self) -> Game:
        """An independent game in the same state (the deal and rules are shared)."""
        twin = object.__new__(Game)
        twin.__dict__.update(self.__dict__)
        twin.history = deque(self.history, maxlen=UNDO_LIMIT)
        return twin

    # --- what the player sees -------------------------------------------------
    def is_removed(self, position: int) -> bool:
        return bool(self.removed >> position & 1)

    def is_uncovered(self, position: int) -> bool:
        """Present and not covered; such a card is face up (the bottom row always is)."""
        return not self.is_removed(position) and all(
            self.is_removed(q) for q in COVERED_BY[position]
        )

    def is_face_up(self, position: int) -> bool:
        """Uncovered cards are face up; with open peaks every card is."""
        return not self.is_removed(position) and (self.rules.open or self.is_uncovered(position))

    def visible_places(self) -> frozenset[int]:
        """The places of the deal's line (0–27 tableau, 28 waste, the stock after it)
        whose cards the game has shown on the way here: the removed and face-up tableau
        cards, the starting waste card, the stock cards drawn."""
        shown = {p for p in range(TABLEAU_SIZE) if self.is_removed(p) or self.is_face_up(p)}
        first = self.deal.stock_start(self.rules)
        shown.update(range(first, first + self.stock_index))
        if not self.rules.empty_waste:
            shown.add(WASTE_INDEX)
        return frozenset(shown)

    def follows_waste(self, card: Card) -> bool:
        """May ``card`` go on the waste top (anything goes on an empty waste)?"""
        top = WILD_RANK if self.waste is None else self.waste.rank
        return self.rules.adjacent(top, card.rank)

    def playable(self) -> list[Card]:
        """Tableau cards that may be removed now, left to right by position."""
        return [
            c
            for p, c in enumerate(self.deal.tableau)
            if self.is_uncovered(p) and self.follows_waste(c)
        ]

    @property
    def stock_left(self) -> int:
        return len(self.stock) - self.stock_index

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

    @overload
    def score_under(self, scheme: Literal[Scheme.APP, Scheme.ORIGINAL, Scheme.PYSOL,
                                          "app", "original", "pysol"]) -> int: ...
    @overload
    def score_under(self, scheme: Literal[Scheme.CARDS_LEFT, "cards-left"]
                    ) -> tuple[int, int]: ...
    @overload
    def score_under(self, scheme: Scheme | str) -> int | tuple[int, int]: ...

    def score_under(self, scheme: Scheme | str) -> int | tuple[int, int]:
        """The score under ``app``, ``original`` or ``pysol``; (cards left, moves) under
        ``cards-left``."""
        if scheme == Scheme.APP:
            return self.score
        if scheme == Scheme.ORIGINAL:
            return self.original
        if scheme == Scheme.PYSOL:
            return self.pysol
        check_scheme(scheme)
        return self.cards_left, self.moves

    def shown_score(self, scheme: Scheme | str) -> int:
        """The score the commands show under ``scheme``: the app or original score, and
        under ``cards-left`` the cards left (the moves are a key of their own)."""
        score = self.score_under(scheme)
        return score[0] if isinstance(score, tuple) else score

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
        if self._position is None:  # a search's start position never needs it
            self._position = {int(c): p for p, c in enumerate(self.deal.tableau)}
        position = self._position.get(int(card))
        if position is None or self.is_removed(position):
            raise self._refuse("not_in_tableau")
        if not self.is_uncovered(position):
            raise self._refuse("blocked")
        if not self.follows_waste(card):
            raise self._refuse("not_adjacent")
        before = self.removed
        self.removed |= 1 << position
        cleared = sum(1 for m in PEAK_MASKS if self.removed & m == m and before & m != m)
        action = self._record(card, position, cleared)
        self.run += 1
        self.original += self.run
        if cleared:
            self.original += ORIGINAL_PEAK_BONUS[peaks_cleared(before)]
        self.pysol += pysol_removal_points(self.run, peaks_cleared(self.removed), bool(cleared))
        if self.removed == FULL_MASK:
            self.pysol += PYSOL_STOCK_POINTS * self.stock_left
        self._apply(action, card, -MOVE_COST + PEAK_BONUS * cleared)
        return action

    def draw(self) -> Action:
        """Turn the top stock card onto the waste."""
        self._check_in_play()
        if self.stock_left == 0:
            raise self._refuse("stock_empty")
        if not self.rules.may_draw(bool(self.playable())):
            raise self._refuse("draw_not_allowed")
        card = self.stock[self.stock_index]
        self.stock_index += 1
        action = self._record(card, -1, 0)
        self.run = 0
        self.original -= ORIGINAL_DRAW_COST
        self._apply(action, card, -MOVE_COST)
        return action

    def _record(self, card: Card, position: int, cleared: int) -> Action:
        return Action(card, position, self.waste, self.score, cleared, self.original, self.run,
                      self.pysol)

    def _apply(self, action: Action, new_waste: Card, points: int) -> None:
        self.waste = new_waste
        self.score = max(0, self.score + points)
        self.moves += 1
        self.history.append(action)

    def undo(self) -> Action:
        """Take back the last action (up to 100): card, face-down state and scores return."""
        if not self.history:
            raise self._refuse("nothing_to_undo")
        action = self.history.pop()
        if action.is_draw:
            self.stock_index -= 1
        else:
            self.removed &= ~(1 << action.position)
        self.waste = action.previous_waste
        self.score = action.previous_score
        self.original = action.previous_original
        self.run = action.previous_run
        self.pysol = action.previous_pysol
        return action

    def play(self, move: Move | str) -> Action:
        """Play one move (or record token: ``Kc``/``K♣``, ``draw``/``d``, ``undo``/``u``)."""
        if isinstance(move, str):
            move = Move.parse(move)
        if move.card is not None:  # a removal
            return self.remove(move.card)
        return self.draw() if move.is_draw else self.undo()
