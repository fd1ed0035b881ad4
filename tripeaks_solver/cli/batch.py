"""``batch``: a range of deals (or a file of layouts) solved, summarised, written to CSV.

Every flag-named message of a batch is here: the flags are checked before the run is
built, and the batch package's own errors get the flags' advice added
(:func:`advise`).
"""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path

import click

from ..batch.engines import MAX_JOBS, dask_available
from ..batch.errors import BatchError
from ..errors import InputError
from ..model.pysol import is_pysol, parse_pysol_range
from ..model.scoring import Scheme
from .common import (
    MAX_SEED,
    SEED,
    Choice,
    InputPath,
    PlayerType,
    check_distinct_outputs,
    check_plot_flag,
    complete_layouts,
    install_hint,
    must_clear_option,
    pick_rules,
    refuse_unused,
    rule_options,
)
from .group import cli

_ADVICE = {
    ("exists", "csv"): ": add --resume to continue it, or --force to overwrite it",
    ("exists", "plot"): ": add --force to overwrite it",
    ("not-batch", "csv"): "; not resuming (fix the file, or overwrite it with --force)",
    ("write", "csv"): "; rerun with --resume to continue",
    ("special", "csv"): " (--csv - writes the rows to standard output)",
    ("special", "input"): " (--layout-file - reads standard input)",
}


def advise(exc: BatchError, resuming: bool = True) -> BatchError:
    """The error with what to type about it; the batch package speaks of no flag."""
    if exc.problem == "mismatch" and exc.optimal is not None:
        flag = "--optimal" if exc.optimal else "--no-optimal"
        extra = f": resume it with {flag}, or use another file"
    elif exc.problem == "engine" and "worker" in str(exc):
        extra = "; try a smaller --jobs"
    elif (not resuming and exc.problem in ("not-batch", "special")) \
            or "standard output" in str(exc):
        extra = ""  # nothing to resume or to write (report), or no file to continue
    else:
        extra = _ADVICE.get((exc.problem, exc.role), "")
    return BatchError(f"{exc}{extra}", exc.problem, exc.role, exc.optimal)


@cli.command("batch", short_help="Solve a range of deals: win rates, scores, CSV.")
@click.argument("start", required=False)
@click.argument("stop", required=False)
@click.option("--layout-file", type=InputPath(str), metavar="PATH", default=None,
              help="Solve the deals typed in this file (one per line, 52 cards in "
                   "`deal --format line` order; - reads standard input) instead of a "
                   "range of deal numbers.")
@click.option("--optimal/--no-optimal", default=True, show_default=True,
              help="Find best scores and fewest draws, or winnability only (faster).")
@click.option("--csv", "csv_name", metavar="PATH", default=None,
              help="Write one row per (deal, rules) to this CSV file (- for standard "
                   "output; the summary then goes to stderr).")
@click.option("--resume", is_flag=True,
              help="Continue the --csv file: keep its complete rows, solve and append the rest.")
@click.option("--force", is_flag=True,
              help="Overwrite an existing --csv file (unless --resume) and --plot file.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("--jobs", type=int, default=None, metavar="N",
              help=f"Worker processes (local engine) or workers of a local Dask cluster, "
                   f"1 … {MAX_JOBS} [default: all cores].")
@click.option("--engine", type=Choice(["local", "dask"]), default="local",
              show_default=True, help="Run chunks in local processes or on a Dask cluster.")
@click.option("--scheduler", metavar="ADDRESS", default=None,
              help="Dask scheduler, e.g. tcp://host:8786 (default: start a local cluster).")
@click.option("--plot", "plot_path", type=click.Path(path_type=Path), default=None,
              help="Save histograms of the best scores of won and lost deals to this PNG.")
@click.option("--difficulty", "games", type=int, default=None, metavar="R",
              help="Add each deal's difficulty (share of R seeded greedy games lost, "
                   "R = 1 … 10000; 100 is usual) and its rating to rows and summary.")
@click.option("--player", "players", multiple=True, metavar="P", type=PlayerType(),
              help="Add the game of player P (random, greedy, careful, pimc[:N], rollout[:N], "
                   "fair[:N], perfect) to each row, its win rate to the summary; repeatable.")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed of --difficulty and --player: deal n's games use seed + n.")
