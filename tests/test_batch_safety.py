"""``batch`` under attack: two runs on one file, full disks, devices and pipes, endless
lines, impossible rows, absurd numbers, failing workers, standard input and output.

Tests that need a second process, a lock, a signal or a resource limit run the command
as a subprocess of this tree's package; the others run it in this process.
"""

from __future__ import annotations

import io
import os
import resource
import signal
import stat
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest
from cli_run import assert_one_line_error, run

from tripeaks_solver import Deal
from tripeaks_solver.batch.csvfile import read_existing
from tripeaks_solver.batch.rows import CSV_HEADER, Row
from tripeaks_solver.batch.run import BatchRun, BatchSpec
from tripeaks_solver.model.codes import GameCode
from tripeaks_solver.model.scoring import WIN_BASE_SCORE

REPO = Path(__file__).resolve().parent.parent
HEADER = ",".join(CSV_HEADER)
MAIN = "from tripeaks_solver.cli import main; main()"


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO)}


def spawn(*args: str, prelude: str = "", **kw) -> subprocess.Popen:
    """``tripeaks-solve ARGS`` of this tree, as a process (``prelude``: Python run first)."""
    return subprocess.Popen([sys.executable, "-c", prelude + MAIN, *args], env=_env(),
                            stdout=kw.pop("stdout", subprocess.PIPE),
                            stderr=subprocess.PIPE, text=True, **kw)


def tool(*args: str, timeout: float = 60, **kw) -> tuple[int, str, str]:
    proc = spawn(*args, **kw)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail(f"tripeaks-solve {' '.join(args)} did not end in {timeout} s")
    return proc.returncode, out, err


def wait_for(check, what: str, timeout: float = 30) -> None:
    deadline = time.time() + timeout
    while not check():
        assert time.time() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def row_lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") - 1 if path.exists() else 0


def stop(proc: subprocess.Popen) -> str:
    """Interrupt a run (Ctrl-C) and return its stderr."""
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode in (0, 130), err
    return err


def assert_clean_prefix(path: Path, deals: int, rules=("easy", "classic")) -> int:
    """The file holds the first rows of deals 0 … deals-1, in order, each once."""
    found = read_existing(path)
    keys = [r.key for r in found.rows]
    want = [(n, r) for n in range(deals) for r in rules]
    assert keys == want[: len(keys)]
    assert not found.torn and path.read_text().count(HEADER) == 1
    return len(keys)


@pytest.mark.slow
# --- one run per file --------------------------------------------------------------
def test_second_run_on_one_csv_is_refused_while_the_first_goes_on(tmp_path):
    path = tmp_path / "same.csv"
    first = spawn("batch", "0", "3000", "--no-optimal", "--jobs", "1", "--csv", str(path))
    try:
        wait_for(lambda: row_lines(path) > 20 or first.poll() is not None, "the first rows")
        before = path.read_bytes()
        others = [spawn("batch", "5000", "5600", "--rules", "easy", "--jobs", "1", "--csv",
                        str(path), *extra) for extra in ([], ["--resume"], ["--force"])]
        for other in others:
            out, err = other.communicate(timeout=60)
            assert_one_line_error(other.returncode, err, f"{path} is in use by another run")
            assert out == ""
        assert first.poll() is None, "the first run ended before the others were refused"
        assert path.read_bytes().startswith(before)  # only the first run appends
    finally:
        stop(first)
    assert assert_clean_prefix(path, 3000) > 40


@pytest.mark.slow
@pytest.mark.parametrize("gap", [0.1, 0.25])
def test_a_second_ctrl_c_with_workers_still_ends_the_run(tmp_path, gap):
    # Two Ctrl-C a moment apart once left the pool half shut and the exit waiting for
    # it for ever.
    path = tmp_path / "twice.csv"
    proc = spawn("batch", "0", "3000", "--jobs", "2", "--csv", str(path))
    try:
        wait_for(lambda: row_lines(path) > 20 or proc.poll() is not None, "the first rows")
        proc.send_signal(signal.SIGINT)
        time.sleep(gap)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail("the run did not end 30 s after two Ctrl-C")
    # Exit 130, or death by the second SIGINT when it comes as Python exits: a shell
    # reports both as 130.
    assert proc.returncode in (130, -signal.SIGINT), err
    assert "Traceback" not in err
    assert assert_clean_prefix(path, 3000) > 20


