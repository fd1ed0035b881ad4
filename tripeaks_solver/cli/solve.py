"""``solve``, the default command: verdicts, best scores and lines for codes and layouts."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..limits import LAYOUT_SAMPLES, MAX_SAMPLES
from ..model.codes import GameCode, NamedDeal, is_deal_number
from ..model.dealing import Deal
from ..model.layout import Layout
from ..model.pysol import PysolGame, pysol_line
from ..model.render import deal_picture, layout_picture
from ..model.rules import RULE_CHOICES, Rules
from ..model.scoring import RUN_SCHEMES, Scheme
from .common import (
    ADVICE_SEED,
    STDIN,
    InputPath,
    must_clear_option,
    parse_code,
    peak_mark,
    pick_rules,
    plural,
    read_codes,
    read_layouts,
    refuse_unused,
    rule_options,
)
from .group import cli

if TYPE_CHECKING:
    from ..analysis.probability import WinShare
    from ..solver.solve import Solution

@dataclass(frozen=True)
class _Job:
    source: str  # the code, or where it was read: "layout 1", "deals.txt:3"
    code: str | None
    number: int | None
    own: str | None  # the rules letter of a code: its line is the one shown
    rule_sets: tuple[Rules, ...]
    layout: Layout | None  # a deal typed in
    deal: Deal | None  # None: the layout has unknown cards


_LABELS = {Scheme.APP: "score", Scheme.ORIGINAL: "original score",
           Scheme.CARDS_LEFT: "cards left", Scheme.PYSOL: "PySolFC score"}


def _verdict(sol: Solution) -> str:
    if sol.must_clear and not sol.winnable:
        return "not winnable: no line clears the board"
    if sol.scheme == Scheme.CARDS_LEFT and sol.best_score is not None:
        left = (f"{plural(sol.best_score, 'card')} left in "
                f"{plural(sol.best_moves or 0, 'move')}")
        return f"winnable, {left}" if sol.winnable else f"not winnable, at best {left}"
    if sol.scheme in RUN_SCHEMES and sol.best_score is not None:
        word = "winnable" if sol.winnable else "not winnable"
        cleared = " with the board cleared" if sol.must_clear else ""
        return f"{word}, best {_LABELS[sol.scheme]} {sol.best_score}{cleared}"
    if sol.winnable:
        if sol.min_draws is None:
            return "winnable"
        return f"winnable, best score {sol.best_score} ({plural(sol.min_draws, 'draw')})"
    if sol.max_removed is None:
        return "not winnable"
    text = f"not winnable, at most {sol.max_removed} of 28 cards"
    return text if sol.best_score is None else f"{text}, best score {sol.best_score}"


def _print_line(sol: Solution) -> None:
    if not sol.moves:
        return
    goal = ("win" if sol.winnable and (sol.scheme not in RUN_SCHEMES or sol.must_clear)
            else "best end")
    click.echo(f"\n{sol.rules} line to the {goal}, {plural(len(sol.moves), 'move')}:")
    label = _LABELS[sol.scheme]
    for step in sol.steps():
        what = f"draw {step.card.pretty}" if step.is_draw else step.card.pretty
        mark = peak_mark(step.peaks_cleared, sol.deal.position_of(step.card))
        click.echo(f"{step.number:4d}. {what:<10} {label} {step.score}{mark}")


def _share_text(share: WinShare) -> str:
    pct = 100 * share.share
    completions = "completion" if share.total == 1 else "completions"
    if share.exact:
        return (f"winnable in {share.wins:,} of {share.total:,} {completions} "
                f"({pct:.1f}%, exact)")
    low, high = share.interval
    text = (f"winnable in {share.wins:,} of {share.total:,} sampled {completions} "
            f"({pct:.1f}%, 95% interval {100 * low:.1f}–{100 * high:.1f}%)")
    if share.wins == share.total:
        text += ": winnable in every sampled completion"
    elif share.wins == 0:
        text += ": winnable in none"
    return text


def _jobs(codes: tuple[str, ...], typed: list[tuple[str, Layout]], rule_choice: str,
          opts: dict) -> list[_Job]:
    parsed: list[tuple[str | None, str, NamedDeal]] = []
    for text in codes:
        if text == STDIN:
            parsed += read_codes(STDIN)
        else:
            parsed.append((None, text, parse_code(text)))
    jobs = []
    for source, word, gc in parsed:
        rule_sets = pick_rules(rule_choice, gc.rules, opts, gc.joker, gc.number is None)
        if isinstance(gc, PysolGame):  # PySolFC's deal: no code of ours
            jobs.append(_Job(source or str(gc), None, None, "easy", rule_sets, None,
                             Deal.of(gc, rule_sets[0].joker)))
            continue
        # The code names the deal as played, as deal's and batch's do: --joker makes it
        # TP1-EJ-…; a deal number takes the letter of its (first) rule set.
        letter = rule_sets[0].name if is_deal_number(word) else gc.rules
        code = GameCode(gc.number, letter, rule_sets[0].joker)
        jobs.append(_Job(source or str(code), str(code), gc.number, letter, rule_sets, None,
                         Deal.from_code(code)))
    for name, lay in typed:
        rule_sets = pick_rules(rule_choice, None, opts)
        jobs.append(_Job(name, None, None, None, rule_sets, lay,
                         None if lay.unknown_places else lay.deal()))
    return jobs


@cli.command("solve", short_help="Solve deals (the default command).")
@click.argument("codes", nargs=-1)
@click.option("--layout", "layouts", multiple=True, metavar="CARDS",
              help="A deal typed in: 52 cards in `deal --format line` order (positions "
                   "0–27, waste, stock in draw order); ?? for a card you cannot see.")
@click.option("--layout-file", type=InputPath(), default=None,
              help="A file of layouts, one per line (- for standard input); blank lines and "
                   "# comments skipped.")
@click.option("--samples", type=click.IntRange(min=1, max=MAX_SAMPLES), default=LAYOUT_SAMPLES,
              show_default=True,
              help="Random completions solved for a layout with ?? cards (all of them "
                   "when there are no more distinct ones than this).")
@click.option("--seed", type=ADVICE_SEED, default=None, help="Seed for the random completions.")
@click.option("--json", "as_json", is_flag=True,
              help="Print a JSON list, one object per (deal, rules).")
@click.option("--no-solution", is_flag=True, help="Leave out the line of moves.")
@click.option("--optimal/--no-optimal", default=True, show_default=True,
              help="Find the best score (of --scoring) and fewest draws, or winnability "
                   "only (faster).")
@click.option("--fast", is_flag=True, hidden=True, help="The old name of --no-optimal.")
@must_clear_option
@rule_options(choices=RULE_CHOICES, default="both")
def solve_command(codes: tuple[str, ...], rule_choice: str, layouts: tuple[str, ...],
                  layout_file: Path | None, samples: int, seed: int | None, as_json: bool,
                  no_solution: bool, optimal: bool, fast: bool, must_clear: bool, scoring: Scheme,
                  **opts) -> None:
    """Solve deals: winnable under Easy and Classic, best score, a line reaching it.

    CODES are game codes such as TP1-E-AAAAAAD, deal numbers, or PySolFC game numbers
    such as pysol:123456 (under PySolFC's rules, Easy, unless --rules is given); - reads
    codes from standard input (separated by spaces or lines). --layout and --layout-file take deals typed in,
    where ?? marks a card you cannot see: the answer is then the share of the ways to
    fill them that can be won.
    """
    optimal = optimal and not fast
    if not optimal and scoring != Scheme.APP:
        raise click.UsageError(f"--no-optimal answers winnability only, without a score: "
                               f"it cannot take --scoring {scoring}")
    if not optimal and must_clear:
        raise click.UsageError("--no-optimal answers winnability only, without a score: "
                               "it cannot take --must-clear")
    if codes.count(STDIN) + (layout_file is not None and str(layout_file) == STDIN) > 1:
        raise click.UsageError("standard input (-) can be read only once")
    typed = read_layouts(layouts, layout_file)
    jobs = _jobs(codes, typed, rule_choice, opts)
    if not jobs:
        if STDIN in codes or layout_file is not None:
            raise click.UsageError("no game code nor layout in the input")
        raise click.UsageError("give a game code (e.g. TP1-E-AAAAAAD), --layout or --layout-file")
    if all(job.deal is not None for job in jobs):  # no layout with ?? cards
        refuse_unused(("samples", "seed"), "it counts for a layout with ?? cards")
    if all(job.deal is None for job in jobs):
        refuse_unused(("must_clear",), "a layout with ?? cards gets win shares, not scores")
    from ..kernels.jit import compile_notice  # the kernels load from here on
    from ..solver.solve import warm_up

    out = []
    with compile_notice():  # the first solve of a fresh install compiles for seconds
        if any(job.deal is not None for job in jobs):
            warm_up(scoring)
        for n, job in enumerate(jobs):
            if not as_json and n:
                click.echo("\n" + "=" * 60 + "\n")
            if job.deal is None:
                out += _solve_layout(job, samples, seed, as_json)
            else:
                out += _solve_deal(job, optimal, scoring, no_solution, as_json, must_clear)
    if as_json:
        click.echo(json.dumps(out, indent=2, ensure_ascii=False))


def _solve_layout(job: _Job, samples: int, seed: int | None, as_json: bool) -> list[dict]:
    from ..analysis.probability import win_probability

    assert job.layout is not None
    shares, times = [], []
    for rules in job.rule_sets:
        started = time.perf_counter()
        shares.append(win_probability(job.layout, rules, samples, seed))
        times.append(time.perf_counter() - started)
    if as_json:
        return [s.to_dict(job.source) for s in shares]
    click.echo(f"{job.source}: {plural(len(job.layout.unknown_places), 'unknown card')}")
    click.echo(layout_picture(job.layout))
    click.echo("")
    for s in shares:
        click.echo(f"{str(s.rules) + ':':<8} {_share_text(s)}")
    solved = sum(s.solved for s in shares)
    click.echo(f"\nSolved {plural(solved, 'completion')} in {sum(times):.2f} s")
    return []


def _solve_deal(job: _Job, optimal: bool, scoring: Scheme, no_solution: bool,
                as_json: bool, must_clear: bool = False) -> list[dict]:
    from ..solver.solve import solve

    assert job.deal is not None
    sols = [solve(job.deal, r, optimal=optimal, scheme=scoring, must_clear=must_clear)
            for r in job.rule_sets]
    if as_json:
        return [s.to_dict(job.source, not no_solution) for s in sols]
    click.echo(f"{job.code}  (deal {job.number})" if job.code else job.source)
    pysol = pysol_line(job.deal, job.rule_sets[0], scoring)
    if pysol:
        click.echo(pysol)
    click.echo(deal_picture(job.deal, job.rule_sets[0]))
    click.echo("")
    for sol in sols:
        click.echo(f"{str(sol.rules) + ':':<8} {_verdict(sol)}")
    shown = next((s for s in sols if s.rules.name == job.own), sols[0])
    if not no_solution:
        _print_line(shown)
    states = ", ".join(f"{plural(s.states, 'state')} ({s.rules.name})" for s in sols)
    total = sum(s.seconds for s in sols)
    click.echo(f"\nSearched {states} in {total * 1000:.1f} ms")
    return []
