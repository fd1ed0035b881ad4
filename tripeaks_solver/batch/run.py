"""A batch run: what was asked (:class:`BatchSpec`), the plan in chunks, and the run
itself (:class:`BatchRun`), which locks its files, reads a resumed CSV back, drives an
engine and writes the rows in order."""

from __future__ import annotations

import dataclasses
import functools
import math
import threading
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Self, TextIO

from ..analysis.player_spec import parse_player
from ..model.codes import parse_range
from ..model.dealing import Deal
from ..model.pysol import PysolRange, is_pysol, parse_pysol_range
from ..model.rules import EASY, RULE_ORDER, Rules, select_rules
from ..model.scoring import RUN_SCHEMES, SCHEMES, Scheme, check_scheme
from ..solver.solve import solve
from .csvfile import CsvOutput
from .engines import MAX_JOBS, DaskEngine, LocalEngine
from .errors import BatchError
from .extras import MAX_GAMES, PLAIN, Extras, RowExtras, compute_extras
from .files import LockedFile, open_output
from .plots import render_png
from .rows import MUST_CLEAR_COLUMNS, PYSOL_COLUMNS, Row
from .summary import Summary

_SOLVE_LOCK = threading.Lock()
WorkItem = tuple[int, tuple[str, ...], tuple[int, ...] | None]


def solve_chunk(items: list[WorkItem], optimal: bool, template: Rules = EASY,
                scoring: Scheme = Scheme.APP, extras: Extras = PLAIN,
                must_clear: bool = False) -> list[Row]:
    """Solve a chunk of work: ``items`` are (deal number, rule names, cards) in order,
    where cards (52 card indices) are given for a deal typed in, else None; the rule
    options other than the K–A wrap come from ``template``. ``extras`` adds the
    difficulty and the players' games to each row (after the exact solve, whose
    verdicts they reuse). ``must_clear``: the best scores of wins only (see ``solve``).

    Runs in worker processes and Dask tasks. The solver keeps one scratch workspace per
    process, so a chunk holds a process-wide lock: threads of one process (a Dask
    worker with several threads) take turns instead of sharing the workspace.
    """
    out = []
    sols = {}
    rules_of = {name: template.with_options(wrap=Rules.named(name).wrap)
                for name in dict.fromkeys(name for _, names, _ in items for name in names)}
    # Every Classic line is an Easy line when drawing is free, so Easy's answer bounds
    # Classic's search (see solve's ``looser``): a deal lost under Easy is lost under
    # Classic, and Easy's fewest draws are a floor for Classic's.
    share = not template.draw_when_stuck and not (optimal and scoring in RUN_SCHEMES)
    with _SOLVE_LOCK:
        for number, names, cards in items:
            deal = (Deal.from_number(number, template.joker) if cards is None
                    else Deal.from_cards(cards))
            easy = None
            for name in names:
                rules = rules_of[name]
                sol = solve(deal, rules, optimal, scoring,
                            looser=easy if share and not rules.wrap else None,
                            must_clear=must_clear)
                if rules.wrap:
                    easy = sol
                out.append(Row.from_solution(number, sol, typed=cards is not None))
                if extras.active:
                    sols[number, name] = sol
        if extras.active:
            out = _add_extras(out, items, template, extras, sols)
    return out


def _add_extras(rows: list[Row], items: list[WorkItem], template: Rules,
                extras: Extras, sols: dict) -> list[Row]:
    # One call per rule set, so that the difficulty kernel plays a whole chunk at once.
    deals = {number: (number, Deal.from_number(number, template.joker) if cards is None
                      else Deal.from_cards(cards), cards is not None)
             for number, _, cards in items}
    added: dict[tuple[int, str], RowExtras] = {}
    for name in dict.fromkeys(r.rules for r in rows):
        mine = [r for r in rows if r.rules == name]
        rules = template.with_options(wrap=Rules.named(name).wrap)
        found = compute_extras(extras, [deals[r.deal] for r in mine], rules,
                               [r.winnable for r in mine], [sols[r.key] for r in mine])
        added.update((r.key, e) for r, e in zip(mine, found, strict=True))
    return [dataclasses.replace(r, extra=added[r.key]) for r in rows]


