"""The record file of a game played along (``coach``): where records go by default,
and the file itself, locked while a session writes it, grown one synced line a move.
"""

from __future__ import annotations

import datetime
import errno
import os
import re
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from ..errors import InputError
from ..model.i18n import N_, _
from ..model.observed import Start
from .files import FileError, LockedFile, write_all
from .locking import lock_exclusive

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
    after it and the time it began (a name no file has now: :meth:`RecordFile.new_in`
    takes one that no other session can take meanwhile)."""
    for n, path in enumerate(_names(start, folder)):
        if n >= 10_000 or not path.exists():
            return path
    raise AssertionError("unreachable")


def _names(start: Start, folder: Path | None) -> Iterator[Path]:
    # The names a record of ``start`` begun now may take, in order: NAME-STAMP.txt,
    # NAME-STAMP-2.txt, …
    if start.kind == "code":
        name = start.text
    elif start.kind == "seen":
        name = "seen-" + "".join(start.text.split())
    else:
        name = "layout-" + "".join(t for t in start.text.split() if t != "??")[:24]
    name = re.sub(r"[^A-Za-z0-9-]", "", name)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    folder = games_dir() if folder is None else folder
    yield folder / f"{name}-{stamp}.txt"
    n = 2
    while True:
        yield folder / f"{name}-{stamp}-{n}.txt"
        n += 1


# Why a record is no longer the file a session left: RecordFile.changed's words.
CHANGES = {"replaced": N_("{path} was replaced outside this session"),
           "removed": N_("{path} was removed or moved outside this session"),
           "written": N_("{path} was written outside this session"),
           "linked": N_("{path} was given another hard link outside this session")}


class RecordChanged(FileError):
    """The record's path no longer names the file the session holds as it wrote it
    (``why``, a key of CHANGES): nothing was written."""

    def __init__(self, path: Path, why: str) -> None:
        super().__init__(_("{change}: the move was not written; start again with --record "
                           "{path} to go on from what it holds",
                           change=_(CHANGES[why], path=path), path=path), "changed", "record")
        self.why = why


class RecordFile:
    """A session's record file, locked while the session runs; every move is appended
    and synced to the disk before the next is taken, so a crash loses none, and a write
    that fails leaves the file as it was before it.

    Before every write the path must still name the file held, as this session left it
    (its device, inode, size, modification and change times): a file replaced by a
    rename (``sed -i``, an editor), moved, removed, or written by another program is
    never written to (:class:`RecordChanged`). ``single_link``: a file with another hard link (a name
    that may lie outside the folder) is refused, and never written."""

    def __init__(self, path: Path, make_folder: bool = False, single_link: bool = False,
                 new: bool = False, refused: FileError | None = None) -> None:
        """``refused``: the file is opened to be read only (a read-only disk), every
        write raising this error (why it could not be opened to be written)."""
        self.path = Path(path)
        self.refused = refused
        self.make_folder = make_folder  # the default folder is made; one typed must exist
        self.single_link = single_link
        self.new = new  # only a file made now (FileError "exists" otherwise)
        self.file: LockedFile | None = None
        self.skip = 0  # bytes of a byte-order mark the file begins with
        self.text = ""  # what the file held when it was opened
        self.tail: tuple[str, str | None] | None = None  # a last line to end first
        self.left: tuple[int, ...] = (0, 0, 0, 0, 0)  # the file as last written
        self.newline = "\n"  # the file's line end: CRLF in one a Windows editor saved

    @classmethod
    def new_in(cls, start: Start, folder: Path | None = None,
               single_link: bool = False) -> RecordFile:
        """A new record of ``start`` in ``folder`` (:func:`games_dir`, made if missing),
        opened: the first of its names (:func:`default_record`) that no file has, made
        so that two sessions starting the same game at once take two names."""
        for n, path in enumerate(_names(start, folder)):
            record = cls(path, make_folder=n == 0, single_link=single_link, new=True)
            try:
                record.open()
            except FileError as exc:
                if exc.problem != "exists" or n >= 1000:
                    raise
                continue
            return record
        raise AssertionError("unreachable")

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
                raise FileError(_("cannot make {folder} for the record: {why} (give --record "
                                  "FILE)", folder=self.path.parent, why=exc.strerror or exc),
                                "file", "record", errno=exc.errno) from None
        self.file = LockedFile(self.path, _("the record"), "record", new=self.new,
                               read_only=self.refused is not None)
        if self.single_link and self.file.identity().st_nlink > 1:
            self.close()
            raise FileError(_("{path} has another hard link (another name, maybe outside its "
                              "folder): copy it to a file of its own", path=self.path),
                            "links", "record")
        self._mark()
        size = self.file.size
        from .records import MAX_RECORD, too_large

        if size > MAX_RECORD:  # never read into memory whole
            self.close()
            raise InputError(too_large(str(self.path)))
        try:
            data = os.pread(self.file.fd, size, 0) if size else b""
        except OSError as exc:
            self.close()
            raise FileError(_("cannot read the record {path}: {why}", path=self.path,
                              why=exc.strerror or exc), "file", "record",
                            errno=exc.errno) from None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            self.close()
            raise InputError(_("{path} is not a game record (not UTF-8 text): give another "
                               "--record file", path=self.path)) from None
        if text.startswith(BOM):
            self.skip = len(BOM.encode("utf-8"))
            text = text[len(BOM):]
        self.text = text
        self.newline = "\r\n" if text.split("\n", 1)[0].endswith("\r") else "\n"
        return text

    def _mark(self) -> None:
        # The file as this session leaves it: what the next write checks.
        assert self.file is not None
        st = self.file.identity()
        self.left = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)

    def changed(self) -> str | None:
        """Why the path no longer names the file held as this session left it
        (``replaced``, ``removed``: or moved, ``written``, ``linked``: given another hard
        link), or None while it does."""
        assert self.file is not None
        try:
            here = os.stat(self.path)
        except FileNotFoundError:
            return "removed"
        except OSError as exc:
            if exc.errno in (errno.ENOENT, errno.ENOTDIR):
                return "removed"
            raise FileError(_("cannot look at the record {path}: {why}", path=self.path,
                              why=exc.strerror or exc), "file", "record",
                            errno=exc.errno) from None
        dev, ino, size, mtime, ctime = self.left
        if (here.st_dev, here.st_ino) != (dev, ino):
            return "replaced"
        if (here.st_size, here.st_mtime_ns) != (size, mtime):
            return "written"
        if self.single_link and here.st_nlink > 1:
            return "linked"
        if here.st_ctime_ns != ctime:  # written with its time put back (touch -d)
            return "written"
        return None

    def check(self) -> None:
        """Raise :class:`RecordChanged` when the path no longer names the file held as
        this session left it."""
        why = self.changed()
        if why is not None:
            raise RecordChanged(self.path, why)

    def write(self, text: str) -> None:
        """Append ``text`` and sync it, once :meth:`check` has passed; when the write
        fails, cut the file back to where it ended and raise a FileError."""
        if self.refused is not None:
            raise self.refused
        self.check()
        if self.tail is not None:
            self._mend()
        self._append(text)

    def _append(self, text: str) -> None:
        assert self.file is not None
        fd = self.file.fd
        text = text.replace("\n", self.newline)  # one kind of line end in a file
        before = os.lseek(fd, 0, os.SEEK_END)
        try:
            write_all(fd, text.encode("utf-8"))
            os.fsync(fd)
        except OSError as exc:
            try:
                os.ftruncate(fd, before)
            except OSError:
                pass
            self._mark()
            raise FileError(_("cannot write the record {path}: {why}", path=self.path,
                              why=exc.strerror or exc), "write", "record",
                            errno=exc.errno) from None
        # Written: never removed again, even found empty (another program rewriting it
        # in place, emptied before its write).
        self.file.created = False
        self._mark()

    def replace(self, text: str) -> None:
        """Replace the whole record in one step, keeping the lock: the new text goes to a
        file beside it, synced and locked, then renamed over it (a reader sees the old
        record or the new one, never a part)."""
        assert self.file is not None
        if self.refused is not None:
            raise self.refused
        self.check()
        text = text.replace("\n", self.newline)
        target = Path(os.path.realpath(self.path))
        tmp, fd = "", -1
        try:
            # A name of its own: a file a killed correction left behind is never in the way.
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.",
                                       suffix=".tmp")
            os.fchmod(fd, os.fstat(self.file.fd).st_mode & 0o7777)
            write_all(fd, text.encode("utf-8"))
            os.fsync(fd)
            lock_exclusive(fd)  # new: nobody else holds it
            os.replace(tmp, target)
            _sync_folder(target.parent)
        except OSError as exc:
            if fd >= 0:
                os.close(fd)
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
            raise FileError(_("cannot write the record {path}: {why} (the record is as it "
                              "was)", path=self.path, why=exc.strerror or exc), "write",
                            "record", errno=exc.errno) from None
        old, self.file.fd = self.file.fd, fd
        self.file.created = False
        self.skip, self.tail, self.text = 0, None, text
        self._mark()
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
            try:
                os.ftruncate(self.file.fd, self.skip + len((body + "\n").encode("utf-8")))
            except OSError as exc:
                raise FileError(_("cannot write the record {path}: {why}", path=self.path,
                                  why=exc.strerror or exc), "write", "record",
                                errno=exc.errno) from None
            self._append(f"# cut short, left out: {torn}\n")
        self.tail = None

    def close(self) -> None:
        """Release the lock; a file this session made and never wrote goes (one it
        wrote to stays, whatever it holds)."""
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


__all__ = ["RecordChanged", "RecordFile", "data_dir", "default_record", "games_dir"]
