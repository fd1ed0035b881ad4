"""Players: whole games played by strategies that see what a person sees, and one that
sees everything.

- ``random``: a uniformly random legal move (seeded);
- ``greedy``: when a card plays, the one starting the longest chain of face-up cards,
  ties toward uncovering face-down cards, then bottom row first, left to right; draw
  only when nothing plays (``kernels/policies.py`` documents it exactly);
- ``careful``: greedy that weighs risk: it values each chain by its length and the
  face-down cards it uncovers, minus a penalty for every face-up card left with few
  cards that could still go on it (unseen or face up, of an adjacent rank), so it
  removes endangered cards while it can and avoids using up their last partners;
  draw only when nothing plays (``kernels/policies.py`` has the weights);
- ``rollout:N``: at each decision, N completions of the unseen cards consistent with
  what was seen; the greedy player plays every legal move out on each; most wins,
  ties to the first legal move (Yan, Diaconis, Rusmevichientong and Van Roy's
  rollouts of a base policy);
- ``pimc:N``: at each decision, the fair hint with N samples (exact winnability of
  each move on each completion): highest share, ties by mean score;
- ``fair:N``: the strongest fair player measured (data/README-players.md has the
  ideas tried): rollouts as above of the ``careful`` player, keeping its own move
  unless another wins more than ``fair_margin(N)`` (about 0.3 √N) completions more;
- ``perfect``: the exact solver's best line (it sees every card; an upper bound).

Every player but ``perfect`` decides from a :class:`fair.View` (face-up and removed
tableau cards, the waste cards drawn, the stock count, the unseen cards as a sorted
multiset), never from the deal; the rollout kernels get it as a :class:`Seen`. A
decision with one legal move costs nothing. A seed fixes every game.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..errors import InputError
from ..kernels import playouts, policies
from ..kernels.jit import chunks
from ..kernels.shared import RANKS
from ..model.cards import Card, ranks
from ..model.codes import GameCode
from ..model.dealing import Deal
from ..model.game import Game, Status
from ..model.geometry import TABLEAU_SIZE
from ..model.moves import Move
from ..model.position import Position
from ..model.pysol import pysol_info
from ..model.rules import EASY, Rules
from ..model.scoring import Scheme
from ..solver.solve import rule_masks, solve
from .fair import StopCheck, View, fair_hint, stop_points
from .player_spec import parse_player


@dataclass(frozen=True)
class Seen:
    """What a player knows at a position, as the playout kernels read it.

    ``vis[p]``: rank of tableau position p face up, -1 face down, -2 removed (what the
    policies see); ``known_tab`` and ``known_stock``: the ranks the player knows (face
    down ones seen before an undo too), -1 elsewhere (what completions keep);
    ``unseen``: ranks of every card not known, sorted.
    """

    vis: np.ndarray
    known_tab: np.ndarray
    known_stock: np.ndarray
    removed: int
    drawn: int
    waste: int
    run: int
    original: int
    unseen: np.ndarray
    places: dict = field(default_factory=dict)  # face-up card -> its position

    @classmethod
    def of(cls, view: View) -> Seen:
        """The kernels' form of a :class:`fair.View` (built from known cards only)."""
        shown = view.canonical().game()  # any completion shows the same board
        vis = np.full(TABLEAU_SIZE, policies.HIDDEN, dtype=np.int64)
        places: dict[Card, int] = {}
        for p in range(TABLEAU_SIZE):
            if shown.is_removed(p):
                vis[p] = policies.GONE
            elif shown.is_face_up(p):
                card = view.tableau[p]
                assert card is not None  # a face-up card is one the player sees
                vis[p] = card.rank
                places[card] = p
        known_tab = np.array([policies.HIDDEN if c is None else c.rank for c in view.tableau],
                             dtype=np.int64)
        known_stock = np.array([policies.HIDDEN if c is None else c.rank for c in view.stock],
                               dtype=np.int64)
        unseen = np.array(sorted(c.rank for c in view.unseen), dtype=np.int64)
        return cls(vis, known_tab, known_stock, shown.removed, shown.stock_index,
                   playout_waste(shown.waste), shown.run, shown.original, unseen, places)

    @property
    def stock_len(self) -> int:
        return len(self.known_stock)

    def known(self) -> playouts.GameState:
        """The position with the ranks the player knows (HIDDEN elsewhere): what the
        rollouts complete."""
        return playouts.GameState(self.known_tab, self.known_stock, self.removed, self.drawn,
                                  self.waste, self.run, self.original)

    def sight(self) -> policies.Sight:
        """What a policy reads: the board as shown, and the cards not known per rank."""
        return policies.Sight(self.vis, self.removed, self.waste, self.stock_len - self.drawn,
                              np.bincount(self.unseen, minlength=RANKS))

    def kernel_move(self, move: Move) -> int:
        """A legal move as the kernels name it: a position, or DRAW."""
        return policies.DRAW if move.is_draw else self.places[move.card]


