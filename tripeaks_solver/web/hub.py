"""The games of a data directory: their record files listed, new ones started, and the
tables the server holds (one per record file, so two tabs share one game).

The server holds at most MAX_OPEN games open (each holds its record file open and
locked); a timer closes those left alone for IDLE_SECONDS and, when more are open, the
least recently used, and follows a record replaced under it (its lock follows the
file the path names). A game asking for a card or peeking holds what only memory
holds: it is never let go for room, unless MAX_HELD such games are open (then the
least recently used goes, and its page is told why). When the machine runs out of file
descriptors, the least recently used games are let go and the request tried once more
before it is refused.
"""

from __future__ import annotations

import errno
import logging
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from ..errors import InputError
from ..games.files import FileError, held_by_other, held_files, os_errno
from ..games.record_file import RecordFile
from ..games.records import make_start
from ..games.saved import RecordIndex, link_why, saved_game
from ..games.session import CoachSession
from ..model.codes import GameCode
from ..model.i18n import _
from ..model.layout import Layout
from ..model.observed import Start
from ..model.pysol import PysolGame, is_pysol
from ..model.rules import VARIANT_OPTIONS, Rules
from ..model.scoring import SCHEMES, Scheme
from .payloads import GameEntry
from .table import Conflict, Gone, Table

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,150}")
IDLE_SECONDS = 60  # a game left alone this long is let go: a terminal coach may take it
MAX_OPEN = 128  # games held open at once (a file descriptor each; serve raises the limit)
MAX_HELD = 256  # games held open at once when those asking for a card or peeking count
SWEEP_SECONDS = 1.0  # the timer's period
OUT_OF_FILES = (errno.EMFILE, errno.ENFILE)
READ_ONLY = (errno.EROFS, errno.EACCES, errno.EPERM)  # a record that can only be read
T = TypeVar("T")
log = logging.getLogger("tripeaks_solver.web")


class NotFound(InputError):
    """A record name that names no record file of the data directory."""


class Held(InputError):
    """A record another session (a terminal coach) holds."""


