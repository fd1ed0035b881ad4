"""What a user's type checker reads of the API: CI checks this file with
``mypy --strict`` (.ci/run). Each ``assert_type`` fails the check when a result reads as
``Any`` or ``object`` or as another type. Never run, only checked."""

from __future__ import annotations

from collections.abc import Iterator
from typing import assert_type

import tripeaks_solver as tp
from tripeaks_solver.model.moves import Move
from tripeaks_solver.model.scoring import Scheme


def used_as_a_user_would() -> None:
    deal = tp.Deal.from_code("TP1-E-AAAAAAD")
    assert_type(deal, tp.Deal)
    solution = tp.solve(deal, "easy")
    assert_type(solution, tp.Solution)
    assert_type(solution.winnable, bool)
    assert_type(solution.best_score, int | None)
    assert_type(solution.moves, tuple[Move, ...])
    assert_type(solution.rules, tp.Rules)
    assert_type(tp.solve("TP1-C-AAAAAAB", tp.CLASSIC, scoring="original"), tp.Solution)
    assert_type(tp.solve(deal, scoring=Scheme.PYSOL).scheme, Scheme)  # the enum or its name
    assert_type(tp.solve(deal, scoring=tp.Scheme.APP).scheme, tp.Scheme)  # at the top too
    assert_type(tp.hint(deal, scoring=Scheme.CARDS_LEFT, fair=True), tp.HintReport)
    game = tp.Game(deal, tp.EASY)
    assert_type(game.score_under("app") + game.score_under(Scheme.PYSOL), int)
    assert_type(game.score_under(Scheme.CARDS_LEFT), tuple[int, int])
    assert_type(tp.hint("TP1-E-AAAAAAD", "8h d"), tp.HintReport)
    assert_type(tp.analyze(12345, ["8h", "d"]), tp.AnalysisReport)
    assert_type(tp.peek("TP1-E-AAAAAAD"), tp.PeekReport)
    assert_type(tp.play(0, "greedy"), tp.PlayResult)
    assert_type(tp.win_probability("Jd 4s Ac 8h 4c 2h 8c 6h 8d 8s 9c"), tp.WinShare)
    assert_type(tp.difficulty(0), tp.Difficulty)
    assert_type(tp.batch(0, 10), Iterator[dict[str, int | float | bool | str | None]])
    assert_type(tp.EASY, tp.Rules)
    assert_type(tp.parse_card("Kc"), int)
    assert_type(tp.Card.parse("Kc"), tp.Card)
    try:
        tp.solve("not a deal")
    except tp.InputError as exc:
        assert_type(exc, tp.InputError)
