"""Files written safely: an output opened (or created with ``O_EXCL``, so no
check-then-create race) and locked with ``flock`` before anything is read from it or
written to it, the lock held until the writer closes it. A second writer finds the lock
taken and stops before touching the file. (``batch`` writes its CSV and plots with them,
``coach`` its record.)
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
import time
from pathlib import Path

from ..errors import InputError
from ..model.i18n import N_, _
from .locking import lock_exclusive, lock_shared, unlock


class FileError(InputError):
    """A file cannot be used, or a run cannot go on: one line a user can act on.

    ``problem`` names the kind, so that a front end can add advice in its own terms:
    ``exists`` (a file the run would replace), ``in-use`` (another run holds it),
    ``not-batch`` (not a batch CSV, or a row no run writes), ``mismatch`` (rows made
    with other settings; ``optimal`` then says how the file's rows were made),
    ``write`` (a write failed part way), ``file`` (a path that cannot be used),
    ``special`` (a device, pipe, socket or directory where a regular file is needed),
    ``engine`` (workers or a scheduler), ``changed`` (a file changed under the run that
    holds it), ``links`` (a file with another hard link where one is refused). ``role`` is
    ``csv``, ``plot``, ``input`` or ``record``. ``errno``: the system's error number when
    the system refused (a full disk, too many open files: the machine's problem, not the
    input's), else None.
    """

    def __init__(self, message: str, problem: str, role: str = "",
                 optimal: bool | None = None, errno: int | None = None) -> None:
        super().__init__(message)
        self.problem = problem
        self.role = role
        self.optimal = optimal
        self.errno = errno


_KINDS = ((stat.S_ISDIR, N_("a directory")), (stat.S_ISFIFO, N_("a pipe")),
          (stat.S_ISSOCK, N_("a socket")), (stat.S_ISCHR, N_("a device")),
          (stat.S_ISBLK, N_("a device")))


def file_kind(mode: int, words: bool = False) -> str:
    """What a file that is not a regular one is, for a message: ``a pipe``, …, in
    English (the commands that speak English), or with ``words`` in the current language."""
    kind = next((kind for test, kind in _KINDS if test(mode)), N_("not a regular file"))
    return _(kind) if words else kind


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc)


def os_errno(exc: BaseException | None) -> int | None:
    """The system error number behind ``exc`` (its own, or that of the error it was
    raised from), or None."""
    seen = 0
    while exc is not None and seen < 5:
        number = getattr(exc, "errno", None)
        if isinstance(number, int):
            return number
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return None


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

    def __init__(self, path: Path, what: str, role: str, new: bool = False,
                 read_only: bool = False) -> None:
        """``what``: the file in a message (``the CSV file``; in the current language where
        its messages are: ``_("the record")``). ``new``: only a file made now (FileError
        ``exists`` when there is one). ``read_only``: an existing file opened to be read
        only (on a read-only disk), locked all the same."""
        self.path = path
        self.what = what
        self.role = role
        self.locked = False
        self.fd, self.created = self._open(new, read_only)
        try:
            mode = os.fstat(self.fd).st_mode
            if not stat.S_ISREG(mode):
                # Translators: {what} is "the record", "the CSV" or "the plot", translated
                # on its own; {kind} "a directory", "a pipe", …
                raise FileError(_("cannot write {what} {path}: it is {kind}, not a regular "
                                  "file", what=what, path=path, kind=file_kind(mode, True)),
                                "special", role)
            if not _lock(self.fd):
                raise self._in_use()
            self.locked = True
            if not self._still_at_path():  # replaced between our open and our lock
                raise self._in_use()
        except BaseException:
            self.close(discard=True)
            raise

    def _open(self, new: bool, read_only: bool = False) -> tuple[int, bool]:
        path, flags = self.path, os.O_RDWR | os.O_CLOEXEC
        if read_only:
            try:
                return os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK), False
            except OSError as exc:
                raise self._cannot(exc) from None
        for _try in range(10):  # the file may come and go between the two opens
            try:
                return os.open(path, flags | os.O_CREAT | os.O_EXCL, 0o666), True
            except FileExistsError:
                if new:
                    raise FileError(_("{path} exists", path=path), "exists", self.role) from None
            except OSError as exc:
                raise self._cannot(exc) from None
            try:
                return os.open(path, flags | os.O_NONBLOCK), False
            except FileNotFoundError:
                if os.path.islink(path) and not os.path.exists(path):
                    # Not a race: a link that names no file, which O_EXCL will not create.
                    raise FileError(_("cannot write {what} {path}: it is a symbolic link to "
                                      "{target}, which does not exist", what=self.what,
                                      path=path, target=os.readlink(path)),
                                    "special", self.role) from None
                continue
            except OSError as exc:
                raise self._cannot(exc) from None
        raise self._in_use()

    def _in_use(self) -> FileError:
        if self.role == "record":  # a record is held by a coach or a server: a session
            return FileError(_("{path} is in use by another session", path=self.path),
                             "in-use", self.role)
        return FileError(_("{path} is in use by another run", path=self.path), "in-use",
                         self.role)

    def _cannot(self, exc: OSError) -> FileError:
        parent = self.path.parent
        if exc.errno == errno.ENOENT and not parent.is_dir():
            why = _("directory {folder} does not exist", folder=parent)
        elif exc.errno == errno.EISDIR:
            why = _("it is a directory")
        elif exc.errno == errno.EACCES:
            why = _("permission denied")
        else:
            why = _why(exc)  # the system's words
        # Translators: {what} is "the record", "the CSV" or "the plot", translated on its
        # own; {why} the system's words, or one of the reasons above.
        return FileError(_("cannot write {what} {path}: {why}", what=self.what, path=self.path,
                           why=why), "file", self.role, errno=exc.errno)

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

    def identity(self) -> os.stat_result:
        """The file held, as the system sees it now (its device, inode, size, time)."""
        return os.fstat(self.fd)

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
            raise FileError(_("cannot write {what} {path}: {why}", what=self.what,
                              path=self.path, why=_why(exc)), "write", self.role,
                            errno=exc.errno) from None
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


def _lock(fd: int, tries: int = 4) -> bool:
    """Take the exclusive lock of ``fd``; False when another holds it. Tried again a few
    times over some milliseconds: a reader that looks at whether a file is held (a
    server listing records where ``/proc/locks`` is missing) holds a lock that briefly."""
    for attempt in range(tries):
        try:
            lock_exclusive(fd)
            return True
        except BlockingIOError:
            if attempt + 1 < tries:
                time.sleep(0.005 * (attempt + 1))
    return False


def held_files() -> set[tuple[int, int]] | None:
    """The files (device, inode) another process holds a ``flock`` on, as the system
    lists them (``/proc/locks``); None where it does not (then :func:`held_by_other`
    asks the file itself)."""
    try:
        with open("/proc/locks", encoding="ascii", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    mine, out = os.getpid(), set()
    for line in lines:
        words = line.split()
        # "1: FLOCK  ADVISORY  WRITE 1234 fe:00:2146646 0 EOF" (a waiter: "1: -> FLOCK …")
        if len(words) < 6 or words[1] != "FLOCK":
            continue
        try:
            pid = int(words[4])
            major, minor, inode = words[5].split(":")
            out_key = (os.makedev(int(major, 16), int(minor, 16)), int(inode))
        except ValueError:
            continue
        if pid != mine:
            out.add(out_key)
    return out


def held_by_other(path: Path, held: set[tuple[int, int]] | None) -> bool:
    """Does another session hold the lock of ``path``? From ``held`` (:func:`held_files`)
    when there is one, else by asking for a shared lock for a moment, never waiting."""
    if held is not None:
        try:
            st = os.stat(path)
        except OSError:
            return False
        return (st.st_dev, st.st_ino) in held
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        lock_shared(fd)
        unlock(fd)  # before the close: Windows may let a lock closed with its file linger
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(fd)  # the shared lock, if taken, goes with it
    return False


__all__ = ["FileError", "LockedFile", "file_kind", "held_by_other", "held_files", "os_errno",
           "write_all"]
