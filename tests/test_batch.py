"""The ``batch`` command and the batch package: rows, order, resume, summary, engines."""

from __future__ import annotations

import csv
import json
import math
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_run import run

from tripeaks_solver import CLASSIC, EASY, Deal
from tripeaks_solver.analysis.stats import wilson_interval
from tripeaks_solver.batch.csvfile import read_existing
from tripeaks_solver.batch.rows import CSV_HEADER, Row
from tripeaks_solver.batch.summary import Summary
from tripeaks_solver.cli import main
from tripeaks_solver.model.codes import DEAL_COUNT, parse_range
from tripeaks_solver.solver.solve import solve

DATA = Path(__file__).resolve().parent.parent / "data"
HEADER = "code,deal,rules,variant,scoring,winnable,min_draws,best_score,max_removed,states,seconds,line"
EXE = shutil.which("tripeaks-solve")


def batch(capsys, *args: str) -> tuple[int, str, str]:
    """Run ``tripeaks-solve batch ARGS`` through the real entry point, in this process."""
    return run(capsys, "batch", *args)


def read_rows(path: Path) -> list[list[str]]:
    """The CSV's data rows, each without the timing column."""
    with open(path, newline="") as f:
        lines = list(csv.reader(f))
    assert lines[0] == HEADER.split(",")
    timing = lines[0].index("seconds")
    return [line[:timing] + line[timing + 1:] for line in lines[1:]]


def expected_keys(deals: range, rules=("easy", "classic")) -> list[tuple[int, str]]:
    return [(n, r) for n in deals for r in rules]


@pytest.fixture(scope="module")
def full_40(tmp_path_factory) -> Path:
    """Deals 0-39, both rules, optimal, one job: the reference CSV."""
    path = tmp_path_factory.mktemp("full") / "full.csv"
    code = 0
    try:
        main(["batch", "0", "40", "--jobs", "1", "--csv", str(path), "--json"])
    except SystemExit as exc:
        code = exc.code
    assert code == 0
    return path


def test_csv_header_order_and_jobs_2_identical(full_40, tmp_path, capsys):
    ref = full_40
    assert ref.read_text().splitlines()[0] == HEADER
    rows = read_rows(ref)
    # Deal order, Easy before Classic, one row each.
    assert [(int(r[1]), r[2]) for r in rows] == expected_keys(range(40))
    assert [r[0] for r in rows[:4]] == ["TP1-E-AAAAAAA", "TP1-C-AAAAAAA",
                                        "TP1-E-AAAAAAB", "TP1-C-AAAAAAB"]
    par = tmp_path / "par.csv"
    code, _, err = batch(capsys, "0", "40", "--jobs", "2", "--csv", str(par))
    assert code == 0, err
    assert read_rows(par) == rows  # every column but seconds, in the same order


def test_rows_are_the_solver_answers(full_40):
    rows = {(int(r[1]), r[2]): r for r in read_rows(full_40)}
    lost = 0
    for n in (0, 3, 8, 15, 16, 39):
        deal = Deal.from_number(n)
        for rules in (EASY, CLASSIC):
            sol = solve(deal, rules, optimal=True)
            r = rows[n, rules.name]
            assert r[5] == ("true" if sol.winnable else "false")
            assert r[6] == ("" if sol.min_draws is None else str(sol.min_draws))
            assert r[7] == str(sol.best_score)
            assert r[8] == str(sol.max_removed)
            lost += not sol.winnable
    assert lost > 0  # the sample covers a lost deal, whose min_draws is empty


def test_no_optimal_leaves_scores_empty(full_40, tmp_path, capsys):
    path = tmp_path / "fast.csv"
    code, _, err = batch(capsys, "0", "40", "--no-optimal", "--jobs", "2", "--csv", str(path))
    assert code == 0, err
    fast = read_rows(path)
    full = read_rows(full_40)
    assert [r[:6] for r in fast] == [r[:6] for r in full]  # same codes, same verdicts
    assert all(r[6] == "" and r[7] == "" for r in fast)


