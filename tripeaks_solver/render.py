"""Text pictures of a deal for people: the three peaks, the waste and the stock."""

from __future__ import annotations

from .dealing import Deal
from .geometry import COVERED_BY, PEAK_OF, ROWS, column_of

FACE_DOWN = "##"
PEAK_NAMES = ("left", "middle", "right")


def tableau_lines(deal: Deal, removed: int = 0, reveal: bool = False) -> list[str]:
    """The peaks, one text line per row; face-down cards show as ``##`` unless ``reveal``."""
    lines = []
    for first, stop in ROWS:
        cells: dict[int, str] = {}
        for p in range(first, stop):
            if removed >> p & 1:
                continue
            face_up = all(removed >> q & 1 for q in COVERED_BY[p])
            cells[2 * column_of(p)] = deal.cards[p].pretty if face_up or reveal else FACE_DOWN
        width = max(cells, default=0) + 3
        row = [" "] * width
        for col, text in cells.items():
            row[col : col + len(text)] = list(text)
        lines.append("".join(row).rstrip())
    return lines


def deal_picture(deal: Deal, reveal: bool = False) -> str:
    """The whole layout at the start: peaks, waste card and stock size."""
    lines = tableau_lines(deal, reveal=reveal)
    lines.append("")
    lines.append(f"Waste: {deal.waste.pretty}    Stock: {len(deal.stock)} cards")
    if reveal:
        lines.append("Stock (draw order): " + " ".join(c.pretty for c in deal.stock))
    return "\n".join(lines)


def peak_name(position: int) -> str:
    return PEAK_NAMES[PEAK_OF[position]]
