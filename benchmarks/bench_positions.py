"""Speed of the answers from positions: exact ``hint`` of a mid-game position (ms per
legal move), ``analyze`` of a whole record, and the fair shares at the opening.

    python benchmarks/bench_positions.py [--deals 100] [--records 20] [--fair 5]

In-process, warm (kernels compiled and loaded before timing), one thread; times are
CPU seconds of this process (wall time too where it matters), as the machine is
shared. The targets: hint ≤ 5 ms per legal move, analyze of ~45 moves ≤ 0.5 s,
``hint --fair --samples 1000`` at the opening ≤ 3 s (shares only). The machine is shared: compare
figures of one run with each other.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this tree's package

from tripeaks_solver import CLASSIC, EASY, Deal
from tripeaks_solver.analysis.fair import View, fair_hint
from tripeaks_solver.analysis.hints import analyze, hint
from tripeaks_solver.model.position import Position
from tripeaks_solver.solver.solve import solve, warm_up


def mid_game(number: int, rules) -> Position:
    """Halfway along the best line of the deal (a win is left, as a rule)."""
    deal = Deal.from_number(number)
    line = solve(deal, rules).moves
    return Position.after(deal, rules, line[: len(line) // 2])


def record(number: int, rules, length: int) -> list:
    """A random game of up to ``length`` legal moves (a player who plays at random)."""
    rng = random.Random(number)
    position = Position(Deal.from_number(number), rules)
    moves = []
    while len(moves) < length and (legal := position.legal_moves()):
        move = rng.choice(legal)
        moves.append(move)
        position = position.play(move)
    return moves


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=100, help="mid-game positions hinted")
    ap.add_argument("--records", type=int, default=20, help="records analysed")
    ap.add_argument("--fair", type=int, default=5, help="openings rated fairly")
    ap.add_argument("--scheme", default="app", help="scoring scheme of hint and analyze")
    args = ap.parse_args()
    warm_up("app")
    warm_up(args.scheme)
    fair_hint(View.of(Position(Deal.from_number(0), EASY)), 20, 0, 5)  # load its kernel

    print(f"scheme {args.scheme}, one thread, warm")
    for rules, how in ((EASY, "best"), (CLASSIC, "best"), (EASY, "random"),
                       (CLASSIC, "random")):
        if how == "best":
            positions = [mid_game(n, rules) for n in range(args.deals)]
        else:
            positions = [Position.after(Deal.from_number(n), rules, record(n, rules, 20))
                         for n in range(args.deals)]
        per_move, total_moves, started = [], 0, time.process_time()
        for position in positions:
            t = time.process_time()
            h = hint(position, args.scheme)
            per_move.append((time.process_time() - t) * 1000 / max(1, len(h.moves)))
            total_moves += len(h.moves)
        seconds = time.process_time() - started
        where = "halfway along the best line" if how == "best" else "after 20 random moves"
        print(f"{rules.name:8} hint of {args.deals} positions {where}: "
              f"{seconds * 1000 / total_moves:.2f} ms per legal move overall "
              f"(median {statistics.median(per_move):.2f}, max {max(per_move):.2f}; "
              f"{total_moves / args.deals:.1f} legal moves a position)")

    for rules in (EASY, CLASSIC):
        records = [record(n, rules, 45) for n in range(args.records)]
        times = []
        for n, moves in enumerate(records):
            t = time.process_time()
            analyze(Deal.from_number(n), rules, moves, args.scheme)
            times.append(time.process_time() - t)
        mean_len = statistics.mean(len(m) for m in records)
        print(f"{rules.name:8} analyze of {args.records} records ({mean_len:.0f} moves on "
              f"average): mean {statistics.mean(times):.3f} s, max {max(times):.3f} s")

    for rules in (EASY, CLASSIC):
        for score_samples in (0, 100):
            times, walls, shares = [], [], []
            for n in range(args.fair):
                view = View.of(Position(Deal.from_number(n), rules))
                t, w = time.process_time(), time.perf_counter()
                rating = fair_hint(view, 1000, seed=n, score_samples=score_samples)
                times.append(time.process_time() - t)
                walls.append(time.perf_counter() - w)
                shares.append(rating.moves[0].share)
            what = "shares only" if not score_samples else f"+ mean scores of {score_samples}"
            print(f"{rules.name:8} fair hint at the opening, 1,000 samples, {what}: mean "
                  f"{statistics.mean(times):.2f} s, max {max(times):.2f} s CPU (wall "
                  f"{statistics.mean(walls):.2f} s; best share {statistics.mean(shares):.1%} "
                  "on average)")


if __name__ == "__main__":
    main()
