"""The solver's Python front: a position -> named tuples of integer arrays -> kernels ->
:class:`Solution`.

Every search starts from a position (``position.Position``); solving a deal is solving
its opening position. Answers are about the whole game: draws and cards removed count
those before the position too, and scores are final scores.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from ..errors import InputError
from ..kernels import optimum, original, pysol, shared, win
from ..kernels.jit import compile_notice
from ..model.cards import Card, ranks
from ..model.dealing import Deal
from ..model.game import Game
from ..model.geometry import TABLEAU_SIZE, configurations
from ..model.moves import Move
from ..model.position import Position
from ..model.pysol import pysol_info
from ..model.rules import EASY, Rules
from ..model.scoring import (
    MOVE_COST,
    PEAK_BONUS,
    RUN_SCHEMES,
    WIN_BASE_SCORE,
    Scheme,
    check_scheme,
    win_score,
)

# The keys of every object of `solve --json`, in order (docs/json.md).
SOLVE_KEYS = ("kind", "source", "code", "deal", "line", "pysol", "rules", "variant", "scoring",
              "must_clear", "winnable", "min_draws", "best_score", "best_moves", "max_removed", "states",
              "seconds", "solution", "completions", "wins", "share", "share_95", "exact")


def solve_object(rules: Rules, source: str, code: str | None, number: int | None,
                 line: str | None, **fields: object) -> dict:
    """One object of ``solve --json`` under ``rules``: the deal named by its ``code``
    and deal ``number``, or by its ``line`` of cards, then the ``fields`` given; null
    elsewhere."""
    row = dict.fromkeys(SOLVE_KEYS)
    row.update(source=source, code=code, deal=number, line=line, rules=rules.name,
               variant=rules.variant, **fields)
    assert tuple(row) == SOLVE_KEYS, row  # no key beyond the documented ones
    return row


@dataclass(frozen=True)
class Step:
    """One move of a line, as the plain-Python game scored it."""

    number: int
    card: Card
    is_draw: bool
    score: int  # under the solution's scheme; cards left in the peaks under cards-left
    peaks_cleared: int

    @property
    def move(self) -> Move:
        return Move.DRAW if self.is_draw else Move.remove(self.card)

    @property
    def token(self) -> str:
        return self.move.token


@dataclass(frozen=True)
class Solution:
    """What the solver knows about a game from its ``start`` position under one rule set.

    ``best_score`` is the optimum of the scoring ``scheme`` for the whole game: the
    best final app or original score, or under ``cards-left`` the fewest cards left at
    the end, reached in ``best_moves`` moves in all. ``min_draws`` is the fewest draws
    of a win, counting those made before the start (app and cards-left schemes).
    ``min_draws`` and ``best_score`` are None when the search was not asked for the
    optimum (``optimal=False``); ``min_draws`` is also None when no win is left and
    under the original scoring, and ``max_removed`` (most cards removed by the end) is
    None when no win is left and the search was not optimal or under the original
    scoring (the win search stops exploring lines it has proved lost, so it does not
    know the most cards). ``moves`` is a line from the start reaching ``best_score``
    (or any win when not optimal). Under the original scoring the best line may end
    stuck even when a win is left. ``states`` counts the search states visited.

    With ``must_clear`` only won games count: ``best_score`` (and ``best_moves``) is
    the optimum over the lines that clear the board, ``moves`` a win reaching it; when
    no win is left there is none, and ``best_score``, ``min_draws`` and ``max_removed``
    are None and ``moves`` is empty.
    """

    deal: Deal
    rules: Rules
    winnable: bool
    min_draws: int | None
    best_score: int | None
    max_removed: int | None
    states: int
    seconds: float
    moves: tuple[Move, ...] = field(default=())
    scheme: Scheme = Scheme.APP
    best_moves: int | None = None
    start: Position | None = None
    must_clear: bool = False

    def __repr__(self) -> str:
        start = self.start or Position(self.deal, self.rules)
        head = f"<Solution {start.title}, {self.scheme} scoring"
        if self.must_clear:
            head += ", must clear"
        return f"{head}: {self.verdict}>"

    @property
    def verdict(self) -> str:
        """``winnable, best score 757, min draws 15, line of 43: 8h draw 4s …`` and the like."""
        said = "winnable" if self.winnable else "lost"
        if self.best_score is not None:
            said += f", best score {self.best_score}"
        if self.min_draws is not None:
            said += f", min draws {self.min_draws}"
        if not self.winnable and self.max_removed is not None:
            said += f", max removed {self.max_removed}"
        if self.moves:
            said += f", line of {len(self.moves)}: {' '.join(m.token for m in self.moves[:3])} …"
        return said

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
        return [m.token for m in self.moves]

    def to_dict(self, source: str | None = None, with_line: bool = True) -> dict:
        """The object ``solve --json`` prints for this deal and rule set (``kind``
        "deal"): the code and deal number of a deal made by ``Deal.from_code``, else its
        ``line``; ``source`` defaults to the code, else ``"layout"``; ``solution`` null
        without ``with_line``."""
        code = self.deal.code
        return solve_object(
            self.rules, source or code or "layout", code,
            None if code is None else self.deal.number,
            None if code is not None else self.deal.line(), kind="deal",
            pysol=pysol_info(self.deal, self.rules, self.scheme), scoring=str(self.scheme),
            must_clear=self.must_clear, winnable=self.winnable, min_draws=self.min_draws,
            best_score=self.best_score, best_moves=self.best_moves,
            max_removed=self.max_removed, states=self.states, seconds=round(self.seconds, 6),
            solution=self.tokens if with_line and (self.winnable or not self.must_clear)
            else None)

    def steps(self) -> list[Step]:
        """Replay the line on the plain-Python game from the start: each move with the
        score after it."""
        game = (self.start or Position(self.deal, self.rules)).game()
        out = []
        for i, move in enumerate(self.moves, 1):
            action = game.play(move)
            out.append(Step(i, action.card, action.is_draw, game.shown_score(self.scheme),
                            action.peaks_cleared))
        return out


# --- the kernels' inputs ---------------------------------------------------------------
@cache
def _board() -> shared.Board:
    cfg = configurations()
    # Narrow types keep the tables the search reads at every state small in cache.
    return shared.Board(cfg.next_id.astype(np.int16), cfg.prev_id.astype(np.int16),
                        cfg.available.astype(np.int32), cfg.removed.astype(np.int8),
                        cfg.peaks.astype(np.int8), cfg.mask.astype(np.int64),
                        int(cfg.full_id), _ends_beyond(cfg).astype(np.int16))


def _ends_beyond(cfg) -> np.ndarray:
    # Board.beyond: configurations with k cards removed lead only to configurations
    # with more, so going down from 27 removed every row reads finished ones.
    value = PEAK_BONUS * cfg.peaks.astype(np.int64) - MOVE_COST * cfg.removed.astype(np.int64)
    value[cfg.full_id] = shared.NO_END  # a win, not a stuck end
    beyond = np.full(len(cfg), shared.NO_END, dtype=np.int64)
    from_here = value.copy()  # the same with c itself counted
    for k in range(TABLEAU_SIZE - 1, -1, -1):
        ids = np.flatnonzero(cfg.removed == k)
        nxt = cfg.next_id[ids]
        beyond[ids] = np.where(nxt >= 0, from_here[np.maximum(nxt, 0)], shared.NO_END).max(axis=1)
        from_here[ids] = np.maximum(value[ids], beyond[ids])
    return beyond


@cache
def _config_id() -> dict[int, int]:
    return {int(m): i for i, m in enumerate(configurations().mask)}


@cache
def rule_masks(rules: Rules) -> shared.RuleMasks:
    """What ``rules`` decide, as the kernels read it."""
    neighbours = np.array([rules.neighbours(k) for k in range(shared.RANKS)], dtype=np.int64)
    return shared.RuleMasks(neighbours, bool(rules.draw_when_stuck), bool(rules.open))


@cache
def scratch() -> shared.Scratch:
    """Scratch arrays the kernels reuse from search to search (about 10 MB, one per process)."""
    n = len(configurations())
    max_stock = 25
    layer_words = ((n << shared.SHIFT) + 63) // 64
    return shared.Scratch(
        seen=np.zeros(layer_words * (max_stock + 1), dtype=np.uint64),
        layer_seen=np.zeros(layer_words, dtype=np.uint64),
        stack=np.empty(n << shared.SHIFT, dtype=np.int64),
        parent=np.empty(n << shared.SHIFT, dtype=np.int64),
        met=np.empty(n, dtype=np.int32),
        pending=np.empty(n * (max_stock + 1), dtype=np.int32),
        trial=np.empty(shared.MAX_DEPTH, dtype=np.int64),
        low=np.zeros(n << shared.SHIFT, dtype=np.uint8),
        generation=np.zeros(1, dtype=np.int64),
    )


@cache
def _pysol_work(capacity: int) -> pysol.PysolWork:
    n = len(configurations())
    return pysol.PysolWork(
        key=np.empty(capacity, dtype=np.int32), g=np.empty(capacity, dtype=np.int32),
        parent=np.empty(capacity, dtype=np.int32), move=np.empty(capacity, dtype=np.int8),
        link=np.empty(capacity, dtype=np.int32),
        kept=np.zeros(n << shared.SHIFT, dtype=np.int32), found=np.zeros(1, dtype=np.int64),
        arrivals=np.empty((n + TABLEAU_SIZE + 1, 2), dtype=np.int64),
        draw_g=np.full(n, pysol.NEG, dtype=np.int32), draw_from=np.empty(n, dtype=np.int32),
        draw_move=np.empty(n, dtype=np.int8), pending=np.empty(n, dtype=np.int64),
        pending_at=np.empty(n, dtype=np.int32))


PYSOL_CAPACITY = 1 << 20  # records (17 bytes each); doubled when a search needs more
PYSOL_MOST = 1 << 23
_pysol_capacity = [PYSOL_CAPACITY]


def _pysol_best(bd: shared.Board, cards: shared.Cards, masks: shared.RuleMasks,
                path: np.ndarray) -> tuple[bool, int, int, int]:
    """(whether a win is left, gain, states, line length) of the best pysol line from the
    position ``cards`` describes: one search answers both."""
    capacity = _pysol_capacity[0]
    while True:
        gain, states, length, won, overflow = pysol._pysol_optimal(
            bd, cards, masks, _pysol_work(capacity), path)
        if not overflow:
            return bool(won), int(gain), int(states), int(length)
        if capacity >= PYSOL_MOST:
            raise RuntimeError("the pysol search needs more states than it can hold")
        _pysol_work.cache_clear()  # one work space at a time, kept as large as needed
        capacity *= 2
        _pysol_capacity[0] = capacity


def board() -> shared.Board:
    return _board()


def cards_at(position: Position) -> shared.Cards:
    """The deal's ranks and the start state of ``position``, as the kernels read them."""
    _, stock = position.deal.opening(position.rules)
    top = position.waste
    return shared.Cards(
        tableau=ranks(position.deal.tableau),
        stock=ranks(stock),
        config=_config_id()[position.removed],
        drawn=position.drawn,
        waste=shared.RANKS - 1 if top is None else top.rank,
        run=position.run,
    )


