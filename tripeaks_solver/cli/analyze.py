"""``analyze``: every move of a played game judged, exactly and (``--fair``) from only
what the player could see; the rows as JSON, CSV and a plot."""

from __future__ import annotations

import io
import json
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..analysis.reports import AnalysisReport
from ..batch.errors import BatchError
from ..batch.files import LockedFile, open_output
from ..errors import InputError
from ..games.turns import n_moves, rules_name, score_label, scoring_name
from ..limits import PLAYER_SAMPLES, REVIEW_SAMPLES
from ..model.game import Status
from ..model.i18n import _, ngettext, percent, pgettext
from ..model.observed import ObservedGame
from ..model.scoring import Scheme
from .common import (
    ADVICE_SEED,
    STDIN,
    check_distinct_outputs,
    progress_bar,
    require_matplotlib,
    rule_options,
)
from .games import game_options, play_game, read_game
from .group import cli
from .hint import new_seed

if TYPE_CHECKING:
    from ..analysis.hints import Review


def _open_outputs(csv_path: Path | None, plot_path: Path | None, force: bool
                  ) -> dict[str, LockedFile]:
    """The --csv and --plot files, locked for this run with the batch's safeguards:
    regular files only (never a device or a pipe), an existing one kept unless
    ``force``, and one run at a time. A symbolic link is written through: the file it
    names is replaced, the link stays (``LockedFile.replace_with``)."""
    outputs: dict[str, LockedFile] = {}
    try:
        for role, path, what in (("csv", csv_path, _("the CSV")),
                                 ("plot", plot_path, _("the plot"))):
            if path is not None and str(path) != STDIN:
                outputs[role] = open_output(path, what, role, replace=force)
    except BatchError as exc:
        for f in outputs.values():
            f.close(discard=True)
        if exc.problem == "exists":  # open_output's words are the batch's: said here
            path = csv_path if exc.role == "csv" else plot_path
            raise InputError(_("{path} already exists: give --force to overwrite it",
                               path=path)) from None
        raise InputError(str(exc)) from None
    return outputs


def _best(best: int | None, moves: int | None) -> str:
    # Under cards-left the best result is its cards left and its moves: "0 in 43".
    return str(best) if moves is None else _("{best} in {moves}", best=best, moves=moves)


def _taken_back_line(run: list) -> str:
    # The moves' numbers (as the app counts them: an undo has none of its own); a few
    # moves are named, a peek's long excursions counted.
    numbers = [r.number for r in run if not r.move.is_undo]
    first, last = min(numbers), max(numbers)
    span = f"{first:3d}." if first == last else f"{first:3d}–{last}."
    if len(run) <= 6:
        return f"  {span} {' '.join(r.move.pretty for r in run)}  " + _("(taken back)")
    undos = len(run) - len(numbers)
    return f"  {span} " + _("{moves} and {undos} (taken back)", moves=n_moves(len(numbers)),
                            undos=ngettext("{n} undo", "{n} undos", undos))


PROSE_WIDTH = 100  # the review's sentences, broken between words: no terminal of 120
# columns (nor 100) cuts a word in two


def _prose(*texts: str) -> list[str]:
    """Sentences as lines of at most PROSE_WIDTH, broken between words, the lines after
    a sentence's first indented."""
    return [line for text in texts
            for line in textwrap.wrap(text, PROSE_WIDTH, subsequent_indent="  ",
                                      break_long_words=False, break_on_hyphens=False)]


def _signed(share: float) -> str:
    # A change of chance in points of percentage: +12, -7, 0.
    return _points(100 * share)


def _points(value: float) -> str:
    # Points, signed: +12, -7, 0 (never -0).
    return f"{value:+.0f}" if round(value) else "0"