@click.option("--progress/--no-progress", default=None,
              help="Show a progress bar on stderr [default: when stderr is a terminal].")
@must_clear_option
@rule_options(choices=("both", "easy", "classic"), default="both")
def batch_command(start: str | None, stop: str | None, layout_file: str | None,
                  rule_choice: str, optimal: bool, csv_name: str | None,
                  resume: bool, force: bool, as_json: bool, jobs: int | None, engine: str,
                  scheduler: str | None, plot_path: Path | None, games: int | None,
                  players: tuple[str, ...], seed: int, progress: bool | None,
                  must_clear: bool, scoring: Scheme, **opts) -> None:
    """Solve deals START … STOP-1 and summarise: win rates, best scores, draws.

    START and STOP are deal numbers or 7-letter deal ids (AAAAAAA is deal 0); the
    range is half-open. Rows come in deal order, Easy before Classic, whatever --jobs.
    With --layout-file the deals are those typed in the file, in its order. START and
    STOP may be PySolFC game numbers instead (pysol:1 pysol:32001: PySolFC's games 1 …
    32000, under its rules, Easy, unless --rules is given; docs/pysol.md): the CSV then
    gains a pysol column, the game number as PySolFC shows it.
    With --must-clear the CSV gains a must_clear column after line.
    """
    from ..model.codes import parse_range

    to_stdout = csv_name == "-"
    csv_path = None if csv_name is None or to_stdout else Path(csv_name)
    _check_flags(jobs, engine, scheduler, resume, csv_name, as_json, plot_path, optimal,
                 scoring, csv_path)
    if must_clear and not optimal:
        raise click.UsageError("--must-clear asks for best scores: --no-optimal finds "
                               "winnability only")
    if force and csv_path is None and plot_path is None:
        raise click.UsageError("--force overwrites the --csv or --plot file: give one")
    if games is None and not players:
        refuse_unused(("seed",), "it seeds the games of --player and --difficulty")
    pysol = start is not None and is_pysol(start) or stop is not None and is_pysol(stop)
    rule_sets = pick_rules(rule_choice, None, opts, pysol=pysol)
    names = tuple(r.name for r in rule_sets)
    layouts: Sequence[tuple[int, ...]] | None = None
    games_range = None
    if layout_file is not None:
        if start is not None:
            raise click.UsageError("give START STOP or --layout-file, not both")
        try:
            layouts = complete_layouts(Path(layout_file))
        except BatchError as exc:
            raise advise(exc) from None
        deals = range(len(layouts))
    elif start is None or stop is None:
        raise click.UsageError("give START and STOP (deal numbers or ids), or --layout-file")
    elif pysol:
        if not (is_pysol(start) and is_pysol(stop)):
            raise click.UsageError("give START and STOP both as PySolFC game numbers "
                                   "(pysol:1 pysol:32001), or neither")
        try:
            games_range = parse_pysol_range(start, stop)
        except InputError as exc:
            raise click.UsageError(str(exc)) from None
        layouts, deals = games_range, range(len(games_range))
    else:
        deals = parse_range(start, stop)
    typed_from = "standard input" if layout_file == "-" else layout_file
    source = None if layout_file is None else f"layouts of {typed_from}"
    if games_range is not None:
        source = f"PySolFC games {games_range}"
    try:  # a stop while the modules load (the first second) says so too
        extras = _extras(games, players, seed, deals)  # loads the kernels: after checks
        from ..batch.engines import default_jobs
        from ..batch.run import BatchSpec
    except (KeyboardInterrupt, SystemExit):
        _say_what_was_kept(csv_path)
        raise

    spec = BatchSpec(deals, names, optimal, csv_path, resume, force, jobs or default_jobs(),
                     engine, scheduler, plot_path, rule_sets[0], scoring, layouts,
                     sys.stdout if to_stdout else None, source, extras, must_clear)
    try:
        summary = _run(spec, progress)
    except BatchError as exc:
        raise advise(exc) from None
    result = summary.as_dict() | {"layout_file": typed_from,  # null for a range of deals
                                  "pysol": None if games_range is None else {
                                      "first": games_range.game(0).shown,
                                      "last": games_range.game(len(deals) - 1).shown}}
    text = json.dumps(result, indent=2) if as_json else batch_text(result)
    click.echo(text, err=to_stdout)  # stdout holds the rows with --csv -


