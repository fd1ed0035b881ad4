"""The adaptive peek's search (``kernels/reveal.py``) against its slow twin: on random
positions and samples, every move it calls ALIVE or DEAD is so by exhaustive search;
with room enough it seldom gives up."""

from __future__ import annotations

import random

import numpy as np
import pytest
from helpers import deal_for
from naive_reveal import naive_judge
from test_peek import RULE_SETS, random_moves

from tripeaks_solver.analysis.peek_samples import Sampler
from tripeaks_solver.kernels import reveal
from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.game import Game
from tripeaks_solver.model.layout import Layout


def position(rng: random.Random):
    """A random position some moves into a random deal, what a player knows there
    (what the game showed, and maybe more), and the state key."""
    rules = rng.choice(RULE_SETS)
    deal = deal_for(rng.randrange(10**6), rules)
    game = Game(deal, rules)
    random_moves(game, rng, rng.randrange(8, 30))
    known = set(game.visible_places()) | set(rng.sample(range(len(deal.cards)),
                                                        rng.randrange(40)))
    knowledge = Layout.of_deal(deal, known)
    waste = 13 if game.waste is None else game.waste.rank
    return rules, knowledge, (game.removed, game.stock_index, waste)


@pytest.mark.parametrize("seed", [pytest.param(0, marks=pytest.mark.nojit), 1, 2])
def test_judgements_equal_the_slow_twins(seed: int) -> None:
    rng = random.Random(seed)
    cases = 16 if seed == 0 else 40
    outcomes = set()
    roomy = decided = 0
    for _ in range(cases):
        rules, knowledge, state = position(rng)
        moves_so_far = state[0].bit_count() + state[1]
        most = moves_so_far + rng.choice([2, 6, 100])
        sampler = Sampler(knowledge, rules, most, rng.randrange(100))
        cap = rng.choice([3, 50, 100_000])
        goal = sampler.goal._replace(cap=cap)
        samples = min(4, len(sampler.deals.tableau))
        deals = reveal.Deals(sampler.deals.tableau[:samples], sampler.deals.stock[:samples])
        key = state[0] | state[1] << 28 | state[2] << 33
        out = np.empty((samples, 1, reveal.MOVES), np.int64)
        reveal._judge(sampler.masks, goal, deals, reveal.Ask(np.array([key]), out),
                      reveal.new_table(cap))
        first = Deal.stock_start(rules)
        for i in range(samples):
            want = naive_judge(rules, deals.tableau[i].tolist(), deals.stock[i].tolist(),
                               knowledge, first, most, state)
            got = {m: int(v) for m, v in enumerate(out[i, 0]) if v != reveal.ILLEGAL}
            assert set(got) == set(want)
            for m, v in got.items():
                outcomes.add(v)
                if v != reveal.CAPPED:
                    assert v == (reveal.ALIVE if want[m] else reveal.DEAD)
                if cap == 100_000:
                    roomy += 1
                    decided += v != reveal.CAPPED
    assert {reveal.ALIVE, reveal.DEAD} <= outcomes
    assert decided >= 0.9 * roomy  # with room enough it nearly always decides
