"""Peek with undo: few taps that show every card an app's undo lets a player see.

In an app that undoes (the TP1 app keeps the last 100 actions), a player can look and
take back: play cards to see what turns up, undo them. A plan is a sequence of steps:
each takes back some moves, then plays moves the player can make with the cards
known, the last of which turns up a card not known yet. Every move is taken back in
the end, so a plan costs twice its moves. When one card is left unknown, it follows by
elimination.

The adaptive plan (Peek 2) first plays one line toward the line that turns up
everything: where more than one move is legal it deals the cards not seen at random
(``peek_samples``, 32 samples) and plays the move after which, in the most samples,
some line still turns up every card not known but one (an exact search of each sample,
``kernels/reveal.py``; ties: a removal that turns cards up, any removal below the tops,
the draw, a top). When no sample is alive at the end of the line, it repairs: it goes
back to the deepest earlier state of the line from which some sample is alive and plays
on from there the same way, unless the card fewest moves away (undos free) is nearer
the start; then it plays to that card. The samples depend on the seed and on what is
known only, so every step is a function of what the player knows and of the moves:
:func:`next_step` asked after every tap gives the rest of the step, and
:func:`plan_peek` is these steps on a known deal. ``adaptive=False`` is the old greedy
plan (the card fewest taps away every time). ``benchmarks/bench_peek.py`` measures both.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..kernels import peek as peek_kernels
from ..model.cards import WILD_RANK, Card
from ..model.dealing import Deal
from ..model.game import PEEK_SEED, UNDO_LIMIT, Game
from ..model.geometry import COVER_MASK, FULL_MASK, TABLEAU_SIZE, UNCOVERS
from ..model.layout import Layout
from ..model.moves import Move
from ..model.rules import Rules
from ..solver.solve import rule_masks
from .peek_samples import Judged, Sampler, moves_of

DEFAULT_UNDO_LIMIT = UNDO_LIMIT  # the TP1 app's, as the game keeps it
_SCAN = 4  # earlier states judged a call, going back (each is judged on its own)
DEFAULT_SEED = PEEK_SEED  # of the samples: ``peek --seed`` and the coach's seed change it


@dataclass(frozen=True)
class Step:
    """The next thing to do: take back ``undos`` moves, play ``moves``; the last move
    turns up the cards at ``shows`` (places of the deal's line).

    ``no_moves_message``: after the last move the stock is empty and no card the player
    knows can go on the waste, so the position may have no legal move left. The app
    then covers the board with "No more valid moves" (the player may still undo): the
    player may have to close that message to read the card the move turned up."""

    undos: int
    moves: tuple[Move, ...]
    shows: tuple[int, ...]
    no_moves_message: bool = False

    @property
    def actions(self) -> int:
        return self.undos + len(self.moves)


_COVERS = np.array([list(qs) + [-1] * (2 - len(qs)) for qs in UNCOVERS], np.int64)
_COVER_MASK = np.array(COVER_MASK, np.int64)
_scratch = peek_kernels.new_scratch(1 << 16)  # grown when a search fills it
_scratch_lock = threading.Lock()  # the page peeks for two games on two threads


def _key(removed: int, drawn: int, waste: Card | None) -> int:
    return peek_kernels.state_key(removed, drawn, WILD_RANK if waste is None else waste.rank)


class _Searcher:
    """The search's inputs for what one player knows, kept up to date as cards are
    learned: ranks where known, -1 elsewhere, and nothing else of the deal."""

    def __init__(self, knowledge: Layout, rules: Rules) -> None:
        self.knowledge = knowledge
        self.rules = rules
        self.first = Deal.stock_start(rules)
        ranks = np.array([-1 if c is None else c.rank for c in knowledge.places], np.int64)
        self.known = peek_kernels.Known(ranks[:TABLEAU_SIZE].copy(), ranks[self.first:].copy(),
                                        self.first, _COVER_MASK, _COVERS)
        self.masks = rule_masks(rules)

    def learn(self, place: int, card: Card) -> None:
        self.knowledge = self.knowledge.learn(place, card)
        if place < TABLEAU_SIZE:
            self.known.tableau[place] = card.rank
        elif place >= self.first:
            self.known.stock[place - self.first] = card.rank

    def cheapest(self, keys: Sequence[int], undo_limit: int, back_to_base: bool,
                 free_undos: bool = False) -> tuple[Step, list[int]] | None:
        """The cheapest step from the line of states ``keys`` (the base first) to a
        card not known, and the states after each of its moves but the last (whose
        card is not known yet); ``free_undos``: counting only the moves played."""
        global _scratch
        line = peek_kernels.Line(np.array(keys, np.int64), undo_limit, back_to_base,
                                 free_undos)
        with _scratch_lock:
            while (found := peek_kernels._cheapest_reveal(self.known, self.masks, line,
                                                          _scratch)
                   ) == peek_kernels.FULL_SEARCH:
                _scratch = peek_kernels.new_scratch(2 * len(_scratch.keys))
            if found == peek_kernels.NOT_FOUND:
                return None
            result = _scratch.result
            shows = tuple(int(q) for q in result[peek_kernels.SHOW:peek_kernels.SHOW + 2]
                          if q >= 0)
            places = [int(result[peek_kernels.MOVE])]
            path: list[int] = []
            entry = int(result[peek_kernels.PARENT])
            while _scratch.parent[entry] >= 0:
                places.append(int(_scratch.move[entry]))
                path.append(int(_scratch.keys[entry]))
                entry = int(_scratch.parent[entry])
            undos = -1 - int(_scratch.move[entry])
        moves = tuple(Move.DRAW if p == peek_kernels.DRAW
                      else Move.remove(self.knowledge.card(p)) for p in reversed(places))
        path.reverse()
        return self.flagged(Step(undos, moves, shows), path[-1] if path else
                            keys[len(keys) - 1 - undos]), path

    # --- the adaptive line ----------------------------------------------------------
    def after(self, key: int, move: int) -> tuple[int, tuple[int, ...]]:
        """The state after ``move`` (a position, or DRAW) from ``key`` when its card is
        known (else -1), and the places not known it turns up."""
        removed, drawn = key & FULL_MASK, key >> 28 & 31
        if move == peek_kernels.DRAW:
            rank = int(self.known.stock[drawn])
            if rank < 0:
                return -1, (self.first + drawn,)
            return peek_kernels.state_key(removed, drawn + 1, rank), ()
        after = removed | 1 << move
        shows = tuple(q for q in UNCOVERS[move] if after & COVER_MASK[q] == COVER_MASK[q]
                      and self.known.tableau[q] < 0)
        return peek_kernels.state_key(after, drawn, int(self.known.tableau[move])), shows

    def choose(self, key: int, judged: Judged) -> int:
        """The move that keeps the most samples alive; ties: those whose search gave
        up, then a removal that turns cards up, any removal below the tops, the draw,
        a top; then the lowest position."""
        def rank(m: int) -> tuple:
            if m == peek_kernels.DRAW:
                kind = 1
            elif m < 3:
                kind = 0
            else:
                kind = 3 if self.after(key, m)[1] else 2
            return (int(judged.alive[m]), int(judged.capped[m]), kind, -m)
        return max(np.flatnonzero(judged.legal).tolist(), key=rank)

    def adaptive(self, keys: Sequence[int], undo_limit: int, seed: int
                 ) -> tuple[Step, list[int]] | None:
        """The next step of the adaptive line (module docstring), and the states after
        each of its moves but the last."""
        unknown = self.knowledge.unknown_places
        if len(unknown) < 2:
            return None
        sampler = Sampler(self.knowledge, self.rules, moves_of(keys[0]) + undo_limit, seed)
        start = None
        judged = sampler.judge([keys[-1]])
        if judged[0].alive.any():
            start = len(keys) - 1
        else:
            # The cheapest card from an earlier state, unless a state on the way back
            # to it is still alive: then the deepest such. (Walking back tap by tap, the
            # states passed stay dead, so the walk-through keeps to the same target.)
            cheapest = self.cheapest(keys, undo_limit, False, free_undos=True)
            if cheapest is None:
                return None
            stop = len(keys) - 1 - cheapest[0].undos
            j = len(keys) - 1
            while start is None and j > stop:
                chunk = range(j - 1, max(stop - 1, j - 1 - _SCAN), -1)
                for i, verdict in zip(chunk, sampler.judge([keys[i] for i in chunk]),
                                      strict=True):
                    if verdict.alive.any():
                        start, judged = i, [verdict]
                        break
                j -= _SCAN
            if start is None:
                return cheapest
        key, verdict = keys[start], judged[0]
        moves: list[Move] = []
        path: list[int] = []
        while True:
            if not verdict.legal.any():  # a dead end before a card turned up
                return self.cheapest(keys, undo_limit, False, free_undos=True)
            move = self.choose(key, verdict)
            moves.append(Move.DRAW if move == peek_kernels.DRAW
                         else Move.remove(self.knowledge.card(move)))
            child, shows = self.after(key, move)
            if shows:
                step = Step(len(keys) - 1 - start, tuple(moves), shows)
                return self.flagged(step, key), path
            path.append(child)
            key, verdict = child, sampler.choice(child)

    def flagged(self, step: Step, before: int) -> Step:
        """``step`` with ``no_moves_message`` set when, after its last move from the
        state ``before``, the stock is empty and no known card can go on the waste (the
        cards it turns up might not either)."""
        removed, drawn = before & FULL_MASK, before >> 28 & 31
        last = step.moves[-1].card  # None: a draw
        if last is None:
            drawn += 1
        else:
            removed |= 1 << self.knowledge.places.index(last)
        if drawn < len(self.known.stock) or removed == FULL_MASK:
            return step
        up = [int(self.known.tableau[p]) for p in range(TABLEAU_SIZE)
              if not removed >> p & 1 and removed & COVER_MASK[p] == COVER_MASK[p]
              and self.known.tableau[p] >= 0]
        wastes = ([c.rank for c in self.knowledge.missing_cards] if last is None
                  else [last.rank])
        near = self.masks.neighbours
        if any(not any(near[w] >> r & 1 for r in up) for w in wastes):
            return Step(step.undos, step.moves, step.shows, True)
        return step


def _line(knowledge: Layout, rules: Rules, base: Sequence[Move], stack: Sequence[Move]
          ) -> list[int]:
    game = Game(knowledge.filled(), rules)  # only known cards are played on it
    for move in base:
        game.play(move)
    keys = [_key(game.removed, game.stock_index, game.waste)]
    for move in stack:
        game.play(move)
        keys.append(_key(game.removed, game.stock_index, game.waste))
    return keys


def next_step(knowledge: Layout, rules: Rules, base: Sequence[Move], stack: Sequence[Move],
              undo_limit: int = DEFAULT_UNDO_LIMIT, back_to_base: bool = False, *,
              seed: int = DEFAULT_SEED, adaptive: bool = True) -> Step | None:
    """The next step of a peek that began after the moves ``base`` and stands after
    ``stack`` more: undo part way, then play to a move that turns up a card not in
    ``knowledge``, with at most ``undo_limit`` moves beyond the base at any time. None
    when every card is known (the last one by elimination) or no line the player can
    play with the cards known shows another card.

    The step depends on ``knowledge``, the moves and ``seed`` only, so asking again
    after each tap of it gives the rest of it, and :func:`plan_peek` is these steps.
    ``adaptive=False`` (or ``back_to_base``) is the old greedy plan: the card fewest
    taps away; ``back_to_base``: undo the whole stack first every time (the simplest).

    Blind by construction: nothing of the cards not known is received."""
    if knowledge.complete or len(knowledge.unknown_places) < 2 and adaptive \
            and not back_to_base:
        return None
    found = _choose(_Searcher(knowledge, rules), _line(knowledge, rules, base, stack),
                    undo_limit, back_to_base, seed, adaptive)
    return None if found is None else found[0]


def cheapest_step(knowledge: Layout, rules: Rules, base: Sequence[Move], stack: Sequence[Move],
                  undo_limit: int = DEFAULT_UNDO_LIMIT, back_to_base: bool = False,
                  free_undos: bool = False) -> Step | None:
    """The step to the card fewest taps away (``free_undos``: fewest moves, the undos
    free, ties to the deeper line): the old greedy plan's step, and the adaptive plan's
    repair where no sample is alive. What ``tests/naive_peek.py`` checks."""
    found = _Searcher(knowledge, rules).cheapest(_line(knowledge, rules, base, stack),
                                                 undo_limit, back_to_base, free_undos)
    return None if found is None else found[0]


def _choose(searcher: _Searcher, keys: Sequence[int], undo_limit: int, back_to_base: bool,
            seed: int, adaptive: bool) -> tuple[Step, list[int]] | None:
    if undo_limit <= 0:
        return None
    if adaptive and not back_to_base:
        return searcher.adaptive(keys, undo_limit, seed)
    return searcher.cheapest(keys, undo_limit, back_to_base)


# --- a whole plan on a deal that is known ---------------------------------------------------
@dataclass(frozen=True)
class Excursion:
    """Moves played from where the previous excursion left off, the places the last one
    showed, and the moves taken back after them. ``no_moves_message``: the position
    after the last move has no legal move, so the app covers the board with "No more
    valid moves" and the player closes it to read the card (undo still works)."""

    moves: tuple[Move, ...]
    shows: tuple[int, ...]
    undos: int
    no_moves_message: bool = False


@dataclass(frozen=True)
class PeekPlan:
    """A peek simulated on a known deal: the excursions, the places shown (by a move or
    by elimination), the face-down places no line could reach, and the seed of the
    samples."""

    excursions: tuple[Excursion, ...]
    revealed: tuple[int, ...]
    by_elimination: int | None
    unreachable: tuple[int, ...]
    knowledge: Layout
    seed: int = DEFAULT_SEED

    def __repr__(self) -> str:
        return f"<PeekPlan seed {self.seed}: {self.said}>"

    @property
    def said(self) -> str:
        """``excursions 37, taps 144, every card shown`` and the like."""
        end = ("every card shown" if self.complete
               else f"unknown still {len(self.knowledge.unknown_places)}")
        return f"excursions {len(self.excursions)}, taps {self.actions}, {end}"

    @property
    def actions(self) -> int:
        return sum(len(e.moves) + e.undos for e in self.excursions)

    @property
    def complete(self) -> bool:
        return self.knowledge.complete


def learn_by_elimination(knowledge: Layout) -> tuple[Layout, int | None]:
    """With one place unknown, its card is the one card not seen: the knowledge with it,
    and that place (None when more than one place is unknown)."""
    unknown = knowledge.unknown_places
    if len(unknown) != 1:
        return knowledge, None
    return knowledge.learn(unknown[0], knowledge.missing_cards[0]), unknown[0]


def plan_peek(deal: Deal, rules: Rules, knowledge: Layout, base: Sequence[Move] = (),
              undo_limit: int = DEFAULT_UNDO_LIMIT, back_to_base: bool = False, *,
              seed: int = DEFAULT_SEED, adaptive: bool = True) -> PeekPlan:
    """The whole peek a player would follow on ``deal`` (known here, as in a test or a
    benchmark) from the position after ``base``, knowing ``knowledge`` at the start:
    each step is :func:`next_step` of what was known by then (same ``seed``,
    ``adaptive`` and ``back_to_base``), and the cards a step shows are read off the
    deal."""
    game = Game(deal, rules)
    for move in base:
        game.play(move)
    keys = [_key(game.removed, game.stock_index, game.waste)]  # the line: base, then moves
    knowledge, eliminated = learn_by_elimination(knowledge)
    searcher = _Searcher(knowledge, rules)
    excursions: list[Excursion] = []
    revealed: list[int] = []
    pending: tuple[tuple[Move, ...], tuple[int, ...], bool] | None = None
    while not searcher.knowledge.complete:
        found = _choose(searcher, keys, undo_limit, back_to_base, seed, adaptive)
        if found is None:
            break
        step, path = found
        if pending is not None:
            moves, shows, stuck = pending
            excursions.append(Excursion(moves, shows, step.undos, stuck))
        del keys[len(keys) - step.undos:]
        keys += path
        for place in step.shows:
            searcher.learn(place, deal.cards[place])
        revealed += step.shows
        # the state after the last move, now that its card is known
        removed, drawn = keys[-1] & FULL_MASK, keys[-1] >> 28 & 31
        last = step.moves[-1].card  # None: a draw
        if last is None:
            drawn += 1
            waste = deal.cards[searcher.first + drawn - 1]
        else:
            removed |= 1 << deal.tableau.index(last)
            waste = last
        keys.append(_key(removed, drawn, waste))
        pending = (step.moves, step.shows, _stuck(deal, rules, removed, drawn, waste))
        if (last_one := learn_by_elimination(searcher.knowledge)[1]) is not None:
            searcher.learn(last_one, searcher.knowledge.missing_cards[0])
            eliminated = last_one
    if pending is not None:
        moves, shows, stuck = pending
        excursions.append(Excursion(moves, shows, len(keys) - 1, stuck))
    knowledge = searcher.knowledge
    return PeekPlan(tuple(excursions), tuple(revealed), eliminated,
                    tuple(knowledge.unknown_places), knowledge, seed)


def _stuck(deal: Deal, rules: Rules, removed: int, drawn: int, waste: Card) -> bool:
    """Has the position no legal move (and is not won)?"""
    _, stock = deal.opening(rules)
    if drawn < len(stock) or removed == FULL_MASK:
        return False
    return not any(not removed >> p & 1 and removed & COVER_MASK[p] == COVER_MASK[p]
                   and rules.adjacent(waste.rank, deal.tableau[p].rank)
                   for p in range(TABLEAU_SIZE))


__all__ = ["DEFAULT_SEED", "DEFAULT_UNDO_LIMIT", "Excursion", "PeekPlan", "Step",
           "cheapest_step", "learn_by_elimination", "next_step", "plan_peek"]