def test_summary_matches_the_rows(full_40, capsys):
    code, out, err = batch(capsys, "0", "40", "--jobs", "2", "--json")
    assert code == 0, err
    s = json.loads(out)
    rows = read_rows(full_40)
    assert (s["start"], s["stop"], s["deals"], s["optimal"]) == (0, 40, 40, True)
    won = {}
    for name in ("easy", "classic"):
        mine = [r for r in rows if r[2] == name]
        wins = [r for r in mine if r[5] == "true"]
        t = s["rules"][name]
        assert t["deals"] == len(mine) == 40
        assert t["wins"] == len(wins)
        assert t["win_rate"] == pytest.approx(len(wins) / 40)
        assert t["win_rate_95"] == pytest.approx(list(wilson_interval(len(wins), 40)), abs=1e-6)
        scores = [int(r[7]) for r in wins]
        assert t["best_score_mean"] == pytest.approx(statistics.mean(scores), abs=1e-4)
        assert t["best_score_median"] == statistics.median(scores)
        draws = {}
        for r in wins:
            draws[r[6]] = draws.get(r[6], 0) + 1
            assert int(r[7]) == 772 - int(r[6])
        assert t["min_draws"] == dict(sorted(draws.items(), key=lambda kv: int(kv[0])))
        won[name] = {int(r[1]) for r in wins}
    cross = s["cross"]
    assert cross["both"] == len(won["easy"] & won["classic"])
    assert cross["easy_only"] == len(won["easy"] - won["classic"])
    assert cross["classic_only"] == len(won["classic"] - won["easy"]) == 0
    assert cross["neither"] == 40 - len(won["easy"] | won["classic"])
    assert cross["easy_only"] > 0  # the range has deals only Easy wins: the table is not trivial
    assert sum(cross[k] for k in ("both", "easy_only", "classic_only", "neither")) == 40


def test_text_summary(capsys):
    code, out, err = batch(capsys, "0", "12", "--jobs", "1", "--rules", "classic")
    assert code == 0, err
    assert "Classic" in out and "Easy" not in out  # no cross table with one rule set
    assert "Wilson" in out and "fewest draws" in out
    assert err == ""  # no progress bar when stderr is not a terminal


def test_progress_bar_on_request(capsys):
    code, _, err = batch(capsys, "0", "6", "--jobs", "1", "--progress")
    assert code == 0
    assert "deal/s" in err and "6/6" in err


def test_wilson_interval_by_hand():
    # 8 wins in 10: the textbook Wilson 95% interval (z = 1.96) is 0.4902 … 0.9433.
    lo, hi = wilson_interval(8, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.4902, 0.9433)
    # The interval is the set of x with (p - x)^2 <= z^2 x (1 - x) / n: the quadratic's roots.
    z = 1.959963984540054
    for wins, n in ((0, 7), (3, 7), (7, 7), (812, 1000), (1, 100000)):
        p = wins / n
        a, b, c = 1 + z * z / n, -(2 * p + z * z / n), p * p
        d = math.sqrt(b * b - 4 * a * c)
        lo, hi = wilson_interval(wins, n)
        assert lo == pytest.approx((-b - d) / (2 * a), abs=1e-12)
        assert hi == pytest.approx((-b + d) / (2 * a), abs=1e-12)
        assert 0 <= lo <= p <= hi <= 1
    with pytest.raises(ValueError, match="no interval"):  # no trials: no share to bound
        wilson_interval(0, 0)


def test_deal_ids_as_bounds():
    assert parse_range("AAAAAAA", "AAAAABA") == range(26)
    assert parse_range("aaaaaab", "12") == range(1, 12)
    assert parse_range("TP1-C-AAAAAAC", "5") == range(2, 5)
    assert parse_range("0", str(DEAL_COUNT)) == range(DEAL_COUNT)


