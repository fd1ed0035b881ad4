"""Text pictures of a deal for people: the three peaks, the waste and the stock."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card
from .dealing import Deal
from .geometry import COVERED_BY, PEAK_OF, ROWS, TABLEAU_SIZE, column_of
from .layout import UNKNOWN, Layout
from .rules import EASY, Rules

FACE_DOWN = "##"
PEAK_NAMES = ("left", "middle", "right")


def _rows(cells_of: Sequence[str | None]) -> list[str]:
    # One text line per row; every card sits under the middle of the two covering it.
    lines = []
    for first, stop in ROWS:
        cells = {2 * column_of(p): cells_of[p] for p in range(first, stop) if cells_of[p]}
        row = [" "] * (max(cells, default=0) + 3)
        for col, text in cells.items():
            row[col : col + len(text)] = list(text)
        lines.append("".join(row).rstrip())
    return lines


def tableau_lines(deal: Deal, removed: int = 0, reveal: bool = False) -> list[str]:
    """The peaks, one text line per row; face-down cards show as ``##`` unless ``reveal``."""
    cells: list[str | None] = []
    for p in range(TABLEAU_SIZE):
        face_up = reveal or all(removed >> q & 1 for q in COVERED_BY[p])
        cells.append(None if removed >> p & 1 else deal.cards[p].pretty if face_up else FACE_DOWN)
    return _rows(cells)


def deal_picture(deal: Deal, rules: Rules = EASY, reveal: bool = False) -> str:
    """The whole layout at the start: peaks, waste card and stock size."""
    waste, stock = deal.opening(rules)
    lines = tableau_lines(deal, reveal=reveal or rules.open)
    lines.append("")
    top = "empty" if waste is None else waste.pretty
    lines.append(f"Waste: {top}    Stock: {len(stock)} cards")
    if reveal:
        lines.append("Stock (draw order): " + " ".join(c.pretty for c in stock))
    return "\n".join(lines)


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
