"""The file calls that differ by system, besides the locks (locking.py): open flags a
system may lack, a file's mode set without ``fchmod``, and where Windows refuses what
POSIX allows: renaming over (or removing) a file that is still open, opening a folder.

On Linux and macOS every function here does exactly the POSIX call it stands for.
"""

from __future__ import annotations

import os
from pathlib import Path


def flags(*names: str) -> int:
    """The ``os.O_*`` flags named, OR-ed; a flag this system lacks counts 0 (Windows has
    neither ``O_CLOEXEC`` nor ``O_NONBLOCK``; only Windows has ``O_BINARY``)."""
    out = 0
    for name in names:
        out |= getattr(os, name, 0)
    return out


def read_flags() -> int:
    """Flags to open a file to read: without waiting for a pipe's writer (POSIX), not
    inherited, bytes as they are (Windows opens in text mode without ``O_BINARY``)."""
    return os.O_RDONLY | flags("O_NONBLOCK", "O_CLOEXEC", "O_BINARY")


def write_flags() -> int:
    """Flags to open a file to read and write: not inherited, bytes as they are."""
    return os.O_RDWR | flags("O_CLOEXEC", "O_BINARY")


def set_mode(fd: int, path: str | Path, mode: int) -> None:
    """Set the mode of the file open as ``fd`` at ``path``: ``fchmod`` where there is one,
    else by its path (Windows before Python 3.13)."""
    if hasattr(os, "fchmod"):
        os.fchmod(fd, mode)
    else:
        os.chmod(path, mode)


def read_at(fd: int, size: int, offset: int) -> bytes:
    """Up to ``size`` bytes from ``offset`` of ``fd``, its position left where it was:
    ``pread`` where there is one, else moved there and back (Windows)."""
    if hasattr(os, "pread"):
        return os.pread(fd, size, offset)
    at = os.lseek(fd, 0, os.SEEK_CUR)
    os.lseek(fd, offset, os.SEEK_SET)
    try:
        parts, left = [], size
        while left > 0:
            part = os.read(fd, left)
            if not part:
                break
            parts.append(part)
            left -= len(part)
        return b"".join(parts)
    finally:
        os.lseek(fd, at, os.SEEK_SET)


def windows() -> bool:
    """Is this Windows (``os.name`` "nt")?"""
    return os.name == "nt"


def open_files_block_renames() -> bool:
    """Does the system refuse to rename over, or remove, a file that is open (Windows)?
    Then a file held open is closed first and opened again after."""
    return windows()


def sync_folder(folder: Path) -> None:
    """Put a rename in ``folder`` on the disk, where a folder can be synced (not on
    Windows, where a folder cannot be opened as a file; its file system journals renames)."""
    if windows():
        return
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


__all__ = ["flags", "open_files_block_renames", "read_at", "read_flags", "set_mode", "sync_folder",
           "windows", "write_flags"]
