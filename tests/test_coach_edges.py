"""Rough edges of ``coach``, ``peek`` and records found by trying to break them: each
runs the real entry point in the test process, standard input given as bytes."""

from __future__ import annotations

import io
import json
import sys

import pytest
from cli_run import assert_one_line_error, run
from test_observed import seen_text

from tripeaks_solver.analysis.peek import Step
from tripeaks_solver.games.records import header, parse_record_file
from tripeaks_solver.games.turns import PeekTurn
from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.moves import Move
from tripeaks_solver.model.observed import Start
from tripeaks_solver.model.render import CLEARED
from tripeaks_solver.model.rules import EASY
from tripeaks_solver.solver.solve import solve

SEEN = seen_text(Deal.from_number(1), EASY)


def coach(capsys, monkeypatch, tmp_path, data: bytes, *args: str) -> tuple[int, str, str]:
    """``tripeaks-solve coach ARGS`` reading ``data`` from a pipe."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)  # a file made by mistake lands here
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="ascii"))
    return run(capsys, "coach", *args)


def record_text(*moves: str) -> str:
    start = Start.of_seen(SEEN, EASY)
    return header(start, "app") + "".join(m + "\n" for m in moves)


def test_a_line_that_is_not_utf8_gets_a_message_and_the_prompt(capsys, monkeypatch, tmp_path):
    path = tmp_path / "g.txt"
    code, out, err = coach(capsys, monkeypatch, tmp_path, "8\xff\nJs\nq\n".encode("latin-1"),
                           "--seen", SEEN, "--record", str(path), "--samples", "10",
                           "--no-analysis")
    assert code == 0 and "Traceback" not in err, err
    assert "not a move" in out
    assert [o.token for o in parse_record_file(path.read_text(), "g").moves] == ["Js"]


def test_suits_typed_as_symbols_are_read_whatever_the_locale(capsys, monkeypatch, tmp_path):
    path = tmp_path / "g.txt"
    code, _out, err = coach(capsys, monkeypatch, tmp_path, "J♠\nq\n".encode(),
                           "--seen", SEEN, "--record", str(path), "--samples", "10",
                           "--no-analysis")
    assert code == 0, err
    assert [o.token for o in parse_record_file(path.read_text(), "g").moves] == ["Js"]


def test_q_at_the_start_prompt_stops(capsys, monkeypatch, tmp_path):
    code, _out, err = coach(capsys, monkeypatch, tmp_path, b"q\n")
    assert code == 0 and err == "", err
    assert not (tmp_path / "data").exists()  # no record made for a game never begun


def test_a_record_on_standard_output_is_refused(capsys, monkeypatch, tmp_path):
    code, _out, err = coach(capsys, monkeypatch, tmp_path, b"q\n", "--seen", SEEN,
                           "--record", "-")
    assert_one_line_error(code, err, "--record -")


def test_continuing_takes_neither_rules_nor_scoring(capsys, monkeypatch, tmp_path):
    path = tmp_path / "g.txt"
    path.write_text(record_text("Js"))
    for option, named in (("--scoring=original", "--scoring"), ("--rules=classic", "--rules"),
                          ("--no-wrap", "--no-wrap"), ("--open", "--open")):
        code, _out, err = coach(capsys, monkeypatch, tmp_path, b"q\n", "--record", str(path),
                               option)
        assert_one_line_error(code, err, f"{named} does nothing here")
    assert path.read_text() == record_text("Js")  # untouched


def test_samples_do_nothing_when_the_coach_knows_every_card(capsys, monkeypatch, tmp_path):
    code, _out, err = coach(capsys, monkeypatch, tmp_path, b"q\n", "TP1-E-AAAAAAD",
                           "--samples", "10")
    assert_one_line_error(code, err, "--samples does nothing here", "--fair")
    code, _out, err = coach(capsys, monkeypatch, tmp_path, b"q\n", "TP1-E-AAAAAAD",
                           "--samples", "10", "--fair", "--no-analysis")
    assert code == 0, err


def test_a_last_line_cut_short_is_kept_as_a_comment(capsys, monkeypatch, tmp_path):
    path = tmp_path / "g.txt"
    path.write_text(record_text("Js") + "zz")
    code, _out, err = run(capsys, "replay", "--record", str(path))
    assert code == 0 and "left out" in err and "'zz'" in err, err
    assert path.read_text().endswith("Js\nzz")  # reading never writes
    code, _out, err = coach(capsys, monkeypatch, tmp_path, b"Th\nq\n", "--record", str(path),
                           "--samples", "10", "--no-analysis")
    assert code == 0 and "left out" in err, err
    text = path.read_text()
    assert text == record_text("Js") + "# cut short, left out: zz\nTh\n"
    assert [o.token for o in parse_record_file(text, "g").moves] == ["Js", "Th"]


def test_a_record_with_a_header_line_twice_is_refused(capsys, tmp_path):
    path = tmp_path / "g.txt"
    text = record_text("Js")
    path.write_text(text.replace("rules: easy\n", "rules: easy\nstart: code TP1-E-AAAAAAB\n"))
    code, _out, err = run(capsys, "replay", "--record", str(path))
    assert_one_line_error(code, err, "a second 'start' line")


def test_a_stopped_peek_says_how_far_back_it_began(capsys, monkeypatch, tmp_path):
    # The peek's first steps are draws: two of them, then p stops it.
    deal = Deal.from_number(1)
    cards = [deal.cards[29].token, deal.cards[30].token]
    data = f"d\n{cards[0]}\nd\n{cards[1]}\np\nq\n".encode()
    code, out, err = coach(capsys, monkeypatch, tmp_path, data, "--seen", SEEN, "--peek",
                           "--record", str(tmp_path / "g.txt"), "--samples", "10",
                           "--no-analysis")
    assert code == 0, err
    assert "Peek stopped. Undo 2 to go back to where it began" in out


def test_peek_on_a_finished_game_is_refused(capsys, tmp_path):
    from tripeaks_solver.solver.solve import solve

    line = [m.token for m in solve(Deal.from_number(3), EASY).moves]
    code, _out, err = run(capsys, "peek", "TP1-E-AAAAAAD", *line)
    assert_one_line_error(code, err, "the game is over (won)", "nothing to peek")


def test_peek_counts_moves_as_the_app_does(capsys):
    code, out, err = run(capsys, "peek", "TP1-E-AAAAAAD", "8h", "u", "d", "u")
    assert code == 0, err
    assert out.splitlines()[0].endswith("after 2 moves")
    assert out.splitlines()[1].startswith("Peek plan from here:")


def test_a_long_bad_token_is_not_echoed_whole(capsys):
    code, _out, err = run(capsys, "replay", "TP1-E-AAAAAAD", "x" * 5000)
    assert_one_line_error(code, err, exit_code=code)
    assert len(err) < 200, err


def test_one_card_left_in_the_stock_is_one_card():
    from tripeaks_solver.model.position import Position
    from tripeaks_solver.model.render import board_lines

    position = Position.after(Deal.from_number(1), EASY, ["d"] * 22)
    assert position.stock_left == 1
    assert board_lines(position)[-1].endswith("Stock: 1 card left")


def test_the_coach_at_a_win_says_the_peaks_are_cleared(capsys, monkeypatch, tmp_path):
    line = list(solve(Deal.from_number(1), EASY).tokens)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(
        "".join(t + "\n" for t in line).encode()), encoding="utf-8"))
    code, out, err = run(capsys, "coach", "TP1-E-AAAAAAB", "--no-analysis", "--record",
                         str(tmp_path / "g.txt"))
    assert code == 0, err
    tail = out[out.rindex(", after 41 moves: won"):]
    assert tail.splitlines()[1] == CLEARED and "\n\n\n" not in tail


def test_a_peek_step_showing_two_cards_asks_for_both() -> None:
    step = Step(0, (Move.parse("8h"),), (9, 10))
    text = PeekTurn(step, 1, 1, 40).text(EASY)
    assert "say the two cards that turn up, left to right (" in text
    one = PeekTurn(Step(0, (Move.parse("8h"),), (9,)), 1, 1, 40).text(EASY)
    assert "say the card that turns up (" in one



def test_b_at_the_which_card_prompt_shows_the_board(capsys, monkeypatch, tmp_path):
    code, out, err = coach(capsys, monkeypatch, tmp_path, b"d\nb\n4s\nq\n", "--seen", SEEN,
                           "--record", str(tmp_path / "r.txt"), "--samples", "10",
                           "--no-analysis")
    assert code == 0, err
    after_b = out.split("which is it? b\n", 1)[1]
    assert after_b.lstrip("\n").startswith("Your game, after 0 moves")
    assert "which is it? 4s" in after_b



@pytest.mark.parametrize("joker", ["Jk", "🃏"])
def test_a_joker_in_a_game_without_one(capsys, monkeypatch, tmp_path, joker: str):
    code, out, err = coach(capsys, monkeypatch, tmp_path, f"{joker}\nd:{joker}\nq\n".encode(),
                           "--seen", SEEN, "--record", str(tmp_path / "r.txt"),
                           "--samples", "10", "--no-analysis")
    assert code == 0, err
    assert out.count("this game has no joker") == 2



def test_a_joker_code_without_the_joker_variant(capsys, tmp_path):
    path = tmp_path / "g.txt"
    from tripeaks_solver.games.records import header, make_start
    from tripeaks_solver.model.observed import Start

    start = make_start("code", "TP1-EJ-AAAAAAD", EASY)
    assert start.rules.joker and isinstance(start, Start)
    path.write_text(header(start, "app").replace("variant: joker", "variant: none"))
    code, out, err = run(capsys, "replay", "--record", str(path), "--json")
    assert code == 0, err
    assert json.loads(out)["code"] == "TP1-EJ-AAAAAAD"



def test_an_empty_seen_start_in_a_record(capsys, tmp_path):
    path = tmp_path / "g.txt"
    path.write_text(record_text().replace(f"start: seen {SEEN}", "start: seen"))
    code, _out, err = run(capsys, "replay", "--record", str(path))
    assert_one_line_error(code, err, "start: seen lists 11 cards")
    assert "--seen" not in err



def test_more_undos_in_a_row_than_the_app_keeps_are_refused(capsys, monkeypatch, tmp_path):
    data = b"d:4s\nd:6c\nd:7c\nu\nu\nu\nq\n"
    code, out, err = coach(capsys, monkeypatch, tmp_path, data, "--seen", SEEN, "--record",
                           str(tmp_path / "r.txt"), "--samples", "10", "--no-analysis",
                           "--undo-limit", "2")
    assert code == 0, err
    assert "the app takes back at most 2 moves in a row (the undo limit 2)" in out
    record = parse_record_file((tmp_path / "r.txt").read_text(), "r")
    assert [o.token for o in record.moves] == ["draw:4s", "draw:6c", "draw:7c", "undo", "undo"]
