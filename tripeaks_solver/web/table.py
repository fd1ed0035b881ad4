"""One game at the server's table: the played-along game, serialized by a lock, and what
the page shows of it (the board as the player sees it, the advice, the peek, the end).

Every method runs in a worker thread (the server calls them off the event loop); the
lock makes the moves of two tabs on one game one after the other, and a move carries
the record length its page saw (``at``), so a tab behind the game is refused, not
applied to a position it did not show.
"""

from __future__ import annotations

import secrets
import threading
import time
from pathlib import Path

from ..errors import InputError
from ..games.following import Followed, follow_peek, peek_back
from ..games.session import CoachSession
from ..games.turns import PeekTurn, score_of
from ..model.cards import Card
from ..model.game import Status
from ..model.i18n import _
from ..model.observed import Observed, name_place
from .review import (
    Judging,
    Superseded,
    board_after,
    board_cells,
    judge,
    move_rows,
    rather_than,
    told_cards,
)

MAX_SAMPLES = 5000  # the most a page may ask advice to look at (the coach's default: 1000)


class Conflict(InputError):
    """A move sent by a page that did not show the game as it stands."""


class Table:
    """A game held by the server: one per record file, its moves under one lock."""

    def __init__(self, name: str, session: CoachSession) -> None:
        self.name = name
        self.core = session
        self.lock = threading.Lock()
        self.seed = secrets.randbelow(2**31)
        self.used = time.monotonic()  # when a page last asked for it
        self.initial_unknown = len(session.game.start.knowledge.unknown_places)
        self._advice: dict[tuple, dict] = {}
        self._analysis: dict[tuple, dict] = {}
        self.judging = Judging()  # the move list's marks (web/review.py)
        self.followed: Followed | None = None  # the peek's step the page played
        self.peek_done: PeekTurn | None = None  # a peek ended by following it: said once

    @property
    def path(self) -> Path:
        return self.core.path

    def close(self) -> None:
        with self.lock:
            self.core.close()

    # --- what the page shows ---------------------------------------------------------
    def state(self) -> dict:
        with self.lock:
            return self._state()

    def _state(self) -> dict:
        core, game = self.core, self.core.game
        position = game.position()
        knowledge = game.knowledge.places
        board = board_cells(position, game.knowledge)
        legal = [m.token for m in position.legal_moves()] if core.pending is None else []
        need = None
        if core.pending is not None:
            place = core.need[len(core.said)]
            need = {"move": core.pending.token, "place": place,
                    "name": name_place(place, game.rules), "of": len(core.need),
                    "asked": len(core.said) + 1}
        known_cards = sorted({c.token for c in knowledge if c is not None}
                             | {c.token for c in core.said})
        return {
            "name": self.name, "start": {"kind": game.start.kind, "text": game.start.text},
            "rules": game.rules.name, "variant": game.rules.variant, "scoring": core.scoring,
            "at": len(game.record), "status": position.status.value,
            "moves_played": position.moves_played, "score": score_of(position, core.scoring),
            "stock_left": position.stock_left, "cards_left": position.cards_left,
            "waste": None if position.waste is None else position.waste.token,
            "board": board, "legal": legal, "can_undo": bool(position.record) and
            core.pending is None and position.status is not Status.WON, "exact": core.exact,
            "can_peek": position.status is Status.IN_PLAY and not core.exact
            and core.undo_limit > 0, "empty_waste": game.rules.empty_waste,
            "moves": move_rows(game.record), "told": told_cards(game),
            "known": len(game.known_places), "places": len(knowledge),
            "known_cards": known_cards, "need": need, "peek": self._peek(),
            "record": game.tokens, "seed": self.seed}

    def _peek(self) -> dict | None:
        followed = self.followed if self.followed and self.followed.waiting(self.core) \
            else None  # a step the page played itself, asking its card
        turn = followed.turn if followed else self.core.peek_turn()  # ends a peek done
        turn, self.peek_done = turn or self.peek_done, None
        if turn is None:
            return None
        rules = self.core.rules
        taps = turn.taps + (turn.step.actions if followed and turn.step else 0)
        return {**turn.data(rules), "seen": self.initial_unknown - turn.unknown,
                "of": self.initial_unknown, "done": turn.finished, "taps": taps,
                "following": followed is not None, "seed": self.core.seed,
                "text": turn.done_text() if turn.finished else turn.text(rules)}

    def _follow(self) -> None:
        # A peek follows its plan itself: the next step's taps played, its card asked.
        if self.core.peeking and self.core.pending is None:
            found = follow_peek(self.core)
            self.followed = found if isinstance(found, Followed) else None
            if isinstance(found, PeekTurn) and found.finished:
                self.peek_done = found  # said once, by the next state

    # --- moves -----------------------------------------------------------------------
    def _check(self, at: int | None) -> None:
        if at is not None and at != len(self.core.game.record):
            raise Conflict(_("the game moved on in another tab: reload the page"))

    def move(self, token: str, at: int | None) -> dict:
        """Play a move (a card, draw, undo) as the player did in the app."""
        step = Observed.parse(token)
        with self.lock:
            self._check(at)
            core = self.core
            if core.pending is not None:
                raise InputError(_("say first which card turned up (or cancel)"))
            status = core.game.game.status
            if status is not Status.IN_PLAY and not step.move.is_undo:
                raise InputError(_("the game is over (won)") if status is Status.WON
                                 else _("the game is over (stuck)"))
            if status is Status.WON:
                raise InputError(_("the game is won: the app ends it there, with no undo"))
            core.play(step)
            self._follow()
            return self._state()

    def reveal(self, token: str, at: int | None) -> dict:
        """The card that turned up at the place the page asks for."""
        card = Card.parse(token)
        with self.lock:
            self._check(at)
            if card.is_joker:
                raise InputError(_("the joker is known from the start"))
            if self.core.game.knowledge.where(card) is not None:
                raise InputError(_("{card} is known already: pick a card not seen yet",
                                   card=card.name))
            if self.core.pending is None:
                raise InputError(_("no card was asked for"))
            if card in self.core.said:
                raise InputError(_("{card} is said already: pick the next card",
                                   card=card.name))
            self.core.answer(card.token)
            self._follow()
            return self._state()

    def cancel(self) -> dict:
        with self.lock:
            self.core.cancel()
            return self._state()

    def peek(self, at: int | None) -> dict:
        """Start a peek here (its first step followed: its card asked), or stop the one
        going on."""
        with self.lock:
            self._check(at)
            core = self.core
            if core.pending is not None and not (self.followed and self.followed.waiting(core)):
                raise InputError(_("say first which card turned up"))
            if core.game.game.status is not Status.IN_PLAY and not core.peeking:
                raise InputError(_("the game is over (won)") if core.game.game.status is Status.WON
                                 else _("the game is over (stuck)"))
            core.cancel()  # the card a followed step asks for: the peek stops
            core.toggle_peek()
            self._follow()
            return self._state()

    def peek_next(self, at: int | None) -> dict:
        """The peek's last step, made in the app: its moves undone (the peek ends)."""
        with self.lock:
            self._check(at)
            peek_back(self.core)
            return self._state()

    def correct(self, told: str, right: str, at: int | None) -> dict:
        """The card told as ``told`` was ``right`` (``coach``'s ``fix``): the record
        rewritten in one step, the game, its knowledge and its advice with it."""
        with self.lock:
            self._check(at)
            self.core.fix(told, right)
            self._advice.clear()
            self._analysis.clear()
            return self._state()

    # --- the move list: judged, and the board after a move -------------------------------
    def review(self, at: int | None, samples: int, seed: int | None) -> dict:
        """The record judged (web/review.py's ``judge``), in the background: this waits
        for it, after any advice; 409 when the game moves on meanwhile."""
        seed = self.seed if seed is None else seed
        with self.lock:
            self._check(at)
            game, scoring = self.core.game, self.core.scoring
            start, record = game.start, list(game.record)
        key = (tuple(o.token for o in record), samples, seed, scoring)
        try:
            out = self.judging.get(key, lambda progress: judge(
                start, record, scoring, samples, seed, progress))
        except Superseded:
            raise Conflict("the game moved on: its moves are judged again") from None
        return {"at": len(record), **out}

    def review_board(self, ply: int) -> dict:
        """The board after line ``ply`` of the record, with the best line from there
        when the deal is known."""
        with self.lock:
            game, scoring = self.core.game, self.core.scoring
            start, record = game.start, list(game.record)
        return {"at": len(record), **board_after(start, record, ply, scoring)}

    # --- advice ----------------------------------------------------------------------
    def advice(self, at: int | None, samples: int, seed: int | None) -> dict:
        """The advice for the position after ``at`` moves of the record (the current one;
        a page behind gets a 409)."""
        from ..analysis.fair import View
        from ..analysis.hints import fair_advice, hint
        from ..analysis.stats import fraction
        from ..games.turns import Advice
        from ..solver.solve import solve

        seed = self.seed if seed is None else seed
        with self.lock:
            self._check(at)
            core, game = self.core, self.core.game
            at = len(game.record)
            key = (at, samples, seed, core.exact)
            if key in self._advice:
                return self._advice[key]
            position, known, exact = game.position(), game.known_places, core.exact
            scoring = core.scoring
        # Computed outside the lock: a move sent meanwhile is not held up; the answer
        # names the record length it is for.
        out: dict[str, object]  # JSON values
        out = {"at": at, "exact": exact, "recommended": None, "player": None, "seed": None,
               "chance": None, "moves": [], "line": [], "best_score": None, "winnable": None,
               "rather": None}
        if position.status is Status.IN_PLAY:
            if exact:
                h = hint(position, scoring)
                line = []
                if h.moves:  # the best line that begins with the move recommended
                    first = h.moves[0].move
                    line = [first, *solve(position.play(first), scheme=scoring).moves]
                out.update(player="exact", winnable=h.winnable, best_score=h.best_score,
                           line=[m.token for m in line],
                           moves=[{"move": m.move.token, "share": 1.0 if m.winnable else 0.0,
                                   "best_score": m.best_score, "mark": m.mark}
                                  for m in h.moves])
                out["recommended"] = h.moves[0].move.token if h.moves else None
            else:
                fa = fair_advice(View.of(position, known), samples, seed, 0, scoring)
                out.update(player=fa.player, seed=seed,
                           recommended=fa.recommended and fa.recommended.token,
                           chance=fraction(Advice(fair=fa).chance),
                           rather=rather_than(Advice(fair=fa)),
                           moves=[{"move": m.move.token, "share": fraction(m.share),
                                   "best_score": None,
                                   "mark": ""} for m in fa.rating.moves])
        with self.lock:
            self._advice = {k: v for k, v in self._advice.items() if k[0] == at}
            self._advice[key] = out
        return out

    def analysis(self, samples: int, seed: int | None) -> dict:
        """The end of the game: the result and the whole game judged."""
        from ..analysis.hints import analyze_game

        seed = self.seed if seed is None else seed
        samples = min(samples, 200)
        with self.lock:
            game, scoring = self.core.game, self.core.scoring
            position = game.position()
            key = (len(game.record), samples, seed)
            if key in self._analysis:
                return self._analysis[key]
            start, record, exact = game.start, list(game.record), game.exact
            result = {Status.WON: "won", Status.STUCK: "stuck"}.get(position.status,
                                                                    "in play")
            out = {"result": result, "score": score_of(position, scoring),
                   "moves": position.moves_played, "record": game.tokens, "analysis": None}
        if record:
            review = analyze_game(start, record, scoring, fair=not exact, samples=samples,
                                  seed=seed)
            out["analysis"] = {
                "exact": review.exact, "best_start": review.best_start,
                "final_best": review.final_best, "lost_at": review.lost_at,
                "lost_total": review.lost_total,
                "marks": {m: review.count(m) for m in ("?", "??", "!")},
                "bad_luck": sum(r.verdict == "bad luck" for r in review.moves),
                "mistakes": sum(r.verdict == "mistake" for r in review.moves),
                "moves": review.rows()}
        with self.lock:
            self._analysis[key] = out
        return out


def check_samples(samples: int) -> int:
    if not 1 <= samples <= MAX_SAMPLES:
        raise InputError(_("samples must be 1 to {most}", most=MAX_SAMPLES))
    return samples


__all__ = ["Conflict", "Table", "check_samples", "score_of"]