def playout_waste(card: Card | None) -> int:
    return 13 if card is None else card.rank


@dataclass(frozen=True)
class PlayResult:
    """A game a player played from ``start``: its moves (the record from ``start``),
    and the end."""

    player: str
    seed: int
    start: Position
    moves: tuple[Move, ...]
    won: bool
    score: int  # app score
    original: int  # original score
    cards_left: int
    decisions: int = 0  # decisions with several legal moves (sampling players only)

    def __repr__(self) -> str:
        end = "won" if self.won else f"lost, cards left {self.cards_left}"
        return (f"<PlayResult {self.player}, seed {self.seed}, {self.start.title}: {end}, "
                f"score {self.score}, moves {len(self.moves)}>")

    @property
    def tokens(self) -> list[str]:
        return [m.token for m in self.moves]

    def to_dict(self) -> dict:
        """The object ``play --json`` prints: the code and number of the deal under its
        rules (null for a deal without a number), the player, its seed and the end; ``moves`` its
        record from ``start``."""
        deal, rules = self.start.deal, self.start.rules
        code = None if deal.number is None else str(GameCode(deal.number, rules.name,
                                                             rules.joker))
        return {"code": code, "deal": deal.number, "pysol": pysol_info(deal, rules),
                "rules": rules.name, "variant": rules.variant,
                "player": self.player, "seed": self.seed, "won": self.won,
                "score": self.score, "cards_left": self.cards_left, "moves": self.tokens}


# --- the players -----------------------------------------------------------------------
class Player:
    """A strategy. ``choose`` sees a :class:`Seen` and the legal moves only."""

    name = "player"
    sees_all = False

    def choose(self, view: View, legal: list[Move], rng: np.random.Generator) -> Move:
        raise NotImplementedError


class KernelPlayer(Player):
    """``random``, ``greedy`` or ``careful``: the whole game runs in the playout kernel."""

    def __init__(self, name: str, random_ties: bool = False) -> None:
        self.name = name
        self.policy = policies.policy(name, random_ties)


class RolloutPlayer(Player):
    """Rollouts of a base policy over ``samples`` completions a decision, the same
    completions for every legal move; the move with most wins (the first such).

    ``keep_base``: the base policy's own move stands unless another wins more than
    ``margin`` completions more than it (otherwise the first legal move stands unless
    another wins more).
    """

    def __init__(self, name: str, samples: int, policy: int = policies.GREEDY,
                 keep_base: bool = False, margin: int = 0) -> None:
        self.name = name
        self.samples = samples
        self.policy = policies.policy(policy)
        self.keep_base = keep_base
        self.margin = margin

    def values(self, seen: Seen, candidates: np.ndarray, rules: Rules, seed: int,
               should_stop: StopCheck | None = None) -> np.ndarray:
        """(wins, cards removed, app points, original points) of each candidate, summed
        (``should_stop`` as :func:`fair.fair_hint` asks it)."""
        out = np.zeros((len(candidates), 4), dtype=np.int64)
        known, masks, rng = seen.known(), rule_masks(rules), policies.rollout_rng(seed)
        # A chunk of completions a call, so that Ctrl-C stops the work; the generator
        # goes on from call to call, so the sums are those of one call over all.
        split = chunks(self.samples) if should_stop is None else \
            stop_points(self.samples, should_stop)
        for a, b in split:
            playouts._rollouts(known, seen.unseen, masks, self.policy,
                               playouts.Trials(candidates, b - a, rng), out)
        return out

    def decide(self, view: View, legal: list[Move], rng: np.random.Generator,
               should_stop: StopCheck | None = None) -> tuple[Move, np.ndarray]:
        """The move chosen, and every legal move's sums over its rollouts (rows as
        :meth:`values` gives them, in the order of ``legal``)."""
        seen = Seen.of(view)
        rules = view.rules
        candidates = np.array([seen.kernel_move(m) for m in legal], dtype=np.int64)
        out = self.values(seen, candidates, rules, int(rng.integers(1 << 62)), should_stop)
        default = 0
        if self.keep_base:
            g = policies._policy_move(self.policy, rule_masks(rules), seen.sight())
            default = int(np.flatnonzero(candidates == g)[0])
        return legal[playouts._best(out, len(legal), default, self.margin)], out

    def choose(self, view, legal, rng):
        return self.decide(view, legal, rng)[0]


