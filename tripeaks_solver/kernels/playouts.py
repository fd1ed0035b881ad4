"""Compiled playouts: whole games played by a simple policy (``policies.py``), and
Monte-Carlo rollouts.

Private kernels over plain integers (the players in ``analysis/players.py`` call
them). A game runs on a full deal — ``tab`` (28 tableau ranks) and ``stock`` (the
stock's ranks in draw order) — but the *policy* part only ever receives what a player
sees (``Sight``, ``policies.py``).

The game loop (``_play``) owns the deal and turns a card face up in ``vis`` only when
the rules show it. Rollouts (``_rollouts``) never see a deal at all: they build each
completion from the ranks the player knows (face up, removed, or seen before an undo)
and the multiset of unseen ranks with their own seeded generator.

The inputs, as named tuples (``RuleMasks``, the rules, is the search kernels', its
``open`` showing every card face up; ``Policy`` is ``policies.py``'s):

``GameState`` — a game: the deal as ranks and a position in it:
    tableau, stock  the tableau's ranks and the stock's in draw order (in ``known`` of
                    the rollouts: the ranks the player knows, ``HIDDEN`` elsewhere)
    removed         the mask of the removed tableau positions
    drawn           cards drawn from the stock
    waste           the waste rank (13, wild, for an empty waste or the joker)
    run             removals since the last draw (the original scoring's run)
    original        the original score so far
``Deals`` — the openings of many deals (``_games``): ``tableaus[d]``, ``stocks[d]``,
    ``wastes[d]``
``Trials`` — the rollouts of one decision (``_rollouts``): the ``candidates`` (moves),
    how many ``samples`` (completions) to play them on, and the generator ``rng``
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..model.scoring import (
    MOVE_COST,
    ORIGINAL_BONUS_AFTER,
    ORIGINAL_DRAW_COST,
    PEAK_BONUS,
    START_SCORE,
)
from .jit import njit
from .policies import (
    ABOVE,
    COVER,
    DRAW,
    GONE,
    HIDDEN,
    STUCK,
    TABLEAU,
    Sight,
    _below,
    _choose,
    _fill_visible,
    _new_work,
    _next,
    _peaks,
    _popcount,
)
from .shared import RANKS

FULL = (1 << TABLEAU) - 1
MAX_MOVES = 64  # 28 removals + at most 24 draws
_BONUS_AFTER = np.array(ORIGINAL_BONUS_AFTER, dtype=np.int64)


class GameState(NamedTuple):
    tableau: np.ndarray
    stock: np.ndarray
    removed: int
    drawn: int
    waste: int
    run: int
    original: int


class Deals(NamedTuple):
    tableaus: np.ndarray
    stocks: np.ndarray
    wastes: np.ndarray


class Trials(NamedTuple):
    candidates: np.ndarray
    samples: int
    rng: np.ndarray


# --- a whole game ---------------------------------------------------------------------------
@njit(cache=True)
def _play(game, rules, policy, rng, moves):
    """Play ``game`` (a GameState: the deal and the position) to the end. Writes the
    moves to ``moves``; returns (moves made, removed, drawn, original)."""
    tab = game.tableau
    stock = game.stock
    removed = game.removed
    drawn = game.drawn
    waste = game.waste
    run = game.run
    original = game.original
    vis = np.empty(TABLEAU, dtype=np.int64)
    work = _new_work()
    _fill_visible(tab, removed, rules.open, vis)
    stock_len = stock.shape[0]
    # The cards the player has not seen, per rank: the deck less every card seen, which
    # are the face-down cards and the stock still to draw.
    unseen = np.zeros(RANKS, dtype=np.int64)
    for p in range(TABLEAU):
        if vis[p] == HIDDEN:
            unseen[tab[p]] += 1
    for i in range(drawn, stock_len):
        unseen[stock[i]] += 1
    n = 0
    while removed != FULL:
        move = _choose(policy, rules, Sight(vis, removed, waste, stock_len - drawn, unseen),
                       rng, work)
        if move == STUCK:
            break
        moves[n] = move
        n += 1
        if move == DRAW:
            waste = stock[drawn]
            unseen[waste] -= 1
            drawn += 1
            run = 0
            original -= ORIGINAL_DRAW_COST
        else:
            peaks_before = _peaks(removed)
            removed |= np.int64(1) << move
            waste = tab[move]
            vis[move] = GONE
            for i in range(2):  # the cards this removal turns face up
                q = ABOVE[move, i]
                if q >= 0 and vis[q] == HIDDEN and removed & COVER[q] == COVER[q]:
                    vis[q] = tab[q]
                    unseen[tab[q]] -= 1
            run += 1
            original += run
            peaks_after = _peaks(removed)
            original += _BONUS_AFTER[peaks_after] - _BONUS_AFTER[peaks_before]
    return n, removed, drawn, original


@njit(cache=True)
def _app_score(removed, drawn):
    return max(0, START_SCORE - MOVE_COST * (_popcount(removed) + drawn)
               + PEAK_BONUS * _peaks(removed))


@njit(cache=True)
def _games(deals, rules, policy, games, seeds, out):
    """``games`` games from the opening of each deal d (``deals``: Deals), each deal's
    generator seeded by seeds[d]. ``out[d]`` = (wins, cards removed in all games, app
    points in all games, original points in all games)."""
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    rng = np.empty(1, dtype=np.uint64)
    for d in range(deals.tableaus.shape[0]):
        rng[0] = np.uint64(seeds[d])
        _next(rng)
        start = GameState(deals.tableaus[d], deals.stocks[d], 0, 0, deals.wastes[d], 0, 0)
        wins = 0
        cards = 0
        app = 0
        orig = 0
        for _ in range(games):
            _, removed, drawn, original = _play(start, rules, policy, rng, moves)
            if removed == FULL:
                wins += 1
            cards += _popcount(removed)
            app += _app_score(removed, drawn)
            orig += original
        out[d, 0] = wins
        out[d, 1] = cards
        out[d, 2] = app
        out[d, 3] = orig


# --- rollouts over completions of the unseen cards --------------------------------------
@njit(cache=True)
def _complete(known, unseen, rng, tab, stock, shuffled):
    """A uniformly random completion into ``tab`` and ``stock``: the unseen ranks
    shuffled into the places not known (``HIDDEN`` in ``known.tableau`` and
    ``known.stock``), tableau left to right, then the stock in draw order."""
    known_tab = known.tableau
    known_stock = known.stock
    n = unseen.shape[0]
    for i in range(n):
        shuffled[i] = unseen[i]
    for i in range(n - 1, 0, -1):
        j = _below(rng, i + 1)
        shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
    k = 0
    for p in range(TABLEAU):
        if known_tab[p] == HIDDEN:
            tab[p] = shuffled[k]
            k += 1
        else:
            tab[p] = max(known_tab[p], 0)
    for s in range(known_stock.shape[0]):
        if known_stock[s] == HIDDEN:
            stock[s] = shuffled[k]
            k += 1
        else:
            stock[s] = known_stock[s]


@njit(cache=True)
def _apply(game, move):
    """The GameState after one legal move."""
    if move == DRAW:
        return GameState(game.tableau, game.stock, game.removed, game.drawn + 1,
                         game.stock[game.drawn], 0, game.original - ORIGINAL_DRAW_COST)
    removed = game.removed | (np.int64(1) << move)
    run = game.run + 1
    original = (game.original + run + _BONUS_AFTER[_peaks(removed)]
                - _BONUS_AFTER[_peaks(game.removed)])
    return GameState(game.tableau, game.stock, removed, game.drawn, game.tableau[move], run,
                     original)


@njit(cache=True)
def _add_end(out, m, removed, drawn, original):
    if removed == FULL:
        out[m, 0] += 1
    out[m, 1] += _popcount(removed)
    out[m, 2] += _app_score(removed, drawn)
    out[m, 3] += original


@njit(cache=True)
def _rollouts(known, unseen, rules, policy, trials, out):
    """For each candidate move (a position or DRAW) and each of ``trials.samples``
    completions of the unseen cards (the same completions for every move), play the
    move and then the policy to the end. Adds to ``out[m]`` (wins, cards removed, app
    points, original points) summed over the completions. ``known``: a GameState whose
    ranks are those the player knows, ``HIDDEN`` elsewhere (``GONE`` will do for a
    removed card); ``unseen``: the ranks of the other cards. Reads no other card.

    Draws from ``trials.rng`` and leaves it where it stopped: two calls of n and m
    samples add up to what one call of n + m samples finds."""
    rng = trials.rng
    candidates = trials.candidates
    stock_len = known.stock.shape[0]
    tab = np.zeros(TABLEAU, dtype=np.int64)
    stock = np.zeros(max(stock_len, 1), dtype=np.int64)
    shuffled = np.empty(unseen.shape[0] + 1, dtype=np.int64)
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    deal = GameState(tab, stock[:stock_len], known.removed, known.drawn, known.waste,
                     known.run, known.original)
    for _ in range(trials.samples):
        _complete(known, unseen, rng, tab, stock, shuffled)
        for m in range(candidates.shape[0]):
            _, removed, drawn, original = _play(_apply(deal, candidates[m]), rules, policy,
                                                rng, moves)
            _add_end(out, m, removed, drawn, original)


# --- the rollout player's choice -------------------------------------------------------
@njit(cache=True)
def _best(out, n, default, margin):
    """The first move with most wins, unless it wins no more than ``margin`` more than
    the move ``default``: then ``default``."""
    best = 0
    for m in range(n):
        if out[m, 0] > out[best, 0]:
            best = m
    if out[best, 0] <= out[default, 0] + margin:
        return default
    return best