def iter_chunks(deals: range, summary: Summary, size: int,
                layouts: Sequence[tuple[int, ...]] | None = None) -> Iterator[list[WorkItem]]:
    """Chunks of ``size`` deals still to solve (the rule sets ``summary`` lacks), in deal
    order. With ``layouts``, deal i is the i-th layout."""
    chunk: list[WorkItem] = []
    for number in deals:
        todo = summary.todo(number)
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


def _options(extras: Extras) -> str:
    """The --difficulty, --player and --seed options, as typed."""
    words = [] if extras.games is None else [f"--difficulty {extras.games}"]
    words += [f"--player {p}" for p in extras.players]
    return " ".join(words + [f"--seed {extras.seed}"]) if words else "no --difficulty or --player"


@dataclass(frozen=True)
class BatchSpec:
    """Everything a batch was asked for. ``csv_stream`` takes the rows instead of a
    file (standard output); ``source`` names the deals in the plot's title."""

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
    scoring: Scheme = Scheme.APP
    # Deals typed in, instead of numbers; or PySolFC's games (a PysolRange, dealt lazily).
    layouts: Sequence[tuple[int, ...]] | None = None
    csv_stream: TextIO | None = None
    source: str | None = None
    extras: Extras = PLAIN  # --difficulty and --player
    must_clear: bool = False  # the best scores of wins only

    @property
    def pysol(self) -> PysolRange | None:
        """The PySolFC games of a run over them (``batch pysol:START pysol:STOP``)."""
        return self.layouts if isinstance(self.layouts, PysolRange) else None

    def columns(self) -> tuple[str, ...]:
        """The CSV's columns after ``line``."""
        return (PYSOL_COLUMNS * (self.pysol is not None) + MUST_CLEAR_COLUMNS * self.must_clear
                + self.extras.columns())

    def solver(self) -> Callable[[list[WorkItem]], list[Row]]:
        """The function that solves one chunk as asked (picklable, for workers)."""
        return functools.partial(solve_chunk, optimal=self.optimal, template=self.template,
                                 scoring=self.scoring, extras=self.extras,
                                 must_clear=self.must_clear)

    def check(self) -> None:
        """Raise ValueError for a spec no run can carry out (in the library's words)."""
        if not 1 <= self.jobs <= MAX_JOBS:
            raise ValueError(f"jobs must be 1 … {MAX_JOBS}, not {self.jobs}")
        if self.engine not in ("local", "dask"):
            raise ValueError(f"unknown engine {self.engine!r} (expected local or dask)")
        if self.scheduler and self.engine != "dask":
            raise ValueError("a scheduler address is for the dask engine")
        if self.scoring not in SCHEMES:
            raise ValueError(f"unknown scoring {self.scoring!r}")
        if self.scoring != Scheme.APP and not self.optimal:
            raise ValueError(f"the {self.scoring} scoring needs optimal scores")
        if self.must_clear and not self.optimal:
            raise ValueError("must_clear asks for best scores: it needs optimal scores")
        if self.resume and self.csv_path is None:
            raise ValueError("resuming needs a CSV file to continue")
        if self.csv_path is not None and self.csv_stream is not None:
            raise ValueError("rows go to a CSV file or to a stream, not both")
        if self.plot_path is not None and not self.optimal:
            raise ValueError("the plot draws best scores, which a run without optimum lacks")
        games = self.extras.games
        if games is not None and not 1 <= games <= MAX_GAMES:
            raise ValueError(f"difficulty games must be 1 … {MAX_GAMES}, not {games}")
        if self.extras.seed < 0:
            raise ValueError(f"the seed must be 0 or more, not {self.extras.seed}")


