"""The board, written down once: 28 positions, who covers whom, which peak counts each card.

Everything else (the plain-Python game, the numba kernels, the pictures) reads these
tables. Positions are numbered as in docs/rules.md: row 1 (peak tops) 0–2, row 2 3–8,
row 3 9–17, bottom row 18–27.

The tableau part of any position is the set of removed cards. Only sets closed under
"a card leaves only after both cards covering it" occur; :func:`configurations`
enumerates them once (there are 22,932) with ids and transition tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

TABLEAU_SIZE = 28
ROWS = ((0, 3), (3, 9), (9, 18), (18, 28))  # [first, stop) of each row, top to bottom
PEAK_COUNT = 3


def _covering() -> tuple[tuple[int, ...], ...]:
    """The cards covering each position (empty for the bottom row), per docs/rules.md."""
    cover: list[tuple[int, ...]] = [()] * TABLEAU_SIZE
    for j in range(9):  # row 3 card j: bottom cards j and j+1
        cover[9 + j] = (18 + j, 19 + j)
    for k in range(6):  # row 2 card k in peak p: row-3 cards 3p+i, 3p+i+1
        p, i = divmod(k, 2)
        cover[3 + k] = (9 + 3 * p + i, 9 + 3 * p + i + 1)
    for p in range(3):  # row 1 card p: row-2 cards 2p, 2p+1
        cover[p] = (3 + 2 * p, 3 + 2 * p + 1)
    return tuple(cover)


COVERED_BY: tuple[tuple[int, ...], ...] = _covering()
"""``COVERED_BY[p]``: the positions that must be removed before ``p`` is uncovered."""

PEAK_POSITIONS: tuple[tuple[int, ...], ...] = (
    (0, 3, 4, 9, 10, 11, 18, 19, 20),
    (1, 5, 6, 12, 13, 14, 21, 22, 23),
    (2, 7, 8, 15, 16, 17, 24, 25, 26, 27),
)
"""The cards each peak counts for the +100 bonus (the bottom row splits 3 / 3 / 4)."""

COVER_MASK = tuple(sum(1 << q for q in qs) for qs in COVERED_BY)
"""``COVER_MASK[p]``: the mask of the positions covering ``p``."""
UNCOVERS: tuple[tuple[int, ...], ...] = tuple(
    tuple(q for q in range(TABLEAU_SIZE) if p in COVERED_BY[q]) for p in range(TABLEAU_SIZE))
"""``UNCOVERS[p]``: the positions that ``p`` covers (removing it may turn them up)."""

PEAK_OF = tuple(next(k for k, ps in enumerate(PEAK_POSITIONS) if p in ps) for p in range(28))
ROW_OF = tuple(next(r for r, (a, b) in enumerate(ROWS) if a <= p < b) for p in range(28))
PEAK_MASKS = tuple(sum(1 << p for p in ps) for ps in PEAK_POSITIONS)
FULL_MASK = (1 << TABLEAU_SIZE) - 1
BOTTOM_MASK = sum(1 << p for p in range(*ROWS[-1]))


def uncovered_mask(removed: int) -> int:
    """Positions still on the board whose covering cards are all gone (face up, playable)."""
    mask = 0
    for p in range(TABLEAU_SIZE):
        if not removed >> p & 1 and all(removed >> q & 1 for q in COVERED_BY[p]):
            mask |= 1 << p
    return mask


def peaks_cleared(removed: int) -> int:
    """How many peaks have every one of their cards removed."""
    return sum(removed & m == m for m in PEAK_MASKS)


def column_of(position: int) -> int:
    """Horizontal place of a card in half-card units, for drawing the peaks.

    The bottom row sits at 0, 2, …, 18 and every other card halfway between the two
    cards covering it, so the picture follows from the covering relation itself.
    """
    if not COVERED_BY[position]:
        return 2 * (position - ROWS[-1][0])
    a, b = COVERED_BY[position]
    return (column_of(a) + column_of(b)) // 2


@dataclass(frozen=True)
class Configurations:
    """Every reachable set of removed tableau cards, with transition tables.

    ``mask[i]``: bit ``p`` set when position ``p`` is removed in configuration ``i``;
    ``next_id[i, p]``: the configuration after removing ``p`` (-1 if ``p`` is not playable);
    ``prev_id[i, p]``: the configuration that removing ``p`` led here from (-1 if none);
    ``available[i]``: mask of playable (uncovered, still present) positions;
    ``removed[i]`` and ``peaks[i]``: cards removed and peaks cleared.
    Id 0 is the full board; ``full_id`` is the empty one (all 28 removed).
    """

    mask: np.ndarray
    next_id: np.ndarray
    prev_id: np.ndarray
    available: np.ndarray
    removed: np.ndarray
    peaks: np.ndarray
    full_id: int

    def __len__(self) -> int:
        return len(self.mask)


_COVER_MASKS = np.array([sum(1 << q for q in qs) for qs in COVERED_BY], dtype=np.int64)
_POSITIONS = np.arange(TABLEAU_SIZE, dtype=np.int64)


def _uncovered_masks(removed: np.ndarray) -> np.ndarray:
    """:func:`uncovered_mask` of many removed-sets at once."""
    present = (removed[:, None] >> _POSITIONS) & 1 == 0
    free = removed[:, None] & _COVER_MASKS == _COVER_MASKS
    return ((present & free).astype(np.int64) << _POSITIONS).sum(axis=1)


@cache
def configurations() -> Configurations:
    """Enumerate the closed removed-sets breadth first from the full board (once per process)."""
    # Breadth first from the full board: every closed set is reached by removing its
    # cards bottom-up, so this finds all of them and nothing else. Each removal adds one
    # card, so the search goes a whole layer (sets of one size) at a time; numbering a
    # layer's sets in the order of their first (parent, position) keeps the ids a plain
    # first-in-first-out search would give.
    layers = [np.zeros(1, dtype=np.int64)]
    parents, positions, children = [], [], []
    while len(layers[-1]):
        layer = layers[-1]
        playable = (_uncovered_masks(layer)[:, None] >> _POSITIONS) & 1 == 1
        parent, position = np.nonzero(playable)  # by parent, then by position
        child = layer[parent] | np.int64(1) << position
        _, first = np.unique(child, return_index=True)
        layers.append(child[np.sort(first)])
        parents.append(parent)
        positions.append(position)
        children.append(child)
    starts = np.cumsum([0] + [len(layer) for layer in layers])
    mask_arr = np.concatenate(layers)
    n = len(mask_arr)
    next_id = np.full((n, TABLEAU_SIZE), -1, dtype=np.int32)
    prev_id = np.full((n, TABLEAU_SIZE), -1, dtype=np.int32)
    for k, (parent, position, child) in enumerate(zip(parents, positions, children)):
        below = layers[k + 1]
        order = np.argsort(below)
        child_id = starts[k + 1] + order[np.searchsorted(below, child, sorter=order)]
        parent_id = starts[k] + parent
        next_id[parent_id, position] = child_id
        prev_id[child_id, position] = parent_id
    available = _uncovered_masks(mask_arr)
    removed = np.repeat(np.arange(len(layers), dtype=np.int8), np.diff(starts))
    peaks = sum((mask_arr & m == m).astype(np.int8) for m in PEAK_MASKS)
    for arr in (mask_arr, next_id, prev_id, available, removed, peaks):
        arr.setflags(write=False)
    full_id = int(np.flatnonzero(mask_arr == FULL_MASK)[0])
    return Configurations(mask_arr, next_id, prev_id, available, removed, peaks, full_id)
