"""Standard input and input files of ``solve``: ``-`` reads codes or layouts from
standard input; a --layout-file that is not a regular file, or holds an endless line, is
refused in one line instead of hanging or filling memory."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_run import assert_one_line_error, run

import tripeaks_solver
from tripeaks_solver import Deal
from tripeaks_solver.cli.common import MAX_LINE

ROOT = Path(tripeaks_solver.__file__).resolve().parents[1]


@pytest.fixture
def stdin(monkeypatch):
    """Give the command these bytes as standard input."""
    def feed(data: bytes | str) -> None:
        raw = data.encode() if isinstance(data, str) else data
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8"))
    return feed


def answers(out: str) -> list[tuple]:
    return [(r["code"], r["rules"], r["winnable"], r["best_score"]) for r in json.loads(out)]


# --- codes on standard input -------------------------------------------------------------


def test_codes_from_standard_input(capsys, stdin):
    stdin("TP1-E-AAAAAAD\n# a comment\n\n  tp1-c-aaaaaai   TP1-E-AAAAAAB # two more\n")
    code, out, err = run(capsys, "-", "--json", "--no-solution")
    assert code == 0, err
    rows = json.loads(out)
    assert [(r["source"], r["code"], r["rules"]) for r in rows] == [
        ("standard input:1", "TP1-E-AAAAAAD", "easy"),
        ("standard input:1", "TP1-E-AAAAAAD", "classic"),
        ("standard input:4", "TP1-C-AAAAAAI", "easy"),
        ("standard input:4", "TP1-C-AAAAAAI", "classic"),
        ("standard input:4", "TP1-E-AAAAAAB", "easy"),
        ("standard input:4", "TP1-E-AAAAAAB", "classic"),
    ]
    code, by_args, err = run(capsys, "TP1-E-AAAAAAD", "TP1-C-AAAAAAI", "TP1-E-AAAAAAB",
                             "--json", "--no-solution")
    assert code == 0, err
    assert answers(out) == answers(by_args)


def test_codes_from_standard_input_with_codes_given(capsys, stdin):
    stdin("TP1-C-AAAAAAI\r\n")  # Windows line ends
    code, out, err = run(capsys, "TP1-E-AAAAAAD", "-", "--rules", "code", "--json")
    assert code == 0, err
    assert [(r["code"], r["rules"]) for r in json.loads(out)] == [("TP1-E-AAAAAAD", "easy"),
                                                                 ("TP1-C-AAAAAAI", "classic")]


def test_a_bad_code_on_standard_input_names_its_line(capsys, stdin):
    stdin("TP1-E-AAAAAAD\n\nTP1-E-AAAAAAD batc\n")
    code, out, err = run(capsys, "-")
    assert_one_line_error(code, err, "standard input, line 3", "'batc'")
    assert out == ""


@pytest.mark.parametrize("data", ["", "\n\n# only a comment\n"])
def test_empty_standard_input(capsys, stdin, data):
    stdin(data)
    code, out, err = run(capsys, "-")
    assert_one_line_error(code, err, "no game code nor layout")
    assert out == ""


def test_an_endless_line_on_standard_input_is_refused(capsys, stdin):
    stdin("TP1-E-AAAAAAD " * 1000)  # 14,000 characters and no line end
    code, out, err = run(capsys, "-")
    assert_one_line_error(code, err, "standard input", "line 1", f"longer than {MAX_LINE:,} bytes")
    assert out == ""


def test_standard_input_read_once(capsys, stdin):
    stdin("TP1-E-AAAAAAD\n")
    for args in (["-", "-"], ["-", "--layout-file", "-"]):
        code, out, err = run(capsys, *args)
        assert_one_line_error(code, err, "standard input (-)")
        assert out == ""


def test_standard_input_not_utf8(capsys, stdin):
    stdin(b"TP1-E-AAAAAAD \xff\n")
    code, out, err = run(capsys, "-")
    assert_one_line_error(code, err, "standard input", "line 1", "UTF-8")
    assert out == ""


def test_codes_piped_into_the_command():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, "-m", "tripeaks_solver", "-", "--json", "--no-solution",
                        "--rules", "easy"], input="TP1-E-AAAAAAD\nTP1-E-AAAAAAI\n", env=env,
                       capture_output=True, text=True, timeout=300, check=False)
    assert r.returncode == 0 and r.stderr == ""
    assert [(x["code"], x["winnable"]) for x in json.loads(r.stdout)] == \
        [("TP1-E-AAAAAAD", True), ("TP1-E-AAAAAAI", True)]



@pytest.mark.parametrize("args", [["deal", "TP1-E-AAAAAAB"],
                                  pytest.param(["TP1-E-AAAAAAD", "--json"], marks=pytest.mark.slow),
                                  ["replay", "TP1-E-AAAAAAB", "Js", "Th", "d"]])
def test_output_onto_a_full_disk_is_one_line(args):
    # /dev/full refuses every write with "No space left on device", as a full disk
    # behind `> file` does.
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "tripeaks_solver", *args], stdout=full,
                           env=env, stderr=subprocess.PIPE, text=True, timeout=300, check=False)
    assert_one_line_error(r.returncode, r.stderr, "cannot write the output", "No space left")


def test_a_replaced_file_in_a_directory_that_refuses_new_files(capsys, tmp_path, monkeypatch):
    # The file is writable but its directory takes no new file (the temporary file a
    # replacement is written to first): one line, the old contents kept.
    from tripeaks_solver.games import files

    def refuse(*args, **kwargs):
        raise PermissionError(1, "Operation not permitted")

    old = tmp_path / "a.csv"
    old.write_text("old contents\n")
    monkeypatch.setattr(files.tempfile, "mkstemp", refuse)
    code, _, err = run(capsys, "analyze", "TP1-E-AAAAAAD", "8h", "--csv", str(old), "--force")
    assert_one_line_error(code, err, "cannot write the CSV", "Operation not permitted")
    assert old.read_text() == "old contents\n"

# --- --layout-file - and files that are not regular ----------------------------------------


def test_layout_file_from_standard_input(capsys, stdin, tmp_path):
    body = f"# two deals\n{Deal.from_number(7).line()}\n\n{Deal.from_number(8).line()}\n"
    stdin("\ufeff" + body)  # a BOM, as Windows editors write it
    code, out, err = run(capsys, "--layout-file", "-", "--json", "--no-solution")
    assert code == 0, err
    rows = json.loads(out)
    assert [(r["source"], r["rules"]) for r in rows] == [
        ("standard input:2", "easy"), ("standard input:2", "classic"),
        ("standard input:4", "easy"), ("standard input:4", "classic")]
    path = tmp_path / "deals.txt"
    path.write_text(body, encoding="utf-8")
    code, by_file, err = run(capsys, "--layout-file", str(path), "--json", "--no-solution")
    assert code == 0, err
    strip = [{k: v for k, v in r.items() if k not in ("source", "seconds")} for r in rows]
    assert strip == [{k: v for k, v in r.items() if k not in ("source", "seconds")}
                     for r in json.loads(by_file)]
    assert [r["source"] for r in json.loads(by_file)] == [f"{path}:{n}" for n in (2, 2, 4, 4)]


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null", "/dev/urandom"])
def test_a_device_is_not_a_layout_file(capsys, device):
    code, out, err = run(capsys, "--layout-file", device)
    assert_one_line_error(code, err, f"{device} is a device, not a regular file")
    assert out == ""


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "deals.fifo"
    os.mkfifo(fifo)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, "-m", "tripeaks_solver", "--layout-file", str(fifo)],
                       env=env, capture_output=True, text=True, timeout=120, check=False)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == (f"tripeaks-solve: error: {fifo} is a pipe, not a regular file "
                        "(give a file, or - for standard input)\n")


def test_a_directory_is_not_a_layout_file(capsys, tmp_path):
    code, out, err = run(capsys, "--layout-file", str(tmp_path))
    assert_one_line_error(code, err, str(tmp_path))
    assert out == ""


def test_an_endless_line_in_a_layout_file_is_refused(capsys, tmp_path):
    path = tmp_path / "one-line.txt"
    path.write_text(Deal.from_number(0).line() + "\n" + "Kc " * 100_000, encoding="utf-8")
    code, out, err = run(capsys, "--layout-file", str(path))
    assert_one_line_error(code, err, str(path), "line 2", f"is longer than {MAX_LINE:,}")
    assert out == ""


def test_the_longest_line_allowed_is_read(capsys, tmp_path):
    line = Deal.from_number(0).line()
    path = tmp_path / "padded.txt"
    path.write_text(line + " " * (MAX_LINE - len(line)) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "--layout-file", str(path), "--rules", "easy", "--json",
                         "--no-solution")
    assert code == 0, err
    assert json.loads(out)[0]["line"] == line
