"""``solve``, the default command: verdicts, best scores and lines for codes and layouts."""

from __future__ import annotations

import json
import time
from pathlib import Path

import click

from ..dealing import Deal
from ..layout import Layout
from ..probability import WinShare, win_probability
from ..render import deal_picture, layout_picture
from ..rules import RULE_CHOICES, Rules
from ..solver import Solution, solve, warm_up
from .common import parse_code, peak_mark, pick_rules, read_layouts, rule_options
from .group import cli


def _verdict(sol: Solution) -> str:
    if sol.scheme == "cards-left" and sol.best_score is not None:
        left = f"{sol.best_score} cards left in {sol.best_moves} moves"
        return f"winnable, {left}" if sol.winnable else f"not winnable, at best {left}"
    if sol.scheme == "original" and sol.best_score is not None:
        word = "winnable" if sol.winnable else "not winnable"
        return f"{word}, best original score {sol.best_score}"
    if sol.winnable:
        if sol.min_draws is None:
            return "winnable"
        draws = "draw" if sol.min_draws == 1 else "draws"
        return f"winnable, best score {sol.best_score} ({sol.min_draws} {draws})"
    if sol.max_removed is None:
        return "not winnable"
    text = f"not winnable, at most {sol.max_removed} of 28 cards"
    return text if sol.best_score is None else f"{text}, best score {sol.best_score}"


def solution_json(code: str | None, number: int | None, sol: Solution, with_line: bool) -> dict:
    row = {"code": code, "deal": number, **sol.summary(), "variant": sol.rules.variant,
           "scoring": sol.scheme}
    if sol.scheme == "cards-left":
        row["best_moves"] = sol.best_moves
    if with_line:
        row["solution"] = sol.tokens
    return row


def _print_line(sol: Solution) -> None:
    if not sol.moves:
        return
    goal = "win" if sol.winnable and sol.scheme != "original" else "best end"
    click.echo(f"\n{sol.rules} line to the {goal}, {len(sol.moves)} moves:")
    label = {"app": "score", "original": "original score", "cards-left": "cards left"}[sol.scheme]
    for step in sol.steps():
        what = f"draw {step.card.pretty}" if step.is_draw else step.card.pretty
        mark = peak_mark(step.peaks_cleared, sol.deal.position_of(step.card))
        click.echo(f"{step.number:4d}. {what:<10} {label} {step.score}{mark}")


def _share_text(share: WinShare) -> str:
    pct = 100 * share.share
    if share.exact:
        return f"winnable in {share.wins:,} of {share.total:,} completions ({pct:.1f}%, exact)"
    low, high = share.interval
    text = (f"winnable in {share.wins:,} of {share.total:,} sampled completions ({pct:.1f}%, "
            f"95% interval {100 * low:.1f}–{100 * high:.1f}%)")
    if share.wins == share.total:
        text += ": winnable in every sampled completion"
    elif share.wins == 0:
        text += ": winnable in none"
    return text


@cli.command("solve", short_help="Solve deals (the default command).")
@click.argument("codes", nargs=-1)
@click.option("--rules", "rule_choice", type=click.Choice(RULE_CHOICES), default="both",
              show_default=True,
              help="Rule sets to solve under: the code's own letter, easy, classic or both.")
@click.option("--layout", "layouts", multiple=True, metavar="CARDS",
              help="A deal typed in: 52 cards in `deal --format line` order (positions "
                   "0–27, waste, stock in draw order); ?? for a card you cannot see.")
@click.option("--layout-file", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="A file of layouts, one per line; blank lines and # comments skipped.")
@click.option("--samples", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Random completions solved for a layout with ?? cards (all of them "
                   "when there are no more distinct ones than this).")
@click.option("--seed", type=int, default=None, help="Seed for the random completions.")
@click.option("--json", "as_json", is_flag=True,
              help="Print a JSON list, one object per (deal, rules).")
@click.option("--no-solution", is_flag=True, help="Leave out the line of moves.")
@click.option("--fast", is_flag=True,
              help="Answer winnability only (depth-first, no optimal score).")
@rule_options()
def solve_command(codes: tuple[str, ...], rule_choice: str, layouts: tuple[str, ...],
                  layout_file: Path | None, samples: int, seed: int | None, as_json: bool,
                  no_solution: bool, fast: bool, scoring: str, **opts) -> None:
    """Solve deals: winnable under Easy and Classic, best score, a line reaching it.

    CODES are game codes such as TP1-E-AAAAAAD; --layout and --layout-file take deals
    typed in, where ?? marks a card you cannot see: the answer is then the share of the
    ways to fill them that can be won.
    """
    parsed = [parse_code(c) for c in codes]
    typed = read_layouts(layouts, layout_file)
    if not parsed and not typed:
        raise click.UsageError("give a game code (e.g. TP1-E-AAAAAAD), --layout or --layout-file")
    jobs: list[tuple[str | None, int | None, str, list[Rules], Layout | None, Deal | None]] = []
    for gc in parsed:
        rule_sets = pick_rules(rule_choice, gc.rules, opts, gc.joker)
        deal = Deal.from_number(gc.number, rule_sets[0].joker)
        jobs.append((str(gc), gc.number, gc.rules, rule_sets, None, deal))
    for name, lay in typed:
        rule_sets = pick_rules(rule_choice, None, opts)
        known = None if lay.unknown_places else lay.deal()
        jobs.append((None, None, name, rule_sets, lay, known))
    out = []
    warmed = False
    for n, (code, number, own, rule_sets, lay, deal) in enumerate(jobs):
        if not as_json and n:
            click.echo("\n" + "=" * 60 + "\n")
        if deal is None:
            started = time.perf_counter()
            shares = [win_probability(lay, r, samples, seed) for r in rule_sets]
            seconds = time.perf_counter() - started
            if as_json:
                out += [{"layout": lay.line(), "rules": s.rules.name,
                         "variant": s.rules.variant, "wins": s.wins, "completions": s.total,
                         "exact": s.exact, "share": s.share} for s in shares]
                continue
            click.echo(f"{own}: {len(lay.unknown_places)} unknown cards")
            click.echo(layout_picture(lay))
            click.echo("")
            for s in shares:
                click.echo(f"{str(s.rules) + ':':<8} {_share_text(s)}")
            click.echo(f"\nSolved {sum(s.solved for s in shares):,} completions in {seconds:.2f} s")
            continue
        if not warmed:
            warm_up(scoring)
            warmed = True
        sols = [solve(deal, r, optimal=not fast, scheme=scoring) for r in rule_sets]
        if as_json:
            line = None if code else deal.line()
            for s in sols:
                row = solution_json(code, number, s, not no_solution)
                if line:
                    row["line"] = line
                out.append(row)
            continue
        click.echo(f"{code}  (deal {number})" if code else f"{own}")
        click.echo(deal_picture(deal, rule_sets[0]))
        click.echo("")
        for sol in sols:
            click.echo(f"{str(sol.rules) + ':':<8} {_verdict(sol)}")
        shown = next((s for s in sols if s.rules.name == own), sols[0])
        if not no_solution:
            _print_line(shown)
        states = ", ".join(f"{s.states:,} states ({s.rules.name})" for s in sols)
        total = sum(s.seconds for s in sols)
        click.echo(f"\nSearched {states} in {total * 1000:.1f} ms")
    if as_json:
        click.echo(json.dumps(out, indent=2, ensure_ascii=False))
