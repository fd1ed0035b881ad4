"""Solver speed: ms per deal for winnability and for the optimum, states per second,
the speed-up over the naive twin in tests/, and the wall time of one CLI solve.

    python benchmarks/bench_solver.py [--deals 1000] [--naive 20]

One thread, after compilation. Figures from one run compare with each other; the
machine is shared, so compare ratios rather than absolute numbers across runs.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

from tripeaks_solver import CLASSIC, EASY, Deal
from tripeaks_solver.solver import solve

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from naive import naive_solve


def _timed(deals, rules, optimal):
    states = 0
    start = time.perf_counter()
    for deal in deals:
        states += solve(deal, rules, optimal=optimal).states
    return time.perf_counter() - start, states


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=1000, help="deals 0 … N-1 (default 1000)")
    ap.add_argument("--naive", type=int, default=20, help="deals for the naive comparison")
    args = ap.parse_args()

    deals = [Deal.from_number(n) for n in range(args.deals)]
    solve(deals[0], EASY)  # load or compile the kernels before timing
    solve(deals[0], EASY, optimal=False)
    print(f"deals 0–{args.deals - 1}, one thread")
    print(f"{'rules':8} {'mode':12} {'ms/deal':>8} {'states/deal':>12} {'Mstates/s':>10} {'wins':>6}")
    for rules in (EASY, CLASSIC):
        wins = sum(solve(d, rules, optimal=False).winnable for d in deals)
        for optimal in (False, True):
            seconds, states = _timed(deals, rules, optimal)
            mode = "optimal" if optimal else "winnability"
            print(f"{rules.name:8} {mode:12} {seconds / len(deals) * 1000:8.3f} "
                  f"{states / len(deals):12.0f} {states / seconds / 1e6:10.2f} {wins:6d}")

    sample = deals[: args.naive]
    for rules in (EASY, CLASSIC):
        start = time.perf_counter()
        for d in sample:
            naive_solve(d, rules.wrap, stop_at_first_win=True)
        naive = time.perf_counter() - start
        fast, _ = _timed(sample, rules, True)
        print(f"naive twin, {rules.name}, {len(sample)} deals: {naive / len(sample) * 1000:.1f} "
              f"ms/deal, optimal kernel {fast / len(sample) * 1000:.2f} ms/deal, "
              f"speed-up {naive / fast:.0f}x")

    walls = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run(["tripeaks-solve", "TP1-E-AAAAAAD"], check=True, capture_output=True)
        walls.append(time.perf_counter() - start)
    print(f"tripeaks-solve TP1-E-AAAAAAD, cached kernels: median wall {statistics.median(walls):.2f} s")


if __name__ == "__main__":
    main()
