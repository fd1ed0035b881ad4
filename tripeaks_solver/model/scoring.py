"""Every score constant, written once: the game, the solver and the kernels import them.

Four schemes:
- ``app``: start 500, −1 a move (removal or draw), +100 when a removal clears a peak,
  never below 0 (it cannot get there: 500 − 28 − 24 > 0). So the app score is a
  function of the position: 500 − removed − draws + 100 × peaks, and a win scores
  500 − 28 + 300 − draws = 772 − draws;
- ``original``: each removal scores one more than the previous removal of its run
  (1, 2, 3, …); a draw ends the run and costs 5; clearing the first and second peak
  +15 each, the third +30; starts at 0;
- ``cards-left``: cards left in the peaks at the end, then moves (fewer is better);
- ``pysol``: PySolFC's Three Peaks hand score (its rules page, ``computeHandScore``): a
  hand starts at −52; the k-th removal of a run (a draw ends the run) scores
  i × 2^⌊(k−1)/4⌋, where i = 2^(peaks empty after the removal); the removal that
  empties a peak scores 5 × i more (10, 20, 40); the win scores 10 for each card left in
  the stock. A peak is empty when its top card is gone, which is when all its cards are
  (``peaks_cleared``). At most 2,336; never below −52 (nothing is subtracted after the
  start). docs/rules.md gives the reading and where PySolFC's code differs from it.
"""

from __future__ import annotations

from enum import StrEnum

from ..errors import InputError
from .geometry import PEAK_COUNT, TABLEAU_SIZE


class Scheme(StrEnum):
    """The four schemes, by the name a user types and every output, JSON and CSV row
    gives them. The code names them so; what leaves the package (rows, JSON) is the
    plain string, ``str(scheme)`` (``"app"`` for ``Scheme.APP``), so that a user's data
    holds no enum. A StrEnum equals its string, so ``"app"`` still compares, keys and
    hashes as ``Scheme.APP`` where a caller below the API passes the string."""

    APP = "app"
    ORIGINAL = "original"
    CARDS_LEFT = "cards-left"
    PYSOL = "pysol"


SCHEMES = tuple(s.value for s in Scheme)  # as typed: ("app", "original", "cards-left", "pysol")
RUN_SCHEMES = (Scheme.ORIGINAL, Scheme.PYSOL)
"""The schemes whose points depend on the run: the best line may end stuck with a win
left, and the search for it does not count the fewest draws of a win."""

START_SCORE = 500
MOVE_COST = 1
PEAK_BONUS = 100
WIN_BASE_SCORE = START_SCORE - MOVE_COST * TABLEAU_SIZE + PEAK_BONUS * PEAK_COUNT
"""A win scores this minus its draws (772 − draws)."""

ORIGINAL_DRAW_COST = 5
ORIGINAL_PEAK_BONUS = (15, 15, 30)  # for the first, second and third peak cleared
ORIGINAL_BONUS_AFTER = (0, 15, 30, 60)
"""Cumulative original peak bonus after 0, 1, 2, 3 cleared peaks."""
assert ORIGINAL_BONUS_AFTER == tuple(sum(ORIGINAL_PEAK_BONUS[:k]) for k in range(4))


PYSOL_START = -52
PYSOL_RUN_STEP = 4  # each run's points double every 4 removals
PYSOL_PEAK_POINTS = 5  # × i for the removal emptying a peak: 10, 20, 40
PYSOL_STOCK_POINTS = 10  # a win: for each card left in the stock
PYSOL_MAX = 2336
"""PySolFC's highest hand: every card in one run, the peaks emptied at the 10th, 19th
and 28th removal, 23 cards left in the stock (tests/test_pysol_scoring.py derives it)."""


def pysol_removal_points(run: int, peaks_after: int, cleared: bool) -> int:
    """PySolFC points of a removal, the ``run``-th of its run, leaving ``peaks_after``
    peaks empty (``cleared``: this removal emptied one); the win's stock points apart."""
    i = 1 << peaks_after
    return i * (1 << (run - 1) // PYSOL_RUN_STEP) + (PYSOL_PEAK_POINTS * i if cleared else 0)


def app_score(removed: int, draws: int, peaks: int) -> int:
    """The app score of any position: it depends on the position only."""
    return max(0, START_SCORE - MOVE_COST * (removed + draws) + PEAK_BONUS * peaks)


def win_score(draws: int) -> int:
    """The app score of a win with ``draws`` draws."""
    return WIN_BASE_SCORE - MOVE_COST * draws


def run_points(run: int) -> int:
    """Original points of a run of ``run`` removals: 1 + 2 + … + run."""
    return run * (run + 1) // 2


def objective(scheme: Scheme, best: int, moves: int | None = None) -> tuple[int, int]:
    """A final result as one key, higher is better under every scheme: the score (app,
    original), or fewer cards left and then fewer moves (cards-left; ``best`` the cards
    left, ``moves`` the game's move counter). hint's marks and analyze's compare these."""
    if scheme == Scheme.CARDS_LEFT:
        return -best, -(moves or 0)
    return best, 0


def check_scheme(scheme: Scheme | str) -> Scheme:
    """The scheme a user named (``"pysol"`` or ``Scheme.PYSOL``); an InputError if none."""
    if isinstance(scheme, Scheme):
        return scheme
    if scheme not in SCHEMES:
        raise InputError(f"unknown scoring {scheme!r} (expected one of {', '.join(SCHEMES)})")
    return Scheme(scheme)
