"""``report``: the summary (and plot) of an existing batch CSV, without solving."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..batch.errors import BatchError
from .batch import advise, batch_text
from .common import check_plot_flag
from .group import cli


@cli.command("report", short_help="Summarise a batch CSV (and plot it), without solving.")
@click.argument("csv_path", metavar="CSV", type=click.Path(path_type=Path))
@click.option("--plot", "plot_path", type=click.Path(path_type=Path), default=None,
              help="Save histograms of the best scores of won and lost deals to this PNG.")
@click.option("--force", is_flag=True, help="Overwrite an existing --plot file.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def report_command(csv_path: Path, plot_path: Path | None, force: bool, as_json: bool) -> None:
    """Summarise the rows of CSV, a file written by `batch --csv`: win rates, best scores,
    fewest draws and the Easy × Classic table, as `batch` prints them.

    The range is the smallest holding the file's deals; a file cut short (a stopped
    run) is reported as it is, marked incomplete.
    """
    from ..batch.report import report_csv

    check_plot_flag(plot_path)
    if plot_path is not None and plot_path.resolve() == csv_path.resolve():
        raise click.UsageError("--plot and the CSV are the same file")
    try:
        report = report_csv(csv_path, plot_path, force)
    except BatchError as exc:
        raise advise(exc, resuming=False) from None
    s = report.summary
    result = {
        "kind": "report",
        "csv": str(csv_path),
        "rows": report.rows,
        "complete": report.complete,
        "torn": report.torn,
        "typed": report.typed,
        **s.as_dict(),
        "layout_file": None,  # batch's key: the report reads rows, not the layouts' file
        "pysol": None,  # batch's key: the range of PySolFC games it was given
    }
    if as_json:
        click.echo(json.dumps(result, indent=2))
        return
    what = ("PySolFC games at places" if report.pysol else "layouts" if report.typed
            else "deals")
    rows = f"{report.rows:,} row{'' if report.rows == 1 else 's'}"
    head = f"{csv_path}: {rows}; {what} {s.deals.start:,} … {s.deals.stop - 1:,}"
    text = batch_text(result, where=head)
    notes = []
    if not report.complete:
        missing = s.missing()
        pairs = "pair of this range has" if missing == 1 else "pairs of this range have"
        notes.append(f"incomplete: {missing:,} (deal, rules) {pairs} no row (batch --resume "
                     "finishes the run)")
    if report.torn:
        notes.append("a torn last line (a stopped run) was left out")
    click.echo(text + "".join(f"\n\nNote: {n}" for n in notes))
