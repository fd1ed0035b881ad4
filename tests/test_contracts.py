"""The enums that name the rule sets and a review's marks in the code (model/rules.py
RuleSet, analysis/hints.py Mark) leave the package as the plain strings they replaced:
a user's rows, objects and JSON hold no enum. The limits (limits.py) are those the
commands enforce."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import tripeaks_solver as tp
from tripeaks_solver import limits
from tripeaks_solver.analysis.hints import EXACT_MARKS, MARKS, Mark
from tripeaks_solver.cli import cli
from tripeaks_solver.model.rules import RULE_ORDER, RULE_SETS, RuleSet, select_rules


def test_a_rule_set_is_its_name_everywhere_a_name_went() -> None:
    assert tp.EASY.name == RuleSet.EASY and type(tp.CLASSIC.name) is str
    assert RULE_SETS["classic"] is tp.CLASSIC and RULE_ORDER == ("easy", "classic")
    assert tp.Rules.named(" Classic ").name == "classic"
    assert json.dumps({"rules": tp.EASY.name}) == '{"rules": "easy"}'
    assert f"{tp.CLASSIC.name}" == "classic" and str(tp.CLASSIC) == "Classic"
    assert [r.name for r in select_rules("both")] == ["easy", "classic"]
    assert [r.name for r in select_rules("code", "classic")] == [RuleSet.CLASSIC]
    assert {type(n) for n in RULE_ORDER} == {type(k) for k in RULE_SETS} == {str}
    row = next(tp.batch(0, 1, "classic"))
    assert type(row["rules"]) is str and repr(row["rules"]) == "'classic'"


def test_the_marks_are_the_strings_printed() -> None:
    assert EXACT_MARKS == ("", "?", "??", "!") and Mark("??") is Mark.THROWS_WIN
    assert MARKS == ("", "?!", "?", "??")  # the judgement's, as it could be seen then
    assert json.dumps([Mark.ONLY_KEEPER, Mark.NONE]) == '["!", ""]'
    # A game with a thrown win: the review's rows carry Marks, its JSON plain marks.
    report = tp.analyze("TP1-E-AAAAAAD", "d d d d d d d d d d d d d d d d d d d d d d d",
                        samples=30, seed=1)
    marks = [m.exact_mark for m in report.review.moves]
    assert {type(m) for m in marks} == {str} and Mark.THROWS_WIN in marks
    rows = json.loads(json.dumps(report.to_dict()))["moves"]
    assert {row["exact_mark"] for row in rows} <= set(EXACT_MARKS)
    assert {row["mark"] for row in rows} <= set(MARKS)


@pytest.mark.parametrize("args, most", [
    (["analyze", "TP1-E-AAAAAAD", "8h", "--fair", "--samples"], limits.MAX_SAMPLES),
    (["solve", "Jd 4s Ac 8h 4c 2h 8c 6h 8d 8s 9c", "--samples"], limits.MAX_SAMPLES),
])
def test_the_commands_refuse_past_the_shared_limit(args: list[str], most: int) -> None:
    over = CliRunner().invoke(cli, [*args, str(most + 1)])
    assert over.exit_code == 2 and f"{most + 1}" in over.output
