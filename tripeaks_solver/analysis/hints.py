"""Games in progress: what every legal move is worth (``hint``) and where a played game
went wrong (``analyze``), exactly, and as a player who cannot see would judge it.

Exact answers solve the position after each move with the solver; fair ones go through
``fair.View`` and never see a face-down card or the stock order.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from ..model.dealing import Deal
from ..model.game import Game, Status
from ..model.moves import Move, move_numbers
from ..model.observed import Observed, ObservedGame, Start
from ..model.position import Position
from ..model.rules import Rules
from ..model.scoring import Scheme, check_scheme, objective
from ..solver.solve import Solution, solve
from .chances import FairAdvice, fair_advice, move_chances  # noqa: F401 - hints.fair_advice too
from .fair import Cancelled, StopCheck, View, fair_hint
from .judgement import Decision, ReviewedMove, accuracy, decide, judged_fields, luck_of
from .stats import fraction


def _value(sol: Solution) -> tuple[int, ...]:
    """A solution's optimum as one comparable key (:func:`scoring.objective`)."""
    return _rank(sol.scheme, sol.best_score, sol.best_moves)


def _rank(scheme: Scheme, best: int | None, moves: int | None) -> tuple[int, ...]:
    # No best score at all (must_clear, no win left) comes below every score.
    return (0,) if best is None else (1, *objective(scheme, best, moves))


def _loses(before: Solution, after: Solution) -> bool:
    """Is the best result still reachable worse after a move than before it? One
    verdict for hint's ``?`` and analyze's: under cards-left, more cards left, or as
    many in more moves."""
    return _value(after) < _value(before)


@dataclass(frozen=True)
class MoveValue:
    """One legal move, exactly: is a win still left after it, and the best final score
    (under cards-left: fewest cards left, in ``best_moves`` moves) still reachable (of a
    win with ``must_clear``: None when no win is left)."""

    move: Move
    winnable: bool
    best_score: int | None
    best_moves: int | None
    throws_win: bool  # a win was left before the move and none is after it
    loses_points: bool  # the best final score after it is worse than before it

    @property
    def mark(self) -> str:
        """``??`` throws the win away, ``?`` makes the best result worse (fewer points;
        under cards-left more cards left or more moves), else empty."""
        return (Mark.THROWS_WIN if self.throws_win else
                Mark.LOSES_POINTS if self.loses_points else Mark.NONE).value


@dataclass(frozen=True)
class Hint:
    """A position's exact verdict, its best line, and every legal move best first."""

    position: Position
    scheme: Scheme
    solution: Solution
    moves: tuple[MoveValue, ...]

    def __repr__(self) -> str:
        best = f", play {self.moves[0].move.token}" if self.moves else ""
        return (f"<Hint {self.position.title}, {self.scheme} scoring: "
                f"{self.solution.verdict}{best}>")

    @property
    def winnable(self) -> bool:
        return self.solution.winnable

    @property
    def best_score(self) -> int | None:
        return self.solution.best_score

    @property
    def must_clear(self) -> bool:
        return self.solution.must_clear

    @property
    def line(self) -> tuple[Move, ...]:
        return self.solution.moves


def _position(start: Game | Position) -> Position:
    return start if isinstance(start, Position) else Position.of(start)


def hint(start: Game | Position, scheme: Scheme = Scheme.APP, must_clear: bool = False,
         should_stop: StopCheck | None = None) -> Hint:
    """Every legal move of the position with what is still reachable after it (with
    ``must_clear``, by the lines that clear the board only). ``should_stop`` is asked
    between two searches (Cancelled when it says stop)."""
    scheme = check_scheme(scheme)  # a caller's "app" as the enum
    position = _position(start)
    here = solve(position, scheme=scheme, must_clear=must_clear)
    rated = []
    for move in position.legal_moves():
        _stop_here(should_stop)
        after = solve(position.play(move), scheme=scheme, must_clear=must_clear)
        rated.append(MoveValue(move, after.winnable, after.best_score, after.best_moves,
                               here.winnable and not after.winnable, _loses(here, after)))
    # Best first by the scheme's own objective (under app and cards-left a win is always
    # best; the best original score may lie on a line that ends stuck), then winnable.
    def key(j: int) -> tuple:
        mine = _rank(scheme, rated[j].best_score, rated[j].best_moves)
        return tuple(-k for k in mine), not rated[j].winnable, j

    order = sorted(range(len(rated)), key=key)
    return Hint(position, scheme, here, tuple(rated[j] for j in order))


