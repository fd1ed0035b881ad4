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
from ..limits import MAX_SAMPLES, REVIEW_SAMPLES
from ..model.game import Status
from ..model.i18n import _, ngettext, percent, pgettext
from ..model.observed import ObservedGame
from .common import (
    SEED,
    STDIN,
    check_distinct_outputs,
    progress_bar,
    refuse_unused,
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
    fairly = ngettext("fairly over {n} completion a move, seed {seed}",
                      "fairly over {n} completions a move, seed {seed}", samples, seed=seed)
    if review.exact:
        judged = _("exactly, and {fairly}", fairly=fairly) if review.fair else _("exactly")
    else:
        judged = _("{fairly}; some cards were never seen: no exact values", fairly=fairly)
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
    exact = [(pgettext("review column", "best before"), 11),
             (pgettext("review column", "best after"), 10), (pgettext("review column", "lost"), 5)]
    fair = [(pgettext("review column", "share before"), 13), (pgettext("review column", "after"), 7),
            (pgettext("review column", "best"), 7)]
    exact = [(h, max(w, len(h))) for h, w in exact]
    fair = [(h, max(w, len(h))) for h, w in fair]
    heads = ""
    if review.exact:
        heads += " ".join(f"{h:>{w}}" for h, w in exact) + "  " + pgettext("review column",
                                                                        "mark")
    if review.fair:
        heads += " ".join(f"{h:>{w}}" for h, w in fair) + "  " + pgettext("review column",
                                                                       "verdict")
    move_head = pgettext("review column", "move")
    width = max(6, len(move_head),
                *(len(r.move.pretty) for r in review.moves if not r.taken_back))
    lines.append(f"  {'#':>3}  {move_head:<{width}} {heads}".rstrip())
    mark_width = max(4, len(pgettext("review column", "mark")))
    verdicts = {"mistake": _("mistake"), "bad luck": _("bad luck")}
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
        line = f"  {r.number:3d}. {r.move.pretty:<{width}} "
        if review.exact:
            before = _best(r.best_before, r.best_moves_before)
            after = _best(r.best_after, r.best_moves_after)
            line += (f"{before:>{exact[0][1]}} {after:>{exact[1][1]}} {r.lost:>{exact[2][1]}}  "
                     f"{r.mark:<{mark_width}}")
        if review.fair and r.share_before is not None:
            line += "".join(f"{'' if x is None else percent(x, 1):>{w}} " for x, (_h, w) in zip(
                (r.share_before, r.share_after, r.share_best), fair, strict=True))
            line += f" {verdicts.get(r.verdict or '', r.verdict or '')}"
        lines.append(line.rstrip())
    done = review.status is not Status.IN_PLAY
    if not review.exact:
        return lines + ["", *_prose(
            _("Summary: {label} {score} final.", label=label, score=review.final_score) if done
            else _("Summary: {label} {score} so far (game in play).", label=label,
                   score=review.final_score),
            _("Shares: of the completions of the cards not yet seen, those still winnable "
              "before the move, after it, and after the move that kept the most."))]
    final = (_("{label} {score} final", label=label, score=review.final_score) if done else
             _("{label} {score} so far (game in play)", label=label, score=review.final_score))
    lost_at = _("never lost") if review.lost_at is None else _("lost after move {number}",
                                                               number=review.lost_at)
    total = review.lost_total or 0  # known when the review is exact
    lost = (ngettext("{n} more card left in all", "{n} more cards left in all", total)
            if scheme == "cards-left" else
            ngettext("{n} point lost in all", "{n} points lost in all", total))
    marks = ", ".join(f"{review.count(m)} {m}" for m in ("??", "?", "!"))
    lines += ["", *_prose(
        _("Summary: {final}, best from the start {best}; {lost_at}; {lost}; marks {marks}.",
          final=final, best=review.best_start, lost_at=lost_at, lost=lost, marks=marks),
        _("Marks: ?? threw the win away, ? left more cards, or as many in more moves, ! the "
          "only move that kept the win.") if scheme == "cards-left" else
        _("Marks: ?? threw the win away, ? lost points, ! the only move that kept the win."))]
    if review.fair:
        lines += _prose(_("Verdict of a ?? move, from the fair shares (what the player could "
                          "see): mistake when another move kept a higher share, bad luck when "
                          "it was rated best."))
    return lines


@cli.command("analyze", short_help="Judge every move of a played game.")
@click.argument("words", nargs=-1, metavar="CODE MOVES...")
@game_options
@click.option("--seed", type=SEED, default=None,
              help="Seed of the random completions (default: a new one, printed).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--fair", is_flag=True,
              help="Add the fair win share before and after each move (from only what the "
                   "player had seen) and a verdict for each move that threw the win away; "
                   "always so while some card of the deal is unknown.")
@click.option("--samples", type=click.IntRange(1, MAX_SAMPLES), default=REVIEW_SAMPLES,
              show_default=True,
              help="Completions solved per move for the --fair shares.")
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
                    lang: str | None, seed: int | None, as_json: bool, fair: bool, samples: int,
                    plot_path: Path | None, csv_path: Path | None, force: bool, scoring: str,
                    **opts) -> None:
    """Judge a played game: CODE (or --seen, --layout, --record), then the MOVES of its
    record (observed moves as hint takes them; - reads them from standard input).

    For each move: the best final score reachable before and after it, the points it
    lost, and a mark (?? threw the win away, ? lost points, ! the only move that kept
    the win); then a summary. When some card was never seen, only the fair shares.
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

    def on_error(game: ObservedGame, message: str, number: int) -> None:
        if as_json:
            out = AnalysisReport(typed.start, scoring, fair, samples, seed, None, message,
                                 number).to_dict()
            click.echo(json.dumps(out, ensure_ascii=False))

    game = play_game(typed, lang, on_error=on_error)  # the record's errors, numbered, first
    fair = fair or not game.exact
    if not fair:
        refuse_unused(("samples", "seed"), "it counts with --fair (or while some card is "
                      "unknown)")
    seed = new_seed() if fair and seed is None else seed
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
