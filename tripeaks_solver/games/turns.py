"""What a turn of a game played along shows, as data and in words: the advice (exact
or fair), the peek's next step, the score followed, the keys of ``coach --json``. Front
ends (the terminal, the page in a browser) show them; :mod:`games.session` makes
them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..analysis.stats import fraction, fractions
from ..model.moves import Move
from ..model.observed import name_place
from ..model.position import Position

# What a peek says of a step whose card turns up under the app's "No more valid moves".
NO_MOVES_NOTE = ('no move is left: close the app\'s "No more valid moves" to read it; '
                 "undo still works")

if TYPE_CHECKING:
    from ..analysis.hints import FairAdvice, Hint
    from ..analysis.peek import Step as PeekStep
    from ..model.rules import Rules

HELP = """\
Type what you did in the app, one move a line:
  8h         you removed 8♥ (if it turned up a card, say it: 8h:Ks, or answer the question)
  d          you drew a card (d:9h says what it showed)
  u          you took back the last move (the cards you saw stay known)
  fix 5d 6d  the card you said was 5♦ is really 6♦ (the record is corrected)
Commands: ? this help, b the board again, r the record so far, p peek (start or stop
looking at the cards with moves and undos, in an app with undo), q stop (Ctrl-D too).
The record is saved after every move; coach --record FILE continues it.
Moves are counted as the app counts them: a move taken back still counts."""
ADVICE = """\
  It plays the careful move, unless playing on over guesses at the cards you have not
  seen shows a better one. "Chance" is the share of those guessed games that its move,
  then careful play, won: about your odds. "Still winnable" is the share of guesses that
  a player who saw every card could still win: a ceiling, not your odds."""
NUMBERS = {2: "two", 3: "three", 4: "four"}
TURN_KEYS = ("moves_played", "status", "score", "stock_left", "cards_left", "waste", "known",
             "unknown", "exact", "recommended", "chance", "player", "seed", "moves", "need",
             "peek", "error", "record_file", "final")


def plural(n: int, word: str, words: str | None = None) -> str:
    """``1 move``, ``2 moves``, ``1,000 guesses``."""
    return f"{n:,} {word if n == 1 else words or word + 's'}"


def percents(shares: list[float], distinct: bool = False) -> list[str]:
    """``99.6%``, ``100%``: shares as percentages with the fewest decimals (one count
    for all) that never show 100% for a share below 1 or 0% for one above 0 (and, with
    ``distinct``, two different shares alike)."""
    for decimals in range(5):
        texts = [f"{100 * v:.{decimals}f}" for v in shares]
        if all(0 < float(t) < 100 for v, t in zip(shares, texts, strict=True) if 0 < v < 1) \
                and (not distinct or len(set(texts)) == len(set(shares))):
            break
    return [t + "%" for t in texts]


def score_of(position: Position, scoring: str) -> int:
    """The score a player follows under ``scoring`` (cards left under ``cards-left``)."""
    return position.shown_score(scoring)


@dataclass(frozen=True)
class Advice:
    """The advice at one position: the exact hint (every card known) or the fair one."""

    hint: Hint | None = None
    fair: FairAdvice | None = None

    @property
    def recommended(self) -> Move | None:
        if self.hint is not None:
            return self.hint.moves[0].move if self.hint.moves else None
        return None if self.fair is None else self.fair.recommended

    @property
    def player(self) -> str | None:
        return "exact" if self.hint is not None else None if self.fair is None else self.fair.player

    def moves_data(self) -> list[dict]:
        """Every legal move with its share still winnable, as ``coach --json`` shows it."""
        if self.hint is not None:
            return [{"move": m.move.token, "share": 1.0 if m.winnable else 0.0,
                     "share_95": [1.0, 1.0] if m.winnable else [0.0, 0.0],
                     "best_score": m.best_score} for m in self.hint.moves]
        if self.fair is not None:
            return [{"move": m.move.token, "share": fraction(m.share),
                     "share_95": fractions(m.share_95), "best_score": None}
                    for m in self.fair.rating.moves]
        return []

    def lines(self, score_label: str) -> list[str]:
        """The advice in words (``score_label``: what the score is called, ``score``)."""
        h, fa = self.hint, self.fair
        if h is not None:
            if not h.moves:
                return []
            best = h.moves[0]
            state = "winnable" if best.winnable else "no win left"
            return [(f"Best: {best.move.pretty}  (exact, every card known: {state}, best "
                    f"{score_label} {best.best_score})"),
                    "  " + "   ".join(f"{m.move.pretty} {m.best_score}{m.mark and ' ' + m.mark}"
                                      for m in h.moves)]
        if fa is None or fa.recommended is None:
            return []
        rec, chance = fa.recommended, self.chance
        assert chance is not None  # a move recommended comes with its rollouts
        # The recommended move first, then the others, highest ceiling first.
        moves = sorted(fa.rating.moves, key=lambda m: m.move != rec)
        shares = "   ".join(f"{m.move.pretty} {t}" for m, t in zip(
            moves, percents([m.share for m in moves]), strict=True))
        lines = [f"Recommended: {rec.pretty}  ({fa.player} player, seed {fa.seed})",
                 (f"  chance: {percents([chance])[0]} of the "
                 f"{plural(fa.rollouts, 'guessed game')} won by "
                 f"{'drawing' if rec.is_draw else 'playing ' + rec.pretty}, then playing "
                 "carefully"),
                 (f"  still winnable after: {shares}  (of "
                 f"{plural(fa.rating.samples, 'guess', 'guesses')} at the unseen cards)")]
        top = fa.rating.moves[0]
        if top.share > moves[0].share:  # a higher ceiling than the move recommended
            mine, other = fa.won(rec), fa.won(top.move)
            won = percents([mine, other], distinct=True)
            if mine > other:
                why = (f"careful play after it won more of the guessed games ({won[0]} "
                       f"against {won[1]})")
            elif mine == other:
                why = (f"it is the careful move, and {top.move.pretty} won no more of the "
                       f"guessed games ({won[0]} each)")
            else:
                why = (f"it is the careful move, and {top.move.pretty} won too few more of "
                       f"the guessed games ({won[1]} against {won[0]}) to leave it")
            lines.append(f"  {rec.pretty} rather than {top.move.pretty}, whose ceiling is "
                         f"higher: {why}")
        return lines

    @property
    def chance(self) -> float | None:
        """The share of the sampled games that the recommended move, then careful play,
        won (the fair player's rollouts), at most the move's ceiling (a game won was
        winnable; the two are counted over different guesses); None when exact."""
        fa = self.fair
        if fa is None or fa.recommended is None or not fa.rollouts:
            return None
        share = next(m.share for m in fa.rating.moves if m.move == fa.recommended)
        return min(fa.won(fa.recommended), share)


@dataclass(frozen=True)
class PeekTurn:
    """Where a peek stands: the next step (None when no line shows another card), the
    moves to take back to where it began, the taps so far, the cards still unknown."""

    step: PeekStep | None
    back: int
    taps: int
    unknown: int

    @property
    def finished(self) -> bool:
        return self.step is None and not self.back

    def text(self, rules: Rules) -> str:
        """What to do next, in words."""
        if self.step is None:
            why = ("every card is known" if not self.unknown else
                   f"no line shows the other {plural(self.unknown, 'card')} with the cards known")
            return f"Peek: {why}; undo {self.back} to go back to where the peek began."
        step = self.step
        moves = " ".join(m.pretty for m in step.moves)
        todo = f"undo {step.undos}, then {moves}" if step.undos else moves
        if step.moves == (Move.DRAW,) and not step.undos:
            return "Peek: draw, and say the card."
        shown = " and ".join(name_place(p, rules) for p in step.shows)
        what = "the card that turns up" if len(step.shows) == 1 else (
            f"the {NUMBERS.get(len(step.shows), len(step.shows))} cards that turn up, "
            "left to right")
        note = f" ({NO_MOVES_NOTE})" if step.no_moves_message else ""
        return f"Peek: {todo}, and say {what} ({shown}){note}."

    def done_text(self) -> str:
        taps = plural(self.taps, "tap")
        if not self.unknown:
            return f"Peek done in {taps}: every card is known."
        return (f"Peek done in {taps}: {plural(self.unknown, 'card')} stay unknown (no line "
                "within the undo limit shows them with the cards known).")

    def data(self, rules: Rules) -> dict:
        """The ``peek`` object of ``coach --json``."""
        step = self.step
        return {"undos": self.back if step is None else step.undos,
                "moves": [] if step is None else [m.token for m in step.moves],
                "shows": [] if step is None else [{"place": p, "name": name_place(p, rules)}
                                                  for p in step.shows],
                "no_moves_message": step is not None and step.no_moves_message,
                "back": self.back, "taps": self.taps, "unknown": self.unknown}


__all__ = ["ADVICE", "HELP", "NO_MOVES_NOTE", "TURN_KEYS", "Advice", "PeekTurn", "percents", "plural",
           "score_of"]
