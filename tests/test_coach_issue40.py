"""The coach's defects and missing pieces found by a new user and an adversarial tester
(issue 40), each kept as its reproduction: shares that said 100%, the honest chance, a
card said wrong, saved games, a write cut short, two coaches racing for one file, a
byte-order mark, a move dropped at the end, and the smaller edges."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_run import assert_one_line_error, run
from test_coach_edges import SEEN, coach, record_text

from tripeaks_solver.analysis.peek import Step
from tripeaks_solver.games.records import parse_record_file
from tripeaks_solver.games.turns import PeekTurn, percents
from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.game import Game
from tripeaks_solver.model.moves import Move
from tripeaks_solver.model.rules import EASY

ROOT = Path(__file__).resolve().parent.parent
DEAL1 = Deal.from_number(1)  # stock: 4s 6c 7c …; SEEN is its start


def tripeaks(tmp: Path, *args: str, stdin: str = "", limit: str = "") -> subprocess.CompletedProcess:
    """``tripeaks-solve ARGS`` in a process of its own (under ``ulimit LIMIT``)."""
    env = {**os.environ, "XDG_DATA_HOME": str(tmp / "data"), "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "tripeaks_solver", *args]
    if limit:
        command = ["bash", "-c", f'ulimit {limit}; exec "$@"', "bash", *command]
    return subprocess.run(command, input=stdin, capture_output=True, text=True, env=env,
                          cwd=tmp, timeout=300, check=False)


# --- 1, 2: the shares and the chance ---------------------------------------------------
def test_percents_never_round_to_100_or_0() -> None:
    assert percents([1.0, 0.996, 0.995, 0.5, 0.004, 0.0]) == [
        "100.0%", "99.6%", "99.5%", "50.0%", "0.4%", "0.0%"]
    assert percents([0.9999, 0.0001]) == ["99.99%", "0.01%"]
    assert percents([0.88, 0.86]) == ["88%", "86%"]
    assert percents([0.731, 0.7314], distinct=True) == ["73.10%", "73.14%"]


@pytest.mark.slow
def test_the_shares_and_the_chance_of_the_reproduction(tmp_path: Path) -> None:
    args = ["coach", "--seen", "4c Jd Ad Qs Js 8h 9c 7c 2s Tc Qc", "--seed", "708042468",
            "--no-analysis", "--record"]
    text = tripeaks(tmp_path, *args, "a.txt", stdin="jd\nq\n")
    data = tripeaks(tmp_path, *args, "b.txt", "--json", stdin="jd\nq\n")
    assert text.returncode == 0 == data.returncode, text.stderr + data.stderr
    turns = [json.loads(line) for line in data.stdout.splitlines()]
    shown = re.findall(r"still winnable after: (.*?)  \(of", text.stdout)
    recommended = re.findall(r"Recommended: (\S+)", text.stdout)
    assert len(shown) == len(recommended) == 2
    for turn, line, rec in zip(turns, shown, recommended, strict=False):
        pairs = re.findall(r"(\S+) ([\d.]+)%", line)
        assert pairs[0][0] == rec  # the recommended move first
        shares = {Move.parse(m["move"]).pretty: m["share"] for m in turn["moves"]}
        assert sorted(shares) == sorted(p[0] for p in pairs)
        for move, percent in pairs:
            assert (float(percent) == 100) == (shares[move] == 1)
        # the chance: on every turn, at most the recommended move's ceiling
        assert 0 <= turn["chance"] <= shares[rec]
        top = max(shares.values())
        if shares[rec] < top:  # a higher ceiling elsewhere: the reason in words
            assert f"{rec} rather than " in text.stdout
    assert turns[-1]["chance"] is None and turns[-1]["final"] is not None
    assert "chance: " in text.stdout and "then playing carefully" in text.stdout


@pytest.mark.slow
def test_no_chance_when_exact(tmp_path: Path) -> None:
    r = tripeaks(tmp_path, "coach", "TP1-E-AAAAAAD", "--json", "--no-analysis", stdin="q\n")
    turns = [json.loads(line) for line in r.stdout.splitlines()]
    assert r.returncode == 0 and turns[0]["player"] == "exact" and turns[0]["chance"] is None


# --- 3: fix OLD NEW -----------------------------------------------------------------
def test_a_card_said_wrong_is_fixed_on_a_pipe(capsys, monkeypatch, tmp_path: Path) -> None:
    path = tmp_path / "g.txt"
    # The first draw showed 4♠; the player said 6♣, the card the second draw shows.
    lines = ["d", "6c", "d", "6c", "fix 6c Js", "fix 6c 4s", "6c", "q"]
    code, out, err = coach(capsys, monkeypatch, tmp_path, "\n".join(lines).encode() + b"\n",
                           "--seen", SEEN, "--record", str(path), "--samples", "10",
                           "--no-analysis")
    assert code == 0, err
    assert ("6♣ is known already (stock card 1, said with move 1 (draw:6♣)): if that was "
            "another card, fix 6c CARD corrects it") in out
    assert ("J♠ is known already (row 4 from the top, 8th card from the left, said at the "
            "start): fix that card first") in out
    assert "6♣ said with move 1 (draw:6♣) is now 4♠" in out
    record = parse_record_file(path.read_text(), "g")
    assert [o.token for o in record.moves] == ["draw:4s", "draw:6c"]
    game = Game(DEAL1, EASY)
    for step in record.moves:
        game.play(step.move)
    assert game.waste.token == "6c"
    code, _out, err = run(capsys, "replay", "--record", str(path))
    assert code == 0, err


def test_fix_plays_the_corrected_game_again(tmp_path: Path) -> None:
    from test_session import new_session

    session, _, path = new_session(tmp_path, 1)
    session.play("d:6c")  # really 4s
    session.play("u")
    session.play("d")  # the card known (wrongly): nothing asked
    assert session.game.tokens == ["draw:6c", "undo", "draw:6c"]
    assert "is now 4♠" in session.fix("6c", "4s")
    assert session.game.tokens == ["draw:4s", "undo", "draw:4s"]
    with pytest.raises(Exception, match="was not said"):
        session.fix("9h", "9d")
    with pytest.raises(Exception, match="fix OLD NEW"):
        session.fix("4s")
    session.close()
    assert [o.token for o in parse_record_file(path.read_text(), "g").moves] == [
        "draw:4s", "undo", "draw:4s"]


# --- 5: two cards that turn up --------------------------------------------------------
def test_a_peek_step_showing_two_cards_asks_for_both() -> None:
    step = Step(0, (Move.parse("8h"),), (9, 10))
    text = PeekTurn(step, 1, 1, 40).text(EASY)
    assert "say the two cards that turn up, left to right (" in text
    one = PeekTurn(Step(0, (Move.parse("8h"),), (9,)), 1, 1, 40).text(EASY)
    assert "say the card that turns up (" in one


# --- 7: saved games ---------------------------------------------------------------------
def test_list_and_continue_the_saved_games(capsys, monkeypatch, tmp_path: Path) -> None:
    for line in ("Js\nq\n", "Js\nTh\nq\n"):
        code, _out, err = coach(capsys, monkeypatch, tmp_path, line.encode(), "--seen", SEEN,
                                "--samples", "10", "--no-analysis")
        assert code == 0, err
    folder = tmp_path / "data" / "tripeaks-solver" / "games"
    first, second = sorted(folder.glob("*.txt"), key=lambda p: len(p.read_text()))
    os.utime(first, (time.time() + 60, time.time() + 60))  # the newest now
    code, out, err = coach(capsys, monkeypatch, tmp_path, b"", "--list")
    assert code == 0, err
    assert out.index(str(first)) < out.index(str(second))
    assert "(Easy, app, 1 move): in play" in out and "(Easy, app, 2 moves): in play" in out
    code, out, err = coach(capsys, monkeypatch, tmp_path, b"", "--list", "--json")
    listed = json.loads(out)
    assert [g["file"] for g in listed["games"]] == [str(first), str(second)]
    assert [g["moves"] for g in listed["games"]] == [1, 2]
    code, out, err = coach(capsys, monkeypatch, tmp_path, b"d\n4s\nq\n", "--continue",
                           "--samples", "10", "--no-analysis")
    assert code == 0, err
    assert f"Continuing {first}" in out
    assert [o.token for o in parse_record_file(first.read_text(), "f").moves] == [
        "Js", "draw:4s"]
    code, _out, err = coach(capsys, monkeypatch, tmp_path, b"", "--continue", "--seen", SEEN)
    assert_one_line_error(code, err, "--continue takes no start")


def test_continue_without_a_saved_game(capsys, monkeypatch, tmp_path: Path) -> None:
    code, _out, err = coach(capsys, monkeypatch, tmp_path, b"", "--continue")
    assert_one_line_error(code, err, "no saved game")


@pytest.mark.slow
# --- 9: a write cut short -----------------------------------------------------------
def test_a_write_cut_by_the_file_size_limit_leaves_a_readable_record(tmp_path: Path) -> None:
    lines = "d:4s\nu\n" * 120 + "q\n"  # far past 1,024 bytes of record
    r = tripeaks(tmp_path, "coach", "--seen", SEEN, "--record", "rec.txt", "--samples", "5",
                 "--no-analysis", stdin=lines, limit="-f 1")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr.count("\n") == 1 and "cannot write the record" in r.stderr, r.stderr
    text = (tmp_path / "rec.txt").read_text()
    assert text.endswith("\n") and len(text.encode()) <= 1024
    record = parse_record_file(text, "rec.txt")
    assert record.torn is None and len(record.moves) > 20
    for command in ("replay", "analyze", "hint"):
        r = tripeaks(tmp_path, command, "--record", "rec.txt")
        assert r.returncode == 0, (command, r.stderr)
    more = "u" if record.moves[-1].move.is_draw else "d:4s"  # the game goes on
    r = tripeaks(tmp_path, "coach", "--record", "rec.txt", "--samples", "5", "--no-analysis",
                 stdin=f"{more}\nq\n")
    assert r.returncode == 0, r.stderr
    assert len(parse_record_file((tmp_path / "rec.txt").read_text(), "r").moves) == len(
        record.moves) + 1


def test_a_last_line_without_its_end_is_always_torn(capsys, tmp_path: Path) -> None:
    path = tmp_path / "g.txt"
    path.write_text(record_text("Js") + "d")  # d of d:4s, cut as it was written
    code, _out, err = run(capsys, "replay", "--record", str(path))
    assert code == 0 and "'d', has no line end: left out" in err, err
    assert parse_record_file(path.read_text(), "g").moves[-1].token == "Js"


@pytest.mark.slow
# --- 10: two coaches racing for one new record ------------------------------------------
def test_a_coach_waiting_for_its_start_holds_its_record(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "PYTHONPATH": str(ROOT)}
    first = subprocess.Popen([sys.executable, "-m", "tripeaks_solver", "coach", "--record",
                              "F.txt", "--samples", "5", "--no-analysis"], cwd=tmp_path,
                             env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    path = tmp_path / "F.txt"
    for _ in range(600):  # taken at launch, before the start is read
        if path.exists():
            break
        time.sleep(0.05)
    time.sleep(1.0)
    second = tripeaks(tmp_path, "coach", "--seen", SEEN, "--record", "F.txt", stdin="Js\nq\n")
    assert second.returncode == 2 and "in use by another session" in second.stderr, second
    _, err = first.communicate(SEEN + "\nJs\nq\n", timeout=300)
    assert first.returncode == 0, err
    text = path.read_text()
    assert text.count("start:") == 1
    assert [o.token for o in parse_record_file(text, "F").moves] == ["Js"]


# --- 11: a byte-order mark --------------------------------------------------------------
def test_a_record_with_a_byte_order_mark_is_continued(capsys, monkeypatch, tmp_path):
    path = tmp_path / "g.txt"
    path.write_bytes(b"\xef\xbb\xbf" + record_text("Js").encode())
    code, _out, err = coach(capsys, monkeypatch, tmp_path, b"Th\nq\n", "--record", str(path),
                            "--samples", "10", "--no-analysis")
    assert code == 0, err
    data = path.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and data.endswith(b"Js\nTh\n")
    code, _out, err = run(capsys, "replay", "--record", str(path))
    assert code == 0, err


# --- 12: a move dropped at the end ------------------------------------------------------
@pytest.mark.parametrize("ending", [b"", b"q\n"], ids=["end of input", "q"])
def test_a_move_dropped_at_the_which_card_prompt_is_said(capsys, monkeypatch, tmp_path,
                                                          ending: bytes) -> None:
    path = tmp_path / "r.txt"
    code, out, err = coach(capsys, monkeypatch, tmp_path, b"8h\nd\n" + ending, "--seen",
                           "Jd 4s Ac 8h 4c 2h 8c 6h 8d 8s 9c", "--record", str(path),
                           "--samples", "10", "--no-analysis")
    assert code == 0, err
    assert "draw was not recorded: the card it turned up was not said" in out
    assert "Record: 8h\n" in out
    assert [o.token for o in parse_record_file(path.read_text(), "r").moves] == ["8h"]


def test_a_dropped_move_is_the_last_turns_error(capsys, monkeypatch, tmp_path):
    code, out, _ = coach(capsys, monkeypatch, tmp_path, b"d\n", "--seen", SEEN, "--json",
                           "--record", str(tmp_path / "r.txt"), "--samples", "10",
                           "--no-analysis")
    last = json.loads(out.splitlines()[-1])
    assert code == 0 and "was not recorded" in last["error"] and last["final"] is not None


# --- 13: the smaller edges ----------------------------------------------------------------
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
