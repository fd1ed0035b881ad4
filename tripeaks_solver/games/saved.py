"""The saved games: the record files of a folder (:func:`record_file.games_dir` by
default) as a list shows them (``coach --list``, the page's list of games), each read
and replayed again only when the file changed.
"""

from __future__ import annotations

import datetime
import errno
import os
import stat
import threading
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from ..model.i18n import _, current, ngettext
from ..model.rules import Rules
from ..model.scoring import Scheme
from .record_file import BOM, games_dir


@dataclass(frozen=True)
class SavedGame:
    """A record file in the folder of saved games, as a list shows it."""

    path: Path
    modified: datetime.datetime  # when it was last written
    start: str  # as the record names it: ``seen Jd 4s …``, ``code TP1-E-AAAAAAD``
    rules: str  # ``Easy``, ``Classic+empty-waste``
    scoring: str  # ``app``, ``pysol``…, as the record names it (``?``: unreadable)
    moves: int | None  # as the app counts them (None: the record cannot be read)
    result: str  # ``won``, ``stuck``, ``in play``, or ``unreadable: `` and why
    score: int | None
    game_rules: Rules | None = None  # the rules themselves (None: unreadable)
    why: str | None = None  # why the record cannot be read, in the words of its reading

    def said(self) -> str:
        """The result for people: ``in play``, ``won``, ``stuck`` or ``unreadable: …``,
        in the current language."""
        if self.why is not None:
            return _("unreadable: {why}", why=self.why)
        return {"won": _("won"), "stuck": _("stuck")}.get(self.result, _("in play"))

    def text(self) -> str:
        """Two lines, in the current language: when, the start, rules, scoring, moves,
        result and score; the file."""
        from .turns import rules_name, score_label, scoring_name, start_words

        when = f"{self.modified:%Y-%m-%d %H:%M}"
        if self.moves is None or self.game_rules is None:  # unreadable
            return f"  {when}  {self.said()}\n      {self.path}"
        first = _("{when}  {start}  ({rules}, {scoring}, {moves}): {result}, {label} {score}",
                  when=when, start=start_words(self.start), rules=rules_name(self.game_rules),
                  scoring=scoring_name(Scheme(self.scoring)), result=self.said(),
                  moves=ngettext("{n} move", "{n} moves", self.moves),
                  label=score_label(Scheme(self.scoring)), score=self.score)
        return f"  {first}\n      {self.path}"

    def data(self) -> dict:
        """The game as JSON data."""
        return {"file": str(self.path), "modified": self.modified.isoformat(timespec="seconds"),
                "start": self.start, "rules": self.rules, "scoring": self.scoring,
                "moves": self.moves, "result": self.result, "score": self.score}


# Errors of the machine, not of a file: a list that met one fails rather than call the
# file unreadable.
SYSTEM_ERRNOS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.ENOBUFS})


