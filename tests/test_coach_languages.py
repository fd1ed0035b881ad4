"""``coach`` in Vietnamese and Slovak: a whole session (the board, the advice, a question,
errors at the prompt, the help, the record, a peek, a correction, an undo, the review at
the end) holds no English word but what a player types, and the app's own words."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SEEN = "Jd 4s Ac 8h 4c 2h 8c 6h 8d 8s 9c"
# A draw whose card is first mistyped, the help, the record, a peek started and stopped,
# a card corrected, an undo, a move that is none, then q: the review follows.
LINES = "8h\nd\nzz\n3s\n?\nr\np\np\nfix 3s 3h\nu\nxx\nq\n"
# What stays as typed: commands and options, tokens, the prompt's echo of the line read.
TYPED = re.compile(r"tripeaks-solve [^)\n]*|coach --[a-z-]+( [A-Z]+)?|--[a-z-]+|fair:\d+|"
                   r"\b(fix|draw|undo|OLD|NEW|CARD|FILE)\b|'[a-z]+'|: (8h|d|zz|3s|\?|r|p|u|xx|q|"
                   r"fix 3s 3h)$")
ENGLISH = re.compile(r"\b(the|and|of|with|card|cards|move|moves|score|peek|rules|waste|"
                     r"stock|left|known|game|saved|player|seed|advice|recommended|chance|"
                     r"winnable|record|summary|undo|draw)\b", re.IGNORECASE)


def session(tmp: Path, env: dict[str, str], *args: str) -> list[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))} | env
    env |= {"PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(tmp / "data"),
            "PYTHONIOENCODING": "utf-8"}
    r = subprocess.run([sys.executable, "-m", "tripeaks_solver", "coach", "--seen", SEEN,
                        "--seed", "1", "--samples", "30", "--record", str(tmp / "g.txt"),
                        *args], input=LINES, capture_output=True, text=True, cwd=tmp,
                       env=env, timeout=120, encoding="utf-8", check=False)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    return r.stdout.replace(str(tmp), "DIR").splitlines()  # its name is English


def english_in(lines: list[str]) -> list[str]:
    return [line for line in lines if ENGLISH.search(TYPED.sub(" ", line))]


def test_the_check_finds_english():
    assert english_in(["Waste: 9♣    Stock: 23 cards left    Score: 500",
                       "Your move (a card, d, u; ? for help): 8h"]) == [
        "Waste: 9♣    Stock: 23 cards left    Score: 500",
        "Your move (a card, d, u; ? for help): 8h"]
    assert english_in(["Váš ťah (karta, d, u; ? pomoc): fix 3s 3h",
                       "  nie je ťah: 'xx' (očakáva sa karta ako Kc alebo K♣, draw, undo)"]) == []


@pytest.mark.parametrize(("how", "words"), [
    (["--lang", "vi"], ["Chồng bài bỏ: 9♣    Chồng bài rút: còn 23 lá    Điểm: 500",
                        "Lá bạn vừa rút: là lá nào? zz", "Xem trước: ", "Bản ghi: 8h draw:3s",
                        "Lá 3 bích (đã nhập ở nước đi 2, rút bài) giờ là 3 cơ; bản ghi",
                        "  không phải nước đi: 'xx'", "Ván dừng: điểm 499, 2 nước đi",
                        "Tổng kết: điểm 499 cho đến giờ (ván đang chơi)."]),
    ({"LANG": "en_US.UTF-8", "LC_ALL": "sk_SK.UTF-8"},  # LC_ALL first, as POSIX says
     ["Odkladací balíček: 9♣    Doberací balíček: zostáva 23 kariet    Skóre: 500",
      "Vaša hra, doteraz 1 ťah", "Vaša hra, doteraz 2 ťahy",
      "Karta, ktorú ste dobrali: ktorá je to? zz", "Nakuknutie: ",
      "Záznam: 8h draw:3s", "Karta piková 3 (zadaná pri ťahu 2, dobratie) je teraz",
      "  nie je ťah: 'xx'", "Hra zastavená: skóre 499, 2 ťahy", "šanca: ", "\xa0%"]),
])
def test_a_session_speaks_the_language_chosen(tmp_path, how, words):
    if isinstance(how, dict):
        lines = session(tmp_path, how)
    else:
        lines = session(tmp_path, {"LANG": "sk_SK.UTF-8"}, *how)  # --lang beats LANG
    text = "\n".join(lines)
    assert [w for w in words if w not in text] == []
    assert english_in(lines) == []
    assert len(lines) > 80


def test_a_record_changed_or_held_elsewhere_is_said_in_the_language(tmp_path):
    """The coach's record: replaced under the session (sed -i), held by another session,
    listed unreadable; said in the session's language, the system's reason as it is."""
    from tripeaks_solver.errors import InputError
    from tripeaks_solver.games.record_file import RecordFile
    from tripeaks_solver.games.session import CoachSession, RecordWriteError
    from tripeaks_solver.model.i18n import speaking
    from tripeaks_solver.model.observed import Start
    from tripeaks_solver.model.rules import EASY

    path = tmp_path / "g.txt"
    with speaking("sk"):
        session = CoachSession.new(Start.of_seen(SEEN, EASY), "app", record=path)
        try:
            with pytest.raises(InputError) as held:
                RecordFile(path).open()
            assert str(held.value) == f"{path} používa iná relácia"
            session.play("8h")
            edited = path.with_name("g.txt.sed")
            edited.write_text(path.read_text() + "# a note\n")
            os.replace(edited, path)  # sed -i: a new file renamed over the record
            with pytest.raises(RecordWriteError) as changed:
                session.play("d:3s")
            assert str(changed.value) == (
                f"súbor {path} bol nahradený mimo tejto relácie: ťah sa nezapísal; ak chcete "
                f"pokračovať od toho, čo obsahuje, spustite znova s --record {path}")
        finally:
            session.close()
    with speaking("vi"), pytest.raises(InputError) as bad:
        RecordFile(tmp_path).open()  # a directory
    assert str(bad.value) == f"không ghi được bản ghi {tmp_path}: đó là một thư mục"


def tripeaks(tmp: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    env |= {"PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(tmp / "data"),
            "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "tripeaks_solver", *args], input=stdin,
                          capture_output=True, text=True, cwd=tmp, env=env, timeout=120,
                          encoding="utf-8", check=False)


@pytest.mark.parametrize(("lang", "said"), [
    ("vi", "chưa có ván để bắt đầu: dòng đầu tiên của đầu vào chuẩn"),
    pytest.param("sk", "chýba začiatok hry: určuje ho prvý riadok štandardného vstupu",
                 marks=pytest.mark.slow),  # the fast set: one language a test, in turn
])
def test_the_terminal_s_errors_on_a_start_or_a_record_are_in_the_language(tmp_path, lang,
                                                                         said):
    """An empty start on a pipe, a record that is not there, a file that is a folder:
    one line in the language (the system's reason as it words it)."""
    r = tripeaks(tmp_path, "coach", "--lang", lang, "--no-analysis", stdin="\n")
    assert r.returncode == 2 and said in r.stderr and r.stderr.count("\n") == 1, r.stderr
    r = tripeaks(tmp_path, "analyze", "--record", "nope.txt", "--lang", lang)
    first = {"vi": "không đọc được bản ghi nope.txt: ", "sk": "záznam nope.txt sa nedá prečítať: "}
    assert r.returncode == 2 and first[lang] in r.stderr and "cannot" not in r.stderr, r.stderr
    # A move whose cards turned up are not as many as it turns up: both numbers named.
    seen = "2c Ad 6s Kc Kh Th Ts Js Td 8s Qc"  # deal 1's start
    r = tripeaks(tmp_path, "analyze", "--seen", seen, "Js:4h", "--lang", lang)
    none = {"vi": "không làm lật lá nào (bạn đã nhập 1 lá)", "sk": "neotočí žiadnu kartu (zadané: 1)"}
    assert r.returncode == 2 and none[lang] in r.stderr, r.stderr
    r = tripeaks(tmp_path, "analyze", "--seen", seen, "d:4s,6c", "--lang", lang)
    one = {"vi": "làm lật 1 lá (lá thứ 1 của chồng bài rút), trong khi bạn đã nhập 2 lá",
           "sk": "otočí 1 kartu (1. karta doberacieho balíčka), zadané: 2"}
    assert r.returncode == 2 and one[lang] in r.stderr, r.stderr
    (tmp_path / "adir").mkdir()  # a folder: said by the reading, not by click in English
    r = tripeaks(tmp_path, "analyze", "--record", "adir", "--lang", lang)
    folder = {"vi": "adir là một thư mục, không phải tệp thông thường",
              "sk": "adir je priečinok, nie bežný súbor"}
    assert r.returncode == 2 and folder[lang] in r.stderr or os.name == "nt", r.stderr
    if os.path.exists(os.devnull) and os.name != "nt":  # a device, not a file
        r = tripeaks(tmp_path, "analyze", "--record", os.devnull, "--lang", lang)
        device = {"vi": "là một thiết bị, không phải tệp thông thường",
                  "sk": "je zariadenie, nie bežný súbor"}
        assert r.returncode == 2 and f"{os.devnull} {device[lang]}" in r.stderr, r.stderr


@pytest.mark.parametrize(("lang", "words"), [
    pytest.param("vi", ["; hết cơ hội thắng sau nước đi 7;"], marks=pytest.mark.slow),
    ("sk", ["; výhra stratená po ťahu 7;"]),
])
def test_a_review_s_summary_names_the_win_it_lost(tmp_path, lang, words):
    """"Lost after move 7" next to the points lost: it says the win was lost, not points."""
    r = tripeaks(tmp_path, "analyze", "TP1-E-AAAAAAD", "8h", *"d" * 7, "--lang", lang)
    assert r.returncode == 0, r.stderr
    text = r.stdout.replace("\n  ", " ")  # the summary's lines unwrapped
    assert [w for w in words if w not in text] == [], text


@pytest.mark.parametrize(("lang", "start"), [
    ("vi", "  mã TP1-E-AAAAAAB  (luật Dễ, "),
    pytest.param("sk", "  kód TP1-E-AAAAAAB  (pravidlá Ľahké, ", marks=pytest.mark.slow)])
def test_coach_list_names_the_start_s_kind_in_the_language(tmp_path, lang, start):
    r = tripeaks(tmp_path, "coach", "TP1-E-AAAAAAB", "--no-analysis", stdin="q\n")
    assert r.returncode == 0, r.stderr
    r = tripeaks(tmp_path, "coach", "--list", "--lang", lang)
    assert r.returncode == 0, r.stderr
    (line,) = [ln for ln in r.stdout.splitlines() if "TP1-E-AAAAAAB  (" in ln]
    assert line[line.index("  ", 4):].startswith(start), line
    assert english_in([line]) == [] and " code " not in line
