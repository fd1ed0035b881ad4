"""The record file of a game played along (``coach``): where records go by default,
and the file itself, locked while a session writes it, grown one synced line a move.
"""

from __future__ import annotations

import datetime
import fcntl
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from ..model.observed import Start
from .files import FileError, LockedFile, write_all

APP = "tripeaks-solver"
BOM = "\ufeff"


def data_dir() -> Path:
    """Where the coach keeps its records by default: ``$XDG_DATA_HOME/tripeaks-solver``
    (``~/.local/share/tripeaks-solver``), or the platform's application directory
    (``%APPDATA%`` on Windows, ``~/Library/Application Support`` on macOS)."""
    base = os.environ.get("XDG_DATA_HOME")
    if base:
        return Path(base) / APP
    if sys.platform == "win32":
        root = os.environ.get("APPDATA") or os.environ.get("LOCALAPPDATA")
        return Path(root) / APP if root else Path.home() / "AppData" / "Roaming" / APP
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / APP
    return Path.home() / ".local" / "share" / APP


def games_dir() -> Path:
    """The folder of the records named by default."""
    return data_dir() / "games"


def default_record(start: Start, folder: Path | None = None) -> Path:
    """A new file for the record of ``start`` in ``folder`` (:func:`games_dir`), named
    after it and the time it began."""
    if start.kind == "code":
        name = start.text
    elif start.kind == "seen":
        name = "seen-" + "".join(start.text.split())
    else:
        name = "layout-" + "".join(t for t in start.text.split() if t != "??")[:24]
    name = re.sub(r"[^A-Za-z0-9-]", "", name)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    folder = games_dir() if folder is None else folder
    path = folder / f"{name}-{stamp}.txt"
    n = 2
    while path.exists():
        path = folder / f"{name}-{stamp}-{n}.txt"
        n += 1
    return path


class RecordFile:
    """A session's record file, locked while the session runs; every move is appended
    and synced to the disk before the next is taken, so a crash loses none, and a write
    that fails leaves the file as it was before it."""

    def __init__(self, path: Path, make_folder: bool = False) -> None:
        self.path = Path(path)
        self.make_folder = make_folder  # the default folder is made; one typed must exist
        self.file: LockedFile | None = None
        self.skip = 0  # bytes of a byte-order mark the file begins with
        self.text = ""  # what the file held when it was opened
        self.tail: tuple[str, str | None] | None = None  # a last line to end first

    @property
    def is_open(self) -> bool:
        return self.file is not None

    @property
    def size(self) -> int:
        assert self.file is not None
        return self.file.size

    def open(self) -> str:
        """Lock the file (made if missing) and return what it holds (a byte-order mark
        left out)."""
        if self.make_folder:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise InputError(f"cannot make {self.path.parent} for the record: "
                                 f"{exc.strerror or exc} (give --record FILE)") from None
        try:
            self.file = LockedFile(self.path, "the record", "record")
        except FileError as exc:
            raise InputError(str(exc).replace("another run", "another session")) from None
        size = self.file.size
        data = os.pread(self.file.fd, size, 0) if size else b""
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            self.close()
            raise InputError(f"{self.path} is not a game record (not UTF-8 text): "
                             "give another --record file") from None
        if text.startswith(BOM):
            self.skip = len(BOM.encode("utf-8"))
            text = text[len(BOM):]
        self.text = text
        return text

    def write(self, text: str) -> None:
        """Append ``text`` and sync it; when that fails, cut the file back to where it
        ended and raise an InputError."""
        if self.tail is not None:
            self._mend()
        self._append(text)

    def _append(self, text: str) -> None:
        assert self.file is not None
        fd = self.file.fd
        before = os.lseek(fd, 0, os.SEEK_END)
        try:
            write_all(fd, text.encode("utf-8"))
            os.fsync(fd)
        except OSError as exc:
            try:
                os.ftruncate(fd, before)
            except OSError:
                pass
            raise InputError(f"cannot write the record {self.path}: "
                             f"{exc.strerror or exc}") from None

    def replace(self, text: str) -> None:
        """Replace the whole record in one step, keeping the lock: the new text goes to a
        file beside it, synced and locked, then renamed over it (a reader sees the old
        record or the new one, never a part)."""
        assert self.file is not None
        target = Path(os.path.realpath(self.path))
        tmp = target.parent / f".{target.name}.{os.getpid()}.tmp"
        fd = -1
        try:
            fd = os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
            os.fchmod(fd, os.fstat(self.file.fd).st_mode & 0o7777)
            write_all(fd, text.encode("utf-8"))
            os.fsync(fd)
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # new: nobody else holds it
            os.replace(tmp, target)
            _sync_folder(target.parent)
        except OSError as exc:
            if fd >= 0:
                os.close(fd)
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
            raise InputError(f"cannot write the record {self.path}: "
                             f"{exc.strerror or exc} (the record is as it was)") from None
        old, self.file.fd = self.file.fd, fd
        self.file.created = False
        self.skip, self.tail, self.text = 0, None, text
        os.close(old)  # its lock goes; a session that took the old file finds it gone

    def end_torn_tail(self, text: str, torn: str | None) -> None:
        """Before the next write, end the last line of ``text`` (what the file holds)
        with its line end; one cut short that was not read as a move (``torn``) is kept
        as a comment, so that what the file held stays in it. (Opening a record and
        leaving it changes nothing.)"""
        self.tail = None if not text or text.endswith("\n") else (text, torn)

    def _mend(self) -> None:
        assert self.file is not None and self.tail is not None
        text, torn = self.tail
        if torn is None:
            self._append("\n")
        else:
            body = text.rpartition("\n")[0]
            os.ftruncate(self.file.fd, self.skip + len((body + "\n").encode("utf-8")))
            self._append(f"# cut short, left out: {torn}\n")
        self.tail = None

    def close(self) -> None:
        """Release the lock; a file this session made and never wrote goes."""
        if self.file is not None:
            self.file.close(discard=True)
            self.file = None


