"""Games in progress: what every legal move is worth (``hint``) and where a played game
went wrong (``analyze``), exactly, and as a player who cannot see would judge it.

Exact answers solve the position after each move with the solver; fair ones go through
``fair.View`` and never see a face-down card or the stock order.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .dealing import Deal
from .fair import FairHint, View, fair_hint
from .game import Game
from .moves import Move
from .position import Position
from .rules import Rules
from .scoring import check_scheme
from .solver import Solution, solve


def _value(sol: Solution) -> tuple[int, int]:
    """A solution's optimum as one comparable key, higher is better under every scheme."""
    if sol.scheme == "cards-left":
        return -sol.best_score, -(sol.best_moves or 0)
    return sol.best_score, 0


@dataclass(frozen=True)
class MoveValue:
    """One legal move, exactly: is a win still left after it, and the best final score
    (under cards-left: fewest cards left, in ``best_moves`` moves) still reachable."""

    move: Move
    winnable: bool
    best_score: int
    best_moves: int | None
    throws_win: bool  # a win was left before the move and none is after it
    loses_points: bool  # the best final score after it is worse than before it


@dataclass(frozen=True)
class Hint:
    """A position's exact verdict, its best line, and every legal move best first."""

    position: Position
    scheme: str
    solution: Solution
    moves: tuple[MoveValue, ...]

    @property
    def winnable(self) -> bool:
        return self.solution.winnable

    @property
    def best_score(self) -> int:
        return self.solution.best_score

    @property
    def line(self) -> tuple[Move, ...]:
        return self.solution.moves


def _position(start: Game | Position) -> Position:
    return start if isinstance(start, Position) else Position.of(start)


def hint(start: Game | Position, scheme: str = "app") -> Hint:
    """Every legal move of the position with what is still reachable after it."""
    check_scheme(scheme)
    position = _position(start)
    here = solve(position, scheme=scheme)
    rated = []
    for move in position.legal_moves():
        after = solve(position.play(move), scheme=scheme)
        rated.append(MoveValue(move, after.winnable, after.best_score, after.best_moves,
                               here.winnable and not after.winnable,
                               _value(after) < _value(here)))
    order = sorted(range(len(rated)), key=lambda j: (not rated[j].winnable,
                                                      _neg(_key(rated[j], scheme)), j))
    return Hint(position, scheme, here, tuple(rated[j] for j in order))


def _key(value: MoveValue, scheme: str) -> tuple[int, int]:
    if scheme == "cards-left":
        return -value.best_score, -(value.best_moves or 0)
    return value.best_score, 0


def _neg(key: tuple[int, int]) -> tuple[int, int]:
    return -key[0], -key[1]


# --- analyze -------------------------------------------------------------------------
MARKS = ("", "?", "??", "!")


@dataclass(frozen=True)
class MoveReview:
    """One move of a record, judged exactly (and fairly when asked).

    ``lost``: best final score before minus after (cards-left: cards more left);
    ``mark``: ``??`` the move threw the win away, ``?`` it lost points, ``!`` it was the
    only move that kept the win, else empty (undos are never marked). ``share_before``
    and ``share_after``: the share of completions of the unseen cards still winnable
    before and after the move, as the player could know it; ``verdict`` for a ``??``
    move: ``mistake`` when the fair view also rated it below the best move, ``bad luck``
    when it rated it best.
    """

    number: int
    move: Move
    winnable_before: bool
    winnable_after: bool
    best_before: int
    best_after: int
    lost: int
    mark: str
    share_before: float | None = None
    share_after: float | None = None
    verdict: str | None = None


@dataclass(frozen=True)
class Review:
    """A whole record judged: the moves, and where the game was lost."""

    start: Position
    scheme: str
    moves: tuple[MoveReview, ...]
    best_start: int
    final_score: int
    final_best: int
    lost_at: int | None  # the move after which no win was left for good (None: never)
    fair: bool

    @property
    def lost_total(self) -> int:
        return sum(r.lost for r in self.moves if not r.move.is_undo)

    def count(self, mark: str) -> int:
        return sum(r.mark == mark for r in self.moves)


def _only_keeper(position: Position, move: Move) -> bool:
    """Was ``move`` the one legal move after which a win is still left?"""
    keepers = [m for m in position.legal_moves()
               if solve(position.play(m), optimal=False).winnable]
    return keepers == [move]


def analyze(deal: Deal, rules: Rules, record: Iterable[Move | str], scheme: str = "app",
            fair: bool = False, samples: int = 100, seed: int | None = None) -> Review:
    """Judge every move of ``record`` (undos included) from the opening of ``deal``.
    IllegalMoveError at an illegal move, InputError for a malformed token."""
    check_scheme(scheme)
    moves = [m if isinstance(m, Move) else Move.parse(m) for m in record]
    game = Game(deal, rules)
    position = Position.of(game)
    here = solve(position, scheme=scheme)
    start_best = here.best_score
    rows = []
    for number, move in enumerate(moves, 1):
        before, sol_before = position, here
        game.play(move)
        position = Position.of(game)
        here = solve(position, scheme=scheme)
        lost = _value(sol_before)[0] - _value(here)[0]
        mark = ""
        if not move.is_undo:
            if sol_before.winnable and not here.winnable:
                mark = "??"
            elif lost > 0:
                mark = "?"
            elif sol_before.winnable and _only_keeper(before, move):
                mark = "!"
        share_before = share_after = verdict = None
        if fair and not move.is_undo:
            rating = fair_hint(View.of(before), samples, seed, score_samples=0, with_now=True)
            share_before = rating.share_now
            share_after = next(m.share for m in rating.moves if m.move == move)
            if mark == "??":
                verdict = "bad luck" if share_after >= rating.moves[0].share else "mistake"
        rows.append(MoveReview(number, move, sol_before.winnable, here.winnable,
                               sol_before.best_score, here.best_score, lost, mark,
                               share_before, share_after, verdict))
    lost_at = None
    if not here.winnable:
        for row in reversed(rows):
            if row.winnable_before and not row.winnable_after:
                lost_at = row.number
                break
    final = position.score_under(scheme)
    final_score = final[0] if isinstance(final, tuple) else final
    return Review(Position(deal, rules), scheme, tuple(rows), start_best, final_score,
                  here.best_score, lost_at, fair)


def fair_rating(start: Game | Position, samples: int = 1000, seed: int | None = None,
                score_samples: int = 100,
                unknown: frozenset[int] = frozenset()) -> FairHint:
    """The fair hint of a position: only what its player has seen is used."""
    return fair_hint(View.of(_position(start), unknown), samples, seed, score_samples)
