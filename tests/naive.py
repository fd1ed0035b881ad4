"""A slow, obviously-correct TriPeaks solver: the reference the numba kernels are checked on.

Deliberately naive. It uses neither the configuration tables nor the kernels nor
``Rules.adjacent``: only the deal's cards and the board as written in
``geometry.COVERED_BY`` / ``geometry.PEAK_POSITIONS`` (the layout is written down in
exactly one place). The rules are restated here from RULES.md:

- a tableau card is playable when it is still there, every card covering it is gone,
  and its rank is one above or one below the waste top's rank (or A on K / K on A when
  ``wrap``, the Easy rules);
- drawing is allowed at any time while the stock has cards;
- the game is won as soon as all 28 tableau cards are gone, and stuck when the stock is
  empty and no card is playable;
- score: 500, −1 per removal, −1 per draw, +100 per cleared peak. A win therefore
  scores 500 − 28 − draws + 300 = 772 − draws.

A state is (set of removed positions as a bitmask, cards drawn so far, waste rank).
The search simply collects every state reachable from the start (a worklist and a
Python set). All four answers are properties of single reachable states:

- winnable / min_draws: the fewest draws of a reachable won state (the draw count of a
  line is the ``drawn`` of the state it reaches);
- max_removed: the most removed cards of any reachable state;
- best_score: 772 − min_draws on a win, else the best score of a reachable stuck end.

The only shortcut (``stop_at_first_win``, on by default) visits states in order of
``drawn`` and stops at the first won state: no move lowers ``drawn``, so when a state
with ``drawn = k`` is taken, every state with fewer draws has been taken already, and
the first won state taken has the fewest draws. ``stop_at_first_win=False`` visits
every reachable state; a test checks that both give the same answers.

:func:`naive_variant_solve` and :func:`naive_original` (at the end) extend the reference
to every rule option and scoring scheme; tests/test_variants.py uses them.
"""

from __future__ import annotations

from dataclasses import dataclass

from tripeaks_solver.geometry import COVERED_BY, PEAK_POSITIONS

N_POSITIONS = 28
ALL_REMOVED = (1 << N_POSITIONS) - 1
START_SCORE = 500
PEAK_BONUS = 100
WIN_SCORE_NO_DRAWS = START_SCORE - N_POSITIONS + 3 * PEAK_BONUS  # 772

# The cover relation and the peaks as bitmasks, from the shared board description.
COVER_MASK = tuple(sum(1 << q for q in COVERED_BY[p]) for p in range(N_POSITIONS))
PEAK_MASK = tuple(sum(1 << p for p in peak) for peak in PEAK_POSITIONS)


def ranks_adjacent(a: int, b: int, wrap: bool) -> bool:
    """Ranks 0 = A … 12 = K. One apart, or A and K when the rules wrap."""
    if abs(a - b) == 1:
        return True
    return wrap and {a, b} == {0, 12}


def count_bits(mask: int) -> int:
    return mask.bit_count()


def peaks_cleared(removed: int) -> int:
    return sum(1 for m in PEAK_MASK if removed & m == m)


def app_score(removed: int, draws: int) -> int:
    """The app's score after ``draws`` draws and the removals in ``removed`` (never below 0)."""
    score = START_SCORE - count_bits(removed) - draws + PEAK_BONUS * peaks_cleared(removed)
    return max(0, score)


@dataclass(frozen=True)
class NaiveResult:
    winnable: bool
    min_draws: int | None
    best_score: int
    max_removed: int
    states: int

    def answers(self) -> tuple[bool, int | None, int, int]:
        return self.winnable, self.min_draws, self.best_score, self.max_removed


