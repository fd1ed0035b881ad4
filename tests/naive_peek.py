"""The slow twin of ``peek.next_step``: the same breadth-first search in taps, written
over plain Python objects (states as dataclasses, moves from the known cards), with
the same order of ties. The kernel must return exactly what this returns."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tripeaks_solver.analysis.peek import DEFAULT_UNDO_LIMIT, Step
from tripeaks_solver.model.cards import WILD_RANK, Card
from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.game import Game
from tripeaks_solver.model.geometry import COVER_MASK, FULL_MASK, TABLEAU_SIZE, UNCOVERS
from tripeaks_solver.model.layout import Layout
from tripeaks_solver.model.moves import Move
from tripeaks_solver.model.rules import Rules


@dataclass(frozen=True)
class _State:
    removed: int
    drawn: int
    waste: int  # a rank, WILD_RANK for an empty waste


class _Board:
    """What the player knows, as the search reads it: ranks where known, None elsewhere."""

    def __init__(self, knowledge: Layout, rules: Rules) -> None:
        self.rules = rules
        self.knowledge = knowledge
        first = Deal.stock_start(rules)
        self.first = first
        places = knowledge.places
        self.tableau: list[Card | None] = list(places[:TABLEAU_SIZE])
        self.stock: list[Card | None] = list(places[first:])

    def moves(self, state: _State) -> list[tuple[Move, tuple[int, ...], _State | None]]:
        """Every legal move: (move, places it shows that are not known, next state —
        None when it shows such a place, since what follows is not known)."""
        out = []
        if state.removed == FULL_MASK:  # won: the game takes no more moves
            return out
        removable = []
        for p in range(TABLEAU_SIZE):
            if state.removed >> p & 1 or state.removed & COVER_MASK[p] != COVER_MASK[p]:
                continue
            card = self.tableau[p]
            if card is None:  # face up but not known: cannot happen past a reveal
                continue
            if self.rules.adjacent(state.waste, card.rank):
                removable.append((p, card))
        for p, card in removable:
            removed = state.removed | 1 << p
            shows = tuple(q for q in UNCOVERS[p] if removed & COVER_MASK[q] == COVER_MASK[q]
                          and self.tableau[q] is None)
            nxt = None if shows else _State(removed, state.drawn, card.rank)
            out.append((Move.remove(card), shows, nxt))
        if state.drawn < len(self.stock) and self.rules.may_draw(bool(removable)):
            card = self.stock[state.drawn]
            if card is None:
                out.append((Move.DRAW, (self.first + state.drawn,), None))
            else:
                out.append((Move.DRAW, (), _State(state.removed, state.drawn + 1, card.rank)))
        return out


def _state_of(game: Game) -> _State:
    return _State(game.removed, game.stock_index,
                  WILD_RANK if game.waste is None else game.waste.rank)


def naive_next_step(knowledge: Layout, rules: Rules, base: Sequence[Move], stack: Sequence[Move],
              undo_limit: int = DEFAULT_UNDO_LIMIT, back_to_base: bool = False,
              free_undos: bool = False) -> Step | None:
    """The cheapest next step of a peek that began after the moves ``base`` and stands
    after ``stack`` more: undo part way, then play to a move that turns up a card not
    in ``knowledge``, with at most ``undo_limit`` moves beyond the base at any time.
    ``back_to_base``: always undo the whole stack first (the simplest plan).
    ``free_undos``: count only the moves played (every start costs 0), ties to the
    deeper line. None when no line the player can play with the cards known shows
    another card."""
    board = _Board(knowledge, rules)
    game = Game(knowledge.filled(), rules)  # only known cards are played on it
    for move in base:
        game.play(move)
    states = [_state_of(game)]
    for move in stack:
        game.play(move)
        states.append(_state_of(game))
    base_cards = states[0].removed.bit_count() + states[0].drawn

    def depth(state: _State) -> int:  # moves beyond the base: removals and draws
        return state.removed.bit_count() + state.drawn - base_cards

    # Breadth first in taps from every state of the stack: an undo back to it costs one
    # tap a move taken back.
    came: dict[_State, tuple[_State | None, Move | None, int]] = {}
    buckets: list[list[_State]] = [[] for _ in range(len(states))]
    for undos, state in enumerate(reversed(states)):
        if back_to_base and undos < len(states) - 1:
            continue
        if state not in came:
            came[state] = (None, None, undos)
            buckets[0 if free_undos else undos].append(state)
    best: tuple | None = None
    cost = 0
    while cost < len(buckets):
        if best is not None and best[0] <= cost:
            break
        for state in buckets[cost]:
            if depth(state) >= undo_limit:
                continue
            for move, shows, nxt in board.moves(state):
                if nxt is None:
                    deep = depth(state) + 1
                    key = (cost + 1, -len(shows), -deep if free_undos else deep)
                    if best is None or key < best[:3]:
                        best = (*key, state, move, shows)
                elif nxt not in came:
                    came[nxt] = (state, move, -1)
                    if cost + 1 >= len(buckets):
                        buckets.append([])
                    buckets[cost + 1].append(nxt)
        cost += 1
    if best is None:
        return None
    _, _, _, state, move, shows = best
    line = [move]
    while True:
        parent, step, undos = came[state]
        if parent is None:
            break
        line.append(step)
        state = parent
    return Step(undos, tuple(reversed(line)), shows)
