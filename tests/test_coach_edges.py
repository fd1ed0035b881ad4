"""Rough edges of ``coach``, ``peek`` and records found by trying to break them: each
runs the real entry point in the test process, standard input given as bytes."""

from __future__ import annotations

import io
import sys

from cli_run import assert_one_line_error, run
from test_observed import seen_text

from tripeaks_solver.games.records import header, parse_record_file
from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.observed import Start
from tripeaks_solver.model.rules import EASY

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
