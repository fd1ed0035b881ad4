"""Batch analysis: ranges of deals -> rows -> CSV, summary statistics and plots.

The layer between the ``batch`` command and the solver. A run solves every deal of a
half-open range ``start … stop-1`` under Easy and/or Classic rules and produces one
:class:`Row` per (deal, rules):

- rows go to a CSV in deal order, Easy before Classic, whatever the number of workers;
  each finished chunk is written and flushed at once, so a run stopped by Ctrl-C or a
  kill leaves a file whose complete rows are valid;
- ``resume`` reads such a file back, drops a torn last line, keeps every complete row
  and solves only the (deal, rules) pairs it lacks, appending them;
- a :class:`Summary` (win rates with Wilson intervals, best scores, fewest draws, the
  Easy x Classic cross table) is accumulated from the kept rows and the new ones, so a
  resumed run reports on the whole range and never counts a row twice.

Engines: ``local`` runs chunks of deals in worker processes (or in this process for one
job); ``dask`` runs the same chunks as tasks on a Dask cluster (an optional extra).
"""

from __future__ import annotations

import functools
import math
import os
import signal
import sys
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Self

from .codes import DEAL_COUNT, GameCode, parse_deal_id
from .dealing import Deal
from .errors import InputError
from .rules import EASY, RULE_ORDER, RULE_SETS, VARIANT_OPTIONS, Rules
from .scoring import SCHEMES
from .solver import Solution, solve, warm_up

CSV_HEADER = ("code", "deal", "rules", "variant", "scoring", "winnable", "min_draws",
              "best_score", "max_removed", "states", "seconds", "line")
ANSWER_FIELDS = ("winnable", "min_draws", "best_score", "max_removed")
Z_95 = 1.959963984540054  # the 97.5% quantile of the standard normal
DASK_HINT = "pip install 'tripeaks-solver[dask]'"
PLOT_HINT = "pip install 'tripeaks-solver[plot]'"


# --- rows ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Row:
    """The answers for one deal under one rule set: one line of the batch CSV.

    ``min_draws`` is None on a lost deal, under the original scoring and, with
    ``best_score``, when the run did not ask for optimal scores. ``max_removed`` is None
    when the solver did not establish it (a lost deal searched without ``optimal``).
    None is an empty CSV field. ``variant`` names the non-default rule options
    (``Rules.variant``); ``best_score`` is the optimum of the ``scoring`` scheme.
    A deal typed in (``batch --layout-file``) has no code: its ``line`` holds its cards
    and ``deal`` its place in the file (0 for the first layout).
    """

    deal: int
    rules: str
    winnable: bool
    min_draws: int | None
    best_score: int | None
    max_removed: int | None
    states: int
    seconds: float
    variant: str = ""
    scoring: str = "app"
    line: str = ""

    @classmethod
    def from_solution(cls, number: int, sol: Solution, typed: bool = False) -> Row:
        return cls(number, sol.rules.name, sol.winnable, sol.min_draws, sol.best_score,
                   sol.max_removed, sol.states, sol.seconds, sol.rules.variant, sol.scheme,
                   sol.deal.line() if typed else "")

    @property
    def code(self) -> str:
        if self.line:
            return ""
        return str(GameCode(self.deal, self.rules, "joker" in self.variant.split("+")))

    @property
    def key(self) -> tuple[int, str]:
        return self.deal, self.rules

    @property
    def optimal(self) -> bool:
        """Was this row solved for the optimum (a best score is always known then)?"""
        return self.best_score is not None

    def answer(self) -> tuple:
        """The columns that depend only on the deal and the rules."""
        return tuple(getattr(self, name) for name in ANSWER_FIELDS)

    def csv_fields(self) -> list[str]:
        def opt(v: int | None) -> str:
            return "" if v is None else str(v)

        return [self.code, str(self.deal), self.rules, self.variant, self.scoring,
                "true" if self.winnable else "false", opt(self.min_draws),
                opt(self.best_score), opt(self.max_removed), str(self.states),
                f"{self.seconds:.6f}", self.line]

    @classmethod
    def from_csv_fields(cls, fields: list[str]) -> Row:
        """Read a CSV line back; ValueError says what is wrong with it."""
        if len(fields) != len(CSV_HEADER):
            raise ValueError(f"{len(fields)} fields, expected {len(CSV_HEADER)}")
        (code, deal, rules, variant, scoring, winnable, min_draws, best_score, max_removed,
         states, seconds, line) = fields
        if rules not in RULE_SETS:
            raise ValueError(f"unknown rules {rules!r}")
        if variant and not set(variant.split("+")) <= set(VARIANT_OPTIONS):
            raise ValueError(f"unknown variant {variant!r}")
        if scoring not in SCHEMES:
            raise ValueError(f"unknown scoring {scoring!r}")
        if winnable not in ("true", "false"):
            raise ValueError(f"winnable is {winnable!r}, expected true or false")
        row = cls(int(deal), rules, winnable == "true",
                  int(min_draws) if min_draws else None, int(best_score) if best_score else None,
                  int(max_removed) if max_removed else None, int(states), float(seconds),
                  variant, scoring, line)
        if not 0 <= row.deal < DEAL_COUNT:
            raise ValueError(f"deal {row.deal} is outside 0 … {DEAL_COUNT - 1}")
        if code != row.code:
            raise ValueError(f"code {code!r} does not name deal {row.deal} under {rules} rules")
        if row.min_draws is not None and not (row.winnable and row.best_score is not None):
            raise ValueError("min_draws is given on a lost deal or without a best score")
        if (row.winnable and row.best_score is not None and row.min_draws is None
                and scoring != "original"):
            raise ValueError("a won deal with a best score has no min_draws")
        return row


