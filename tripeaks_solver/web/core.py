"""Interim: a played-along game held by the server (until analysis.session lands).

The game (:class:`ObservedGame`), its record file (locked while held, one synced line
a move), the move waiting for the cards it turned up, and the peek walk-through.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..analysis.observed import NeedsObservation, Observed, ObservedGame, Start
from ..analysis.records import header, looks_like_record, parse_record_file
from ..batch.errors import BatchError
from ..batch.files import LockedFile, write_all
from ..errors import IllegalMoveError, InputError
from ..model.cards import Card
from ..model.game import UNDO_LIMIT
from ..model.moves import Move


class Core:
    """One game played along, its record file locked while the core holds it."""

    def __init__(self, path: Path, game: ObservedGame, scoring: str, file: LockedFile,
                 torn: str | None = None) -> None:
        self.path = path
        self.game = game
        self.scoring = scoring
        self.file = file
        self.torn = torn
        self.undo_limit = UNDO_LIMIT
        self.peek_base: int | None = None
        self.peek_began = 0
        self.pending: Move | None = None
        self.need: tuple[int, ...] = ()
        self.said: list[Card] = []

    # --- the file --------------------------------------------------------------------
    @classmethod
    def create(cls, path: Path, start: Start, scoring: str) -> Core:
        file = _lock(path)
        try:
            if file.size:
                raise InputError(f"{path.name} exists already")
            _append(file, header(start, scoring))
        except BaseException:
            file.close(discard=True)
            raise
        return cls(path, ObservedGame(start), scoring, file)

    @classmethod
    def open(cls, path: Path) -> Core:
        file = _lock(path)
        try:
            data = os.pread(file.fd, file.size, 0) if file.size else b""
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                raise InputError(f"{path.name} is not a game record (not UTF-8)") from None
            if not looks_like_record(text):
                raise InputError(f"{path.name} is not a game record")
            stored = parse_record_file(text, path.name)
            game = ObservedGame.replay(stored.start, stored.moves)
            if text and not text.endswith("\n"):
                if stored.torn is not None:
                    body = text.rpartition("\n")[0] + "\n"
                    os.ftruncate(file.fd, len(body.encode("utf-8")))
                    _append(file, f"# cut short, left out: {stored.torn}\n")
                else:
                    _append(file, "\n")
        except (InputError, IllegalMoveError) as exc:
            file.close(discard=False)
            raise InputError(str(exc)) from None
        except BaseException:
            file.close(discard=False)
            raise
        return cls(path, game, stored.scoring, file, stored.torn)

    def close(self) -> None:
        if self.file is not None:
            self.file.close(discard=False)
            self.file = None

    # --- moves -----------------------------------------------------------------------
    def play(self, step: Observed) -> None:
        """Play a move; NeedsObservation sets the question of the cards it turned up."""
        try:
            self.game.play(step)
        except NeedsObservation as exc:
            self.pending, self.need, self.said = step.move, exc.places, []
            return
        _append(self.file, self.game.record[-1].token + "\n")

    def answer(self, card: Card) -> None:
        """The card at the question's place: the move is played once every card is said."""
        if self.pending is None:
            raise InputError("no card was asked for")
        said = self.said + [card]
        if len(said) < len(self.need):
            known = self.game.knowledge
            if known.where(card) is not None or card in self.said:
                raise InputError(f"{card.pretty} is known already")
            self.said = said
            return
        move, need, it = self.pending, self.need, iter(said)
        places = self.game.shows(move)
        known = self.game.knowledge.places
        shown = tuple(known[p] if known[p] is not None else next(it) for p in places)
        self.pending, self.need, self.said = None, (), []
        try:
            self.play(Observed(move, shown))
        except (InputError, IllegalMoveError):
            self.pending, self.need, self.said = move, need, []
            raise

    def cancel(self) -> None:
        self.pending, self.need, self.said = None, (), []

    # --- advice and peek ---------------------------------------------------------------
    def exact(self) -> bool:
        return self.game.exact

    def toggle_peek(self) -> None:
        if self.peek_base is not None:
            self.peek_base = None
            return
        if self.exact():
            raise InputError("every card is known already: nothing to peek")
        self.peek_base = self.peek_began = len(self.game.record)

    def peek_turn(self):
        """The next step of the peek (None when no line shows another card), the moves
        to take back to where it began, the taps so far, the cards still unknown."""
        from ..analysis.peek import next_step

        moves = self.game.moves
        stack: list[Move] = []
        for i in range(self.peek_base, len(moves)):
            if not moves[i].is_undo:
                stack.append(moves[i])
            elif stack:
                stack.pop()
            else:
                self.peek_base = i + 1
        knowledge = self.game.knowledge
        step = None
        if not knowledge.complete:
            step = next_step(knowledge, self.game.rules, moves[:self.peek_base], stack,
                             self.undo_limit)
        return step, len(stack), len(moves) - self.peek_began, len(knowledge.unknown_places)


def _lock(path: Path) -> LockedFile:
    try:
        return LockedFile(path, "the record", "record")
    except BatchError as exc:
        message = str(exc)
        if "in use" in message:
            message = (f"{path.name} is open in another session (a terminal coach?): "
                       "finish it there first")
        raise InputError(message) from None


def _append(file: LockedFile, text: str) -> None:
    os.lseek(file.fd, 0, os.SEEK_END)
    try:
        write_all(file.fd, text.encode("utf-8"))
        os.fsync(file.fd)
    except OSError as exc:
        raise InputError(f"cannot write the record: {exc.strerror or exc}") from None
