"""Deals whose best original score ends stuck: where --must-clear changes the answer.

Solves each deal of a range under the original scoring twice, with and without
``must_clear``, and prints the deals where the best score over every line differs from
the best score over the lines that clear the board, then the counts per rule set.

    python benchmarks/must_clear_deals.py [START STOP] [--rules easy,classic]
"""

from __future__ import annotations

import argparse
import time

from tripeaks_solver.model.codes import GameCode
from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.rules import Rules
from tripeaks_solver.solver.solve import solve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("start", type=int, nargs="?", default=0)
    parser.add_argument("stop", type=int, nargs="?", default=1000)
    parser.add_argument("--rules", default="easy,classic")
    args = parser.parse_args()
    names = args.rules.split(",")
    counts = {name: [0, 0, 0] for name in names}  # deals, won, changed
    began = time.perf_counter()
    for number in range(args.start, args.stop):
        deal = Deal.from_number(number)
        for name in names:
            rules = Rules.named(name)
            best = solve(deal, rules, scheme="original")
            clear = solve(deal, rules, scheme="original", must_clear=True)
            counts[name][0] += 1
            counts[name][1] += clear.winnable
            if clear.winnable and clear.best_score != best.best_score:
                counts[name][2] += 1
                print(f"{GameCode(number, name)}  {name:<8} best {best.best_score:4d} "
                      f"(ends stuck), clearing the board {clear.best_score:4d}", flush=True)
    print()
    for name, (deals, won, changed) in counts.items():
        print(f"{name:<8} {deals} deals, {won} winnable, {changed} where the best original "
              f"score ends stuck ({100 * changed / max(won, 1):.1f}% of the winnable)")
    print(f"{time.perf_counter() - began:.1f} s")


if __name__ == "__main__":
    main()