def naive_solve(deal, wrap: bool, stop_at_first_win: bool = True) -> NaiveResult:
    """Solve ``deal`` (a :class:`tripeaks_solver.Deal`) under Easy (``wrap``) or Classic."""
    tab_rank = [c.rank for c in deal.tableau]
    stock_rank = [c.rank for c in deal.stock]
    stock_len = len(stock_rank)

    # For each waste rank, (position, its bit, the bits of the cards covering it) of the
    # tableau cards whose rank may go on it: the rank test, done once per deal.
    follows = [
        [(p, 1 << p, COVER_MASK[p]) for p in range(N_POSITIONS)
         if ranks_adjacent(w, tab_rank[p], wrap)]
        for w in range(13)
    ]

    def playable(removed: int, waste_rank: int) -> list[int]:
        """Positions still there, with every covering card gone, one rank from the waste."""
        return [
            p
            for p, bit, cover in follows[waste_rank]
            if not removed & bit and removed & cover == cover
        ]

    start = (0, 0, deal.waste.rank)
    seen = {start}
    todo: list[list[tuple[int, int, int]]] = [[] for _ in range(stock_len + 1)]
    todo[0].append(start)  # todo[k]: the states with k draws not yet expanded
    min_draws = None  # fewest draws of a reached won state
    most_removed = 0  # most cards removed in a reached state
    best_stuck = -1  # best score of a reached stuck end
    for layer in todo:  # layers only ever feed later layers, so this visits them all
        while layer:
            state = layer.pop()
            removed, drawn, waste_rank = state
            most_removed = max(most_removed, count_bits(removed))
            if removed == ALL_REMOVED:  # won: the game ends here
                if min_draws is None or drawn < min_draws:
                    min_draws = drawn
                continue
            moves = playable(removed, waste_rank)
            if drawn == stock_len and not moves:  # stuck: the game ends here
                best_stuck = max(best_stuck, app_score(removed, drawn))
                continue
            children = [(removed | 1 << p, drawn, tab_rank[p]) for p in moves]
            if drawn < stock_len:
                children.append((removed, drawn + 1, stock_rank[drawn]))
            for child in children:
                if child not in seen:
                    seen.add(child)
                    todo[child[1]].append(child)
        if min_draws is not None and stop_at_first_win:
            break

    if min_draws is not None:
        return NaiveResult(True, min_draws, WIN_SCORE_NO_DRAWS - min_draws, N_POSITIONS, len(seen))
    return NaiveResult(False, None, best_stuck, most_removed, len(seen))


# =====================================================================================
# Every variant and every scoring scheme
# =====================================================================================
#
# The same kind of reference for all the options of ``Rules`` (wrap, empty_waste, joker,
# draw_when_stuck; ``open`` only changes what a player sees) and all three scoring
# schemes. Again nothing from the package but the deal's cards and the board geometry;
# the rules are restated here:
#
# - cards are ints ``suit * 13 + rank``; card 52 is the joker, whose rank 13 is wild;
# - a card may go on the waste top when the waste is empty (empty_waste, before the
#   first card), when either card is the joker, or when their ranks are one apart (or
#   A and K when ``wrap``);
# - empty_waste: the waste starts empty and the card that would have started it is the
#   first card of the stock (24 cards, 25 with the joker); otherwise the waste starts
#   with deal card 28 and the stock is cards 29 … in order;
# - draw_when_stuck: a draw is allowed only when no card can be removed;
# - won as soon as all 28 are gone; stuck when the stock is empty and nothing plays.
#
# Scores of a complete game (won or stuck):
# - app: 500 − moves + 100 per cleared peak (never below 0): a win is 772 − draws;
# - cards-left: (cards left in the peaks, moves), smaller is better, moves = removals +
#   draws;
# - original: a removal scores one more than the removal before it in the current run
#   (1, 2, 3, …); a draw costs 5 and ends the run; the removal that clears the first,
#   second, third peak scores 15, 15, 30 more; starts at 0.

EMPTY = -1  # the waste top before the first card, under empty_waste
WILD = 13  # the joker's rank
JOKER_CARD = 52
ORIGINAL_DRAW_COST = 5
ORIGINAL_PEAK_BONUS = (15, 15, 30)  # for clearing the first, second, third peak
PEAK_OF_POSITION = tuple(next(k for k, peak in enumerate(PEAK_POSITIONS) if p in peak)
                         for p in range(N_POSITIONS))


def rank_of(card: int) -> int:
    """0 = A … 12 = K; the joker (card 52) is the wild rank 13."""
    return WILD if int(card) == JOKER_CARD else int(card) % 13


def may_follow(waste: int, rank: int, wrap: bool) -> bool:
    """May a card of ``rank`` go on the waste top ``waste`` (EMPTY, a rank, or WILD)?"""
    if waste in (EMPTY, WILD) or rank == WILD:
        return True
    return ranks_adjacent(waste, rank, wrap)


