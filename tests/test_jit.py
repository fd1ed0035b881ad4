"""``tripeaks_solver.kernels.jit``: numba's ``njit`` whose cache never stops the
program, and the notice printed when kernels really compile.

Small kernels of the tests' own stand in for the search kernels. The environment of
the bug is rebuilt in subprocesses: a read-only package directory and an unwritable
home, as a user who cannot write there (root runs them with its file-permission
override dropped, ``setpriv``); a truncated cache file. Each such test also runs
numba's own ``njit`` in the same place and checks that it fails there as it failed for users, so
the environment is the one of the bug.
"""

from __future__ import annotations

import importlib.util
import io
import json
import os
import pty
import select
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import numba
import pytest
from numba.core.dispatcher import Dispatcher

import tripeaks_solver
from tripeaks_solver.kernels import jit
from tripeaks_solver.kernels.jit import cache_path, njit

ROOT = Path(tripeaks_solver.__file__).resolve().parents[1]

# --- the call forms ----------------------------------------------------------------------


@njit
def _plus_one(x):
    return x + 1


@njit(cache=True, inline="always")
def _square(x):
    return x * x


@njit(cache=True)
def _sum_squares(n):
    total = 0
    for i in range(n):
        total += _square(i)
    return total


@njit("int64(int64)", cache=True)
def _triple(x):
    return 3 * x


@njit(["float64(int64)", "float64(float64)"])
def _half(x):
    return x / 2


def _negate(x):
    return -x


_negate_jit = njit(_negate, cache=True)


def test_call_forms_compile_and_answer():
    assert _plus_one(41) == 42
    assert _sum_squares(10) == sum(i * i for i in range(10))
    assert _triple(5) == 15 and _negate_jit(4) == -4
    assert _half(3) == 1.5 and _half(3.0) == 1.5
    for f in (_plus_one, _square, _sum_squares, _triple, _half, _negate_jit):
        assert isinstance(f, Dispatcher)
    # A signature compiles at once and allows no other (numba's eager compilation).
    assert [str(s) for s in _triple.signatures] == ["(int64,)"]
    assert len(_half.signatures) == 2
    with pytest.raises(TypeError, match="No matching definition"):
        _triple(1j)
    # cache=True caches next to the module (tests/ is writable); without it, nothing.
    here = str(Path(__file__).resolve().parent / "__pycache__")
    assert cache_path(_sum_squares) == cache_path(_square) == cache_path(_triple) == here
    assert cache_path(_plus_one) is None and cache_path(_half) is None
    assert jit.uncached() == ()


def test_a_kernel_called_with_constants_compiles_once_per_type():
    # numba alone compiles the callee twice here, for Literal[int](1) and (2); that
    # doubled the compile time of the search kernels.
    @njit
    def callee(x, flag):
        return x + 1 if flag else x - 1

    @njit
    def caller(y):
        return callee(1, True) + callee(2, False) + callee(y, True)

    assert caller(5) == 2 + 1 + 6
    assert [str(s) for s in callee.signatures] == ["(int64, bool)"]
    plain = numba.njit(callee.py_func)
    numba.njit(lambda: plain(1, True) + plain(2, False))()
    assert len(plain.signatures) == 2  # what the wrapper prevents


def test_njit_keeps_numba_options():
    @njit(cache=False, boundscheck=True)
    def at(a, i):
        return a[i]

    import numpy as np
    with pytest.raises(IndexError):
        at(np.zeros(3), 5)
    assert at.targetoptions["boundscheck"] is True and at.targetoptions["nopython"] is True


# --- the private temporary directory ------------------------------------------------------


