"""A game played along in an app: the coach's session, with no terminal inside.

A :class:`CoachSession` holds what the player told (the start, each move and the cards
it turned up, undos), what they know (kept across undo), the advice, the peek
walk-through and the record file, locked while the session is open and synced after
every move. It reads no input and prints nothing; front ends (``coach`` in a terminal,
the page in a browser) turn what the player typed into calls and show what they return::

    s = CoachSession.new(Start.of_seen("Jd 4s Ac 8h 4c 2h 8c 6h 8d 8s 9c", EASY),
                         "app", samples=1000, seed=1, record=Path("game.txt"))
    s = CoachSession.resume(Path("game.txt"))   # continue a record (``s.notes``: notes)
    s.play("8h")        # a move: 8h, 8h:Ks, d, d:9h, u (the cards it turned up after :)
    s.need              # places whose cards the move just played turned up, unsaid
    s.answer("Ks")      # ... the cards, left to right (s.cancel() drops the move)
    s.undo()            # the same as s.play("u")
    s.fix("5d", "6d")   # the card said as 5d was 6d: the record rewritten
    s.toggle_peek()     # start or stop a peek; s.peek_turn() is its next step
    advice = s.advise() # the advice here (slow: see below); advice.lines(): in words
    s.turn_data(advice) # the object ``coach --json`` prints for a turn (TURN_KEYS)
    review = s.review() # the whole game judged (slow); s.final(review): the end's data
    s.close()           # release the record file

``games.saved.saved_games()`` lists the records under the data directory,
newest first (``coach --list``); ``games.records.start_from_text`` reads a start as
typed (the cards seen, or a code).

Every change either happens whole (the record written and synced) or raises an
:class:`InputError` with a message for the player and leaves the session as it was; a
failed write of the record also leaves the file as it was (``RecordWriteError``: stop).

Threads: call the methods one at a time (a web server holds a lock per session), but
for the slow part of :meth:`advise`: :meth:`advice_job` takes what the advice needs and
returns a function that computes it without touching the session (run it in a worker
thread); :meth:`state_key` tells whether advice computed earlier is still current.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from ..analysis.stats import fraction
from ..errors import IllegalMoveError, InputError
from ..model.cards import Card
from ..model.game import UNDO_LIMIT, Status
from ..model.i18n import _, ngettext
from ..model.moves import Move
from ..model.observed import NeedsObservation, Observed, ObservedGame, Start, name_place
from ..model.scoring import Scheme
from .chance_log import ChanceLog
from .corrections import Correcting, app_refusal, known_already
from .peeking import Peeking
from .record_file import RecordFile
from .records import header, looks_like_record, parse_record_file, replay_record, torn_note
from .turns import TURN_KEYS, Advice, PeekTurn, score_of

if TYPE_CHECKING:
    from ..analysis.hints import Review
    from ..model.rules import Rules

class RecordWriteError(InputError):
    """The record could not be written: the move was not made and the file is as it was
    before it; the session cannot go on safely."""


class CoachSession(Correcting, Peeking):
    """One game played along: see the module's docstring (its peek: :class:`Peeking`, in
    ``peeking.py``; ``fix``: :class:`Correcting`, in ``corrections.py``)."""

    def __init__(self, game: ObservedGame, scoring: Scheme, record: RecordFile, *,
                 samples: int = 1000, seed: int | None = None, fair: bool = False,
                 undo_limit: int = UNDO_LIMIT) -> None:
        self.game = game
        self.scoring = scoring
        self.record = record
        self.chance_log = ChanceLog(record.path)  # the advice's chances, for the review
        self.chance_log.load()
        self.samples = samples
        self.seed = secrets.randbelow(1_000_000_000) if seed is None else seed
        self.fair = fair
        self.undo_limit = undo_limit
        self.notes: list[str] = []  # said of the record when it was opened
        self.peek_base: int | None = None  # peeking: the moves before the peek began
        self.peek_began = 0  # the record's length when the player asked for the peek
        self.pending: Move | None = None  # a move waiting for the cards it turned up
        self.need: tuple[int, ...] = ()
        self.said: list[Card] = []
        self._lines: list[str] | None = None  # in a step: its lines, written at its end

    # --- making one -----------------------------------------------------------------
    @classmethod
    def new(cls, start: Start, scoring: Scheme = Scheme.APP, *, moves: Iterable[Observed] = (),
            record: Path | RecordFile | None = None, data: Path | None = None,
            samples: int = 1000, seed: int | None = None, fair: bool = False,
            undo_limit: int = UNDO_LIMIT, lang: str | None = None) -> CoachSession:
        """A new game from ``start`` (after ``moves``, if any), its record written to
        ``record`` (a new or empty file, or a RecordFile already open on one) or to a
        new file named after the start in the folder ``data`` (made if missing; by
        default :func:`record_file.games_dir`, where ``saved_games`` looks)."""
        game = replay_record(start, moves, lang)
        if record is None:  # the next free name: another session may begin one now
            record = RecordFile.new_in(start, data)
        elif not isinstance(record, RecordFile):
            record = RecordFile(record)
        try:
            if not record.is_open:
                record.open()
            if record.size:
                raise InputError(_("{file} holds a game already: continue it, or give another "
                                   "file for a new game", file=record.path))
            record.write(header(start, scoring) + "".join(o.token + "\n" for o in game.record))
        except BaseException:
            record.close()
            raise
        return cls(game, scoring, record, samples=samples, seed=seed, fair=fair,
                   undo_limit=undo_limit)

    @classmethod
    def resume(cls, record: Path | RecordFile, *, samples: int = 1000,
               seed: int | None = None, fair: bool = False, undo_limit: int = UNDO_LIMIT,
               lang: str | None = None) -> CoachSession:
        """The game a record file holds, to go on with (the file locked meanwhile). A
        last line cut short is left out and kept in the file as a comment (a note in
        ``notes``)."""
        if not isinstance(record, RecordFile):
            record = RecordFile(record)
        try:
            text = record.text if record.is_open else record.open()
            if not looks_like_record(text):
                raise InputError(_("{file} is not a game record: give a new file name, or a "
                                   "record coach wrote", file=record.path))
            stored = parse_record_file(text, str(record.path))
            game = replay_record(stored.start, stored.moves, lang)
            record.end_torn_tail(text, stored.torn)
        except BaseException:
            record.close()
            raise
        session = cls(game, stored.scoring, record, samples=samples, seed=seed, fair=fair,
                      undo_limit=undo_limit)
        if stored.torn is not None:
            session.notes.append(torn_note(str(record.path), stored.torn))
        return session

    def close(self) -> None:
        """Release the record file."""
        self.record.close()

    # --- what is known ----------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        return self.game.rules

    @property
    def path(self) -> Path:
        return self.record.path

    @property
    def status(self) -> Status:
        return self.game.game.status

    @property
    def exact(self) -> bool:
        """Is the advice exact: every card seen, or the whole deal known (a code, a full
        layout) and not ``fair``?"""
        return self.game.knowledge.complete or self.game.exact and not self.fair

    @property
    def known(self) -> int:
        """The places of the deal the advice may read: all of them when it is exact."""
        return len(self.game.knowledge.places) if self.exact else len(self.game.known_places)

    @property
    def unknown(self) -> int:
        return len(self.game.knowledge.places) - self.known

    @property
    def peeking(self) -> bool:
        return self.peek_base is not None

    def question(self) -> str:
        """What the player is asked: their move, or a card the move turned up."""
        if self.pending is None:
            return _("Your move (a card, d, u; ? for help): ")
        if self.pending.is_draw:
            return _("The card you drew: which is it? ")
        place = name_place(self.need[len(self.said)], self.rules)
        return _("{place} turned up: which card? ", place=place[:1].upper() + place[1:])

    def known_line(self) -> str:
        """``Known: 12 of 52 cards (40 not seen yet)``."""
        total = len(self.game.knowledge.places)
        if self.unknown:
            return _("Known: {known} of {total} cards ({unknown} not seen yet)",
                     known=self.known, total=total, unknown=self.unknown)
        return _("Known: {known} of {total} cards (every card)", known=self.known, total=total)

    def state_key(self) -> tuple:
        """Equal for two calls exactly when the advice would be the same."""
        return (tuple(self.game.tokens), self.exact)

    # --- moves ------------------------------------------------------------------------
    def play(self, text: str | Observed) -> None:
        """Play a move the player made (``8h``, ``8h:Ks``, ``d``, ``d:9h``, ``u``): when
        it turned up cards not said, ``need`` names their places and :meth:`answer`
        takes them. While a move waits for its cards, ``text`` answers it."""
        if self.pending is not None and isinstance(text, str):
            return self.answer(text)
        step = Observed.parse(text) if isinstance(text, str) else text
        try:
            self._play(step)
        except NeedsObservation as exc:
            self.pending, self.need, self.said = step.move, exc.places, []

    def undo(self) -> None:
        """The player took back the last move (the cards they saw stay known)."""
        self.play(Observed(Move.UNDO))

    def cancel(self) -> None:
        """Drop the move waiting for its cards."""
        self.pending, self.need, self.said = None, (), []

    def answer(self, text: str) -> None:
        """The cards the move waiting for them turned up, one or more at a time, left to
        right (or the move again with them: ``d:9h``)."""
        if self.pending is None:
            raise InputError(_("no move is waiting for a card"))
        try:
            step = Observed.parse(text)
            if step.move == self.pending and step.shown and not self.said:
                return self._answered(step)
        except InputError:
            pass
        try:
            cards = [Card.parse(w) for w in text.replace(",", " ").split()]
        except InputError as exc:
            raise InputError(_("{error}; say the card that turned up (e.g. 7s), or q to stop",
                               error=exc)) from None
        if len(self.said) + len(cards) > len(self.need):
            self.said = []
            raise InputError(ngettext(
                "{move} turned up {n} card you have not seen, not {count}: say it again",
                "{move} turned up {n} cards you have not seen, not {count}: say them again",
                len(self.need), move=self.pending.name, count=len(cards)))
        if len(self.said) + len(cards) < len(self.need):
            self.said += cards
            return None
        move, said = self.pending, iter(self.said + cards)
        known = self.game.knowledge.places
        try:
            places = self.game.shows(move)
        except IllegalMoveError as exc:  # never left waiting (see fix): dropped, said why
            self.cancel()
            raise InputError(_("{move} does not play here ({error}): it is dropped, play "
                               "your move again", move=move.name, error=exc)) from None
        shown = tuple(c if (c := known[p]) is not None else next(said) for p in places)
        return self._answered(Observed(move, shown))

    def _answered(self, step: Observed) -> None:
        # The pending move with the cards said; when they cannot be right, asked again.
        pending, need = self.pending, self.need
        self.cancel()
        try:
            self._play(step)
        except RecordWriteError:
            raise
        except InputError as exc:
            self.pending, self.need = pending, need
            raise InputError(ngettext("{error}: say it again (q to stop)",
                                      "{error}: say them again (q to stop)", len(need),
                                      error=exc)) from None

    def _play(self, step: Observed) -> None:
        game = self.game
        refused = app_refusal(game, step, self.undo_limit)
        if refused is not None:
            raise InputError(refused)
        before = (game.knowledge, game.game, len(game.record))
        try:
            game.play(step)
        except IllegalMoveError as exc:
            raise InputError(str(exc)) from None
        except NeedsObservation:
            raise
        except InputError as exc:
            raise InputError(known_already(self.game, step) or str(exc)) from None
        try:
            self._write(game.record[-1].token + "\n")
        except RecordWriteError:
            game.knowledge, game.game = before[0], before[1]
            del game.record[before[2]:]
            raise
        self._settle_peek()

    def _write(self, text: str) -> None:
        # Appended to the record, synced; in a step, at its end.
        if self._lines is not None:
            self._lines.append(text)
            return
        try:
            self.record.write(text)
        except InputError as exc:
            raise RecordWriteError(str(exc)) from exc  # the cause: why (files.os_errno)

    @contextmanager
    def step(self) -> Iterator[None]:
        """Everything done inside is one step, all or nothing: its moves are written to
        the record in one write (and one sync) at its end; when anything inside fails,
        that write too, the session and the record are as they were before it. (A peek
        step's undos and moves, a card said and the step that follows it.)"""
        if self._lines is not None:  # inside a step already: part of it
            yield
            return
        game = self.game
        saved = (game, game.knowledge, game.game, list(game.record), self.pending,
                 self.need, list(self.said), self.peek_base, self.peek_began)
        self._lines = []
        try:
            yield
            lines, self._lines = "".join(self._lines), None
            if lines:
                self._write(lines)
        except BaseException:
            self._lines = None
            game, game.knowledge, game.game, record, self.pending, self.need, self.said, \
                self.peek_base, self.peek_began = saved
            game.record[:] = record
            self.game = game
            raise

    # --- advice -----------------------------------------------------------------------
    def advice_job(self) -> Callable[[], Advice]:
        """What the advice here needs, taken now; the function returned computes it (it
        may take seconds) without touching the session."""
        position, known = self.game.position(), self.game.known_places
        exact, samples, seed, scoring = self.exact, self.samples, self.seed, self.scoring
        keep = self.chance_log.keep

        def compute() -> Advice:
            from ..analysis.fair import View
            from ..analysis.hints import fair_advice, hint

            if exact:
                return Advice(hint=hint(position, scoring))
            view = View.of(position, known)
            return Advice(fair=fair_advice(view, samples, seed, 0, scoring, keep=keep))

        return compute

    def advise(self) -> Advice:
        """The exact hint when every card is known (and not ``fair``), else the fair
        player's advice, from only the cards seen."""
        return self.advice_job()()

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
        return self.samples  # the advice's: the review reuses its chances

    def review(self, progress: Callable[[int], None] | None = None) -> Review | None:
        """The whole game judged as ``analyze`` judges it with the session's samples and
        seed, reusing the advice's chances (None before any move); ``progress(n)`` after
        the n-th move. It does not touch the session."""
        if not self.game.record:
            return None
        from ..analysis.hints import analyze_game

        return analyze_game(self.game.start, list(self.game.record), self.scoring,
                            samples=self.review_samples, seed=self.seed, progress=progress)

    def final(self, review: Review | None = None) -> dict:
        """The ``final`` object of ``coach --json``: the result, the score, the record
        and the review."""
        position = self.game.position()
        return {"result": self.result, "score": score_of(position, self.scoring),
                "moves": self.game.game.moves, "record": self.game.tokens,
                "analysis": None if review is None else {
                    "exact": review.exact, "best_start": review.best_start,
                    "final_best": review.final_best, "lost_at": review.lost_at,
                    "lost_total": review.lost_total, "accuracy": fraction(review.accuracy),
                    "luck": fraction(review.luck_total),
                    "costliest": [r.number for r in review.costliest()],
                    "moves": review.rows()}}


__all__ = ["TURN_KEYS", "Advice", "CoachSession", "PeekTurn", "RecordWriteError"]
