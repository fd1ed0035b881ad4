"""The ``tripeaks-solve`` command: parse arguments, print, exit codes. No game logic here.

Exit codes: 0 done (whatever the verdict), 1 an illegal move in a replayed record,
2 malformed input (one line on stderr, never a traceback).
"""

from __future__ import annotations

import json
import sys

import click

from .codes import GameCode
from .dealing import Deal
from .errors import IllegalMoveError, InputError
from .game import Game
from .messages import LANGUAGES, language_from_env
from .render import deal_picture, peak_name
from .rules import CLASSIC, EASY, Rules
from .solver import Solution, solve

EXIT_ILLEGAL = 1
EXIT_INPUT = 2


class _DefaultToSolve(click.Group):
    """``tripeaks-solve CODE …`` means ``tripeaks-solve solve CODE …``."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args:
            click.echo(ctx.get_help())
            ctx.exit(0)
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h", "--version"):
            args = ["solve", *args]
        return super().parse_args(ctx, args)


def _code(text: str) -> GameCode:
    try:
        return GameCode.parse(text)
    except InputError as exc:
        raise click.UsageError(str(exc)) from None


@click.group(cls=_DefaultToSolve, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tripeaks-solver")
def cli() -> None:
    """Exact TriPeaks solitaire answers.

    \b
    tripeaks-solve TP1-E-AAAAAAD         solve a deal under Easy and Classic rules
    tripeaks-solve deal TP1-E-AAAAAAD    show the layout
    tripeaks-solve replay CODE MOVE...   check and score a recorded game
    """


# --- deal -------------------------------------------------------------------------
def _deal_json(gc: GameCode, deal: Deal) -> dict:
    return {
        "code": str(gc),
        "deal": gc.number,
        "rules": gc.rules,
        "tableau": [c.token for c in deal.tableau],
        "waste": deal.waste.token,
        "stock": [c.token for c in deal.stock],
    }


@cli.command("deal")
@click.argument("code")
@click.option("--format", "fmt", type=click.Choice(["text", "line", "json"]), default="text",
              show_default=True,
              help="text: the peaks for people; line: 52 machine tokens (positions 0–27, "
                   "waste, stock in draw order); json: an object with tableau, waste, stock.")
@click.option("--reveal", is_flag=True, help="Show face-down cards and the stock (text format).")
def deal_command(code: str, fmt: str, reveal: bool) -> None:
    """Show the layout of a deal: the peaks, the waste and the stock.

    CODE is a game code such as TP1-E-AAAAAAB.
    """
    gc = _code(code)
    deal = Deal.from_number(gc.number)
    if fmt == "line":
        click.echo(deal.line())
    elif fmt == "json":
        click.echo(json.dumps(_deal_json(gc, deal)))
    else:
        click.echo(f"{gc}  (deal {gc.number}, {gc.rules.capitalize()} rules)")
        click.echo(deal_picture(deal, reveal=reveal))


# --- replay -------------------------------------------------------------------------
@cli.command("replay")
@click.argument("code")
@click.argument("moves", nargs=-1)
@click.option("--lang", type=click.Choice(LANGUAGES), default=None,
              help="Language of the app's messages (default: from LANG, else English).")
@click.option("--json", "as_json", is_flag=True, help="Print the replay as JSON.")
def replay_command(code: str, moves: tuple[str, ...], lang: str | None, as_json: bool) -> None:
    """Play a recorded game on CODE and score it.

    MOVES are cards to remove (Kc or K♣), draw (d) and undo (u); several may share
    one argument separated by spaces. An illegal move stops the replay (exit code 1).
    """
    gc = _code(code)
    lang = lang or language_from_env()
    game = Game(Deal.from_number(gc.number), EASY if gc.rules == "easy" else CLASSIC, lang)
    tokens = [t for arg in moves for t in arg.replace(",", " ").split()]
    rows = []
    for i, token in enumerate(tokens, 1):
        try:
            action = game.play(token)
        except InputError as exc:
            raise click.UsageError(f"move {i}: {exc}") from None
        except IllegalMoveError as exc:
            if as_json:
                click.echo(json.dumps({"code": str(gc), "moves": rows, "error": str(exc),
                                       "error_move": i}))
            click.echo(f"move {i} ({token}): {exc}", err=True)
            sys.exit(EXIT_ILLEGAL)
        word = token.strip().lower()
        kind = "undo" if word in ("undo", "u") else "draw" if action.is_draw else "remove"
        rows.append({"move": i, "action": kind, "card": action.card.token, "score": game.score,
                     "peaks_cleared": action.peaks_cleared if kind == "remove" else 0})
        if not as_json:
            what = {"remove": action.card.pretty, "draw": f"draw {action.card.pretty}",
                    "undo": f"undo {action.card.pretty}"}[kind]
            mark = _peak_mark(action.peaks_cleared, action.position) if kind == "remove" else ""
            click.echo(f"{i:3d}. {what:<10} score {game.score}{mark}")
    result = {"status": game.status.value, "score": game.score, "moves": game.moves,
              "cards_left": game.cards_left, "stock_left": game.stock_left}
    if as_json:
        click.echo(json.dumps({"code": str(gc), "rules": gc.rules, "steps": rows, **result}))
    else:
        click.echo(f"{game.status.value.capitalize()}: score {game.score}, {game.moves} moves, "
                   f"{game.cards_left} cards left in the peaks, {game.stock_left} in the stock")


def _peak_mark(cleared: int, position: int) -> str:
    return f"  peak cleared ({peak_name(position)})" if cleared else ""


# --- solve --------------------------------------------------------------------------
RULE_CHOICES = ("code", "easy", "classic", "both")


def _rule_sets(choice: str, gc: GameCode) -> list[Rules]:
    if choice == "both":
        return [EASY, CLASSIC]
    name = gc.rules if choice == "code" else choice
    return [Rules.named(name)]


def _verdict(sol: Solution) -> str:
    if sol.winnable:
        if sol.min_draws is None:
            return "winnable"
        draws = "draw" if sol.min_draws == 1 else "draws"
        return f"winnable, best score {sol.best_score} ({sol.min_draws} {draws})"
    text = f"not winnable, at most {sol.max_removed} of 28 cards"
    return text if sol.best_score is None else f"{text}, best score {sol.best_score}"


def solution_json(code: str, number: int | None, sol: Solution, with_line: bool) -> dict:
    row = {"code": code, "deal": number, **sol.summary()}
    if with_line:
        row["solution"] = sol.tokens
    return row


def _print_line(sol: Solution) -> None:
    if not sol.moves:
        return
    goal = "win" if sol.winnable else "best stuck end"
    click.echo(f"\n{sol.rules} line to the {goal}, {len(sol.moves)} moves:")
    for step in sol.steps():
        what = f"draw {step.card.pretty}" if step.is_draw else step.card.pretty
        mark = _peak_mark(step.peaks_cleared, sol.deal.position_of(step.card))
        click.echo(f"{step.number:4d}. {what:<10} score {step.score}{mark}")


@cli.command("solve")
@click.argument("codes", nargs=-1, required=True)
@click.option("--rules", "rule_choice", type=click.Choice(RULE_CHOICES), default="both",
              show_default=True,
              help="Rule sets to solve under: the code's own letter, easy, classic or both.")
@click.option("--json", "as_json", is_flag=True,
              help="Print a JSON list, one object per (code, rules).")
@click.option("--no-solution", is_flag=True, help="Leave out the line of moves.")
@click.option("--fast", is_flag=True,
              help="Answer winnability only (depth-first, no optimal score).")
def solve_command(codes: tuple[str, ...], rule_choice: str, as_json: bool, no_solution: bool,
                  fast: bool) -> None:
    """Solve game CODES: winnable under Easy and Classic, best score, a line reaching it."""
    parsed = [_code(c) for c in codes]
    out = []
    for n, gc in enumerate(parsed):
        deal = Deal.from_number(gc.number)
        sols = [solve(deal, rules, optimal=not fast) for rules in _rule_sets(rule_choice, gc)]
        if as_json:
            out += [solution_json(str(gc), gc.number, s, not no_solution) for s in sols]
            continue
        if n:
            click.echo("\n" + "=" * 60 + "\n")
        click.echo(f"{gc}  (deal {gc.number})")
        click.echo(deal_picture(deal))
        click.echo("")
        for sol in sols:
            click.echo(f"{str(sol.rules) + ':':<9}{_verdict(sol)}")
        shown = next((s for s in sols if s.rules.name == gc.rules), sols[0])
        if not no_solution:
            _print_line(shown)
        states = ", ".join(f"{s.states:,} states ({s.rules})" for s in sols)
        total = sum(s.seconds for s in sols)
        click.echo(f"\nSearched {states} in {total * 1000:.1f} ms")
    if as_json:
        click.echo(json.dumps(out, indent=2))


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the command, turning input errors into one line and exit code 2."""
    try:
        code = cli.main(args=argv, prog_name="tripeaks-solve", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("tripeaks-solve: interrupted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        click.echo(f"tripeaks-solve: error: {exc.format_message()}", err=True)
        sys.exit(EXIT_INPUT)
    except InputError as exc:
        click.echo(f"tripeaks-solve: error: {exc}", err=True)
        sys.exit(EXIT_INPUT)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