_SOLVE_LOCK = threading.Lock()
WorkItem = tuple[int, tuple[str, ...], tuple[int, ...] | None]


def solve_chunk(items: list[WorkItem], optimal: bool, template: Rules = EASY,
                scoring: str = "app") -> list[Row]:
    """Solve a chunk of work: ``items`` are (deal number, rule names, cards) in order,
    where cards (52 card indices) are given for a deal typed in, else None; the rule
    options other than the K–A wrap come from ``template``.

    Runs in worker processes and Dask tasks. The solver keeps one scratch workspace per
    process, so a chunk holds a process-wide lock: threads of one process (a Dask
    worker with several threads) take turns instead of sharing the workspace.
    """
    out = []
    with _SOLVE_LOCK:
        for number, names, cards in items:
            deal = Deal.from_number(number, template.joker) if cards is None else Deal(cards)
            for name in names:
                rules = template.with_options(wrap=Rules.named(name).wrap)
                sol = solve(deal, rules, optimal, scoring)
                out.append(Row.from_solution(number, sol, typed=cards is not None))
    return out


# --- ranges -------------------------------------------------------------------------
def parse_deal_bound(text: str, what: str = "deal") -> int:
    """A deal number, a 7-letter deal id (``AAAAAAB``) or a game code, as an int."""
    raw = text.strip()
    body = raw[1:] if raw[:1] in "+-" else raw
    if body.isdigit() and body.isascii():
        number = int(raw)
        if number < 0:
            raise InputError(f"{what} {raw} is negative: deal numbers start at 0")
        return number
    if "-" in raw:
        try:
            return GameCode.parse(raw).number
        except InputError as exc:
            raise InputError(f"{what}: {exc}") from None
    try:
        return parse_deal_id(raw)
    except InputError as exc:
        raise InputError(f"{what} {raw!r} is neither a deal number nor a deal id: {exc}") from None


def parse_range(start_text: str, stop_text: str) -> range:
    """The half-open range START … STOP-1 from two bounds as typed."""
    start = parse_deal_bound(start_text, "START")
    stop = parse_deal_bound(stop_text, "STOP")
    if start >= DEAL_COUNT:
        raise InputError(f"START {start} is beyond the last deal, {DEAL_COUNT - 1} (ZZZZZZZ)")
    if stop > DEAL_COUNT:
        raise InputError(f"STOP {stop} is beyond 26^7 = {DEAL_COUNT}, one past the last deal")
    if stop <= start:
        raise InputError(f"STOP ({stop}) must be greater than START ({start}): "
                         "the range is START … STOP-1")
    return range(start, stop)