def _extras(games: int | None, players: tuple[str, ...], seed: int, deals: range):
    """The --difficulty, --player (their labels, checked as typed) and --seed options;
    deal n's players play with seed + n, a seed that ``play --seed`` takes too."""
    last = deals.stop - 1
    if players and deals and seed + last > MAX_SEED:
        raise click.BadParameter(
            f"deal {last}'s games would have the seed {seed + last}, above "
            f"{MAX_SEED}, the largest play --seed takes: give at most {MAX_SEED - last}",
            param_hint="--seed")
    from ..batch.extras import MAX_GAMES, Extras

    if games is not None and not 1 <= games <= MAX_GAMES:
        raise click.BadParameter(f"expected 1 … {MAX_GAMES} games, not {games}",
                                 param_hint="--difficulty")
    if len(set(players)) != len(players):
        raise click.BadParameter("a player is given twice", param_hint="--player")
    return Extras(games, players, seed)


def _check_flags(jobs: int | None, engine: str, scheduler: str | None, resume: bool,
                 csv_name: str | None, as_json: bool, plot_path: Path | None, optimal: bool,
                 scoring: Scheme, csv_path: Path | None) -> None:
    """Refuse flags that contradict each other or cannot work, before anything runs."""
    if jobs is not None and not 1 <= jobs <= MAX_JOBS:
        raise click.UsageError(f"--jobs must be 1 … {MAX_JOBS}, not {jobs}")
    if scheduler is not None and not scheduler.strip():
        raise click.UsageError("--scheduler needs the scheduler's address, e.g. "
                               "tcp://host:8786")
    if scheduler and engine != "dask":
        raise click.UsageError("--scheduler needs --engine dask")
    if scheduler and jobs is not None:
        raise click.UsageError("--jobs sets the workers of a local Dask cluster; with "
                               "--scheduler the cluster's own workers run: drop --jobs")
    if resume and csv_name is None:
        raise click.UsageError("--resume needs --csv PATH: the file to continue")
    if csv_name == "-" and resume:
        raise click.UsageError("--resume needs a file: rows written to standard output "
                               "(--csv -) cannot be continued")
    if csv_name == "-" and as_json:
        raise click.UsageError("--csv - writes the rows to standard output, where --json "
                               "would print the summary too: drop one of them")
    if csv_name == "":
        raise click.UsageError("--csv needs a file name (or - for standard output)")
    if scoring != Scheme.APP and not optimal:
        raise click.UsageError(f"--scoring {scoring} needs optimal scores: --no-optimal "
                               "finds winnability only")
    check_plot_flag(plot_path, optimal)
    check_distinct_outputs(plot_path, csv_path)
    if engine == "dask" and not dask_available():
        raise click.UsageError("--engine dask needs dask.distributed, an optional extra: "
                               + install_hint("dask"))


def _run(spec, progress: bool | None):
    """Run the batch with a progress bar; a stop (Ctrl-C, kill) says how to continue."""
    import signal
    import threading

    try:
        from tqdm import tqdm

        from ..batch.run import BatchRun
    except (KeyboardInterrupt, SystemExit):
        _say_what_was_kept(spec.csv_path)
        raise

    show = sys.stderr.isatty() if progress is None else progress
    tqdm.monitor_interval = 0  # no monitor thread: worker processes are forked after this

    def terminate(signum, frame):  # a plain kill: stop like Ctrl-C, leaving complete rows
        raise SystemExit(128 + signum)

    csv_path = spec.csv_path
    try:
        with BatchRun(spec) as batch:
            if spec.resume and (batch.kept_rows or batch.torn):
                torn = ", dropped a torn last line" if batch.torn else ""
                click.echo(f"resuming {csv_path}: {_count(batch.kept_in_range, 'row')} of "
                           f"this range kept{torn}, {_count(batch.pending_deals, 'deal')} to "
                           "solve", err=True)
            bar = tqdm(total=batch.pending_deals, unit="deal", desc="batch", file=sys.stderr,
                       disable=not show, dynamic_ncols=True, smoothing=0.05)
            main_thread = threading.current_thread() is threading.main_thread()
            old_term = signal.signal(signal.SIGTERM, terminate) if main_thread else None
            try:
                return batch.run(on_progress=bar.update)
            finally:
                if main_thread:
                    signal.signal(signal.SIGTERM, old_term)
                bar.close()
    except (KeyboardInterrupt, SystemExit):
        _say_what_was_kept(csv_path)
        raise


