"""Every score constant, written once: the game, the solver and the kernels import them.

Three schemes:
- ``app``: start 500, −1 a move (removal or draw), +100 when a removal clears a peak,
  never below 0 (it cannot get there: 500 − 28 − 24 > 0). So the app score is a
  function of the position: 500 − removed − draws + 100 × peaks, and a win scores
  500 − 28 + 300 − draws = 772 − draws;
- ``original``: each removal scores one more than the previous removal of its run
  (1, 2, 3, …); a draw ends the run and costs 5; clearing the first and second peak
  +15 each, the third +30; starts at 0;
- ``cards-left``: cards left in the peaks at the end, then moves (fewer is better).
"""

from __future__ import annotations

from ..errors import InputError
from .geometry import PEAK_COUNT, TABLEAU_SIZE

SCHEMES = ("app", "original", "cards-left")

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


def app_score(removed: int, draws: int, peaks: int) -> int:
    """The app score of any position: it depends on the position only."""
    return max(0, START_SCORE - MOVE_COST * (removed + draws) + PEAK_BONUS * peaks)


def win_score(draws: int) -> int:
    """The app score of a win with ``draws`` draws."""
    return WIN_BASE_SCORE - MOVE_COST * draws


def run_points(run: int) -> int:
    """Original points of a run of ``run`` removals: 1 + 2 + … + run."""
    return run * (run + 1) // 2


def objective(scheme: str, best: int, moves: int | None = None) -> tuple[int, int]:
    """A final result as one key, higher is better under every scheme: the score (app,
    original), or fewer cards left and then fewer moves (cards-left; ``best`` the cards
    left, ``moves`` the game's move counter). hint's marks and analyze's compare these."""
    if scheme == "cards-left":
        return -best, -(moves or 0)
    return best, 0


def check_scheme(scheme: str) -> str:
    if scheme not in SCHEMES:
        raise InputError(f"unknown scoring {scheme!r} (expected one of {', '.join(SCHEMES)})")
    return scheme
