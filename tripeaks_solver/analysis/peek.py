"""Peek with undo: the fewest taps that show every card an app's undo lets a player see.

In an app that undoes (the TP1 app keeps the last 100 actions), a player can look and
take back: play a few cards to see what turns up, undo them. A plan is a sequence of
excursions: each plays a short line of legal moves from where the last one left off
and ends with the move that turns up a card not known yet, then takes back as many
moves as the next excursion wants (all of them after the last). Every move is taken
back in the end, so the plan costs twice its moves; the planner looks for the next card
at the fewest taps from where the player stands: undoing part way and playing on,
with the moves a player can make with the cards known (nothing else: it receives only
what the player knows). When one card is left unknown, it follows by elimination.

The greedy choice (the cheapest next card, ties to the move that shows more cards, then
to the shallower line) is a heuristic: a plan of fewest taps over every way the cards
could turn up is a far larger search. ``benchmarks/bench_peek.py`` measures the plans.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..kernels import peek as peek_kernels
from ..model.cards import WILD_RANK, Card
from ..model.dealing import Deal
from ..model.game import UNDO_LIMIT, Game
from ..model.geometry import COVER_MASK, FULL_MASK, TABLEAU_SIZE, UNCOVERS
from ..model.layout import Layout
from ..model.moves import Move
from ..model.rules import Rules
from ..solver.solve import rule_masks

DEFAULT_UNDO_LIMIT = UNDO_LIMIT  # the TP1 app's, as the game keeps it


@dataclass(frozen=True)
class Step:
    """The next thing to do: take back ``undos`` moves, play ``moves``; the last move
    turns up the cards at ``shows`` (places of the deal's line)."""

    undos: int
    moves: tuple[Move, ...]
    shows: tuple[int, ...]

    @property
    def actions(self) -> int:
        return self.undos + len(self.moves)


_COVERS = np.array([list(qs) + [-1] * (2 - len(qs)) for qs in UNCOVERS], np.int64)
_COVER_MASK = np.array(COVER_MASK, np.int64)
_scratch = peek_kernels.new_scratch(1 << 16)  # grown when a search fills it


def _key(removed: int, drawn: int, waste: Card | None) -> int:
    return peek_kernels.state_key(removed, drawn, WILD_RANK if waste is None else waste.rank)


class _Searcher:
    """The search's inputs for what one player knows, kept up to date as cards are
    learned: ranks where known, -1 elsewhere, and nothing else of the deal."""

    def __init__(self, knowledge: Layout, rules: Rules) -> None:
        self.knowledge = knowledge
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

    def step(self, keys: Sequence[int], undo_limit: int, back_to_base: bool
             ) -> tuple[Step, list[int]] | None:
        """The next step from the line of states ``keys`` (the base first), and the
        states after each of its moves but the last (whose card is not known yet)."""
        global _scratch
        line = peek_kernels.Line(np.array(keys, np.int64), undo_limit, back_to_base)
        while (found := peek_kernels._cheapest_reveal(self.known, self.masks, line, _scratch)
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
                      else Move.remove(self.knowledge.places[p]) for p in reversed(places))
        return Step(undos, moves, shows), path[::-1]


def next_step(knowledge: Layout, rules: Rules, base: Sequence[Move], stack: Sequence[Move],
              undo_limit: int = DEFAULT_UNDO_LIMIT, back_to_base: bool = False
              ) -> Step | None:
    """The cheapest next step of a peek that began after the moves ``base`` and stands
    after ``stack`` more: undo part way, then play to a move that turns up a card not
    in ``knowledge``, with at most ``undo_limit`` moves beyond the base at any time.
    ``back_to_base``: always undo the whole stack first (the simplest plan). None when
    no line the player can play with the cards known shows another card.

    Blind by construction: the search receives ``knowledge`` and the moves, nothing of
    the cards not known."""
    game = Game(knowledge.filled(), rules)  # only known cards are played on it
    for move in base:
        game.play(move)
    keys = [_key(game.removed, game.stock_index, game.waste)]
    for move in stack:
        game.play(move)
        keys.append(_key(game.removed, game.stock_index, game.waste))
    found = _Searcher(knowledge, rules).step(keys, undo_limit, back_to_base)
    return None if found is None else found[0]


# --- a whole plan on a deal that is known ---------------------------------------------------
@dataclass(frozen=True)
class Excursion:
    """Moves played from where the previous excursion left off, the places the last one
    showed, and the moves taken back after them."""

    moves: tuple[Move, ...]
    shows: tuple[int, ...]
    undos: int


@dataclass(frozen=True)
class PeekPlan:
    """A peek simulated on a known deal: the excursions, the places shown (by a move or
    by elimination), and the face-down places no line could reach."""

    excursions: tuple[Excursion, ...]
    revealed: tuple[int, ...]
    by_elimination: int | None
    unreachable: tuple[int, ...]
    knowledge: Layout

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
              undo_limit: int = DEFAULT_UNDO_LIMIT, back_to_base: bool = False) -> PeekPlan:
    """The whole peek a player would follow on ``deal`` (known here, as in a test or a
    benchmark) from the position after ``base``, knowing ``knowledge`` at the start:
    each step is :func:`next_step` of what was known by then, and the cards a step
    shows are read off the deal."""
    game = Game(deal, rules)
    for move in base:
        game.play(move)
    keys = [_key(game.removed, game.stock_index, game.waste)]  # the line: base, then moves
    knowledge, eliminated = learn_by_elimination(knowledge)
    searcher = _Searcher(knowledge, rules)
    excursions: list[Excursion] = []
    revealed: list[int] = []
    pending: tuple[tuple[Move, ...], tuple[int, ...]] | None = None
    while not searcher.knowledge.complete and undo_limit > 0:
        found = searcher.step(keys, undo_limit, back_to_base)
        if found is None:
            break
        step, path = found
        if pending is not None:
            excursions.append(Excursion(*pending, step.undos))
        del keys[len(keys) - step.undos:]
        keys += path
        for place in step.shows:
            searcher.learn(place, deal.cards[place])
        revealed += step.shows
        pending = (step.moves, step.shows)
        # the state after the last move, now that its card is known
        removed, drawn = keys[-1] & FULL_MASK, keys[-1] >> 28 & 31
        last = step.moves[-1]
        if last.is_draw:
            keys.append(_key(removed, drawn + 1, deal.cards[searcher.first + drawn]))
        else:
            place = deal.tableau.index(last.card)
            keys.append(_key(removed | 1 << place, drawn, last.card))
        if (place := learn_by_elimination(searcher.knowledge)[1]) is not None:
            searcher.learn(place, searcher.knowledge.missing_cards[0])
            eliminated = place
    if pending is not None:
        excursions.append(Excursion(*pending, len(keys) - 1))
    knowledge = searcher.knowledge
    return PeekPlan(tuple(excursions), tuple(revealed), eliminated,
                    tuple(knowledge.unknown_places), knowledge)


__all__ = ["DEFAULT_UNDO_LIMIT", "Excursion", "PeekPlan", "Step", "learn_by_elimination",
           "next_step", "plan_peek"]