def test_two_resumes_at_once_one_refused(tmp_path, capsys):
    path = tmp_path / "part.csv"
    assert run(capsys, "batch", "0", "5", "--no-optimal", "--jobs", "1", "--csv",
               str(path))[0] == 0
    args = ("batch", "0", "3000", "--no-optimal", "--jobs", "1", "--csv", str(path),
            "--resume")
    procs = [spawn(*args), spawn(*args)]
    try:
        wait_for(lambda: any(p.poll() is not None for p in procs), "one run to end")
        loser = next(p for p in procs if p.poll() is not None)
        winner = next(p for p in procs if p is not loser)
        _, err = loser.communicate()
        assert_one_line_error(loser.returncode, err, "is in use by another run")
        assert winner.poll() is None
    finally:
        for p in procs:
            if p.poll() is None:
                stop(p)
    assert assert_clean_prefix(path, 3000) >= 10  # no row appended twice


@pytest.mark.slow  # CI's slow step (the fast set keeps test_two_resumes_at_once_one_refused)
def test_racing_runs_create_one_file(tmp_path):
    """Two runs start at once on a missing file: exactly one creates and writes it."""
    path = tmp_path / "new.csv"
    args = ("batch", "0", "3000", "--no-optimal", "--jobs", "1", "--csv", str(path))
    procs = [spawn(*args), spawn(*args)]
    try:
        wait_for(lambda: any(p.poll() is not None for p in procs), "one run to end")
        loser = next(p for p in procs if p.poll() is not None)
        _, err = loser.communicate()
        assert_one_line_error(loser.returncode, err)
        assert "in use by another run" in err or "already exists" in err
        wait_for(lambda: row_lines(path) > 10, "the winner's rows")
        assert any(p.poll() is None for p in procs if p is not loser)
    finally:
        for p in procs:
            if p.poll() is None:
                stop(p)
    assert_clean_prefix(path, 3000)


@pytest.mark.slow
def test_the_plot_is_locked_for_the_whole_run(tmp_path):
    png = tmp_path / "p.png"
    first = spawn("batch", "0", "2000", "--jobs", "1", "--plot", str(png), "--no-progress")
    try:
        wait_for(lambda: png.exists() or first.poll() is not None, "the plot to be claimed")
        code, _, err = tool("batch", "0", "3", "--jobs", "1", "--plot", str(png), "--force")
        assert_one_line_error(code, err, f"{png} is in use by another run")
        assert first.poll() is None
    finally:
        stop(first)
    assert not png.exists()  # the stopped run drew nothing: its empty claim is gone


# --- write errors ------------------------------------------------------------------
def _file_size_limit(size: int):
    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    return limit


@pytest.mark.slow  # CI's slow step (the fast set keeps test_full_standard_output and the full disk
# of tests/test_cli_input.py)
def test_full_disk_mid_run_keeps_complete_rows(tmp_path, capsys):
    path = tmp_path / "big.csv"
    code, _, err = tool("batch", "0", "400", "--no-optimal", "--jobs", "1", "--csv", str(path),
                        preexec_fn=_file_size_limit(20_000))
    assert_one_line_error(code, err, f"cannot write the CSV {path}", "rows are kept",
                          "--resume")
    kept = assert_clean_prefix(path, 400)
    assert 100 < kept < 800 and path.stat().st_size <= 20_000
    code, _, err = run(capsys, "batch", "0", "400", "--no-optimal", "--jobs", "1", "--csv",
                       str(path), "--resume")
    assert code == 0, err
    assert assert_clean_prefix(path, 400) == 800


def test_full_standard_output(tmp_path):
    with open("/dev/full", "w") as full:
        code, _, err = tool("batch", "0", "3", "--jobs", "1", "--csv", "-", stdout=full)
    assert_one_line_error(code, err, "standard output", "No space left on device")


