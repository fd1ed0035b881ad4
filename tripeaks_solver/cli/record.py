"""``deal`` (show a layout) and ``replay`` (check and score a record)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from click.core import ParameterSource

from ..errors import IllegalMoveError, InputError
from ..games.turns import n_moves, score_label
from ..model.dealing import Deal
from ..model.game import Game, Status
from ..model.i18n import _, ngettext, pgettext
from ..model.moves import move_numbers
from ..model.observed import ObservedGame, move_error
from ..model.pysol import pysol_info, pysol_line
from ..model.render import board_lines, deal_picture
from ..model.rules import Rules
from ..model.scoring import Scheme
from .common import (
    EXIT_ILLEGAL,
    Choice,
    parse_code,
    peak_mark,
    pick_rules,
    rule_options,
)
from .games import game_options, read_game
from .group import cli


def _deal_json(code: str | None, number: int | None, rules: Rules, deal: Deal) -> dict:
    waste, stock = deal.opening(rules)
    return {
        "code": code,
        "deal": number,
        "pysol": pysol_info(deal, rules),
        "rules": rules.name,
        "variant": rules.variant,
        "tableau": [c.token for c in deal.tableau],
        "waste": None if waste is None else waste.token,
        "stock": [c.token for c in stock],
    }


@cli.command("deal")
@click.argument("code")
@click.option("--format", "fmt", type=Choice(["text", "line", "json"]), default="text",
              show_default=True,
              help="text: the peaks for people; line: 52 machine tokens (positions 0–27, "
                   "waste, stock in draw order); json: the same as --json.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the deal as a JSON object: tableau, waste, stock.")
@click.option("--reveal", is_flag=True,
              help="Show face-down cards (in brackets) and the stock (text format).")
@rule_options(with_scoring=False)
@click.pass_context
def deal_command(ctx: click.Context, code: str, fmt: str, as_json: bool, reveal: bool,
                 rule_choice: str, **opts) -> None:
    """Show the layout of a deal: the peaks, the waste and the stock.

    CODE is a game code such as TP1-E-AAAAAAB, a deal number, or a PySolFC game
    number such as pysol:123456 (docs/pysol.md).
    """
    if as_json and fmt != "json" and ctx.get_parameter_source("fmt") is not ParameterSource.DEFAULT:
        raise click.UsageError(f"give --json or --format {fmt}, not both")
    gc = parse_code(code)
    rules = pick_rules(rule_choice, gc.rules, opts, gc.joker, gc.number is None)[0]
    deal = Deal.of(gc, rules.joker)
    played = gc.played(rules.name, rules.joker)
    shown = str(played)
    if as_json or fmt == "json":
        tp_code = None if gc.number is None else shown  # a PySolFC deal has no TP1 code
        click.echo(json.dumps(_deal_json(tp_code, gc.number, rules, deal), ensure_ascii=False))
    elif fmt == "line":
        click.echo(deal.line())
    else:
        pysol = pysol_line(deal, rules)
        click.echo(f"{shown}  ({rules} rules)\n{pysol}" if pysol else
                   f"{shown}  (deal {gc.number}, {rules} rules)")
        click.echo(deal_picture(deal, rules, reveal=reveal))


# --- replay -------------------------------------------------------------------------
@cli.command("replay")
@click.argument("words", nargs=-1, metavar="CODE [MOVES]...")
@game_options
@click.option("--json", "as_json", is_flag=True, help="Print the replay as a JSON object.")
@rule_options()
def replay_command(words: tuple[str, ...], rule_choice: str, layouts: tuple[str, ...],
                   layout_file: Path | None, seen: str | None, record_path: Path | None,
                   lang: str | None, as_json: bool, scoring: Scheme, **opts) -> None:
    """Play a recorded game on CODE (or --seen, --layout, --record) and score it.

    MOVES are cards to remove (Kc or K♣), draw (d) and undo (u); several may share
    one argument separated by spaces, and - reads them from standard input. On a game
    whose cards are not all known, a move names what it showed: Kc:7s (removing K♣
    turned up 7♠), d:9h (the draw showed 9♥). An illegal move stops the replay (exit
    code 1). At the end: the board, then the score.
    """
    typed = read_game(words, layouts, layout_file, seen, record_path, rule_choice, scoring,
                      opts)
    scoring = typed.scoring
    rules = typed.start.rules
    observed = ObservedGame(typed.start, lang)
    steps: list[dict] = []

    def scored() -> int:
        # Under cards-left the score is the cards left, as solve's best_score is (the
        # moves are a key of their own): an int under every scheme.
        game = observed.game
        return game.shown_score(scoring)

    def result(error: str | None = None, error_move: int | None = None) -> dict:
        # One shape, whether the record ends or stops at an illegal move (docs/json.md).
        game, start = observed.game, typed.start
        return {"code": typed.code, "deal": typed.number, "pysol": typed.pysol,
                "layout": start.text if start.kind == "layout" else None,
                "seen": start.text if start.kind == "seen" else None,
                "rules": rules.name, "variant": rules.variant, "scoring": str(scoring),
                "status": game.status.value, "score": scored(), "moves": game.moves,
                "cards_left": game.cards_left, "stock_left": game.stock_left,
                "record": observed.tokens, "known": len(observed.known_places),
                "steps": steps, "error": error, "error_move": error_move}

    if not as_json:
        click.echo(typed.title())
    draw, undo = pgettext("move", "draw"), pgettext("move", "undo")
    width = max(10, len(draw) + 4, len(undo) + 4)  # "draw 10♦", in any language
    # Moves numbered as the app counts them (an undo: the number of the move it takes back).
    numbers = move_numbers(step.move for step in typed.moves)
    for i, step in enumerate(typed.moves, 1):
        try:
            action = observed.play(step)
        except InputError as exc:
            raise click.UsageError(move_error(i, step.said, exc)) from None
        except IllegalMoveError as exc:
            if as_json:
                click.echo(json.dumps(result(str(exc), i), ensure_ascii=False))
            click.echo(move_error(i, step.said, exc), err=True)
            sys.exit(EXIT_ILLEGAL)
        kind = step.move.kind
        number = numbers[i - 1]
        steps.append({"number": number, "action": kind, "card": action.card.token,
                      "shown": [c.token for c in observed.record[-1].shown],
                      "score": scored(),
                      "peaks_cleared": action.peaks_cleared if kind == "remove" else 0})
        if not as_json:
            what = {"remove": action.card.pretty, "draw": f"{draw} {action.card.pretty}",
                    "undo": f"{undo} {action.card.pretty}"}[kind]
            mark = peak_mark(action.peaks_cleared, action.position) if kind == "remove" else ""
            if kind == "undo":  # no number of its own: it names the move it takes back
                mark = "  " + _("(move {number} taken back)", number=number)
            head = "     " if kind == "undo" else f"{number:3d}. "
            click.echo(f"{head}{what:<{width}} {_score_text(scoring, observed.game)}{mark}")
    if as_json:
        click.echo(json.dumps(result(), ensure_ascii=False))
        return
    game = observed.game
    click.echo("\n" + "\n".join(board_lines(observed.position())) + "\n")
    left = ngettext("{n} card left in the peaks, {stock} in the stock",
                    "{n} cards left in the peaks, {stock} in the stock", game.cards_left,
                    stock=game.stock_left)
    status = {Status.WON: _("Won"), Status.STUCK: _("Stuck")}.get(game.status, _("In play"))
    if scoring == Scheme.CARDS_LEFT:
        click.echo(_("{status}: {moves}, {left}", status=status, moves=n_moves(game.moves),
                     left=left))
    else:
        click.echo(_("{status}: {score}, {moves}, {left}", status=status,
                     score=_score_text(scoring, game), moves=n_moves(game.moves), left=left))


def _score_text(scoring: Scheme, game: Game) -> str:
    return f"{score_label(scoring)} {game.shown_score(scoring)}"
