"""The players' table from the files of players_results.py: win rates with Wilson
intervals, mean scores, and paired comparisons on the deals two files share.

    python benchmarks/players_table.py data/players-*.json [--pairs fair:100=greedy,...]

Players that appear in several files are paired on the deals both were run on (a
file's per-deal results are in deal order from its ``start``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from players_results import paired, wilson


def load(paths: list[Path]) -> dict:
    """(rules, player) -> (start, per-deal won string, totals, file names, seed): the
    largest run of each player, extended by runs with the same seed on the deals just
    after it (one command run in parts)."""
    runs = []
    for path in paths:
        doc = json.loads(path.read_text())
        if not isinstance(doc.get("rules"), dict) or "seed" not in doc:
            continue
        for rules, per in doc["rules"].items():
            for player, rec in per.get("players", {}).items():
                runs.append((rules, player, doc["start"], doc["seed"], rec, path.name))
    found = {}
    for rules, player, start, seed, rec, name in sorted(runs, key=lambda r: r[2]):
        key = (rules, player)
        if key in found:
            s0, won, tot, names, seed0 = found[key]
            if seed0 == seed and s0 + len(won) == start:
                n = tot["deals"] + rec["deals"]
                merged = {"deals": n, "wins": tot["wins"] + rec["wins"]}
                for field in ("app_score_mean", "original_score_mean", "seconds_per_deal"):
                    merged[field] = (tot[field] * tot["deals"] + rec[field] * rec["deals"]) / n
                found[key] = (s0, won + rec["won"], merged, f"{names} + {name}", seed)
                continue
            if rec["deals"] <= tot["deals"]:
                continue
        found[key] = (start, rec["won"], rec, name, seed)
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--pairs", default="fair:100=greedy,fair:100=rollout:100,"
                                        "fair:100=pimc:100,rollout:100=greedy,pimc:100=greedy")
    args = ap.parse_args()
    found = load(args.files)
    print("| rules | player | wins | deals | win rate | 95% interval | mean app score | "
          "mean original score | s/deal | seed | file |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for (rules, player), (start, won, rec, name, seed) in sorted(found.items()):
        lo, hi = wilson(rec["wins"], rec["deals"])
        print(f"| {rules} | {player} | {rec['wins']} | {rec['deals']} (from {start}) | "
              f"{rec['wins'] / rec['deals']:.2%} | {lo:.2%} – {hi:.2%} | "
              f"{rec['app_score_mean']:.1f} | {rec['original_score_mean']:.2f} | "
              f"{rec['seconds_per_deal']:.3f} | {seed} | {name} |")
    print("\n| rules | pair (a − b) | deals | difference | 95% paired interval | only a | only b |")
    print("|---|---|---|---|---|---|---|")
    for pair in args.pairs.split(","):
        a, b = pair.split("=")
        for rules in sorted({r for r, _ in found}, key=lambda r: (len(r), r)):
            if (rules, a) not in found or (rules, b) not in found:
                continue
            sa, wa = found[(rules, a)][:2]
            sb, wb = found[(rules, b)][:2]
            lo, hi = max(sa, sb), min(sa + len(wa), sb + len(wb))
            if hi <= lo:
                continue
            p = paired(wa[lo - sa:hi - sa], wb[lo - sb:hi - sb])
            print(f"| {rules} | {a} − {b} | {lo}–{hi - 1} | {p['diff']:+.1%} | "
                  f"{p['diff_95'][0]:+.1%} – {p['diff_95'][1]:+.1%} | {p['only_first']} | "
                  f"{p['only_second']} |")


if __name__ == "__main__":
    main()
