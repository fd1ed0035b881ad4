"""data/deals-0-9999.csv, all of it: every row's answers are what the batch says today.

The answer columns (winnable, min_draws, best_score, max_removed) do not depend on how
the search runs; ``states`` and ``seconds`` do, and are not compared. The default run
re-solves a sample of rows in test_batch.py; this slow test re-solves all 20,000 the
way ``batch --rules both`` does (Classic's search bounded by Easy's optimum), and
test_speed_proof.py solves each on its own.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from tripeaks_solver.batch.run import solve_chunk

DATA = Path(__file__).resolve().parent.parent / "data" / "deals-0-9999.csv"
ANSWERS = ("winnable", "min_draws", "best_score", "max_removed")


def rows() -> list[dict[str, str]]:
    with open(DATA, newline="") as f:
        return list(csv.DictReader(f))


def csv_answers(row: dict[str, str]) -> tuple:
    """The answer columns as solve() gives them (an empty min_draws is None)."""
    assert row["winnable"] in ("true", "false"), row
    return (row["winnable"] == "true",
            int(row["min_draws"]) if row["min_draws"] else None,
            int(row["best_score"]), int(row["max_removed"]))


@pytest.mark.slow
def test_every_row_has_the_answers_of_the_batch() -> None:
    table = rows()
    assert [(r["deal"], r["rules"]) for r in table] == [
        (str(n), name) for n in range(10000) for name in ("easy", "classic")]
    assert {(r["variant"], r["scoring"]) for r in table} == {("", "app")}
    solved = solve_chunk([(n, ("easy", "classic"), None) for n in range(10000)], True)
    wrong = []
    for row, new in zip(table, solved, strict=True):
        got = (new.winnable, new.min_draws, new.best_score, new.max_removed)
        assert (new.deal, new.rules) == (int(row["deal"]), row["rules"])
        if got != csv_answers(row):
            wrong.append(f"{row['code']}: data {csv_answers(row)}, batch {got}")
    assert wrong == [], f"{len(wrong)} rows differ, first: {wrong[:10]}"
