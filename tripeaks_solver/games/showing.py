"""What a front end shows of the coach's session: a turn as data (``coach --json``, the
page), the game's result, its review at the end and the end's data
(:class:`SessionView`, a base of ``session.CoachSession``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..analysis.stats import fraction
from ..limits import REVIEW_SAMPLES
from ..model.game import Status
from ..model.observed import name_place
from .turns import TURN_KEYS, Advice, PeekTurn, score_of

if TYPE_CHECKING:
    from ..analysis.hints import Review
    from ..model.observed import ObservedGame
    from ..model.rules import Rules


class SessionView:
    """The session's data for a front end: see :class:`session.CoachSession`."""

    game: ObservedGame
    scoring: str
    samples: int
    seed: int
    need: tuple[int, ...]

    if TYPE_CHECKING:  # the session's own
        @property
        def rules(self) -> Rules: ...

        @property
        def path(self) -> Path: ...

        @property
        def status(self) -> Status: ...

        @property
        def exact(self) -> bool: ...

        @property
        def known(self) -> int: ...

        @property
        def unknown(self) -> int: ...

    # --- what a front end shows -------------------------------------------------------
    def turn_data(self, advice: Advice | None = None, *, error: str | None = None,
                  peek: PeekTurn | None = None, final: dict | None = None) -> dict:
        """One turn as ``coach --json`` prints it (keys :data:`TURN_KEYS`)."""
        position = self.game.position()
        advice = advice or Advice()
        player = advice.player
        recommended = advice.recommended
        out = {"moves_played": position.moves_played, "status": position.status.value,
               "score": score_of(position, self.scoring), "stock_left": position.stock_left,
               "cards_left": position.cards_left,
               "waste": None if position.waste is None else position.waste.token,
               "known": self.known, "unknown": self.unknown, "exact": self.exact,
               "recommended": recommended and recommended.token,
               "chance": fraction(advice.chance),
               "player": player,
               "seed": None if player in (None, "exact") else self.seed,
               "moves": advice.moves_data(),
               "need": [{"place": p, "name": name_place(p, self.rules)}
                        for p in self.need] or None,
               "peek": None if peek is None else peek.data(self.rules),
               "error": error, "record_file": str(self.path), "final": final}
        assert tuple(out) == TURN_KEYS
        return out

    @property
    def result(self) -> str:
        """``won``, ``stuck`` or ``stopped``."""
        return {Status.WON: "won", Status.STUCK: "stuck"}.get(self.status, "stopped")

    @property
    def review_samples(self) -> int:
        return min(self.samples, REVIEW_SAMPLES)

    def review(self, progress: Callable[[int], None] | None = None) -> Review | None:
        """The whole game judged, as ``analyze`` judges it (None before any move);
        ``progress(n)`` after the n-th move. Slow; it does not touch the session."""
        if not self.game.record:
            return None
        from ..analysis.hints import analyze_game

        return analyze_game(self.game.start, list(self.game.record), self.scoring,
                            fair=not self.game.exact, samples=self.review_samples,
                            seed=self.seed, progress=progress)

    def final(self, review: Review | None = None) -> dict:
        """The ``final`` object of ``coach --json``: the result, the score, the record
        and the review."""
        position = self.game.position()
        return {"result": self.result, "score": score_of(position, self.scoring),
                "moves": self.game.game.moves, "record": self.game.tokens,
                "analysis": None if review is None else {
                    "exact": review.exact, "best_start": review.best_start,
                    "final_best": review.final_best, "lost_at": review.lost_at,
                    "lost_total": review.lost_total, "moves": review.rows()}}


__all__ = ["SessionView"]
