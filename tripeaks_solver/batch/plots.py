"""The plot of a batch: per rule set, the won deals and the lost deals side by side;
with --difficulty the deals' difficulties, with --player each player's win rate.

Won and lost deals get panels of their own, each on its own scale (under the app's
scoring a win scores 748–772 while a loss scores a few hundred: on one axis the wins
would be a spike), and every rule set shares each column's axes, so Easy and Classic
compare at a glance. Counts are whole numbers of deals.
"""

from __future__ import annotations

import io
from collections import Counter

from ..analysis.difficulty import RATINGS
from ..model.geometry import TABLEAU_SIZE
from ..model.scoring import WIN_BASE_SCORE, Scheme, win_score
from .rows import stock_size
from .summary import Summary

_WON, _LOST = "#4c72b0", "#c44e52"
_RATING_COLOURS = dict(zip(RATINGS, ("#55a868", "#ccb974", "#dd8452", "#c44e52", "#8c8c8c"),
                           strict=True))
_MAX_BARS = 60


def _panels(summary: Summary) -> list[tuple[str, str, dict[str, Counter], tuple[int, int] | None]]:
    """(title word, x label, counts per rule set, fixed x range or None) per column."""
    t = summary.tally
    most = stock_size(summary.variant)
    if summary.scoring == Scheme.APP:
        return [("won", "best score (772 − draws)", {n: t[n].won_scores for n in t},
                 (win_score(most), WIN_BASE_SCORE)),
                ("lost", "best score", {n: t[n].lost_scores for n in t}, None)]
    if summary.scoring == Scheme.CARDS_LEFT:  # a win leaves 0 cards: show its draws instead
        return [("won", "fewest draws", {n: t[n].min_draws for n in t}, (0, most)),
                ("lost", "fewest cards left", {n: t[n].lost_scores for n in t},
                 (1, TABLEAU_SIZE))]
    label = "best PySolFC score" if summary.scoring == Scheme.PYSOL else "best original score"
    return [("won", label, {n: t[n].won_scores for n in t}, None),
            ("lost", label, {n: t[n].lost_scores for n in t}, None)]


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


def _difficulty_panel(ax, name: str, tally, games: int) -> None:
    """The deals' difficulties (share of the ``games`` greedy games lost), a histogram
    stacked by rating; the legend counts the deals of each rating drawn."""
    import numpy as np

    if games <= 20:  # a bar for each possible value, k / games
        edges = (np.arange(games + 2) - 0.5) / games
    else:
        edges = np.linspace(0, 1, 21)
    shown = [r for r in RATINGS if tally.ratings[r]]
    values = [[v for (v, r) in tally.difficulties if r == rating] for rating in shown]
    weights = [[k for (v, r), k in tally.difficulties.items() if r == rating]
               for rating in shown]
    if shown:
        ax.hist(values, bins=edges, weights=weights, stacked=True,
                color=[_RATING_COLOURS[r] for r in shown],
                label=[f"{r} ({tally.ratings[r]:,})" for r in shown])
        ax.legend(fontsize=8, title="rating (deals)", title_fontsize=8)
    else:
        ax.text(0.5, 0.5, "no deals", transform=ax.transAxes, ha="center", va="center",
                color="grey")
    ax.set_xlim(edges[0], edges[-1])
    ax.set_title(f"{name.capitalize()}: difficulty ({games:,} greedy games a deal)")
    ax.set_ylabel("deals")
    ax.grid(axis="y", alpha=0.3)


def _players_panel(ax, name: str, tally, extras) -> None:
    """Each player's win rate with its 95% Wilson interval, and the exact win rate (the
    deals that can be won) as a line."""
    from matplotlib.ticker import PercentFormatter

    players = tally.extras_dict(extras)["players"]
    labels = list(players)
    ys = range(len(labels))
    rates = [players[p]["win_rate"] or 0.0 for p in labels]
    lows = [r - (players[p]["win_rate_95"] or (r, r))[0] for p, r in zip(labels, rates,
                                                                       strict=True)]
    highs = [(players[p]["win_rate_95"] or (r, r))[1] - r for p, r in zip(labels, rates,
                                                                        strict=True)]
    ax.barh(ys, rates, xerr=[lows, highs], color="#8172b3", capsize=4, height=0.6)
    for y, rate, high in zip(ys, rates, highs, strict=True):
        ax.text(rate + high + 0.02, y, f"{100 * rate:.1f}%", va="center", fontsize=8)
    exact = players[labels[0]]["exact_win_rate"] if labels else None
    if exact is not None:
        ax.axvline(exact, color=_WON, ls="--", lw=1,
                   label=f"winnable (every card seen): {100 * exact:.1f}%")
        ax.legend(fontsize=8, loc="lower right")
    ax.set_yticks(list(ys), labels)
    ax.set_ylim(len(labels) - 0.5, -0.5)  # the first player given on top
    ax.set_xlim(0, 1.12)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_title(f"{name.capitalize()}: players' win rates (95% interval)")
    ax.grid(axis="x", alpha=0.3)


def figure(summary: Summary, source: str | None = None):
    """The plot as a matplotlib Figure (Agg canvas): one row of panels per rule set,
    the won and lost deals' best scores, then (with --difficulty) the difficulties
    and (with --player) the players' win rates."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    names = summary.rules
    panels = _panels(summary)
    extras = summary.extras
    more = ["difficulty"] * (extras.games is not None) + ["players"] * bool(extras.players)
    columns = len(panels) + len(more)
    fig = Figure(figsize=(max(12, 5 * columns), 1.2 + 3.3 * len(names)), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(len(names), columns, squeeze=False, sharex="col", sharey="col")
    source = source or f"deals {summary.deals.start:,} … {summary.deals.stop - 1:,}"
    rules = " and ".join(n.capitalize() for n in names)
    fig.suptitle(f"{source}: {rules} rules, variant {summary.variant or 'none'}, "
                 f"{summary.scoring} scoring" + ("" if summary.optimal else ", no optimum")
                 + (", wins only" if summary.must_clear else ""),
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
                empty = ("no best score: no line clears the board (--must-clear)"
                         if count and summary.must_clear else f"no {word} deals")
                ax.text(0.5, 0.5, empty, transform=ax.transAxes,
                        ha="center", va="center", color="grey")
            ax.set_xlim(left, right)
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            ax.yaxis.set_major_locator(MaxNLocator(integer=True))
            ax.set_ylabel("deals")
            if row == len(names) - 1:  # the column shares its x axis: label it once
                ax.set_xlabel(xlabel)
            ax.grid(axis="y", alpha=0.3)
    for col, kind in enumerate(more, len(panels)):
        for row, name in enumerate(names):
            ax = axes[row][col]
            if kind == "players":
                _players_panel(ax, name, summary.tally[name], extras)
            elif extras.games is not None:  # the difficulty column
                _difficulty_panel(ax, name, summary.tally[name], extras.games)
        if kind == "difficulty":
            axes[-1][col].set_xlabel("difficulty: share of the greedy games lost")
        else:
            axes[-1][col].set_xlabel("win rate")
    return fig


__all__ = ["figure", "render_png"]
