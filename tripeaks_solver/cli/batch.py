"""``batch``: a range of deals (or a file of layouts) solved, summarised, written to CSV."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import click

from .common import complete_layouts, pick_rules, rule_options
from .group import cli


@cli.command("batch", short_help="Solve a range of deals: win rates, scores, CSV.")
@click.argument("start", required=False)
@click.argument("stop", required=False)
@click.option("--layout-file", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Solve the deals typed in this file (one per line, 52 cards in "
                   "`deal --format line` order) instead of a range of deal numbers.")
@click.option("--rules", "rule_choice", type=click.Choice(["both", "easy", "classic"]),
              default="both", show_default=True, help="Rule sets to solve every deal under.")
@click.option("--optimal/--no-optimal", default=True, show_default=True,
              help="Find best scores and fewest draws, or winnability only (faster).")
@click.option("--csv", "csv_path", type=click.Path(path_type=Path), default=None,
              help="Write one row per (deal, rules) to this CSV file.")
@click.option("--resume", is_flag=True,
              help="Continue the --csv file: keep its complete rows, solve and append the rest.")
@click.option("--force", is_flag=True,
              help="Overwrite an existing --csv file (unless --resume) and --plot file.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("--jobs", type=click.IntRange(min=1), default=None, metavar="N",
              help="Worker processes (local engine) or local Dask workers [default: all cores].")
@click.option("--engine", type=click.Choice(["local", "dask"]), default="local",
              show_default=True, help="Run chunks in local processes or on a Dask cluster.")
@click.option("--scheduler", metavar="ADDRESS", default=None,
              help="Dask scheduler, e.g. tcp://host:8786 (default: start a local cluster).")
@click.option("--plot", "plot_path", type=click.Path(path_type=Path), default=None,
              help="Save histograms of best scores and fewest draws to this PNG.")
@click.option("--progress/--no-progress", default=None,
              help="Show a progress bar on stderr [default: when stderr is a terminal].")
@rule_options()
def batch_command(start: str | None, stop: str | None, layout_file: Path | None,
                  rule_choice: str, optimal: bool, csv_path: Path | None,
                  resume: bool, force: bool, as_json: bool, jobs: int | None, engine: str,
                  scheduler: str | None, plot_path: Path | None, progress: bool | None,
                  scoring: str, **opts) -> None:
    """Solve deals START … STOP-1 and summarise: win rates, best scores, draws.

    START and STOP are deal numbers or 7-letter deal ids (AAAAAAA is deal 0); the
    range is half-open. Rows come in deal order, Easy before Classic, whatever --jobs.
    With --layout-file the deals are those typed in the file, in its order.
    """
    import signal
    import threading

    from tqdm import tqdm

    from ..analysis import BatchRun, BatchSpec, default_jobs, parse_range

    rule_sets = pick_rules(rule_choice, None, opts)
    names = tuple(r.name for r in rule_sets)
    layouts = None
    if layout_file is not None:
        if start is not None:
            raise click.UsageError("give START STOP or --layout-file, not both")
        layouts = complete_layouts(layout_file)
        deals = range(len(layouts))
    elif start is None or stop is None:
        raise click.UsageError("give START and STOP (deal numbers or ids), or --layout-file")
    else:
        deals = parse_range(start, stop)
    spec = BatchSpec(deals, names, optimal, csv_path, resume, force, jobs or default_jobs(),
                     engine, scheduler, plot_path, rule_sets[0], scoring, layouts)
    show = sys.stderr.isatty() if progress is None else progress
    tqdm.monitor_interval = 0  # no monitor thread: worker processes are forked after this

    def terminate(signum, frame):  # a plain kill: stop like Ctrl-C, leaving complete rows
        raise SystemExit(128 + signum)

    with BatchRun(spec) as batch:
        if resume and (batch.kept or batch.torn):
            torn = ", dropped a torn last line" if batch.torn else ""
            click.echo(f"resuming {csv_path}: {batch.kept_in_range:,} rows of this range kept"
                       f"{torn}, {batch.pending_deals:,} deals to solve", err=True)
        bar = tqdm(total=batch.pending_deals, unit="deal", desc="batch", file=sys.stderr,
                   disable=not show, dynamic_ncols=True, smoothing=0.05)
        main_thread = threading.current_thread() is threading.main_thread()
        old_term = signal.signal(signal.SIGTERM, terminate) if main_thread else None
        try:
            summary = batch.run(on_progress=bar.update)
        except (KeyboardInterrupt, SystemExit):
            bar.close()
            if csv_path is not None:
                click.echo(f"tripeaks-solve: stopped; {csv_path} holds every finished row: "
                           "rerun with --resume to continue", err=True)
            raise
        finally:
            if main_thread:
                signal.signal(signal.SIGTERM, old_term)
            bar.close()
    result = summary.as_dict()
    if layout_file is not None:
        result["layout_file"] = str(layout_file)
    if as_json:
        click.echo(json.dumps(result, indent=2))
    else:
        click.echo(_batch_text(result))


def _pct(x: float) -> str:
    return f"{100 * x:.2f}%"


def _batch_text(s: dict) -> str:
    """The summary dict of a batch, for people."""
    how = "optimal scores" if s["optimal"] else "winnability only (--no-optimal)"
    if s["optimal"] and s["scoring"] != "app":
        how += f" under the {s['scoring']} scoring"
    if s["variant"]:
        how += f", variant {s['variant']}"
    where = (f"Layouts of {s['layout_file']}" if "layout_file" in s
             else f"Deals {s['start']:,} … {s['stop'] - 1:,}")
    lines = [f"{where} ({s['deals']:,} deals), {how}", ""]
    for name, t in s["rules"].items():
        head = f"{name.capitalize():<9}"
        pad = " " * len(head)
        lo, hi = t["win_rate_95"]
        lines.append(f"{head}{t['deals']:,} deals, {t['wins']:,} won: {_pct(t['win_rate'])} "
                     f"(95% Wilson interval {_pct(lo)} – {_pct(hi)})")
        if s["optimal"]:
            if t["wins"]:
                median = t["best_score_median"]
                median = int(median) if median == int(median) else median
                lines.append(f"{pad}best score of won deals: mean {t['best_score_mean']:.2f}, "
                             f"median {median}")
                dist = "  ".join(f"{k}:{v:,}" for k, v in t["min_draws"].items())
                if dist:
                    lines += textwrap.wrap(f"fewest draws to win (draws:deals)  {dist}", 88,
                                           initial_indent=pad, subsequent_indent=pad + "  ")
            else:
                lines.append(f"{pad}no won deals")
    cross = s.get("cross")
    if cross:
        a, b = 13, 14  # column widths
        lines += [
            "",
            f"Easy × Classic ({cross['deals']:,} deals)",
            f"{'':<10}{'Classic won':>{a}}{'Classic lost':>{b}}",
            f"{'Easy won':<10}{cross['both']:>{a},}{cross['easy_only']:>{b},}",
            f"{'Easy lost':<10}{cross['classic_only']:>{a},}{cross['neither']:>{b},}",
            (f"Classic only: {cross['classic_only']:,} "
             + ("(can happen when drawing waits for no card to play: a Classic draw may "
                "be barred under Easy)" if "draw-when-stuck" in s["variant"] else
                "(must be 0: every Classic line is legal under Easy)")),
        ]
    return "\n".join(lines)