def _stop_here(should_stop: StopCheck | None) -> None:
    if should_stop is not None and should_stop():
        raise Cancelled


# --- analyze -------------------------------------------------------------------------
class Mark(StrEnum):
    """A move's exact mark in a review (in hindsight), as chess annotates it. The code
    names the marks so; what leaves the package (``MoveValue.mark``, a review's rows,
    JSON) is the mark as printed, the plain string ``Mark.THROWS_WIN.value``."""

    NONE = ""
    LOSES_POINTS = "?"  # the best result reachable is worse after the move
    THROWS_WIN = "??"  # a win was left before the move and none is after it
    ONLY_KEEPER = "!"  # the only move that kept the win


EXACT_MARKS = tuple(m.value for m in Mark)  # in hindsight, every card known
MARKS = ("", "?!", "?", "??")  # the judgement's, as it could be seen then (judgement.py)


@dataclass(frozen=True)
class MoveReview:
    """One move of a record, judged as it could be seen then (``decision``: against the
    advice of its moment, :mod:`judgement`; ``luck``: what the cards it turned up did
    to the chance), exactly when the whole deal is known by the end, and with the
    fair ceilings when asked.

    ``number``: the move's as the app counts moves (:func:`moves.move_numbers`);
    ``lost``: best final score before minus after (cards-left: cards more left);
    ``best_moves_before`` and ``best_moves_after``: under cards-left, the moves of the
    best result (None otherwise); ``exact_mark``: ``??`` the move threw the win away, ``?``
    the best result still reachable got worse (as hint's ``?``: under cards-left more
    cards left, or as many in more moves), ``!`` it was the only move of several that
    kept the win, else empty (undos and the moves they took back are never marked:
    ``taken_back``, they are not part of the game as it stands). ``share_before``
    and ``share_after``: the share of completions of the unseen cards still winnable
    before and after the move, as the player could know it (the ceiling: a player
    who saw every card); ``verdict`` for an exact ``??`` move: ``mistake`` when the
    judgement of its moment marked it too, ``bad luck`` when it did not.
    """

    number: int
    move: Move
    winnable_before: bool | None
    winnable_after: bool | None
    best_before: int | None
    best_after: int | None
    lost: int | None
    exact_mark: str | None
    share_before: float | None = None
    share_after: float | None = None
    verdict: str | None = None
    share_best: float | None = None
    best_moves_before: int | None = None
    best_moves_after: int | None = None
    taken_back: bool = False  # an undo, or a move an undo later took back
    decision: Decision | None = None  # None: an undo, or a move taken back
    luck: float | None = None

    @property
    def mark(self) -> str:
        """The judgement's mark as it could be seen then: ``?!``, ``?``, ``??`` or
        empty (:mod:`judgement`)."""
        return "" if self.decision is None else self.decision.mark