class BatchRun:
    """A prepared batch: its files locked, a resumed CSV read back into the summary.

    Use as a context manager; :meth:`run` starts the engine, readies the CSV (cut after
    its last complete row, or a header written), solves what is left and returns the
    summary of the whole range. Nothing is written before :meth:`run` has an engine, so
    a scheduler that cannot be reached changes no file; a file this run created is
    removed again if nothing was written to it.
    """

    def __init__(self, spec: BatchSpec) -> None:
        spec.check()
        self.spec = spec
        self.summary = Summary(spec.deals, spec.rules, spec.optimal, spec.template.variant,
                               spec.scoring, spec.extras, spec.must_clear)
        self.kept_rows = 0  # complete rows of a resumed file
        self.kept_in_range = 0  # those of this range and rule sets
        self.torn = False
        self.rows_written = 0
        self._csv: CsvOutput | None = None
        self._plot: LockedFile | None = None
        try:
            if spec.plot_path is not None:
                self._plot = open_output(spec.plot_path, "the plot", "plot", spec.force)
            if spec.csv_path is not None or spec.csv_stream is not None:
                mode = "resume" if spec.resume else "replace" if spec.force else "new"
                self._csv = CsvOutput(spec.csv_path, mode, spec.csv_stream, spec.columns())
                if spec.resume:
                    self._read_back(self._csv)
        except BaseException:
            self.close()
            raise
        self.pending_deals = self.summary.pending_deals()

    def _read_back(self, csv: CsvOutput) -> None:
        """Count the complete rows of ``csv`` into the summary, refusing a file that
        another kind of run made or that holds a pair twice."""
        spec, summary, name = self.spec, self.summary, csv.name
        layouts = spec.layouts
        lines: dict[int, str] = {}

        def line_of(i: int) -> str:  # dealt when a row needs it (a PySolFC range is lazy)
            assert layouts is not None
            if i not in lines:
                lines[i] = Deal.from_cards(layouts[i]).line()
            return lines[i]

        settings = (spec.template.variant, spec.scoring)
        reader = csv.reader()
        for number, row in reader.rows():
            where = f"{name} line {number}"
            if row.optimal != spec.optimal:
                made = "with" if row.optimal else "without"
                raise BatchError(f"{where} holds a row solved {made} optimal scores "
                                 f"({row.code or row.line[:20]}), unlike this run",
                                 "mismatch", "csv", optimal=row.optimal)
            if row.must_clear != spec.must_clear:
                made = "with" if row.must_clear else "without"
                raise BatchError(f"{where} holds a row solved {made} --must-clear, unlike this "
                                 "run: resume it with the same options, or use another file",
                                 "mismatch", "csv")
            if row.extras != spec.extras:
                raise BatchError(f"{where} was made with {_options(row.extras)}, unlike this "
                                 f"run ({_options(spec.extras)}): resume it with the same "
                                 "options, or use another file", "mismatch", "csv")
            if (row.variant, row.scoring) != settings:
                raise BatchError(f"{where} holds a row of variant {row.variant or 'none'!r} "
                                 f"and scoring {str(row.scoring)!r}: resume it with the same "
                                 "options, or use another file", "mismatch", "csv")
            pysol = spec.pysol
            if bool(row.line) != (layouts is not None) or (
                    layouts is not None and row.deal < len(layouts) and (
                        row.line != line_of(row.deal) or (pysol is not None and row.pysol != (
                            pysol.game(row.deal).shown)))) or (
                    bool(row.pysol) != (pysol is not None)):
                raise BatchError(f"{where} holds a row of another deal "
                                 f"({row.code or row.line[:20] + '…'}): resume it with the "
                                 "same range or layout file", "mismatch", "csv")
            if row.deal in spec.deals:
                if summary.has(*row.key):
                    what = row.code or (f"PySolFC game {row.pysol} under {row.rules} rules"
                                        if row.pysol else
                                        f"layout {row.deal} under {row.rules} rules")
                    raise BatchError(f"{name} holds {what} twice (line {number} repeats it)",
                                     "not-batch", "csv")
                summary.add(row)
                self.kept_in_range += row.rules in spec.rules
            self.kept_rows += 1
        self.torn = reader.torn
        if reader.header and reader.added != spec.columns():
            have = ",".join(reader.added) or "none"
            raise BatchError(f"{name} has the added columns {have}, unlike this run "
                             f"({_options(spec.extras)}): resume it with the same options, "
                             "or use another file", "mismatch", "csv")

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Release the files (a file this run created and left empty is removed)."""
        if self._csv is not None:
            self._csv.close()
            self._csv = None
        if self._plot is not None:
            self._plot.close(discard=True)
            self._plot = None

    def _engine(self) -> LocalEngine | DaskEngine:
        spec = self.spec
        if spec.engine == "dask":
            return DaskEngine(spec.scheduler, spec.jobs)
        locked = tuple(f for f in (self._csv and self._csv.fd,
                                   self._plot and self._plot.fd) if f)
        return LocalEngine(spec.jobs, spec.scoring, locked)

    def rows(self, on_progress: Callable[[int], object] | None = None
             ) -> Generator[Row, None, None]:
        """Solve what is left and yield its rows in order, each written to the CSV (if
        any) and counted in the summary first; ``on_progress(n)`` after each chunk of n
        deals."""
        spec, summary = self.spec, self.summary
        if not self.pending_deals:
            if self._csv is not None:
                self._csv.begin()  # still drop a torn last line, or write a missing header
            return
        engine = self._engine()
        with engine:  # started before the CSV is touched: a dead scheduler changes nothing
            if self._csv is not None:
                self._csv.begin()
            cap = 500 if spec.engine == "dask" else 50
            size = chunk_size(self.pending_deals, engine.workers, cap)
            chunks = iter_chunks(spec.deals, summary, size, spec.layouts)
            results = engine.map_ordered(chunks, spec.solver())
            try:
                for rows in results:
                    if spec.pysol is not None:  # the game numbers, as PySolFC shows them
                        rows = [dataclasses.replace(r, pysol=spec.pysol.game(r.deal).shown)
                                for r in rows]
                    if self._csv is not None:
                        self._csv.write_rows(rows)
                        self.rows_written += len(rows)
                    for row in rows:
                        summary.add(row)
                    if on_progress is not None:
                        on_progress(len({r.deal for r in rows}))
                    yield from rows
            finally:
                results.close()

    def run(self, on_progress: Callable[[int], object] | None = None) -> Summary:
        """Solve what is left, write rows in order, return the summary of the whole range."""
        solved = self.rows(on_progress)
        try:
            for _ in solved:
                pass
        finally:
            solved.close()  # a stop part way closes the engine here, not at collection
        self.summary.check_complete()
        if self._plot is not None:
            self._plot.replace_with(render_png(self.summary, self.spec.source))
        return self.summary


def solve_range(start: int | str, stop: int | str, rules: str | None = None, *,
                optimal: bool = True, scoring: Scheme | str = Scheme.APP, must_clear: bool = False,
                difficulty: int | None = None, players: Iterable[str] = (), seed: int = 0,
                jobs: int = 1, **variant: bool
                ) -> Iterator[dict[str, int | float | bool | str | None]]:
    """Solve deals ``start`` … ``stop`` - 1 (numbers or deal ids; or PySolFC game numbers,
    ``"pysol:1"``, ``"pysol:32001"``) under ``rules`` (``both``, ``easy``, ``classic``;
    None: both, or Easy for PySolFC's games) and yield a row per deal and rule set, in the
    order ``batch --csv`` writes them, as a dict of exactly its columns (``difficulty``
    R and ``players`` add theirs, seeded with ``seed``). Values are Python's: whole
    numbers int (None where the CSV field is empty), ``seconds`` and ``difficulty``
    float, ``winnable`` and ``must_clear`` bool, the rest text (docs/api.md).
    ``jobs`` worker processes solve (1: this one); ``variant`` takes the rule options
    ``empty_waste``, ``joker``, ``draw_when_stuck``, ``open``."""
    games = parse_pysol_range(str(start), str(stop)) if is_pysol(str(start)) else None
    rule_sets = select_rules(rules or ("easy" if games is not None else "both"), None,
                             **variant)
    deals = parse_range(str(start), str(stop)) if games is None else range(len(games))
    spec = BatchSpec(deals, tuple(r.name for r in rule_sets),
                     optimal, jobs=jobs, template=rule_sets[0], scoring=check_scheme(scoring),
                     layouts=games,
                     extras=Extras(difficulty, tuple(parse_player(p).label for p in players),
                                   seed), must_clear=must_clear)
    with BatchRun(spec) as run:
        for row in run.rows():
            yield row.as_dict()


__all__ = ["BatchRun", "BatchSpec", "WorkItem", "chunk_size", "iter_chunks", "solve_chunk",
           "solve_range"]
