"""Run as on a system without ``fcntl`` (Windows): loaded at every interpreter's start
when ``TRIPEAKS_NO_FCNTL=1`` (by the ``.pth`` file that .ci/run writes into its virtual
environment, so the commands the tests start are covered too).

``import fcntl`` then fails for everyone, and a stand-in of Windows' ``msvcrt.locking``
takes its place: the package's locking seam (games/locking.py) takes the Windows path,
moving to the far byte it locks and back. The stand-in keeps Windows' contract (a lock
held by another: EACCES; one byte range a descriptor locks and unlocks) over the real
``flock`` it captured before ``fcntl`` was hidden, one lock a descriptor, as a Windows
handle has. (The standard library's subprocess, which reads the presence of ``msvcrt``
as Windows, is imported before the stand-in is there.)
"""

from __future__ import annotations

import errno
import sys
import types


def install() -> None:
    import fcntl as real  # captured here; nobody else can import it after this
    import subprocess  # noqa: F401  (it takes a module named msvcrt for Windows: first)

    held: dict[int, int] = {}  # descriptor -> the offset it locked

    def locking(fd: int, mode: int, nbytes: int) -> None:
        import os

        at = os.lseek(fd, 0, os.SEEK_CUR)
        if nbytes < 1:
            raise OSError(errno.EINVAL, "Invalid argument")
        if mode == msvcrt.LK_UNLCK:
            if held.get(fd) != at:
                raise PermissionError(errno.EACCES, "Permission denied")  # not locked
            del held[fd]
            real.flock(fd, real.LOCK_UN)
            return
        if mode not in (msvcrt.LK_NBLCK, msvcrt.LK_NBRLCK):
            raise OSError(errno.EINVAL, "only the non-blocking modes are stood in for")
        try:
            real.flock(fd, real.LOCK_EX | real.LOCK_NB)
        except BlockingIOError:
            raise PermissionError(errno.EACCES, "Permission denied") from None
        held[fd] = at

    msvcrt = types.ModuleType("msvcrt", "A stand-in of Windows' msvcrt.locking (tests).")
    msvcrt.LK_UNLCK, msvcrt.LK_LOCK, msvcrt.LK_NBLCK, msvcrt.LK_RLCK, msvcrt.LK_NBRLCK = \
        range(5)
    msvcrt.locking = locking  # type: ignore[attr-defined]
    sys.modules["msvcrt"] = msvcrt
    sys.modules["fcntl"] = None  # type: ignore[assignment]  # import fcntl: ImportError


if "fcntl" not in sys.modules or sys.modules["fcntl"] is not None:
    install()