def test_private_temp_root_is_made_for_this_user_only(tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    root = jit._private_temp_root()
    assert root is not None and Path(root).parent == tmp_path
    st = os.lstat(root)
    assert stat.S_IMODE(st.st_mode) & 0o077 == 0 and st.st_uid == os.geteuid()
    assert jit._private_temp_root() == root  # found again next time


@pytest.mark.parametrize("kind", ["group-writable", "symlink", "file"])
def test_private_temp_root_refuses_what_others_could_have_planted(tmp_path, monkeypatch, kind):
    # Cache files are pickles: a directory someone else can write must never be used.
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    place = tmp_path / f"tripeaks-solver-numba-{os.geteuid()}"
    if kind == "group-writable":
        place.mkdir()
        place.chmod(0o775)
    elif kind == "symlink":
        (tmp_path / "elsewhere").mkdir(mode=0o700)
        place.symlink_to(tmp_path / "elsewhere")
    else:
        place.write_text("")
    assert jit._private_temp_root() is None


def test_private_temp_root_none_when_tmpdir_unwritable(tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path / "missing" / "dir"))
    assert jit._private_temp_root() is None


# --- the compile notice --------------------------------------------------------------------


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_compile_notice_once_when_numba_compiles(monkeypatch):
    monkeypatch.setattr(jit, "_noticed", False)

    @njit
    def first(x):
        return x + 2

    @njit
    def second(x):
        return x * 3

    screen = _Terminal()
    with jit.compile_notice(screen):
        assert first(1) == 3 and second(2) == 6  # two compilations, one line
    assert screen.getvalue() == jit.COMPILE_NOTICE + "\n"
    assert jit.COMPILE_NOTICE == "compiling search kernels, first run only…"

    @njit
    def third(x):
        return x - 1

    with jit.compile_notice(screen):
        assert third(1) == 0
    assert screen.getvalue() == jit.COMPILE_NOTICE + "\n"  # once per process


def test_compile_notice_silent_without_compilation_or_terminal(monkeypatch):
    monkeypatch.setattr(jit, "_noticed", False)
    assert _plus_one(1) == 2  # compiled already
    screen = _Terminal()
    with jit.compile_notice(screen):
        assert _plus_one(2) == 3
    assert screen.getvalue() == ""

    @njit
    def fresh(x):
        return x + 5

    pipe = io.StringIO()  # not a terminal: a script reads it, the notice stays out
    with jit.compile_notice(pipe):
        assert fresh(1) == 6
    assert pipe.getvalue() == ""


def _load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_compile_notice_silent_when_loading_from_the_cache(tmp_path, monkeypatch):
    monkeypatch.setattr(jit, "_noticed", False)
    source = tmp_path / "cached_kernel.py"
    source.write_text(KERNELS.format(module="tripeaks_solver.kernels.jit"))
    first = _load(source, "cached_kernel_a")
    assert first.sum_squares(6) == 55  # compiled and saved
    assert sum(first.sum_squares.stats.cache_misses.values()) == 1
    again = _load(source, "cached_kernel_b")  # new dispatchers over the same file
    screen = _Terminal()
    with jit.compile_notice(screen):
        assert again.sum_squares(6) == 55
    assert sum(again.sum_squares.stats.cache_hits.values()) == 1
    assert screen.getvalue() == ""


# --- subprocesses: a read-only install, an unwritable home, a broken cache ------------------

KERNELS = '''
from {module} import njit


@njit(cache=True, inline="always")
def square(x):
    return x * x


@njit(cache=True)
def sum_squares(n):
    total = 0
    for i in range(n):
        total += square(i)
    return total
'''

SCRIPT = '''
import json
from tripeaks_solver.kernels.jit import cache_path, compile_notice, uncached
with compile_notice():
    from minikernels import kernels
    value = kernels.sum_squares(10)
stats = kernels.sum_squares.stats
print(json.dumps({"value": value, "hits": sum(stats.cache_hits.values()),
                  "misses": sum(stats.cache_misses.values()),
                  "cache": cache_path(kernels.sum_squares), "uncached": list(uncached())}))
'''


