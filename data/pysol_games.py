"""PySolFC's Three Peaks games 1 … N-1 (default 32,001: the game numbers 1–32,000 its
players share), solved exactly under PySolFC's rules (Easy: K and A adjacent, one pass
through the stock, drawing free): winnable, the fewest draws of a win, the best app
score and the best PySolFC hand score (``--scoring pysol``), one CSV row a game.

    python data/pysol_games.py [--stop 32001] [--out data/pysol-1-32000.csv]
    python data/pysol_games.py --app-only [--out FILE]

``--app-only`` leaves the PySolFC score out (a few milliseconds a game instead of
tens).

It appends to ``--out`` and carries on after the last game there, so an interrupted run
resumes. Every best PySolFC line is replayed on the plain-Python game, which must reach
exactly the score the search found.
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.rules import EASY
from tripeaks_solver.solver.solve import solve

COLUMNS = ("game", "winnable", "min_draws", "best_score", "best_pysol")
APP_COLUMNS = COLUMNS[:-1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--stop", type=int, default=32001, help="the first game number not solved")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--app-only", action="store_true", help="without the PySolFC score")
    args = ap.parse_args()
    columns = APP_COLUMNS if args.app_only else COLUMNS
    if args.out is None:
        args.out = Path("data/pysol-app-1-32000.csv" if args.app_only
                        else "data/pysol-1-32000.csv")
    done = 0
    if args.out.exists():
        with args.out.open(newline="") as f:
            rows = list(csv.DictReader(f))
        done = int(rows[-1]["game"]) if rows else 0
    else:
        args.out.write_text(",".join(columns) + "\n")
    with args.out.open("a", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        for number in range(done + 1, args.stop):
            deal = Deal.from_pysol(str(number))
            app = solve(deal, EASY, scheme="app")
            row = [number, int(app.winnable), "" if app.min_draws is None else app.min_draws,
                   app.best_score]
            if not args.app_only:
                best = solve(deal, EASY, scheme="pysol")
                replayed = best.steps()[-1].score if best.moves else -52
                if replayed != best.best_score or best.winnable != app.winnable:
                    sys.exit(f"game {number}: the line scores {replayed}, the search "
                             f"{best.best_score}; winnable {app.winnable} / {best.winnable}")
                row.append(best.best_score)
            out.writerow(row)
            if number % 100 == 0:
                f.flush()
                print(number, flush=True)


if __name__ == "__main__":
    main()
