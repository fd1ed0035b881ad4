"""Peek plans over many deals: how often every card is shown, the taps, the time.

    python benchmarks/bench_peek.py                     # 10,000 deals a rule set
    python benchmarks/bench_peek.py --deals 1000 --simple-deals 200

For each rule set: the share of deals whose every card the plan shows (or names by
elimination) within the undo limit, the mean and 95th-percentile taps (moves + undos)
of the plan, and the milliseconds a plan takes (the planner runs once a step, as the
coach does). The simplest plan (each card by its own shortest excursion from the
start, every move taken back before the next) is made on the first ``--simple-deals``
deals (it is the slow one: each step searches from the start again), and the plan is
compared with it on the same deals. Every plan starts at the opening position of the
deal, knowing what a player sees there. A benchmark, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from tqdm import tqdm

from tripeaks_solver.analysis.peek import DEFAULT_UNDO_LIMIT, plan_peek
from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.game import Game
from tripeaks_solver.model.layout import Layout
from tripeaks_solver.model.rules import CLASSIC, EASY


def percentile(values: list[int], share: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10_000, help="deals a rule set (10000)")
    parser.add_argument("--start", type=int, default=0, help="first deal (0)")
    parser.add_argument("--simple-deals", type=int, default=1000,
                        help="deals on which the simplest plan is made too (1000)")
    parser.add_argument("--undo-limit", type=int, default=DEFAULT_UNDO_LIMIT,
                        help=f"moves the app can take back ({DEFAULT_UNDO_LIMIT})")
    args = parser.parse_args()
    warm = Deal.from_number(0)
    plan_peek(warm, EASY, Layout.of_deal(warm, Game(warm, EASY).visible_places()))
    print(f"peek plans, deals {args.start}-{args.start + args.deals - 1}, undo limit "
          f"{args.undo_limit}; the simplest plan on the first {args.simple_deals}")
    print(f"{'rules':<8} {'all shown':>10} {'mean taps':>9} {'p95':>5} {'max':>5} "
          f"{'ms/plan':>8} | {'simplest':>8} {'plan':>6} {'shorter':>8} {'ms/plan':>8}")
    for rules in (EASY, CLASSIC):
        taps, complete, seconds = [], 0, 0.0
        simple, same, simple_seconds = [], [], 0.0
        for i in tqdm(range(args.deals), desc=rules.name, file=sys.stderr, leave=False):
            deal = Deal.from_number(args.start + i)
            knowledge = Layout.of_deal(deal, Game(deal, rules).visible_places())
            t = time.perf_counter()
            plan = plan_peek(deal, rules, knowledge, undo_limit=args.undo_limit)
            seconds += time.perf_counter() - t
            taps.append(plan.actions)
            complete += plan.complete
            if i < args.simple_deals:
                t = time.perf_counter()
                base = plan_peek(deal, rules, knowledge, undo_limit=args.undo_limit,
                                 back_to_base=True)
                simple_seconds += time.perf_counter() - t
                simple.append(base.actions)
                same.append(plan.actions)
        n, m = len(taps), len(simple)
        shorter = (f"{1 - sum(same) / sum(simple):>7.0%}" if m and sum(simple) else
                   f"{'-':>8}")
        print(f"{rules.name:<8} {complete / n:>10.2%} {statistics.mean(taps):>9.1f} "
              f"{percentile(taps, 0.95):>5} {max(taps):>5} {1000 * seconds / n:>8.1f} | "
              + (f"{statistics.mean(simple):>8.1f} {statistics.mean(same):>6.1f} {shorter} "
                 f"{1000 * simple_seconds / m:>8.1f}" if m else ""))


if __name__ == "__main__":
    main()
