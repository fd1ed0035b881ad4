"""Text pictures of a deal for people: the three peaks, the waste and the stock."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .cards import Card
from .dealing import Deal
from .geometry import COVERED_BY, FULL_MASK, PEAK_OF, ROWS, TABLEAU_SIZE, column_of
from .i18n import N_, _, ngettext
from .layout import UNKNOWN, Layout
from .rules import EASY, Rules

if TYPE_CHECKING:
    from .position import Position

FACE_DOWN = "##"
REVEAL_NOTE = "Cards in [brackets] are face down (shown by --reveal)."
CLEARED = N_("The three peaks are cleared.")  # a won board, rather than rows of nothing
PEAK_NAMES = ("left", "middle", "right")


def _rows(cells_of: Sequence[str | None], step: int = 2) -> list[str]:
    # One text line per row; every card sits under the middle of the two covering it,
    # ``step`` characters a half-card (wider to fit the marks of face-down cards).
    lines = []
    for first, stop in ROWS:
        cells = {step * column_of(p): text for p in range(first, stop) if (text := cells_of[p])}
        row = [" "] * (max(cells, default=0) + 3)
        for col, text in cells.items():
            row[col : col + len(text)] = list(text)
        lines.append("".join(row).rstrip())
    return lines


def tableau_lines(deal: Deal, removed: int = 0, reveal: bool = False,
                  open: bool = False) -> list[str]:
    """The peaks, one text line per row. A face-down card shows as ``##``, or with
    ``reveal`` as itself in brackets (``[K♣]``, under a note saying so); ``open``: every
    card is face up."""
    face_down = [not open and not all(removed >> q & 1 for q in COVERED_BY[p])
                 for p in range(TABLEAU_SIZE)]
    marked = reveal and any(face_down[p] and not removed >> p & 1
                            for p in range(TABLEAU_SIZE))
    cells: list[str | None] = []
    for p in range(TABLEAU_SIZE):
        if removed >> p & 1:
            cells.append(None)
        elif not face_down[p]:
            cells.append(f" {deal.cards[p].pretty}" if marked else deal.cards[p].pretty)
        else:
            cells.append(f"[{deal.cards[p].pretty}]" if reveal else FACE_DOWN)
    if not marked:
        return _rows(cells)
    return [*_rows(cells, step=3), REVEAL_NOTE]


def deal_picture(deal: Deal, rules: Rules = EASY, reveal: bool = False) -> str:
    """The whole layout at the start: peaks, waste card and stock size."""
    waste, stock = deal.opening(rules)
    lines = tableau_lines(deal, reveal=reveal, open=rules.open)
    lines.append("")
    top = "empty" if waste is None else waste.pretty
    lines.append(f"Waste: {top}    Stock: {len(stock)} cards")
    if reveal:
        lines.append("Stock (draw order): " + " ".join(c.pretty for c in stock))
    return "\n".join(lines)


def board_lines(position: Position, reveal: bool = False) -> list[str]:
    """A game in progress: the peaks (once every card is gone, a line saying the peaks
    are cleared), then the waste card and the stock left."""
    if position.removed == FULL_MASK:
        lines = [_(CLEARED)]
    else:
        lines = tableau_lines(position.deal, position.removed, reveal, position.rules.open)
    top = _("empty") if position.waste is None else position.waste.pretty
    return [*lines, "", ngettext("Waste: {top}    Stock: {n} card left",
                                 "Waste: {top}    Stock: {n} cards left", position.stock_left,
                                 top=top)]


def layout_picture(layout: Layout) -> str:
    """A typed-in layout: its known cards, ``??`` where a card is unknown."""
    def show(card: Card | None) -> str:
        return UNKNOWN if card is None else card.pretty

    lines = _rows([show(c) for c in layout.places[:TABLEAU_SIZE]])
    stock = layout.places[TABLEAU_SIZE + 1 :]
    unknown = sum(c is None for c in stock)
    waste = show(layout.places[TABLEAU_SIZE])
    lines += ["", f"Waste: {waste}    Stock: {len(stock)} cards, {unknown} unknown"]
    return "\n".join(lines)


def peak_name(position: int) -> str:
    return PEAK_NAMES[PEAK_OF[position]]
