"""``hint`` (what every legal move is worth now) and ``analyze`` (where a game went wrong),
exactly or, with ``--fair``, from only what the player has seen."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import click

from ..codes import GameCode
from ..dealing import Deal
from ..errors import IllegalMoveError, InputError
from ..fair import FairHint, View, fair_hint, seen_at
from ..game import Game, Status
from ..hints import Hint, Review, analyze, hint, plot_review, review_csv
from ..layout import UNKNOWN
from ..moves import parse_record
from ..position import Position
from ..render import tableau_lines
from ..rules import Rules
from ..solver import warm_up
from .common import EXIT_ILLEGAL, parse_code, pick_rules, read_layouts, rule_options
from .group import cli

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
        hidden = f", {len(self.unknown)} cards unknown" if self.unknown else ""
        return f"layout typed in  ({self.rules} rules{hidden})"


def _source(words: tuple[str, ...], layouts: tuple[str, ...], layout_file: Path | None,
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


def _check_blind(source: Source, game: Game, when: str) -> None:
    blind = sorted(seen_at(Position.of(game)) & source.unknown)
    if blind:
        raise InputError(f"{when} the player sees place {blind[0] + 1} of the layout, "
                         "which is ??: name that card")


def _replay(source: Source, words: tuple[str, ...]) -> Game:
    """The game after the record; an illegal move exits 1 with the game's message."""
    moves = parse_record(words)
    game = Game(source.deal, source.rules)
    _check_blind(source, game, "at the start")
    for i, move in enumerate(moves, 1):
        try:
            game.play(move)
        except IllegalMoveError as exc:
            click.echo(f"move {i} ({move.token}): {exc}", err=True)
            sys.exit(EXIT_ILLEGAL)
        _check_blind(source, game, f"after move {i} ({move.token})")
    return game


def _score_text(position: Position, scheme: str) -> str:
    if scheme == "cards-left":
        return f"{position.cards_left} cards left in {position.moves_played} moves"
    return f"{SCORE_LABEL[scheme].capitalize()}: {position.score_under(scheme)}"


def _best_text(best: int, scheme: str, moves: int | None = None) -> str:
    if scheme == "cards-left":
        return f"{best} left" + (f" in {moves} moves" if moves is not None else "")
    return f"{best}"


