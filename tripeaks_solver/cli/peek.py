"""``peek``: the plan of taps (moves and undos) that shows every card of a deal in an app
with undo, simulated on a deal whose cards are known, then the best line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..analysis.reports import PeekReport
from ..errors import InputError
from ..games.turns import NO_MOVES_NOTE, n_moves, score_label
from ..model.game import PEEK_SEED, UNDO_LIMIT, Status
from ..model.geometry import TABLEAU_SIZE
from ..model.i18n import _, ngettext, pgettext
from ..model.layout import Layout
from ..model.moves import Move
from ..model.observed import ObservedGame, name_place
from ..model.scoring import Scheme
from .common import ADVICE_SEED, rule_options
from .games import game_options, play_game, read_game
from .group import cli

if TYPE_CHECKING:
    from ..analysis.peek import Excursion, PeekPlan
    from ..model.rules import Rules

def undo_limit_option(f):
    """--undo-limit: how deep a peek may go (``peek`` and ``coach``)."""
    return click.option(
        "--undo-limit", type=click.IntRange(0, 10_000), default=UNDO_LIMIT, show_default=True,
        help="How many moves the app can take back (the TP1 app: 100; 0: no undo, nothing "
             "to peek). A peek never goes deeper than this.")(f)


def excursion_text(excursion: Excursion, undos_before: int, knowledge: Layout,
                   rules: Rules) -> str:
    """``undo 3, then 8♥ 7♣: shows Q♦ (row 3 from the top, 4th card from the left)``."""
    moves = " ".join(m.pretty for m in excursion.moves)
    said = ", ".join(f"{knowledge.card(p).pretty} ({name_place(p, rules)})"
                     for p in excursion.shows)
    text = (_("undo {undos}, then {moves}: shows {cards}", undos=undos_before, moves=moves,
              cards=said) if undos_before else
            _("{moves}: shows {cards}", moves=moves, cards=said))
    if excursion.no_moves_message:
        text += f" ({_(NO_MOVES_NOTE)})"
    return text


def plan_lines(plan: PeekPlan, rules: Rules, here: bool) -> list[str]:
    """The plan as a player reads it: a summary, then one numbered line an excursion;
    ``here``: it begins after moves played (else at the start)."""
    moves = sum(len(e.moves) for e in plan.excursions)
    undos = plan.actions - moves
    taps = ngettext("{n} tap", "{n} taps", plan.actions)
    counts = {"taps": taps, "moves": n_moves(moves),
              "undos": ngettext("{n} undo", "{n} undos", undos)}
    lines = [ngettext("Peek plan from here: {taps} ({moves}, {undos}) show {n} card",
                      "Peek plan from here: {taps} ({moves}, {undos}) show {n} cards",
                      len(plan.revealed), **counts) if here else
             ngettext("Peek plan from the start: {taps} ({moves}, {undos}) show {n} card",
                      "Peek plan from the start: {taps} ({moves}, {undos}) show {n} cards",
                      len(plan.revealed), **counts)]
    if plan.by_elimination is not None:
        p = plan.by_elimination
        lines.append("  " + _("and the last unknown card follows by elimination: {card} "
                              "({place})", card=plan.knowledge.card(p).pretty,
                              place=name_place(p, rules)))
    if plan.unreachable:
        peaks = sum(p < TABLEAU_SIZE for p in plan.unreachable)
        stock = len(plan.unreachable) - peaks
        parts = ([_("{count} in the peaks", count=peaks)] if peaks else []) + (
            [_("{count} in the stock", count=stock)] if stock else [])
        lines.append("  " + ngettext(
            "{n} card stays unknown ({parts}): no line within the undo limit shows it with "
            "the cards known",
            "{n} cards stay unknown ({parts}): no line within the undo limit shows them with "
            "the cards known", len(plan.unreachable), parts=_(" and ").join(parts)))
    lines.append("")
    width = len(str(len(plan.excursions))) * 2 + 1
    undos_before = 0
    excursions = plan.excursions
    i = 0
    while i < len(excursions):
        # a run of single draws, one after the other: one line
        j = i
        while j < len(excursions) and excursions[j].moves == (Move.DRAW,) and (
                j == i and not undos_before or j > i and not excursions[j - 1].undos) \
                and not excursions[j].no_moves_message:
            j += 1
        if j - i > 1:
            cards = " ".join(plan.knowledge.card(e.shows[0]).pretty for e in excursions[i:j])
            first, last = (excursions[k].shows[0] - TABLEAU_SIZE + rules.empty_waste
                           for k in (i, j - 1))
            lines.append(f"  {f'{i + 1}-{j}':>{width}}  " + _(
                "draw {times} times: shows {cards} (stock cards {first} to {last})",
                times=j - i, cards=cards, first=first, last=last))
            undos_before = excursions[j - 1].undos
            i = j
            continue
        lines.append(f"  {i + 1:>{width}}  "
                     + excursion_text(excursions[i], undos_before, plan.knowledge, rules))
        undos_before = excursions[i].undos
        i += 1
    if excursions:
        lines.append(f"  {'':>{width}}  " + (
            _("undo {undos}: back to here", undos=undos_before) if here else
            _("undo {undos}: back to the start", undos=undos_before)))
    return lines


@cli.command("peek", short_help="Plan the fewest taps that show every card (apps with undo).")
@click.argument("words", nargs=-1, metavar="CODE [MOVES]...")
@game_options
@undo_limit_option
@click.option("--seed", type=ADVICE_SEED, default=PEEK_SEED, show_default=True,
              help="Seed of the samples of the unseen cards that choose the moves (the "
                   "same seed, the same plan).")
@click.option("--json", "as_json", is_flag=True, help="Print the plan as a JSON object.")
@rule_options()
def peek_command(words: tuple[str, ...], rule_choice: str, layouts: tuple[str, ...],
                 layout_file: Path | None, seen: str | None, record_path: Path | None,
                 lang: str | None, undo_limit: int, seed: int, as_json: bool, scoring: Scheme,
                 **opts) -> None:
    """Plan a peek: the taps that show every card, then the best line.

    In an app with undo a player can look and take back: draw and undo, play cards
    to see what turns up and undo them. The plan plays one line toward the line that
    shows every card (where moves differ, it tries them on random guesses at the
    unseen cards, --seed), then repairs what it missed, one excursion at a time (moves,
    the last of which shows a card not seen yet, then as many undos as the next
    excursion needs), each chosen with only the cards seen by then, and counts the
    taps (moves + undos). The last unknown card follows by elimination. When every
    card is known, the best line from where the peek began.

    The plan is simulated on a deal whose cards are all known here: a CODE, a full
    --layout, or a game (--seen, --record) whose moves have shown every card; MOVES
    say where the peek begins. In a game whose cards you do not know, `coach --peek`
    guides you through the same plan as you go.
    """
    typed = read_game(words, layouts, layout_file, seen, record_path, rule_choice, scoring,
                      opts)
    game = play_game(typed, lang)
    deal = game.deal
    if deal is None:
        raise InputError(_("peek simulates the plan on a deal whose cards are all known (a "
                           "code, a full --layout, or a record that has shown every card); in "
                           "a game you are playing, coach --peek guides you as you go"))
    status = game.position().status
    if status is not Status.IN_PLAY:
        raise InputError(_("the game is over (won) after move {number}: nothing to peek",
                           number=len(game.record)) if status is Status.WON else
                         _("the game is over (stuck) after move {number}: nothing to peek",
                           number=len(game.record)))
    from ..analysis.peek import plan_peek
    from ..solver.solve import solve

    rules = typed.start.rules
    no_undo = typed.scoring == Scheme.PYSOL  # PySolFC's scored games have no undo
    if no_undo:
        undo_limit = 0
    knowledge = Layout.of_deal(deal, game.known_places)
    plan = plan_peek(deal, rules, knowledge, game.moves, undo_limit, seed=seed)
    best = solve(game.position(), scheme=typed.scoring) if plan.complete else None
    if as_json:
        report = PeekReport(typed.start, typed.scoring, undo_limit, plan, best)
        click.echo(json.dumps(report.to_dict(), ensure_ascii=False))
        return
    played = game.game.moves  # as the app counts them: undone moves too
    click.echo(_("{title}, after {moves}", title=typed.title(game), moves=n_moves(played))
               if game.record else typed.title(game))
    if no_undo:
        click.echo(_("PySolFC's scored games have no undo (--scoring pysol): nothing to "
                     "plan; the cards show as you play."))
        return
    if not undo_limit:
        click.echo(_("No undo (--undo-limit 0): nothing to plan; the cards show as you play."))
        return
    _print_plan(game, plan, rules, typed.scoring, best)


def _print_plan(game: ObservedGame, plan: PeekPlan, rules: Rules, scoring: Scheme, best) -> None:
    if plan.excursions or plan.by_elimination is not None or plan.unreachable:
        for line in plan_lines(plan, rules, here=bool(game.record)):
            click.echo(line)
    else:
        click.echo(_("Every card is known already: nothing to peek."))
    if best is None:
        click.echo("\n" + _("Some cards stay unknown: play on with the fair advice of hint or "
                            "coach."))
        return
    label = pgettext("hint", "best") if scoring == Scheme.CARDS_LEFT else _(
        "best {label}", label=score_label(scoring))
    click.echo("\n" + (_("Then every card is known: {label} {best}, winnable:", label=label,
                         best=best.best_score) if best.winnable else
                       _("Then every card is known: {label} {best}, no win:", label=label,
                         best=best.best_score)))
    click.echo("  " + (" ".join(m.pretty for m in best.moves) or _("(no move left)")))