class Hub:
    """The record files of ``folder`` and the games the server holds open;
    ``changed(name)`` is told when the timer finds a record changed outside."""

    def __init__(self, folder: Path, max_open: int = MAX_OPEN,
                 changed: Callable[[str], None] | None = None) -> None:
        self.folder = Path(folder)
        self.changed = changed
        self.max_open = max_open
        self.lock = threading.Lock()
        self.tables: OrderedDict[str, Table] = OrderedDict()  # least recently used first
        self.crowded: OrderedDict[str, None] = OrderedDict()  # busy games let go for room
        self.index = RecordIndex(self.folder, follow_links=False)
        self._stop = threading.Event()
        self._timer: threading.Thread | None = None

    # --- names -----------------------------------------------------------------------
    def path_of(self, name: str) -> Path:
        """The record file called ``name`` in the folder: a bare file name, never one
        that leaves it (InputError otherwise); a record's name ends in ``.txt``."""
        if not isinstance(name, str) or not NAME.fullmatch(name) or ".." in name:
            raise InputError("not a record name: a bare file name of the data directory")
        path = self.folder / name
        if path.resolve().parent != self.folder.resolve():
            raise InputError("not a record name: a bare file name of the data directory")
        if path.is_symlink():  # one game, one name: the record it names is opened
            raise InputError(link_why(path, self.folder))
        if path.suffix != ".txt":
            raise NotFound(_("no record {name} in the data directory (records end in .txt)",
                             name=repr(name)))
        return path

    # --- the list -----------------------------------------------------------------------
    def games(self) -> list[GameEntry]:
        """The record files (as ``coach --list`` lists them), newest first, with their
        start, rules, moves and result; those a page cannot name are left out. Each
        says whether this server holds it (``open``) or another session does
        (``held_elsewhere``: read without its lock)."""
        try:
            scanned = self.index.scan()
        except OSError as exc:  # out of file descriptors: let some games go, once
            with self.lock:
                if exc.errno not in OUT_OF_FILES or not self._let_go(len(self.tables) // 2
                                                                      + 1):
                    raise
            scanned = self.index.scan()
        held = held_files()
        with self.lock:
            mine = {name for name, table in self.tables.items() if not table.closed}
        out: list[GameEntry] = []
        for game, st in scanned:
            name = game.path.name
            if not NAME.fullmatch(name):
                continue
            elsewhere = name not in mine and held_by_other(game.path, held)
            readable = game.moves is not None
            error = None if readable else game.said()  # in the request's language
            if st.st_nlink > 1:
                readable, error = False, _("has another hard link (another name, maybe "
                                           "outside the data directory): not opened")
            elif elsewhere and st.st_size == 0:
                error = _("a game being started in another session (a terminal coach?)")
            out.append({"file": name,
                        "modified": game.modified.isoformat(timespec="seconds"),
                        "start": game.start if readable else None,
                        "rules": game.rules if readable else None,
                        "scoring": game.scoring if readable else None,
                        "moves": game.moves if readable else None,
                        "score": game.score if readable else None,
                        "result": game.result if readable else None,
                        "error": error, "open": name in mine, "held_elsewhere": elsewhere})
        return out

    # --- tables ----------------------------------------------------------------------
    def table(self, name: str) -> Table:
        """The game in record file ``name``, opened (and locked) on first use."""
        path = self.path_of(name)
        with self.lock:
            table = self.tables.get(name)
            if table is not None and not table.closed:
                table.used = time.monotonic()
                self.tables.move_to_end(name)
                return table
            self.tables.pop(name, None)
            if not path.is_file():
                raise NotFound(_("no record {name} in the data directory", name=repr(name)))
            self._make_room(1)
            table = Table(name, self._roomy(lambda: _open(path)), _open)
            table.crowded = name in self.crowded  # its page is told why, once
            self.crowded.pop(name, None)
            self.tables[name] = table
            return table

    def call(self, name: str, fn: Callable[[Table], T]) -> T:
        """``fn(table)`` on the game in record file ``name``: opened again when it was
        let go meanwhile."""
        for _try in range(3):
            try:
                return fn(self.table(name))
            except Gone:
                continue
        raise Conflict(_("{name} keeps changing outside the page: reload", name=name))

    def create(self, spec: dict) -> Table:
        """A new game from the page's start form: ``start`` (``seen``, ``code`` or
        ``layout`` text), ``rules``, ``variants``, ``scoring``; its record file the
        next free name (another server may start the same game in the same second)."""
        start, scoring = parse_start(spec)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise FileError(_("cannot make the data directory: {why}", why=exc.strerror or exc),
                            "file", errno=exc.errno) from None
        with self.lock:
            self._make_room(1)

            def make() -> CoachSession:
                record = RecordFile.new_in(start, self.folder, single_link=True)
                return CoachSession.new(start, scoring, record=record)

            session = self._roomy(make)
            table = Table(session.path.name, session, _open)
            self.tables[table.name] = table
            return table

    def _roomy(self, make: Callable[[], T]) -> T:
        """``make()``; when the machine has no file descriptor left, the least recently
        used games are let go and it is tried once more. Under the lock."""
        try:
            return make()
        except (OSError, InputError) as exc:
            half = len(self.tables) // 2 + 1
            if os_errno(exc) not in OUT_OF_FILES or not (self._let_go(half)
                                                         or self._let_go(half, busy=True)):
                raise
        return make()

    def _make_room(self, n: int) -> None:
        # At most max_open games open once n more are: the least recently used go, but
        # those asking for a card or peeking, unless MAX_HELD games are open.
        over = len(self.tables) + n - self.max_open
        if over > 0:
            self._let_go(over)
        over = len(self.tables) + n - max(MAX_HELD, self.max_open)
        if over > 0:
            self._let_go(over, busy=True)

    def _let_go(self, n: int, idle: float | None = None, busy: bool = False) -> int:
        """Close up to ``n`` games, least recently used first, none asking for a card
        or peeking unless ``busy`` (with ``idle``: only those left alone that long);
        those a request is using are kept. How many were closed. Under the lock."""
        now, closed = time.monotonic(), 0
        for name, table in list(self.tables.items()):
            if closed >= n:
                break
            if table.busy and not busy or idle is not None and now - table.used <= idle:
                continue
            if table.lock.acquire(blocking=False):
                try:
                    if table.busy:  # its question or peek is lost: its page is told why
                        self.crowded[name] = None
                        while len(self.crowded) > 4 * MAX_HELD:
                            self.crowded.popitem(last=False)
                    table._close()
                finally:
                    table.lock.release()
                del self.tables[name]
                closed += 1
            elif table.closed:
                del self.tables[name]
        return closed

    def sweep(self) -> None:
        """The timer's work: games left alone let go (their files free for a terminal
        coach again), at most max_open open, and every record replaced under a game
        followed."""
        with self.lock:
            for name, table in list(self.tables.items()):
                if table.closed:
                    del self.tables[name]
            self._let_go(len(self.tables), idle=IDLE_SECONDS)
            self._make_room(0)
            tables = list(self.tables.items())
        for name, table in tables:
            try:
                if table.watch() and self.changed is not None:
                    self.changed(name)
            except (OSError, InputError):
                pass  # a record that cannot be looked at now: the next request says why

    def start(self) -> None:
        """Run :meth:`sweep` every SWEEP_SECONDS in a thread of its own until
        :meth:`close`."""
        if self._timer is None:
            self._timer = threading.Thread(target=self._tick, daemon=True,
                                           name="tripeaks-sweep")
            self._timer.start()

    def _tick(self) -> None:
        while not self._stop.wait(SWEEP_SECONDS):
            try:
                self.sweep()
            except Exception as exc:  # noqa: BLE001  (the timer goes on; requests say why)
                log.debug("the timer: %s", exc)

    def close(self) -> None:
        self._stop.set()
        with self.lock:
            for table in self.tables.values():
                table.close()
            self.tables.clear()