@pytest.mark.slow
def test_plot_write_error_leaves_no_file(tmp_path):
    png = tmp_path / "p.png"
    code, _, err = tool("batch", "0", "30", "--jobs", "1", "--plot", str(png),
                        preexec_fn=_file_size_limit(8_000), cwd=tmp_path)
    assert_one_line_error(code, err, f"cannot write the plot {png}")
    assert sorted(os.listdir(tmp_path)) == []  # no placeholder, no half-written PNG


# --- devices, pipes, endless lines -----------------------------------------------------
@pytest.mark.parametrize("args, words", [
    (["0", "3", "--csv", "/dev/full", "--force"], "device"),
    pytest.param(["0", "3", "--csv", "/dev/full", "--resume"], "device",
                 marks=pytest.mark.slow),
    pytest.param(["--layout-file", "/dev/zero"], "device", marks=pytest.mark.slow),
    (["0", "3", "--csv", "{fifo}", "--resume"], "pipe"),
    pytest.param(["--layout-file", "{fifo}"], "pipe", marks=pytest.mark.slow),
])
def test_devices_and_pipes_are_refused(tmp_path, args, words):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    code, out, err = tool("batch", *[a.format(fifo=fifo) for a in args], "--jobs", "1",
                          timeout=60)
    assert_one_line_error(code, err, words, "not a regular file")
    assert out == ""


def test_over_long_lines_are_refused(tmp_path, capsys):
    path = tmp_path / "long.csv"
    good = Row(1, "easy", True, 13, 759, 28, 35794, 0.004397).csv_line()
    path.write_text(HEADER + "\n" + good + "x" * 100_000 + "\n")
    before = path.read_bytes()
    code, _, err = run(capsys, "batch", "0", "3", "--csv", str(path), "--resume")
    assert_one_line_error(code, err, "line 3 is longer than")
    assert path.read_bytes() == before
    layouts = tmp_path / "long.txt"
    layouts.write_text(Deal.from_number(0).line() + "\n" + "# " + "y" * 100_000 + "\n")
    code, _, err = run(capsys, "batch", "--layout-file", str(layouts))
    assert_one_line_error(code, err, "line 2 is longer than")


@pytest.mark.slow
# --- resume in memory bounded by the range ---------------------------------------------
def test_resume_keeps_counts_not_rows(tmp_path):
    deals = 10_000
    path = tmp_path / "many.csv"
    with open(path, "w") as f:
        f.write(HEADER + "\n")
        for n in range(deals):
            for rules, won in (("easy", True), ("classic", n % 4 == 0)):
                draws = n % 24 if won else None
                f.write(Row(n, rules, won, draws, WIN_BASE_SCORE - n % 24 if won else 600,
                            28 if won else 20, 1000, 0.001).csv_line())
    tracemalloc.start()
    try:
        with BatchRun(BatchSpec(range(deals), csv_path=path, resume=True)) as batch:
            peak = tracemalloc.get_traced_memory()[1]
            summary = batch.run()
    finally:
        tracemalloc.stop()
    assert batch.kept_in_range == 2 * deals and batch.pending_deals == 0
    # Rows as objects took about 1 KB each (20 MB here); counts take one byte a deal.
    assert peak < 2_000_000, peak
    s = summary.as_dict()
    assert s["rules"]["easy"]["wins"] == deals and s["rules"]["classic"]["wins"] == deals // 4
    assert s["cross"] == {"deals": deals, "both": deals // 4, "easy_only": deals - deals // 4,
                          "classic_only": 0, "neither": 0}


# --- rows no run could write ---------------------------------------------------------
WON = ["TP1-E-AAAAAAB", "1", "easy", "", "app", "true", "13", "759", "28", "35794",
       "0.004397", ""]
LOST = ["TP1-E-AAAAAAC", "2", "easy", "", "app", "false", "", "650", "20", "100", "0.1", ""]
COLUMN = {name: i for i, name in enumerate(CSV_HEADER)}


