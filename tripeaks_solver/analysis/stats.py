"""Small statistics: the Wilson interval of a proportion, the mean and median of counts."""

from __future__ import annotations

import math
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable
from itertools import accumulate

Z_95 = 1.959963984540054  # the 97.5% quantile of the standard normal


def wilson_interval(wins: int, n: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for a proportion ``wins / n`` (n > 0)."""
    if n <= 0:
        raise ValueError(f"no interval of a share of {n} trials")
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    # Exact at the edges: no wins gives 0 (not 1e-17), all wins gives 1.
    lo = 0.0 if wins == 0 else max(0.0, centre - half)
    hi = 1.0 if wins == n else min(1.0, centre + half)
    return lo, hi


FRACTION_DIGITS = 6  # the digits of a share or rate in JSON (batch's win rates too)


def fraction(value: float | None) -> float | None:
    """A share as machine output gives it: rounded to FRACTION_DIGITS decimals."""
    return None if value is None else round(value, FRACTION_DIGITS)


def fractions(values: Iterable[float] | None) -> list[float] | None:
    """A 95% interval (or any pair of shares) as machine output gives it."""
    return None if values is None else [round(v, FRACTION_DIGITS) for v in values]


def median_of_counts(counts: Counter) -> float | None:
    """The median of values given as {value: how many times}; None when there are none."""
    n = sum(counts.values())
    if n == 0:
        return None
    values = sorted(counts)
    ends = list(accumulate(counts[v] for v in values))  # sorted place after each value
    # the middle one or two of the sorted values: the first value whose run passes them
    lo, hi = (values[bisect_right(ends, i)] for i in ((n - 1) // 2, n // 2))
    return (lo + hi) / 2


def mean_of_counts(counts: Counter) -> float | None:
    """The mean of values given as {value: how many times}; None when there are none."""
    n = sum(counts.values())
    return None if n == 0 else sum(v * k for v, k in counts.items()) / n


__all__ = ["FRACTION_DIGITS", "Z_95", "fraction", "fractions", "mean_of_counts", "median_of_counts", "wilson_interval"]
