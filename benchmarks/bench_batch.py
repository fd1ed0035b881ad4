"""Deals per second of ``tripeaks-solve batch``: winnability only and optimal, 1 job and all.

    python benchmarks/bench_batch.py               # 2,000 deals from deal 0, both rules
    python benchmarks/bench_batch.py --deals 20000 --start 500000 --repeat 3

Each figure is the wall time of the whole command (start-up included), run as a
subprocess exactly as a user would type it (the best of ``--repeat`` runs, which helps
on a machine busy with other work). ``net/s`` leaves out the fixed start-up
(interpreter, imports, kernels from the cache); the speed-up compares net rates, and
the last column projects a 100,000-deal run: start-up plus 100,000 deals at the net
rate. The targets on a 2-core machine are 100 s winnability only, 8 minutes optimal,
and --jobs 2 at least 1.8x --jobs 1. A benchmark, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time

from tripeaks_solver.batch.engines import default_jobs


def run(start: int, deals: int, optimal: bool, jobs: int) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system, all processes) of one batch command."""
    cmd = [sys.executable, "-c", "from tripeaks_solver.cli import main; main()",
           "batch", str(start), str(start + deals),
           "--rules", "both", "--optimal" if optimal else "--no-optimal", "--jobs", str(jobs),
           "--no-progress"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals per run (default 2000)")
    parser.add_argument("--start", type=int, default=0, help="first deal (default 0)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="time each configuration this many times, keep the best")
    parser.add_argument("--jobs", type=int, default=default_jobs(),
                        help=f"the 'all cores' job count (default {default_jobs()})")
    args = parser.parse_args()

    run(args.start, 1, True, 1)  # compile or load the kernels before timing anything
    t_start = min(run(args.start, 1, False, 1)[0] for _ in range(3))
    print(f"batch {args.start} {args.start + args.deals} --rules both "
          f"({args.deals:,} deals, {2 * args.deals:,} solves); start-up {t_start:.2f} s")
    print(f"{'mode':<12}{'jobs':>5}{'wall s':>9}{'cpu s':>8}{'deals/s':>10}{'net/s':>9}"
          f"{'speed-up':>10}{'100k deals':>12}")
    for optimal in (False, True):
        base = None
        for jobs in sorted({1, args.jobs}):
            wall, cpu = min(run(args.start, args.deals, optimal, jobs)
                            for _ in range(args.repeat))
            rate = args.deals / wall
            net = args.deals / max(wall - t_start, 1e-9)  # without the fixed start-up
            base = base or net
            mode = "optimal" if optimal else "no-optimal"
            print(f"{mode:<12}{jobs:>5}{wall:>9.2f}{cpu:>8.1f}{rate:>10.1f}{net:>9.1f}"
                  f"{net / base:>9.2f}x{t_start + 100_000 / net:>11.0f}s", flush=True)
    print("cpu s: CPU time of all the run's processes; well under jobs x wall s means the "
          "machine was busy with other work", flush=True)

if __name__ == "__main__":
    main()