def opening(deal, rules) -> tuple[list[int], int, list[int]]:
    """Ranks of the 28 tableau cards, the first waste top (EMPTY or a rank), the stock
    ranks in draw order."""
    cards = [int(c) for c in deal.cards]
    assert (len(cards) == 53) == rules.joker, "the joker variant needs a 53-card deal"
    assert (JOKER_CARD in cards) == rules.joker
    tab = [rank_of(c) for c in cards[:N_POSITIONS]]
    rest = [rank_of(c) for c in cards[N_POSITIONS:]]
    if rules.empty_waste:
        return tab, EMPTY, rest
    return tab, rest[0], rest[1:]


def cards_left_key(removed: int, draws: int) -> tuple[int, int]:
    """The cards-left result of a finished game: (cards left, moves)."""
    return N_POSITIONS - count_bits(removed), count_bits(removed) + draws


def uncovered(removed: int) -> list[int]:
    """Positions still there whose covering cards are all gone."""
    return [p for p in range(N_POSITIONS)
            if not removed >> p & 1 and removed & COVER_MASK[p] == COVER_MASK[p]]


@dataclass(frozen=True)
class VariantResult:
    """The answers under every scheme but the original one.

    ``app_best``: 772 − min_draws on a won deal, else the best app score of a stuck end;
    ``cards_left``: the best (cards left, moves) of a complete game.
    """

    winnable: bool
    min_draws: int | None
    app_best: int
    max_removed: int
    cards_left: tuple[int, int]
    states: int

    def answers(self) -> tuple:
        return self.winnable, self.min_draws, self.app_best, self.max_removed, self.cards_left


def naive_variant_solve(deal, rules, stop_at_first_win: bool = True) -> VariantResult:
    """Answers under ``rules`` (any options) for the app and cards-left schemes.

    The reachable positions are collected draw count by draw count, like
    :func:`naive_solve`; to go faster, the states sharing a removed set and a draw count
    are kept together: ``reach[k][c][removed]`` is the set of waste tops (a bit mask,
    bit ``w + 1`` for waste ``w``) with which the removed set ``removed`` (``c`` cards)
    is reachable after exactly ``k`` draws. A removal keeps ``k`` and adds one card, a
    draw keeps the cards and adds one to ``k``, so taking ``k`` in increasing order
    and, inside it, ``c`` in increasing order, every entry is complete before it is
    expanded. A won state ends the game; a waste top with nothing playable and no stock
    left is a stuck end. As in :func:`naive_solve`, ``stop_at_first_win`` stops after
    the first draw count with a win, which is then the fewest draws of any win.
    """
    tab, first_waste, stock = opening(deal, rules)
    stock_len = len(stock)
    # accepts[p]: the waste tops (bit w + 1) on which position p's card may go.
    accepts = [sum(1 << (w + 1) for w in range(EMPTY, WILD + 1)
                   if may_follow(w, tab[p], rules.wrap))
               for p in range(N_POSITIONS)]

    def removals(removed: int) -> tuple[int, list[tuple[int, int, int]]]:
        """For a removed set: the waste tops some uncovered card may go on, and per
        uncovered card (the waste tops it may go on, the removed set after it, its
        waste-top bit)."""
        takes_some = 0
        out = []
        for p in uncovered(removed):
            takes_some |= accepts[p]
            out.append((accepts[p], removed | 1 << p, 1 << (tab[p] + 1)))
        return takes_some, out

    memo: dict[int, tuple[int, list[tuple[int, int, int]]]] = {}  # the same in every layer
    reach = [[{} for _ in range(N_POSITIONS + 1)] for _ in range(stock_len + 1)]
    reach[0][0][0] = 1 << (first_waste + 1)
    min_draws = None
    most_removed = 0
    best_stuck_app = -1
    best_stuck_left = None
    states = 0  # (removed set, draws) pairs
    for k in range(stock_len + 1):
        for c in range(N_POSITIONS + 1):
            if reach[k][c]:
                most_removed = max(most_removed, c)
                states += len(reach[k][c])
            if c == N_POSITIONS and reach[k][c]:  # won: the game ends here
                min_draws = k if min_draws is None else min_draws
                continue
            for removed, tops in reach[k][c].items():
                if removed not in memo:
                    memo[removed] = removals(removed)
                takes_some, options = memo[removed]
                after = reach[k][c + 1]
                for takes, child, top in options:
                    if tops & takes:  # this card goes on one of the waste tops
                        after[child] = after.get(child, 0) | top
                blocked = tops & ~takes_some  # waste tops on which nothing plays
                if k < stock_len:
                    if blocked or not rules.draw_when_stuck:
                        drawn = reach[k + 1][c]
                        drawn[removed] = drawn.get(removed, 0) | 1 << (stock[k] + 1)
                elif blocked:  # stuck: the game ends here
                    best_stuck_app = max(best_stuck_app, app_score(removed, k))
                    key = cards_left_key(removed, k)
                    if best_stuck_left is None or key < best_stuck_left:
                        best_stuck_left = key
        if min_draws is not None and stop_at_first_win:
            break
    if min_draws is not None:
        return VariantResult(True, min_draws, WIN_SCORE_NO_DRAWS - min_draws, N_POSITIONS,
                             (0, N_POSITIONS + min_draws), states)
    return VariantResult(False, None, best_stuck_app, most_removed, best_stuck_left, states)


