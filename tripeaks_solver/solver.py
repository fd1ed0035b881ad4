"""The solver's Python front: Deal + Rules -> integer arrays -> kernels -> Solution."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from . import kernels
from .cards import Card
from .dealing import Deal
from .errors import InputError
from .game import Game
from .geometry import TABLEAU_SIZE, configurations
from .rules import EASY, Rules
from .scoring import SCHEMES, WIN_BASE_SCORE


@dataclass(frozen=True)
class Step:
    """One move of a line, as the plain-Python game scored it."""

    number: int
    card: Card
    is_draw: bool
    score: int  # under the solution's scheme; cards left in the peaks under cards-left
    peaks_cleared: int

    @property
    def token(self) -> str:
        return "draw" if self.is_draw else self.card.token


@dataclass(frozen=True)
class Solution:
    """What the solver knows about one deal under one rule set.

    ``best_score`` is the optimum of the scoring ``scheme``: app or original points,
    or under ``cards-left`` the fewest cards left at the end, reached in ``best_moves``
    moves. ``min_draws`` is the fewest draws of a win (app and cards-left schemes).
    ``min_draws`` and ``best_score`` are None when the search was not asked for the
    optimum (``optimal=False``); ``min_draws`` is also None on a lost deal and under the
    original scoring, and ``max_removed`` is None on a lost deal searched with
    ``optimal=False`` or under the original scoring (the win search stops exploring
    lines it has proved lost, so it does not know the most cards).
    ``moves`` is a line reaching ``best_score`` (or any win when not optimal): tableau
    positions 0–27 and -1 for a draw. Under the original scoring the best line may end
    stuck even on a winnable deal. ``states`` counts the search states visited.
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
    scheme: str = "app"
    best_moves: int | None = None

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
            score = game.cards_left if self.scheme == "cards-left" else game.score_under(
                self.scheme)
            out.append(Step(i, action.card, action.is_draw, score, action.peaks_cleared))
        return out


@cache
def _tables():
    cfg = configurations()
    # Narrow types keep the tables the search reads at every state small in cache.
    return (cfg.next_id.astype(np.int16), cfg.prev_id.astype(np.int16),
            cfg.available.astype(np.int32), cfg.removed.astype(np.int64),
            cfg.peaks.astype(np.int64), cfg.full_id)


class _Workspace:
    """Scratch arrays the kernels reuse from deal to deal (about 2 MB)."""

    def __init__(self, max_stock: int = 25) -> None:
        n = len(configurations())
        layer_words = ((n << kernels.SHIFT) + 63) // 64
        self.seen = np.zeros(layer_words * (max_stock + 1), dtype=np.uint64)
        self.layer_seen = np.zeros(layer_words, dtype=np.uint64)
        self.stack = np.empty(n << kernels.SHIFT, dtype=np.int64)
        self.parent = np.empty(n << kernels.SHIFT, dtype=np.int64)
        self.frontier = np.empty(n, dtype=np.int64)
        self.next_frontier = np.empty(n, dtype=np.int64)
        self.path = np.empty(kernels.MAX_DEPTH, dtype=np.int64)


@cache
def _workspace() -> _Workspace:
    return _Workspace()


def _deal_arrays(deal: Deal, rules: Rules) -> tuple[np.ndarray, np.ndarray, int]:
    waste, stock = deal.opening(rules)
    tab = np.array([c.rank for c in deal.tableau], dtype=np.int64)
    stock_ranks = np.array([c.rank for c in stock], dtype=np.int64)
    return tab, stock_ranks, kernels.WILD if waste is None else waste.rank


def _line(path: np.ndarray, length: int) -> tuple[int, ...]:
    return tuple(-1 if m == kernels.DRAW else int(m) for m in path[:length])


def solve(deal: Deal, rules: Rules = EASY, optimal: bool = True, scheme: str = "app") -> Solution:
    """Solve ``deal`` under ``rules``.

    ``optimal=True`` finds the optimum of the scoring ``scheme`` with a line reaching
    it: under ``app`` (default) the win with the fewest draws (772 − draws) or, on a
    lost deal, the stuck end with the best score; under ``cards-left`` the fewest cards
    left, then the fewest moves; under ``original`` the best final score with run
    bonuses. ``optimal=False`` answers winnability only, faster, and still returns a
    winning line when there is one.
    """
    if scheme not in SCHEMES:
        raise InputError(f"unknown scoring {scheme!r} (expected one of {', '.join(SCHEMES)})")
    start = time.perf_counter()
    next_id, prev_id, available, removed, peaks, full_id = _tables()
    ws = _workspace()
    tab, stock, waste = _deal_arrays(deal, rules)
    wrap = rules.wrap
    dws = rules.draw_when_stuck

    if not optimal or scheme == "original":
        found, length, states = kernels._dfs(
            next_id, available, full_id, tab, stock, waste, wrap, len(stock), dws, ws.seen,
            ws.path,
        )
    if not optimal:
        return Solution(deal, rules, bool(found), None, None, TABLEAU_SIZE if found else None,
                        int(states), time.perf_counter() - start,
                        _line(ws.path, length) if found else (), scheme)

    if scheme == "original":
        best, more, length = kernels._original_optimal(
            next_id, available, removed, peaks, full_id, tab, stock, waste, wrap, dws,
            ws.layer_seen, ws.stack, ws.parent, ws.path,
        )
        moves = _line(ws.path, length)
        return Solution(deal, rules, bool(found), None, int(best),
                        TABLEAU_SIZE if found else None, int(states + more),
                        time.perf_counter() - start, moves, scheme)

    most_removed = scheme == "cards-left"
    min_draws, states, max_removed, best_key, length = kernels._optimal(
        next_id, prev_id, available, removed, peaks, full_id, tab, stock, waste, wrap, dws,
        most_removed, ws.seen, ws.stack, ws.frontier, ws.next_frontier, ws.path,
    )
    winnable = min_draws >= 0
    moves = _line(ws.path, length)
    if most_removed:
        best_score = 0 if winnable else TABLEAU_SIZE - int(best_key)
        best_moves = len(moves)
    else:
        best_score = WIN_BASE_SCORE - int(min_draws) if winnable else int(best_key)
        best_moves = None
    return Solution(
        deal, rules, winnable, int(min_draws) if winnable else None, best_score,
        int(max_removed), int(states), time.perf_counter() - start, moves, scheme, best_moves,
    )


def warm_up(scheme: str = "app") -> None:
    """Load (or compile) the kernels now, so that no deal's time includes it."""
    deal = Deal.from_number(0)
    solve(deal, EASY, optimal=True, scheme=scheme)