def review_lines(title: str, review: Review, samples: int, seed: int | None) -> list[str]:
    """The review as text: a row a move (a run of moves taken back by undos on one line),
    then a summary; the sentences broken between words to fit PROSE_WIDTH columns."""
    scheme = review.scheme
    label = score_label(scheme)
    if not review.moves:  # nothing to judge: no empty table
        summary = (_("Summary: {label} {score} at the start, best from the start {best}.",
                     label=label, score=review.final_score, best=review.best_start)
                   if review.exact else
                   _("Summary: {label} {score} at the start.", label=label,
                     score=review.final_score))
        return [*_prose(_("{title}: no move to judge ({scoring})", title=title,
                          scoring=scoring_name(scheme))), "", *_prose(summary)]
    fairly = ngettext("as it could be seen then, over {n} guessed game a move, seed {seed}",
                      "as it could be seen then, over {n} guessed games a move, seed {seed}",
                      samples, seed=seed)
    judged = _("{fairly}; exactly too", fairly=fairly) if review.exact else \
        _("{fairly}; some cards were never seen: no exact values", fairly=fairly)
    back = review.moves_played - review.standing  # moves an undo took back
    head = ngettext("{title}: {n} move judged", "{title}: {n} moves judged", review.standing,
                    title=title)
    if back:
        head = ngettext("{title}: {moves}, {standing} judged and {back} taken back by {n} undo",
                        "{title}: {moves}, {standing} judged and {back} taken back by {n} "
                        "undos", len(review.moves) - review.moves_played, title=title,
                        moves=n_moves(review.moves_played), standing=review.standing,
                        back=back)
    lines = _prose(_("{head} ({scoring}, {judged})", head=head, scoring=scoring_name(scheme),
                     judged=judged))
    # The columns: at least as wide as their headings, in any language.
    judged_cols = [(pgettext("review column", "chance"), 7),
                   (pgettext("review column", "advice"), 7),
                   (pgettext("review column", "luck"), 5)]
    exact = [(pgettext("review column", "best after"), 10), (pgettext("review column", "lost"), 5)]
    fair = [(pgettext("review column", "ceiling"), 8)]
    judged_cols = [(h, max(w, len(h))) for h, w in judged_cols]
    exact = [(h, max(w, len(h))) for h, w in exact]
    fair = [(h, max(w, len(h))) for h, w in fair]
    mark_head = pgettext("review column", "mark")
    mark_width = max(3, len(mark_head))
    heads = " ".join(f"{h:>{w}}" for h, w in judged_cols) + f"  {mark_head:<{mark_width}}"
    if review.exact:
        heads += "  " + " ".join(f"{h:>{w}}" for h, w in exact) + "  " + pgettext(
            "review column", "exact")
    if review.fair:
        heads += "  " + " ".join(f"{h:>{w}}" for h, w in fair)
    heads += "  " + pgettext("review column", "better")
    move_head = pgettext("review column", "move")
    width = max(6, len(move_head),
                *(len(r.move.pretty) for r in review.moves if not r.taken_back))
    lines.append(f"  {'#':>3}  {move_head:<{width}} {heads}".rstrip())
    run: list = []  # moves taken back, shown together
    for r in (*review.moves, None):
        if r is not None and r.taken_back:
            run.append(r)
            continue
        if run:
            lines.append(_taken_back_line(run))
            run = []
        if r is None:
            break
        d = r.decision
        assert d is not None  # every move that stands is judged
        line = f"  {r.number:3d}. {r.move.pretty:<{width}} "
        luck = "" if r.luck is None else _signed(r.luck)
        line += " ".join(f"{v:>{w}}" for v, (_h, w) in zip(
            (percent(d.chance_played, 1), percent(d.chance_best, 1), luck), judged_cols,
            strict=True))
        line += f"  {r.mark:<{mark_width}}"
        if review.exact:
            after = _best(r.best_after, r.best_moves_after)
            line += f"  {after:>{exact[0][1]}} {r.lost:>{exact[1][1]}}  {r.exact_mark or '':<5}"
        if review.fair:
            ceiling = "" if r.share_after is None else percent(r.share_after, 1)
            line += f"  {ceiling:>{fair[0][1]}}"
        if d.followed:
            line += "  " + (_("the advice") if d.choices > 1 else _("the only move"))
        elif d.better is not None:
            line += f"  {d.better.pretty} ({_signed(-d.chance_lost)}, {_points(-d.points_lost)})"
        lines.append(line.rstrip())
    done = review.status is not Status.IN_PLAY
    final = (_("{label} {score} final", label=label, score=review.final_score) if done else
             _("{label} {score} so far (game in play)", label=label, score=review.final_score))
    lines += ["", *_prose(_("Summary: {final}.", final=final))]
    lines += _prose(*judgement_sentences(review))
    if review.exact:
        lost_at = _("never lost") if review.lost_at is None else _("lost after move {number}",
                                                                   number=review.lost_at)
        total = review.lost_total or 0  # known when the review is exact
        lost = (ngettext("{n} more card left in all", "{n} more cards left in all", total)
                if scheme == Scheme.CARDS_LEFT else
                ngettext("{n} point lost in all", "{n} points lost in all", total))
        marks = ", ".join(f"{review.count_exact(m)} {m}" for m in ("??", "?", "!"))
        lines += _prose(
            _("Exactly (every card known, in hindsight): best from the start {best}; "
              "{lost_at}; {lost}; marks {marks}.", best=review.best_start, lost_at=lost_at,
              lost=lost, marks=marks),
            _("Exact marks: ?? threw the win away, ? left more cards, or as many in more "
              "moves, ! the only move that kept the win.") if scheme == Scheme.CARDS_LEFT else
            _("Exact marks: ?? threw the win away, ? lost points, ! the only move that kept "
              "the win."))
    lines += _prose(_("Columns: chance, the share of the guessed games won by the move, then "
                      "careful play; advice, the chance of the move recommended then; luck, "
                      "what the cards the move turned up did to the chance (in points of "
                      "percentage); marks ?! an inaccuracy (5 points of chance lost), ? a "
                      "mistake (10), ?? a blunder (20); better, the advice's move at a marked "
                      "move, with what the move played cost (points of chance, expected "
                      "points)."))
    if review.fair:
        lines += _prose(_("Ceiling: the share of guesses still winnable after the move by a "
                          "player who saw every card."))
    return lines


