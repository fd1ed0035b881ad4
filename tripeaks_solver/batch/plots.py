"""The plot of a batch: per rule set, the won deals and the lost deals side by side.

Won and lost deals get panels of their own, each on its own scale (under the app's
scoring a win scores 748–772 while a loss scores a few hundred: on one axis the wins
would be a spike), and every rule set shares each column's axes, so Easy and Classic
compare at a glance. Counts are whole numbers of deals.
"""

from __future__ import annotations

import io
from collections import Counter

from ..geometry import TABLEAU_SIZE
from ..scoring import WIN_BASE_SCORE, win_score
from .rows import stock_size
from .summary import Summary

PLOT_HINT = "python3 -m pip install -e '.[plot]' in the clone of the repository"
_WON, _LOST = "#4c72b0", "#c44e52"
_MAX_BARS = 60


def plot_available() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def _panels(summary: Summary) -> list[tuple[str, str, dict[str, Counter], tuple[int, int] | None]]:
    """(title word, x label, counts per rule set, fixed x range or None) per column."""
    t = summary.tally
    most = stock_size(summary.variant)
    if summary.scoring == "app":
        return [("won", "best score (772 − draws)", {n: t[n].won_scores for n in t},
                 (win_score(most), WIN_BASE_SCORE)),
                ("lost", "best score", {n: t[n].lost_scores for n in t}, None)]
    if summary.scoring == "cards-left":  # a win leaves 0 cards: show its draws instead
        return [("won", "fewest draws", {n: t[n].min_draws for n in t}, (0, most)),
                ("lost", "fewest cards left", {n: t[n].lost_scores for n in t},
                 (1, TABLEAU_SIZE))]
    return [("won", "best original score", {n: t[n].won_scores for n in t}, None),
            ("lost", "best original score", {n: t[n].lost_scores for n in t}, None)]


def _bin_width(lo: int, hi: int) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50, … giving at most :data:`_MAX_BARS` bins."""
    width, steps = 1, (2, 2.5, 2)  # 1 -> 2 -> 5 -> 10 -> 20 -> 50 -> …
    i = 0
    while (hi - lo) // width + 1 > _MAX_BARS:
        width = round(width * steps[i % 3])
        i += 1
    return width


def _bars(ax, counts: Counter, width: int, color: str) -> None:
    """One bar per bin of ``width`` values (bins start at multiples of ``width``)."""
    heights: Counter = Counter()
    for value, k in counts.items():
        heights[value // width * width] += k
    xs = sorted(heights)
    if width == 1:
        ax.bar(xs, [heights[x] for x in xs], width=0.8, color=color)
    else:
        ax.bar(xs, [heights[x] for x in xs], width=width * 0.9, align="edge", color=color)


def render_png(summary: Summary, source: str | None = None) -> bytes:
    """The plot of ``summary`` as PNG bytes; ``source`` names the deals in the title
    (default: the range)."""
    buf = io.BytesIO()
    figure(summary, source).savefig(buf, format="png", dpi=100)
    return buf.getvalue()


def figure(summary: Summary, source: str | None = None):
    """The plot as a matplotlib Figure (Agg canvas): one row of panels per rule set."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    names = summary.rules
    panels = _panels(summary)
    fig = Figure(figsize=(12, 1.2 + 3.3 * len(names)), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(len(names), len(panels), squeeze=False, sharex="col", sharey="col")
    source = source or f"deals {summary.deals.start:,} … {summary.deals.stop - 1:,}"
    rules = " and ".join(n.capitalize() for n in names)
    fig.suptitle(f"{source}: {rules} rules, variant {summary.variant or 'none'}, "
                 f"{summary.scoring} scoring" + ("" if summary.optimal else ", no optimum"),
                 fontsize=13)
    for col, (word, xlabel, per_rules, fixed) in enumerate(panels):
        values = [v for c in per_rules.values() for v, k in c.items() if k]
        lo, hi = fixed or ((min(values), max(values)) if values else (0, 1))
        width = _bin_width(lo, hi)
        left = lo // width * width - (0.6 if width == 1 else 0.2 * width)
        right = (hi // width * width) + (0.6 if width == 1 else 1.2 * width)
        for row, name in enumerate(names):
            ax = axes[row][col]
            t = summary.tally[name]
            count = t.wins if word == "won" else t.deals - t.wins
            ax.set_title(f"{name.capitalize()}: {count:,} of {t.deals:,} deals {word}")
            if per_rules[name]:
                _bars(ax, per_rules[name], width, _WON if word == "won" else _LOST)
            else:
                ax.text(0.5, 0.5, f"no {word} deals", transform=ax.transAxes,
                        ha="center", va="center", color="grey")
            ax.set_xlim(left, right)
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            ax.yaxis.set_major_locator(MaxNLocator(integer=True))
            ax.set_ylabel("deals")
            if row == len(names) - 1:  # the column shares its x axis: label it once
                ax.set_xlabel(xlabel)
            ax.grid(axis="y", alpha=0.3)
    return fig


__all__ = ["PLOT_HINT", "figure", "plot_available", "render_png"]
