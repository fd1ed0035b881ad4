"""Compiled optimum of PySolFC's scoring (``pysol``) from a position, and a line to it.
``shared.py`` documents the board, cards and rules; ``model/scoring.py`` the scoring.

What a line still scores depends on the state (stock index, configuration, waste rank,
run): a removal's points depend on the run's length and the peaks empty after it (a
function of the configuration), the win's on the stock index. So the search goes
forward, layer by layer (a layer is one stock index, its states in order of cards
removed: every removal adds one, every draw opens the next layer), keeping for each
state the best score so far with which a line reaches it and the record it came from.
The run is part of the state: it is not capped, since each further removal of a run
can still change what the run's next removals score (2^⌊(k−1)/4⌋ grows without bound).

A state is dropped when the last state kept with its configuration and waste rank, on
its layer or (when a draw is always allowed) an earlier one, has as long a run and as
good a score (proved at ``_pysol_optimal``). A draw scores nothing and what follows it
depends on neither the waste nor the run, so the best draw into each configuration
stays pending from layer to layer (``draw_g``) until a better one comes, and enters
each later layer where it has a card to play; an arrival with no card to play is no
state. A win is left exactly when the search meets the full configuration (what drops
a state can make its removals too), so no other search is needed. No bound prunes:
bounds on what a state can still score were measured to cut little (docs/design.md).

The search is one function with no call in its loops (numba counts the references of
the arrays a call receives with atomic instructions: that took half the time when
states were added by a function), and it brings the tables it reads at random into
cache ahead of use (``_prefetch``): measured with perf, docs/design.md.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..model.geometry import TABLEAU_SIZE as TABLEAU
from ..model.scoring import PYSOL_PEAK_POINTS, PYSOL_RUN_STEP, PYSOL_STOCK_POINTS
from .jit import njit
from .shared import DRAW, RANKS, _lowest_position, _may_draw, _positions_on, _prefetch, _reverse

NEG = -(1 << 30)
RUN_BITS = 5  # a run ≤ 28
CODE_BITS = 19  # a (configuration << 4 | rank) code: configuration ids < 2^15
RUN_MASK = (1 << RUN_BITS) - 1
CODE_MASK = (1 << CODE_BITS) - 1
CONFIG_MASK = (1 << (CODE_BITS - 4)) - 1
LAYER_SHIFT = CODE_BITS + RUN_BITS  # a record's key: (layer << 19 | code) << 5 | run
EMPTY = -1
NO_MOVE = -1  # PysolWork.draw_move: the draw is made from draw_from itself
AFTER = DRAW + 1  # a record's move AFTER + p: the removal p, then draws, from its parent
# The arrivals waiting to be added (PysolWork.arrivals), two words each: the state,
# g << 32 | key, and how it came, (parent + 1) << 16 | (bucket + 1) << 8 | move.
BATCH = 32  # arrivals added at once, their kept states read into cache meanwhile
IN_RANGE = -1  # an arrival's bucket when it is the next one's range of records
AHEAD = 4  # states: how far ahead of its turn a state's moves are read into cache
# A pending draw (PysolWork.pending): config | first layer it enters << SINCE_SHIFT |
# the ranks on which the configuration has a card to play << PLAYS_SHIFT.
SINCE_SHIFT, PLAYS_SHIFT = 16, 24
SINCE_MASK = 0xFF << SINCE_SHIFT


class PysolWork(NamedTuple):
    """Work space. The records (``key``, score so far ``g``, ``parent`` record, the
    ``move`` from it; ``link`` to the next entry of the layer with as many cards
    removed; ``found`` how many); ``kept``, for each (configuration, rank) code the
    last state kept, as (g + 1) << RUN_BITS | run (0: none; all 0 between calls);
    ``arrivals`` waiting to be added; the best draw pending into each configuration
    (``draw_g``, NEG between calls; from record ``draw_from`` after the removal
    ``draw_move`` or NO_MOVE), the configurations with one (``pending``, as above) and
    where each is in that list (``pending_at``)."""

    key: np.ndarray
    g: np.ndarray
    parent: np.ndarray
    move: np.ndarray
    link: np.ndarray
    kept: np.ndarray
    found: np.ndarray
    arrivals: np.ndarray
    draw_g: np.ndarray
    draw_from: np.ndarray
    pending: np.ndarray
    pending_at: np.ndarray
    draw_move: np.ndarray


@njit(cache=True, inline="always")
def _points(run, peaks_after, cleared):
    # One removal's points, as scoring.pysol_removal_points.
    i = np.int64(1) << peaks_after
    gain = i * (np.int64(1) << ((run - 1) // PYSOL_RUN_STEP))
    if cleared:
        gain += PYSOL_PEAK_POINTS * i
    return gain


@njit(cache=True, inline="always")
def _plays(available, fits):
    # The ranks on which a configuration with these cards available has one to play.
    plays = np.int64(0)
    for rank in range(RANKS):
        if available & fits[rank] != 0:
            plays |= np.int64(1) << rank
    return plays


@njit(cache=True)
def _enter(board, cards, rules, work, tables, layer):
    """The entries of ``layer`` = (stock index s ≥ 1, configurations with a draw
    pending, whether states are compared across layers), each the best draw into its
    configuration, with waste card s − 1 and no run: put among the arrivals where it
    has a card to play, unless across layers every card it could play could be played
    by the same draw on an earlier layer (``tables`` = (fits, cover): cover[a, s], the
    positions whose cards go on the stock cards of layers a … s − 1): each of its
    removals is then beaten by that one, made on an earlier layer with as good a
    score. On the last layer an entry with nothing to play is a stuck end: only those
    better than every one before it become states (the best among them is all that
    counts). An entry's record says where its draws came from: ``draw_from``, after
    the removal ``draw_move`` if any (move AFTER + p), the draws counted by the layers
    between. The draws that may be made again stay pending: across layers all (a line
    may draw again and again), else those with nothing to play. Returns (pending,
    arrivals)."""
    s, n_draws, across = layer
    fits, cover = tables
    arrivals = work.arrivals
    draw_g, draw_from, draw_move = work.draw_g, work.draw_from, work.draw_move
    pending, pending_at = work.pending, work.pending_at
    r = np.int64(cards.stock[s - 1])
    last = s == cards.stock.shape[0]
    still = 0
    n_arr = 0
    stuck_best = NEG
    for e in range(n_draws):
        draw = pending[e]
        c = draw & CONFIG_MASK
        can = (draw >> (PLAYS_SHIFT + r)) & 1
        since = (draw & SINCE_MASK) >> SINCE_SHIFT
        if can:
            enter = not (across and board.available[c] & fits[r] & ~cover[since, s] == 0)
        else:
            enter = last and not rules.must_clear and draw_g[c] > stuck_best
            if enter:
                stuck_best = draw_g[c]
        if enter:
            # From record draw_from, the removal draw_move if any, then the draws.
            move = DRAW if draw_move[c] == NO_MOVE else AFTER + draw_move[c]
            arrivals[n_arr, 0] = (np.int64(draw_g[c]) << 32
                                  | (np.int64(s) << CODE_BITS | c << 4 | r) << RUN_BITS)
            arrivals[n_arr, 1] = ((np.int64(draw_from[c]) + 1) << 16
                                  | (np.int64(board.removed[c]) + 1) << 8 | move)
            _prefetch(work.kept, c << 4 | r)
            n_arr += 1
        if not last and _may_draw(rules, can):
            if still != e:
                pending[still] = draw
                pending_at[c] = still
            still += 1
        else:
            draw_g[c] = NEG
    return still, n_arr


@njit(cache=True)
def _pysol_optimal(board, cards, rules, work, path):
    """The most PySolFC points still to be earned from the start position over complete
    games (won or stuck; won only with ``rules.must_clear``) and a line to them. Returns
    (best_gain, states, line_length, won, overflow): won is whether a win is left;
    best_gain is −1 and the line empty when no game counts (``must_clear`` and no win);
    overflow is True when the work space was too small (nothing else is then
    meaningful).

    Dominance across layers (sound when a draw is always allowed): a state B on layer
    s is beaten by a state A on layer s′ ≤ s with the same configuration and waste
    rank, as long a run and as good a score. Every line from B, up to its first draw,
    can be played from A, each removal scoring as much or more (a run's factor grows
    with the run) and a win scoring as many stock points or more; where B's line then
    draws card s, A draws the cards s′ … s in a row (a draw scores nothing) and stands
    on the same layer entry with at least B's score. That is why a draw stays pending
    from layer to layer whatever becomes of the entries on the way: they may be
    beaten. A stuck end is never beaten from an earlier layer: below the last layer
    every state has a card to play (an arrival with none only draws; so does the
    start then), and the same configuration and waste rank have the same cards to
    play. Under draw-when-stuck a state with a card to play may not draw, and states
    are compared within their layer only. Only the last state kept of each
    configuration and waste rank is compared with (``kept``): a fuller record of
    those not beaten pruned more states but took longer."""
    key_of, g_of, parent_of, move_of = work.key, work.g, work.parent, work.move
    link_of, kept, arrivals = work.link, work.kept, work.arrivals
    draw_g, draw_from, draw_move = work.draw_g, work.draw_from, work.draw_move
    pending, pending_at = work.pending, work.pending_at
    capacity = key_of.shape[0]
    stock_len = cards.stock.shape[0]
    fits = _positions_on(cards, rules)
    head = np.full(TABLEAU + 1, EMPTY, dtype=np.int64)
    cover = np.zeros((stock_len + 2, stock_len + 1), dtype=np.int64)
    for a in range(1, stock_len + 1):
        for t in range(a + 1, stock_len + 1):
            cover[a, t] = cover[a, t - 1] | fits[np.int64(cards.stock[t - 2])]
    best = np.int64(-1)
    best_at = EMPTY
    won = False
    across = not rules.draw_when_stuck
    s0 = cards.drawn
    # The start: an arrival when it has a card to play (or is on the last layer), else
    # a record only, for the line through its draw.
    c0 = np.int64(cards.config)
    cand0 = board.available[c0] & fits[cards.waste]
    key_of[0] = ((np.int64(s0) << CODE_BITS | c0 << 4 | cards.waste) << RUN_BITS) | cards.run
    g_of[0], parent_of[0], move_of[0] = 0, EMPTY, DRAW
    n_rec = 0
    n_arr = 0
    if cand0 != 0 or s0 == stock_len:
        arrivals[0, 0] = key_of[0]
        arrivals[0, 1] = (EMPTY + 1) << 16 | (np.int64(board.removed[c0]) + 1) << 8 | DRAW
        n_arr = 1
    else:
        n_rec = 1
    n_draws = 0
    if s0 < stock_len and _may_draw(rules, cand0):
        draw_g[c0], draw_from[c0], draw_move[c0] = 0, 0, NO_MOVE
        pending[0] = (c0 | (s0 + 1) << SINCE_SHIFT
                      | _plays(board.available[c0], fits) << PLAYS_SHIFT)
        pending_at[c0] = 0
        n_draws = 1
    ok = True
    for s in range(s0, stock_len + 1):
        layer_first = n_rec
        for m in range(TABLEAU + 1):
            head[m] = EMPTY
        if s > s0:
            n_draws, n_arr = _enter(board, cards, rules, work, (fits, cover),
                                    (s, n_draws, across))
        # Bucket m's states (m cards removed) are its entries, listed from head[m],
        # and the arrivals from bucket m − 1's states, the records lo … hi − 1.
        lo = hi = n_rec
        for m in range(-1, TABLEAU + 1):
            idx = head[m] if m >= 0 else EMPTY
            i = lo
            next_lo = n_rec
            while ok:
                done = idx == EMPTY and i >= hi
                # Add the arrivals (first the entries), each a state of the layer
                # unless beaten: a batch at a time, all before the next bucket.
                for a in range(n_arr if n_arr >= BATCH or done else 0):
                    key = arrivals[a, 0] & 0xFFFFFFFF
                    g = arrivals[a, 0] >> 32
                    code = (key >> RUN_BITS) & CODE_MASK
                    run = key & RUN_MASK
                    other = np.int64(kept[code])
                    if other >> RUN_BITS > g and other & RUN_MASK >= run:
                        continue  # beaten
                    if n_rec == capacity:
                        ok = False
                        break
                    key_of[n_rec], g_of[n_rec] = key, g
                    came = arrivals[a, 1]
                    parent_of[n_rec], move_of[n_rec] = (came >> 16) - 1, came & 0xFF
                    kept[code] = (g + 1) << RUN_BITS | run
                    bucket = ((came >> 8) & 0xFF) - 1
                    if bucket != IN_RANGE:
                        link_of[n_rec] = head[bucket]
                        head[bucket] = n_rec
                    n_rec += 1
                if n_arr >= BATCH or done:
                    n_arr = 0
                if done or not ok:
                    break
                if idx != EMPTY:
                    here = np.int64(idx)
                    idx = link_of[here]
                    ahead = idx
                else:
                    here = np.int64(i)
                    i += 1
                    ahead = i + AHEAD if i + AHEAD < hi else EMPTY
                if ahead != EMPTY:
                    _prefetch(board.next_id,
                              (np.int64(key_of[ahead]) >> (RUN_BITS + 4)) & CONFIG_MASK)
                g = np.int64(g_of[here])
                key = np.int64(key_of[here])
                run = key & RUN_MASK
                r = (key >> RUN_BITS) & 15
                c = (key >> (RUN_BITS + 4)) & CONFIG_MASK
                if c == board.full_id:
                    won = True
                    if g > best:
                        best, best_at = g, here
                    continue
                cand = board.available[c] & fits[r]
                if cand == 0:  # stuck (on the last layer: below it no state is)
                    if not rules.must_clear and g > best:
                        best, best_at = g, here
                    continue
                peaks = np.int64(board.peaks[c])
                while cand != 0:
                    p = _lowest_position(cand)
                    cand &= cand - 1
                    c2 = np.int64(board.next_id[c, p])
                    peaks2 = np.int64(board.peaks[c2])
                    g2 = g + _points(run + 1, peaks2, peaks2 > peaks)
                    r2 = np.int64(cards.tableau[p])
                    if c2 == board.full_id:
                        g2 += PYSOL_STOCK_POINTS * (stock_len - s)
                    else:
                        available2 = board.available[c2]
                        cand2 = available2 & fits[r2]
                        # The arrival's draw, offered whether or not it becomes a state.
                        if s < stock_len and g2 > draw_g[c2] and _may_draw(rules, cand2):
                            since = (s + 1) << SINCE_SHIFT
                            if draw_g[c2] == NEG:
                                pending[n_draws] = (c2 | since
                                                    | _plays(available2, fits) << PLAYS_SHIFT)
                                pending_at[c2] = n_draws
                                n_draws += 1
                            else:
                                k = pending_at[c2]
                                pending[k] = pending[k] & ~SINCE_MASK | since
                            draw_g[c2], draw_from[c2], draw_move[c2] = g2, here, p
                        if cand2 == 0 and (s < stock_len or rules.must_clear or g2 <= best):
                            continue  # it only draws, or is a stuck end no better
                    arrivals[n_arr, 0] = g2 << 32 | ((np.int64(s) << CODE_BITS | c2 << 4 | r2)
                                                     << RUN_BITS) | (run + 1)
                    arrivals[n_arr, 1] = (here + 1) << 16 | (IN_RANGE + 1) << 8 | p
                    _prefetch(kept, c2 << 4 | r2)
                    n_arr += 1
            if m >= 0:
                lo, hi = next_lo, n_rec
        if not across:  # each layer on its own: leave ``kept`` empty for the next
            for e in range(layer_first, n_rec):
                kept[(key_of[e] >> RUN_BITS) & CODE_MASK] = 0
        if not ok:
            break
    if across:  # leave ``kept`` empty for the next call
        kept[:] = 0
    for e in range(n_draws):
        draw_g[pending[e] & CONFIG_MASK] = NEG
    work.found[0] = n_rec
    if not ok:
        return best, n_rec, 0, won, True
    length = 0
    e = best_at
    while e != EMPTY and parent_of[e] != EMPTY:
        q = parent_of[e]
        move = move_of[e]
        if move >= DRAW:  # draws from q's layer (after a removal) into e's
            for _ in range((key_of[e] >> LAYER_SHIFT) - (key_of[q] >> LAYER_SHIFT)):
                path[length] = DRAW
                length += 1
        if move != DRAW:
            path[length] = move - AFTER if move >= AFTER else move
            length += 1
        e = q
    _reverse(path, length)
    return best, n_rec, length, won, False