def judgement_sentences(review: Review) -> list[str]:
    """The end of a review in words: the accuracy, the costliest decisions, the luck."""
    out = []
    decisions = [d for d in review.decisions if d.choices > 1]
    if review.accuracy is not None:
        followed = sum(d.followed for d in decisions)
        out.append(_("Accuracy {accuracy}: {n} of {total} decisions unmarked; {followed} "
                     "followed the advice.", accuracy=percent(review.accuracy),
                     n=sum(d.grade is None for d in decisions), total=len(decisions),
                     followed=followed))
    costly = review.costliest()
    if costly:
        said = []
        for r in costly:
            d = r.decision
            assert d is not None and d.better is not None  # a marked move names its better
            said.append(_("move {number} ({move} {mark}): {better} was better, {lost} chance, "
                          "{points} points", number=r.number, move=r.move.pretty,
                          mark=r.mark, better=d.better.pretty, lost=_signed(-d.chance_lost),
                          points=f"{_points(-d.points_lost)}"))
        out.append(_("Costliest decisions: {moves}.", moves="; ".join(said)))
    else:
        out.append(_("No decision is marked: every move kept the chance within 5 points of "
                     "the advice's."))
    if review.luck_total is not None:
        out.append(_("Luck apart: the cards that turned up moved the chance by {luck} points "
                     "in all.", luck=_signed(review.luck_total)))
    return out


@cli.command("analyze", short_help="Judge every move of a played game.")
@click.argument("words", nargs=-1, metavar="CODE MOVES...")
@game_options
@click.option("--seed", type=ADVICE_SEED, default=None,
              help="Seed of the guessed games (default: the game's, kept beside a --record "
                   "by coach and the page; else a new one, printed).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--fair", is_flag=True,
              help="Add the ceiling: the share of guesses at the unseen cards still winnable "
                   "after each move by a player who saw every card (slower).")
@click.option("--samples", type=click.IntRange(1, PLAYER_SAMPLES), default=None,
              help="Guessed games per move for the judgement, and completions for the "
                   "--fair ceiling (default: the advice's, kept beside a --record by coach "
                   "and the page; else 1000).")
@click.option("--plot", "plot_path", type=click.Path(path_type=Path), default=None,
              help="Save the best reachable score (and fair share) after each move as a PNG "
                   "(the [plot] extra).")
