"""Each legal move's chance: the one measure of the advice, its bars and the review.

A move's *chance* is the share of sampled completions of the unseen cards that playing
it, then playing carefully (the ``careful`` player of ``players.py``), wins: the fair
player's rollouts, over the same completions for every move, from only what the player
has seen (a :class:`fair.View`). Its *points* are the final result those same games
reach on average under the scoring scheme (app or original points; cards left under
``cards-left``; 0 under ``pysol``, which the rollouts do not count). When every card is known there is nothing to guess: a move's chance
is 1 when a win is still left after it and 0 otherwise, its points the best final
result still reachable (the exact solver).

The move recommended is the fair player's (``fair:N``): the careful move, unless
another wins more than ``fair_margin(N)`` of the N games more; where every move wins
as many games (all won, all lost, or one move), the one with the most expected points
(the careful move on a tie). So the recommended move's chance is the highest, or
within the noise of the samples of it (``why``: ``"tie"``), or every chance is equal
(``why``: ``"points"``).

:func:`move_chances` keeps what it computed (a bounded cache in the process, keyed by
the view, the samples, the seed and the scheme): the review of a game asks again for
the chances the advice computed during play, and gets them at once. Its ``keep``
callback receives each new one as a plain JSON object (:func:`entry`), which a game
keeps beside its record (``games.chance_log``) and :func:`remember` takes back in
another process: the chances are a function of the view, the samples, the seed and the
scheme alone, so an entry is valid wherever its key matches.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from ..limits import PLAYER_SAMPLES
from ..model.moves import Move
from ..model.scoring import Scheme
from ..solver.solve import solve
from .fair import FairHint, StopCheck, View, fair_hint
from .players import fair_player

MAX_PLAYER_SAMPLES = PLAYER_SAMPLES  # the most a fair:N player takes
VERSION = 1  # of the computation: kept chances of another version are not reused
CACHE_SIZE = 20_000  # positions kept (a few hundred bytes each)
POINT_COLUMNS = {Scheme.APP: 2, Scheme.ORIGINAL: 3}  # of the rollouts' sums; cards-left: from 1


@dataclass(frozen=True)
class MoveChance:
    """One legal move: the games (of the rollouts) won by playing it, then carefully,
    their share (``chance``) and the mean final result (``points``: cards left under
    ``cards-left``, fewer is better)."""

    move: Move
    wins: int
    chance: float
    points: float


@dataclass(frozen=True)
class Chances:
    """Every legal move's chance at a position, best first: the recommended move, then
    the others by chance, then by points, then in the order of the legal moves.

    ``rollouts``: the games a move (0 when every card is known: ``exact``);
    ``why``: ``"tie"`` when another move's chance is higher but within the noise of
    the samples (the careful move kept), ``"points"`` when every move's chance is the
    same and the points chose, else None."""

    moves: tuple[MoveChance, ...]
    rollouts: int
    seed: int
    scheme: Scheme
    exact: bool = False
    why: str | None = None

    def __repr__(self) -> str:
        rated = " ".join(f"{m.move.token} {m.chance:.1%}" for m in self.moves)
        return f"<Chances {self.scheme}, seed {self.seed}: {rated or 'no move'}>"

    @property
    def recommended(self) -> Move | None:
        return self.moves[0].move if self.moves else None

    @property
    def value(self) -> float | None:
        """The chance of the position for a player who follows the advice: the chance
        of the move recommended (None when no move is left)."""
        return self.moves[0].chance if self.moves else None

    def of(self, move: Move) -> MoveChance:
        """The chance of a legal ``move`` (KeyError for any other)."""
        for m in self.moves:
            if m.move == move:
                return m
        raise KeyError(move.token)

    @property
    def top(self) -> MoveChance | None:
        """The move with the highest chance (then the most points; the first in the
        order on a tie)."""
        if not self.moves:
            return None
        return min(self.moves, key=lambda m: (-m.chance, -better_sign(self.scheme) * m.points))


def better_sign(scheme: Scheme) -> int:
    """1 where more points are better, -1 under ``cards-left`` (fewer cards left)."""
    return -1 if scheme == Scheme.CARDS_LEFT else 1


class _Cache:
    """A bounded map, safe across threads (the page computes advice in workers)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[tuple, Chances] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple) -> Chances | None:
        with self.lock:
            found = self.items.get(key)
            if found is not None:
                self.items.move_to_end(key)
            return found

    def put(self, key: tuple, value: Chances) -> None:
        with self.lock:
            self.items[key] = value
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.items.clear()


