"""The time of a deal's exact optimum under PySolFC's scoring (``--scoring pysol``) against
today's optimum (app scoring), on the same deals in the same run: PySolFC's games 1 … N
(default 100) under Easy rules (PySolFC's), one thread, warm.

    python benchmarks/bench_pysol_score.py [--games 100] [--repeat 3]

Each deal is timed ``--repeat`` times per scheme, the two schemes in turn, and its
fastest time kept, in CPU time of this process (``time.process_time``): the machine is
shared, and the fastest of a few runs on CPU time, taken side by side, is what other
processes disturb least. The figure to read is the ratio (the target: pysol within 5×
of app).
"""

from __future__ import annotations

import argparse
import statistics
import time

from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.rules import EASY
from tripeaks_solver.solver.solve import solve, warm_up


def _time(deal: Deal, scheme: str) -> tuple[float, int]:
    start = time.process_time()
    sol = solve(deal, EASY, scheme=scheme)
    return time.process_time() - start, sol.states


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100, help="PySolFC games 1 … N (default 100)")
    ap.add_argument("--repeat", type=int, default=3, help="timings a deal and scheme (default 3)")
    args = ap.parse_args()
    warm_up("app")
    warm_up("pysol")
    deals = [Deal.from_pysol(str(n)) for n in range(1, args.games + 1)]
    # Each deal's schemes are timed in turn (app, pysol, app, pysol, …), so that what
    # else runs on the machine weighs on both alike; the fastest of each is kept.
    rows: dict[str, list[tuple[float, int]]] = {"app": [], "pysol": []}
    for deal in deals:
        fastest: dict[str, tuple[float, int]] = {}
        for _ in range(args.repeat):
            for scheme in rows:
                seconds, states = _time(deal, scheme)
                if scheme not in fastest or seconds < fastest[scheme][0]:
                    fastest[scheme] = (seconds, states)
        for scheme, times in rows.items():
            times.append(fastest[scheme])
    print(f"PySolFC games 1 … {args.games}, Easy, fastest of {args.repeat}, CPU ms a deal")
    print(f"{'scheme':8} {'mean':>8} {'median':>8} {'max':>8} {'states':>9}")
    for scheme, r in rows.items():
        ms = [t * 1000 for t, _ in r]
        states = statistics.mean(s for _, s in r)
        print(f"{scheme:8} {statistics.mean(ms):8.2f} {statistics.median(ms):8.2f} "
              f"{max(ms):8.2f} {states:9.0f}")
    ratio = statistics.mean(t for t, _ in rows["pysol"]) / statistics.mean(
        t for t, _ in rows["app"])
    print(f"pysol / app, mean time: {ratio:.2f}× (target: within 5×)")


if __name__ == "__main__":
    main()
