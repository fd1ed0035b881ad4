"""The solver's Python front: Deal + Rules -> integer arrays -> kernels -> Solution."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from . import kernels
from .cards import Card
from .dealing import Deal
from .game import Game
from .geometry import TABLEAU_SIZE, configurations
from .rules import EASY, Rules

WIN_BONUS_SCORE = 772  # 500 - 28 removals + 3 peaks * 100; a win scores this minus its draws


@dataclass(frozen=True)
class Step:
    """One move of a line, as the plain-Python game scored it."""

    number: int
    card: Card
    is_draw: bool
    score: int
    peaks_cleared: int

    @property
    def token(self) -> str:
        return "draw" if self.is_draw else self.card.token


@dataclass(frozen=True)
class Solution:
    """What the solver knows about one deal under one rule set.

    ``min_draws`` and ``best_score`` are None when the search was not asked for the
    optimum (``optimal=False``); ``min_draws`` is also None on a lost deal, and so is
    ``max_removed`` on a lost deal searched with ``optimal=False`` (the fast search
    stops exploring lines it has proved lost, so it does not know the most cards). ``moves``
    is a line reaching ``best_score`` (or any win when not optimal): tableau positions
    0–27 and -1 for a draw. ``states`` counts the search states visited.
    """

    deal: Deal
    rules: Rules
    winnable: bool
    min_draws: int | None
    best_score: int | None
    max_removed: int | None
    states: int
    seconds: float
    moves: tuple[int, ...] = field(default=())

    def summary(self) -> dict:
        """The numbers as a plain dict (the JSON and CSV fields, without code and line)."""
        return {
            "rules": self.rules.name,
            "winnable": self.winnable,
            "min_draws": self.min_draws,
            "best_score": self.best_score,
            "max_removed": self.max_removed,
            "states": self.states,
            "seconds": round(self.seconds, 6),
        }

    @property
    def tokens(self) -> list[str]:
        """The line in machine notation: ``["Kc", "draw", …]``."""
        tab = self.deal.tableau
        return ["draw" if m < 0 else tab[m].token for m in self.moves]

    def steps(self) -> list[Step]:
        """Replay the line on the plain-Python game: each move with the score after it."""
        game = Game(self.deal, self.rules)
        out = []
        for i, m in enumerate(self.moves, 1):
            action = game.draw() if m < 0 else game.remove(self.deal.tableau[m])
            out.append(Step(i, action.card, action.is_draw, game.score, action.peaks_cleared))
        return out


@cache
def _tables():
    cfg = configurations()
    return (cfg.next_id, cfg.prev_id, cfg.available, cfg.removed.astype(np.int64),
            cfg.peaks.astype(np.int64), cfg.full_id)


class _Workspace:
    """Scratch arrays the kernels reuse from deal to deal (about 2 MB)."""

    def __init__(self, max_stock: int = 24) -> None:
        n = len(configurations())
        layer_words = (n * kernels.RANKS + 63) // 64
        self.seen = np.zeros(layer_words * (max_stock + 1), dtype=np.uint64)
        self.stack = np.empty(n * kernels.RANKS, dtype=np.int64)
        self.frontier = np.empty(n, dtype=np.int64)
        self.next_frontier = np.empty(n, dtype=np.int64)
        self.path = np.empty(kernels.MAX_DEPTH, dtype=np.int64)


@cache
def _workspace() -> _Workspace:
    return _Workspace()


def _deal_arrays(deal: Deal) -> tuple[np.ndarray, np.ndarray, int]:
    tab = np.array([c.rank for c in deal.tableau], dtype=np.int64)
    stock = np.array([c.rank for c in deal.stock], dtype=np.int64)
    return tab, stock, deal.waste.rank


def _line(path: np.ndarray, length: int) -> tuple[int, ...]:
    return tuple(-1 if m == kernels.DRAW else int(m) for m in path[:length])


def solve(deal: Deal, rules: Rules = EASY, optimal: bool = True) -> Solution:
    """Solve ``deal`` under ``rules``.

    ``optimal=True`` finds the fewest draws of a win (so the best score, 772 − draws)
    or, on a lost deal, the best score of a stuck end and the most cards removable,
    with a line reaching it. ``optimal=False`` answers winnability only, faster, and
    still returns a winning line when there is one.
    """
    start = time.perf_counter()
    next_id, prev_id, available, removed, peaks, full_id = _tables()
    ws = _workspace()
    tab, stock, waste = _deal_arrays(deal)
    wrap = rules.wrap

    if not optimal:
        found, length, states = kernels._dfs(
            next_id, available, full_id, tab, stock, waste, wrap, len(stock), False,
            ws.seen, ws.path,
        )
        return Solution(deal, rules, bool(found), None, None, TABLEAU_SIZE if found else None,
                        int(states), time.perf_counter() - start,
                        _line(ws.path, length) if found else ())

    min_draws, states, max_removed, best_stuck, length = kernels._optimal(
        next_id, prev_id, available, removed, peaks, full_id, tab, stock, waste, wrap, False,
        ws.seen, ws.stack, ws.frontier, ws.next_frontier, ws.path,
    )
    winnable = min_draws >= 0
    best_score = WIN_BONUS_SCORE - int(min_draws) if winnable else int(best_stuck)
    return Solution(
        deal, rules, winnable, int(min_draws) if winnable else None, best_score,
        int(max_removed), int(states),
        time.perf_counter() - start, _line(ws.path, length),
    )
