"""The answers of ``hint``, ``analyze`` and ``peek`` about a game, as the commands' JSON
gives them: one frozen dataclass each, whose ``to_dict()`` is the command's ``--json``
object (docs/json.md). The commands and the Python API (``tripeaks_solver.api``) both
build them, so the two never differ.

Only plain data here: the searches that fill them load the kernels, and ``--help``
must not (the analysis itself is imported where it runs).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..model.layout import Layout
from ..model.moves import Move
from ..model.observed import Observed, ObservedGame, Start
from ..model.position import Position
from ..model.pysol import PysolInfo, pysol_info
from ..model.scoring import Scheme
from .stats import fraction, fractions

if TYPE_CHECKING:
    from ..solver.solve import Solution
    from .hints import FairAdvice, Hint, Review
    from .peek import PeekPlan


def new_seed() -> int:
    """A seed for a run that was given none (shown, so that the run can be repeated)."""
    return secrets.randbelow(1_000_000_000)


def _code(start: Start) -> str | None:
    # A PySolFC game (pysol:…) has no game code: its number is the "pysol" key.
    if start.kind != "code" or (start.deal is not None and start.deal.pysol is not None):
        return None
    return start.text


def _pysol(start: Start, scheme: Scheme) -> PysolInfo | None:
    return pysol_info(start.deal, start.rules, scheme)


def _deal(start: Start) -> int | None:
    return start.deal.number if start.kind == "code" and start.deal is not None else None


def _title(start: Start, scheme: Scheme, moves: int = 0) -> str:
    """``TP1-E-AAAAAAD, Easy rules, app scoring, moves 3``, for the reprs."""
    after = f", moves {moves}" if moves else ""
    return f"{start.title}, {start.rules} rules, {scheme} scoring{after}"


@dataclass(frozen=True)
class HintReport:
    """What ``hint`` answers about a game in progress: where it stands after ``record``
    (``position``, with ``knowledge`` what the player has seen), and every legal move's
    worth, exactly (``exact``: the solver's :class:`hints.Hint`) or, when ``fair``,
    from only what the player has seen (``advice``: shares and the fair player's
    recommendation). ``error`` and ``error_move``: the game's message of an illegal
    move of the record and its number (the answers then None)."""

    start: Start
    record: tuple[Observed, ...]
    knowledge: Layout
    position: Position
    scheme: Scheme
    fair: bool
    exact: Hint | None = None
    advice: FairAdvice | None = None
    must_clear: bool = False
    error: str | None = None
    error_move: int | None = None

    @classmethod
    def of(cls, game: ObservedGame, scheme: Scheme, fair: bool, exact: Hint | None = None,
           advice: FairAdvice | None = None, must_clear: bool = False,
           error: str | None = None, error_move: int | None = None) -> HintReport:
        """The report of ``game`` as it stands now."""
        return cls(game.start, tuple(game.record), game.knowledge, game.position(), scheme,
                   fair, exact, advice, must_clear, error, error_move)

    def __repr__(self) -> str:
        head = f"<HintReport {_title(self.start, self.scheme, self.position.moves_played)}"
        if self.error is not None:
            return f"{head}: move {self.error_move}: {self.error}>"
        if self.exact is not None:
            said = f"exact, {self.exact.solution.verdict}"
        elif self.advice is not None:
            said = f"fair over {self.advice.rating.samples} samples (seed {self.advice.seed})"
        else:
            said = "no answer"
        move = self.recommended
        play = f", play {move.token}" if move else f", {self.position.status.value}"
        return f"{head}: {said}{play}>"

    @property
    def recommended(self) -> Move | None:
        """The move to play: the fair player's, or exactly the best one (None when no
        move is left)."""
        if self.advice is not None:
            return self.advice.recommended
        if self.exact is not None and self.exact.moves:
            return self.exact.moves[0].move
        return None

    def to_dict(self) -> dict:
        """The object ``hint --json`` prints."""
        start, position, scheme = self.start, self.position, self.scheme
        layout = None
        if start.kind == "layout":  # fair: only the cards the player knows
            layout = self.knowledge.line() if self.fair else start.text
        out: dict[str, Any]  # JSON values
        out = {"code": _code(start), "deal": _deal(start), "pysol": _pysol(start, self.scheme),
               "layout": layout,
               "seen": start.text if start.kind == "seen" else None,
               "rules": position.rules.name, "variant": position.rules.variant,
               "scoring": str(scheme), "must_clear": self.must_clear, "fair": self.fair,
               "record": [o.token for o in self.record],
               "moves_played": position.moves_played, "status": position.status.value,
               "score": position.shown_score(scheme), "cards_left": position.cards_left,
               "stock_left": position.stock_left,
               "waste": None if position.waste is None else position.waste.token,
               "known": len(self.knowledge.known_places),
               "unknown": len(self.knowledge.unknown_places),
               "winnable": None, "best_score": None, "best_moves": None, "line": None,
               "moves": [], "samples": None, "scored": None, "exact": None,
               "recommended": None, "chance": None, "player": None, "seed": None,
               "error": self.error, "error_move": self.error_move}
        h = self.exact
        if h is not None:
            out.update(winnable=h.winnable, best_score=h.best_score,
                       line=[m.token for m in h.line], best_moves=h.solution.best_moves)
            out["moves"] = [{"move": m.move.token, "winnable": m.winnable,
                             "best_score": m.best_score, "best_moves": m.best_moves,
                             "mark": m.mark, "chance": None, "points": None, "share": None,
                             "share_95": None, "mean_score": None} for m in h.moves]
        if self.advice is not None:
            rating = self.advice.rating
            rec = self.advice.recommended
            chances = self.advice.chances
            out.update(samples=rating.samples, scored=rating.scored, exact=rating.exact,
                       recommended=None if rec is None else rec.token,
                       chance=None if chances is None else fraction(chances.value),
                       player=self.advice.player,
                       seed=self.advice.seed)
            # The one measure first: the move recommended, then by chance.
            order = [c.move for c in chances.moves] if chances else [m.move for m in
                                                                     rating.moves]
            ceilings = {m.move: m for m in rating.moves}
            chance_of = {c.move: c for c in chances.moves} if chances else {}
            out["moves"] = [{"move": mv.token, "winnable": None, "best_score": None,
                             "best_moves": None, "mark": None,
                             "chance": fraction(chance_of[mv].chance) if mv in chance_of
                             else None,
                             "points": round(chance_of[mv].points, 2) if mv in chance_of
                             else None,
                             "share": fraction(ceilings[mv].share),
                             "share_95": fractions(ceilings[mv].share_95),
                             "mean_score": ceilings[mv].mean_score} for mv in order]
        return out


@dataclass(frozen=True)
class AnalysisReport:
    """What ``analyze`` answers about a played record: the ``review`` (every move
    judged, and where the game was lost) of the game that began as ``start``, each move
    over ``samples`` guessed games seeded with ``seed`` (and with ``fair`` the ceiling
    shares over as many completions).
    ``error`` and ``error_move``: an illegal move of the record stopped it (``review``
    is then None)."""

    start: Start
    scheme: Scheme
    fair: bool
    samples: int
    seed: int | None
    review: Review | None
    error: str | None = None
    error_move: int | None = None

    def __repr__(self) -> str:
        head = f"<AnalysisReport {_title(self.start, self.scheme)}"
        if self.review is None:
            return f"{head}: move {self.error_move}: {self.error}>"
        fair = f", over {self.samples} samples (seed {self.seed})"
        return f"{head}{fair}: {self.review.said}>"

    def to_dict(self) -> dict:
        """The object ``analyze --json`` prints."""
        start, review, fair = self.start, self.review, self.fair
        out: dict[str, Any]  # JSON values
        out = {"code": _code(start), "deal": _deal(start), "pysol": _pysol(start, self.scheme),
               "layout": start.text if start.kind == "layout" else None,
               "seen": start.text if start.kind == "seen" else None,
               "rules": start.rules.name, "variant": start.rules.variant,
               "scoring": str(self.scheme), "fair": fair, "samples": self.samples,
               "seed": self.seed, "exact": None, "status": None,
               "final_score": None, "best_start": None, "final_best": None, "lost_at": None,
               "lost_total": None, "marks": None, "exact_marks": None, "accuracy": None,
               "luck": None, "costliest": None, "moves": [], "error": self.error,
               "error_move": self.error_move}
        if review is not None:
            out.update(exact=review.exact, status=review.status.value,
                       final_score=review.final_score, best_start=review.best_start,
                       final_best=review.final_best, lost_at=review.lost_at,
                       lost_total=review.lost_total,
                       marks={m: review.count(m) for m in ("??", "?", "?!")},
                       exact_marks={m: review.count_exact(m) for m in ("??", "?", "!")}
                       if review.exact else None, accuracy=fraction(review.accuracy),
                       luck=fraction(review.luck_total),
                       costliest=[r.number for r in review.costliest()], moves=review.rows())
        return out


PEEK_KEYS = ("code", "deal", "pysol", "layout", "rules", "variant", "scoring", "undo_limit", "seed",
             "excursions", "actions", "moves", "undos", "revealed", "by_elimination",
             "unreachable", "complete", "best_score", "best_line")


@dataclass(frozen=True)
class PeekReport:
    """What ``peek`` answers: the ``plan`` of taps that shows every card of the game that
    began as ``start``, never deeper than ``undo_limit`` moves, and, when it is
    complete, the ``best`` solution from where the peek began (under ``scheme``)."""

    start: Start
    scheme: Scheme
    undo_limit: int
    plan: PeekPlan
    best: Solution | None

    def __repr__(self) -> str:
        then = "" if self.best is None else f", then {self.best.verdict}"
        return (f"<PeekReport {_title(self.start, self.scheme)}, undo limit {self.undo_limit}:"
                f" {self.plan.said}{then}>")

    def to_dict(self) -> dict:
        """The object ``peek --json`` prints."""
        start, plan, best, rules = self.start, self.plan, self.best, self.start.rules
        moves = sum(len(e.moves) for e in plan.excursions)
        code = _code(start)
        out = {"code": code, "deal": _deal(start), "pysol": _pysol(start, self.scheme),
               "layout": start.text if start.kind == "layout" else None,
               "rules": rules.name, "variant": rules.variant, "scoring": str(self.scheme),
               "undo_limit": self.undo_limit, "seed": plan.seed,
               "excursions": [{"moves": [m.token for m in e.moves], "undos": e.undos,
                               "shows": list(e.shows),
                               "cards": [plan.knowledge.card(p).token for p in e.shows],
                               "no_moves_message": e.no_moves_message}
                              for e in plan.excursions],
               "actions": plan.actions, "moves": moves, "undos": plan.actions - moves,
               "revealed": list(plan.revealed), "by_elimination": plan.by_elimination,
               "unreachable": list(plan.unreachable), "complete": plan.complete,
               "best_score": None if best is None else best.best_score,
               "best_line": None if best is None else best.tokens}
        assert tuple(out) == PEEK_KEYS
        return out


__all__ = ["PEEK_KEYS", "AnalysisReport", "HintReport", "PeekReport", "new_seed"]
