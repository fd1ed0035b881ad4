"""The picture of a review (``analyze --plot``): the best score still reachable after
each move, and the chance beside it (as it could be seen then). matplotlib loads only when
it is drawn. Its words (title, axes, legend) and its percentages are in the current
language."""

from __future__ import annotations

from typing import TYPE_CHECKING, BinaryIO

from ..model.i18n import _, current, ngettext, number, percent, pgettext, speaking
from ..model.scoring import Scheme
from .hints import Review

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def plot_review(review: Review, out: BinaryIO, title: str, rules: str | None = None) -> None:
    """The picture of :func:`review_figure` as a PNG written to ``out``."""
    review_figure(review, title, rules).savefig(out, format="png", dpi=100)


def review_figure(review: Review, title: str, rules: str | None = None) -> Figure:
    """The best final score still reachable after each move (and the chance of the
    move played, as it could be seen then, on a second axis, when the review has it),
    with the moves marked in hindsight labelled: a
    matplotlib Figure (Agg canvas). The labels are drawn over the share's line, and
    the legend lists only what is drawn. The x axis numbers the moves as the app counts
    them; moves taken back by undos are not drawn, their numbers shaded instead. A
    review of a game whose deal was never all known has no best scores: the chance
    alone is drawn. ``rules`` names the rules in the title (``Easy rules``, in the
    current language; default: the rule set's name)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    fig = Figure(figsize=(11, 4.8), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    rows = [r for r in review.moves if not r.taken_back]
    xs = [0] + [r.number for r in rows]
    scores = [review.best_start] + [r.best_after for r in rows]
    best = [b for b in scores if b is not None]
    exact = len(best) == len(scores)  # every best score known
    if exact:
        won = [bool(rows[0].winnable_before) if rows else True]
        won += [bool(r.winnable_after) for r in rows]
        label = {Scheme.APP: _("best final score reachable"),
                 Scheme.ORIGINAL: _("best original score reachable"),
                 Scheme.PYSOL: _("best PySolFC score reachable"),
                 Scheme.CARDS_LEFT: _("fewest cards left reachable")}[review.scheme]
        ax.step(xs, best, where="post", color="#4c72b0", label=label)
        lost = [(x, b) for x, b, w in zip(xs, best, won, strict=True) if not w]
        if lost:
            ax.scatter([x for x, _b in lost], [b for _x, b in lost], color="#c44e52", s=12,
                       zorder=3, label=_("no win left"))
        colours = {"??": "#c44e52", "?": "#dd8452", "!": "#55a868"}
        marked = [(r, mark, b) for r, b in zip(rows, best[1:], strict=True) if (mark := r.exact_mark)]
        for i, (r, mark, b) in enumerate(marked):
            rise = 12 + 11 * (i % 3)  # three heights: neighbouring labels do not overlap
            ax.annotate(f"{r.number}. {r.move.pretty} {mark}", (r.number, b),
                        xytext=(0, rise if mark == "!" else -rise - 6),
                        textcoords="offset points", ha="center", fontsize=8,
                        color=colours[mark],
                        arrowprops={"arrowstyle": "-", "color": colours[mark], "lw": 0.6},
                        bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none",
                              "alpha": 0.8})
        ax.set_ylabel(label)
        lo, hi = min(best), max(best)
        ax.set_ylim(lo - 0.2 * (hi - lo + 10), hi + 0.2 * (hi - lo + 10))
    ax.set_xlabel(pgettext("plot axis", "move"))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlim(-0.5, max([*xs, *(r.number for r in review.moves)]) + 0.5)
    back_numbers = sorted({r.number for r in review.moves if r.taken_back and r.number})
    for i, n in enumerate(back_numbers):  # a band a number taken back, in the legend once
        ax.axvspan(n - 0.5, n + 0.5, color="#999999", alpha=0.18, lw=0,
                   label=None if i else _("moves taken back by undos"))
    handles, labels = ax.get_legend_handles_labels()
    judged = [r for r in rows if r.decision is not None]
    if judged:
        shares = [(r.number, r.decision.chance_played) for r in judged]  # type: ignore[union-attr]
        shares.insert(0, (0, judged[0].decision.chance_best))  # type: ignore[union-attr]
        ax2 = ax.twinx() if exact else ax
        ax2.plot([x for x, _s in shares], [s for _x, s in shares], color="#8172b3", lw=1,
                 marker=".", label=_("chance of the move played (as it could be seen then)"))
        ax2.set_ylim(-0.03, 1.05)
        lang = current()  # the ticks are written when drawn: in the figure's language

        def share_text(share: float, _pos: int) -> str:
            with speaking(lang):
                return percent(share)

        ax2.yaxis.set_major_formatter(FuncFormatter(share_text))
        ax2.set_ylabel(_("chance to win"))
        if exact:
            more_h, more_l = ax2.get_legend_handles_labels()
            handles, labels = handles + more_h, labels + more_l
            # A twin axis is drawn over the first one: put the first (its line, the
            # labels of the marked moves, the legend) back on top, its background
            # see-through.
            ax.set_zorder(ax2.get_zorder() + 1)
            ax.patch.set_visible(False)
        else:
            handles, labels = ax.get_legend_handles_labels()
    ax.legend(handles, labels, loc="lower left", fontsize=8)
    back = len(back_numbers)
    moves = ngettext("{n} move", "{n} moves", review.moves_played)
    if back:
        moves = _("{moves}, {back} taken back", moves=moves, back=number(back))
    words = str(review.start.rules) if rules is None else rules
    if exact and review.best_start is not None:
        ax.set_title(_("{title}: {rules}, {moves}; final {final}, best from the start {best}",
                       title=title, rules=words, moves=moves, final=number(review.final_score),
                       best=number(review.best_start)))
    else:
        ax.set_title(_("{title}: {rules}, {moves}; final {final}", title=title, rules=words,
                       moves=moves, final=number(review.final_score)))
    return fig
