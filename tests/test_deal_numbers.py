"""Deal numbers wherever a game code goes: ``tripeaks-solve 1132`` solves TP1-E-AAAABRO,
and ``deal``, ``hint``, ``analyze``, ``replay``, ``peek``, ``play``, ``coach``, standard
input and the coach's start prompt read a number as the code of that deal under the rules
chosen; a number beyond the last deal is one line."""

from __future__ import annotations

import io
import json
import sys

import pytest
from cli_run import assert_one_line_error, run

from tripeaks_solver.errors import InputError
from tripeaks_solver.model.codes import GameCode
from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.rules import CLASSIC, EASY


def test_a_deal_number_is_solved_as_its_code(capsys):
    code, out, err = run(capsys, "1132", "--no-solution")
    assert code == 0, err
    _, by_code, _ = run(capsys, "TP1-E-AAAABRO", "--no-solution")
    assert out.splitlines()[0] == "TP1-E-AAAABRO  (deal 1132)"
    strip = [line for line in out.splitlines() if not line.startswith("Searched")]
    assert strip == [line for line in by_code.splitlines() if not line.startswith("Searched")]
    _, js, _ = run(capsys, "1132", "--json", "--no-solution")
    assert {(r["code"], r["deal"], r["source"]) for r in json.loads(js)} == {
        ("TP1-E-AAAABRO", 1132, "TP1-E-AAAABRO")}
    # Classic when asked: its code says so
    _, js, _ = run(capsys, "1132", "--json", "--no-solution", "--rules", "classic")
    (row,) = json.loads(js)
    assert (row["code"], row["deal"], row["rules"]) == ("TP1-C-AAAABRO", 1132, "classic")



def test_deal_numbers_read_from_standard_input(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("3 1132  # two deals\n"))
    code, out, err = run(capsys, "-", "--json", "--no-solution", "--rules", "easy")
    assert code == 0, err
    assert [(r["code"], r["deal"]) for r in json.loads(out)] == [("TP1-E-AAAAAAD", 3),
                                                                 ("TP1-E-AAAABRO", 1132)]



def test_deal_731_is_dealt_as_its_code(capsys):
    assert GameCode.parse("TP1-E-AAAABCD").number == 731
    code, out, err = run(capsys, "deal", "731")
    assert code == 0, err
    assert out == run(capsys, "deal", "TP1-E-AAAABCD")[1]
    assert out.splitlines()[0] == "TP1-E-AAAABCD  (deal 731, Easy rules)"
    _, js, _ = run(capsys, "deal", "731", "--json", "--rules", "classic")
    doc = json.loads(js)
    assert (doc["code"], doc["deal"], doc["rules"]) == ("TP1-C-AAAABCD", 731, "classic")



@pytest.mark.parametrize("command", ["hint", "analyze", "replay", "peek"])
def test_a_deal_number_starts_a_game(capsys, command):
    # peek's undos; analyze judges as the player saw it, over guessed games: its seed
    extra = {"peek": ["--undo-limit", "2"], "analyze": ["--seed", "1"]}.get(command, [])
    code, out, err = run(capsys, command, "3", "8h", *extra)
    assert code == 0, err
    assert out == run(capsys, command, "TP1-E-AAAAAAD", "8h", *extra)[1]
    assert out.splitlines()[0].startswith("TP1-E-AAAAAAD  (deal 3, Easy rules)")
    code, js, err = run(capsys, command, "3", "8h", *extra, "--json")
    doc = json.loads(js)
    assert (doc["code"], doc["deal"]) == ("TP1-E-AAAAAAD", 3)
    code, js, err = run(capsys, command, "3", "--rules", "classic", *extra, "--json")
    doc = json.loads(js)
    assert (doc["code"], doc["deal"], doc["rules"]) == ("TP1-C-AAAAAAD", 3, "classic")



def test_play_and_coach_take_a_deal_number(capsys, monkeypatch, tmp_path):
    code, out, err = run(capsys, "play", "3")
    assert code == 0, err
    assert out == run(capsys, "play", "TP1-E-AAAAAAD")[1]
    _, js, _ = run(capsys, "play", "3", "--json")
    assert (json.loads(js)["code"], json.loads(js)["deal"]) == ("TP1-E-AAAAAAD", 3)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(sys, "stdin", io.StringIO("8h\nq\n"))
    record = tmp_path / "g.txt"
    code, out, err = run(capsys, "coach", "3", "--no-analysis", "--record", str(record))
    assert code == 0, err
    assert "start: code TP1-E-AAAAAAD\n" in record.read_text(encoding="utf-8")
    assert "TP1-E-AAAAAAD" in out



@pytest.mark.parametrize("word, needle", [("8031810176", "beyond the last deal"),
                                          ("99999999999999", "beyond 26^7")])
def test_a_deal_number_out_of_range_is_one_line(capsys, word, needle):
    for args in ((word,), ("deal", word), ("hint", word)):
        code, out, err = run(capsys, *args)
        assert_one_line_error(code, err, needle)
        assert out == ""



@pytest.mark.parametrize(("rules", "code"), [(EASY, "TP1-E-AAAAAAD"), (CLASSIC, "TP1-C-AAAAAAD")])
def test_a_start_typed_as_a_deal_number_is_its_code(rules, code):
    """The coach's start prompt (and the page's pasted start) takes a deal number, named
    by its code under the rules chosen."""
    from tripeaks_solver.games.records import start_from_text

    start = start_from_text(" 3 ", rules, lambda gc: rules)
    assert (start.kind, start.text, start.rules) == ("code", code, rules)
    assert start.deal == Deal.from_number(3)
    with pytest.raises(InputError, match="beyond the last deal"):
        start_from_text(str(26 ** 7), rules, lambda gc: rules)
