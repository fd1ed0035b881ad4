"""Player speed: µs a game of the greedy and random playout kernels, difficulty ratings a
second, and seconds a deal of the sampling players.

    python benchmarks/bench_players.py [--deals 2000] [--sampled 20]

One thread, after compilation. The machine may be shared: compare ratios within a run.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from tripeaks_solver import CLASSIC, EASY, Deal
from tripeaks_solver.analysis.difficulty import difficulties
from tripeaks_solver.analysis.players import play
from tripeaks_solver.kernels import playouts, policies
from tripeaks_solver.model.cards import ranks
from tripeaks_solver.solver.solve import rule_masks


def _arrays(deals, rules):
    tabs = np.array([ranks(d.tableau) for d in deals], dtype=np.int64)
    stocks = np.array([ranks(d.opening(rules)[1]) for d in deals], dtype=np.int64)
    waste = np.array([d.waste.rank for d in deals], dtype=np.int64)
    return tabs, stocks, waste


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=2000, help="deals for the kernel timings")
    ap.add_argument("--games", type=int, default=20, help="games a deal for the kernel timings")
    ap.add_argument("--sampled", type=int, default=20,
                    help="deals for the sampling players (rollout:100, fair:100)")
    args = ap.parse_args()
    deals = [Deal.from_number(n) for n in range(args.deals)]
    seeds = np.arange(len(deals), dtype=np.uint64)
    play(deals[0], "greedy")  # compile
    print(f"{'rules':8} {'player':22} {'µs/game':>9} {'wins':>7}")
    for rules in (EASY, CLASSIC):
        tabs, stocks, waste = _arrays(deals, rules)
        all_deals = playouts.Deals(tabs, stocks, waste)
        first = playouts.Deals(tabs[:1], stocks[:1], waste[:1])
        masks = rule_masks(rules)
        out = np.zeros((len(deals), 4), dtype=np.int64)
        for name, policy, ties in (("greedy", policies.GREEDY, False),
                                   ("greedy (random ties)", policies.GREEDY, True),
                                   ("random", policies.RANDOM, False)):
            settings = policies.policy(policy, ties)
            playouts._games(first, masks, settings, 1, seeds[:1], out[:1])
            games = 1 if not ties and policy == policies.GREEDY else args.games
            began = time.perf_counter()
            playouts._games(all_deals, masks, settings, games, seeds, out)
            seconds = time.perf_counter() - began
            n = len(deals) * games
            print(f"{rules.name:8} {name:22} {seconds / n * 1e6:9.2f} {out[:, 0].sum() / n:7.4f}")
        began = time.perf_counter()
        difficulties(deals, rules, games=100)
        seconds = time.perf_counter() - began
        print(f"{rules.name:8} difficulty R=100: {seconds / len(deals) * 1000:.2f} ms a deal "
              "(solver included for deals greedy never wins)")
    for spec in ("rollout:100", "fair:100"):
        for rules in (EASY, CLASSIC):
            sample = deals[: args.sampled]
            began = time.perf_counter()
            wins = sum(play(d, spec, rules, seed=d.number).won for d in sample)
            seconds = time.perf_counter() - began
            print(f"{rules.name:8} {spec:12} {seconds / len(sample):.3f} s a deal "
                  f"({wins}/{len(sample)} won)")


if __name__ == "__main__":
    main()
