"""The distribution of deal difficulty (share of R greedy games with random tie-breaks
lost) and of its rating words over a range of deals, under Easy and Classic.

    python benchmarks/difficulty_results.py --start 0 --stop 10000 --games 100 --seed 0 \
        --out data/players-difficulty-0-9999.json [--plot data/players-difficulty-0-9999.png]

The exact verdicts of deals 0–9,999 are read from data/deals-0-9999.csv when the range
lies inside it (the solver runs otherwise, only on deals the player never won).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from collections import Counter
from pathlib import Path

from tripeaks_solver import Deal, Rules
from tripeaks_solver.analysis.difficulty import RATINGS, difficulties

DATA = Path(__file__).resolve().parents[1] / "data" / "deals-0-9999.csv"


def known_verdicts() -> dict[tuple[int, str], bool]:
    with DATA.open() as f:
        return {(int(r["deal"]), r["rules"]): r["winnable"] == "true" for r in csv.DictReader(f)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--stop", type=int, default=10000)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--plot", type=Path)
    args = ap.parse_args()
    deals = [Deal.from_number(n) for n in range(args.start, args.stop)]
    verdicts = known_verdicts() if DATA.exists() else {}
    doc = {"start": args.start, "stop": args.stop, "games": args.games, "seed": args.seed,
           "bins": "easy <= 0.2 < medium <= 0.5 < hard <= 0.8 < expert; impossible: lost",
           "rules": {}, "command": "python benchmarks/difficulty_results.py "
                                   + " ".join(sys.argv[1:])}
    values = {}
    for name in ("easy", "classic"):
        rules = Rules.named(name)
        known = [verdicts.get((d.number, name)) for d in deals]
        began = time.perf_counter()
        found = difficulties(deals, rules, args.games, args.seed, known)
        seconds = time.perf_counter() - began
        ratings = Counter(d.rating for d in found)
        tenths = Counter(min(int(d.value * 10), 10) for d in found)
        values[name] = [d.value for d in found]
        doc["rules"][name] = {
            "deals": len(found),
            "ratings": {r: ratings.get(r, 0) for r in RATINGS},
            "mean_difficulty": round(sum(values[name]) / len(found), 4),
            "histogram_tenths": {f"{k / 10:.1f}": tenths.get(k, 0) for k in range(11)},
            "seconds": round(seconds, 2),
        }
        print(name, doc["rules"][name])
    args.out.write_text(json.dumps(doc, indent=1) + "\n")
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, axes = plt.subplots(1, 2, figsize=(10, 4))
        for ax, name in zip(axes, ("easy", "classic"), strict=True):
            counts = doc["rules"][name]["ratings"]
            ax.bar(list(counts), list(counts.values()))
            ax.set_title(f"{name.capitalize()}: deals {args.start}–{args.stop - 1}, "
                         f"R={args.games}")
            ax.set_ylabel("deals")
        fig.tight_layout()
        fig.savefig(args.plot, dpi=100)


if __name__ == "__main__":
    main()