def _open(path: Path) -> CoachSession:
    """The game in record file ``path``, its file locked; Held when another session
    holds it, said for the page."""
    refused = None
    try:
        try:
            return CoachSession.resume(RecordFile(path, single_link=True))
        except FileError as exc:
            if os_errno(exc) not in READ_ONLY:
                raise
            refused = exc
        # A read-only disk: the game shown all the same, every change refused (503).
        return CoachSession.resume(RecordFile(path, single_link=True, refused=refused))
    except FileError as exc:
        if exc.problem == "in-use":
            raise Held(_("{name} is open in another session (a terminal coach?): "
                         "finish it there, then reload this page", name=path.name)) from None
        raise
    except InputError as exc:  # no record, or one that cannot be replayed: as the list says
        try:
            listed = saved_game(path)  # (not the terminal's advice on --record)
        except OSError:
            raise exc from None
        if listed.why is None:
            raise
        raise InputError(listed.said()) from None


def parse_start(spec: dict) -> tuple[Start, Scheme]:
    """The start and scoring of the page's start form (InputError when malformed)."""
    if not isinstance(spec, dict):
        raise InputError(_("expected a JSON object"))
    text = spec.get("start")
    if not isinstance(text, str) or not text.strip():
        raise InputError(_("start: the cards seen, a game code or a layout"))
    text = " ".join(text.replace(",", " ").split())
    scoring = spec.get("scoring", "app")
    if not isinstance(scoring, str) or scoring not in SCHEMES:
        raise InputError(f"scoring: one of {', '.join(SCHEMES)}")
    scheme = Scheme(scoring)
    variants = spec.get("variants", [])
    if not isinstance(variants, list) or any(not isinstance(v, str) or v not in VARIANT_OPTIONS
                                             for v in variants):
        raise InputError(f"variants: a list of {', '.join(VARIANT_OPTIONS)}")
    name = spec.get("rules", "easy")
    if not isinstance(name, str):
        raise InputError("rules: easy or classic")
    rules = Rules.named(name).with_options(**{VARIANT_OPTIONS[v]: True for v in variants})
    words = text.split()
    if is_pysol(text):  # PySolFC's game, under the form's rules (Easy is PySolFC's)
        return make_start("code", str(PysolGame.parse(text)), rules), scheme
    if len(words) == 1 and "-" in text:
        code = GameCode.parse(text)
        # The code names its rules; the form's variants apply to it.
        rules = rules.with_options(wrap=code.rules == "easy", joker=code.joker or rules.joker)
        return make_start("code", text, rules), scheme
    if len(words) == 52 or "??" in words:
        return Start.of_layout(Layout.parse(text), rules), scheme
    return Start.of_seen(text, rules, option=False), scheme  # the page has no --seen


__all__ = ["Held", "Hub", "NotFound", "parse_start"]
