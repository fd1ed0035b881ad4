"""Linux, macOS and Windows: the code that differs by system, each branch run here.

The locks (games/locking.py): flock where the system has it, Windows' msvcrt.locking
otherwise (here through a recording stand-in); the data folder of each system; Ctrl-Break
stopping a command as Ctrl-C does on Windows; the fallbacks where a POSIX call is missing.
CI also runs a set of tests with ``fcntl`` hidden (tests/no_fcntl.py, .ci/run).
"""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import types
from pathlib import Path

import pytest

from tripeaks_solver.games import locking, portable
from tripeaks_solver.games.files import FileError
from tripeaks_solver.games.record_file import data_dir


def two_descriptors(path: Path) -> tuple[int, int]:
    path.write_bytes(b"a record\n")
    return os.open(path, os.O_RDWR), os.open(path, os.O_RDWR)


def test_an_exclusive_lock_keeps_every_other_lock_out_until_it_goes(tmp_path: Path) -> None:
    one, two = two_descriptors(tmp_path / "r.txt")
    try:
        os.lseek(one, 3, os.SEEK_SET)
        locking.lock_exclusive(one)
        assert os.lseek(one, 0, os.SEEK_CUR) == 3  # where it was (msvcrt moves to lock)
        with pytest.raises(BlockingIOError):
            locking.lock_exclusive(two)
        with pytest.raises(BlockingIOError):
            locking.lock_shared(two)
        locking.unlock(one)
        locking.lock_exclusive(two)
        with pytest.raises(BlockingIOError):
            locking.lock_exclusive(one)
    finally:
        os.close(one)
        os.close(two)


def test_a_closed_descriptor_lets_its_lock_go(tmp_path: Path) -> None:
    one, two = two_descriptors(tmp_path / "r.txt")
    locking.lock_exclusive(one)
    os.close(one)
    locking.lock_exclusive(two)
    os.close(two)