def _unprivileged() -> list[str]:
    """A command prefix under which file permissions hold: as root, setpriv drops the
    capabilities that override them (the user stays root, so the interpreter under
    /root can still be run)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    assert setpriv, "root runs these tests with setpriv (util-linux)"
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search,-fowner", "--"]


def _env(home: Path, tmpdir: Path, *paths: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("NUMBA_") and k not in ("XDG_CACHE_HOME", "PYTHONPATH")}
    env.update(HOME=str(home), TMPDIR=str(tmpdir), LANG="C.UTF-8",
               PYTHONPATH=os.pathsep.join(str(p) for p in (*paths, ROOT)))
    return env


def _package(where: Path, module: str = "tripeaks_solver.kernels.jit") -> Path:
    pkg = where / "minikernels"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "kernels.py").write_text(KERNELS.format(module=module))
    return pkg


def _run(env: dict[str, str], cwd: Path, stderr=subprocess.PIPE) -> subprocess.CompletedProcess:
    return subprocess.run([*_unprivileged(), sys.executable, "-c", SCRIPT], env=env, cwd=cwd,
                          stdout=subprocess.PIPE, stderr=stderr, text=True, timeout=300,
                          check=False)


@pytest.fixture
def read_only(tmp_path):
    """A read-only package directory and home; permissions given back afterwards."""
    site, home = tmp_path / "site", tmp_path / "home"
    home.mkdir()
    made = []

    def make(module: str) -> tuple[Path, Path]:
        pkg = _package(site / module.replace(".", "_"), module)
        for d in (pkg, home):
            d.chmod(0o555)
            made.append(d)
        return pkg.parent, home

    yield make
    for d in made:
        d.chmod(0o755)


@pytest.mark.slow
def test_numba_alone_crashes_in_this_environment(read_only, tmp_path):
    site, home = read_only("numba")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    r = _run(_env(home, tmp, site), tmp_path)
    assert r.returncode != 0 and "no locator available" in r.stderr


@pytest.mark.slow  # CI's slow step (the fast set keeps test_nowhere_to_cache_compiles_...)
def test_read_only_install_caches_in_a_private_temporary_directory(read_only, tmp_path):
    site, home = read_only("tripeaks_solver.kernels.jit")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = _env(home, tmp, site)
    first = _run(env, tmp_path)
    assert first.returncode == 0 and first.stderr == "", first.stderr
    got = json.loads(first.stdout)
    assert got["value"] == 285 and (got["hits"], got["misses"]) == (0, 1)
    private = tmp / f"tripeaks-solver-numba-{os.geteuid()}"
    assert Path(got["cache"]).parent == private
    assert stat.S_IMODE(private.stat().st_mode) == 0o700
    assert not any((site / "minikernels").glob("__pycache__/*.nbi"))
    again = json.loads(_run(env, tmp_path).stdout)  # the next run loads what was saved
    assert (again["value"], again["hits"], again["misses"]) == (285, 1, 0)


def _corrupt(cache: Path, suffix: str, how: str) -> None:
    (path,) = cache.glob(f"kernels.sum_squares-*{suffix}")
    data = path.read_bytes()
    path.write_bytes({"truncated": data[: len(data) // 2], "empty": b"",
                      "garbage": b"not a pickle at all\n" * 3}[how])


@pytest.mark.slow
def test_broken_cache_entries_are_compiled_again(tmp_path):
    site, home = tmp_path / "site", tmp_path / "home"
    home.mkdir()
    pkg = _package(site)
    env = _env(home, tmp_path, site)
    assert json.loads(_run(env, tmp_path).stdout)["misses"] == 1
    for suffix, how in [(".nbc", "truncated"), (".nbi", "truncated"), (".nbi", "garbage"),
                        (".nbc", "empty")]:
        _corrupt(pkg / "__pycache__", suffix, how)  # the entry the previous run wrote
        r = _run(env, tmp_path)
        assert r.returncode == 0 and r.stderr == "", (suffix, how, r.stderr)
        got = json.loads(r.stdout)
        assert (got["value"], got["hits"], got["misses"]) == (285, 0, 1), (suffix, how)
    again = json.loads(_run(env, tmp_path).stdout)  # the last entry was written again
    assert (again["value"], again["hits"], again["misses"]) == (285, 1, 0)


@pytest.mark.slow
def test_numba_alone_fails_on_a_truncated_cache_file(tmp_path):
    site, home = tmp_path / "site", tmp_path / "home"
    home.mkdir()
    pkg = _package(site, "numba")
    env = _env(home, tmp_path, site)
    assert _run(env, tmp_path).returncode == 0
    _corrupt(pkg / "__pycache__", ".nbc", "truncated")
    r = _run(env, tmp_path)
    assert r.returncode != 0 and "UnpicklingError" in r.stderr


def _run_on_terminal(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[int, str, str]:
    """Run with stderr on a pseudo-terminal: (exit code, stdout, what the terminal got)."""
    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen(argv, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=slave,
                                stdin=subprocess.DEVNULL, text=True)
    finally:
        os.close(slave)
    screen = b""
    while True:
        ready, _, _ = select.select([master], [], [], 300)
        if not ready:
            proc.kill()
            raise AssertionError("no output for 300 s")
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        screen += chunk
    os.close(master)
    out = proc.stdout.read()
    proc.stdout.close()
    return proc.wait(timeout=300), out, screen.decode().replace("\r\n", "\n")


@pytest.mark.slow  # CI's slow step (the fast set keeps test_nowhere_to_cache_compiles_...)
def test_compile_notice_on_a_terminal_first_run_only(tmp_path):
    site, home = tmp_path / "site", tmp_path / "home"
    home.mkdir()
    _package(site)
    env = _env(home, tmp_path, site)
    argv = [sys.executable, "-c", SCRIPT]
    code, out, screen = _run_on_terminal(argv, env, tmp_path)
    assert code == 0 and json.loads(out)["misses"] == 1
    assert screen == "compiling search kernels, first run only…\n"
    code, out, screen = _run_on_terminal(argv, env, tmp_path)
    assert code == 0 and json.loads(out)["hits"] == 1
    assert screen == ""


def test_nowhere_to_cache_compiles_and_says_so_on_a_terminal(read_only, tmp_path):
    site, home = read_only("tripeaks_solver.kernels.jit")
    tmp = tmp_path / "tmp"
    tmp.mkdir(mode=0o555)
    try:
        code, out, screen = _run_on_terminal([*_unprivileged(), sys.executable, "-c", SCRIPT],
                                             _env(home, tmp, site), tmp_path)
    finally:
        tmp.chmod(0o755)
    assert code == 0
    got = json.loads(out)
    assert got["value"] == 285 and got["cache"] is None
    assert (got["hits"], got["misses"]) == (0, 1)
    assert got["uncached"] == ["square", "sum_squares"]
    assert list(tmp.iterdir()) == []
    assert screen == jit.UNCACHED_NOTICE + "\n"  # one line, which says what to do
    assert "NUMBA_CACHE_DIR" in screen


# --- the real package, read-only (slow: it compiles the search kernels) -------------------


def _package_copy(tmp_path: Path) -> Path:
    """A copy of tripeaks_solver without its caches."""
    site = tmp_path / "site"
    shutil.copytree(ROOT / "tripeaks_solver", site / "tripeaks_solver",
                    ignore=shutil.ignore_patterns("__pycache__"))
    kernels = sorted((site / "tripeaks_solver" / "kernels").glob("*.py"))
    searches = [k for k in kernels if k.stem not in ("__init__", "jit")]
    assert searches and all("from .jit import njit" in k.read_text() for k in searches)
    return site


@pytest.mark.slow
def test_read_only_install_solves_and_survives_a_broken_cache(tmp_path, capsys):
    from cli_run import run

    site, home, tmp = _package_copy(tmp_path), tmp_path / "home", tmp_path / "tmp"
    home.mkdir(mode=0o555)
    tmp.mkdir()
    for d in [site, *site.rglob("*")]:
        if d.is_dir():
            d.chmod(0o555)
    env = _env(home, tmp, site)
    env["PYTHONPATH"] = str(site)  # the copy alone
    argv = [*_unprivileged(), sys.executable, "-m", "tripeaks_solver", "TP1-E-AAAAAAD",
            "--rules", "easy", "--json", "--no-solution"]
    try:
        code, want, err = run(capsys, "TP1-E-AAAAAAD", "--rules", "easy", "--json",
                              "--no-solution")
        assert code == 0, err

        def answers(text: str) -> list[dict]:
            return [{k: v for k, v in row.items() if k != "seconds"} for row in json.loads(text)]

        for _ in range(2):  # compiled and saved, then loaded
            r = subprocess.run(argv, env=env, cwd=tmp_path, capture_output=True, text=True,
                               timeout=600, check=False)
            assert r.returncode == 0 and r.stderr == "", r.stderr
            assert answers(r.stdout) == answers(want)
        entries = sorted(tmp.rglob("*.nbc"))
        assert entries, "the kernels were cached in the private temporary directory"
        for path in entries:
            path.write_bytes(path.read_bytes()[:100])
        r = subprocess.run(argv, env=env, cwd=tmp_path, capture_output=True, text=True,
                           timeout=600, check=False)
        assert r.returncode == 0 and r.stderr == "", r.stderr
        assert answers(r.stdout) == answers(want)
    finally:
        for d in [site, *site.rglob("*"), home]:
            if d.is_dir():
                d.chmod(0o755)


@pytest.mark.slow
def test_cli_prints_the_compile_notice_once_on_a_terminal(tmp_path):
    cache = tmp_path / "numba-cache"
    cache.mkdir()
    env = _env(tmp_path, tmp_path)
    env["NUMBA_CACHE_DIR"] = str(cache)  # a fresh cache: the first run compiles
    argv = [sys.executable, "-m", "tripeaks_solver", "TP1-E-AAAAAAD", "--rules", "easy",
            "--no-solution"]
    code, out, screen = _run_on_terminal(argv, env, tmp_path)
    assert code == 0 and "Easy:    winnable" in out
    assert screen == "compiling search kernels, first run only…\n"
    code, out, screen = _run_on_terminal(argv, env, tmp_path)
    assert code == 0 and "Easy:    winnable" in out and screen == ""


# --- the house rule on kernel arguments --------------------------------------------------
def test_every_kernel_takes_at_most_six_arguments():
    # DEVELOPERS.md: kernels take a few named inputs (named tuples), at most six
    # arguments. Read from the source, so that it holds with NUMBA_DISABLE_JIT=1 too.
    import ast

    kernels = {}
    for path in sorted((ROOT / "tripeaks_solver").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and any(
                    "njit" in ast.unparse(d) for d in node.decorator_list):
                where = path.relative_to(ROOT).with_suffix("").as_posix()
                kernels[f"{where}.{node.name}"] = len(node.args.args)
    assert len(kernels) > 50  # the search, completion and playout kernels were found
    assert {k: n for k, n in kernels.items() if n > 6} == {}


# --- long kernel calls in chunks ----------------------------------------------------------
@pytest.mark.parametrize("n", [0, 1, 2, 7, 1000])
def test_chunks_cover_every_item_once_in_order(n):
    ranges = list(jit.chunks(n))
    starts = [a for a, _ in ranges]
    assert starts == ([0] if n else []) + [b for _, b in ranges[:-1]]
    assert all(a < b for a, b in ranges)
    assert (ranges[-1][1] if ranges else 0) == n


def test_chunks_are_sized_to_the_time_they_take(monkeypatch):
    # A fake clock: each item costs the caller 1 ms, then 150 ms from item 3000 on. The
    # chunks double while one takes under half of the 0.2 s aimed at, halve when one
    # takes over twice it, and are kept in between.
    clock = [0.0]
    monkeypatch.setattr(jit.time, "perf_counter", lambda: clock[0])
    ranges = []
    for a, b in jit.chunks(3400, seconds=0.2):
        ranges.append((a, b))
        clock[0] += sum(0.001 if i < 3000 else 0.15 for i in range(a, b))
    sizes = [b - a for a, b in ranges]
    assert sizes[:12] == [1, 2, 4, 8, 16, 32, 64, 128, 128, 128, 128, 128]
    first_slow = next(k for k, (_, b) in enumerate(ranges) if b > 3000)
    tail = sizes[first_slow + 1:-1]  # the last one is what is left
    assert tail[:6] == [64, 32, 16, 8, 4, 2]  # 0.3 s for two: in the band
    assert set(tail[6:]) == {2}