@dataclass(frozen=True)
class Review:
    """A whole record judged: the moves, and where the game was lost."""

    start: Position
    scheme: Scheme
    moves: tuple[MoveReview, ...]
    best_start: int | None
    final_score: int
    final_best: int | None
    lost_at: int | None  # the move after which no win was left for good (None: never)
    fair: bool
    status: Status = Status.IN_PLAY  # of the game after the record
    exact: bool = True  # the deal was known: the exact columns are filled
    samples: int = 1000  # the completions of each judgement (the advice's)
    seed: int = 0  # and their seed (the game's)

    @property
    def lost_total(self) -> int | None:
        if not self.exact:
            return None
        return sum(r.lost or 0 for r in self.moves if not r.taken_back)  # exact: all known

    def __repr__(self) -> str:
        return f"<Review {self.start.title}, {self.scheme} scoring: {self.said}>"

    @property
    def said(self) -> str:
        """``moves 22, in play, score 478, best 757 then 655, lost at move 21, marks ?!2
        ?0 ??0, exact ??1 ?1 !1`` (the best from the start, then after the record) and
        the like."""
        said = f"moves {len(self.moves)}, {self.status.value}, score {self.final_score}"
        if self.best_start is not None:
            said += f", best {self.best_start} then {self.final_best}"
        if self.lost_at is not None:
            said += f", lost at move {self.lost_at}"
        said += ", marks " + " ".join(f"{m}{self.count(m)}" for m in MARKS[1:])
        if self.exact:
            said += ", exact " + " ".join(f"{m}{self.count_exact(m)}" for m in EXACT_MARKS[1:])
        return said

    def count(self, mark: str) -> int:
        """The moves the judgement of their moment marked ``mark``."""
        return sum(r.mark == mark for r in self.moves)

    def count_exact(self, mark: str) -> int:
        """The moves marked ``mark`` exactly (in hindsight, every card known)."""
        return sum(r.exact_mark == mark for r in self.moves)

    @property
    def decisions(self) -> list[Decision]:
        """The moves of the game as it stands, judged as they could be seen then."""
        return [r.decision for r in self.moves if r.decision is not None]

    @property
    def accuracy(self) -> float | None:
        """:func:`judgement.accuracy` of the game's decisions."""
        return accuracy(self.decisions)

    def costliest(self, n: int = 3) -> list[MoveReview]:
        """The ``n`` marked moves that cost the most: by chance lost, then points lost."""
        marked = [r for r in self.moves if r.mark and r.decision is not None]
        marked.sort(key=lambda r: (-r.decision.chance_lost, -r.decision.points_lost,  # type: ignore[union-attr]
                                   r.number))
        return marked[:n]

    @property
    def luck_total(self) -> float | None:
        """The sum of the luck of the moves (None when no move turned up a card)."""
        lucks = [r.luck for r in self.moves if r.luck is not None]
        return sum(lucks) if lucks else None

    def rows(self) -> list[ReviewedMove]:
        """One plain dict per move, the fields of :data:`ROW_FIELDS` (JSON and CSV)."""
        return [{"number": r.number, "move": r.move.token,
                 "winnable_before": r.winnable_before, "winnable_after": r.winnable_after,
                 "best_before": r.best_before, "best_after": r.best_after,
                 "best_moves_before": r.best_moves_before,
                 "best_moves_after": r.best_moves_after, "lost": r.lost,
                 "exact_mark": r.exact_mark, "share_before": fraction(r.share_before),
                 "share_after": fraction(r.share_after),
                 "share_best": fraction(r.share_best), "verdict": r.verdict,
                 "taken_back": r.taken_back, **judged_fields(r.decision, r.luck)} for r in self.moves]

    @property
    def standing(self) -> int:
        """The moves of the game as it stands: neither an undo nor taken back by one."""
        return sum(not r.taken_back for r in self.moves)

    @property
    def moves_played(self) -> int:
        """The app's move counter after the record: the moves but the undos."""
        return sum(not r.move.is_undo for r in self.moves)


