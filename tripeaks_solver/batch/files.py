"""Files a batch reads and writes, safely: regular files only, lines of bounded length,
outputs created atomically and locked for the whole run.

Two runs must never write one file: every output is opened (or created with
``O_EXCL``, so no check-then-create race) and locked with ``flock`` before anything
is read from it or written to it, and the lock is held until the run ends. A second
run finds the lock taken and stops before touching the file.
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from .errors import BatchError

MAX_LINE = 4096
"""Bytes in a line of a file read (a batch row or a layout takes a few hundred)."""


def file_kind(mode: int) -> str:
    """What a file that is not a regular one is, for a message: ``a pipe``, …."""
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc)


def open_regular(path: Path, what: str, role: str) -> BinaryIO:
    """``path`` opened for binary reading, refused (one line) unless a regular file.

    Opened without blocking, so that a named pipe with no writer is refused rather
    than waited for.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise BatchError(f"cannot read {what} {path}: {_why(exc)}", "file", role) from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise BatchError(f"cannot read {what} {path}: it is {file_kind(mode)}, not a regular file",
                         "special", role)
    return os.fdopen(fd, "rb")


def bounded_lines(f: BinaryIO, name: str, role: str) -> Iterator[tuple[int, bytes]]:
    """(line number, line) of a binary stream, each line with its newline except maybe
    the last; a line longer than :data:`MAX_LINE` bytes is refused, never read whole."""
    number = 0
    while True:
        line = f.readline(MAX_LINE + 1)
        if not line:
            return
        number += 1
        if len(line) > MAX_LINE:
            raise BatchError(f"{name} line {number} is longer than {MAX_LINE:,} bytes: "
                             "not a file of this kind", "not-batch", role)
        yield number, line


def write_all(fd: int, data: bytes) -> None:
    """Write every byte (``os.write`` may write part of a buffer)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


class LockedFile:
    """An output file opened read-write under an exclusive lock held until :meth:`close`.

    A missing file is created atomically; ``created`` says so, and :meth:`close` with
    ``discard`` removes such a file again while it is empty (a run that wrote nothing
    leaves nothing behind).
    """

    def __init__(self, path: Path, what: str, role: str) -> None:
        self.path = path
        self.what = what
        self.role = role
        self.locked = False
        self.fd, self.created = self._open()
        try:
            mode = os.fstat(self.fd).st_mode
            if not stat.S_ISREG(mode):
                raise BatchError(f"cannot write {what} {path}: it is {file_kind(mode)}, not a "
                                 "regular file", "special", role)
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise BatchError(f"{path} is in use by another run", "in-use", role) from None
            self.locked = True
            if not self._still_at_path():  # replaced between our open and our lock
                raise BatchError(f"{path} is in use by another run", "in-use", role)
        except BaseException:
            self.close(discard=True)
            raise

    def _open(self) -> tuple[int, bool]:
        path, flags = self.path, os.O_RDWR | os.O_CLOEXEC
        for _ in range(10):  # the file may come and go between the two opens
            try:
                return os.open(path, flags | os.O_CREAT | os.O_EXCL, 0o666), True
            except FileExistsError:
                pass
            except OSError as exc:
                raise self._cannot(exc) from None
            try:
                return os.open(path, flags | os.O_NONBLOCK), False
            except FileNotFoundError:
                if os.path.islink(path) and not os.path.exists(path):
                    # Not a race: a link that names no file, which O_EXCL will not create.
                    raise BatchError(f"cannot write {self.what} {path}: it is a symbolic "
                                     f"link to {os.readlink(path)}, which does not exist",
                                     "special", self.role) from None
                continue
            except OSError as exc:
                raise self._cannot(exc) from None
        raise BatchError(f"{path} is in use by another run", "in-use", self.role)

    def _cannot(self, exc: OSError) -> BatchError:
        parent = self.path.parent
        if exc.errno == errno.ENOENT and not parent.is_dir():
            why = f"directory {parent} does not exist"
        elif exc.errno == errno.EISDIR:
            why = "it is a directory"
        elif exc.errno == errno.EACCES:
            why = "permission denied"
        else:
            why = _why(exc)
        return BatchError(f"cannot write {self.what} {self.path}: {why}", "file", self.role)

    def _still_at_path(self) -> bool:
        try:
            here = os.stat(self.path)
        except OSError:
            return False
        mine = os.fstat(self.fd)
        return (here.st_dev, here.st_ino) == (mine.st_dev, mine.st_ino)

    @property
    def size(self) -> int:
        return os.fstat(self.fd).st_size

    def replace_with(self, data: bytes) -> None:
        """Replace the file's contents in one step: a temporary file beside it, renamed
        over it, so a failed write leaves the old contents (or the empty new file). A
        symbolic link stays: the file it names is the one replaced."""
        mode = stat.S_IMODE(os.fstat(self.fd).st_mode)
        target = Path(os.path.realpath(self.path))
        tmp = None
        try:
            # Inside the try: the directory may refuse a new file where the file itself
            # is writable.
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.",
                                       suffix=".tmp")
            try:
                os.fchmod(fd, mode)
                write_all(fd, data)
            finally:
                os.close(fd)
            os.replace(tmp, target)
        except OSError as exc:
            if tmp is not None:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
            raise BatchError(f"cannot write {self.what} {self.path}: {_why(exc)}", "write",
                             self.role) from None
        self.created = False  # the new contents are there to stay

    def close(self, discard: bool = False) -> None:
        """Release the lock; with ``discard``, remove the file if this run created it
        and it is still empty. (Only under the lock: another run may have taken over an
        empty file we created before we could lock it.)"""
        if self.fd < 0:
            return
        try:
            if discard and self.locked and self.created and self.size == 0 and \
                    self._still_at_path():
                os.unlink(self.path)
        except OSError:
            pass
        finally:
            os.close(self.fd)
            self.fd = -1


def open_output(path: Path, what: str, role: str, replace: bool) -> LockedFile:
    """``path`` locked for this run's output. An existing file with something in it is
    refused unless ``replace``: an empty one (left by a run killed before it wrote)
    holds nothing to lose."""
    f = LockedFile(path, what, role)
    if not f.created and f.size and not replace:
        f.close()
        raise BatchError(f"{path} already exists", "exists", role)
    return f


__all__ = ["MAX_LINE", "LockedFile", "bounded_lines", "open_output", "open_regular",
           "write_all"]