class RecordIndex:
    """The records of a folder as a list shows them, each read (and its game replayed)
    again only when its name, size, time or inode changed: a list over hundreds of
    unchanged records costs a look at each file, not a replay (in each language: why a
    record cannot be read is said in the language it was read in). Safe to share
    between threads."""

    def __init__(self, folder: Path | None = None, follow_links: bool = True) -> None:
        """``follow_links``: read a record a symbolic link names; when False, such a
        link is listed unreadable, with where it leads, and never read (the server's
        list: it opens no link)."""
        self.folder = games_dir() if folder is None else Path(folder)
        self.follow_links = follow_links
        self.lock = threading.Lock()
        self.known: dict[str, tuple[tuple[int, int, int, int, str], SavedGame]] = {}

    def scan(self) -> list[tuple[SavedGame, os.stat_result]]:
        """Every record (a ``.txt`` regular file) with the file's status now, newest
        first. OSError when the folder cannot be read, or when the machine refuses to
        read a file (too many open files); a missing folder has none."""
        with self.lock:
            try:
                with os.scandir(self.folder) as it:
                    entries = [e for e in it if Path(e.name).suffix == ".txt"]
            except FileNotFoundError:
                self.known = {}
                return []
            known, out = {}, []
            for entry in entries:
                path = self.folder / entry.name
                link = not self.follow_links and entry.is_symlink()
                try:
                    st = os.stat(path)
                    if link:
                        st = os.lstat(path)
                except OSError as exc:
                    if exc.errno in SYSTEM_ERRNOS:
                        raise
                    continue  # gone meanwhile, or a link to nothing
                if not stat.S_ISREG(st.st_mode) and not link:
                    continue
                key = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, current())
                cached = self.known.get(entry.name)
                game = cached[1] if cached is not None and cached[0] == key else \
                    _linked_game(path, st, self.folder) if link else _saved_game(path, st)
                known[entry.name] = (key, game)
                out.append((game, st))
            self.known = known
        return sorted(out, key=lambda g: (g[0].modified, str(g[0].path)), reverse=True)

    def games(self) -> list[SavedGame]:
        """The records, newest first (see :meth:`scan`)."""
        return [game for game, _st in self.scan()]


def saved_games(folder: Path | None = None) -> list[SavedGame]:
    """The records in ``folder`` (:func:`games_dir`), newest first; one that cannot be
    read is listed with why."""
    try:
        return RecordIndex(folder).games()
    except OSError:
        return []


def saved_game(path: Path) -> SavedGame:
    """The record file ``path`` as a list shows it (read as it is, without its lock):
    its ``why`` says, in the current language, why it cannot be read."""
    return _saved_game(path, path.stat())


def link_why(path: Path, folder: Path) -> str:
    """Why the symbolic link ``path`` of ``folder`` is not read as a record: where it
    leads, in the current language."""
    target = Path(os.path.realpath(path))
    if target.parent != Path(os.path.realpath(folder)):
        return _("a symbolic link out of the folder: not read")
    return _("a symbolic link to {name}: open that record", name=target.name)


def _linked_game(path: Path, st: os.stat_result, folder: Path) -> SavedGame:
    why = link_why(path, folder)
    when = datetime.datetime.fromtimestamp(st.st_mtime)
    return SavedGame(path, when, "?", "?", "?", None, f"unreadable: {why}", None, why=why)


def _saved_game(path: Path, st: os.stat_result) -> SavedGame:
    """The record file ``path`` as a list shows it (read as it is, without its lock)."""
    from .records import MAX_RECORD, parse_record_file, replay_record, too_large
    from .turns import score_of

    when = datetime.datetime.fromtimestamp(st.st_mtime)
    try:
        if st.st_size > MAX_RECORD:  # not read at all
            raise InputError(too_large(path.name))
        with open(path, "rb") as f:  # as a record is opened: no line end but LF read as one
            data = f.read(MAX_RECORD + 1)  # grown since it was looked at: still bounded
        if len(data) > MAX_RECORD:
            raise InputError(too_large(path.name))
        text = data.decode("utf-8").removeprefix(BOM)
        record = parse_record_file(text, path.name)
        game = replay_record(record.start, record.moves)
    except (OSError, UnicodeDecodeError, InputError) as exc:
        if isinstance(exc, OSError) and exc.errno in SYSTEM_ERRNOS:
            raise
        why = (exc.strerror or str(exc)) if isinstance(exc, OSError) else \
            _("not a game record (not UTF-8 text)") if isinstance(exc, UnicodeDecodeError) \
            else str(exc)
        return SavedGame(path, when, "?", "?", "?", None, f"unreadable: {why}", None, why=why)
    start = record.start
    return SavedGame(path, when, f"{start.kind} {start.text}", str(start.rules),
                     str(record.scoring), game.game.moves, game.game.status.value,
                     score_of(game.position(), record.scoring), game_rules=start.rules)


__all__ = ["RecordIndex", "SavedGame", "link_why", "saved_game", "saved_games"]