def _line(position: Position, path: np.ndarray, length: int) -> tuple[Move, ...]:
    tab = position.deal.tableau
    return tuple(Move.DRAW if m == shared.DRAW else Move.remove(tab[m])
                 for m in path[:length].tolist())  # Python ints compare faster


def _start_of(start: Deal | Game | Position, rules: Rules | None) -> Position:
    if isinstance(start, Position):
        position = start
    elif isinstance(start, Game):
        position = Position.of(start)
    elif isinstance(start, Deal):
        return Position(start, rules or EASY)
    else:
        raise TypeError(f"solve() takes a Deal, a Game or a Position, not {type(start)}")
    if rules is not None and rules != position.rules:
        raise InputError(f"the position was played under {position.rules} rules, not {rules}")
    return position


# --- solving ---------------------------------------------------------------------------
def solve(start: Deal | Game | Position, rules: Rules | None = None, optimal: bool = True,
          scheme: Scheme = Scheme.APP, looser: Solution | None = None,
          must_clear: bool = False) -> Solution:
    """Solve a deal from its opening (``start`` a Deal, ``rules`` default Easy), or a
    game from the position it shows (``start`` a Game or Position, played under its
    own rules).

    ``optimal=True`` finds the optimum of the scoring ``scheme`` with a line reaching
    it: under ``app`` (default) the win with the fewest draws (772 − draws) or, when no
    win is left, the stuck end with the best score; under ``cards-left`` the fewest
    cards left, then the fewest moves; under ``original`` the best final score with run
    bonuses. ``optimal=False`` answers winnability only, faster, and still returns a
    winning line when there is one.

    ``must_clear=True`` (with ``optimal``) counts only the lines that clear the board:
    the optimum among the wins, and no best score when no win is left. Under ``app``
    and ``cards-left`` that is the usual optimum of a won game; under ``original`` the
    best line may otherwise end stuck.

    ``looser`` may give a solution of the same position under the same rules with the
    K–A wrap added, drawing being free: every line here is a line there, so a win here
    has at least its fewest draws, and none is left when none is left there. When
    that solution is lost, so is this one, and without ``optimal`` no search is made
    (``states`` is 0; with ``optimal`` too under ``must_clear``). With ``optimal`` it
    must be an optimal app or cards-left solution, or one of a lost position: the
    search for the optimum then stops at a win with its fewest draws, or sweeps at once.
    The same answers, sooner (``batch --rules both``).
    """
    scheme = check_scheme(scheme)  # a user's "pysol" below the API too
    if must_clear and not optimal:
        raise ValueError("must_clear asks for the best score of a win: it needs optimal=True")
    position = _start_of(start, rules)
    floor = _draws_floor(looser, position, optimal)
    began = time.perf_counter()
    bd = _board()
    ws = scratch()
    cards = cards_at(position)
    masks = rule_masks(position.rules)
    path = np.empty(shared.MAX_DEPTH, dtype=np.int64)

    def solution(winnable, min_draws, best, max_removed, states, length, best_moves=None):
        return Solution(position.deal, position.rules, bool(winnable), min_draws, best,
                        max_removed, int(states), time.perf_counter() - began,
                        _line(position, path, length), scheme, best_moves, position,
                        must_clear)

    if position.cards_left == 0:  # already won: nothing to search
        return solution(True, position.drawn if scheme not in RUN_SCHEMES and optimal else None,
                        position.shown_score(scheme) if optimal else None, TABLEAU_SIZE, 1, 0,
                        position.moves_played if optimal and scheme == Scheme.CARDS_LEFT else None)

    if (not optimal or must_clear) and floor == optimum.NO_WIN:  # lost under looser rules
        return solution(False, None, None, None, 0, 0)
    if scheme == Scheme.PYSOL and optimal:
        won, gain, states, length = _pysol_best(bd, cards,
                                                masks._replace(must_clear=must_clear), path)
        if must_clear and not won:
            return solution(False, None, None, None, states, 0)
        return solution(won, None, int(position.score_under(Scheme.PYSOL)) + gain,
                        TABLEAU_SIZE if won else None, states, length)
    if not optimal or scheme in RUN_SCHEMES or must_clear:
        found, length, states = win._dfs(bd, cards, masks, len(cards.stock), ws, path)
    if not optimal:
        return solution(found, None, None, TABLEAU_SIZE if found else None, states,
                        length if found else 0)
    if must_clear and not found:  # no line clears the board: nothing to optimise
        return solution(False, None, None, None, states, 0)

    if scheme == Scheme.ORIGINAL:
        gain, more, length = original._original_optimal(
            bd, cards, masks._replace(must_clear=must_clear), ws, path)
        return solution(found, None, int(position.score_under(Scheme.ORIGINAL)) + int(gain),
                        TABLEAU_SIZE if found else None, states + more, length)

    most_removed = scheme == Scheme.CARDS_LEFT
    before = states if must_clear else 0  # the win search that proved a win is left
    min_draws, states, max_removed, best_key, length = optimum._optimal(
        bd, cards, masks, shared.Goal(most_removed, floor), ws, path)
    states += before
    winnable = min_draws >= 0
    if most_removed:
        best = 0 if winnable else TABLEAU_SIZE - int(best_key)
        return solution(winnable, int(min_draws) if winnable else None, best,
                        int(max_removed), states, length, position.moves_played + length)
    best = win_score(int(min_draws)) if winnable else int(best_key)
    return solution(winnable, int(min_draws) if winnable else None, best, int(max_removed),
                    states, length)


