"""``hint``: what every legal move of a game in progress is worth, exactly or, with
``--fair``, from only what the player has seen. Also the reading of a position (a
deal and a record) that ``analyze`` shares."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..codes import GameCode
from ..dealing import Deal
from ..errors import IllegalMoveError, InputError
from ..game import Game, Status
from ..layout import UNKNOWN
from ..moves import parse_record
from ..position import Position
from ..render import tableau_lines
from ..rules import Rules
from .common import (
    EXIT_ILLEGAL,
    SEED,
    InputPath,
    parse_code,
    pick_rules,
    plural,
    read_layouts,
    refuse_unused,
    rule_options,
)
from .group import cli

if TYPE_CHECKING:
    from ..fair import FairHint
    from ..hints import Hint

SCORE_LABEL = {"app": "score", "original": "original score", "cards-left": "cards left"}


@dataclass(frozen=True)
class Source:
    """The deal as typed: a code, or a layout (``??`` filled with the missing cards,
    sorted; their places in ``unknown``)."""

    code: str | None
    number: int | None
    layout: str | None
    rules: Rules
    deal: Deal
    unknown: frozenset[int]

    @property
    def title(self) -> str:
        if self.code:
            return f"{self.code}  (deal {self.number}, {self.rules} rules)"
        hidden = f", {plural(len(self.unknown), 'card')} unknown" if self.unknown else ""
        return f"layout typed in  ({self.rules} rules{hidden})"


def read_source(words: tuple[str, ...], layouts: tuple[str, ...], layout_file: Path | None,
            rule_choice: str, opts: dict) -> tuple[Source, tuple[str, ...]]:
    """The deal and the record's words: a code first, unless a layout is given."""
    typed = read_layouts(layouts, layout_file)
    if len(typed) > 1:
        raise click.UsageError("give one deal: one --layout, or a --layout-file of one line")
    if layout_file is not None and not typed:
        raise click.UsageError(f"{layout_file} holds no layout")
    if typed:
        _, lay = typed[0]
        rules = pick_rules(rule_choice, None, opts)[0]
        if rules.joker:
            raise click.UsageError("a layout holds 52 cards without the joker: for --joker "
                                   "give a game code (TP1-EJ-…)")
        deal = lay.deal(lay.missing_cards)
        return Source(None, None, lay.line(), rules, deal, frozenset(lay.unknown_places)), words
    if not words:
        raise click.UsageError("give a game code (e.g. TP1-E-AAAAAAD), --layout or --layout-file")
    gc = parse_code(words[0])
    rules = pick_rules(rule_choice, gc.rules, opts, gc.joker)[0]
    deal = Deal.from_number(gc.number, rules.joker)
    code = str(GameCode(gc.number, rules.name, rules.joker))
    return Source(code, gc.number, None, rules, deal, frozenset()), words[1:]


def replay_record(source: Source, words: tuple[str, ...], on_error=None) -> Game:
    """The game after the record; an illegal move exits 1 with the game's message, after
    ``on_error(game, message, number)`` (the JSON of the command under --json)."""
    def check_blind(when: str) -> None:  # a ?? place the record shows
        from ..fair import seen_at

        blind = sorted(seen_at(Position.of(game)) & source.unknown)
        if blind:
            raise InputError(f"{when} the player sees place {blind[0] + 1} of the layout, "
                             "which is ??: name that card")

    moves = parse_record(words)
    game = Game(source.deal, source.rules)
    check_blind("at the start")
    for i, move in enumerate(moves, 1):
        try:
            game.play(move)
        except IllegalMoveError as exc:
            if on_error is not None:
                on_error(game, str(exc), i)
            click.echo(f"move {i} ({move.token}): {exc}", err=True)
            sys.exit(EXIT_ILLEGAL)
        check_blind(f"after move {i} ({move.token})")
    return game


def _score_text(position: Position, scheme: str) -> str:
    if scheme == "cards-left":
        return (f"{plural(position.cards_left, 'card')} left in "
                f"{plural(position.moves_played, 'move')}")
    return f"{SCORE_LABEL[scheme].capitalize()}: {position.score_under(scheme)}"


def _best_text(best: int, scheme: str, moves: int | None = None) -> str:
    if scheme == "cards-left":
        return f"{best} left" + (f" in {plural(moves, 'move')}" if moves is not None else "")
    return f"{best}"


