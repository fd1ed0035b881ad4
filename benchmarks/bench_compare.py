"""This checkout's kernels against those of an older commit, side by side: winnability
and the optimum (app scoring) in ms a deal per rule set, the states a deal, and the
ratio new / old. The machine is shared, so only ratios measured together mean much:
old and new run in turn, each in its own process (two kernel modules in one process
slowed whichever ran second), and each figure is the best of ``--rounds``.

    python benchmarks/bench_compare.py REV [--deals 1000] [--repeat 3] [--rounds 2] [--lost]

REV is a git revision from 7a61dbe on (its package is checked out into a temporary
git worktree). Times are CPU time, the fastest of ``--repeat`` per deal. A benchmark,
not a test: it asserts nothing, but it says when the two disagree on an answer.
``--lost`` times only the optimum of the deals lost under each rule set (the sweep's
work), so that a change there is not lost in the noise of the rest.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODES = [(rules, optimal) for rules in ("easy", "classic") for optimal in (False, True)]


def measure(root: str, deals: int, repeat: int, lost: bool) -> None:
    """Worker: time the kernels of the package at ``root``; print JSON to stdout."""
    sys.path.insert(0, root)
    import time

    import numpy as np

    from tripeaks_solver import Deal, Rules

    kernels, solver, Position = checkout_modules()
    assert kernels.__file__.startswith(root), kernels.__file__
    out = {}
    for name, optimal in MODES:
        if lost and not optimal:
            continue
        rules = Rules.named(name)
        bd, masks, ws = solver.board(), solver.rule_masks(rules), solver.scratch()
        path = np.empty(kernels.MAX_DEPTH, dtype=np.int64)
        all_cards = [solver.cards_at(Position(Deal.from_number(n), rules))
                     for n in range(deals)]
        inputs = (kernels, bd, masks, ws, path, optimal)
        solve_one(inputs, all_cards[0])  # load or compile before timing
        if lost:
            all_cards = [c for c in all_cards if solve_one(inputs, c)[0][0] < 0]
        seconds, states, answers = 0.0, 0, []
        for cards in all_cards:
            best = None
            for _ in range(repeat):
                start = time.process_time()
                answer, n = solve_one(inputs, cards)
                took = time.process_time() - start
                best = took if best is None else min(best, took)
            seconds += best
            states += n
            answers.append(answer)
        out[f"{name} {optimal}"] = [seconds / len(all_cards), states / len(all_cards), answers]
    json.dump(out, sys.stdout)


def checkout_modules():
    """(kernels, solver front, Position) of the package on sys.path, whatever its layout:
    the kernels in folders (kernels/shared.py, win.py, optimum.py), in one module
    (kernels/search.py, or kernels.py beside solver.py before the folders)."""
    import importlib
    from types import SimpleNamespace

    try:
        from tripeaks_solver.kernels import optimum, shared, win
    except ImportError:
        try:
            kernels = importlib.import_module("tripeaks_solver.kernels.search")
        except ImportError:
            kernels = importlib.import_module("tripeaks_solver.kernels")
    else:
        kernels = SimpleNamespace(Goal=shared.Goal, MAX_DEPTH=shared.MAX_DEPTH, _dfs=win._dfs,
                                  _optimal=optimum._optimal, __file__=shared.__file__)
    try:
        solver = importlib.import_module("tripeaks_solver.solver.solve")
        position = importlib.import_module("tripeaks_solver.model.position")
    except ImportError:
        solver = importlib.import_module("tripeaks_solver.solver")
        position = importlib.import_module("tripeaks_solver.position")
    return kernels, solver, position.Position


def solve_one(inputs, cards):
    """(answer, states) of one deal: winnability, or the optimum's answers."""
    kernels, bd, masks, ws, path, optimal = inputs
    if optimal:
        # Kernels from cd1565d on take a floor on the draws (0: none known); later ones
        # take it with most_removed as a Goal.
        code = getattr(kernels._optimal, "py_func", kernels._optimal).__code__
        if hasattr(kernels, "Goal"):
            args = (kernels.Goal(False, 0), ws, path)
        else:
            args = (False, ws, path, 0) if code.co_argcount > 6 else (False, ws, path)
        draws, states, max_removed, key, _ = kernels._optimal(bd, cards, masks, *args)
        return [int(draws), int(max_removed), int(key)], int(states)
    found, _, states = kernels._dfs(bd, cards, masks, len(cards.stock), ws, path)
    return bool(found), int(states)


def run_worker(root: Path, args) -> dict:
    done = subprocess.run([sys.executable, __file__, "--worker", str(root), "--deals",
                           str(args.deals), "--repeat", str(args.repeat)]
                          + (["--lost"] if args.lost else []),
                          check=False, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"bench_compare: the kernels at {root} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rev", nargs="?", help="the git revision to compare with, e.g. 7a61dbe")
    ap.add_argument("--deals", type=int, default=1000, help="deals 0 … N-1 (default 1000)")
    ap.add_argument("--repeat", type=int, default=3, help="timings per deal, fastest kept")
    ap.add_argument("--rounds", type=int, default=2, help="old and new in turn, best kept")
    ap.add_argument("--lost", action="store_true",
                    help="only the optimum of the deals lost under each rule set")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.deals < 1 or args.repeat < 1 or args.rounds < 1:
        ap.error("--deals, --repeat and --rounds must be at least 1")
    if args.worker:
        measure(args.worker, args.deals, args.repeat, args.lost)
        return
    if not args.rev:
        ap.error("give the revision to compare with")
    with tempfile.TemporaryDirectory() as folder:
        old_root = Path(folder) / "old"
        added = subprocess.run(["git", "worktree", "add", "--detach", str(old_root), args.rev],
                               check=False, cwd=ROOT, capture_output=True, text=True)
        if added.returncode != 0:
            sys.exit(f"bench_compare: cannot check out {args.rev!r}: {added.stderr.strip()}")
        try:
            best: list[dict] = [{}, {}]
            for _ in range(args.rounds):
                for k, root in enumerate((old_root, ROOT)):
                    for mode, (seconds, states, answers) in run_worker(root, args).items():
                        if mode not in best[k] or seconds < best[k][mode][0]:
                            best[k][mode] = (seconds, states, answers)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(old_root)],
                           check=False, cwd=ROOT, capture_output=True)
    which = "the lost deals of " if args.lost else ""
    print(f"{which}deals 0–{args.deals - 1}, one thread, CPU ms a deal (fastest of "
          f"{args.repeat} a deal, best of {args.rounds} rounds), {args.rev} against this "
          "checkout")
    print(f"{'rules':8} {'mode':12} {'old ms':>8} {'new ms':>8} {'new/old':>8} "
          f"{'old states':>11} {'new states':>11}")
    for name, optimal in MODES:
        key = f"{name} {optimal}"
        if key not in best[0]:
            continue
        (old_s, old_n, old_a), (new_s, new_n, new_a) = best[0][key], best[1][key]
        differ = sum(a != b for a, b in zip(old_a, new_a, strict=True))
        mode = "optimum" if optimal else "winnability"
        print(f"{name:8} {mode:12} {1000 * old_s:8.3f} {1000 * new_s:8.3f} "
              f"{new_s / old_s:8.2f} {old_n:11.0f} {new_n:11.0f}"
              + (f"  ANSWERS DIFFER on {differ} deals" if differ else ""))


if __name__ == "__main__":
    main()