ROW_FIELDS = ("number", "move", "winnable_before", "winnable_after", "best_before",
              "best_after", "best_moves_before", "best_moves_after", "lost", "exact_mark",
              "share_before", "share_after", "share_best", "verdict", "taken_back",
              "chance_played", "chance_best", "chance_lost", "points_played", "points_best",
              "points_lost", "better", "followed", "mark", "grade", "luck")


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def review_csv(review: Review) -> str:
    """The rows of a review as CSV text under a ROW_FIELDS header (booleans ``true`` /
    ``false``, empty where a field does not apply)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(ROW_FIELDS)
    for row in review.rows():
        fields: Mapping[str, object] = row
        w.writerow([_cell(fields[k]) for k in ROW_FIELDS])
    return buf.getvalue()


def _only_keeper(position: Position, move: Move) -> bool:
    """Was ``move`` the one legal move, of several, after which a win is still left?
    (A forced move, the only legal one, is no find.)"""
    legal = position.legal_moves()
    keepers = [m for m in legal if solve(position.play(m), optimal=False).winnable]
    return len(legal) > 1 and keepers == [move]


def analyze(deal: Deal, rules: Rules, record: Iterable[Move | str], scheme: Scheme = Scheme.APP,
            fair: bool = False, samples: int = 1000, seed: int | None = None,
            judged: bool = True) -> Review:
    """Judge every move of ``record`` (undos included) from the opening of ``deal``
    (:func:`analyze_game`). IllegalMoveError at an illegal move, InputError for a
    malformed token."""
    start = Start.of_deal("deal", deal.line(), deal, rules)
    return analyze_game(start, record, scheme, fair, samples, seed, judged=judged)


def analyze_game(start: Start, record: Iterable[Observed | Move | str], scheme: Scheme = Scheme.APP,
                 fair: bool = False, samples: int = 1000, seed: int | None = None,
                 progress: Callable[[int], None] | None = None,
                 should_stop: StopCheck | None = None, judged: bool = True) -> Review:
    """Judge every move of an observed ``record`` (undos included) of a game that began
    as ``start``: each move as it could be seen then (the advice's chances from what
    the player knew before it, ``samples`` completions drawn with ``seed``, as
    :func:`chances.move_chances` computes them and keeps them), exactly too when the
    whole deal is known by the end, and with ``fair`` the ceiling shares too; rows
    numbered as the app counts moves. ``progress(n)`` is called after the n-th move of
    the record; ``should_stop`` as :func:`fair.fair_hint` asks it (Cancelled).
    IllegalMoveError at an illegal move, InputError for a bad token or an observation
    that contradicts what is known. ``judged`` False leaves the judgement of each
    moment out (the exact values alone: no mark, no chance)."""
    scheme = check_scheme(scheme)
    seed = 0 if seed is None else seed
    observed = ObservedGame(start)
    known = []  # what the player knew before each move
    for step in record:
        known.append(observed.known_places)
        observed.play(step)
    known.append(observed.known_places)  # and after the last
    exact = observed.exact
    # Every card the player saw is where the record says on this deal; the others are
    # read only by the exact searches, which run when there are none.
    deal = observed.deal or observed.knowledge.filled()
    game = Game(deal, start.rules)
    position = Position.of(game)
    here = solve(position, scheme=scheme) if exact else None  # None: not exactly
    start_best = None if here is None else here.best_score
    taken_back = _taken_back(observed.moves)
    numbers = move_numbers(observed.moves)
    rows = []
    for i, move in enumerate(observed.moves):
        _stop_here(should_stop)
        number, back = numbers[i], taken_back[i]
        before, sol_before = position, here
        game.play(move)
        position = Position.of(game)
        winnable_before = winnable_after = best_before = best_after = lost = mark = None
        moves_before = moves_after = None
        decision = luck = None
        if judged and not back:
            chances = move_chances(View.of(before, known[i]), samples, seed, scheme,
                                   should_stop)
            decision = decide(chances, move)
            luck = luck_of(position, known[i], known[i + 1], decision, samples, seed,
                           scheme, should_stop)
        if sol_before is not None:  # exactly
            here = solve(position, scheme=scheme)
            lost = _value(sol_before)[1] - _value(here)[1]  # analyze never asks must_clear
            kind = Mark.NONE
            if not back:
                if sol_before.winnable and not here.winnable:
                    kind = Mark.THROWS_WIN
                elif _loses(sol_before, here):
                    kind = Mark.LOSES_POINTS
                elif sol_before.winnable and _only_keeper(before, move):
                    kind = Mark.ONLY_KEEPER
            mark = kind.value
            winnable_before, winnable_after = sol_before.winnable, here.winnable
            best_before, best_after = sol_before.best_score, here.best_score
            if scheme == Scheme.CARDS_LEFT:
                moves_before, moves_after = sol_before.best_moves, here.best_moves
        share_before = share_after = share_best = verdict = None
        if mark == "??" and decision is not None:
            verdict = "mistake" if decision.grade else "bad luck"
        if fair and not back:
            rating = fair_hint(View.of(before, known[i]), samples, seed,
                               score_samples=0, with_now=True, scheme=scheme,
                               should_stop=should_stop)
            share_before = rating.share_now
            share_after = next(m.share for m in rating.moves if m.move == move)
            share_best = rating.moves[0].share
        rows.append(MoveReview(number, move, winnable_before, winnable_after, best_before,
                               best_after, lost, mark, share_before, share_after, verdict,
                               share_best, moves_before, moves_after, back, decision, luck))
        if progress is not None:
            progress(i + 1)
    lost_at = None
    if here is not None and not here.winnable:
        for row in reversed(rows):
            if not row.taken_back and row.winnable_before and not row.winnable_after:
                lost_at = row.number
                break
    return Review(Position(deal, start.rules), scheme, tuple(rows), start_best,
                  position.shown_score(scheme),
                  None if here is None else here.best_score, lost_at, fair, position.status,
                  exact, samples, seed)


def _taken_back(moves: list[Move]) -> list[bool]:
    """For each move of a record: is it an undo, or a move a later undo took back?"""
    back = [move.is_undo for move in moves]
    stack: list[int] = []
    for i, move in enumerate(moves):
        if not move.is_undo:
            stack.append(i)
        elif stack:
            back[stack.pop()] = True
    return back