def default_jobs() -> int:
    """All cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


# --- statistics ---------------------------------------------------------------------
def wilson_interval(wins: int, n: int, z: float = Z_95) -> tuple[float, float] | None:
    """The Wilson score interval for a proportion ``wins / n`` (None when n is 0)."""
    if n <= 0:
        return None
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    # Exact at the edges: no wins gives 0 (not 1e-17), all wins gives 1.
    lo = 0.0 if wins == 0 else max(0.0, centre - half)
    hi = 1.0 if wins == n else min(1.0, centre + half)
    return lo, hi


def _median(counts: Counter) -> float | None:
    n = sum(counts.values())
    if n == 0:
        return None
    lo_i, hi_i = (n - 1) // 2, n // 2  # the middle one or two of the sorted values
    lo = hi = None
    seen = 0
    for value in sorted(counts):
        seen += counts[value]
        if lo is None and seen > lo_i:
            lo = value
        if seen > hi_i:
            hi = value
            break
    return (lo + hi) / 2


def _mean(counts: Counter) -> float | None:
    n = sum(counts.values())
    return None if n == 0 else sum(v * k for v, k in counts.items()) / n


@dataclass
class RuleTally:
    """Counts for one rule set."""

    deals: int = 0
    wins: int = 0
    won_scores: Counter = field(default_factory=Counter)
    lost_scores: Counter = field(default_factory=Counter)
    min_draws: Counter = field(default_factory=Counter)

    def add(self, row: Row) -> None:
        self.deals += 1
        if row.winnable:
            self.wins += 1
        if row.best_score is not None:
            (self.won_scores if row.winnable else self.lost_scores)[row.best_score] += 1
        if row.min_draws is not None:
            self.min_draws[row.min_draws] += 1

    def as_dict(self, optimal: bool) -> dict:
        ci = wilson_interval(self.wins, self.deals)
        out = {
            "deals": self.deals,
            "wins": self.wins,
            "win_rate": None if not self.deals else round(self.wins / self.deals, 6),
            "win_rate_95": None if ci is None else [round(ci[0], 6), round(ci[1], 6)],
        }
        if optimal:
            mean = _mean(self.won_scores)
            out["best_score_mean"] = None if mean is None else round(mean, 4)
            out["best_score_median"] = _median(self.won_scores)
            out["min_draws"] = {str(k): self.min_draws[k] for k in sorted(self.min_draws)}
        return out


class Summary:
    """Statistics of a batch over a range, accumulated row by row.

    Rows outside the range or of other rule sets are ignored. The cross table pairs a
    deal's Easy and Classic rows in whatever order they come. :meth:`check_complete`
    says whether every (deal, rules) of the range was counted exactly once.
    """

    def __init__(self, deals: range, rules: tuple[str, ...], optimal: bool,
                 variant: str = "", scoring: str = "app") -> None:
        self.deals = deals
        self.rules = rules
        self.optimal = optimal
        self.variant = variant
        self.scoring = scoring
        self.tally = {name: RuleTally() for name in rules}
        self.cross = Counter({"both": 0, "easy_only": 0, "classic_only": 0, "neither": 0})
        self._half: dict[int, tuple[str, bool]] = {}  # a deal's first row, waiting for its pair

    def add(self, row: Row) -> None:
        if row.deal not in self.deals or row.rules not in self.tally:
            return
        self.tally[row.rules].add(row)
        if len(self.rules) == 2:
            other = self._half.pop(row.deal, None)
            if other is None:
                self._half[row.deal] = (row.rules, row.winnable)
            else:
                easy = row.winnable if row.rules == "easy" else other[1]
                classic = row.winnable if row.rules == "classic" else other[1]
                key = ("both" if classic else "easy_only") if easy else \
                      ("classic_only" if classic else "neither")
                self.cross[key] += 1

    def check_complete(self) -> None:
        """Raise unless each rule set has exactly one row per deal of the range."""
        for name, t in self.tally.items():
            if t.deals != len(self.deals):
                raise AssertionError(f"{name}: {t.deals} rows for {len(self.deals)} deals")
        if self._half:
            raise AssertionError(f"{len(self._half)} deals lack their Easy or Classic row")

    def as_dict(self) -> dict:
        out = {
            "start": self.deals.start,
            "stop": self.deals.stop,
            "deals": len(self.deals),
            "optimal": self.optimal,
            "variant": self.variant,
            "scoring": self.scoring,
            "rules": {name: self.tally[name].as_dict(self.optimal) for name in self.rules},
        }
        if len(self.rules) == 2:
            out["cross"] = {"deals": sum(self.cross.values()), **self.cross}
        return out


# --- the CSV file -------------------------------------------------------------------
def _csv_line(fields: Iterable[str]) -> str:
    return ",".join(fields) + "\n"  # no field ever needs quoting


HEADER_LINE = _csv_line(CSV_HEADER)


@dataclass
class ExistingRows:
    """What ``resume`` found in a CSV: its complete rows and where they end."""

    rows: list[Row]
    keep_bytes: int  # the file is cut here before appending (drops a torn last line)
    torn: bool  # was there a torn (unterminated) last line?
    needs_header: bool


def read_existing(path: Path) -> ExistingRows:
    """Read a batch CSV for ``resume``. InputError when it is not one of ours."""
    data = path.read_bytes()
    end = data.rfind(b"\n") + 1  # everything after the last newline is a torn line
    torn = end < len(data)
    complete = data[:end].decode("utf-8", errors="replace").splitlines()
    if not complete:
        if HEADER_LINE.encode().startswith(data):  # empty, or a torn header
            return ExistingRows([], 0, torn, True)
        raise InputError(f"{path} does not start with the batch CSV header; "
                         "not resuming (use another file or --force)")
    if complete[0].rstrip("\r") != HEADER_LINE.rstrip("\n"):
        raise InputError(f"{path} does not start with the batch CSV header "
                         f"{HEADER_LINE.strip()!r}; not resuming (use another file or --force)")
    rows: list[Row] = []
    line_of: dict[tuple[int, str], int] = {}
    for i, line in enumerate(complete[1:], 2):
        try:
            row = Row.from_csv_fields(line.rstrip("\r").split(","))
        except ValueError as exc:
            raise InputError(f"{path} line {i} is not a batch row ({exc}); "
                             "not resuming (fix the file or use --force)") from None
        if row.key in line_of:
            raise InputError(f"{path} holds {row.code} twice (lines {line_of[row.key]} and {i}); "
                             "not resuming")
        line_of[row.key] = i
        rows.append(row)
    return ExistingRows(rows, end, torn, False)


# --- planning -----------------------------------------------------------------------
def iter_chunks(deals: range, rules: tuple[str, ...], done: set[tuple[int, str]],
                size: int, layouts: tuple[tuple[int, ...], ...] | None = None
                ) -> Iterator[list[WorkItem]]:
    """Chunks of ``size`` deals still to solve, in deal order, skipping ``done`` pairs.
    With ``layouts``, deal i is the i-th layout."""
    chunk: list[WorkItem] = []
    for number in deals:
        todo = tuple(r for r in rules if (number, r) not in done) if done else rules
        if todo:
            chunk.append((number, todo, None if layouts is None else layouts[number]))
            if len(chunk) == size:
                yield chunk
                chunk = []
    if chunk:
        yield chunk


def chunk_size(pending_deals: int, workers: int, cap: int) -> int:
    """Deals per task: about 16 tasks per worker, at most ``cap``, at least 1."""
    return max(1, min(cap, math.ceil(pending_deals / (workers * 16))))


@dataclass(frozen=True)
class BatchSpec:
    """Everything the ``batch`` command was asked for."""

    deals: range
    rules: tuple[str, ...] = RULE_ORDER
    optimal: bool = True
    csv_path: Path | None = None
    resume: bool = False
    force: bool = False
    jobs: int = 1
    engine: str = "local"
    scheduler: str | None = None
    plot_path: Path | None = None
    template: Rules = EASY  # the rule options besides the wrap
    scoring: str = "app"
    layouts: tuple[tuple[int, ...], ...] | None = None  # deals typed in, instead of numbers

    def solver(self) -> Callable[[list[WorkItem]], list[Row]]:
        """The function that solves one chunk as asked (picklable, for workers)."""
        return functools.partial(solve_chunk, optimal=self.optimal, template=self.template,
                                 scoring=self.scoring)


def _check_writable_dir(path: Path, what: str) -> None:
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise InputError(f"cannot write {what} {path}: directory {parent} does not exist")
    if not os.access(parent, os.W_OK):
        raise InputError(f"cannot write {what} {path}: directory {parent} is not writable")
    if path.is_dir():
        raise InputError(f"cannot write {what} {path}: it is a directory")


def _same_file(a: Path, b: Path) -> bool:
    return a.resolve() == b.resolve()


def check_plot_available() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise InputError(f"--plot needs matplotlib, an optional extra: {PLOT_HINT}") from None


def check_dask_available() -> None:
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        raise InputError(f"--engine dask needs dask.distributed, an optional extra: "
                         f"{DASK_HINT}") from None


class BatchRun:
    """A prepared batch: arguments checked, an existing CSV read back on resume.

    Use as a context manager; :meth:`run` starts the engine, creates the CSV (or cuts a
    resumed one after its last complete row), solves what is left and returns the
    summary. Problems with the input are InputErrors raised here or, for a scheduler
    that cannot be reached, by :meth:`run` before any file is touched.
    """

    def __init__(self, spec: BatchSpec) -> None:
        self.spec = spec
        if spec.jobs < 1:
            raise InputError(f"--jobs must be at least 1, not {spec.jobs}")
        if spec.engine not in ("local", "dask"):
            raise InputError(f"unknown engine {spec.engine!r} (expected local or dask)")
        if spec.scheduler and spec.engine != "dask":
            raise InputError("--scheduler needs --engine dask")
        if spec.resume and spec.csv_path is None:
            raise InputError("--resume needs --csv PATH: the file to continue")
        if spec.plot_path is not None:
            if spec.plot_path.suffix.lower() != ".png":
                raise InputError(f"--plot writes a PNG image: {spec.plot_path} should end in .png")
            if not spec.optimal:
                raise InputError("--plot draws best scores and draws, which --no-optimal skips")
            _check_writable_dir(spec.plot_path, "the plot")
            if spec.plot_path.exists() and not spec.force:
                raise InputError(f"{spec.plot_path} already exists: add --force to overwrite it")
            if spec.csv_path is not None and _same_file(spec.plot_path, spec.csv_path):
                raise InputError("--plot and --csv name the same file")
            check_plot_available()
        if spec.engine == "dask":
            check_dask_available()

        self.kept: list[Row] = []
        self.torn = False
        self._file = None
        if spec.csv_path is not None:
            self._check_csv(spec.csv_path)
        done = {row.key for row in self.kept}
        self._done = done
        self.pending_deals = sum(
            1 for n in spec.deals if any((n, r) not in done for r in spec.rules)
        ) if done else len(spec.deals)
        self.rows_written = 0

    def _check_csv(self, path: Path) -> None:
        """Check the CSV can be written and, on resume, read back its rows. Writes nothing.

        An existing file is continued with ``resume`` (even with ``force``, which then
        only lets the plot be overwritten), replaced with ``force``, else left alone.
        """
        spec = self.spec
        _check_writable_dir(path, "the CSV")
        self._keep_bytes = None  # None: create the file afresh
        if not path.exists():
            return
        if not (spec.resume or spec.force):
            raise InputError(f"{path} already exists: add --resume to continue it, "
                             "or --force to overwrite it")
        if not os.access(path, os.W_OK):
            raise InputError(f"cannot write the CSV {path}: permission denied")
        if not spec.resume:
            return
        try:
            found = read_existing(path)
        except OSError as exc:
            raise InputError(f"cannot read the CSV {path}: {exc.strerror or exc}") from None
        wrong = [r for r in found.rows if r.optimal != spec.optimal]
        if wrong:
            made, other = ("optimal", "--optimal") if wrong[0].optimal else \
                          ("--no-optimal", "--no-optimal")
            raise InputError(f"{path} holds {made} rows ({wrong[0].code}): resume it with "
                             f"{other}, or use another file")
        other = [r for r in found.rows
                 if (r.variant, r.scoring) != (spec.template.variant, spec.scoring)]
        if other:
            raise InputError(f"{path} holds rows of variant {other[0].variant or 'none'!r} "
                             f"and scoring {other[0].scoring!r} ({other[0].code}): resume it "
                             "with the same options, or use another file")
        lines = None if spec.layouts is None else [Deal(c).line() for c in spec.layouts]
        for r in found.rows:
            typed_here = lines is not None and r.deal < len(lines)
            if bool(r.line) != (lines is not None) or (typed_here and r.line != lines[r.deal]):
                raise InputError(f"{path} holds rows of other deals ({r.code or r.line}): "
                                 "resume it with the same range or layout file")
        self.kept = found.rows
        self.torn = found.torn
        self._keep_bytes = 0 if found.needs_header else found.keep_bytes

    def _open_csv(self) -> None:
        """Create the CSV, or cut a resumed one after its last complete row, ready to append."""
        path = self.spec.csv_path
        try:
            if self._keep_bytes:
                with open(path, "r+b") as fb:
                    fb.truncate(self._keep_bytes)  # drop a torn last line
                self._file = open(path, "a", encoding="utf-8", newline="")  # noqa: SIM115
            else:
                self._file = open(path, "w", encoding="utf-8", newline="")  # noqa: SIM115
                self._file.write(HEADER_LINE)
                self._file.flush()
        except OSError as exc:
            raise InputError(f"cannot write the CSV {path}: {exc.strerror or exc}") from None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    @property
    def kept_in_range(self) -> int:
        deals, rules = self.spec.deals, self.spec.rules
        return sum(1 for r in self.kept if r.deal in deals and r.rules in rules)

    def run(self, on_progress: Callable[[int], None] | None = None) -> Summary:
        """Solve what is left, write rows in order, return the summary of the whole range."""
        spec = self.spec
        summary = Summary(spec.deals, spec.rules, spec.optimal, spec.template.variant,
                          spec.scoring)
        for row in self.kept:
            summary.add(row)
        if not self.pending_deals:
            if spec.csv_path is not None:
                self._open_csv()  # still drop a torn last line, or write a missing header
        else:
            if spec.engine == "dask":
                engine = _DaskEngine(spec.scheduler, spec.jobs)
                cap = 500
            else:
                engine = _LocalEngine(spec.jobs, spec.scoring)
                cap = 50
            with engine:  # started before the CSV is touched: a dead scheduler changes nothing
                if spec.csv_path is not None:
                    self._open_csv()
                size = chunk_size(self.pending_deals, engine.workers, cap)
                chunks = iter_chunks(spec.deals, spec.rules, self._done, size, spec.layouts)
                results = engine.map_ordered(chunks, spec.solver())
                try:
                    for rows in results:
                        if self._file is not None:
                            self._file.write("".join(_csv_line(r.csv_fields()) for r in rows))
                            self._file.flush()
                            self.rows_written += len(rows)
                        for row in rows:
                            summary.add(row)
                        if on_progress is not None:
                            on_progress(len({r.deal for r in rows}))
                finally:
                    results.close()
        summary.check_complete()
        if spec.plot_path is not None:
            plot_summary(summary, spec.plot_path)
        return summary


# --- engines ------------------------------------------------------------------------
def _ordered(submit: Callable, chunks: Iterator, window: int) -> Iterator[list[Row]]:
    """Results of ``submit(chunk)`` in chunk order, with at most ``window`` in flight."""
    pending: deque = deque()
    for chunk in chunks:
        pending.append(submit(chunk))
        if len(pending) >= window:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()




def _watch_parent(parent: int) -> None:
    # A worker whose parent was killed (kill -9) would wait for work forever.
    while True:
        time.sleep(1.0)
        if os.getppid() != parent:
            os._exit(1)


def _init_worker(parent: int, scoring: str) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's handler, if forked
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    warm_up(scoring)


class _LocalEngine:
    """Chunks in worker processes (``jobs`` > 1) or in this process (``jobs`` = 1)."""

    def __init__(self, jobs: int, scoring: str = "app") -> None:
        self.workers = jobs
        self.scoring = scoring
        self._pool = None

    def __enter__(self) -> Self:
        warm_up(self.scoring)  # forked workers inherit the loaded kernels
        if self.workers > 1:
            import concurrent.futures as cf
            import multiprocessing as mp

            methods = mp.get_all_start_methods()
            ctx = mp.get_context("fork" if "fork" in methods and sys.platform == "linux"
                                 else None)
            self._pool = cf.ProcessPoolExecutor(self.workers, mp_context=ctx,
                                                initializer=_init_worker,
                                                initargs=(os.getpid(), self.scoring))
        return self

    def map_ordered(self, chunks: Iterator, solver: Callable) -> Iterator[list[Row]]:
        if self._pool is None:
            return (solver(chunk) for chunk in chunks)
        return _ordered(lambda c: self._pool.submit(solver, c), chunks, 16 * self.workers)

    def __exit__(self, *exc) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


class _DaskEngine:
    """Chunks as tasks on a Dask cluster: at ``scheduler``, or a local one of ``jobs``."""

    def __init__(self, scheduler: str | None, jobs: int) -> None:
        self.scheduler = scheduler
        self.jobs = jobs
        self.workers = jobs
        self._client = None
        self._cluster = None

    def __enter__(self) -> Self:
        import logging

        from dask.distributed import Client, LocalCluster

        try:
            if self.scheduler:
                self._client = Client(self.scheduler, timeout="10s")
            else:
                self._cluster = LocalCluster(n_workers=self.jobs, threads_per_worker=1,
                                             processes=True, dashboard_address=None,
                                             silence_logs=logging.ERROR)
                self._client = Client(self._cluster)
        except (OSError, TimeoutError, ValueError) as exc:  # unreachable, or a bad address
            self.__exit__()
            where = self.scheduler or "a local cluster"
            raise InputError(f"cannot reach the Dask scheduler at {where}: {exc}") from None
        self.workers = max(1, sum(self._client.nthreads().values()))
        return self

    def map_ordered(self, chunks: Iterator, solver: Callable) -> Iterator[list[Row]]:
        client = self._client
        return _ordered(lambda c: client.submit(solver, c, pure=False), chunks,
                        8 * self.workers)

    def __exit__(self, *exc) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None


# --- plots --------------------------------------------------------------------------
def plot_summary(summary: Summary, path: Path) -> None:
    """Histograms of best scores and of fewest draws per rule set, as a PNG (Agg)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    names = summary.rules
    fig = Figure(figsize=(11, 3.6 * len(names)), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(len(names), 2, squeeze=False)
    span = f"deals {summary.deals.start} … {summary.deals.stop - 1}"
    for (ax_score, ax_draws), name in zip(axes, names, strict=True):
        t = summary.tally[name]
        title = f"{name.capitalize()}: {t.wins:,} of {t.deals:,} won"
        scores = sorted(set(t.won_scores) | set(t.lost_scores))
        if scores:
            lo, hi = scores[0], scores[-1]
            bins = range(lo, hi + 2, max(1, math.ceil((hi + 1 - lo) / 80)))
            ax_score.hist([list(t.lost_scores), list(t.won_scores)], bins=bins,
                          weights=[list(t.lost_scores.values()), list(t.won_scores.values())],
                          stacked=True, label=["lost", "won"], color=["#c44e52", "#4c72b0"])
            ax_score.legend()
        ax_score.set_title(f"{title}: best score ({span})")
        ax_score.set_xlabel("best score")
        ax_score.set_ylabel("deals")
        draws = sorted(t.min_draws)
        ax_draws.bar(draws, [t.min_draws[d] for d in draws], color="#4c72b0")
        ax_draws.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax_draws.set_title(f"{name.capitalize()}: fewest draws of won deals")
        ax_draws.set_xlabel("draws")
        ax_draws.set_ylabel("deals")
    try:
        fig.savefig(path, format="png", dpi=100)
    except OSError as exc:
        raise InputError(f"cannot write the plot {path}: {exc.strerror or exc}") from None


__all__ = [
    "CSV_HEADER",
    "BatchRun",
    "BatchSpec",
    "Row",
    "Summary",
    "parse_range",
    "read_existing",
    "solve_chunk",
    "wilson_interval",
]
