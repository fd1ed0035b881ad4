"""The enums that name the rule sets, the scoring schemes and a review's marks in the
code (model/rules.py RuleSet, model/scoring.py Scheme, analysis/hints.py Mark) leave the
package as the plain strings they replaced:
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
from tripeaks_solver.model.scoring import RUN_SCHEMES, SCHEMES, Scheme, check_scheme


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


def test_a_scheme_is_the_name_a_user_types() -> None:
    assert SCHEMES == ("app", "original", "cards-left", "pysol") == tuple(Scheme)
    assert {type(n) for n in SCHEMES} == {str} and RUN_SCHEMES == ("original", "pysol")
    assert check_scheme("pysol") is Scheme.PYSOL and check_scheme(Scheme.APP) is Scheme.APP
    with pytest.raises(tp.InputError, match="unknown scoring 'PySol'"):
        check_scheme("PySol")
    assert json.dumps([Scheme.CARDS_LEFT]) == '["cards-left"]' and f"{Scheme.APP}" == "app"
    # The API takes the enum or its name alike; what it gives back holds plain strings.
    by_name = tp.solve("TP1-E-AAAAAAD", scoring="original")
    by_enum = tp.solve("TP1-E-AAAAAAD", scoring=tp.Scheme.ORIGINAL)  # at the top level too
    assert by_name.scheme is by_enum.scheme is Scheme.ORIGINAL and tp.Scheme is Scheme
    assert by_name.best_score == by_enum.best_score and by_name.moves == by_enum.moves
    out = by_enum.to_dict()
    assert type(out["scoring"]) is str and out["scoring"] == "original"
    assert repr(by_enum).startswith("<Solution TP1-E-AAAAAAD, Easy rules, original scoring:")
    hinted = tp.hint("TP1-E-AAAAAAD", "8h", scoring="cards-left").to_dict()
    assert type(hinted["scoring"]) is str and hinted["scoring"] == "cards-left"
    row = next(tp.batch(0, 1, "easy", scoring=Scheme.CARDS_LEFT))
    assert type(row["scoring"]) is str and repr(row["scoring"]) == "'cards-left'"
    with pytest.raises(tp.InputError, match="unknown scoring 'points'"):
        tp.solve("TP1-E-AAAAAAD", scoring="points")
    with pytest.raises(tp.InputError, match="unknown scoring"):
        tp.peek("TP1-E-AAAAAAD", scoring="points")
    shown = CliRunner().invoke(cli, ["solve", "TP1-E-AAAAAAD", "--scoring", "pysol", "--json"])
    assert shown.exit_code == 0 and {o["scoring"] for o in json.loads(shown.output)} == {"pysol"}


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
