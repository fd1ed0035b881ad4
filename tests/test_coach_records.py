"""The coach's record files: saved games listed (``--list``) and continued
(``--continue``); a record stays whole and readable whatever befalls its writing: a file
size limit cutting a write short, two coaches racing for one new file, a byte-order mark,
a last line without its end, a move whose card was never said."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_run import ROOT, assert_one_line_error, run, tripeaks
from test_coach_edges import SEEN, coach, record_text

from tripeaks_solver.games.records import parse_record_file


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
    assert "(Easy rules, app scoring, 1 move): in play, score 499" in out
    assert "(Easy rules, app scoring, 2 moves): in play, score 498" in out
    # In the language asked for, every word, the start's kind too (as the page's list).
    cards = "2♣ A♦ 6♠ K♣ K♥ 10♥ 10♠ J♠ 10♦ 8♠ Q♣"  # SEEN, as the board shows it
    assert f"  cards seen: {cards}  (Easy rules" in out
    code, out, err = coach(capsys, monkeypatch, tmp_path, b"", "--list", "--lang", "sk")
    assert out.startswith("2 uložené hry v ")
    assert (f"  videné karty: {cards}  (pravidlá Ľahké, bodovanie aplikácie, 1 ťah): hrá sa, "
            "skóre 499") in out
    code, out, err = coach(capsys, monkeypatch, tmp_path, b"", "--list", "--lang", "vi")
    assert f"  các lá đã thấy: {cards}  (luật Dễ, cách tính điểm của ứng dụng, 2 nước đi): " \
           "đang chơi, điểm 498" in out
    assert " seen " not in out
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
