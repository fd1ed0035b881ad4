"""One game at the server's table: the played-along game, serialized by a lock, and what
the page shows of it (the board as the player sees it, the advice, the peek, the end).

Every method runs in a worker thread (the server calls them off the event loop); the
lock makes the moves of two tabs on one game one after the other. Every answer carries
the version of the game it shows (``at``: the record and the move waiting for its
cards, if any), and every request that changes the game carries the version its page
showed: a tab behind the game (another tab moved, said a card, cancelled) is refused,
not applied to a position it did not show.

Before every change the record's path must still name the file the table holds, as it
left it (:meth:`games.record_file.RecordFile.changed`): when it does not (replaced by
a rename, written by another program), the change is refused, the game is read again
from the file (its lock taken: the lock follows the path) and the page told to reload.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from ..analysis.fair import Cancelled, StopCheck
from ..errors import InputError
from ..games.following import Followed, follow_peek, peek_back
from ..games.record_file import RecordChanged
from ..games.session import CoachSession, RecordWriteError
from ..games.turns import PeekTurn, score_of
from ..model.cards import Card
from ..model.game import Status
from ..model.i18n import N_, _
from ..model.observed import Observed, name_place
from .advice import advice_of
from .events import Left
from .payloads import AdviceAnswer, BoardAnswer, EndAnswer, GameState, Judgement, Need, Peek
from .review import board_after, board_cells, judge, move_rows, told_cards

LIGHT_SAMPLES = 200  # advice with at most these samples (or exact) runs in the light lane
CHANGED = N_("the record changed outside the page: reload")
LEFT = N_("the game moved on: its moves are judged again")

Job = tuple[tuple, Callable[[StopCheck], Mapping[str, object]], str]  # (key, compute, lane): web.jobs


class Conflict(InputError):
    """A change sent by a page that did not show the game as it stands."""


class Gone(Exception):
    """The table was closed (let go, or its record changed and could not be read
    again) after a request found it: the hub looks again."""


class Table:
    """A game held by the server: one per record file, its moves under one lock.
    ``reopen(path)`` reads the game again from the file (a record changed outside)."""

    def __init__(self, name: str, session: CoachSession,
                 reopen: Callable[[Path], CoachSession] | None = None) -> None:
        self.name, self.core, self.reopen = name, session, reopen
        self.lock = threading.Lock()
        self.seed = secrets.randbelow(2**31)
        self.used = time.monotonic()  # when a page last asked for it
        self.initial_unknown = len(session.game.start.knowledge.unknown_places)
        self.closed = False
        self.outside = False  # read again after a change outside: the next 409 says so
        self.crowded = False  # opened again after it was let go for room while busy
        self.fixed_away: int | None = None  # the version a correction left, dropping
        # the move waiting for its card (while the game stays there, the cause of a 409)
        self.followed: Followed | None = None  # the peek's step the page played
        self.peek_done: PeekTurn | None = None  # a peek ended by following it: said once
        self.stuck_peek = False  # a peek begun in a stuck game: it ends when it has shown all
        self.left = Left()  # the versions a tab may still show, and what left each

    @property
    def path(self) -> Path:
        return self.core.path

    def close(self) -> None:
        with self.lock:
            self._close()

    def _close(self) -> None:
        if not self.closed:
            self.closed = True
            self.core.close()

    @property
    def busy(self) -> bool:
        """A card asked for or a peek going on: state only this table holds."""
        return self.core.pending is not None or self.core.peeking

    # --- the record file ---------------------------------------------------------------
    def follow(self) -> bool:
        """When the record's path no longer names the file held as the table left it,
        read the game again from the file there (or close the table when it cannot be:
        held by another session, unreadable). True when that happened. Under the lock."""
        if self.closed:
            raise Gone
        if self.core.record.changed() is None:
            return False
        self._close()
        if self.reopen is not None:
            try:
                self.core = self.reopen(self.core.path)
            except InputError:
                return True  # closed: the hub opens it again, and says why it cannot
            self.closed, self.outside = False, True
        return True

    def watch(self) -> bool:
        """:meth:`follow` when the table is free (the hub's timer): the lock follows
        the file the path names within the timer's period. True when it did."""
        if self.lock.acquire(blocking=False):
            try:
                if not self.closed:
                    return self.follow()
            finally:
                self.lock.release()
        return False

    def _change(self, at: int | None, change: Callable[[], object],
                answers: bool = False, how: str = "moved") -> GameState:
        """``change()`` under the lock, refused when the record changed outside or the
        page is behind; a write refused because the record changed meanwhile reads the
        game again. ``answers``: the change answers the move waiting for its cards;
        ``how``: what it does to the version it leaves (web.events.Left)."""
        with self.lock:
            if self.follow():
                raise Conflict(_(CHANGED))
            self._check(at, answers)
            before = self.version()
            followed, done, stuck = self.followed, self.peek_done, self.stuck_peek
            try:
                with self.core.step():  # all or nothing: one write of its lines
                    change()
            except BaseException as exc:
                self.followed, self.peek_done, self.stuck_peek = followed, done, stuck
                if not isinstance(exc, (RecordWriteError, RecordChanged)):
                    raise
                # a correction rewrites the record itself: its RecordChanged comes bare
                if isinstance(exc, RecordChanged) or isinstance(exc.__cause__, RecordChanged):
                    self.follow()
                    raise Conflict(_(CHANGED)) from None
                raise
            self.outside = self.crowded = False
            self.left.note(before, self.version(), how)
            return self._state()

    def _live(self) -> None:
        """:meth:`follow`, then Gone when the table is closed. Under the lock."""
        self.follow()
        if self.closed:
            raise Gone

    # --- what the page shows ---------------------------------------------------------
    def state(self) -> GameState:
        with self.lock:
            self._live()
            return self._state()

    def version(self) -> int:
        """``at``: a number naming the game as it stands: its record and the move
        waiting for its cards with the cards said (equal versions: the same game)."""
        core = self.core
        text = "\n".join([self.name, core.game.start.kind, core.game.start.text,
                          str(core.rules), *core.game.tokens])
        if core.pending is not None:
            text += "\n?" + core.pending.token + ":" + " ".join(c.token for c in core.said)
        # 48 bits: a whole number JavaScript holds exactly.
        return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=6).digest(), "big")

    def _state(self) -> GameState:
        core, game = self.core, self.core.game
        position = game.position()
        knowledge = game.knowledge.places
        board = board_cells(position, game.knowledge)
        legal = [m.token for m in position.legal_moves()] if core.pending is None else []
        need: Need | None = None
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
            "at": self.version(), "status": position.status.value,
            "moves_played": position.moves_played, "score": score_of(position, core.scoring),
            "stock_left": position.stock_left, "cards_left": position.cards_left,
            "waste": None if position.waste is None else position.waste.token,
            "board": board, "legal": legal, "can_undo": bool(position.record) and
            core.pending is None and position.status is not Status.WON, "exact": core.exact,
            "can_peek": (position.status is Status.IN_PLAY or position.status is Status.STUCK
                         and bool(position.record)) and not core.exact
            and core.undo_limit > 0, "empty_waste": game.rules.empty_waste,
            "moves": move_rows(game.record), "told": told_cards(game),
            "known": len(game.known_places), "places": len(knowledge),
            "known_cards": known_cards, "need": need, "peek": self._peek(),
            "record": game.tokens, "seed": self.seed}

    def _peek(self) -> Peek | None:
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
            if isinstance(found, PeekTurn) and found.step is None and self.stuck_peek:
                # begun stuck, it ends where it has shown what it can: nothing to go back to
                self.core.peek_base = None
                found = PeekTurn(None, 0, found.taps, found.unknown)
            if isinstance(found, PeekTurn) and found.finished:
                self.stuck_peek = False
                self.peek_done = found  # said once, by the next state

    # --- moves -----------------------------------------------------------------------
    def _check(self, at: int | None, answers: bool = False) -> None:
        if at is None or at == self.version():
            return
        if self.outside:
            raise Conflict(_(CHANGED))
        said = self.left.said(at) if answers else None
        if said is not None:
            raise Conflict(said)
        if answers and self.core.pending is None and self.fixed_away == self.version():
            raise Conflict(_("the move waiting for its card was dropped: a card was corrected "
                             "(in another tab?) and the move no longer plays: reload the "
                             "page"))
        if answers and self.core.pending is None and self.crowded:
            raise Conflict(_("the move waiting for its card was dropped: the server closed "
                             "the game to make room for others (too many open at once): "
                             "reload the page and play it again"))
        if answers and self.core.pending is None:
            # The page still asks for a card the server no longer waits for: the move was
            # never written (a restart drops it) or another tab cancelled it.
            raise Conflict(_("the move waiting for its card was dropped (the server "
                             "restarted, or another tab cancelled it): reload the page and "
                             "play it again"))
        raise Conflict(_("the game moved on in another tab: reload the page"))

    def move(self, token: str, at: int | None) -> GameState:
        """Play a move (a card, draw, undo) as the player did in the app."""
        step = Observed.parse(token)

        def change() -> None:
            core = self.core
            if core.pending is not None:
                raise InputError(_("say first which card turned up (or cancel)"))
            core.play(step)  # the session refuses what the app would (game over, …)
            self._follow()

        return self._change(at, change)

    def reveal(self, token: str, at: int | None) -> GameState:
        """The card that turned up at the place the page asks for."""
        card = Card.parse(token)

        def change() -> None:
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

        return self._change(at, change, answers=True, how="answered")

    def cancel(self, at: int | None = None) -> GameState:
        """Drop the move waiting for its cards (asked by a page that showed it)."""
        return self._change(at, lambda: self.core.cancel(), answers=True, how="cancelled")

    def peek(self, at: int | None) -> GameState:
        """Start a peek here (its first step followed: its card asked), or stop it."""

        def change() -> None:
            core = self.core
            if core.pending is not None and not (self.followed and self.followed.waiting(core)):
                raise InputError(_("say first which card turned up"))
            status = core.game.game.status
            stuck = status is Status.STUCK and not core.peeking and bool(core.game.record)
            if status is not Status.IN_PLAY and not core.peeking and not stuck:
                raise InputError(_("the game is over (won)") if status is Status.WON
                                 else _("the game is over (stuck)"))
            core.cancel()  # the card a followed step asks for: the peek stops
            core.toggle_peek()
            self.stuck_peek = stuck and core.peeking
            if self.stuck_peek:  # the app undoes there: the game's own moves are the peek's
                core.peek_base = max(0, len(core.game.record) - core.undo_limit)
            self._follow()

        return self._change(at, change)

    def peek_next(self, at: int | None) -> GameState:
        """The peek's last step, made in the app: its moves undone (the peek ends)."""
        return self._change(at, lambda: peek_back(self.core))

    def correct(self, told: str, right: str, at: int | None) -> GameState:
        """The card told as ``told`` was ``right`` (``coach``'s ``fix``): the record
        rewritten in one step (a new version: answers kept for the old one are not its)."""
        def change() -> None:
            waiting = self.core.pending is not None
            self.core.fix(told, right)
            if waiting and self.core.pending is None:
                self.fixed_away = self.version()

        return self._change(at, change)

    # --- the move list: judged, and the board after a move -------------------------------
    def review_job(self, at: int | None, samples: int, seed: int | None
                   ) -> tuple[Job, dict]:
        """The record judged (review.judge) as a job of web.jobs' background lane, which
        gives way to every other search; a Conflict (409) once the game has left that
        record. With it, what the answer adds: its version. The samples and the seed are
        the advice's: its chances, kept, are reused."""
        seed = self.seed if seed is None else seed
        used = samples
        with self.lock:
            self._live()
            self._check(at)
            game, scoring = self.core.game, self.core.scoring
            start, record, tokens = game.start, list(game.record), tuple(game.tokens)
            key = ("review", self.name, start.kind, start.text, str(start.rules), tokens,
                   scoring, used, seed)
            head = {"at": self.version()}

        def compute(should_stop: StopCheck) -> Judgement:
            def stop() -> bool:  # between short searches, after any wait for advice
                stopping = should_stop()
                with self.lock:  # moved on, or corrected (a card told at the start too)
                    game = self.core.game
                    if (game.start.text, tuple(game.tokens)) != (start.text, tokens):
                        raise Conflict(_(LEFT))  # the page asks for the record as it is now
                return stopping

            stop()  # a record left while it waited for its turn: not judged at all
            return judge(start, record, scoring, used, seed, stop)

        return (key, compute, "background"), head

    def board_job(self, ply: int) -> Job:
        """The board after line ``ply`` of the record (review.board_after), as a job."""
        with self.lock:
            self._live()
            game, scoring = self.core.game, self.core.scoring
            start, record, version = game.start, list(game.record), self.version()
            key = ("board", self.name, version, tuple(game.tokens), scoring, ply)
        if not 0 <= ply <= len(record):  # said here, in the request's language
            raise InputError(_("no move {number}: the record has {count}", number=ply,
                               count=len(record)))

        def compute(should_stop: StopCheck) -> BoardAnswer:
            if should_stop():  # its client left while it waited for its turn
                raise Cancelled
            return BoardAnswer(at=version, **board_after(start, record, ply, scoring))

        return key, compute, "heavy"

    # --- advice ----------------------------------------------------------------------
    def advice_job(self, at: int | None, samples: int, seed: int | None) -> Job:
        """The advice for the game as it stands (a page behind gets a 409), as a job
        (web.jobs): its key, the function computing it outside the lock, its lane."""
        seed = self.seed if seed is None else seed
        with self.lock:
            self._live()
            self._check(at)
            core, game = self.core, self.core.game
            version = self.version()
            position, known, exact = game.position(), game.known_places, core.exact
            scoring, keep = core.scoring, core.chance_log.keep
            key = ("advice", self.name, version, tuple(game.tokens), exact, scoring, samples,
                   None if exact else seed)

        def compute(should_stop: StopCheck) -> AdviceAnswer:
            return advice_of(position, known, exact, scoring, samples, seed, version,
                             should_stop, keep)

        return key, compute, "light" if exact or samples <= LIGHT_SAMPLES else "heavy"

    def analysis_job(self, samples: int, seed: int | None) -> Job:
        """The end of the game: the result and the whole game judged (with the samples
        and seed of the advice, whose chances it reuses: ``samples`` and
        ``samples_asked`` are the same), as a job."""
        from ..analysis.hints import analyze_game

        seed = self.seed if seed is None else seed
        used = samples
        with self.lock:
            self._live()
            game, scoring = self.core.game, self.core.scoring
            position = game.position()
            start, record, exact = game.start, list(game.record), game.exact
            key = ("analysis", self.name, game.start.text, tuple(game.tokens), scoring, used,
                   seed)
            result = {Status.WON: "won", Status.STUCK: "stuck"}.get(position.status,
                                                                    "in play")
            head: EndAnswer = {"result": result, "score": score_of(position, scoring),
                    "moves": position.moves_played, "record": game.tokens,
                    "samples": None if exact else used,
                    "samples_asked": None if exact else samples, "analysis": None}

        def compute(should_stop: StopCheck) -> EndAnswer:
            out = head.copy()
            if record:
                review = analyze_game(start, record, scoring, samples=used, seed=seed,
                                      should_stop=should_stop)
                out["analysis"] = {
                    "exact": review.exact, "best_start": review.best_start,
                    "final_best": review.final_best, "lost_at": review.lost_at,
                    "lost_total": review.lost_total,
                    "marks": {m: review.count(m) for m in ("?!", "?", "??")},
                    "accuracy": None if review.accuracy is None else round(review.accuracy, 6),
                    "bad_luck": sum(r.verdict == "bad luck" for r in review.moves),
                    "mistakes": sum(r.verdict == "mistake" for r in review.moves),
                    "moves": review.rows()}
            return out

        return key, compute, "heavy"


__all__ = ["CHANGED", "LEFT", "Conflict", "Gone", "Table", "score_of"]
