"""Compiled optimum of the app and cards-left schemes from a position: the win with the
fewest draws (a chain of win searches), else the best stuck end (the sweep), and a line
to it. ``shared.py`` documents the inputs.
"""

from __future__ import annotations

from ..model.geometry import TABLEAU_SIZE as TABLEAU
from .jit import njit
from .shared import _clear_layers, _draws_in, _layer_bits, _unmark_line
from .sweep import _sweep, _trace
from .win import NO_LIMIT, WinSearch, _search

NO_WIN = -1  # _optimal's floor when no win is left (known from rules with more moves)
FIRST_SEARCH_LIMIT = 20_000  # states; see _optimal (5_000 to 50_000 measured no better)


@njit(cache=True)
def _optimal(board, cards, rules, goal, scratch, path):
    """Exact optimum from the start position and a line to it. Returns (min_draws,
    states, max_removed, best_stuck_key, line_length); min_draws counts every draw of
    the game (those made before the start too) and is -1 when no win is left. The best
    stuck end is the one with the best app score, or with ``goal.most_removed`` the one
    with the most cards removed. Leaves ``seen`` zero.

    A win scores 772 − draws, so when a win is left the optimum is the win with the
    fewest draws: search again for a win with fewer draws than the last one found,
    until a search proves (exhaustively) that there is none. When none is left the
    unpruned sweep visits every reachable state, for the exact best stuck end.

    ``goal.floor``, known from elsewhere (the solver's ``looser``; 0 when nothing is known):
    no win has fewer draws, so the chain stops at a win with that many, unproved;
    NO_WIN: no win is left, so the sweep comes at once.

    The searches of the chain share their marks (sound): when a search with draw
    limit B finds a win, every state it marked other than those of the winning line
    has no win with at most B draws ahead of it — it was pruned by the test, whose
    bound only tightens as B falls, or dominated (on its layer or across layers) by
    such a state, or its frame was exhausted, all its successors being such states
    (the state graph has no cycle, so a successor is never an open frame of the
    line), or it was left by a try of the
    search that gave up and restarted (its open line was unmarked). The next search,
    with a limit below B, may therefore treat them as visited; only the line's own
    states are unmarked before it.

    The first search gives up after FIRST_SEARCH_LIMIT states. It finds a win within
    that in about nine won deals in ten, and a position that takes longer is often
    lost, when the sweep is needed anyway; so the sweep takes over at once. It changes
    no answer: the sweep goes layer by layer in order of draws, so the first win it
    meets (where it stops) has the fewest draws. On deals 0–999 this saves about a
    quarter of the lost deals' work and costs about as much as it saves on the won
    deals it takes over.
    """
    stock_len = cards.stock.shape[0]
    layer = _layer_bits(board.next_id.shape[0])
    most_removed = goal.most_removed
    floor = goal.floor
    if floor == NO_WIN:
        found, length, states, gave_up = False, 0, 0, False
    else:
        found, length, states, gave_up = _search(
            board, cards, rules, WinSearch(stock_len, FIRST_SEARCH_LIMIT, True, False),
            scratch, path)
    if gave_up:
        # Likely lost: the sweep is needed then and settles a win as well.
        _clear_layers(scratch.seen, layer, cards.drawn, stock_len)
        more, max_removed, best_stuck, gc, gr, won_at = _sweep(board, cards, rules,
                                                               most_removed, scratch, True)
        goal_s = stock_len if won_at < 0 else won_at
        length = _trace(board, cards, rules, scratch, (gc, goal_s, gr), path)
        _clear_layers(scratch.seen, layer, cards.drawn, stock_len)
        return won_at, states + more, max_removed, best_stuck, length
    if found:
        trial = scratch.trial
        draws = cards.drawn + _draws_in(path, length)
        while draws > max(cards.drawn, floor):
            _unmark_line(board, cards, scratch, path, length)
            better, n, more, _ = _search(board, cards, rules,
                                         WinSearch(draws - 1, NO_LIMIT, True, False),
                                         scratch, trial)
            states += more
            if not better:
                break
            for i in range(n):
                path[i] = trial[i]
            length = n
            draws = cards.drawn + _draws_in(path, length)
        _clear_layers(scratch.seen, layer, cards.drawn, stock_len)
        return draws, states, TABLEAU, -1, length
    _clear_layers(scratch.seen, layer, cards.drawn, stock_len)
    more, max_removed, best_stuck, gc, gr, _ = _sweep(board, cards, rules, most_removed,
                                                      scratch, False)
    length = _trace(board, cards, rules, scratch, (gc, stock_len, gr), path)
    _clear_layers(scratch.seen, _layer_bits(board.next_id.shape[0]), cards.drawn, stock_len)
    return -1, states + more, max_removed, best_stuck, length