@pytest.mark.parametrize("cut", [
    "torn_header", "mid_row", "torn_last",
    *(pytest.param(c, marks=pytest.mark.slow) for c in ("header", "between_rules", "complete")),
])
def test_resume_after_truncation(full_40, tmp_path, capsys, cut):
    ref = full_40
    data = ref.read_bytes()
    starts = [i + 1 for i, b in enumerate(data) if b == ord("\n")]  # where each line starts
    cut_at = {
        "torn_header": 10,
        "header": starts[0],
        "mid_row": starts[7] + 9,  # 7 rows kept, the 8th torn
        "between_rules": starts[11],  # deal 5 has its Easy row, not its Classic one
        "torn_last": len(data) - 5,  # every row but the last, and that one torn
        "complete": len(data),
    }[cut]
    path = tmp_path / "part.csv"
    path.write_bytes(data[:cut_at])
    code, out, err = batch(capsys, "0", "40", "--jobs", "2", "--csv", str(path), "--resume",
                           "--json")
    assert code == 0, err
    assert read_rows(path) == read_rows(ref)  # the same rows, once each, in order
    text = path.read_text()
    assert text.count(HEADER) == 1 and text.endswith("\n")
    ref_summary = json.loads(batch(capsys, "0", "40", "--jobs", "1", "--json")[1])
    assert json.loads(out) == ref_summary  # the summary covers the whole range
    if cut in ("torn_header", "mid_row", "torn_last"):
        assert "torn" in err


def test_resume_other_rules_and_wider_range(full_40, tmp_path, capsys):
    # Easy rows of 0-19 exist; resume asks for both rules over 0-39.
    path = tmp_path / "easy.csv"
    assert batch(capsys, "0", "20", "--rules", "easy", "--jobs", "1", "--csv", str(path))[0] == 0
    code, out, err = batch(capsys, "0", "40", "--csv", str(path), "--resume", "--json",
                           "--jobs", "2")
    assert code == 0, err
    # Classic's rows of 0-19 were solved without their Easy rows, so without Easy's
    # bound on the search: the same answers, maybe more states (README).
    states = HEADER.split(",").index("states")
    got = [r[:states] + r[states + 1:] for r in read_rows(path)]
    ref = [r[:states] + r[states + 1:] for r in read_rows(full_40)]
    assert sorted(got) == sorted(ref) and len(got) == len(ref) == 80
    assert got[:20] == [r for r in ref if r[2] == "easy"][:20]  # kept rows stay first
    s = json.loads(out)
    assert s["rules"]["easy"]["deals"] == s["rules"]["classic"]["deals"] == 40
    assert s["cross"]["deals"] == 40


