"""Files a batch reads and writes, safely: regular files only, lines of bounded length,
outputs created atomically and locked for the whole run.

Two runs must never write one file: every output is opened (or created with
``O_EXCL``, so no check-then-create race) and locked with ``flock`` before anything
is read from it or written to it, and the lock is held until the run ends. A second
run finds the lock taken and stops before touching the file.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import IO, BinaryIO

from ..games.files import LockedFile, file_kind, write_all
from ..games.portable import read_flags
from .errors import BatchError

MAX_LINE = 4096
"""Bytes in a line of a file read (a batch row or a layout takes a few hundred)."""


def open_regular(path: Path, what: str, role: str) -> BinaryIO:
    """``path`` opened for binary reading, refused (one line) unless a regular file.

    Opened without blocking, so that a named pipe with no writer is refused rather
    than waited for.
    """
    try:
        fd = os.open(path, read_flags())
    except OSError as exc:
        raise BatchError(f"cannot read {what} {path}: {exc.strerror or exc}", "file", role) from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise BatchError(f"cannot read {what} {path}: it is {file_kind(mode)}, not a regular file",
                         "special", role)
    return os.fdopen(fd, "rb")


def bounded_lines(f: IO[bytes], name: str, role: str) -> Iterator[tuple[int, bytes]]:
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


def open_output(path: Path, what: str, role: str, replace: bool) -> LockedFile:
    """``path`` locked for this run's output. An existing file with something in it is
    refused unless ``replace``: an empty one (left by a run killed before it wrote)
    holds nothing to lose."""
    f = LockedFile(path, what, role)
    if not f.created and f.size and not replace:
        f.close()
        raise BatchError(f"{path} already exists", "exists", role)
    return f


__all__ = ["MAX_LINE", "LockedFile", "bounded_lines", "file_kind", "open_output", "open_regular",
           "write_all"]