def _position_lines(source: Source, position: Position, scheme: str,
                    reveal: bool) -> list[str]:
    lines = [(f"{source.title}, after {plural(position.moves_played, 'move')}"
             f"{'' if position.status is Status.IN_PLAY else ': ' + position.status.value}")]
    lines += tableau_lines(position.deal, position.removed, reveal or position.rules.open)
    top = "empty" if position.waste is None else position.waste.pretty
    lines += ["", (f"Waste: {top}    Stock: {position.stock_left} cards left    "
                  f"{_score_text(position, scheme)}")]
    return lines


# --- hint ---------------------------------------------------------------------------
def _exact_lines(h: Hint) -> list[str]:
    scheme = h.scheme
    sol = h.solution
    word = "winnable" if h.winnable else "not winnable"
    best = _best_text(h.best_score, scheme, sol.best_moves)
    label = "best" if scheme == "cards-left" else f"best {SCORE_LABEL[scheme]}"
    draws = ""
    if scheme == "app" and sol.min_draws is not None:
        draws = f" ({plural(sol.min_draws, 'draw')} in all)"
    lines = ["", f"Exact (every card known): {word}, {label} {best}{draws}"]
    if not h.moves:
        return lines + ["No move left: the game is over."]
    lines.append("Moves, best first (?? throws the win away, ? loses points):")
    for m in h.moves:
        state = "winnable" if m.winnable else "not winnable"
        best = _best_text(m.best_score, scheme, m.best_moves)
        lines.append(f"  {m.move.pretty:<6} {state:<13} best {best:<16} {m.mark}".rstrip())
    steps = sol.steps()
    if steps:
        goal = "win" if sol.winnable and scheme != "original" else "best end"
        lines += ["", f"Best line from here to the {goal}, {plural(len(steps), 'move')}:"]
        label = SCORE_LABEL[scheme]
        for step in steps:
            what = f"draw {step.card.pretty}" if step.is_draw else step.card.pretty
            peak = "  peak cleared" if step.peaks_cleared else ""
            lines.append(f"  {step.number:3d}. {what:<10} {label} {step.score}{peak}")
    return lines


def _fair_lines(rating: FairHint, scheme: str, seed: int | None) -> list[str]:
    if not rating.moves:
        return ["", "No move left: the game is over."]
    hidden = len(rating.view.unseen)
    if rating.exact:
        how = f"all {rating.samples:,} distinct fillings (exact)"
    else:
        how = plural(rating.samples, "sampled completion") + (f", seed {seed}" if seed
                                                               is not None else "")
    lines = ["", f"Fair (only what the player has seen, {plural(hidden, 'card')} unseen): {how}"]
    what = "fewest cards left" if scheme == "cards-left" else f"best {SCORE_LABEL[scheme]}"
    mean = f"mean {what} ({plural(rating.scored, 'completion')})"
    head = f"  {'move':<6} {'still winnable in':<28} {mean if rating.scored else ''}"
    lines.append(head.rstrip())
    for m in rating.moves:
        lo, hi = m.share_95
        spread = "exact" if rating.exact else f"95% {100 * lo:.1f}–{100 * hi:.1f}%"
        share = f"{100 * m.share:5.1f}% ({spread})"
        score = "" if m.mean_score is None else f"{m.mean_score:.1f}"
        lines.append(f"  {m.move.pretty:<6} {share:<28} {score}".rstrip())
    lines.append(f"Recommended: {rating.recommended.pretty} (highest share, then mean score)")
    return lines


def _hint_json(source: Source, position: Position, scheme: str, fair: bool, h: Hint | None,
               rating: FairHint | None) -> dict:
    """The one shape of hint's JSON (exact, fair, or stopped at an illegal move)."""
    from ..fair import seen_at

    layout = source.layout
    if fair and layout is not None:  # only the cards the player has seen
        seen = seen_at(position)
        layout = " ".join(c.token if i in seen else UNKNOWN
                          for i, c in enumerate(position.deal.cards))
    out = {"code": source.code, "layout": layout, "rules": position.rules.name,
           "variant": position.rules.variant, "scoring": scheme, "fair": fair,
           "moves_played": position.moves_played, "status": position.status.value,
           "score": position.cards_left if scheme == "cards-left" else
           position.score_under(scheme), "cards_left": position.cards_left,
           "stock_left": position.stock_left,
           "waste": None if position.waste is None else position.waste.token,
           "winnable": None, "best_score": None, "best_moves": None, "line": None, "moves": [],
           "samples": None, "scored": None, "exact": None, "recommended": None,
           "error": None, "error_move": None}
    if h is not None:
        out.update(winnable=h.winnable, best_score=h.best_score, line=[m.token for m in h.line],
                   best_moves=h.solution.best_moves)
        out["moves"] = [{"move": m.move.token, "winnable": m.winnable,
                         "best_score": m.best_score, "best_moves": m.best_moves, "mark": m.mark,
                         "share": None, "share_95": None, "mean_score": None} for m in h.moves]
    if rating is not None:
        rec = rating.recommended
        out.update(samples=rating.samples, scored=rating.scored, exact=rating.exact,
                   recommended=rec and rec.token)
        out["moves"] = [{"move": m.move.token, "winnable": None, "best_score": None,
                         "best_moves": None, "mark": None, "share": m.share,
                         "share_95": list(m.share_95), "mean_score": m.mean_score}
                        for m in rating.moves]
    return out