@pytest.mark.slow
def test_kill_and_interrupt_then_resume(tmp_path, capsys):
    """A real run stopped by Ctrl-C, then by kill -9, then resumed, equals one full run."""
    if EXE is None or not Path("/proc").is_dir():
        pytest.skip("needs the tripeaks-solve script and /proc")
    n = 1500
    args = ["batch", "0", str(n), "--no-optimal", "--rules", "both", "--jobs", "2"]
    path = tmp_path / "run.csv"

    def lines() -> int:
        return path.read_bytes().count(b"\n") if path.exists() else 0

    def start(*extra: str) -> subprocess.Popen:
        """Start a run; return once it has written 300 new rows (but not all)."""
        before = lines()
        proc = subprocess.Popen([EXE, *args, "--csv", str(path), *extra],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 30
        while time.time() < deadline and proc.poll() is None:
            if lines() > before + 300:
                return proc
            time.sleep(0.01)
        proc.kill()
        pytest.fail(f"the run wrote too few rows or ended: {proc.communicate()[1]}")

    proc = start()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "--resume" in err
    first = read_rows(path)
    assert 300 <= len(first) < 2 * n  # stopped part way, whole rows only

    proc = start("--resume")
    workers = [int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit()
               and _ppid(p) == proc.pid]
    os.kill(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=30)
    second = path.read_bytes()
    kept = second[: second.rfind(b"\n") + 1]
    for line in kept.decode().splitlines()[1:]:
        Row.from_csv_fields(line.split(","))  # every complete line is a valid row
    assert len(first) < len(read_rows_bytes(kept)) < 2 * n
    # The killed run's workers notice their parent is gone and exit.
    deadline = time.time() + 10
    while any(_alive(w) for w in workers):
        assert time.time() < deadline, "orphaned worker processes"
        time.sleep(0.1)

    code, _, err = batch(capsys, *args[1:], "--csv", str(path), "--resume")
    assert code == 0, err
    ref = tmp_path / "ref.csv"
    assert batch(capsys, *args[1:], "--csv", str(ref))[0] == 0
    got = read_rows(path)
    assert len(got) == len({tuple(r[:3]) for r in got}) == 2 * n
    assert got == read_rows(ref)


def _ppid(proc_dir: Path) -> int:
    try:
        stat = (proc_dir / "stat").read_text()
    except OSError:
        return 0
    return int(stat.rsplit(")", 1)[1].split()[1])


def _alive(pid: int) -> bool:
    """Is ``pid`` running (not gone, not a zombie waiting to be reaped)?"""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def read_rows_bytes(data: bytes) -> list[str]:
    return data.decode().splitlines()[1:]


def test_refuses_to_overwrite(tmp_path, capsys):
    path = tmp_path / "mine.csv"
    path.write_text("precious\n")
    code, out, err = batch(capsys, "0", "3", "--csv", str(path))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "--resume" in err and "--force" in err
    assert path.read_text() == "precious\n"
    # Not our CSV: resume refuses too, leaving it alone.
    code, _, err = batch(capsys, "0", "3", "--csv", str(path), "--resume")
    assert code == 2 and err.count("\n") == 1 and "header" in err
    assert path.read_text() == "precious\n"
    code, _, err = batch(capsys, "0", "3", "--csv", str(path), "--force", "--jobs", "1")
    assert code == 0, err
    assert len(read_rows(path)) == 6


def test_resume_refuses_other_mode_and_duplicates(tmp_path, capsys):
    path = tmp_path / "fast.csv"
    assert batch(capsys, "0", "4", "--no-optimal", "--jobs", "1", "--csv", str(path))[0] == 0
    before = path.read_bytes()
    code, _, err = batch(capsys, "0", "8", "--csv", str(path), "--resume")
    assert code == 2 and err.count("\n") == 1 and "--no-optimal" in err
    assert path.read_bytes() == before
    lines = before.decode().splitlines(keepends=True)
    path.write_text("".join(lines + lines[1:2]))  # a row twice
    code, _, err = batch(capsys, "0", "8", "--no-optimal", "--csv", str(path), "--resume")
    assert code == 2 and err.count("\n") == 1 and "twice" in err


def test_read_existing_keeps_complete_rows(tmp_path):
    path = tmp_path / "x.csv"
    path.write_text(HEADER + "\nTP1-E-AAAAAAB,1,easy,,app,true,13,759,28,35794,0.004397,\nTP1-C-AA")
    found = read_existing(path)
    assert [r.code for r in found.rows] == ["TP1-E-AAAAAAB"]
    assert found.torn and found.keep_bytes == len(path.read_bytes()) - len("TP1-C-AA")
    path.write_text(HEADER + "\nTP1-E-AAAAAAC,1,easy,,app,true,13,759,28,35794,0.004397,\n")
    with pytest.raises(ValueError, match="line 2"):  # the code does not match the deal
        read_existing(path)


@pytest.mark.parametrize("args, words", [
    (["5", "5"], "greater than START"),
    (["10", "5"], "greater than START"),
    (["--", "-1", "5"], "negative"),
    (["AAAAAA1", "AAAAAAC"], "deal id"),
    (["AAAA", "9"], "deal id"),
    (["0", str(DEAL_COUNT + 1)], "beyond"),
    ([str(DEAL_COUNT), str(DEAL_COUNT + 1)], "beyond"),
    (["0", "5", "--csv", "/nonexistent-dir/x.csv"], "does not exist"),
    (["0", "5", "--resume"], "--csv"),
    (["0", "5", "--plot", "x.jpg"], ".png"),
    (["0", "5", "--plot", "x.png", "--no-optimal"], "--no-optimal"),
    (["0", "5", "--scheduler", "tcp://127.0.0.1:1"], "--engine dask"),
    (["0", "5", "--jobs", "0"], "--jobs"),
    (["0", "5", "--rules", "hard"], "--rules"),
])
def test_bad_input_is_one_line_and_exit_2(args, words, capsys):
    code, out, err = batch(capsys, *args)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("tripeaks-solve: error:"), err
    assert words in err


def test_bad_input_through_the_script(tmp_path):
    if EXE is None:
        pytest.skip("tripeaks-solve is not on PATH")
    res = subprocess.run([EXE, "batch", "0", "5", "--csv", str(tmp_path)], check=False,
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.count("\n") == 1 and "directory" in res.stderr


def test_plot(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    png = tmp_path / "scores.png"
    code, _, err = batch(capsys, "0", "30", "--jobs", "1", "--plot", str(png))
    assert code == 0, err
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000
    # An existing picture is replaced only with --force.
    png.write_bytes(b"mine")
    code, _, err = batch(capsys, "0", "5", "--jobs", "1", "--plot", str(png))
    assert code == 2 and err.count("\n") == 1 and "--force" in err
    assert png.read_bytes() == b"mine"
    code, _, err = batch(capsys, "0", "5", "--jobs", "1", "--plot", str(png), "--force")
    assert code == 0, err
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    code, _, err = batch(capsys, "0", "5", "--plot", str(tmp_path / "a.png"), "--csv",
                         str(tmp_path / "a.png"))
    assert code == 2 and "same file" in err


def test_reference_data_sample():
    """Re-solve 200 random rows of data/ and check the summary file against the CSV."""
    path = DATA / "deals-0-9999.csv"
    with open(path, newline="") as f:
        lines = list(csv.reader(f))
    assert lines[0] == list(CSV_HEADER)
    rows = [Row.from_csv_fields(line) for line in lines[1:]]
    assert [r.key for r in rows] == expected_keys(range(10000))
    for row in random.Random(20240607).sample(rows, 200):
        sol = solve(Deal.from_number(row.deal), EASY if row.rules == "easy" else CLASSIC)
        assert Row.from_solution(row.deal, sol).answer() == row.answer(), row.code
    summary = Summary(range(10000), ("easy", "classic"), True)
    for row in rows:
        summary.add(row)
    summary.check_complete()
    # The file is batch's --json output: the summary and batch's layout_file (null).
    stored = json.loads((DATA / "summary-0-9999.json").read_text())
    assert stored == summary.as_dict() | {"layout_file": None}


# --- Dask (last: its threads stay around in this process) ------------------------------
def test_dask_missing_says_how_to_install(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    code, _, err = batch(capsys, "0", "5", "--engine", "dask")
    assert code == 2 and err.count("\n") == 1
    # From the clone: the package is not published, so no bare `pip install tripeaks-solver`.
    assert "pip install -e '.[dask]'" in err and "tripeaks-solver[" not in err


def test_dask_engine_equals_local(full_40, tmp_path, capsys):
    distributed = pytest.importorskip("dask.distributed")
    import logging

    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None, silence_logs=logging.ERROR) as cluster:
        path = tmp_path / "dask.csv"
        code, out, err = batch(capsys, "0", "40", "--engine", "dask", "--scheduler",
                               cluster.scheduler_address, "--csv", str(path), "--json")
    assert code == 0, err
    assert read_rows(path) == read_rows(full_40)
    ref = json.loads(batch(capsys, "0", "40", "--jobs", "1", "--json")[1])
    assert json.loads(out) == ref


@pytest.mark.slow
def test_dask_local_cluster(full_40, tmp_path, capsys):
    pytest.importorskip("dask.distributed")
    path = tmp_path / "dask.csv"
    code, _, err = batch(capsys, "0", "6", "--engine", "dask", "--jobs", "1", "--csv", str(path))
    assert code == 0, err
    assert read_rows(path) == read_rows(full_40)[:12]


def test_dask_bad_scheduler_address_touches_nothing(tmp_path, capsys):
    pytest.importorskip("dask.distributed")
    path = tmp_path / "never.csv"
    code, out, err = batch(capsys, "0", "5", "--engine", "dask", "--scheduler", "nowhere",
                           "--csv", str(path))
    assert code == 2 and out == "" and err.count("\n") == 1 and "scheduler" in err
    assert not path.exists()