def _draws_floor(looser: Solution | None, position: Position, optimal: bool) -> int:
    # What ``looser`` says of the fewest draws of a win here (see ``solve``): NO_WIN
    # when none is left, 0 when nothing is known.
    if looser is None:
        return 0
    there = looser.start or Position(looser.deal, looser.rules)
    if (position.rules.draw_when_stuck or looser.rules != position.rules.with_options(wrap=True)
            or (there.deal, there.record) != (position.deal, position.record)
            or (optimal and (looser.scheme not in (Scheme.APP, Scheme.CARDS_LEFT)
                             or (looser.winnable and looser.min_draws is None)))):
        raise ValueError("looser must be a solution of the same position under the same "
                         "rules with the K–A wrap, drawing free (for an optimal solve an "
                         "optimal app or cards-left one, unless it is lost)")
    if not looser.winnable:
        return optimum.NO_WIN
    # optimal: an optimal solution that is winnable knows its fewest draws (checked above)
    return looser.min_draws if optimal and looser.min_draws is not None else 0


def warm_up(scheme: Scheme = Scheme.APP) -> None:
    """Load (or compile) the kernels now, so that no deal's time includes it."""
    with compile_notice():
        solve(Deal.from_number(0), EASY, optimal=True, scheme=scheme)


__all__ = ["SOLVE_KEYS", "WIN_BASE_SCORE", "Solution", "Step", "solve", "solve_object", "warm_up"]
