"""Seconds the review of a whole game takes once it ends, with the chances the advice
computed during play kept, and without them.

    python benchmarks/bench_review.py                  # 1 game of about 50 moves, 1000 samples
    python benchmarks/bench_review.py --games 3 --samples 200

A game is played through a coach session (the one the terminal and the page share) from
the cards seen at its opening, following the advice every turn (each card that turns up
said), up to ``--moves`` moves; then ``session.review()``, the judgement the end shows,
is timed twice: as it comes (the advice's chances kept by ``analysis.chances``, what the
page and the coach do) and with them forgotten (what a review of a record from another
process costs). A benchmark, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from tripeaks_solver.analysis.chances import forget_chances
from tripeaks_solver.games.session import CoachSession
from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.observed import Observed, Start, seen_places
from tripeaks_solver.model.rules import EASY


def play_game(number: int, samples: int, most: int, folder: Path) -> tuple[CoachSession, float]:
    deal = Deal.from_number(number)
    seen = " ".join(deal.cards[p].token for p in seen_places(EASY))
    session = CoachSession.new(Start.of_seen(seen, EASY), samples=samples, seed=number,
                               record=folder / f"game-{number}.txt")
    advising = 0.0
    for _ in range(most):
        if session.status.value != "in play":
            break
        t = time.perf_counter()
        advice = session.advise()
        advising += time.perf_counter() - t
        if advice.recommended is None:
            break
        session.play(Observed(advice.recommended))
        while session.pending is not None:
            session.answer(deal.cards[session.need[len(session.said)]].token)
    return session, advising


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1, help="games (1)")
    parser.add_argument("--samples", type=int, default=1000, help="the advice's samples (1000)")
    parser.add_argument("--moves", type=int, default=50, help="moves a game at most (50)")
    parser.add_argument("--first", type=int, default=3, help="the first deal's number (3)")
    args = parser.parse_args()
    print(f"review at the end, samples {args.samples}, Easy, {args.games} game(s)")
    with tempfile.TemporaryDirectory() as tmp:
        for number in range(args.first, args.first + args.games):
            session, advising = play_game(number, args.samples, args.moves, Path(tmp))
            try:
                moves = len(session.game.record)
                t = time.perf_counter()
                review = session.review()
                kept = time.perf_counter() - t
                forget_chances()
                t = time.perf_counter()
                again = session.review()
                cold = time.perf_counter() - t
            finally:
                session.close()
            assert review is not None and again is not None
            same = review.rows() == again.rows()
            print(f"  deal {number}: {moves} moves, {session.result}; advice {advising:.1f} s "
                  f"in all; review {kept:.2f} s with the advice's chances kept, {cold:.2f} s "
                  f"without (same rows: {same})")


if __name__ == "__main__":
    main()
