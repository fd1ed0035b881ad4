"""``play``: let a player play a deal to the end and print its record."""

from __future__ import annotations

import json

import click

from ..model.dealing import Deal
from ..model.pysol import pysol_line
from .common import SEED, PlayerType, parse_code, pick_rules, plural, rule_options
from .group import cli


@cli.command("play")
@click.argument("code")
@click.option("--player", "spec", type=PlayerType(), default="greedy", show_default=True,
              help="random, greedy, careful, pimc[:N], rollout[:N], fair[:N] (N samples a decision, "
                   "default 100) or perfect (the exact solver, which sees every card).")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed of the player's random choices and samples.")
@click.option("--json", "as_json", is_flag=True, help="Print the game as one JSON object.")
@rule_options(with_scoring=False)
def play_command(code: str, spec: str, seed: int, rule_choice: str, as_json: bool,
                 **opts) -> None:
    """Let a player play CODE to the end: its record (which replay accepts), the result
    and the final score. Every player but perfect sees only what a person sees. CODE is a
    game code, a deal number or a PySolFC game number (pysol:123456)."""
    from ..analysis.players import make_player, play

    gc = parse_code(code)
    player = make_player(spec)
    rules = pick_rules(rule_choice, gc.rules, opts, gc.joker, gc.number is None)[0]
    deal = Deal.of(gc, rules.joker)
    result = play(deal, player, rules, seed=seed)
    shown = str(gc.played(rules.name, rules.joker))
    if as_json:
        click.echo(json.dumps(result.to_dict(), ensure_ascii=False))
        return
    pysol = pysol_line(deal, rules)
    named = f"{shown}  ({rules} rules)" if pysol else f"{shown}  (deal {gc.number}, {rules} rules)"
    click.echo(f"{named}, player {player.name}, seed {seed}")
    if pysol:
        click.echo(pysol)
    click.echo(" ".join(result.tokens) if result.moves else "(no moves)")
    verdict = ("won" if result.won else
               f"lost, {plural(result.cards_left, 'card')} left in the peaks")
    click.echo(f"{verdict.capitalize()} in {plural(len(result.moves), 'move')}: score "
               f"{result.score}")
