"""``tripeaks-solve report``: the summary and plot of an existing batch CSV; the plot's
layout (won and lost deals on their own scales, rule sets on shared axes)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from cli_run import assert_one_line_error, run

from tripeaks_solver.batch.csvfile import read_existing
from tripeaks_solver.batch.rows import CSV_HEADER, Row
from tripeaks_solver.batch.summary import Summary
from tripeaks_solver.model.scoring import WIN_BASE_SCORE

DATA = Path(__file__).resolve().parent.parent / "data"
HEADER = ",".join(CSV_HEADER)
REPORT_KEYS = {"kind", "csv", "rows", "complete", "torn", "typed"}


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> Path:
    """Deals 0-19 under both rules, optimal: the CSV."""
    path = tmp_path_factory.mktemp("report") / "deals.csv"
    from tripeaks_solver.cli import main

    try:
        main(["batch", "0", "20", "--jobs", "1", "--csv", str(path), "--json"])
    except SystemExit as exc:
        assert exc.code == 0
    return path


def _batch_summary(capsys, *args: str) -> dict:
    code, out, err = run(capsys, "batch", *args, "--json")
    assert code == 0, err
    return json.loads(out)


def test_report_is_the_batch_summary(made, capsys):
    path = made
    want = _batch_summary(capsys, "0", "20", "--jobs", "1")
    code, out, err = run(capsys, "report", str(path), "--json")
    assert code == 0, err
    got = json.loads(out)
    assert {k: v for k, v in got.items() if k not in REPORT_KEYS} == want
    assert (got["kind"], got["csv"], got["rows"], got["complete"], got["torn"],
            got["typed"]) == ("report", str(path), 40, True, False, False)
    code, text, err = run(capsys, "report", str(path))
    assert code == 0, err
    assert f"{path}: 40 rows; deals 0 … 19 (20 deals)" in text
    assert "Wilson" in text and "Easy × Classic" in text and "incomplete" not in text


def test_report_of_the_reference_data():
    """The report of data/ is the summary stored beside it."""
    from tripeaks_solver.batch.report import read_report

    report = read_report(DATA / "deals-0-9999.csv")
    assert report.rows == 20_000 and report.complete
    stored = json.loads((DATA / "summary-0-9999.json").read_text())
    assert report.summary.as_dict() | {"layout_file": None} == stored


def test_report_of_a_stopped_run(made, tmp_path, capsys):
    path = made
    data = path.read_bytes()
    cut = tmp_path / "cut.csv"
    cut.write_bytes(data[: data.index(b"TP1-C-AAAAAAK")])  # deal 10 has its Easy row only
    code, out, err = run(capsys, "report", str(cut), "--json")
    assert code == 0, err
    got = json.loads(out)
    assert (got["rows"], got["complete"], got["torn"]) == (21, False, False)
    assert (got["start"], got["stop"]) == (0, 11)
    assert got["rules"]["easy"]["deals"] == 11 and got["rules"]["classic"]["deals"] == 10
    assert got["cross"]["deals"] == 10  # deal 10 is not paired
    cut.write_bytes(data[: data.index(b"TP1-C-AAAAAAK") + 5])
    code, text, err = run(capsys, "report", str(cut))
    assert code == 0, err
    assert "incomplete: 1 (deal, rules) pair of this range has no row" in text and "torn last line" in text


def test_report_plot(made, tmp_path, capsys):
    pytest.importorskip("matplotlib")
    path = made
    png = tmp_path / "r.png"
    code, _, err = run(capsys, "report", str(path), "--plot", str(png))
    assert code == 0, err
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    code, _, err = run(capsys, "report", str(path), "--plot", str(png))
    assert_one_line_error(code, err, "already exists", "--force")
    code, _, err = run(capsys, "report", str(path), "--plot", str(png), "--force")
    assert code == 0, err


@pytest.mark.parametrize("body, words", [
    ("precious\n", "header"),
    (None, "No such file"),
    (HEADER + "\n", "holds no rows"),
    (HEADER + "\n" + Row(1, "easy", True, 13, 759, 28, 9, 0.1).csv_line()
     + Row(2, "easy", True, None, None, 28, 9, 0.1).csv_line(), "line 3 was solved with other"),
    (HEADER + "\n" + Row(1, "easy", True, 13, 759, 28, 9, 0.1).csv_line() * 2, "twice"),
    (HEADER + "\n" + "TP1-E-AAAAAAB,1,easy,,app,true,13,760,28,9,0.1,\n", "line 2"),
])
def test_report_refusals_are_one_line(tmp_path, capsys, body, words):
    path = tmp_path / "x.csv"
    if body is not None:
        path.write_text(body)
    code, out, err = run(capsys, "report", str(path))
    assert_one_line_error(code, err, words)
    assert out == "" and "--resume" not in err and "resuming" not in err


def test_report_plot_needs_optimal_rows(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    path = tmp_path / "fast.csv"
    assert run(capsys, "batch", "0", "4", "--no-optimal", "--jobs", "1", "--csv",
               str(path))[0] == 0
    png = tmp_path / "p.png"
    code, _, err = run(capsys, "report", str(path), "--plot", str(png))
    assert_one_line_error(code, err, "no best scores")
    assert "resume" not in err and not png.exists()


def test_plot_hint_says_install_from_the_clone(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    code, _, err = run(capsys, "report", str(tmp_path / "x.csv"), "--plot",
                       str(tmp_path / "p.png"))
    assert_one_line_error(code, err, "pip install -e '.[plot]'")
    assert "tripeaks-solver[" not in err


# --- the plot's layout -----------------------------------------------------------------
def _data_summary() -> Summary:
    rows = read_existing(DATA / "deals-0-9999.csv").rows
    summary = Summary(range(10_000), ("easy", "classic"), True)
    for row in rows:
        summary.add(row)
    return summary


def test_plot_won_and_lost_on_their_own_scales():
    pytest.importorskip("matplotlib")
    from tripeaks_solver.batch.plots import figure

    fig = figure(_data_summary())
    axes = fig.axes
    assert len(axes) == 4  # Easy won, Easy lost, Classic won, Classic lost
    (easy_won, easy_lost, classic_won, classic_lost) = axes
    # Won deals scored 749-772: their axis spans those scores, not the lost ones.
    lo, hi = easy_won.get_xlim()
    assert WIN_BASE_SCORE - 24 <= lo < WIN_BASE_SCORE - 22 and WIN_BASE_SCORE < hi < 775
    assert easy_lost.get_xlim()[1] < WIN_BASE_SCORE - 23  # lost deals score at most 700
    # Easy and Classic on the same axes, panel by panel.
    assert easy_won.get_xlim() == classic_won.get_xlim()
    assert easy_won.get_ylim() == classic_won.get_ylim()
    assert easy_lost.get_xlim() == classic_lost.get_xlim()
    assert easy_lost.get_ylim() == classic_lost.get_ylim()
    title = fig.get_suptitle()
    for words in ("deals 0 … 9,999", "Easy and Classic", "variant none", "app scoring"):
        assert words in title
    assert "9,708 of 10,000 deals won" in easy_won.get_title()


def test_plot_counts_are_whole_numbers():
    pytest.importorskip("matplotlib")
    from tripeaks_solver.batch.plots import figure

    summary = Summary(range(3), ("classic",), True, "joker", "cards-left")
    summary.add(Row(0, "classic", True, 5, 0, 28, 9, 0.1, "joker", "cards-left"))
    summary.add(Row(1, "classic", False, None, 3, 25, 9, 0.1, "joker", "cards-left"))
    summary.add(Row(2, "classic", False, None, 3, 25, 9, 0.1, "joker", "cards-left"))
    fig = figure(summary)
    fig.canvas.draw()
    for ax in fig.axes:
        assert all(float(t).is_integer() for t in ax.get_yticks()), ax.get_yticks()
    won, lost = fig.axes
    assert won.get_xlabel() == "fewest draws" and lost.get_xlabel() == "fewest cards left"
    assert "variant joker, cards-left scoring" in fig.get_suptitle()
    heights = sorted(p.get_height() for p in lost.patches)
    assert heights == [2]  # both lost deals left 3 cards


# report refuses what batch --resume refuses, row by row.
@pytest.fixture(scope="module")
def typed(tmp_path_factory) -> tuple[Path, Path]:
    from tripeaks_solver.cli import main
    from tripeaks_solver.model.dealing import Deal

    where = tmp_path_factory.mktemp("typed")
    layouts = where / "layouts.txt"
    layouts.write_text("".join(Deal.from_number(n).line() + "\n" for n in (7, 8)))
    csv = where / "rows.csv"
    try:
        main(["batch", "--layout-file", str(layouts), "--jobs", "1", "--csv", str(csv)])
    except SystemExit as exc:
        assert exc.code in (0, None)
    return layouts, csv


def _with_line(lines: list[str], at: int, cards: str) -> list[str]:
    fields = lines[at].rstrip("\n").split(",")
    fields[CSV_HEADER.index("line")] = cards
    return lines[:at] + [",".join(fields) + "\n"] + lines[at + 1:]


@pytest.mark.parametrize(("cards", "needle"), [
    ("hello world", "line is not a deal"),
    ("7d  9c", "line is not a deal"),
    ("lower", "not a batch row"),  # the deal's own cards, in lower case: not as written
    ("other", "other cards"),  # layout 0's rows disagree on its cards
])
def test_report_refuses_a_line_resume_refuses(typed, capsys, tmp_path, cards, needle):
    layouts, csv = typed
    lines = csv.read_text().splitlines(keepends=True)
    line_of = lines[1].rstrip("\n").split(",")[CSV_HEADER.index("line")]
    if cards == "lower":
        cards = line_of.lower()
    elif cards == "other":
        cards = lines[3].rstrip("\n").split(",")[CSV_HEADER.index("line")]
    bad = tmp_path / "bad.csv"
    bad.write_text("".join(_with_line(lines, 1, cards)))
    before = bad.read_bytes()
    code, _, err = run(capsys, "batch", "--layout-file", str(layouts), "--jobs", "1",
                       "--csv", str(bad), "--resume")
    assert_one_line_error(code, err, str(bad))  # resume refuses it...
    assert bad.read_bytes() == before
    code, out, err = run(capsys, "report", str(bad))
    assert_one_line_error(code, err, str(bad), needle)  # ...and so does report
    assert out == ""
    assert run(capsys, "report", str(csv))[0] == 0  # the file as batch wrote it is fine
