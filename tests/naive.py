"""The solver's slow twin: an obviously-correct TriPeaks search, from any position.

Deliberately naive. It reads neither the configuration tables, nor the kernels, nor
``Rules.adjacent``, nor the scores of ``scoring.py``: only the deal's cards, the rule
options of a :class:`~tripeaks_solver.model.rules.Rules`, and the board as written down in
``geometry.COVERED_BY`` / ``geometry.PEAK_POSITIONS``. The rules (docs/rules.md) are
restated here, in one place each:

- cards are ints ``suit * 13 + rank`` (A = 0 … K = 12); card 52 is the joker, whose
  rank 13 is wild;
- the opening: the waste starts with deal card 28 and the stock is cards 29, 30, … in
  draw order; with ``empty_waste`` the waste starts empty and card 28 is the first
  card of the stock;
- a tableau card may be removed when it is still there, every card covering it is
  gone, and it may go on the waste top: anything goes on an empty waste; the joker
  goes on anything and takes anything; otherwise the ranks are one apart, or A and K
  when ``wrap`` (Easy);
- a draw turns the next stock card onto the waste; it is allowed while the stock has
  cards, and with ``draw_when_stuck`` only when no card can be removed;
- the game is over when all 28 tableau cards are gone (won) or when no move is left
  (stuck: the stock is empty and nothing plays).

Scores (``SCHEMES``), kept as the score so far and changed by each move:

- ``app``: starts at 500; −1 a move (removal or draw); +100 for the removal that
  clears a peak; never below 0. A win therefore scores 500 − 28 − draws + 300 =
  772 − draws, and no stuck end (it keeps a peak: at most 700) beats a win;
- ``original``: starts at 0; a removal scores one more than the removal before it in
  the current run (1, 2, 3, …); the removal clearing the first, second, third peak
  scores 15, 15, 30 more; a draw costs 5 and ends the run;
- ``cards-left``: the score so far is the number of moves made; a finished game is
  ranked by (cards left, moves), smaller first.

API (what the tests and the kernels' cross-checks use)
------------------------------------------------------
A :class:`Position` is ``(removed, drawn, waste, run, score)``: the 28-bit mask of
removed tableau positions; the cards drawn from the stock so far (the stock of
``Deal.opening(rules)``); the waste top card (an int or ``Card``) or None for an empty
waste; the removals since the last draw (the original scoring's run; 0 will do under
the other schemes); the score so far under the scheme (app score, original points,
or under cards-left the moves made so far).

- ``NaiveGame(deal, rules, scheme)``: the deal under those rules and that scheme.
  ``.opening()`` is the opening position; ``.moves(pos)`` the legal moves (tableau
  positions 0–27, then ``DRAW`` = −1), none when the game is over; ``.play(pos, move)``
  the position after a legal move; ``.solve(start=None)`` the answers from ``start``
  (default the opening).
- ``naive_solve(deal, rules, scheme="app", start=None)``: the same in one call.
- ``position_of(game, scheme)``: the position a :class:`~tripeaks_solver.model.game.Game`
  shows after some moves (``game.removed``, ``game.stock_index``, ``game.waste``,
  ``game.run``, and ``game.score`` / ``game.original`` / ``game.moves``).

An :class:`Answer` is about the whole game, the moves before the start included:
``winnable``; ``min_draws``, the fewest total draws of a win (None when no win is
left); ``best_score``, the best final score (app: 772 − ``min_draws`` on a win, else
the best stuck end; original: points so far + the best points still to come;
cards-left: the fewest cards left at the end) with ``best_moves`` (cards-left only:
the fewest total moves among the ends leaving that few cards, else None);
``max_removed``, the most tableau cards removed by the end; ``states``, the positions
visited. ``answers()`` is ``(winnable, min_draws, best_score, best_moves,
max_removed)``.

The same over won games only (``--must-clear``): ``clear_score`` and ``clear_moves``
are ``best_score`` and ``best_moves`` with the stuck ends left out (None when no win is
left), and ``clear_answers()`` is ``answers()`` as a search that counts only wins
knows them: ``(winnable, min_draws, clear_score, clear_moves, 28)`` on a won game,
``(False, None, None, None, None)`` otherwise.

Example: the answers from the position a game shows, for a kernel to be checked on::

    game = Game(deal, rules); game.play("draw"); game.play("Kc")
    want = naive_solve(deal, rules, "original", position_of(game, "original"))

How the search works
--------------------
No move ever lowers the cards drawn or the cards removed, and each move raises one of
them, so the positions reachable from the start are visited in layers, draws first,
then cards removed, each layer only feeding later ones. A layer maps each state
(removed set, waste rank, run) to the best score so far with which it is reached
(every path to it gives the same app score and moves; the original points differ
from path to path and the best one is kept, since the points still to come depend on
the state only). Every game ends at a position with no move, so the best final score
is the best over those ends, ``min_draws`` the fewest draws of a won end and
``max_removed`` the most cards removed at any position reached. The run is kept in
the state only under the original scoring (elsewhere it changes nothing, and leaving
it out merges states whose futures are the same).

The one shortcut (``stop_at_first_win``, on by default, not under the original
scoring) stops after the first draw layer holding a won end: every end not yet seen
has more draws, hence a lower app score or more moves than that win, or is stuck, and
a stuck end leaves a card and keeps a peak, so it is worse than any win under the app
and cards-left schemes. ``stop_at_first_win=False`` visits everything; a test checks
that both agree.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from tripeaks_solver.model.geometry import COVERED_BY, PEAK_POSITIONS

if TYPE_CHECKING:  # types only: the twin reads the deal's cards and the rule options
    from tripeaks_solver.model.dealing import Deal
    from tripeaks_solver.model.game import Game
    from tripeaks_solver.model.rules import Rules

N_POSITIONS = 28
ALL_REMOVED = (1 << N_POSITIONS) - 1
COVER_MASK = tuple(sum(1 << q for q in COVERED_BY[p]) for p in range(N_POSITIONS))
PEAK_MASK = tuple(sum(1 << p for p in peak) for peak in PEAK_POSITIONS)
PEAK_OF = tuple(next(k for k, peak in enumerate(PEAK_POSITIONS) if p in peak)
                for p in range(N_POSITIONS))

JOKER_CARD = 52
WILD = 13  # the joker's rank
EMPTY = -1  # the waste rank of an empty waste
DRAW = -1  # the draw, among moves that are otherwise tableau positions

SCHEMES = ("app", "original", "cards-left")
APP_START = 500
APP_MOVE_COST = 1
APP_PEAK_BONUS = 100
APP_WIN_BASE = APP_START - N_POSITIONS * APP_MOVE_COST + 3 * APP_PEAK_BONUS  # 772
ORIGINAL_DRAW_COST = 5
ORIGINAL_PEAK_BONUS = (15, 15, 30)  # for the first, second, third peak cleared
START_SCORE = {"app": APP_START, "original": 0, "cards-left": 0}


def rank_of(card: int | None) -> int:
    """A card's rank (A = 0 … K = 12, the joker WILD); EMPTY for no card."""
    if card is None:
        return EMPTY
    return WILD if int(card) == JOKER_CARD else int(card) % 13


