"""What a turn of a game played along shows, as data and in words: the advice (exact
or fair), the peek's next step, the score followed, the keys of ``coach --json``. Front
ends (the terminal, the page in a browser) show them; :mod:`games.session` makes
them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict

from ..analysis.stats import fraction, fractions
from ..errors import InputError
from ..model.cards import Card
from ..model.i18n import N_, _, ngettext, percent, pgettext
from ..model.moves import Move
from ..model.observed import name_place, names
from ..model.position import Position
from ..model.scoring import Scheme

# What a peek says of a step whose card turns up under the app's "No more valid moves".
NO_MOVES_NOTE = N_('no move is left: close the app\'s "No more valid moves" to read it; '
                   "undo still works")

if TYPE_CHECKING:
    from ..analysis.chances import Chances
    from ..analysis.hints import FairAdvice, Hint
    from ..analysis.peek import Step as PeekStep
    from ..model.rules import Rules

HELP = N_("""\
Type what you did in the app, one move a line:
  8h         you removed 8♥ (if it turned up a card, say it: 8h:Ks, or answer the question)
  d          you drew a card (d:9h says what it showed)
  u          you took back the last move (the cards you saw stay known)
  fix 5d 6d  the card you said was 5♦ is really 6♦ (the record is corrected)
Commands: ? this help, b the board again, r the record so far, p peek (start or stop
looking at the cards with moves and undos, in an app with undo), q stop (Ctrl-D too).
The record is saved after every move; coach --record FILE continues it.
Moves are counted as the app counts them: a move taken back still counts.""")
ADVICE = N_("""\
  Each move's chance is the share of guessed games (at the cards you have not seen)
  that the move, then careful play, won: about your odds. It recommends the move with
  the highest chance (the careful move on a tie within the noise of the guesses; the
  most expected points when every chance is the same). The ceiling is the share of
  guesses a player who saw every card could still win: not your odds.""")
TURN_KEYS = ("moves_played", "status", "score", "stock_left", "cards_left", "waste", "known",
             "unknown", "exact", "recommended", "chance", "player", "seed", "moves", "need",
             "peek", "error", "record_file", "final")


def score_label(scheme: Scheme) -> str:
    """What the score is called under ``scheme``: ``score``, ``original score``, ``cards
    left``."""
    return {Scheme.APP: _("score"), Scheme.ORIGINAL: _("original score"),
            Scheme.CARDS_LEFT: _("cards left"), Scheme.PYSOL: _("PySolFC score")}[scheme]


def scoring_name(scheme: Scheme) -> str:
    """``app scoring``, ``original scoring``, ``cards-left scoring``, in words."""
    return {Scheme.APP: _("app scoring"), Scheme.ORIGINAL: _("original scoring"),
            Scheme.CARDS_LEFT: _("cards-left scoring"), Scheme.PYSOL: _("PySolFC scoring")}[scheme]


def start_words(start: str) -> str:
    """A record's start (``seen Jd 4s``, ``code TP1-E-AAAAAAD``, ``layout …``) in the
    words of the current language, as the page's list says it: ``cards seen: J♦ 4♠``."""
    kind, _sep, body = start.partition(" ")
    if kind == "code":
        return _("code {code}", code=body)
    if kind == "seen":
        def pretty(token: str) -> str:
            try:
                return Card.parse(token).pretty
            except InputError:
                return token
        return _("cards seen: {cards}", cards=" ".join(map(pretty, body.split())))
    return _("layout {cards}", cards=body)


def rules_name(rules: Rules) -> str:
    """``Easy rules``, ``Classic (open, joker) rules``, in words."""
    names = {"empty-waste": pgettext("rule variant", "empty-waste"),
             "joker": pgettext("rule variant", "joker"),
             "draw-when-stuck": pgettext("rule variant", "draw-when-stuck"),
             "open": pgettext("rule variant", "open")}
    variants = ", ".join(names[v] for v in rules.variant.split("+") if v)
    if not variants:
        return _("Easy rules") if rules.wrap else _("Classic rules")
    return (_("Easy ({variants}) rules", variants=variants) if rules.wrap else
            _("Classic ({variants}) rules", variants=variants))


def n_cards(n: int) -> str:
    """``1 card``, ``12 cards``."""
    return ngettext("{n} card", "{n} cards", n)


