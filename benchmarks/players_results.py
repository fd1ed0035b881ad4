"""Win rates and mean scores of the players, with Wilson intervals and paired comparisons.

    python benchmarks/players_results.py --players greedy,rollout:100,fair:100 \
        --rules easy,classic --start 0 --stop 1000 --seed 0 --out data/players-NAME.json

Every player plays every deal START … STOP-1 from its opening under each rule set with
the same ``--seed`` (each deal's game seeded by seed + deal number). The JSON holds,
per rule set and player: deals, wins, win rate and its 95% Wilson interval, mean app
and original scores, seconds a deal, and the per-deal results (``won`` as a string of
0/1 in deal order, for paired comparisons); and per rule set, for every pair of
players, the paired difference of win rates with its 95% interval (normal
approximation over per-deal differences) and the counts of deals only one of them won.
``--merge`` adds to an existing file instead of starting a new one. ``--variant`` plays
under rule options too (e.g. ``draw-when-stuck``; filed as ``easy+draw-when-stuck``).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from itertools import combinations
from pathlib import Path

from tripeaks_solver import Deal, Rules
from tripeaks_solver.analysis.players import make_player, play
from tripeaks_solver.model.rules import VARIANT_OPTIONS

Z_95 = 1.959963984540054


def wilson(wins: int, n: int) -> tuple[float, float]:
    """95% Wilson score interval of wins / n."""
    p = wins / n
    denom = 1 + Z_95**2 / n
    centre = (p + Z_95**2 / (2 * n)) / denom
    half = Z_95 / denom * math.sqrt(p * (1 - p) / n + Z_95**2 / (4 * n * n))
    return (0.0 if wins == 0 else max(0.0, centre - half),
            1.0 if wins == n else min(1.0, centre + half))


def paired(a: str, b: str) -> dict:
    """Paired difference of win rates a − b over the same deals."""
    d = [int(x) - int(y) for x, y in zip(a, b, strict=True)]
    n = len(d)
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
    half = Z_95 * math.sqrt(var / n)
    return {"diff": round(mean, 4), "diff_95": [round(mean - half, 4), round(mean + half, 4)],
            "only_first": d.count(1), "only_second": d.count(-1), "deals": n}


def run(spec: str, rules: Rules, deals: list[Deal], seed: int, progress: bool) -> dict:
    player = make_player(spec)
    won, app, orig = [], [], []
    began = time.perf_counter()
    for i, deal in enumerate(deals):
        r = play(deal, player, rules, seed=seed + (deal.number or 0))
        won.append("1" if r.won else "0")
        app.append(r.score)
        orig.append(r.original)
        if progress and (i + 1) % max(1, len(deals) // 10) == 0:
            print(f"  {spec} {rules.name}: {i + 1}/{len(deals)} "
                  f"{won.count('1') / (i + 1):.3f}", file=sys.stderr)
    seconds = time.perf_counter() - began
    n = len(deals)
    wins = won.count("1")
    lo, hi = wilson(wins, n)
    return {"deals": n, "wins": wins, "win_rate": round(wins / n, 4),
            "win_rate_95": [round(lo, 4), round(hi, 4)],
            "app_score_mean": round(sum(app) / n, 2),
            "original_score_mean": round(sum(orig) / n, 2),
            "seconds_per_deal": round(seconds / n, 5), "won": "".join(won)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", required=True, help="comma-separated player names")
    ap.add_argument("--rules", default="easy,classic")
    ap.add_argument("--variant", default="",
                    help="rule options joined by +, e.g. draw-when-stuck (the results are "
                         "filed under e.g. classic+draw-when-stuck)")
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--stop", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--merge", action="store_true")
    ap.add_argument("--progress", action="store_true")
    args = ap.parse_args()

    deals = [Deal.from_number(n) for n in range(args.start, args.stop)]
    doc = {"start": args.start, "stop": args.stop, "seed": args.seed, "rules": {}}
    if args.merge and args.out.exists():
        doc = json.loads(args.out.read_text())
        if (doc["start"], doc["stop"], doc["seed"]) != (args.start, args.stop, args.seed):
            sys.exit("players_results: --merge needs the same --start, --stop and --seed")
    wanted = [o for o in args.variant.split("+") if o]
    unknown = [o for o in wanted if o not in VARIANT_OPTIONS]
    if unknown:
        sys.exit(f"players_results: unknown --variant option {unknown[0]!r} "
                 f"(expected some of {'+'.join(VARIANT_OPTIONS)})")
    options = {VARIANT_OPTIONS[o]: True for o in wanted}
    play(deals[0], "greedy")  # compile the kernels before timing
    for name in args.rules.split(","):
        rules = Rules.named(name).with_options(**options)
        label = "+".join(filter(None, [rules.name, rules.variant]))
        per = doc["rules"].setdefault(label, {"players": {}, "paired": {}})
        for spec in args.players.split(","):
            per["players"][spec] = run(spec, rules, deals, args.seed, args.progress)
            r = per["players"][spec]
            print(f"{label:8} {spec:14} {r['wins']:6d}/{r['deals']:<6d} {r['win_rate']:.4f} "
                  f"[{r['win_rate_95'][0]:.4f}, {r['win_rate_95'][1]:.4f}] "
                  f"app {r['app_score_mean']:7.2f} orig {r['original_score_mean']:7.2f} "
                  f"{r['seconds_per_deal']:.4f} s/deal", flush=True)
        names = list(per["players"])
        per["paired"] = {f"{a} - {b}": paired(per["players"][a]["won"], per["players"][b]["won"])
                         for a, b in combinations(names, 2)}
    doc.setdefault("commands", []).append(
        "python benchmarks/players_results.py " + " ".join(sys.argv[1:]))
    args.out.write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    main()
