"""Fair analysis: answers that use only what the player has seen.

A :class:`View` is built from a position and keeps only what a player has seen: the
tableau cards that are face up or removed, the waste cards, the stock cards drawn so
far and the moves played; the cards nobody has seen are kept as a sorted multiset, so
their places in the deal cannot leak. Everything else in this module receives a View,
never a deal: :func:`fair_hint` fills the unseen places with random completions (or
every distinct one, when they are few), solves each exactly from the position after
every legal move in the compiled loop of ``completion_kernels``, and reports shares.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from ..kernels import completions as completion_kernels
from ..kernels.jit import chunks
from ..limits import MAX_SAMPLES
from ..model.cards import DECK_SIZE, Card
from ..model.dealing import Deal
from ..model.geometry import TABLEAU_SIZE
from ..model.moves import Move
from ..model.position import Position
from ..model.rules import Rules
from ..model.scoring import Scheme, check_scheme
from ..solver.solve import board, cards_at, rule_masks, scratch
from .stats import wilson_interval

STOP_SECONDS = 0.04  # with should_stop: a kernel call aims at this, and takes at most ~0.1 s

StopCheck = Callable[[], bool]  # should_stop(): True once the caller no longer wants it


class Cancelled(Exception):
    """Raised by a search when its ``should_stop()`` said stop (between two kernel calls)."""


def stop_points(n: int, should_stop: StopCheck | None) -> Iterator[tuple[int, int]]:
    """:func:`kernels.jit.chunks` of 0 … n; with ``should_stop``, short ones, each asked
    before it begins (Cancelled when it says stop)."""
    if should_stop is None:
        yield from chunks(n)
        return
    for a, b in chunks(n, STOP_SECONDS):
        if should_stop():
            raise Cancelled
        yield a, b


def seen_at(position: Position) -> frozenset[int]:
    """The places of the deal's line (0–27 tableau, 28 waste, 29… stock) whose cards the
    player has seen at ``position``: removed or face-up tableau cards, the starting
    waste, the stock cards drawn."""
    return position.visible_places()


@dataclass(frozen=True)
class View:
    """What the player knows at a position.

    ``tableau[p]``: the card at position p where the player knows it (face up now,
    removed, or seen before an undo turned it face down again), None elsewhere.
    ``stock``: the opening stock of ``rules`` in draw order, None where not known.
    ``unseen``: every other card, sorted. ``record``: the moves that stand; ``undone``:
    the moves taken back (the move counter keeps them).
    """

    rules: Rules
    tableau: tuple[Card | None, ...]
    waste_start: Card | None
    stock: tuple[Card | None, ...]
    unseen: tuple[Card, ...]
    record: tuple[Move, ...]
    undone: int = 0

    def __repr__(self) -> str:
        moves = len(self.record) + self.undone
        return f"<View {self.rules} rules, moves {moves}: unseen {len(self.unseen)}>"

    @classmethod
    def of(cls, position: Position, known: frozenset[int] | None = None) -> View:
        """The view of ``position`` for a player who knows the cards at the places
        ``known`` of the deal's line (0–27 tableau, 28 waste, the stock after it);
        None: those the game has shown on the way to it. InputError when the game shows
        a card at a place not in ``known`` (a ?? the player must name)."""
        deal, rules = position.deal, position.rules
        shown = seen_at(position)
        if known is None:
            known = shown
        blind = sorted(shown - known)
        if blind:
            raise InputError(f"place {blind[0] + 1} of the layout is ?? but the player "
                             "sees that card at this position: name it")
        waste, stock = deal.opening(rules)
        first = deal.stock_start(rules)
        tableau = tuple(deal.tableau[p] if p in known else None for p in range(TABLEAU_SIZE))
        stock_known = tuple(c if first + i in known else None for i, c in enumerate(stock))
        seen = {int(c) for c in tableau + stock_known if c is not None}
        if waste is not None:
            seen.add(int(waste))
        deck = DECK_SIZE + 1 if rules.joker else DECK_SIZE
        unseen = tuple(Card(c) for c in range(deck) if c not in seen)
        return cls(rules, tableau, waste, stock_known, unseen, position.record,
                   position.undone)

    @property
    def fill_places(self) -> list[int]:
        """The places the unseen cards fill, in the order of :meth:`completion`: the
        unknown tableau positions, then TABLEAU_SIZE + i for each unknown stock card i."""
        return ([p for p, c in enumerate(self.tableau) if c is None]
                + [TABLEAU_SIZE + i for i, c in enumerate(self.stock) if c is None])

    def completion(self, fill: list[Card] | tuple[Card, ...]) -> Position:
        """The position in the deal that puts ``fill`` on the unseen places, in the
        order of :attr:`fill_places`."""
        it = iter(fill)
        tableau = [next(it) if c is None else c for c in self.tableau]
        stock = [next(it) if c is None else c for c in self.stock]
        if self.waste_start is None:  # empty waste: the waste card heads the stock
            cards = tableau + stock
        else:
            cards = tableau + [self.waste_start] + stock
        return Position(Deal(tuple(cards)), self.rules, self.record, self.undone)

    def canonical(self) -> Position:
        """One completion, the same for every deal with this view (the legal moves,
        the score and everything else a player sees are read off it)."""
        return self.completion(self.unseen)


@dataclass(frozen=True)
class FairMove:
    """One legal move as a player who cannot see would rate it."""

    move: Move
    wins: float  # completions still winnable after the move (weighted when exact)
    total: int
    share: float
    share_95: tuple[float, float]
    mean_score: float | None  # mean best final app score over the scored completions


@dataclass(frozen=True)
class FairHint:
    """Per legal move, best first (highest share, then mean score, then the order of
    the legal moves), and the move recommended: the first."""

    view: View
    moves: tuple[FairMove, ...]
    samples: int  # completions solved for the shares
    scored: int  # completions solved for the mean scores
    exact: bool  # every distinct completion was solved
    share_now: float | None  # share of completions winnable at the position itself

    def __repr__(self) -> str:
        return f"<FairHint {self.view.rules} rules: {self.said}>"

    @property
    def said(self) -> str:
        """``samples 1000, moves 2h 79.3% Ks 72.3% draw 69.8%`` and the like."""
        how = "every completion" if self.exact else f"samples {self.samples}"
        rated = " ".join(f"{m.move.token} {m.share:.1%}" for m in self.moves)
        return f"{how}, moves {rated or 'none'}"

    @property
    def recommended(self) -> Move | None:
        return self.moves[0].move if self.moves else None


def distinct_fillings(unseen: tuple[Card, ...] | list[Card]) -> int:
    """How many different rank sequences can fill the unseen places (suits never
    matter to play)."""
    counts = Counter(c.rank for c in unseen)
    n = sum(counts.values())
    return math.factorial(n) // math.prod(math.factorial(m) for m in counts.values())


def rank_orders(ranks: list[int]) -> Iterator[list[int]]:
    """Every distinct ordering of the multiset ``ranks`` (in lexicographic order)."""
    items = sorted(ranks)
    yield list(items)
    n = len(items)
    while True:  # the next permutation, as in the classic algorithm
        i = n - 2
        while i >= 0 and items[i] >= items[i + 1]:
            i -= 1
        if i < 0:
            return
        j = n - 1
        while items[j] <= items[i]:
            j -= 1
        items[i], items[j] = items[j], items[i]
        items[i + 1:] = reversed(items[i + 1:])
        yield list(items)


def _fills(view: View, samples: int, seed: int | None
           ) -> tuple[int, bool, Callable[[int, int], np.ndarray]]:
    # How many completions, whether they are every distinct one, and rows(a, b): the
    # ranks completions a … b-1 put on the unseen places, asked for in consecutive
    # ranges from 0. Sampled ones are drawn as they are asked for (a million of them
    # take seconds and 350 MB); numpy's permuted shuffles rows in order, so the rows
    # drawn in chunks are those of one draw of them all (a test checks it).
    ranks = [c.rank for c in view.unseen]
    if not ranks:
        every = np.zeros((1, 0), dtype=np.int64)
    elif distinct_fillings(view.unseen) <= samples:
        every = np.array(list(rank_orders(ranks)), dtype=np.int64)
    else:
        rng = np.random.default_rng(seed)
        base = np.array(ranks, dtype=np.int64)
        return samples, False, lambda a, b: rng.permuted(np.tile(base, (b - a, 1)), axis=1)
    return len(every), True, lambda a, b: every[a:b]


def _move_codes(view: View, position: Position, moves: list[Move]) -> np.ndarray:
    where = {int(c): p for p, c in enumerate(position.deal.tableau)}
    return np.array([completion_kernels.DRAW if m.card is None else where[int(m.card)]
                     for m in moves], dtype=np.int64)


def fair_hint(view: View, samples: int = 1000, seed: int | None = None,
              score_samples: int = 100, with_now: bool = False,
              scheme: Scheme = Scheme.APP, should_stop: StopCheck | None = None) -> FairHint:
    """Rate every legal move by the share of completions of the unseen cards in which a
    win is still left after it (95% Wilson interval), and by the mean best final score
    under ``scheme`` over the first ``score_samples`` completions (an optimum costs
    about ten winnability searches; under ``original`` far more). When the distinct
    rank fillings are no more than ``samples`` they are all solved and the shares are
    exact. ``with_now`` also rates the position itself (``share_now``). ``should_stop``
    is asked about every 0.05 s (at most 0.1 s apart); True stops the work (Cancelled)."""
    scheme = check_scheme(scheme)  # a caller's "app" as the enum
    if not 1 <= samples <= MAX_SAMPLES:
        raise InputError(f"samples must be 1 … {MAX_SAMPLES:,}, not {samples}")
    position = view.canonical()
    legal = position.legal_moves()
    if not legal and not with_now:
        return FairHint(view, (), 0, 0, True, None)
    n, exact, fill_rows = _fills(view, samples, seed)
    codes = _move_codes(view, position, legal)
    # What a move scores under the original scheme does not depend on unseen cards.
    base = np.array([position.play(m).score_under(Scheme.ORIGINAL)
                     if scheme == Scheme.ORIGINAL else 0 for m in legal], dtype=np.int64)
    places = np.array(view.fill_places, dtype=np.int64)
    # Under pysol the completions are not scored (its optimum costs a search of tens
    # of milliseconds each): the moves are rated by their shares alone.
    scored = 0 if scheme == Scheme.PYSOL else min(score_samples, n)
    wins = np.zeros((n, len(codes) + 1), dtype=np.int64)
    scores = np.zeros((n, len(codes)), dtype=np.int64)
    start, masks, work = cards_at(position), rule_masks(view.rules), scratch()
    scheme_code = completion_kernels.SCHEME_CODES.get(scheme, completion_kernels.APP)
    # A chunk of completions a call, so that Ctrl-C stops the work; each completion is
    # solved on its own, so the answers are those of one call over all.
    for a, b in stop_points(n, should_stop):
        completion_kernels._solve_completions(
            board(), start, masks,
            completion_kernels.Completions(places, fill_rows(a, b), wins[a:b], scores[a:b]),
            completion_kernels.Asked(codes, max(0, scored - a), scheme_code, base), work)
    rated = []
    for j, move in enumerate(legal):
        w = int(wins[:, j].sum())
        share = w / n
        interval = (share, share) if exact else wilson_interval(w, n)
        mean = float(scores[:scored, j].mean()) if scored else None
        rated.append(FairMove(move, w, n, share, interval, mean))
    # Best first: higher share, then better mean score (fewer cards under cards-left).
    sign = -1 if scheme == Scheme.CARDS_LEFT else 1
    order = sorted(range(len(rated)), key=lambda j: (-rated[j].share,
                                                      -sign * (rated[j].mean_score or 0), j))
    now = float(wins[:, len(legal)].mean()) if with_now else None
    return FairHint(view, tuple(rated[j] for j in order), n, scored, exact, now)
