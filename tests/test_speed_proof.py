"""Proof that the faster optimum changed no answer (slow: ``pytest -m slow``).

- all 20,000 rows of data/deals-0-9999.csv (winnable, min_draws, best_score,
  max_removed) are reproduced;
- on random mid-game positions under Easy, Classic and the options (empty waste, joker,
  draw when stuck), the kernels agree with the reference kernels — those of commit
  ``REFERENCE``, before the speed-up, read from git — and Bellman consistency holds:
  the best from a position is the best after one of its legal moves, and a position is
  winnable exactly when some move keeps it winnable;
- the kernels run as plain Python (``NUMBA_DISABLE_JIT=1``) give the same answers.
"""

from __future__ import annotations

import csv
import importlib.util
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from tripeaks_solver.kernels import optimum, shared, win
from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.position import Position
from tripeaks_solver.model.rules import CLASSIC, EASY, Rules
from tripeaks_solver.solver import solve as solver
from tripeaks_solver.solver.solve import solve

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = "a55f2a3"  # the kernels before the faster optimum
# This checkout's kernels, under the names of the reference's single module.
kernels = SimpleNamespace(Board=shared.Board, Cards=shared.Cards, RuleMasks=shared.RuleMasks,
                          Scratch=shared.Scratch, Goal=shared.Goal, MAX_DEPTH=shared.MAX_DEPTH,
                          _dfs=win._dfs, _optimal=optimum._optimal)
VARIANTS = (
    EASY, CLASSIC, EASY.with_options(empty_waste=True), CLASSIC.with_options(empty_waste=True),
    EASY.with_options(joker=True), CLASSIC.with_options(joker=True),
    EASY.with_options(draw_when_stuck=True), CLASSIC.with_options(draw_when_stuck=True),
)
pytestmark = pytest.mark.slow


def test_every_row_of_the_published_table() -> None:
    with open(ROOT / "data" / "deals-0-9999.csv", encoding="utf-8") as table:
        rows = list(csv.DictReader(table))
    assert len(rows) == 20_000
    bad = []
    for row in rows:
        assert row["variant"] == "" and row["scoring"] == "app"
        got = solve(Deal.from_number(int(row["deal"])), Rules.named(row["rules"]))
        want = (row["winnable"] == "true", row["min_draws"] or None, int(row["best_score"]),
                int(row["max_removed"]))
        have = (got.winnable, None if got.min_draws is None else str(got.min_draws),
                got.best_score, got.max_removed)
        if have != want:
            bad.append((row["code"], have, want))
    assert not bad, bad[:10]


# --- positions against the reference kernels ---------------------------------------------
@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The kernels of commit REFERENCE as a module of the package's kernels (their own numba
    cache). Back then they sat beside the model's modules: their imports now point
    into model/."""
    source = subprocess.run(["git", "show", f"{REFERENCE}:tripeaks_solver/kernels.py"],
                            cwd=ROOT, check=True, capture_output=True, text=True).stdout
    for module in ("geometry", "scoring"):
        assert f"from .{module} import" in source
        source = source.replace(f"from .{module} import", f"from ..model.{module} import")
    path = tmp_path_factory.mktemp("reference") / "reference_kernels.py"
    path.write_text(source, encoding="utf-8")
    name = "tripeaks_solver.kernels._reference_kernels"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def positions(count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        rules = VARIANTS[len(out) % len(VARIANTS)]
        pos = Position(Deal.from_number(rng.randrange(10**6), rules.joker), rules)
        for _ in range(rng.randrange(0, 40)):
            moves = pos.legal_moves()
            if not moves:
                break
            pos = pos.play(rng.choice(moves))
        if pos.legal_moves():
            out.append(pos)
    return out


def kernel_answers(module, position: Position) -> tuple:
    """(winnable by the win search, then per most_removed: min_draws, max_removed,
    best key) from ``module``'s kernels, on tuples of its own types."""
    # The reference's Board and Scratch have fewer fields (no ``beyond``, no ``low``):
    # the first ones are the same.
    bd = module.Board(*solver.board()[:len(module.Board._fields)])
    cards = module.Cards(*solver.cards_at(position))
    masks = module.RuleMasks(*solver.rule_masks(position.rules)[:len(module.RuleMasks._fields)])
    ws = module.Scratch(*solver.scratch.__wrapped__()[:len(module.Scratch._fields)])
    path = np.empty(kernels.MAX_DEPTH, dtype=np.int64)
    found = module._dfs(bd, cards, masks, len(cards.stock), ws, path)[0]
    out = [bool(found)]
    for most_removed in (False, True):
        # The reference's _optimal takes most_removed alone, ours a Goal with a floor.
        goal = kernels.Goal(most_removed, 0) if module is kernels else most_removed
        draws, _, max_removed, key, _ = module._optimal(bd, cards, masks, goal, ws, path)
        out += [int(draws), int(max_removed), int(key)]
        assert not ws.seen.any()
    return tuple(out)


def test_positions_agree_with_the_reference_kernels(reference) -> None:
    bad = []
    cases = positions(240, seed=21)
    for pos in cases:
        new, old = kernel_answers(kernels, pos), kernel_answers(reference, pos)
        if new != old:
            bad.append((pos.deal.number, str(pos.rules), [m.token for m in pos.record], new, old))
    assert not bad, bad[:5]
    assert {p.rules for p in cases} == set(VARIANTS)


def test_bellman_consistency_on_positions() -> None:
    bad = []
    for pos in positions(120, seed=22):
        moves = pos.legal_moves()
        for scheme in ("app", "cards-left"):
            here = solve(pos, scheme=scheme)
            after = [solve(pos.play(m), scheme=scheme) for m in moves]
            if scheme == "app":
                best = max(a.best_score for a in after)
                mine = here.best_score
            else:
                best = min((a.best_score, a.best_moves) for a in after)
                mine = (here.best_score, here.best_moves)
            if best != mine or any(a.winnable for a in after) != here.winnable:
                bad.append((pos.deal.number, str(pos.rules), scheme, mine, best))
        quick = solve(pos, optimal=False).winnable
        if quick != any(solve(pos.play(m), optimal=False).winnable for m in moves):
            bad.append((pos.deal.number, str(pos.rules), "winnability"))
    assert not bad, bad[:5]


# --- the kernels as plain Python -----------------------------------------------------------
NO_JIT_SCRIPT = """
import json, sys
from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.rules import Rules
from tripeaks_solver.solver.solve import solve
out = []
for number, name in json.loads(sys.argv[1]):
    for optimal in (False, True):
        s = solve(Deal.from_number(number), Rules.named(name), optimal=optimal)
        out.append([s.winnable, s.min_draws, s.best_score, s.max_removed, s.tokens])
print(json.dumps(out))
"""
NO_JIT_DEALS = [(2, "easy"), (2, "classic"), (1, "easy"), (8, "classic")]  # 8: lost


def test_plain_python_kernels_give_the_same_answers() -> None:
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", NO_JIT_SCRIPT, json.dumps(NO_JIT_DEALS)],
                          cwd=ROOT, env=env, check=True, capture_output=True, text=True)
    plain = json.loads(done.stdout)
    jitted = []
    for number, name in NO_JIT_DEALS:
        for optimal in (False, True):
            s = solve(Deal.from_number(number), Rules.named(name), optimal=optimal)
            jitted.append([s.winnable, s.min_draws, s.best_score, s.max_removed, s.tokens])
    assert plain == jitted
    assert any(not row[0] for row in plain) and any(row[0] for row in plain)