def fair_margin(samples: int) -> int:
    """The extra wins ``fair:N`` needs to leave its base policy's move: about 0.3 √N, the
    scale of the noise in a difference of win counts over N completions (measured:
    data/README-players.md)."""
    return round(0.3 * math.sqrt(samples))


def fair_player(samples: int) -> RolloutPlayer:
    """``fair:N``: rollouts of the careful policy over N completions a decision, its own
    move kept unless another wins more than :func:`fair_margin` completions more."""
    return RolloutPlayer(f"fair:{samples}", samples, policies.CAREFUL, keep_base=True,
                         margin=fair_margin(samples))


class PimcPlayer(Player):
    """The fair hint's recommendation with ``samples`` completions a decision."""

    def __init__(self, name: str, samples: int) -> None:
        self.name = name
        self.samples = samples

    def choose(self, view, legal, rng):
        hint = fair_hint(view, samples=self.samples, seed=int(rng.integers(1 << 62)),
                         score_samples=self.samples)
        return hint.recommended


class PerfectPlayer(Player):
    """The exact solver's best line: it sees every card."""

    name = "perfect"
    sees_all = True


def make_player(spec: str) -> Player:
    """A player from its name: ``random``, ``greedy``, ``pimc[:N]``, ``rollout[:N]``,
    ``fair[:N]`` or ``perfect`` (N samples a decision, default 100)."""
    parsed = parse_player(spec)
    name, samples, label = parsed.name, parsed.samples, parsed.label
    if name in ("random", "greedy", "careful"):
        return KernelPlayer(name)
    if name == "rollout":
        return RolloutPlayer(label, samples)
    if name == "fair":
        return fair_player(samples)
    if name == "pimc":
        return PimcPlayer(label, samples)
    return PerfectPlayer()


# --- playing a game --------------------------------------------------------------------
def _start(start: Deal | Game | Position, rules: Rules | None) -> Position:
    if isinstance(start, Deal):
        return Position(start, rules or EASY)
    position = Position.of(start) if isinstance(start, Game) else start
    if rules is not None and rules != position.rules:
        raise InputError(f"the position was played under {position.rules} rules, not {rules}")
    return position


def play(start: Deal | Game | Position, player: str | Player, rules: Rules | None = None,
         seed: int = 0, max_moves: int | None = None) -> PlayResult:
    """Let ``player`` play ``start`` (a Deal under ``rules``, default Easy, or a game in
    progress) to the end, or for ``max_moves`` moves, with ``seed`` fixing its random
    choices."""
    limit = playouts.MAX_MOVES if max_moves is None else max_moves
    who = make_player(player) if isinstance(player, str) else player
    position = _start(start, rules)
    game = position.game()
    moves: list[Move] = []
    decisions = 0
    if isinstance(who, PerfectPlayer):
        moves = list(solve(position, optimal=True).moves)[:limit]
        for move in moves:
            game.play(move)
    elif isinstance(who, KernelPlayer):
        moves = _kernel_game(game, who, seed)[:limit]
        for move in moves:
            game.play(move)
    else:
        rng = np.random.default_rng(seed)
        while game.status is Status.IN_PLAY and len(moves) < limit:
            legal = _legal(game)
            if len(legal) == 1:
                move = legal[0]
            else:
                decisions += 1
                move = who.choose(View.of(Position.of(game)), legal, rng)
            game.play(move)
            moves.append(move)
    return PlayResult(who.name, seed, position, tuple(moves), game.status is Status.WON,
                      int(game.score_under(Scheme.APP)), int(game.score_under(Scheme.ORIGINAL)),
                      game.cards_left, decisions)


def _legal(game: Game) -> list[Move]:
    moves = [Move.remove(c) for c in game.playable()]
    if game.stock_left and game.rules.may_draw(bool(moves)):
        moves.append(Move.DRAW)
    return moves


def _kernel_game(game: Game, who: KernelPlayer, seed: int) -> list[Move]:
    # The kernel holds the deal, its policy only the visible cards (see kernels/playouts.py).
    rules = game.rules
    _, stock = game.deal.opening(rules)
    start = playouts.GameState(ranks(game.deal.tableau), ranks(stock), game.removed,
                               game.stock_index, playout_waste(game.waste), game.run,
                               game.original)
    out = np.empty(playouts.MAX_MOVES, dtype=np.int64)
    n, *_ = playouts._play(start, rule_masks(rules), who.policy, policies.new_rng(seed), out)
    return [Move.DRAW if m == policies.DRAW else Move.remove(game.deal.tableau[m])
            for m in out[:n]]
