"""Speed of dealing a PySolFC game number: ``Deal.from_pysol`` from the text as typed to
the project's Deal (reading the number, PySolFC's generator and shuffle, the cards).

    python benchmarks/bench_pysol_deal.py [--deals 20000]

Target: ≤ 50 µs a deal. Both generators are timed: the Mersenne Twister (numbers from
32,000, as PySolFC's random games are) and the Microsoft-compatible one (1 … 31,999 and
``ms`` numbers). In-process, one thread, CPU time; the best of 5 runs, since the machine
is shared.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this tree's package

from tripeaks_solver.model.dealing import Deal


def per_deal(texts: list[str]) -> float:
    """Seconds a deal, the best of 5 runs over ``texts``."""
    best = float("inf")
    for _run in range(5):
        started = time.process_time()
        for text in texts:
            Deal.from_pysol(text)
        best = min(best, (time.process_time() - started) / len(texts))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20000)
    args = parser.parse_args()
    rng = random.Random(51)
    sets = {
        "twister (17-20 digits)": [f"{rng.randrange(10**16, 10**20):020d}"
                                   for _ in range(args.deals)],
        "twister (32000 … 10^7)": [str(rng.randrange(32000, 10**7)) for _ in range(args.deals)],
        "ms (1 … 31999)": [str(rng.randrange(1, 32000)) for _ in range(args.deals)],
        "ms (ms1 … ms8589934591)": [f"ms{rng.randrange(1, 2**33)}" for _ in range(args.deals)],
    }
    worst = 0.0
    for name, texts in sets.items():
        seconds = per_deal(texts)
        worst = max(worst, seconds)
        print(f"{name:<26} {seconds * 1e6:6.1f} µs a deal ({len(texts):,} deals)")
    print(f"worst {worst * 1e6:.1f} µs a deal (target ≤ 50 µs)")


if __name__ == "__main__":
    main()