@dataclass(frozen=True)
class OriginalResult:
    """The best original score, and the answers of :class:`VariantResult` from the ends
    met on the same walk (a different walk from :func:`naive_variant_solve`'s)."""

    best_score: int
    variant: VariantResult


def naive_original(deal, rules) -> OriginalResult:
    """The best final score under the original scoring over complete games.

    A plain recursion with memo over the states (removed set, cards drawn, waste top,
    length of the current run): the best score still to come from a state is 0 at an
    end (won or stuck), else the best over its moves of what the move scores plus the
    best still to come after it. Every state reachable from the start is visited, so
    the ends met along the way also give the answers of the other schemes.
    """
    tab, first_waste, stock = opening(deal, rules)
    stock_len = len(stock)
    # follows[w]: (bit of the position, bits covering it, bits of its peak, its rank) of
    # the tableau cards that may go on waste top w.
    follows = {
        w: [(1 << p, COVER_MASK[p], PEAK_MASK[PEAK_OF_POSITION[p]], tab[p])
            for p in range(N_POSITIONS) if may_follow(w, tab[p], rules.wrap)]
        for w in range(EMPTY, WILD + 1)
    }
    memo: dict[tuple[int, int, int, int], int] = {}
    won_draws: list[int] = []  # the draws of every won end met
    stuck_ends: list[tuple[int, int]] = []  # (removed, drawn) of every stuck end met

    def to_go(removed: int, drawn: int, waste: int, run: int) -> int:
        key = (removed, drawn, waste, run)
        if key in memo:
            return memo[key]
        if removed == ALL_REMOVED:  # won: the game ends here
            won_draws.append(drawn)
            memo[key] = 0
            return 0
        best = None
        can_remove = False
        for bit, cover, peak, rank in follows[waste]:
            if removed & bit or removed & cover != cover:
                continue  # gone already, or still covered
            can_remove = True
            after = removed | bit
            points = run + 1
            if after & peak == peak:  # this removal clears its peak
                points += ORIGINAL_PEAK_BONUS[peaks_cleared(removed)]
            value = points + to_go(after, drawn, rank, run + 1)
            if best is None or value > best:
                best = value
        if drawn < stock_len and not (rules.draw_when_stuck and can_remove):
            value = to_go(removed, drawn + 1, stock[drawn], 0) - ORIGINAL_DRAW_COST
            if best is None or value > best:
                best = value
        if best is None:  # stuck: the stock is empty and nothing plays
            stuck_ends.append((removed, drawn))
            best = 0
        memo[key] = best
        return best

    best_score = to_go(0, 0, first_waste, 0)
    if won_draws:
        d = min(won_draws)
        variant = VariantResult(True, d, WIN_SCORE_NO_DRAWS - d, N_POSITIONS,
                                (0, N_POSITIONS + d), len(memo))
    else:
        variant = VariantResult(
            False, None,
            max(app_score(removed, drawn) for removed, drawn in stuck_ends),
            max(count_bits(key[0]) for key in memo),
            min(cards_left_key(removed, drawn) for removed, drawn in stuck_ends),
            len(memo))
    return OriginalResult(best_score, variant)
