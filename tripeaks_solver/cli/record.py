"""``deal`` (show a layout) and ``replay`` (check and score a record)."""

from __future__ import annotations

import json
import sys

import click
from click.core import ParameterSource

from ..codes import GameCode
from ..dealing import Deal
from ..errors import IllegalMoveError, InputError
from ..game import Game
from ..messages import LANGUAGES, language_from_env
from ..moves import Move
from ..position import Position
from ..render import board_lines, deal_picture
from ..rules import Rules
from .common import (
    EXIT_ILLEGAL,
    Choice,
    expand_stdin,
    parse_code,
    peak_mark,
    pick_rules,
    plural,
    rule_options,
)
from .group import cli


def _deal_json(code: str, number: int, rules: Rules, deal: Deal) -> dict:
    waste, stock = deal.opening(rules)
    return {
        "code": code,
        "deal": number,
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

    CODE is a game code such as TP1-E-AAAAAAB.
    """
    if as_json and fmt != "json" and ctx.get_parameter_source("fmt") is not ParameterSource.DEFAULT:
        raise click.UsageError(f"give --json or --format {fmt}, not both")
    gc = parse_code(code)
    rules = pick_rules(rule_choice, gc.rules, opts, gc.joker)[0]
    deal = Deal.from_number(gc.number, rules.joker)
    shown = str(GameCode(gc.number, rules.name, rules.joker))
    if as_json or fmt == "json":
        click.echo(json.dumps(_deal_json(shown, gc.number, rules, deal), ensure_ascii=False))
    elif fmt == "line":
        click.echo(deal.line())
    else:
        click.echo(f"{shown}  (deal {gc.number}, {rules} rules)")
        click.echo(deal_picture(deal, rules, reveal=reveal))


# --- replay -------------------------------------------------------------------------
@cli.command("replay")
@click.argument("code")
@click.argument("moves", nargs=-1)
@click.option("--lang", type=Choice(LANGUAGES), default=None,
              help="Language of the app's messages (default: from LANG, else English).")
@click.option("--json", "as_json", is_flag=True, help="Print the replay as a JSON object.")
@rule_options()
def replay_command(code: str, moves: tuple[str, ...], lang: str | None, as_json: bool,
                   rule_choice: str, scoring: str, **opts) -> None:
    """Play a recorded game on CODE and score it.

    MOVES are cards to remove (Kc or K♣), draw (d) and undo (u); several may share
    one argument separated by spaces; - reads them from standard input (# starts a
    comment). An illegal move stops the replay (exit code 1); at the end, the board.
    """
    gc = parse_code(code)
    lang = lang or language_from_env()
    rules = pick_rules(rule_choice, gc.rules, opts, gc.joker)[0]
    game = Game(Deal.from_number(gc.number, rules.joker), rules, lang)
    tokens = [t for arg in expand_stdin(moves) for t in arg.replace(",", " ").split()]
    steps: list[dict] = []

    def scored() -> int:
        # Under cards-left the score is the cards left, as solve's best_score is (the
        # moves are a key of their own): an int under every scheme.
        return game.cards_left if scoring == "cards-left" else game.score_under(scoring)

    def result(error: str | None = None, error_move: int | None = None) -> dict:
        # One shape, whether the record ends or stops at an illegal move (README).
        return {"code": str(GameCode(gc.number, rules.name, rules.joker)), "deal": gc.number,
                "rules": rules.name, "variant": rules.variant, "scoring": scoring,
                "status": game.status.value, "score": scored(), "moves": game.moves,
                "cards_left": game.cards_left, "stock_left": game.stock_left,
                "steps": steps, "error": error, "error_move": error_move}

    for i, token in enumerate(tokens, 1):
        try:
            move = Move.parse(token)
            action = game.play(move)
        except InputError as exc:
            raise click.UsageError(f"move {i}: {exc}") from None
        except IllegalMoveError as exc:
            if as_json:
                click.echo(json.dumps(result(str(exc), i), ensure_ascii=False))
            click.echo(f"move {i} ({token}): {exc}", err=True)
            sys.exit(EXIT_ILLEGAL)
        kind = move.kind
        steps.append({"number": i, "action": kind, "card": action.card.token,
                      "score": scored(),
                      "peaks_cleared": action.peaks_cleared if kind == "remove" else 0})
        if not as_json:
            what = {"remove": action.card.pretty, "draw": f"draw {action.card.pretty}",
                    "undo": f"undo {action.card.pretty}"}[kind]
            mark = peak_mark(action.peaks_cleared, action.position) if kind == "remove" else ""
            click.echo(f"{i:3d}. {what:<10} {_score_text(scoring, game)}{mark}")
    if as_json:
        click.echo(json.dumps(result(), ensure_ascii=False))
    else:
        click.echo("\n" + "\n".join(board_lines(Position.of(game))) + "\n")
        scored_text = "" if scoring == "cards-left" else f"{_score_text(scoring, game)}, "
        click.echo(f"{game.status.value.capitalize()}: {scored_text}"
                   f"{plural(game.moves, 'move')}, "
                   f"{plural(game.cards_left, 'card')} left in the peaks, "
                   f"{game.stock_left} in the stock")


def _score_text(scoring: str, game: Game) -> str:
    if scoring == "cards-left":
        return f"cards left {game.cards_left}"
    prefix = "original score" if scoring == "original" else "score"
    return f"{prefix} {game.score_under(scoring)}"