def may_follow(top: int, rank: int, wrap: bool) -> bool:
    """May a card of ``rank`` go on a waste top of rank ``top`` (EMPTY, 0 … 12, WILD)?"""
    if top in (EMPTY, WILD) or rank == WILD:
        return True
    return abs(top - rank) == 1 or (wrap and {top, rank} == {0, 12})


def peaks_cleared(removed: int) -> int:
    return sum(1 for mask in PEAK_MASK if removed & mask == mask)


class Position(NamedTuple):
    """A game in progress: see the module docstring."""

    removed: int
    drawn: int
    waste: int | None
    run: int
    score: int


@dataclass(frozen=True)
class Answer:
    """The answers for the whole game from a position: see the module docstring."""

    winnable: bool
    min_draws: int | None
    best_score: int
    best_moves: int | None
    max_removed: int
    states: int
    clear_score: int | None = None
    clear_moves: int | None = None

    def answers(self) -> tuple:
        return self.winnable, self.min_draws, self.best_score, self.best_moves, self.max_removed

    def clear_answers(self) -> tuple:
        if not self.winnable:
            return False, None, None, None, None
        return True, self.min_draws, self.clear_score, self.clear_moves, N_POSITIONS


class NaiveGame:
    """A deal under ``rules`` and a scoring ``scheme``: positions, moves, answers."""

    def __init__(self, deal: Deal, rules: Rules, scheme: str = "app") -> None:
        assert scheme in SCHEMES, scheme
        cards = [int(c) for c in deal.cards]
        assert (len(cards) == 53) == rules.joker == (JOKER_CARD in cards), (
            "the joker rules need the 53-card deal, the others the 52-card one")
        self.rules = rules
        self.scheme = scheme
        self.tableau = cards[:N_POSITIONS]
        if rules.empty_waste:
            self.first_waste, self.stock = None, cards[N_POSITIONS:]
        else:
            self.first_waste, self.stock = cards[N_POSITIONS], cards[N_POSITIONS + 1:]
        self.tableau_ranks = [rank_of(c) for c in self.tableau]
        self.stock_ranks = [rank_of(c) for c in self.stock]
        # follows[top]: the tableau positions whose card may go on a waste top of rank
        # ``top``, found once per deal (the rank test never changes).
        self.follows = {
            top: [p for p in range(N_POSITIONS)
                  if may_follow(top, self.tableau_ranks[p], rules.wrap)]
            for top in range(EMPTY, WILD + 1)
        }

    # --- the rules ------------------------------------------------------------------
    def opening(self) -> Position:
        return Position(0, 0, self.first_waste, 0, START_SCORE[self.scheme])

    def _removals(self, removed: int, top: int) -> list[int]:
        """Positions still there, uncovered, whose card may go on the waste top."""
        return [p for p in self.follows[top]
                if not removed >> p & 1 and removed & COVER_MASK[p] == COVER_MASK[p]]

    def _moves(self, removed: int, drawn: int, top: int) -> list[int]:
        if removed == ALL_REMOVED:  # won: the game is over
            return []
        moves = self._removals(removed, top)
        if drawn < len(self.stock) and not (self.rules.draw_when_stuck and moves):
            moves.append(DRAW)
        return moves

    def _score_after(self, score: int, move: int, removed: int, run: int) -> int:
        """The score after ``move`` from a position with ``removed`` and ``run``."""
        if self.scheme == "cards-left":
            return score + 1  # the moves made
        if move == DRAW:
            if self.scheme == "app":
                return max(0, score - APP_MOVE_COST)
            return score - ORIGINAL_DRAW_COST
        peak = PEAK_MASK[PEAK_OF[move]]
        clears = (removed | 1 << move) & peak == peak  # this removal clears its peak
        if self.scheme == "app":
            return max(0, score - APP_MOVE_COST + (APP_PEAK_BONUS if clears else 0))
        bonus = ORIGINAL_PEAK_BONUS[peaks_cleared(removed)] if clears else 0
        return score + run + 1 + bonus

    def moves(self, pos: Position) -> list[int]:
        """The legal moves: removable positions in increasing order, then DRAW."""
        return self._moves(pos.removed, pos.drawn, rank_of(pos.waste))

    def play(self, pos: Position, move: int) -> Position:
        """The position after a legal ``move``."""
        assert move in self.moves(pos), (move, pos)
        score = self._score_after(pos.score, move, pos.removed, pos.run)
        if move == DRAW:
            return Position(pos.removed, pos.drawn + 1, self.stock[pos.drawn], 0, score)
        return Position(pos.removed | 1 << move, pos.drawn, self.tableau[move], pos.run + 1,
                        score)

    # --- the search -----------------------------------------------------------------
    def solve(self, start: Position | None = None, stop_at_first_win: bool = True) -> Answer:
        """The answers for the whole game from ``start`` (the opening by default)."""
        start = self.opening() if start is None else start
        assert 0 <= start.drawn <= len(self.stock) and 0 <= start.removed <= ALL_REMOVED
        cards_left = self.scheme == "cards-left"
        keep_run = self.scheme == "original"
        stop = stop_at_first_win and self.scheme != "original"

        def better(a, b) -> bool:
            return a < b if cards_left else a > b

        # layers[drawn, removed count]: {(removed, waste rank, run): best score so far}
        layers: dict[tuple[int, int], dict[tuple[int, int, int], int]] = defaultdict(dict)
        first_count = start.removed.bit_count()
        first = (start.removed, rank_of(start.waste), start.run if keep_run else 0)
        layers[start.drawn, first_count][first] = start.score
        min_draws = None
        max_removed = 0
        best_end = None  # app, original: the score; cards-left: (cards left, moves)
        best_win = None  # the same over the won ends only
        states = 0
        for drawn in range(start.drawn, len(self.stock) + 1):
            for count in range(first_count, N_POSITIONS + 1):
                layer = layers.pop((drawn, count), {})
                if layer:
                    states += len(layer)
                    max_removed = max(max_removed, count)
                for (removed, top, run), score in layer.items():
                    moves = self._moves(removed, drawn, top)
                    if not moves:  # the game ends here, won or stuck
                        if count == N_POSITIONS and min_draws is None:
                            min_draws = drawn  # the first win met has the fewest draws
                        end = (N_POSITIONS - count, score) if cards_left else score
                        if best_end is None or better(end, best_end):
                            best_end = end
                        if count == N_POSITIONS and (best_win is None or better(end, best_win)):
                            best_win = end
                        continue
                    for move in moves:
                        after = self._score_after(score, move, removed, run)
                        if move == DRAW:
                            key = (drawn + 1, count)
                            child = (removed, self.stock_ranks[drawn], 0)
                        else:
                            key = (drawn, count + 1)
                            child = (removed | 1 << move, self.tableau_ranks[move],
                                     run + 1 if keep_run else 0)
                        later = layers[key]
                        if child not in later or better(after, later[child]):
                            later[child] = after
            if stop and min_draws is not None:
                break
        def split(end) -> tuple:  # (score, moves) of an end, None for no end
            if end is None:
                return None, None
            return end if cards_left else (end, None)

        best_score, best_moves = split(best_end)
        clear_score, clear_moves = split(best_win)
        return Answer(min_draws is not None, min_draws, best_score, best_moves, max_removed,
                      states, clear_score, clear_moves)


def naive_solve(deal: Deal, rules: Rules, scheme: str = "app", start: Position | None = None,
                stop_at_first_win: bool = True) -> Answer:
    """The answers for ``deal`` under ``rules`` and ``scheme`` from ``start`` (default:
    the opening)."""
    return NaiveGame(deal, rules, scheme).solve(start, stop_at_first_win)


def position_of(game: Game, scheme: str = "app") -> Position:
    """The position a :class:`tripeaks_solver.model.game.Game` shows, with its score under
    ``scheme`` (the moves made, as ``Game.moves`` counts them, under cards-left)."""
    score = {"app": game.score, "original": game.original, "cards-left": game.moves}[scheme]
    return Position(game.removed, game.stock_index, game.waste, game.run, score)
