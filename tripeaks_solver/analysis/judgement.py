"""A decision judged as it could be seen then, as a chess site's review judges a move.

Each move of a game is judged against the advice at that moment (:mod:`chances`: the
cards the player knew then, the game's seed, the same samples as the advice): the
chance it lost against the move recommended, graded

- ``?!`` an inaccuracy: at least INACCURACY (5 points of chance) lost;
- ``?`` a mistake: at least MISTAKE (10 points of chance);
- ``??`` a blunder: at least BLUNDER (20 points of chance);

and, where every move's chance is the same (all won, all lost), by the expected points
lost instead (POINT_GRADES: 10, 25 and 50 points; under ``cards-left`` 1, 2 and 4 cards
more left). A move that was the advice is never marked. *Luck* is apart: what the cards
the move turned up did to the chance, the chance of the position after them (for a
player following the advice) minus the chance of the move played (None when the move
showed no card the player did not know; 1 or 0 when the game ended with it).

A game's *accuracy* is the share of its decisions (moves with more than one legal move,
not taken back) left unmarked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from ..model.game import Status
from ..model.moves import Move
from ..model.position import Position
from ..model.scoring import Scheme
from .chances import Chances, better_sign, move_chances
from .fair import StopCheck, View
from .stats import fraction

INACCURACY, MISTAKE, BLUNDER = 0.05, 0.10, 0.20
POINT_GRADES = {Scheme.CARDS_LEFT: (1.0, 2.0, 4.0)}  # any other scheme: DEFAULT_POINT_GRADES
DEFAULT_POINT_GRADES = (10.0, 25.0, 50.0)
GRADES = ("inaccuracy", "mistake", "blunder")
GRADE_MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
EPSILON = 1e-9


@dataclass(frozen=True)
class Decision:
    """One move judged against the advice of its moment.

    ``chance_best`` and ``points_best``: the move recommended's; ``chance_lost`` (at
    least 0) and ``points_lost`` (more points for the advice is positive; under
    ``cards-left`` fewer cards left) are the advice's minus the move's; ``better``: the
    move recommended when the move is marked (it was better by a grade's worth), else
    None; ``grade``: None or one of GRADES; ``choices``: the legal moves."""

    move: Move
    followed: bool
    chance_played: float
    chance_best: float
    chance_lost: float
    points_played: float
    points_best: float
    points_lost: float
    better: Move | None
    grade: str | None
    choices: int
    by_points: bool  # every chance was the same: graded by the points

    @property
    def mark(self) -> str:
        """``?!``, ``?``, ``??`` or empty."""
        return "" if self.grade is None else GRADE_MARKS[self.grade]


def grade_of(lost: float, thresholds: tuple[float, float, float]) -> str | None:
    """The grade of a loss: None below the first threshold, then GRADES in turn."""
    grade = None
    for name, at in zip(GRADES, thresholds, strict=True):
        if lost >= at - EPSILON:
            grade = name
    return grade


def decide(chances: Chances, move: Move) -> Decision:
    """``move`` (a legal move of the position ``chances`` rates) judged."""
    best, played = chances.moves[0], chances.of(move)
    sign = better_sign(chances.scheme)
    followed = move == best.move
    lost = max(0.0, best.chance - played.chance)
    points_lost = sign * (best.points - played.points)
    by_points = len({m.wins for m in chances.moves}) == 1
    grade = None
    if not followed:
        if by_points:
            grade = grade_of(points_lost, POINT_GRADES.get(chances.scheme,
                                                           DEFAULT_POINT_GRADES))
        else:
            grade = grade_of(lost, (INACCURACY, MISTAKE, BLUNDER))
    better = best.move if grade is not None else None
    return Decision(move, followed, played.chance, best.chance, lost, played.points,
                    best.points, points_lost, better, grade, len(chances.moves), by_points)


def accuracy(decisions: list[Decision]) -> float | None:
    """The share of the decisions (more than one legal move) left unmarked; None when
    there was none."""
    choices = [d for d in decisions if d.choices > 1]
    if not choices:
        return None
    return sum(d.grade is None for d in choices) / len(choices)


class JudgedFields(TypedDict):
    """A move judged as it could be seen then, as a review's row gives it
    (:func:`judged_fields`): chances and points as shares and points of the advice's
    moment, ``better`` a move's token, ``mark`` ``?!``, ``?``, ``??`` or empty, ``grade``
    one of GRADES; None (``mark`` empty) where there is no decision."""
    chance_played: float | None
    chance_best: float | None
    chance_lost: float | None
    points_played: float | None
    points_best: float | None
    points_lost: float | None
    better: str | None
    followed: bool | None
    mark: str
    grade: str | None
    luck: float | None


class ReviewedMove(JudgedFields):
    """A review's row (``analysis.hints.Review.rows``): ``analyze --json``'s ``moves``,
    the page's END ``analysis.moves``; the fields of ``hints.ROW_FIELDS``."""
    number: int
    move: str
    winnable_before: bool | None
    winnable_after: bool | None
    best_before: int | None
    best_after: int | None
    best_moves_before: int | None
    best_moves_after: int | None
    lost: int | None
    exact_mark: str | None
    share_before: float | None
    share_after: float | None
    share_best: float | None
    verdict: str | None
    taken_back: bool


def judged_fields(d: Decision | None, luck: float | None) -> JudgedFields:
    """A decision and its luck as a review's row gives them (None where there is none:
    an undo, a move taken back)."""
    if d is None:
        return {"chance_played": None, "chance_best": None, "chance_lost": None,
                "points_played": None, "points_best": None, "points_lost": None,
                "better": None, "followed": None, "mark": "", "grade": None, "luck": None}
    return {"chance_played": fraction(d.chance_played), "chance_best": fraction(d.chance_best),
            "chance_lost": fraction(d.chance_lost), "points_played": round(d.points_played, 2),
            "points_best": round(d.points_best, 2), "points_lost": round(d.points_lost, 2),
            "better": None if d.better is None else d.better.token, "followed": d.followed,
            "mark": d.mark, "grade": d.grade, "luck": fraction(luck)}


def luck_of(after: Position, known_then: frozenset[int], known_after: frozenset[int],
            decision: Decision, samples: int, seed: int, scheme: Scheme,
            should_stop: StopCheck | None) -> float | None:
    """What the cards a move turned up did to the chance: the chance of the position
    after them (the advice's there; 1 or 0 when the game ended) minus the chance of the
    move played. None when it showed no card the player did not know."""
    if after.status is Status.WON:
        return 1.0 - decision.chance_played
    if after.status is not Status.IN_PLAY:
        return 0.0 - decision.chance_played
    if known_after == known_then:
        return None
    value = move_chances(View.of(after, known_after), samples, seed, scheme,
                         should_stop).value
    return None if value is None else value - decision.chance_played


__all__ = ["BLUNDER", "DEFAULT_POINT_GRADES", "GRADES", "GRADE_MARKS", "INACCURACY", "MISTAKE",
           "POINT_GRADES", "Decision", "accuracy", "decide", "grade_of", "judged_fields",
           "luck_of"]