_CACHE = _Cache(CACHE_SIZE)


def cached_chances(view: View, samples: int, seed: int, scheme: Scheme = Scheme.APP
                   ) -> Chances | None:
    """The chances :func:`move_chances` computed earlier for these inputs, or None."""
    return _CACHE.get(_key(view, samples, seed, scheme))


def forget_chances() -> None:
    """Empty the cache (benchmarks and tests measure the work itself)."""
    _CACHE.clear()


def view_key(view: View) -> str:
    """A digest of everything a :class:`fair.View` holds (the same in every process)."""
    def cards(cs) -> str:
        return " ".join("??" if c is None else c.token for c in cs)

    waste = "-" if view.waste_start is None else view.waste_start.token
    text = "|".join((view.rules.name, view.rules.variant, cards(view.tableau), waste,
                     cards(view.stock), cards(view.unseen),
                     " ".join(m.token for m in view.record), str(view.undone)))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def _key(view: View, samples: int, seed: int, scheme: Scheme) -> tuple:
    return (view_key(view), min(samples, MAX_PLAYER_SAMPLES), seed, str(scheme))


Keep = Callable[[dict], None]  # receives each chance computed anew, as an entry


def move_chances(view: View, samples: int = 1000, seed: int = 0, scheme: Scheme = Scheme.APP,
                 should_stop: StopCheck | None = None, keep: Keep | None = None) -> Chances:
    """Every legal move's chance and points from ``view`` (see the module's docstring),
    over ``samples`` completions (at most MAX_PLAYER_SAMPLES) drawn with ``seed``;
    ``should_stop`` as :func:`fair.fair_hint` asks it (Cancelled); ``keep`` receives
    the :func:`entry` of chances computed anew (not of those the cache had)."""
    key = _key(view, samples, seed, scheme)
    found = _CACHE.get(key)
    if found is not None:
        return found
    legal = view.canonical().legal_moves()
    if not view.unseen:
        chances = _exact(view, legal, seed, scheme, should_stop)
    else:
        chances = _sampled(view, legal, key[1], seed, scheme, should_stop)
    _CACHE.put(key, chances)
    if keep is not None:
        keep(entry(key, chances))
    return chances


def entry(key: tuple, chances: Chances) -> dict:
    """The chances under ``key`` as a plain JSON object (what :func:`remember` reads)."""
    return {"v": VERSION, "view": key[0], "samples": key[1], "seed": key[2], "scheme": key[3],
            "rollouts": chances.rollouts, "exact": chances.exact, "why": chances.why,
            "moves": [[m.move.token, m.wins, m.points] for m in chances.moves]}


def remember(item: object) -> bool:
    """Put an :func:`entry` back in the cache; False (nothing kept) for anything else,
    or an entry of another VERSION."""
    try:
        if not isinstance(item, dict) or item.get("v") != VERSION:
            raise ValueError("not an entry of this version")
        rollouts = int(item["rollouts"])
        moves = tuple(MoveChance(Move.parse(str(t)), int(w),
                                 int(w) / rollouts if rollouts else float(w), float(p))
                      for t, w, p in item["moves"])
        why = item["why"]
        if why not in (None, "tie", "points") or not moves:
            raise ValueError("not an entry")
        chances = Chances(moves, rollouts, int(item["seed"]), Scheme(str(item["scheme"])),
                          bool(item["exact"]), why)
        key = (str(item["view"]), int(item["samples"]), int(item["seed"]), str(item["scheme"]))
    except (KeyError, TypeError, ValueError, InputError):
        return False
    _CACHE.put(key, chances)
    return True


def _sampled(view: View, legal: list[Move], samples: int, seed: int, scheme: Scheme,
             should_stop: StopCheck | None) -> Chances:
    player = fair_player(samples)
    if not legal:
        return Chances((), player.samples, seed, scheme)
    # The player's own order of the legal moves (its ties go to the first); with one
    # legal move its rollouts still say how often playing on wins.
    move, sums = player.decide(view, legal, np.random.default_rng(seed), should_stop)
    n = player.samples
    column = POINT_COLUMNS.get(scheme)
    rated = []
    for j, m in enumerate(legal):
        if scheme == Scheme.CARDS_LEFT:
            points = len(view.tableau) - sums[j, 1] / n
        else:  # a scheme the rollouts do not count (pysol): no points, 0 for every move
            points = 0.0 if column is None else sums[j, column] / n
        rated.append(MoveChance(m, int(sums[j, 0]), int(sums[j, 0]) / n, float(points)))
    return _ranked(rated, legal.index(move), n, seed, scheme, False)