@click.option("--csv", "csv_path", type=click.Path(path_type=Path), default=None,
              help="Write the rows of the moves to this CSV file (-: to standard output, "
                   "the review then to stderr).")
@click.option("--force", is_flag=True, help="Overwrite an existing --csv or --plot file.")
@rule_options()
def analyze_command(words: tuple[str, ...], rule_choice: str, layouts: tuple[str, ...],
                    layout_file: Path | None, seen: str | None, record_path: Path | None,
                    lang: str | None, seed: int | None, as_json: bool, fair: bool,
                    samples: int | None,
                    plot_path: Path | None, csv_path: Path | None, force: bool, scoring: Scheme,
                    **opts) -> None:
    """Judge a played game: CODE (or --seen, --layout, --record), then the MOVES of its
    record (observed moves as hint takes them; - reads them from standard input).

    Each move as it could be seen then: its chance (the share of guessed games at the
    cards not seen that it, then careful play, won), against the advice's move, graded
    ?! (5 points of chance lost), ? (10), ?? (20), the better move, and the luck of the
    cards it turned up. When the whole deal is known, exactly too: the best final score
    before and after it, the points lost (?? threw the win away, ? lost points, ! the
    only move that kept the win). Then a summary: accuracy, costliest decisions, luck.
    """
    typed = read_game(words, layouts, layout_file, seen, record_path, rule_choice, scoring,
                      opts)
    scoring = typed.scoring
    check_distinct_outputs(plot_path, csv_path)
    if plot_path is not None and str(plot_path) == STDIN:
        raise click.UsageError("--plot needs a file name (a PNG is not for the terminal)")
    csv_to_stdout = csv_path is not None and str(csv_path) == STDIN
    if csv_to_stdout and as_json:
        raise click.UsageError("--csv - and --json both want standard output: give the CSV "
                               "a file name")
    if plot_path is not None:
        require_matplotlib()
    if record_path is not None and str(record_path) != STDIN:
        # the chances the game's advice computed, kept beside the record: reused, and
        # their samples and seed are the game's
        from ..games.chance_log import ChanceLog

        kept_samples, kept_seed = ChanceLog(record_path).load()
        samples = kept_samples if samples is None else samples
        seed = kept_seed if seed is None else seed
    samples = REVIEW_SAMPLES if samples is None else samples

    def on_error(game: ObservedGame, message: str, number: int) -> None:
        if as_json:
            out = AnalysisReport(typed.start, scoring, fair, samples, seed, None, message,
                                 number).to_dict()
            click.echo(json.dumps(out, ensure_ascii=False))

    game = play_game(typed, lang, on_error=on_error)  # the record's errors, numbered, first
    seed = new_seed() if seed is None else seed
    from ..analysis.hints import analyze_game, review_csv  # the kernels load from here on
    from ..analysis.review_plot import plot_review
    from ..solver.solve import warm_up

    outputs = _open_outputs(csv_path, plot_path, force)
    written = False
    try:
        warm_up(scoring)
        with progress_bar(len(typed.moves), pgettext("progress bar", "move")) as advance:
            review = analyze_game(typed.start, typed.moves, scoring, fair=fair,
                                  samples=samples, seed=seed, progress=advance)
        if "csv" in outputs:
            outputs["csv"].replace_with(review_csv(review).encode("utf-8"))
        if "plot" in outputs:
            png = io.BytesIO()
            plot_review(review, png, typed.code or typed.start.title,
                        rules_name(typed.start.rules))
            outputs["plot"].replace_with(png.getvalue())
        written = True
    finally:
        for f in outputs.values():
            f.close(discard=not written)  # a file this run created and never filled goes
    if csv_to_stdout:
        click.echo(review_csv(review), nl=False)
    report = AnalysisReport(typed.start, scoring, fair, samples, seed, review)
    text = (json.dumps(report.to_dict(), ensure_ascii=False)
            if as_json else "\n".join(review_lines(typed.title(game), review, samples, seed)))
    click.echo(text, err=csv_to_stdout)  # with --csv -, standard output holds the rows
