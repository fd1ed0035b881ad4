"""Solver speed on deals 0 … N-1 (default 1000), one thread, warm: winnability and the
optimum (app scoring) in ms a deal per rule set, split into won and lost deals, with the
states a deal; then the speed-up over the naive twin in tests/ and the wall time of one
CLI solve.

    python benchmarks/bench_solver.py [--deals 1000] [--repeat 3] [--naive 20]

Each deal is timed ``--repeat`` times and its fastest time kept, in CPU time of this
process (``time.process_time``): the machine is shared, and the fastest of a few runs on
CPU time is what other processes disturb least. Still compare ratios (old and new in the
same run) rather than absolute numbers across runs.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

from tripeaks_solver import CLASSIC, EASY, Deal
from tripeaks_solver.solver.solve import solve

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from naive import naive_solve


def _per_deal(deals, rules, optimal, repeat):
    """[(won, fastest seconds, states)] for each deal."""
    out = []
    for deal in deals:
        best = None
        for _ in range(repeat):
            start = time.process_time()
            sol = solve(deal, rules, optimal=optimal)
            seconds = time.process_time() - start
            best = seconds if best is None else min(best, seconds)
        out.append((sol.winnable, best, sol.states))
    return out


def _line(rules, mode, rows):
    def part(won):
        sel = [r for r in rows if r[0] == won]
        if not sel:
            return f"{0:5d} {'-':>8} {'-':>9}"
        return (f"{len(sel):5d} {sum(r[1] for r in sel) / len(sel) * 1000:8.3f} "
                f"{sum(r[2] for r in sel) / len(sel):9.0f}")

    total = sum(r[1] for r in rows) / len(rows) * 1000
    states = sum(r[2] for r in rows) / len(rows)
    return (f"{rules.name:8} {mode:12} {total:8.3f} {states:9.0f} | {part(True)} | "
            f"{part(False)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=1000, help="deals 0 … N-1 (default 1000)")
    ap.add_argument("--repeat", type=int, default=3, help="timings per deal, fastest kept")
    ap.add_argument("--naive", type=int, default=20,
                    help="deals for the naive comparison (0: skip it)")
    args = ap.parse_args()
    if args.deals < 1 or args.repeat < 1 or args.naive < 0:
        ap.error("--deals and --repeat must be at least 1, --naive at least 0")

    deals = [Deal.from_number(n) for n in range(args.deals)]
    for optimal in (True, False):  # load or compile the kernels before timing
        solve(deals[0], EASY, optimal=optimal)
    print(f"deals 0–{args.deals - 1}, one thread, CPU ms a deal (fastest of {args.repeat})")
    print(f"{'':21} {'all':>18} | {'won':>25} | {'lost':>25}")
    print(f"{'rules':8} {'mode':12} {'ms/deal':>8} {'states':>9} | {'deals':>5} {'ms/deal':>8} "
          f"{'states':>9} | {'deals':>5} {'ms/deal':>8} {'states':>9}")
    for rules in (EASY, CLASSIC):
        for optimal in (False, True):
            rows = _per_deal(deals, rules, optimal, args.repeat)
            print(_line(rules, "optimum" if optimal else "winnability", rows), flush=True)

    sample = deals[: args.naive]
    for rules in (EASY, CLASSIC) if sample else ():
        start = time.process_time()
        for d in sample:
            naive_solve(d, rules, stop_at_first_win=True)
        naive = time.process_time() - start
        fast = sum(r[1] for r in _per_deal(sample, rules, True, 1))
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
