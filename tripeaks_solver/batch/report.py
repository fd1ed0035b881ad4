"""The summary (and plot) of an existing batch CSV, without solving anything."""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from pathlib import Path

from ..model.rules import RULE_ORDER
from .csvfile import CsvReader
from .errors import BatchError
from .files import open_output, open_regular
from .plots import render_png
from .summary import Summary


@dataclass(frozen=True)
class Report:
    """What a batch CSV holds: the summary over its deals (the smallest range holding
    them, and the rule sets it has rows of), how many rows, whether every (deal, rules)
    pair of that range has one, whether a torn last line was left out, and whether its
    deals were typed in (``batch --layout-file``: then the deals are places in a file) or
    are PySolFC's games (``batch pysol:…``: places in their range)."""

    summary: Summary
    rows: int
    complete: bool
    torn: bool
    typed: bool
    pysol: bool = False


def _first_pass(path: Path) -> tuple[int, range, tuple[str, ...], tuple, bool]:
    """Rows, deal range, rule sets and settings of the file; every row checked."""
    rows, lo, hi, names = 0, None, None, set()
    settings = None
    with open_regular(path, "the CSV", "csv") as f:
        reader = CsvReader(f, str(path))
        for number, row in reader.rows():
            mine = (row.optimal, row.variant, row.scoring, bool(row.line), row.extras,
                    row.must_clear, bool(row.pysol))
            if settings is None:
                settings = mine
            elif mine != settings:
                raise BatchError(f"{path} line {number} was solved with other settings "
                                 "(optimal scores, variant, scoring, --must-clear, deals "
                                 "typed in or PySolFC's, difficulty, players or seed) than "
                                 "line 2: one report covers one kind of run", "mismatch", "csv")
            rows += 1
            lo = row.deal if lo is None else min(lo, row.deal)
            hi = row.deal if hi is None else max(hi, row.deal)
            names.add(row.rules)
    if settings is None or lo is None or hi is None:  # no rows
        raise BatchError(f"{path} holds no rows", "not-batch", "csv")
    return rows, range(lo, hi + 1), tuple(r for r in RULE_ORDER if r in names), settings, \
        reader.torn


def read_report(path: Path) -> Report:
    """Read the batch CSV at ``path`` (twice: its range first, then its counts)."""
    rows, deals, names, settings, torn = _first_pass(path)
    optimal, variant, scoring, typed, extras, must_clear, pysol = settings
    summary = Summary(deals, names, optimal, variant, scoring, extras, must_clear)
    cards: dict[int, int] = {}  # a deal typed in: a checksum of its cards
    with open_regular(path, "the CSV", "csv") as f:
        reader = CsvReader(f, str(path))
        for number, row in reader.rows():
            if number - 1 > rows:  # appended since the first pass: not in this report
                break
            if summary.has(*row.key):
                what = row.code or (f"PySolFC game {row.pysol} under {row.rules} rules"
                                    if row.pysol else f"layout {row.deal} under {row.rules} rules")
                raise BatchError(f"{path} holds {what} twice (line {number} repeats it)",
                                 "not-batch", "csv")
            # As a resume checks each row against the layout file: one layout, one deal.
            if row.line and cards.setdefault(row.deal, zlib.crc32(row.line.encode())) \
                    != zlib.crc32(row.line.encode()):
                raise BatchError(f"{path} line {number} holds layout {row.deal} with other "
                                 "cards than an earlier line", "not-batch", "csv")
            summary.add(row)
    return Report(summary, rows, summary.missing() == 0, torn, typed, pysol)


def report_csv(path: Path, plot_path: Path | None = None, replace_plot: bool = False,
               source: str | None = None) -> Report:
    """The report of ``path``; with ``plot_path``, its plot written there too (the plot
    file locked first, and an existing one replaced only with ``replace_plot``)."""
    if plot_path is None:
        return read_report(path)
    plot = open_output(plot_path, "the plot", "plot", replace_plot)
    try:
        report = read_report(path)
        if not report.summary.optimal:
            raise BatchError(f"{path} holds no best scores to plot (its rows were solved for "
                             "winnability only)", "mismatch", "csv")
        plot.replace_with(render_png(report.summary, source))
    finally:
        plot.close(discard=True)
    return report


__all__ = ["Report", "read_report", "report_csv"]