def _changed(base: list[str], **changes: str) -> list[str]:
    fields = list(base)
    for name, value in changes.items():
        fields[COLUMN[name]] = value
    return fields


@pytest.mark.parametrize("fields, words", [
    (_changed(WON, best_score="760"), "is not 759"),
    (_changed(WON, max_removed="99"), "max_removed 99"),
    (_changed(WON, max_removed="27"), "max_removed 27"),
    (_changed(WON, max_removed=""), "max_removed None"),
    (_changed(WON, states="-5"), "states"),
    (_changed(WON, seconds="-1.0"), "seconds"),
    (_changed(WON, seconds="nan"), "seconds"),
    (_changed(WON, min_draws="24", best_score="748"), "outside 0 … 23"),
    (_changed(WON, min_draws="-1", best_score="773"), "outside 0 … 23"),
    (_changed(WON, min_draws=" 13"), "whole number"),
    (_changed(WON, min_draws=""), "no min_draws"),
    (_changed(LOST, min_draws="3"), "min_draws is given"),
    (_changed(LOST, max_removed="28"), "max_removed 28"),
    (_changed(LOST, best_score="701"), "outside 0 … 700"),
    (_changed(LOST, best_score="-1"), "outside 0 … 700"),
    (_changed(WON, scoring="cards-left", best_score="3"), "cards left"),
    (_changed(LOST, scoring="cards-left", best_score="7"), "cards left"),
    (_changed(LOST, scoring="original", best_score="1000", max_removed=""), "original"),
])
def test_resume_refuses_impossible_rows(tmp_path, capsys, fields, words):
    path = tmp_path / "bad.csv"
    good = ",".join(_changed(WON, deal="0", code="TP1-E-AAAAAAA"))
    path.write_text(f"{HEADER}\n{good}\n{','.join(fields)}\n")
    before = path.read_bytes()
    code, _, err = run(capsys, "batch", "0", "3", "--csv", str(path), "--resume")
    assert_one_line_error(code, err, "line 3 is not a batch row", words)
    assert path.read_bytes() == before


@pytest.mark.parametrize("extra", [
    pytest.param(["--scoring", "app"], marks=pytest.mark.slow),
    pytest.param(["--scoring", "original"], marks=pytest.mark.slow),
    pytest.param(["--scoring", "cards-left"], marks=pytest.mark.slow), ["--no-optimal"],
])
def test_every_row_a_run_writes_is_accepted(tmp_path, capsys, extra):
    """The checks accept what the solver writes, with the largest stock (25 cards)."""
    path = tmp_path / "ok.csv"
    args = ("batch", "0", "8", "--jobs", "1", "--joker", "--empty-waste", "--csv", str(path),
            *extra)
    assert run(capsys, *args)[0] == 0
    code, _, err = run(capsys, *args, "--resume")
    assert code == 0 and "16 rows of this range kept, 0 deals to solve" in err


# --- numbers and flags -----------------------------------------------------------
@pytest.mark.parametrize("args, words", [
    (["0", "5", "--jobs", "3000000000"], "--jobs must be 1 … 256"),
    (["0", "5", "--jobs", "257"], "--jobs must be 1 … 256"),
    (["1" * 5000, "5"], "START 111111111111… (5,000 digits)"),
    (["0", "9" * 5000], "STOP 999999999999… (5,000 digits)"),
    (["--", "-" + "1" * 5000, "5"], "negative"),
    (["0", "5", "--no-optimal", "--scoring", "original"], "--scoring original needs optimal"),
    (["0", "5", "--no-optimal", "--scoring", "cards-left"], "--no-optimal"),
    (["0", "5", "--engine", "dask", "--scheduler", "tcp://127.0.0.1:1", "--jobs", "2"],
     "drop --jobs"),
    (["0", "5", "--csv", "-", "--json"], "standard output"),
    (["0", "5", "--csv", "-", "--resume"], "cannot be continued"),
    (["0", "5", "--force"], "--force overwrites the --csv or --plot file"),
    (["0", "5", "--csv", "-", "--force"], "--force overwrites"),
    (["0", "5", "--engine", "dask", "--scheduler", ""], "address"),
])
def test_absurd_numbers_and_ignored_flags_are_refused(capsys, args, words):
    code, out, err = run(capsys, "batch", *args)
    assert_one_line_error(code, err, words)
    assert out == ""