def _position_lines(source: Source, position: Position, scheme: str,
                    reveal: bool) -> list[str]:
    lines = [(f"{source.title}, after {position.moves_played} moves"
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
        draws = f" ({sol.min_draws} draws in all)"
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
        lines += ["", f"Best line from here to the {goal}, {len(steps)} moves:"]
        label = SCORE_LABEL[scheme]
        for step in steps:
            what = f"draw {step.card.pretty}" if step.is_draw else step.card.pretty
            peak = "  peak cleared" if step.peaks_cleared else ""
            lines.append(f"  {step.number:3d}. {what:<10} {label} {step.score}{peak}")
    return lines


def _fair_lines(rating: FairHint, scheme: str, seed: int | None) -> list[str]:
    hidden = len(rating.view.unseen)
    if rating.exact:
        how = f"all {rating.samples:,} distinct fillings (exact)"
    else:
        how = f"{rating.samples:,} sampled completions" + (f", seed {seed}" if seed is not None
                                                            else "")
    lines = ["", f"Fair (only what the player has seen, {hidden} cards unseen): {how}"]
    if not rating.moves:
        return lines + ["No move left: the game is over."]
    what = "fewest cards left" if scheme == "cards-left" else f"best {SCORE_LABEL[scheme]}"
    mean = f"mean {what} ({rating.scored:,} completions)"
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


def _hint_json(source: Source, position: Position, scheme: str, h: Hint | None,
               rating: FairHint | None) -> dict:
    layout, score = source.layout, position.score_under(scheme)
    if rating is not None and layout is not None:  # only the cards the player has seen
        seen = seen_at(position)
        layout = " ".join(c.token if i in seen else UNKNOWN
                          for i, c in enumerate(position.deal.cards))
    out = {"code": source.code, "layout": layout, "rules": position.rules.name,
           "variant": position.rules.variant, "scoring": scheme, "fair": rating is not None,
           "moves_played": position.moves_played, "status": position.status.value,
           "score": score if isinstance(score, int) else list(score), "cards_left": position.cards_left,
           "stock_left": position.stock_left,
           "waste": None if position.waste is None else position.waste.token,
           "winnable": None, "best_score": None, "best_moves": None, "line": None, "moves": [],
           "samples": None, "scored": None, "exact": None, "recommended": None}
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


def _position_options(f):
    opts = [
        click.option("--rules", "rule_choice", type=click.Choice(["code", "easy", "classic"]),
                     default="code", show_default=True,
                     help="The rule set the moves were played under: the code's letter, "
                          "easy or classic."),
        click.option("--layout", "layouts", multiple=True, metavar="CARDS",
                     help="A deal typed in (52 cards in `deal --format line` order) instead "
                          "of a code; ?? for a card the player has not seen (fair by nature)."),
        click.option("--layout-file", type=click.Path(path_type=Path, dir_okay=False),
                     default=None, help="A file holding that one layout line."),
        click.option("--seed", type=int, default=None, help="Seed for the random completions."),
        click.option("--json", "as_json", is_flag=True, help="Print one JSON object."),
    ]
    for opt in reversed(opts):
        f = opt(f)
    return f


@cli.command("hint", short_help="What every legal move of a game in progress is worth.")
@click.argument("words", nargs=-1, metavar="CODE [MOVES]...")
@_position_options
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
    source, record = _source(words, layouts, layout_file, rule_choice, opts)
    fair = fair or bool(source.unknown)
    if fair and reveal:
        raise click.UsageError("--reveal shows cards the player has not seen: not with --fair "
                               "(nor a layout with ??)")
    position = Position.of(_replay(source, record))
    warm_up(scoring)
    h = rating = None
    if fair:
        rating = fair_hint(View.of(position, source.unknown), samples, seed, score_samples,
                           scheme=scoring)
    else:
        h = hint(position, scoring)
    if as_json:
        click.echo(json.dumps(_hint_json(source, position, scoring, h, rating),
                              ensure_ascii=False))
        return
    lines = _position_lines(source, position, scoring, reveal)
    lines += _exact_lines(h) if h is not None else _fair_lines(rating, scoring, seed)
    click.echo("\n".join(lines))


# --- analyze ------------------------------------------------------------------------
def _review_json(source: Source, review: Review, samples: int | None) -> dict:
    rules = review.start.rules
    return {"code": source.code, "layout": source.layout, "rules": rules.name,
            "variant": rules.variant, "scoring": review.scheme, "fair": review.fair,
            "samples": samples if review.fair else None, "status": review.status.value,
            "final_score": review.final_score,
            "best_start": review.best_start, "final_best": review.final_best,
            "lost_at": review.lost_at, "lost_total": review.lost_total,
            "marks": {m: review.count(m) for m in ("??", "?", "!")}, "moves": review.rows()}


def _check_new_file(path: Path, force: bool, what: str) -> None:
    parent = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise InputError(f"cannot write {what} {path}: it is a directory")
    if not parent.is_dir():
        raise InputError(f"cannot write {what} {path}: directory {parent} does not exist")
    if path.exists() and not force:
        raise InputError(f"{path} exists: give --force to overwrite it")


def _write_atomic(path: Path, write, what: str) -> None:
    """Write through a temporary file in the same directory, then rename: an interrupted
    or failed write never leaves a torn file in place of the user's."""
    parent = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=parent)
    except OSError as exc:
        raise InputError(f"cannot write {what} {path}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
        os.replace(tmp, path)
    except OSError as exc:
        raise InputError(f"cannot write {what} {path}: {exc.strerror or exc}") from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _review_lines(source: Source, review: Review, samples: int) -> list[str]:
    scheme = review.scheme
    judged = "exactly" + (f", and fairly over {samples:,} completions a move" if review.fair
                          else "")
    label = "cards left" if scheme == "cards-left" else SCORE_LABEL[scheme]
    lines = [f"{source.title}: {len(review.moves)} moves judged {judged} ({label})",
             f"  {'#':>3}  {'move':<6} {'best before':>11} {'best after':>10} {'lost':>5}  mark"
             + ("   share before  after   verdict" if review.fair else "")]
    for r in review.moves:
        line = (f"  {r.number:3d}. {r.move.pretty:<6} {r.best_before:>11} {r.best_after:>10} "
                f"{r.lost:>5}  {r.mark:<4}")
        if review.fair and r.share_before is not None:
            line += (f"  {100 * r.share_before:10.1f}%  {100 * r.share_after:5.1f}%  "
                     f"{r.verdict or ''}")
        lines.append(line.rstrip())
    lost_at = "never lost" if review.lost_at is None else f"lost after move {review.lost_at}"
    now = ("final" if review.status is not Status.IN_PLAY else "so far (game in play)")
    final = (f"{label} {review.final_score} {now}, best from the start {review.best_start}")
    marks = ", ".join(f"{review.count(m)} {m}" for m in ("??", "?", "!"))
    lines += ["", (f"Summary: {final}; {lost_at}; {review.lost_total} "
                  f"{'more cards left' if scheme == 'cards-left' else 'points lost'} in all; "
                  f"marks {marks}."),
              "Marks: ?? threw the win away, ? lost points, ! the only move that kept the win."]
    if review.fair:
        lines.append("Verdict of a ?? move, from the fair shares (what the player could see): "
                     "mistake when another move kept a higher share, bad luck when it was "
                     "rated best.")
    return lines


@cli.command("analyze", short_help="Judge every move of a played game.")
@click.argument("words", nargs=-1, metavar="CODE MOVES...")
@_position_options
@click.option("--fair", is_flag=True,
              help="Add the fair win share before and after each move (from only what the "
                   "player had seen) and a verdict for each move that threw the win away.")
@click.option("--samples", type=click.IntRange(1, 1_000_000), default=200, show_default=True,
              help="Completions solved per move for the --fair shares.")
@click.option("--plot", "plot_path", type=click.Path(path_type=Path), default=None,
              help="Save the best reachable score (and fair share) after each move as a PNG "
                   "(the [plot] extra).")
@click.option("--csv", "csv_path", type=click.Path(path_type=Path), default=None,
              help="Write the rows of the moves to this CSV file.")
@click.option("--force", is_flag=True, help="Overwrite an existing --csv or --plot file.")
@rule_options()
def analyze_command(words: tuple[str, ...], rule_choice: str, layouts: tuple[str, ...],
                    layout_file: Path | None, seed: int | None, as_json: bool, fair: bool,
                    samples: int, plot_path: Path | None, csv_path: Path | None, force: bool,
                    scoring: str, **opts) -> None:
    """Judge a played game: CODE, then the MOVES of its record.

    For each move: the best final score reachable before and after it, the points it
    lost, and a mark (?? threw the win away, ? lost points, ! the only move that kept
    the win); then a summary.
    """
    source, record = _source(words, layouts, layout_file, rule_choice, opts)
    if source.unknown:
        raise click.UsageError("analyze judges moves exactly and needs every card of the "
                               "layout; for a layout with ?? use hint")
    if plot_path and csv_path and plot_path.resolve() == csv_path.resolve():
        raise click.UsageError("--plot and --csv name the same file")
    for path, what in ((csv_path, "the CSV"), (plot_path, "the plot")):
        if path is not None:
            _check_new_file(path, force, what)
    if plot_path is not None:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise InputError("--plot needs matplotlib, an optional extra: "
                             "pip install 'tripeaks-solver[plot]'") from None
    _replay(source, record)  # the record's errors, numbered, before any search
    warm_up(scoring)
    review = analyze(source.deal, source.rules, parse_record(record), scoring, fair=fair,
                     samples=samples, seed=seed)
    if csv_path is not None:
        data = review_csv(review).encode("utf-8")
        _write_atomic(csv_path, lambda fh: fh.write(data), "the CSV")
    if plot_path is not None:
        _write_atomic(plot_path, lambda fh: plot_review(review, fh, source.code or "layout"),
                      "the plot")
    if as_json:
        click.echo(json.dumps(_review_json(source, review, samples), ensure_ascii=False))
    else:
        click.echo("\n".join(_review_lines(source, review, samples)))
