"""Peek plans over many deals: the taps, how often every card is shown, the time.

    python benchmarks/bench_peek.py                      # 1,000 deals a rule set
    python benchmarks/bench_peek.py --deals 200 --step-deals 20 --old-deals 0

For each rule set, the adaptive plan (Peek 2) from the opening of every deal, knowing
what a player sees there: the share of deals whose every card it shows (the last by
elimination where it follows) within the undo limit, the mean, median, 95th percentile
and most taps (moves + undos), the milliseconds a plan takes (mean, most), and the
milliseconds of one ``next_step`` as the coach's walk-through asks it after every tap
of the plan on the first ``--step-deals`` deals (mean, most). The old greedy plan (the
card fewest taps away every time) is made on the first ``--old-deals`` deals for
comparison. A benchmark, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from tqdm import tqdm

from tripeaks_solver.analysis import peek_samples
from tripeaks_solver.analysis.peek import (
    DEFAULT_SEED,
    DEFAULT_UNDO_LIMIT,
    PeekPlan,
    learn_by_elimination,
    next_step,
    plan_peek,
)
from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.game import Game
from tripeaks_solver.model.layout import Layout
from tripeaks_solver.model.moves import Move
from tripeaks_solver.model.rules import CLASSIC, EASY, Rules


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def step_times(deal: Deal, rules: Rules, knowledge: Layout, plan: PeekPlan, limit: int,
               seed: int) -> list[float]:
    """Seconds of next_step asked after every tap of ``plan``, as the walk-through asks."""
    seconds = []
    stack: list[Move] = []
    known = knowledge
    for i, e in enumerate(plan.excursions):
        for tap in [Move.UNDO] * (plan.excursions[i - 1].undos if i else 0) + list(e.moves):
            t = time.perf_counter()
            next_step(known, rules, (), stack, limit, seed=seed)
            seconds.append(time.perf_counter() - t)
            if tap.is_undo:
                stack.pop()
            else:
                stack.append(tap)
        for p in e.shows:
            known = known.learn(p, deal.cards[p])
        known = learn_by_elimination(known)[0]
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000, help="deals a rule set (1000)")
    parser.add_argument("--start", type=int, default=0, help="first deal (0)")
    parser.add_argument("--step-deals", type=int, default=50,
                        help="deals on which every next step is timed (50)")
    parser.add_argument("--old-deals", type=int, default=1000,
                        help="deals on which the old greedy plan is made too (1000)")
    parser.add_argument("--undo-limit", type=int, default=DEFAULT_UNDO_LIMIT,
                        help=f"moves the app can take back ({DEFAULT_UNDO_LIMIT})")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED,
                        help=f"the samples' seed ({DEFAULT_SEED})")
    args = parser.parse_args()
    warm = Deal.from_number(0)
    plan_peek(warm, EASY, Layout.of_deal(warm, Game(warm, EASY).visible_places()))
    print(f"peek plans, deals {args.start}-{args.start + args.deals - 1}, undo limit "
          f"{args.undo_limit}, seed {args.seed}; next steps timed on the first "
          f"{args.step_deals}, the old plan on the first {args.old_deals}")
    print(f"{'rules':<8} {'all shown':>9} {'mean':>6} {'median':>6} {'p95':>4} {'max':>4} "
          f"{'ms/plan':>8} {'max ms':>7} {'ms/step':>7} {'max ms':>7} | "
          f"{'old':>6} {'old p95':>7} {'adaptive':>8}")
    for rules in (EASY, CLASSIC):
        taps, complete, seconds, steps = [], 0, [], []
        old, same = [], []
        for i in tqdm(range(args.deals), desc=rules.name, file=sys.stderr, leave=False):
            deal = Deal.from_number(args.start + i)
            knowledge = Layout.of_deal(deal, Game(deal, rules).visible_places())
            t = time.perf_counter()
            plan = plan_peek(deal, rules, knowledge, undo_limit=args.undo_limit,
                             seed=args.seed)
            seconds.append(time.perf_counter() - t)
            taps.append(plan.actions)
            complete += plan.complete
            if i < args.step_deals:  # as a fresh walk-through: nothing judged yet
                peek_samples._judged.clear()
                steps += step_times(deal, rules, knowledge, plan, args.undo_limit, args.seed)
            if i < args.old_deals:
                old.append(plan_peek(deal, rules, knowledge, undo_limit=args.undo_limit,
                                     adaptive=False).actions)
                same.append(plan.actions)
        n = len(taps)
        line = (f"{rules.name:<8} {complete / n:>9.2%} {statistics.mean(taps):>6.1f} "
                f"{statistics.median(taps):>6.0f} {percentile(taps, 0.95):>4.0f} "
                f"{max(taps):>4} {1000 * statistics.mean(seconds):>8.0f} "
                f"{1000 * max(seconds):>7.0f} ")
        line += (f"{1000 * statistics.mean(steps):>7.0f} {1000 * max(steps):>7.0f} | "
                 if steps else f"{'-':>7} {'-':>7} | ")
        if old:
            line += (f"{statistics.mean(old):>6.1f} {percentile(old, 0.95):>7.0f} "
                     f"{statistics.mean(same):>8.1f}")
        print(line, flush=True)


if __name__ == "__main__":
    main()