FAIL_FORK = """
import os
real, forks = os.fork, [0]
def fork():
    forks[0] += 1
    if forks[0] > 2:
        raise BlockingIOError(11, "Resource temporarily unavailable")
    return real()
os.fork = fork
"""
FAIL_THREAD = """
import os, threading
def no_thread(self):
    raise RuntimeError("can't start new thread")
os.register_at_fork(after_in_child=lambda: setattr(threading.Thread, "start", no_thread))
"""


# A stop signal that reaches a worker between its fork and its own handlers (as the
# pool's SIGTERM to the others when one fails may): it must not run the parent's handler
# there (a traceback on the shared stderr), only end the worker.
SIGTERM_AT_FORK = """
import os, signal
os.register_at_fork(after_in_child=lambda: os.kill(os.getpid(), signal.SIGTERM))
"""


@pytest.mark.parametrize("prelude", [
    pytest.param(FAIL_FORK, id="fork"),
    pytest.param(FAIL_THREAD, id="thread", marks=pytest.mark.slow),
    pytest.param(SIGTERM_AT_FORK, id="sigterm", marks=pytest.mark.slow),
])
def test_workers_that_cannot_start_are_one_line(tmp_path, prelude):
    """As under ``ulimit -u``: the fourth fork fails, or workers get no thread; or a
    stop signal reaches the workers as they start."""
    path = tmp_path / "never.csv"
    proc = spawn("batch", "0", "50", "--jobs", "6", "--csv", str(path), prelude=prelude)
    _, err = proc.communicate(timeout=60)  # no hang: the started workers are stopped
    assert_one_line_error(proc.returncode, err, "cannot start 6 worker processes",
                          "--jobs")
    assert not path.exists()


# --- standard input and output ----------------------------------------------------------
def test_csv_to_standard_output(tmp_path, capsys):
    ref = tmp_path / "ref.csv"
    assert run(capsys, "batch", "0", "6", "--jobs", "1", "--csv", str(ref))[0] == 0
    code, out, err = run(capsys, "batch", "0", "6", "--jobs", "1", "--csv", "-")
    assert code == 0, err
    timing = CSV_HEADER.index("seconds")

    def answers(text: str) -> list[list[str]]:
        return [line.split(",")[:timing] for line in text.splitlines()]

    assert answers(out) == answers(ref.read_text())  # stdout holds the CSV, nothing else
    assert "Wilson" in err and "Easy × Classic" in err  # the summary went to stderr
    assert not (tmp_path / "-").exists()


def test_layout_file_from_standard_input(tmp_path, capsys, monkeypatch):
    lines = "".join(Deal.from_number(n).line() + "\n" for n in (3, 4))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(lines.encode())))
    typed = tmp_path / "typed.csv"
    code, out, err = run(capsys, "batch", "--layout-file", "-", "--jobs", "1", "--csv",
                         str(typed))
    assert code == 0, err
    assert "Layouts of standard input (2 deals)" in out
    ref = tmp_path / "ref.csv"
    assert run(capsys, "batch", "3", "5", "--jobs", "1", "--csv", str(ref))[0] == 0
    got, want = read_existing(typed).rows, read_existing(ref).rows
    assert [r.answer() for r in got] == [r.answer() for r in want]
    assert [r.line for r in got] == [Deal.from_number(n).line() for n in (3, 3, 4, 4)]


def test_codes_of_written_rows_match_the_deals(tmp_path, capsys):
    path = tmp_path / "j.csv"
    assert run(capsys, "batch", "700", "703", "--jobs", "1", "--joker", "--rules", "classic",
               "--csv", str(path))[0] == 0
    codes = [r.code for r in read_existing(path).rows]
    assert codes == [str(GameCode(n, "classic", True)) for n in (700, 701, 702)]
    assert codes[0].startswith("TP1-CJ-")


