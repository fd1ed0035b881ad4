"""Seconds a coach turn's advice takes: the fair:N recommendation with the shares shown.

    python benchmarks/bench_coach.py                    # 20 games, samples 1000
    python benchmarks/bench_coach.py --games 50 --samples 200

Each game is played from its opening as the coach would follow it (the recommended move
each turn, every card it shows learnt), for up to ``--moves`` moves; every turn's advice
is timed (what ``coach`` computes before it prints the board: ``hints.fair_advice`` on
what the player has seen). Prints the mean, the 95th percentile and the slowest turn,
early in the game (the first 10 moves: most cards unknown) and later. A benchmark, not
a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import time

from tripeaks_solver.analysis.fair import View
from tripeaks_solver.analysis.hints import fair_advice
from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.position import Position
from tripeaks_solver.model.rules import EASY


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games (20)")
    parser.add_argument("--samples", type=int, default=1000, help="the coach's --samples (1000)")
    parser.add_argument("--moves", type=int, default=40, help="moves a game at most (40)")
    args = parser.parse_args()
    fair_advice(View.of(Position(Deal.from_number(0), EASY)), 10, 0, 0)  # compile, load
    early: list[float] = []
    later: list[float] = []
    for number in range(args.games):
        position = Position(Deal.from_number(number), EASY)
        known = frozenset(position.game().visible_places())
        for turn in range(args.moves):
            if not position.legal_moves():
                break
            t = time.perf_counter()
            advice = fair_advice(View.of(position, known), args.samples, number, 0)
            (early if turn < 10 else later).append(time.perf_counter() - t)
            position = position.play(advice.recommended)
            known |= position.game().visible_places()
    print(f"coach advice, fair:{args.samples}, Easy, {args.games} games")
    for name, times in (("moves 1-10", early), (f"moves 11-{args.moves}", later)):
        if times:
            ordered = sorted(times)
            p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
            print(f"  {name:<12} {len(times):>5} turns  mean {statistics.mean(times):.3f} s  "
                  f"p95 {p95:.3f} s  slowest {ordered[-1]:.3f} s")


if __name__ == "__main__":
    main()