def n_moves(n: int) -> str:
    """``1 move``, ``12 moves``."""
    return ngettext("{n} move", "{n} moves", n)


def percents(shares: list[float], distinct: bool = False) -> list[str]:
    """``99.6%``, ``100%``: shares as percentages with the fewest decimals (one count
    for all) that never show 100% for a share below 1 or 0% for one above 0 (and, with
    ``distinct``, two different shares alike)."""
    for decimals in range(5):
        texts = [f"{100 * v:.{decimals}f}" for v in shares]
        if all(0 < float(t) < 100 for v, t in zip(shares, texts, strict=True) if 0 < v < 1) \
                and (not distinct or len(set(texts)) == len(set(shares))):
            break
    return [percent(v, decimals) for v in shares]


def score_of(position: Position, scoring: Scheme) -> int:
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
        """Every legal move, as ``coach --json`` shows it: its ``chance`` (the one
        measure: 1 or 0 when exact) and expected ``points``, its ``share`` still
        winnable (the ceiling) with its interval, and its best score when exact;
        the move recommended first, then by chance."""
        if self.hint is not None:
            return [{"move": m.move.token, "chance": 1.0 if m.winnable else 0.0,
                     "points": m.best_score,
                     "share": 1.0 if m.winnable else 0.0,
                     "share_95": [1.0, 1.0] if m.winnable else [0.0, 0.0],
                     "best_score": m.best_score} for m in self.hint.moves]
        fa = self.fair
        if fa is not None and fa.chances is not None:
            ceilings = {m.move: m for m in fa.rating.moves}
            return [{"move": c.move.token, "chance": fraction(c.chance),
                     "points": round(c.points, 2),
                     "share": fraction(ceilings[c.move].share),
                     "share_95": fractions(ceilings[c.move].share_95), "best_score": None}
                    for c in fa.chances.moves]
        return []

    def lines(self, label: str) -> list[str]:
        """The advice in words (``label``: what the score is called, ``score_label``)."""
        h, fa = self.hint, self.fair
        if h is not None:
            if not h.moves:
                return []
            best = h.moves[0]
            head = (_("Best: {move}  (exact, every card known: winnable, best {label} {score})",
                      move=best.move.pretty, label=label, score=best.best_score)
                    if best.winnable else
                    _("Best: {move}  (exact, every card known: no win left, best {label} "
                      "{score})", move=best.move.pretty, label=label, score=best.best_score))
            return [head, "  " + "   ".join(
                f"{m.move.pretty} {m.best_score}{m.mark and ' ' + m.mark}" for m in h.moves)]
        if fa is None or fa.recommended is None or fa.chances is None:
            return []
        ch = fa.chances
        rec, chance = fa.recommended, self.chance
        assert chance is not None  # a move recommended comes with its chances
        chance_text = percents([chance])[0]
        lines = [_("Recommended: {move}, about {chance} to win", move=rec.pretty,
                   chance=chance_text)]
        texts = percents([m.chance for m in ch.moves])
        lines.append("  " + ngettext(
            "chance: {moves}  (of {n} guessed game: the move, then careful play)",
            "chance: {moves}  (of {n} guessed games: each move, then careful play)",
            max(1, ch.rollouts),
            moves="   ".join(f"{m.move.pretty} {t}" for m, t in zip(ch.moves, texts,
                                                                   strict=True))))
        note = choice_note(ch)
        if note:
            lines.append("  " + note)
        ceilings = {m.move: m.share for m in fa.rating.moves}
        shares = percents([ceilings[m.move] for m in ch.moves])
        lines.append("  " + ngettext(
            "ceiling, still winnable by a player who saw every card: {shares}  (of {n} guess)",
            "ceiling, still winnable by a player who saw every card: {shares}  (of {n} "
            "guesses)", fa.rating.samples,
            shares="   ".join(f"{m.move.pretty} {t}" for m, t in zip(ch.moves, shares,
                                                                    strict=True))))
        lines.append("  " + _("({player} player, seed {seed})", player=fa.player,
                              seed=fa.seed))
        return lines

    @property
    def chance(self) -> float | None:
        """The chance of the move recommended: the share of the sampled games that it,
        then careful play, won (1 or 0 when exact: a win left or not)."""
        if self.hint is not None:
            return (1.0 if self.hint.moves[0].winnable else 0.0) if self.hint.moves else None
        fa = self.fair
        if fa is None or fa.chances is None:
            return None
        return fa.chances.value