def test_a_plot_behind_a_symbolic_link_is_written_through_it(tmp_path, capsys):
    target = tmp_path / "real.png"
    target.write_bytes(b"old")
    target.chmod(0o640)
    link = tmp_path / "plot.png"
    link.symlink_to(target.name)
    code, _, err = run(capsys, "batch", "0", "3", "--jobs", "1", "--plot", str(link),
                       "--force")
    assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == target.name
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plot.png", "real.png"]


def test_a_csv_name_that_is_a_dangling_symbolic_link(capsys, tmp_path):
    # Not "in use by another run": the link names no file, and O_EXCL will not make one.
    link = tmp_path / "rows.csv"
    link.symlink_to(tmp_path / "nowhere" / "x.csv")
    code, _, err = run(capsys, "batch", "0", "3", "--csv", str(link))
    assert_one_line_error(code, err, "symbolic link", "does not exist")
    assert link.is_symlink() and not link.exists()


def test_a_stop_before_the_first_row_says_the_new_file_was_not_kept(capsys, tmp_path,
                                                                     monkeypatch):
    def stopped(self, on_progress=None):
        raise KeyboardInterrupt

    monkeypatch.setattr(BatchRun, "run", stopped)
    path = tmp_path / "rows.csv"
    code, _, err = run(capsys, "batch", "0", "3", "--csv", str(path))
    assert code == 130, err
    assert "stopped before any row was finished" in err and "--resume" not in err
    assert not path.exists()


def test_plot_and_csv_that_are_one_file_by_two_names(capsys, tmp_path):
    rows = tmp_path / "rows.png"
    rows.write_text("kept\n")
    other = tmp_path / "plot.png"
    os.link(rows, other)  # a hard link: two names, one file
    code, _, err = run(capsys, "batch", "0", "3", "--csv", str(rows), "--plot", str(other),
                       "--force")
    assert_one_line_error(code, err, "--plot and --csv name the same file")
    assert rows.read_text() == "kept\n"


# A stop while the batch loads its modules (about 0.3–0.7 s in).
@pytest.mark.parametrize("where", ["_extras", "tqdm"])
def test_a_stop_while_the_modules_load_says_the_new_file_was_not_kept(capsys, tmp_path,
                                                                       monkeypatch, where):
    import builtins

    from tripeaks_solver.cli import batch as batch_cli

    if where == "_extras":
        def stopped(*args):
            raise KeyboardInterrupt
        monkeypatch.setattr(batch_cli, "_extras", stopped)
    else:  # the import in _run, after the checks and the spec
        real_import = builtins.__import__

        def importing(name, *args, **kw):
            if name == "tqdm":
                raise KeyboardInterrupt
            return real_import(name, *args, **kw)
        monkeypatch.setattr(builtins, "__import__", importing)
    path = tmp_path / "rows.csv"
    code, _, err = run(capsys, "batch", "0", "3", "--csv", str(path))
    assert code == 130, err
    assert f"stopped before any row was finished; {path} was not kept" in err
    assert not path.exists()


def test_a_real_stop_while_the_batch_loads(tmp_path):
    """SIGINT as soon as ``-X importtime`` reports the batch's extras module (loaded by
    the command, after its checks): the loads after it are under way when it lands.
    (Through the console entry point, as ``tripeaks-solve`` runs.)"""
    path = tmp_path / "rows.csv"
    console = "import sys\nfrom tripeaks_solver.console import main\nsys.exit(main())\n"
    proc = subprocess.Popen([sys.executable, "-X", "importtime", "-c", console, "batch", "0",
                             "300", "--jobs", "1", "--csv", str(path)], env=_env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    said = []
    for line in proc.stderr:
        if not line.startswith("import time:"):
            said.append(line)
        elif line.split("|")[-1].strip() == "tripeaks_solver.batch.extras":
            proc.send_signal(signal.SIGINT)
            break
    said += [line for line in proc.stderr if not line.startswith("import time:")]
    assert proc.wait(timeout=60) == 130, said
    assert f"tripeaks-solve: stopped before any row was finished; {path} was not kept\n" in said
    assert not path.exists()