def _exact(view: View, legal: list[Move], seed: int, scheme: Scheme,
           should_stop: StopCheck | None) -> Chances:
    # Every card known: nothing to guess; a win left or not, and the best result.
    from .fair import Cancelled

    position = view.canonical()
    rated = []
    for m in legal:
        if should_stop is not None and should_stop():
            raise Cancelled
        after = solve(position.play(m), scheme=scheme)
        won = 1 if after.winnable else 0
        points = float(after.best_score) if after.best_score is not None else 0.0
        rated.append(MoveChance(m, won, float(won), points))
    if not rated:
        return Chances((), 0, seed, scheme, True)
    sign = better_sign(scheme)
    best = min(range(len(rated)), key=lambda j: (-rated[j].chance, -sign * rated[j].points, j))
    return _ranked(rated, best, 0, seed, scheme, True)


def _ranked(rated: list[MoveChance], chosen: int, rollouts: int, seed: int, scheme: Scheme,
            exact: bool) -> Chances:
    sign = better_sign(scheme)
    why = None
    if len(rated) > 1:
        if len({m.wins for m in rated}) == 1:  # every chance alike: the points choose
            chosen = min(range(len(rated)), key=lambda j: (-sign * rated[j].points,
                                                           j != chosen, j))
            why = "points"
        elif rated[chosen].wins < max(m.wins for m in rated):
            why = "tie"
    order = [chosen] + sorted((j for j in range(len(rated)) if j != chosen),
                              key=lambda j: (-rated[j].chance, -sign * rated[j].points, j))
    return Chances(tuple(rated[j] for j in order), rollouts, seed, scheme, exact, why)



@dataclass(frozen=True)
class FairAdvice:
    """A fair hint's shares (the ceilings), the move the advice recommends, and every
    legal move's chance (:mod:`chances`): per legal move, the games (of ``rollouts``)
    that the careful player, playing on after it over guesses at the unseen cards, won."""

    rating: FairHint
    player: str  # e.g. ``fair:1000``
    seed: int
    recommended: Move | None
    rollouts: int = 0
    wins: tuple[tuple[Move, int], ...] = ()
    chances: Chances | None = None

    def __repr__(self) -> str:
        play = "no move" if self.recommended is None else f"play {self.recommended.token}"
        return f"<FairAdvice {self.player}, seed {self.seed}: {play}; {self.rating.said}>"

    def won(self, move: Move) -> float:
        """The share of its rollouts that ``move`` won (ValueError without rollouts)."""
        wins = next((w for m, w in self.wins if m == move), None)
        if wins is None or not self.rollouts:
            raise ValueError(f"no rollouts of {move.token}")
        return wins / self.rollouts


def fair_advice(view: View, samples: int = 1000, seed: int = 0, score_samples: int = 100,
                scheme: Scheme = Scheme.APP, should_stop: StopCheck | None = None,
                keep: Keep | None = None) -> FairAdvice:
    """Every legal move's share of completions still winnable (:func:`fair.fair_hint`,
    the ceiling), and its chance with the move recommended (:func:`chances.move_chances`,
    the strongest fair player, ``fair:N`` with N = ``samples``, choosing by points where
    every chance is the same). Both see only ``view``; ``seed`` fixes both.
    ``should_stop``: as fair_hint; ``keep``: as move_chances."""
    rating = fair_hint(view, samples, seed, score_samples, scheme=scheme,
                       should_stop=should_stop)
    player = fair_player(min(samples, PLAYER_SAMPLES))
    if not rating.moves:
        return FairAdvice(rating, player.name, seed, None)
    chances = move_chances(view, samples, seed, scheme, should_stop, keep)
    order = view.canonical().legal_moves()
    wins = tuple((m, chances.of(m).wins) for m in order)
    return FairAdvice(rating, player.name, seed, chances.recommended, chances.rollouts, wins,
                      chances)


__all__ = [
    "CACHE_SIZE",
    "MAX_PLAYER_SAMPLES",
    "VERSION",
    "Chances",
    "FairAdvice",
    "Keep",
    "MoveChance",
    "better_sign",
    "cached_chances",
    "entry",
    "fair_advice",
    "forget_chances",
    "move_chances",
    "remember",
    "view_key",
]