def _sync_folder(folder: Path) -> None:
    # The rename itself on the disk (where a folder can be synced).
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@dataclass(frozen=True)
class SavedGame:
    """A record file in the folder of saved games, as a list shows it."""

    path: Path
    modified: datetime.datetime  # when it was last written
    start: str  # as the record names it: ``seen Jd 4s …``, ``code TP1-E-AAAAAAD``
    rules: str  # ``Easy``, ``Classic+empty-waste``
    scoring: str
    moves: int | None  # as the app counts them (None: the record cannot be read)
    result: str  # ``won``, ``stuck``, ``in play``, or why the record cannot be read
    score: int | None

    def text(self, score_label: str = "score") -> str:
        """Two lines: when, the start, rules, moves and result; the file."""
        moves = "" if self.moves is None else f", {self.moves:,} move{'s' * (self.moves != 1)}"
        score = "" if self.score is None else f", {score_label} {self.score}"
        return (f"  {self.modified:%Y-%m-%d %H:%M}  {self.start}  ({self.rules}, "
                f"{self.scoring}{moves}): {self.result}{score}\n      {self.path}")

    def data(self) -> dict:
        """The game as JSON data."""
        return {"file": str(self.path), "modified": self.modified.isoformat(timespec="seconds"),
                "start": self.start, "rules": self.rules, "scoring": self.scoring,
                "moves": self.moves, "result": self.result, "score": self.score}


def saved_games(folder: Path | None = None) -> list[SavedGame]:
    """The records in ``folder`` (:func:`games_dir`), newest first; one that cannot be
    read is listed with why."""
    from .records import parse_record_file, replay_record
    from .turns import score_of

    folder = games_dir() if folder is None else folder
    try:
        paths = [p for p in folder.iterdir() if p.suffix == ".txt" and p.is_file()]
    except OSError:
        return []
    out = []
    for path in paths:
        try:
            stat = path.stat()
            text = path.read_text(encoding="utf-8").removeprefix(BOM)
            record = parse_record_file(text, path.name)
            game = replay_record(record.start, record.moves)
        except (OSError, UnicodeDecodeError, InputError) as exc:
            why = exc.strerror if isinstance(exc, OSError) else str(exc)
            out.append(SavedGame(path, _when(path), "?", "?", "?", None,
                                 f"unreadable: {why}", None))
            continue
        status = game.game.status.value
        start = record.start
        out.append(SavedGame(path, datetime.datetime.fromtimestamp(stat.st_mtime),
                             f"{start.kind} {start.text}", str(start.rules), record.scoring,
                             game.game.moves, status,
                             score_of(game.position(), record.scoring)))
    return sorted(out, key=lambda g: (g.modified, str(g.path)), reverse=True)


def _when(path: Path) -> datetime.datetime:
    try:
        return datetime.datetime.fromtimestamp(path.stat().st_mtime)
    except OSError:
        return datetime.datetime.fromtimestamp(0)


__all__ = ["RecordFile", "SavedGame", "data_dir", "default_record", "games_dir",
           "saved_games"]