def _say_what_was_kept(csv_path: Path | None) -> None:
    """After a stop (Ctrl-C, kill), what became of the CSV. Said once the run has closed
    its files: a new file that got no row is gone then (or was never made)."""
    if csv_path is not None and not csv_path.exists():
        click.echo(f"tripeaks-solve: stopped before any row was finished; {csv_path} "
                   "was not kept", err=True)
    elif csv_path is not None:
        click.echo(f"tripeaks-solve: stopped; {csv_path} holds every finished row: "
                   "rerun with --resume to continue", err=True)


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def _pct(x: float) -> str:
    return f"{100 * x:.2f}%"


def batch_text(s: dict, where: str | None = None) -> str:
    """The summary dict of a batch, for people; ``where`` replaces the first line's
    description of the deals."""
    how = "optimal scores" if s["optimal"] else "winnability only (--no-optimal)"
    if s["optimal"] and s["scoring"] != Scheme.APP:
        how += f" under the {s['scoring']} scoring"
    if s.get("must_clear"):
        how += ", wins only (--must-clear)"
    if s["variant"]:
        how += f", variant {s['variant']}"
    games = s.get("pysol")
    where = where or (f"Layouts of {s['layout_file']}" if s.get("layout_file")
                      else f"PySolFC games {games['first']} … {games['last']}" if games
                      else f"Deals {s['start']:,} … {s['stop'] - 1:,}")
    lines = [f"{where} ({_count(s['deals'], 'deal')}), {how}", ""]
    for name, t in s["rules"].items():
        if t is None:  # a rule set not asked for
            continue
        head = f"{name.capitalize():<9}"
        pad = " " * len(head)
        if not t["deals"]:
            lines.append(f"{head}no rows")
            continue
        lo, hi = t["win_rate_95"]
        lines.append(f"{head}{_count(t['deals'], 'deal')}, {t['wins']:,} won: {_pct(t['win_rate'])} "
                     f"(95% Wilson interval {_pct(lo)} – {_pct(hi)})")
        if s["optimal"]:
            if t["wins"]:
                median = t["best_score_median"]
                median = int(median) if median == int(median) else median
                lines.append(f"{pad}best score of won deals: mean {t['best_score_mean']:.2f}, "
                             f"median {median}")
                dist = "  ".join(f"{k}:{v:,}" for k, v in (t["min_draws"] or {}).items())
                if dist:
                    lines += textwrap.wrap(f"fewest draws to win (draws:deals)  {dist}", 88,
                                           initial_indent=pad, subsequent_indent=pad + "  ")
            else:
                lines.append(f"{pad}no won deals")
        if t.get("ratings") is not None:
            lines.append(f"{pad}difficulty ratings ({s['difficulty_games']} greedy games): "
                         + ", ".join(f"{w} {n:,}" for w, n in t["ratings"].items()))
        for who, p in (t.get("players") or {}).items():
            lo, hi = p["win_rate_95"]
            lines.append(f"{pad}player {who}: {p['wins']:,} won: {_pct(p['win_rate'])} "
                         f"({_pct(lo)} – {_pct(hi)}), exact {_pct(p['exact_win_rate'])}; "
                         f"{_count(p['winnable_lost'], 'winnable deal')} lost")
    cross = s.get("cross")
    if cross:
        a, b = 13, 14  # column widths
        lines += [
            "",
            f"Easy × Classic ({_count(cross['deals'], 'deal')})",
            f"{'':<10}{'Classic won':>{a}}{'Classic lost':>{b}}",
            f"{'Easy won':<10}{cross['both']:>{a},}{cross['easy_only']:>{b},}",
            f"{'Easy lost':<10}{cross['classic_only']:>{a},}{cross['neither']:>{b},}",
            (f"Classic only: {cross['classic_only']:,} "
             + ("(can happen when drawing waits for no card to play: a Classic draw may "
                "be barred under Easy)" if "draw-when-stuck" in s["variant"] else
                "(must be 0: every Classic line is legal under Easy)")),
        ]
    return "\n".join(lines)