def position_options(f):
    opts = [
        click.option("--rules", "rule_choice", type=click.Choice(["code", "easy", "classic"]),
                     default="code", show_default=True,
                     help="The rule set the moves were played under: the code's letter, "
                          "easy or classic."),
        click.option("--layout", "layouts", multiple=True, metavar="CARDS",
                     help="A deal typed in (52 cards in `deal --format line` order) instead "
                          "of a code; ?? for a card the player has not seen (fair by nature)."),
        click.option("--layout-file", type=InputPath(), default=None,
                     help="A file holding that one layout line (- for standard input)."),
        click.option("--seed", type=SEED, default=None, help="Seed for the random completions."),
        click.option("--json", "as_json", is_flag=True, help="Print one JSON object."),
    ]
    for opt in reversed(opts):
        f = opt(f)
    return f


@cli.command("hint", short_help="What every legal move of a game in progress is worth.")
@click.argument("words", nargs=-1, metavar="CODE [MOVES]...")
@position_options
@click.option("--fair", is_flag=True,
              help="Use only what the player has seen: shares of random completions of the "
                   "unseen cards (no exact verdict, no line).")
@click.option("--samples", type=click.IntRange(1, 1_000_000), default=1000, show_default=True,
              help="Completions solved for the --fair shares (all of them when there are no "
                   "more distinct ones).")
@click.option("--score-samples", type=click.IntRange(0, 1_000_000), default=100,
              show_default=True,
              help="Completions also solved for the --fair mean best scores; an optimum costs "
                   "about ten winnability searches (0: shares only, fastest).")
@click.option("--reveal", is_flag=True, help="Show the face-down cards (not with --fair).")
@rule_options()
def hint_command(words: tuple[str, ...], rule_choice: str, layouts: tuple[str, ...],
                 layout_file: Path | None, seed: int | None, as_json: bool, fair: bool,
                 samples: int, score_samples: int, reveal: bool, scoring: str, **opts) -> None:
    """Hint a game in progress: CODE, then the MOVES played so far.

    MOVES are in replay's tokens (cards, d/draw, u/undo). Shows the position, whether
    it is still winnable, the best final score still reachable, every legal move best
    first with what is left after it, and a best line from here. --fair answers from
    only what the player has seen; so does a --layout with ?? cards.
    """
    source, record = read_source(words, layouts, layout_file, rule_choice, opts)
    fair = fair or bool(source.unknown)
    if not fair:
        refuse_unused(("samples", "score_samples", "seed"),
                      "it counts with --fair (or a layout with ??)")
    if fair and reveal:
        raise click.UsageError("--reveal shows cards the player has not seen: not with --fair "
                               "(nor a layout with ??)")
    def on_error(game: Game, message: str, number: int) -> None:
        if as_json:
            out = _hint_json(source, Position.of(game), scoring, fair, None, None)
            click.echo(json.dumps({**out, "error": message, "error_move": number},
                                  ensure_ascii=False))

    position = Position.of(replay_record(source, record, on_error))
    from ..fair import View, fair_hint  # the kernels load from here on
    from ..hints import hint
    from ..solver import warm_up

    warm_up(scoring)
    h = rating = None
    if fair:
        known = (frozenset(range(len(source.deal.cards))) - source.unknown
                 if source.unknown else None)
        rating = fair_hint(View.of(position, known), samples, seed, score_samples,
                           scheme=scoring)
    else:
        h = hint(position, scoring)
    if as_json:
        click.echo(json.dumps(_hint_json(source, position, scoring, fair, h, rating),
                              ensure_ascii=False))
        return
    lines = _position_lines(source, position, scoring, reveal)
    lines += _exact_lines(h) if h is not None else _fair_lines(rating, scoring, seed)
    click.echo("\n".join(lines))
