"""The one place that locks files, whatever the system: ``flock`` where the system has
it (Linux, macOS, the BSDs), ``msvcrt.locking`` on Windows. Both are advisory for the
writers here, taken without waiting, and go when the descriptor is closed.

Every function raises :class:`BlockingIOError` when another holder has the lock, and
:class:`OSError` for anything else (``ENOLCK`` on a system with neither call: every
module imports there all the same). On Windows there is no shared lock: a shared lock
is an exclusive one there (its callers only look for a moment whether a file is held).
The lock there covers one byte far past any content, so that it never stops another
process reading the file (Windows' locks are mandatory for the bytes they cover).
"""

from __future__ import annotations

import errno
import os
from types import ModuleType

_FAR = 1 << 40  # the byte Windows' lock covers: past the end of any file written here


def _native() -> tuple[str, ModuleType | None]:
    """The locking module of this system: ``fcntl`` where there is one, else ``msvcrt``;
    ("none", None) where neither is (every module still imports; a lock fails)."""
    try:
        import fcntl

        return "flock", fcntl
    except ImportError:
        pass
    try:
        import msvcrt
    except ImportError:
        return "none", None
    return "msvcrt", msvcrt


KIND, _SYSTEM = _native()


def _system() -> ModuleType:
    if _SYSTEM is None:
        raise OSError(errno.ENOLCK, "this system can lock files neither with fcntl nor "
                      "with msvcrt")
    return _SYSTEM


def _msvcrt(fd: int, mode: int) -> None:
    # msvcrt.locking locks from the descriptor's position: moved there and back.
    at = os.lseek(fd, 0, os.SEEK_CUR)
    os.lseek(fd, _FAR, os.SEEK_SET)
    try:
        _system().locking(fd, mode, 1)
    except OSError as exc:
        # Held by another: EACCES (or EDEADLOCK, the CRT's "gave up") on Windows.
        if exc.errno in (errno.EACCES, getattr(errno, "EDEADLOCK", errno.EDEADLK)) \
                and mode != _system().LK_UNLCK:
            raise BlockingIOError(errno.EAGAIN, "the file is locked by another") from None
        raise
    finally:
        os.lseek(fd, at, os.SEEK_SET)


def lock_exclusive(fd: int) -> None:
    """Take the exclusive lock of ``fd`` at once (:class:`BlockingIOError` if held)."""
    system = _system()
    if KIND == "flock":
        system.flock(fd, system.LOCK_EX | system.LOCK_NB)
    else:
        _msvcrt(fd, system.LK_NBLCK)


def lock_shared(fd: int) -> None:
    """Take a shared lock of ``fd`` at once (:class:`BlockingIOError` if someone holds
    the exclusive one); exclusive where the system has no shared lock (Windows)."""
    system = _system()
    if KIND == "flock":
        system.flock(fd, system.LOCK_SH | system.LOCK_NB)
    else:
        _msvcrt(fd, system.LK_NBRLCK)


def unlock(fd: int) -> None:
    """Let the lock of ``fd`` go (closing the descriptor does too)."""
    system = _system()
    if KIND == "flock":
        system.flock(fd, system.LOCK_UN)
    else:
        _msvcrt(fd, system.LK_UNLCK)


__all__ = ["KIND", "lock_exclusive", "lock_shared", "unlock"]
