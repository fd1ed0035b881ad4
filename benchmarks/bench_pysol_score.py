"""The time of a deal's exact optimum under PySolFC's scoring (``--scoring pysol``) against
today's optimum (app scoring), on the same deals in the same run: PySolFC's games 1 … N
(default 100) under Easy rules (PySolFC's), one thread, warm.

    python benchmarks/bench_pysol_score.py [--games 100] [--repeat 2]

Each deal is timed ``--repeat`` times per scheme and its fastest time kept, in CPU time of
this process (``time.process_time``): the machine is shared, and the fastest of a few
runs on CPU time is what other processes disturb least. The figure to read is the ratio
(the issue's target: pysol within 5× of app).
"""

from __future__ import annotations

import argparse
import statistics
import time

from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.rules import EASY
from tripeaks_solver.solver.solve import solve, warm_up


def _fastest(deal: Deal, scheme: str, repeat: int) -> tuple[float, int]:
    best = None
    for _ in range(repeat):
        start = time.process_time()
        sol = solve(deal, EASY, scheme=scheme)
        seconds = time.process_time() - start
        best = seconds if best is None else min(best, seconds)
    assert best is not None
    return best, sol.states


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100, help="PySolFC games 1 … N (default 100)")
    ap.add_argument("--repeat", type=int, default=2, help="timings a deal and scheme (default 2)")
    args = ap.parse_args()
    warm_up("app")
    warm_up("pysol")
    deals = [Deal.from_pysol(str(n)) for n in range(1, args.games + 1)]
    rows = {}
    for scheme in ("app", "pysol"):
        rows[scheme] = [_fastest(d, scheme, args.repeat) for d in deals]
    print(f"PySolFC games 1 … {args.games}, Easy, fastest of {args.repeat}, CPU ms a deal")
    print(f"{'scheme':8} {'mean':>8} {'median':>8} {'max':>8} {'states':>9}")
    for scheme, r in rows.items():
        ms = [t * 1000 for t, _ in r]
        states = statistics.mean(s for _, s in r)
        print(f"{scheme:8} {statistics.mean(ms):8.2f} {statistics.median(ms):8.2f} "
              f"{max(ms):8.2f} {states:9.0f}")
    ratio = statistics.mean(t for t, _ in rows["pysol"]) / statistics.mean(
        t for t, _ in rows["app"])
    print(f"pysol / app, mean time: {ratio:.1f}× (target: within 5×)")


if __name__ == "__main__":
    main()