def choice_note(ch: Chances) -> str | None:
    """Why the move recommended is not alone at the top, in words: a tie within the
    noise of the samples, or every chance the same and the points chose."""
    rec = ch.moves[0] if ch.moves else None
    top = ch.top
    if rec is None or top is None:
        return None
    if ch.why == "tie":
        wins = top.wins - rec.wins
        return ngettext(
            "{move} rather than {other}: {other} won {n} guessed game more, within the "
            "noise of the samples; {move} is the careful move",
            "{move} rather than {other}: {other} won {n} guessed games more, within the "
            "noise of the samples; {move} is the careful move", wins,
            move=rec.move.pretty, other=top.move.pretty)
    if ch.why == "points":
        return _("every move has the same chance: {move} for its expected points ({points})",
                 move=rec.move.pretty, points=f"{rec.points:.0f}")
    return None


class PeekShow(TypedDict):
    """A place a peek's step shows (its name as the app's words)."""
    place: int
    name: str


class PeekData(TypedDict):
    """The ``peek`` object of ``coach --json`` (:meth:`PeekTurn.data`)."""
    undos: int
    moves: list[str]
    shows: list[PeekShow]
    no_moves_message: bool
    back: int
    taps: int
    unknown: int


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
            if not self.unknown:
                return _("Peek: every card is known; undo {back} to go back to where the peek "
                         "began.", back=self.back)
            return ngettext("Peek: no line shows the other {n} card with the cards known; "
                            "undo {back} to go back to where the peek began.",
                            "Peek: no line shows the other {n} cards with the cards known; "
                            "undo {back} to go back to where the peek began.", self.unknown,
                            back=self.back)
        step = self.step
        if step.moves == (Move.DRAW,) and not step.undos:
            return _("Peek: draw, and say the card.")
        # What to tap in the app, as the page says it: a draw is a tap on the stock.
        moves = " → ".join(_("the stock") if m.is_draw else m.pretty for m in step.moves)
        todo = (_("undo {undos}, then tap {moves}", undos=step.undos, moves=moves)
                if step.undos else _("tap {moves}", moves=moves))
        shown = names(step.shows, rules)
        count = len(step.shows)
        what = _("the card that turns up") if count == 1 else ngettext(
            "the {count} card that turns up, left to right",
            "the {count} cards that turn up, left to right", count,
            count={2: _("two"), 3: _("three"), 4: _("four")}.get(count, count))
        note = f" ({_(NO_MOVES_NOTE)})" if step.no_moves_message else ""
        return _("Peek: {todo}, and say {what} ({places}){note}.", todo=todo, what=what,
                 places=shown, note=note)

    def done_text(self) -> str:
        if not self.unknown:
            return ngettext("Peek done in {n} tap: every card is known.",
                            "Peek done in {n} taps: every card is known.", self.taps)
        taps = ngettext("in {n} tap", "in {n} taps", self.taps)
        return ngettext("Peek done {taps}: {n} card stays unknown (no line within the undo "
                        "limit shows it with the cards known).",
                        "Peek done {taps}: {n} cards stay unknown (no line within the undo "
                        "limit shows them with the cards known).", self.unknown, taps=taps)

    def data(self, rules: Rules) -> PeekData:
        """The ``peek`` object of ``coach --json``."""
        step = self.step
        return {"undos": self.back if step is None else step.undos,
                "moves": [] if step is None else [m.token for m in step.moves],
                "shows": [] if step is None else [{"place": p, "name": name_place(p, rules)}
                                                  for p in step.shows],
                "no_moves_message": step is not None and step.no_moves_message,
                "back": self.back, "taps": self.taps, "unknown": self.unknown}


__all__ = ["ADVICE", "HELP", "NO_MOVES_NOTE", "TURN_KEYS", "Advice", "PeekData", "PeekShow",
           "PeekTurn", "choice_note", "n_cards", "n_moves", "percents", "rules_name",
           "score_label", "score_of", "scoring_name", "start_words"]
