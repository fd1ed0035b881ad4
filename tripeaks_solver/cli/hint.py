"""``hint``: what every legal move of a game in progress is worth, exactly or, with
``--fair`` (or while cards are unknown), from only what the player has seen."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..analysis.reports import HintReport, new_seed
from ..games.turns import choice_note, n_moves, score_label
from ..model.game import Status
from ..model.i18n import _, ngettext, number, percent, pgettext
from ..model.observed import ObservedGame
from ..model.position import Position
from ..model.render import board_lines
from ..model.scoring import RUN_SCHEMES, Scheme
from .common import ADVICE_SEED, must_clear_option, refuse_unused, rule_options
from .games import game_options, play_game, read_game
from .group import cli

if TYPE_CHECKING:
    from ..analysis.hints import FairAdvice, Hint



def _score_text(position: Position, scheme: Scheme) -> str:
    if scheme == Scheme.CARDS_LEFT:
        return ngettext("{n} card left in {moves}", "{n} cards left in {moves}",
                        position.cards_left, moves=n_moves(position.moves_played))
    label = score_label(scheme)
    return _("{label}: {score}", label=label[:1].upper() + label[1:],
             score=position.shown_score(scheme))


def _best_text(best: int | None, scheme: Scheme, moves: int | None = None) -> str:
    if best is None:  # must_clear, and no win is left
        return _("none (no win left)")
    if scheme == Scheme.CARDS_LEFT:
        return _("{best} left", best=best) if moves is None else _(
            "{best} left in {moves}", best=best, moves=n_moves(moves))
    return f"{best}"


def position_lines(title: str, position: Position, scheme: Scheme, reveal: bool) -> list[str]:
    """The heading, the peaks (face-down cards ``##``, or in brackets with ``reveal``),
    the waste, the stock and the score."""
    moves = n_moves(position.moves_played)
    status = position.status
    lines = [_("{title}, after {moves}", title=title, moves=moves) if status is Status.IN_PLAY
             else _("{title}, after {moves}: won", title=title, moves=moves)
             if status is Status.WON else
             _("{title}, after {moves}: stuck", title=title, moves=moves)]
    lines += board_lines(position, reveal)
    lines[-1] += f"    {_score_text(position, scheme)}"
    return lines


# --- hint ---------------------------------------------------------------------------
def _exact_lines(h: Hint) -> list[str]:
    scheme = h.scheme
    sol = h.solution
    best = _best_text(h.best_score, scheme, sol.best_moves)
    label = pgettext("hint", "best") if scheme == Scheme.CARDS_LEFT else _(
        "best {label}", label=score_label(scheme))
    word = _("winnable") if h.winnable else _("not winnable")
    if h.must_clear:  # every best below is that of a line clearing the board
        verdict = (_("{word}, {label} {best} with the board cleared", word=word, label=label,
                     best=best) if h.winnable else
                   _("{word}: no line clears the board", word=word))
    elif scheme == Scheme.APP and sol.min_draws is not None:
        verdict = ngettext("{word}, {label} {best} ({n} draw in all)",
                           "{word}, {label} {best} ({n} draws in all)", sol.min_draws,
                           word=word, label=label, best=best)
    else:
        verdict = _("{word}, {label} {best}", word=word, label=label, best=best)
    lines = ["", _("Exact (every card known): {verdict}", verdict=verdict)]
    if not h.moves:
        return lines + [_("No move left: the game is over.")]
    lines.append(_("Moves, best first (?? throws the win away, ? leaves more cards, or as "
                   "many in more moves):") if scheme == Scheme.CARDS_LEFT else
                 _("Moves, best first (?? throws the win away, ? loses points):"))
    states = [_("winnable") if m.winnable else _("not winnable") for m in h.moves]
    width = max(13, *(len(w) + 1 for w in states))
    moves = max(6, *(len(m.move.pretty) for m in h.moves))  # "draw", or its translation
    for m, state in zip(h.moves, states, strict=True):
        best = _best_text(m.best_score, scheme, m.best_moves)
        lines.append(f"  {m.move.pretty:<{moves}} {state:<{width}} "
                     f"{pgettext('hint', 'best')} {best:<16} {m.mark}".rstrip())
    steps = sol.steps()
    if steps:
        win = sol.winnable and (scheme not in RUN_SCHEMES or h.must_clear)
        lines += ["", ngettext("Best line from here to the win, {n} move:",
                               "Best line from here to the win, {n} moves:", len(steps))
                  if win else
                  ngettext("Best line from here to the best end, {n} move:",
                           "Best line from here to the best end, {n} moves:", len(steps))]
        label = score_label(scheme)
        draw = pgettext("move", "draw")
        whats = [f"{draw} {step.card.pretty}" if step.is_draw else step.card.pretty
                 for step in steps]
        width = max(10, *(len(w) for w in whats))
        for step, what in zip(steps, whats, strict=True):
            peak = "  " + _("peak cleared") if step.peaks_cleared else ""
            lines.append(f"  {step.number:3d}. {what:<{width}} {label} {step.score}{peak}")
    return lines


def _fair_lines(advice: FairAdvice, scheme: Scheme, seed_given: bool) -> list[str]:
    rating = advice.rating
    if not rating.moves or advice.recommended is None:
        return ["", _("No move left: the game is over.")]
    hidden = len(rating.view.unseen)
    seed = (_("seed {seed}", seed=advice.seed) if seed_given else
            _("seed {seed} (--seed {seed} repeats this run)", seed=advice.seed))
    if rating.exact:
        how = _("all {count} distinct fillings (exact), {seed}", count=number(rating.samples),
                seed=seed)
    else:
        how = ngettext("{n} sampled completion, {seed}", "{n} sampled completions, {seed}",
                       rating.samples, seed=seed)
    lines = ["", ngettext("Fair (only what the player has seen, {n} card unseen): {how}",
                          "Fair (only what the player has seen, {n} cards unseen): {how}",
                          hidden, how=how)]
    mean = (ngettext("mean fewest cards left ({n} completion)",
                     "mean fewest cards left ({n} completions)", rating.scored)
            if scheme == Scheme.CARDS_LEFT else
            ngettext("mean best {label} ({n} completion)", "mean best {label} ({n} completions)",
                     rating.scored, label=score_label(scheme)))
    chances = advice.chances
    assert chances is not None  # a move recommended comes with its chances
    ceilings = {m.move: m for m in rating.moves}
    chance_head = pgettext("hint column", "chance")
    points_head = (pgettext("hint column", "cards left") if scheme == Scheme.CARDS_LEFT else
                   pgettext("hint column", "points"))
    column = _("ceiling: still winnable in")
    width = max(28, len(column) + 1)
    move = pgettext("hint column", "move")
    moves = max(6, len(move), *(len(m.move.pretty) for m in rating.moves))
    cw, pw = max(7, len(chance_head)), max(7, len(points_head))
    head = (f"  {move:<{moves}} {chance_head:>{cw}} {points_head:>{pw}}  {column:<{width}} "
            f"{mean if rating.scored else ''}")
    lines.append(head.rstrip())
    for c in chances.moves:
        m = ceilings[c.move]
        lo, hi = m.share_95
        spread = _("exact") if rating.exact else _("95% {low}–{high}",
                                                   low=number(100 * lo, 1),
                                                   high=percent(hi, 1))
        share = f"{percent(m.share, 1):>6} ({spread})"
        score = "" if m.mean_score is None else number(m.mean_score, 1)
        lines.append(f"  {m.move.pretty:<{moves}} {percent(c.chance, 1):>{cw}} "
                     f"{number(c.points, 1):>{pw}}  {share:<{width}} {score}".rstrip())
    lines.append(_("Recommended: {move}, about {chance} to win  (the {player} player: the "
                   "careful player's move unless rollouts over random completions show a "
                   "better one)", move=advice.recommended.pretty,
                   chance=percent(chances.value or 0.0, 1), player=advice.player))
    note = choice_note(chances)
    if note:
        lines.append("  " + note)
    lines.append(_("Chance: the share of {n} guessed games that the move, then careful play, "
                   "won; points: their mean final result; ceiling: the share a player who "
                   "saw every card could still win.", n=number(chances.rollouts)))
    return lines


@cli.command("hint", short_help="What every legal move of a game in progress is worth.")
@click.argument("words", nargs=-1, metavar="CODE [MOVES]...")
@game_options
@click.option("--seed", type=ADVICE_SEED, default=None,
              help="Seed of the random completions and of the fair player (default: a new "
                   "one, printed).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--fair", is_flag=True,
              help="Use only what the player has seen: shares of random completions of the "
                   "unseen cards and the fair player's recommendation (no exact verdict, no "
                   "line). Always so while some card of the deal is unknown.")
@click.option("--samples", type=click.IntRange(1, 1_000_000), default=1000, show_default=True,
              help="Completions solved for the fair shares (all of them when there are no "
                   "more distinct ones), and the fair player's rollouts (fair:N, N at most "
                   "100,000).")
@click.option("--score-samples", type=click.IntRange(0, 1_000_000), default=100,
              show_default=True,
              help="Completions also solved for the fair mean best scores; an optimum costs "
                   "about ten winnability searches (0: shares only, fastest).")
@click.option("--reveal", is_flag=True,
              help="Show the face-down cards, in brackets (not with --fair).")
@must_clear_option
@rule_options()
def hint_command(words: tuple[str, ...], rule_choice: str, layouts: tuple[str, ...],
                 layout_file: Path | None, seen: str | None, record_path: Path | None,
                 lang: str | None, seed: int | None, as_json: bool, fair: bool, samples: int,
                 score_samples: int, reveal: bool, must_clear: bool, scoring: Scheme,
                 **opts) -> None:
    """Hint a game in progress: CODE (or --seen, --layout, --record), then the MOVES
    played so far.

    MOVES are replay's tokens (cards, d/draw, u/undo), with what a move showed when
    the deal is not known: Kc:7s (removing K♣ turned up 7♠), Kc:7s,Qd (two cards,
    left to right), d:9h (the draw showed 9♥); - reads them from standard input.
    Shows the position and every legal move best first: exactly (winnable, the best
    final score, a best line) when every card is known, otherwise from only what the
    player has seen (shares of completions still winnable, and the move the fair
    player recommends).
    """
    typed = read_game(words, layouts, layout_file, seen, record_path, rule_choice, scoring,
                      opts)
    scoring = typed.scoring

    def on_error(game: ObservedGame, message: str, number: int) -> None:
        if as_json:
            out = HintReport.of(game, scoring, fair, must_clear=must_clear, error=message,
                                error_move=number).to_dict()
            click.echo(json.dumps(out, ensure_ascii=False))

    game = play_game(typed, lang, on_error=on_error)
    fair = fair or not game.exact
    if not fair:
        refuse_unused(("samples", "score_samples", "seed"),
                      "it counts with --fair (or while some card is unknown)")
    if fair and must_clear:
        raise click.UsageError("--must-clear is for the exact hint: not with --fair (nor while "
                               "some card is unknown)")
    if fair and reveal:
        raise click.UsageError("--reveal shows cards the player has not seen: not with --fair "
                               "(nor while some card is unknown)")
    position = game.position()
    from ..analysis.fair import View  # the kernels load from here on
    from ..analysis.hints import fair_advice, hint
    from ..solver.solve import warm_up

    warm_up(scoring)
    h = advice = None
    if fair:
        seed_given = seed is not None
        seed = new_seed() if seed is None else seed
        advice = fair_advice(View.of(position, game.known_places), samples, seed,
                             score_samples, scoring)
    else:
        h = hint(position, scoring, must_clear)
    if as_json:
        report = HintReport.of(game, scoring, fair, h, advice, must_clear)
        click.echo(json.dumps(report.to_dict(), ensure_ascii=False))
        return
    lines = position_lines(typed.title(game), position, scoring, reveal)
    if h is not None:
        lines += _exact_lines(h)
    elif advice is not None:
        lines += _fair_lines(advice, scoring, seed_given)
    click.echo("\n".join(lines))