def test_the_ci_step_without_fcntl_takes_the_windows_path() -> None:
    # With TRIPEAKS_NO_FCNTL=1 (.ci/run) the package must lock through msvcrt; otherwise
    # through flock. Either way a command started from here agrees.
    hidden = os.environ.get("TRIPEAKS_NO_FCNTL") == "1"
    assert locking.KIND == ("msvcrt" if hidden else "flock")
    probe = subprocess.run([sys.executable, "-c", "import fcntl"], capture_output=True,
                           check=False)
    assert (probe.returncode != 0) == hidden
    # And the os calls Windows lacks are gone there (tests/no_fcntl.py), here too.
    lacks = ("O_CLOEXEC", "O_NONBLOCK", "fchmod", "pread")
    assert [hasattr(os, name) for name in lacks] == [not hidden] * 4
    from tripeaks_solver.games import portable

    assert portable.read_flags() == (os.O_RDONLY if hidden else
                                     os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    assert portable.write_flags() == (os.O_RDWR if hidden else os.O_RDWR | os.O_CLOEXEC)


class FakeMsvcrt(types.ModuleType):
    """Windows' msvcrt.locking as documented: it locks ``nbytes`` from the descriptor's
    position; a range another holds fails with EACCES. Records every call."""

    LK_UNLCK, LK_LOCK, LK_NBLCK, LK_RLCK, LK_NBRLCK = range(5)

    def __init__(self) -> None:
        super().__init__("msvcrt")
        self.calls: list[tuple[int, int, int, int]] = []
        self.taken: set[int] = set()  # offsets locked by "another process"

    def locking(self, fd: int, mode: int, nbytes: int) -> None:
        at = os.lseek(fd, 0, os.SEEK_CUR)
        self.calls.append((fd, mode, nbytes, at))
        if mode != self.LK_UNLCK and at in self.taken:
            raise PermissionError(errno.EACCES, "Permission denied")


@pytest.fixture
def windows_locks(monkeypatch: pytest.MonkeyPatch) -> FakeMsvcrt:
    fake = FakeMsvcrt()
    monkeypatch.setattr(locking, "KIND", "msvcrt")
    monkeypatch.setattr(locking, "_SYSTEM", fake)
    return fake


def test_windows_locks_one_far_byte_and_keeps_the_position(windows_locks: FakeMsvcrt,
                                                           tmp_path: Path) -> None:
    fd, other = two_descriptors(tmp_path / "r.txt")
    os.close(other)
    try:
        os.lseek(fd, 5, os.SEEK_SET)
        locking.lock_exclusive(fd)
        locking.lock_shared(fd)
        locking.unlock(fd)
        assert os.lseek(fd, 0, os.SEEK_CUR) == 5
        far = locking._FAR
        m = windows_locks
        assert windows_locks.calls == [(fd, m.LK_NBLCK, 1, far), (fd, m.LK_NBRLCK, 1, far),
                                       (fd, m.LK_UNLCK, 1, far)]
        assert far > 2**32  # past any file written here: readers are never stopped
    finally:
        os.close(fd)


def test_windows_lock_held_by_another_is_a_blocking_error(windows_locks: FakeMsvcrt,
                                                          tmp_path: Path) -> None:
    fd, other = two_descriptors(tmp_path / "r.txt")
    os.close(other)
    windows_locks.taken.add(locking._FAR)
    try:
        with pytest.raises(BlockingIOError):
            locking.lock_exclusive(fd)
        with pytest.raises(BlockingIOError):
            locking.lock_shared(fd)
        assert os.lseek(fd, 0, os.SEEK_CUR) == 0
    finally:
        os.close(fd)


def test_windows_other_failures_stay_what_they_are(windows_locks: FakeMsvcrt,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    def bad(fd: int, mode: int, nbytes: int) -> None:
        raise OSError(errno.EBADF, "Bad file descriptor")

    monkeypatch.setattr(windows_locks, "locking", bad)
    r, w = os.pipe()
    os.close(r)
    os.close(w)
    with pytest.raises(OSError) as caught:
        locking.lock_exclusive(w)  # a closed descriptor: lseek fails first
    assert caught.value.errno == errno.EBADF and not isinstance(caught.value,
                                                                BlockingIOError)


def test_the_lock_module_is_chosen_by_what_the_system_has(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    fake = FakeMsvcrt()
    monkeypatch.setitem(sys.modules, "fcntl", None)  # import fcntl: ImportError
    monkeypatch.setitem(sys.modules, "msvcrt", fake)
    assert locking._native() == ("msvcrt", fake)
    monkeypatch.setitem(sys.modules, "msvcrt", None)
    assert locking._native() == ("none", None)


def test_a_system_with_neither_lock_call_says_so_when_it_locks(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(locking, "KIND", "none")
    monkeypatch.setattr(locking, "_SYSTEM", None)
    fd, other = two_descriptors(tmp_path / "r.txt")
    os.close(other)
    try:
        for call in (locking.lock_exclusive, locking.lock_shared, locking.unlock):
            with pytest.raises(OSError) as caught:
                call(fd)
            assert caught.value.errno == errno.ENOLCK
    finally:
        os.close(fd)


@pytest.mark.parametrize("platform, env, expected", [
    ("linux", {}, "HOME/.local/share/tripeaks-solver"),
    ("linux", {"XDG_DATA_HOME": "/xdg"}, "/xdg/tripeaks-solver"),
    ("darwin", {}, "HOME/Library/Application Support/tripeaks-solver"),
    ("darwin", {"XDG_DATA_HOME": "/xdg"}, "/xdg/tripeaks-solver"),  # asked for: honoured
    ("win32", {"APPDATA": "/roaming", "LOCALAPPDATA": "/local"}, "/roaming/tripeaks-solver"),
    ("win32", {"LOCALAPPDATA": "/local"}, "/local/tripeaks-solver"),
    ("win32", {}, "HOME/AppData/Roaming/tripeaks-solver"),
])
def test_each_system_keeps_the_records_in_its_own_data_folder(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, platform: str, env: dict,
        expected: str) -> None:
    for name in ("XDG_DATA_HOME", "APPDATA", "LOCALAPPDATA"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setattr(sys, "platform", platform)
    assert data_dir() == Path(expected.replace("HOME", str(tmp_path)))


def test_ctrl_break_stops_a_command_as_ctrl_c_does(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture) -> None:
    # Windows' Ctrl-Break is SIGBREAK; here another signal stands in for it.
    from tripeaks_solver import cli, console

    monkeypatch.setattr(signal, "SIGBREAK", signal.SIGUSR1, raising=False)
    monkeypatch.setattr(cli, "main", lambda: os.kill(os.getpid(), signal.SIGUSR1))
    old = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGUSR1)}
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(SystemExit) as stop:
            console.main()
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
    assert stop.value.code == 130
    assert capsys.readouterr().err == "tripeaks-solve: interrupted\n"


def test_without_the_posix_calls_the_fallbacks_hold(monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path) -> None:
    from tripeaks_solver.batch import engines
    from tripeaks_solver.cli import serve
    from tripeaks_solver.kernels import jit

    monkeypatch.delattr(os, "sched_getaffinity", raising=False)  # macOS, Windows
    assert engines.default_jobs() == max(1, os.cpu_count() or 1)
    monkeypatch.setitem(sys.modules, "resource", None)  # Windows: no resource module
    serve._more_files()  # nothing to raise, and no error
    monkeypatch.delattr(os, "geteuid", raising=False)  # Windows
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    root = jit._private_temp_root()
    assert root == str(tmp_path / "tripeaks-solver-numba-user")


def test_every_module_imports_without_fcntl() -> None:
    # A fresh interpreter with fcntl hidden and no msvcrt (as on a system with neither):
    # every module of the package imports; only a lock would fail.
    code = ("import sys, pkgutil, importlib\n"
            "sys.modules['fcntl'] = sys.modules['msvcrt'] = None\n"
            "import tripeaks_solver as tp\n"
            "names = [m.name for m in pkgutil.walk_packages(tp.__path__, 'tripeaks_solver.')]\n"
            "for name in names:\n"
            "    importlib.import_module(name)\n"
            "from tripeaks_solver.games import locking\n"
            "print(len(names), locking.KIND)\n")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    env.pop("TRIPEAKS_NO_FCNTL", None)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, check=False)
    assert proc.returncode == 0, proc.stderr
    count, kind = proc.stdout.split()
    assert int(count) > 60 and kind == "none"


POSIX_ONLY = {"fcntl", "resource", "termios", "tty", "pty", "pwd", "grp", "posix", "syslog",
              "crypt", "readline"}


def test_no_module_imports_a_posix_only_module_at_its_top() -> None:
    # A function may import one inside try/except ImportError (serve's resource, the
    # coach's readline); at a module's top it would stop the import on Windows.
    import ast

    package = Path(locking.__file__).resolve().parent.parent
    found = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            found += [f"{path.relative_to(package)}: {n}" for n in names
                      if n.split(".")[0] in POSIX_ONLY]
    assert len(list(package.rglob("*.py"))) > 80 and found == []


def test_asking_whether_a_file_is_held_leaves_no_lock_behind(tmp_path: Path) -> None:
    # Where the system lists no locks (/proc/locks: macOS, Windows) the server asks the
    # file itself, with a lock it lets go at once.
    from tripeaks_solver.games.files import held_by_other

    one, two = two_descriptors(tmp_path / "r.txt")
    try:
        assert not held_by_other(tmp_path / "r.txt", None)
        locking.lock_exclusive(one)  # nothing of the question lingers
        assert held_by_other(tmp_path / "r.txt", None)
        locking.unlock(one)
        assert not held_by_other(tmp_path / "r.txt", None)
        locking.lock_exclusive(two)
    finally:
        os.close(one)
        os.close(two)


# Windows' file calls, simulated: the flags and calls it lacks taken away, Windows said,
# and its refusals stood in for (no rename over or removal of a file this process has
# open, no folder opened as a file; O_BINARY, without which a file opens in text mode).

O_BINARY = 0x8000  # Windows' value; taken off again before the real open here


def open_here(path: str | Path) -> bool:
    """Does a descriptor of this process name the file at ``path``?"""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return False
    for fd in range(1024):
        try:
            mine = os.fstat(fd)
        except OSError:
            continue
        if (mine.st_dev, mine.st_ino) == (st.st_dev, st.st_ino):
            return True
    return False


class WindowsFiles:
    def __init__(self) -> None:
        self.opened: list[tuple[str, int]] = []  # (path, flags) of each open


@pytest.fixture
def windows_files(monkeypatch: pytest.MonkeyPatch) -> WindowsFiles:
    seen = WindowsFiles()
    real_open, real_replace, real_unlink = os.open, os.replace, os.unlink

    def win_open(path: str | Path, flags: int, mode: int = 0o777, **kw: object) -> int:
        seen.opened.append((str(path), flags))
        if os.path.isdir(path):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, flags & ~O_BINARY, mode, **kw)  # type: ignore[arg-type]

    def win_replace(src: str | Path, dst: str | Path) -> None:
        if open_here(src) or open_here(dst):
            raise PermissionError(errno.EACCES, "Access is denied", str(dst))
        real_replace(src, dst)

    def win_unlink(path: str | Path) -> None:
        if open_here(path):
            raise PermissionError(errno.EACCES, "Access is denied", str(path))
        real_unlink(path)

    for name in ("O_CLOEXEC", "O_NONBLOCK", "fchmod", "pread"):
        monkeypatch.delattr(os, name, raising=False)  # gone already in the CI step
    monkeypatch.setattr(os, "O_BINARY", O_BINARY, raising=False)
    # os.name itself stays: pathlib and pytest read it. The one place that asks it:
    monkeypatch.setattr(portable, "windows", lambda: True)
    monkeypatch.setattr(os, "open", win_open)
    monkeypatch.setattr(os, "replace", win_replace)
    monkeypatch.setattr(os, "unlink", win_unlink)
    return seen


def test_on_posix_the_flags_are_the_posix_calls_unchanged() -> None:
    # (In the CI step as on Windows the flags are gone: see the test of that step above.)
    if os.environ.get("TRIPEAKS_NO_FCNTL") != "1":
        assert portable.read_flags() == os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC
        assert portable.write_flags() == os.O_RDWR | os.O_CLOEXEC
    assert not hasattr(os, "O_BINARY")
    assert not portable.open_files_block_renames() and not portable.windows()


def test_the_windows_stand_in_refuses_what_windows_refuses(windows_files: WindowsFiles,
                                                           tmp_path: Path) -> None:
    # The stand-in itself: without it the tests below would prove nothing.
    a, b = tmp_path / "a", tmp_path / "b"
    a.write_bytes(b"a")
    b.write_bytes(b"b")
    fd = os.open(b, os.O_RDONLY)
    try:
        with pytest.raises(PermissionError):
            os.replace(a, b)
        with pytest.raises(PermissionError):
            os.unlink(b)
        with pytest.raises(PermissionError):
            os.open(tmp_path, os.O_RDONLY)
    finally:
        os.close(fd)
    os.replace(a, b)
    assert b.read_bytes() == b"a"


def test_windows_output_files_are_made_replaced_and_discarded(windows_files: WindowsFiles,
                                                              tmp_path: Path) -> None:
    from tripeaks_solver.games.files import LockedFile

    path = tmp_path / "out.csv"
    out = LockedFile(path, "the CSV file", "csv")
    out.close(discard=True)  # made, left empty: removed, although it was open
    assert not path.exists()
    path.write_bytes(b"old\r\n")
    path.chmod(0o640)
    out = LockedFile(path, "the CSV file", "csv")
    try:
        out.replace_with(b"new\r\nrows\n")
        assert path.read_bytes() == b"new\r\nrows\n"
        assert (path.stat().st_mode & 0o777) == 0o640  # by the path: no fchmod
        with pytest.raises(FileError) as other:  # held again after the rename
            LockedFile(path, "the CSV file", "csv")
        assert other.value.problem == "in-use"
    finally:
        out.close(discard=True)
    assert path.read_bytes() == b"new\r\nrows\n"  # written: stays
    assert [p.name for p in tmp_path.iterdir()] == ["out.csv"]  # no temporary file left
    mine = [f for p, f in windows_files.opened if p == str(path)]
    assert len(mine) >= 3 and all(f & O_BINARY for f in mine)


def test_windows_a_file_taken_while_closed_is_in_use_not_overwritten(
        windows_files: WindowsFiles, tmp_path: Path) -> None:
    from tripeaks_solver.games.files import LockedFile

    path = tmp_path / "out.png"
    path.write_bytes(b"theirs")
    out = LockedFile(path, "the plot", "plot")
    other = -1

    def taken() -> None:  # another process opens and locks it in the moment it is closed
        nonlocal other
        other = os.open(path, os.O_RDWR)
        locking.lock_exclusive(other)
        os.replace(tmp_path / "x", path)  # and Windows then refuses the rename

    (tmp_path / "x").write_bytes(b"ours")
    try:
        with pytest.raises(FileError) as err:
            out.closed_while(taken)
        assert err.value.problem == "in-use" and out.fd == -1
    finally:
        out.close()
        os.close(other)
    assert path.read_bytes() == b"theirs"


def test_windows_records_are_read_appended_and_replaced(windows_files: WindowsFiles,
                                                        tmp_path: Path) -> None:
    from tripeaks_solver.games.files import LockedFile
    from tripeaks_solver.games.record_file import RecordFile

    path = tmp_path / "game.txt"
    path.write_bytes(b"# a record\r\nd\r\n")
    record = RecordFile(path)
    try:
        assert record.open() == "# a record\r\nd\r\n"  # no pread; lines as they are
        assert record.newline == "\r\n"
        record.write("u\n")
        record.replace("# fixed\nd\n")  # no fchmod, no rename over an open file
        assert path.read_bytes() == b"# fixed\r\nd\r\n"
        assert str(tmp_path) not in [p for p, _ in windows_files.opened]  # no folder sync
        record.write("d\n")  # held again: the next move goes on, checks passing
        assert path.read_bytes() == b"# fixed\r\nd\r\nd\r\n"
        with pytest.raises(FileError) as other:
            LockedFile(path, "the record", "record")
        assert other.value.problem == "in-use"
    finally:
        record.close()
    assert [p.name for p in tmp_path.iterdir()] == ["game.txt"]
    made = RecordFile(tmp_path / "new.txt")
    made.open()
    made.close()  # made and never written: removed
    assert [p.name for p in tmp_path.iterdir()] == ["game.txt"]


def test_windows_inputs_and_held_files_are_read_without_the_posix_flags(
        windows_files: WindowsFiles, tmp_path: Path) -> None:
    from tripeaks_solver.batch.files import open_regular
    from tripeaks_solver.cli.common import read_input
    from tripeaks_solver.games.files import held_by_other
    from tripeaks_solver.games.portable import read_at

    path = tmp_path / "in.txt"
    path.write_bytes(b"one\r\ntwo\r\n")
    with open_regular(path, "the input", "input") as f:
        assert f.read() == b"one\r\ntwo\r\n"
    assert read_input(path)[1].splitlines() == ["one", "two"]
    assert not held_by_other(path, None)
    mine = [f for p, f in windows_files.opened if p == str(path)]
    assert len(mine) == 3 and all(f & O_BINARY for f in mine)
    fd = os.open(path, os.O_RDONLY)
    try:
        os.lseek(fd, 2, os.SEEK_SET)
        assert read_at(fd, 4, 3) == b"\r\ntw" and read_at(fd, 99, 8) == b"\r\n"
        assert os.lseek(fd, 0, os.SEEK_CUR) == 2  # where it was, as pread leaves it
    finally:
        os.close(fd)
