"""Geometry: the covering relation of docs/rules.md, the peaks, and the 22,932 closed removed-sets.

The covering table and the peaks are written out here by hand from docs/rules.md; the closed
sets are counted by two methods different from the package's breadth-first search.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from tripeaks_solver.model import geometry as g

# docs/rules.md, written out: position -> the two positions that cover it.
COVER = {
    0: (3, 4),
    1: (5, 6),
    2: (7, 8),  # row 1 card p: row-2 cards 2p, 2p+1
    3: (9, 10),
    4: (10, 11),  # row 2, left peak: row-3 cards 3p+i, 3p+i+1
    5: (12, 13),
    6: (13, 14),  # middle peak
    7: (15, 16),
    8: (16, 17),  # right peak
    9: (18, 19),
    10: (19, 20),
    11: (20, 21),
    12: (21, 22),
    13: (22, 23),
    14: (23, 24),
    15: (24, 25),
    16: (25, 26),
    17: (26, 27),  # row 3 card j: bottom j, j+1
}
PEAKS = [
    {0, 3, 4, 9, 10, 11, 18, 19, 20},
    {1, 5, 6, 12, 13, 14, 21, 22, 23},
    {2, 7, 8, 15, 16, 17, 24, 25, 26, 27},
]
BOTTOM = range(18, 28)
FULL = (1 << 28) - 1


def closed(mask: int) -> bool:
    return all(not mask >> p & 1 or all(mask >> q & 1 for q in c) for p, c in COVER.items())


def playable(mask: int) -> int:
    out = 0
    for p in range(28):
        if not mask >> p & 1 and all(mask >> q & 1 for q in COVER.get(p, ())):
            out |= 1 << p
    return out


def subsets(mask: int):
    """All submasks of ``mask``, including 0 and ``mask``."""
    sub = mask
    while True:
        yield sub
        if sub == 0:
            return
        sub = (sub - 1) & mask


def allowed(removed: int, rows: range) -> int:
    """Positions of ``rows`` whose two covering cards are both in ``removed``."""
    return sum(1 << p for p in rows if all(removed >> q & 1 for q in COVER[p]))


def closed_sets_by_rows() -> set[int]:
    """Every closed removed-set, built row by row from the bottom."""
    out = set()
    for bottom_bits in range(1 << 10):
        r4 = bottom_bits << 18
        for r3 in subsets(allowed(r4, range(9, 18))):
            for r2 in subsets(allowed(r4 | r3, range(3, 9))):
                for r1 in subsets(allowed(r4 | r3 | r2, range(3))):
                    out.add(r4 | r3 | r2 | r1)
    return out


def count_closed_sets_vectorized() -> int:
    """Count by brute force over the 2^18 subsets of the upper 18 cards.

    For each closed choice of upper cards, the bottom cards under its row-3 cards are
    forced and the other bottom cards are free: add 2^(free bottom cards).
    """
    u = np.arange(1 << 18, dtype=np.int64)
    bit = [(u >> p) & 1 for p in range(18)]
    ok = np.ones(u.shape, dtype=bool)
    for p in range(9):  # rows 1 and 2: both covers are upper cards
        a, b = COVER[p]
        ok &= (bit[p] == 0) | ((bit[a] == 1) & (bit[b] == 1))
    forced = np.zeros(u.shape, dtype=np.int64)
    for j in range(9):
        forced |= bit[9 + j] * (0b11 << j)
    popcount = np.array([x.bit_count() for x in range(1 << 10)], dtype=np.int64)
    return int((1 << (10 - popcount[forced[ok]])).sum())


def test_covering_relation_is_rules_md():
    assert len(g.COVERED_BY) == 28
    for p in range(28):
        assert tuple(sorted(g.COVERED_BY[p])) == COVER.get(p, ()), p


def test_rows():
    assert g.ROWS == ((0, 3), (3, 9), (9, 18), (18, 28))
    assert [g.ROW_OF[p] for p in range(28)] == [0] * 3 + [1] * 6 + [2] * 9 + [3] * 10
    assert g.BOTTOM_MASK == sum(1 << p for p in BOTTOM)
    assert g.FULL_MASK == FULL


def test_peaks_9_9_10():
    assert [set(ps) for ps in g.PEAK_POSITIONS] == PEAKS
    assert [m.bit_count() for m in g.PEAK_MASKS] == [9, 9, 10]
    assert [m == sum(1 << p for p in ps) for m, ps in zip(g.PEAK_MASKS, PEAKS)] == [True] * 3
    assert g.PEAK_MASKS[0] | g.PEAK_MASKS[1] | g.PEAK_MASKS[2] == FULL
    assert g.PEAK_MASKS[0] & g.PEAK_MASKS[1] == 0
    assert g.PEAK_MASKS[1] & g.PEAK_MASKS[2] == 0
    assert g.PEAK_MASKS[0] & g.PEAK_MASKS[2] == 0
    assert all(p in PEAKS[g.PEAK_OF[p]] for p in range(28))


def test_independent_counts_agree_with_22932():
    by_rows = closed_sets_by_rows()
    assert len(by_rows) == 22932
    assert count_closed_sets_vectorized() == 22932
    assert all(closed(m) for m in random.Random(1).sample(sorted(by_rows), 2000))


def test_configuration_masks_are_exactly_the_closed_sets():
    conf = g.configurations()
    masks = [int(m) for m in conf.mask]
    assert len(conf) == len(masks) == 22932
    assert len(set(masks)) == 22932
    assert set(masks) == closed_sets_by_rows()
    assert masks[0] == 0
    assert masks[conf.full_id] == FULL


def test_every_configuration_mask_is_closed():
    mask = g.configurations().mask.astype(np.int64)
    for p, (a, b) in COVER.items():
        removed_p = (mask >> p) & 1 == 1
        covers_gone = ((mask >> a) & 1 == 1) & ((mask >> b) & 1 == 1)
        assert not np.any(removed_p & ~covers_gone), p


def test_transition_tables_all_configurations():
    conf = g.configurations()
    mask = conf.mask.astype(np.int64)
    nxt = conf.next_id.astype(np.int64)
    assert nxt.shape == (22932, 28)
    for p in range(28):
        avail_p = (conf.available >> p) & 1 == 1
        assert np.all((nxt[:, p] >= 0) == avail_p), p
        has = nxt[:, p] >= 0
        assert np.all(mask[nxt[has, p]] == (mask[has] | (1 << p))), p
        assert not np.any(mask[avail_p] >> p & 1), p  # available cards are still there
    assert np.all(conf.removed == [int(m).bit_count() for m in mask])


def test_sample_against_from_scratch_computation():
    conf = g.configurations()
    index = {int(m): i for i, m in enumerate(conf.mask)}
    rng = random.Random(22932)
    sample = [0, conf.full_id] + rng.sample(range(len(conf)), 400)
    for i in sample:
        m = int(conf.mask[i])
        avail = playable(m)
        assert int(conf.available[i]) == avail
        assert g.uncovered_mask(m) == avail
        for p in range(28):
            expected = index[m | 1 << p] if avail >> p & 1 else -1
            assert int(conf.next_id[i, p]) == expected
        assert int(conf.removed[i]) == m.bit_count()
        assert int(conf.peaks[i]) == sum(all(m >> p & 1 for p in ps) for ps in PEAKS)
        assert g.peaks_cleared(m) == int(conf.peaks[i])


def test_start_and_end():
    conf = g.configurations()
    assert int(conf.available[0]) == g.BOTTOM_MASK
    assert np.all(conf.next_id[conf.full_id] == -1)
    assert int(conf.available[conf.full_id]) == 0
    assert int(conf.removed[conf.full_id]) == 28 and int(conf.peaks[conf.full_id]) == 3
    # Exactly one configuration per count of removed cards at the ends.
    assert int((conf.removed == 0).sum()) == 1 and int((conf.removed == 28).sum()) == 1
    assert int((conf.removed == 1).sum()) == 10  # any one bottom card


def test_tables_are_read_only():
    conf = g.configurations()
    with pytest.raises(ValueError):
        conf.next_id[0, 18] = 5
    assert g.configurations() is conf


@pytest.mark.parametrize(
    "removed, expected",
    [
        (0, set(BOTTOM)),
        (1 << 18 | 1 << 19, set(BOTTOM) - {18, 19} | {9}),
        # docs/rules.md: K♣, A♠, 2♦ at positions 20, 23, 22 gone -> position 13 turns up
        (1 << 20 | 1 << 22 | 1 << 23, set(BOTTOM) - {20, 22, 23} | {13}),
        (FULL, set()),
        (FULL & ~(1 << 0), {0}),
    ],
)
def test_uncovered_mask_examples(removed, expected):
    assert g.uncovered_mask(removed) == sum(1 << p for p in expected)


def test_columns_follow_covering():
    assert [g.column_of(p) for p in BOTTOM] == list(range(0, 20, 2))
    for p, (a, b) in COVER.items():
        assert g.column_of(a) < g.column_of(p) < g.column_of(b)
    assert [g.column_of(p) for p in range(3)] == [3, 9, 15]


def test_prev_id_inverts_next_id():
    conf = g.configurations()
    mask = conf.mask.astype(np.int64)
    prev = conf.prev_id.astype(np.int64)
    nxt = conf.next_id.astype(np.int64)
    for p in range(28):
        above = [q for q, c in COVER.items() if p in c]  # the cards p covers
        last_out = (mask >> p) & 1 == 1
        for q in above:
            last_out &= (mask >> q) & 1 == 0
        # Exactly the configurations where p is removed but nothing it covers is have a
        # predecessor through p (putting p back must give a closed set) …
        assert np.all((prev[:, p] >= 0) == last_out), p
        has = prev[:, p] >= 0
        # … and it is the same set with p back in place, whose next_id leads here.
        assert np.all(mask[prev[has, p]] == (mask[has] & ~(1 << p))), p
        assert np.all(nxt[prev[has, p], p] == np.flatnonzero(has)), p


def test_ids_are_those_of_a_plain_queue_from_the_full_board():
    # The table is built a layer at a time with numpy; a first-in-first-out walk that
    # removes each playable card in position order gives every id, and so every array.
    order, index, free = [0], {0: 0}, []
    for m in order:  # the list grows while it is walked: a queue
        free.append(playable(m))
        for p in range(28):
            if free[-1] >> p & 1 and m | 1 << p not in index:
                index[m | 1 << p] = len(order)
                order.append(m | 1 << p)
    conf = g.configurations()
    assert [int(m) for m in conf.mask] == order
    assert [int(a) for a in conf.available] == free
    nxt = np.full((len(order), 28), -1)
    prev = np.full((len(order), 28), -1)
    for i, m in enumerate(order):
        for p in range(28):
            if free[i] >> p & 1:
                nxt[i, p] = index[m | 1 << p]
                prev[index[m | 1 << p], p] = i
    assert np.array_equal(conf.next_id, nxt) and np.array_equal(conf.prev_id, prev)
    assert conf.full_id == index[FULL]
