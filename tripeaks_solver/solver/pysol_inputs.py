"""The inputs of the PySolFC scoring's search (``kernels/pysol.py``) that depend on the
board alone: the fewest removals that empty more peaks, the configurations in the
order the search takes them, and its work space (``solve.py`` runs the search).
"""

from __future__ import annotations

from functools import cache, reduce
from itertools import combinations
from operator import or_

import numpy as np

from ..kernels import pysol, shared
from ..model.geometry import COVERED_BY, PEAK_COUNT, configurations


@cache
def clear_at() -> np.ndarray:
    # PysolGoal.clear_at: for q = 1, 2, 3, the fewest removals from each configuration
    # that empty q more peaks, the cards under q of its non-empty peaks' tops (a top
    # leaves last of the cards it stands on).
    def under(top: int) -> int:
        mask, todo = 0, [top]
        while todo:
            p = todo.pop()
            mask |= 1 << p
            todo.extend(COVERED_BY[p])
        return mask

    tops = [under(t) for t in range(PEAK_COUNT)]
    masks = configurations().mask.astype(np.int64).tolist()
    out = np.full((len(masks), PEAK_COUNT), 99, dtype=np.int8)
    for i, m in enumerate(masks):
        left = [t & ~m for t in tops if m & t != t]
        for q in range(1, len(left) + 1):
            out[i, q - 1] = min(reduce(or_, some).bit_count() for some in combinations(left, q))
    return out


@cache
def work(capacity: int) -> pysol.PysolWork:
    n = len(configurations())
    return pysol.PysolWork(
        key=np.empty(capacity, dtype=np.int64), g=np.empty(capacity, dtype=np.int32),
        parent=np.empty(capacity, dtype=np.int32), move=np.empty(capacity, dtype=np.int8),
        link=np.empty(capacity, dtype=np.int32), chain=np.empty(capacity, dtype=np.int32),
        first_of=np.zeros(n << shared.SHIFT, dtype=np.int32), found=np.zeros(1, dtype=np.int64),
        draw_g=np.full(n, pysol.NEG, dtype=np.int32), draw_from=np.empty(n, dtype=np.int32),
        draw_list=np.empty(n, dtype=np.int32), longest=np.zeros((n, shared.RANKS), dtype=np.int8),
        longest_after=np.zeros(n, dtype=np.int8))


@cache
def order() -> np.ndarray:
    # PysolGoal.order: most cards removed first, so each configuration comes after
    # those its removals lead to.
    return np.argsort(-configurations().removed.astype(np.int64), kind="stable").astype(np.int32)


CAPACITY = 1 << 19  # states; doubled when a search needs more
MOST = 1 << 23  # the most it grows to

__all__ = ["CAPACITY", "MOST", "clear_at", "order", "work"]
