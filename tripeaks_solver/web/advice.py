"""What the page's advice says of a position: the ADVICE object of docs/web.md, exact
or from only the cards seen, and the bound on the samples a page may ask for."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..analysis.fair import StopCheck
from ..errors import InputError
from ..limits import PAGE_SAMPLES as MAX_SAMPLES  # the page's code and tests name it so
from ..model.game import Status
from ..model.i18n import _, number
from ..model.scoring import Scheme
from .payloads import AdviceAnswer, AdviceMove
from .review import rather_than

if TYPE_CHECKING:
    from ..analysis.chances import Keep


def advice_of(position, known: frozenset[int], exact: bool, scoring: Scheme, samples: int,
              seed: int, version: int, should_stop: StopCheck, keep: Keep | None = None
              ) -> AdviceAnswer:
    """The ADVICE object of a position (docs/web.md), from only the cards seen unless
    ``exact``; ``should_stop`` asked between short searches (Cancelled). ``version``:
    the game's ``at``, which the answer carries; ``keep`` receives the chances computed
    (``games.chance_log``: kept beside the record for the review)."""
    from ..analysis.fair import Cancelled, View
    from ..analysis.hints import fair_advice, hint
    from ..analysis.stats import fraction
    from ..games.turns import Advice
    from ..solver.solve import solve

    out: AdviceAnswer = {"at": version, "exact": exact, "recommended": None, "player": None, "seed": None,
           "chance": None, "moves": [], "line": [], "best_score": None, "winnable": None,
           "rather": None}
    if position.status is not Status.IN_PLAY:
        return out
    if exact:
        h = hint(position, scoring, should_stop=should_stop)
        line = []
        if h.moves:  # the best line that begins with the move recommended
            if should_stop():
                raise Cancelled
            first = h.moves[0].move
            line = [first, *solve(position.play(first), scheme=scoring).moves]
        out.update({"player": "exact", "winnable": h.winnable, "best_score": h.best_score,
                    "line": [m.token for m in line],
                    "chance": (1.0 if h.moves[0].winnable else 0.0) if h.moves else None,
                    "moves": [{"move": m.move.token, "chance": 1.0 if m.winnable else 0.0,
                               "points": m.best_score, "share": 1.0 if m.winnable else 0.0,
                               "best_score": m.best_score, "mark": m.mark}
                              for m in h.moves]})
        out["recommended"] = h.moves[0].move.token if h.moves else None
        return out
    fa = fair_advice(View.of(position, known), samples, seed, 0, scoring,
                     should_stop=should_stop, keep=keep)
    advice = Advice(fair=fa)
    ch = fa.chances
    ceilings = {m.move: m.share for m in fa.rating.moves}
    moves: list[AdviceMove] = [] if ch is None else [
        {"move": m.move.token, "chance": fraction(m.chance), "points": round(m.points, 2),
         "share": fraction(ceilings[m.move]), "best_score": None, "mark": ""}
        for m in ch.moves]
    out.update({"player": fa.player, "seed": seed,
                "recommended": None if fa.recommended is None else fa.recommended.token,
                "chance": fraction(advice.chance),
                "rather": None if ch is None else rather_than(ch), "moves": moves})
    return out


def check_samples(samples: int) -> int:
    if not 1 <= samples <= MAX_SAMPLES:
        raise InputError(_("samples must be 1 to {most}", most=number(MAX_SAMPLES)))
    return samples


__all__ = ["MAX_SAMPLES", "advice_of", "check_samples"]
