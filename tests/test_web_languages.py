"""The page's language on the server: chosen per request (``?lang=``, the ``lang``
cookie, ``serve --lang``, ``Accept-Language``, the environment), the catalog served to
the page, and the server's own words (errors, the places it asks about, the peek's
steps: the coach's, tests/test_coach_languages.py) in the request's language, never leaking into the next request."""

from __future__ import annotations

import errno
import json
import os
import re
import warnings
from pathlib import Path

import pytest

with warnings.catch_warnings():  # starlette's note on httpx's successor
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tripeaks_solver.games import saved
from tripeaks_solver.web import guard
from tripeaks_solver.web.app import make_app
from tripeaks_solver.web.lang import accepted, page_html
from tripeaks_solver.web.table import Table

HOST = "127.0.0.1:8765"
SEEN = "Jd 4s Ac 8h 4c 2h 8c 6h 8d 8s 9c"


def client(folder: Path, **kw) -> TestClient:
    app = make_app(folder, lambda: {HOST}, **kw)
    return TestClient(app, base_url=f"http://{HOST}", raise_server_exceptions=False)


@pytest.mark.parametrize(("header", "lang"), [
    ("", None), ("fr-FR,fr;q=0.9", None), ("vi-VN,vi;q=0.9,en;q=0.8", "vi"),
    ("en-US,en;q=0.9,sk;q=0.8", "en"), ("fr, sk;q=0.5, vi;q=0.7", "vi"),
    ("sk;q=0, vi;q=0.1", "vi"), ("SK-sk", "sk"), ("vi;q=abc, sk", "sk"), ("*", None),
    # Czech, which the page lacks, reads as Slovak, its closest language, at its own place.
    ("cs-CZ,cs;q=0.9", "sk"), ("cs", "sk"), ("en-US,cs;q=0.5", "en"),
    ("cs;q=0.5, vi;q=0.8", "vi"), ("cs-CZ, vi;q=0.8", "sk"), ("cs;q=0, en;q=0.1", "en"),
])
def test_the_browser_s_languages_are_read_by_preference(header, lang):
    assert accepted(header) == lang


def catalog(c: TestClient, **kw) -> dict:
    r = c.get("/api/messages", **kw)
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    return r.json()


def test_the_catalog_served_is_the_request_s(tmp_path):
    c = client(tmp_path)
    en = catalog(c)
    assert (en["lang"], en["messages"], en["nplurals"]) == ("en", {}, 2)
    vi = catalog(c, headers={"Accept-Language": "vi-VN,vi;q=0.9,en;q=0.8"})
    assert vi["lang"] == "vi" and vi["nplurals"] == 1
    assert vi["messages"]["Your game"] == "Ván của bạn"
    assert vi["messages"]["{n} move"] == ["{n} nước đi"]
    assert vi["messages"]["move\u0004draw"] == "rút bài"
    sk = catalog(c, headers={"Accept-Language": "sk"})
    assert sk["messages"]["{n} move"] == ["{n} ťah", "{n} ťahy", "{n} ťahov"]
    assert sk["plural"] == "(n == 1 ? 0 : n >= 2 && n <= 4 ? 1 : 2)"
    assert len(sk["messages"]) == len(vi["messages"]) > 200


def test_the_choice_outweighs_the_server_and_the_browser(tmp_path):
    browser = {"Accept-Language": "vi"}
    c = client(tmp_path)
    assert catalog(c, headers=browser)["lang"] == "vi"
    c.cookies.set("lang", "sk")  # the page's switch
    assert catalog(c, headers=browser)["lang"] == "sk"
    assert catalog(c, headers=browser, params={"lang": "en"})["lang"] == "en"
    c.cookies.set("lang", "fr")  # not ours: as if there were none
    assert catalog(c, headers=browser)["lang"] == "vi"
    forced = client(tmp_path, lang="sk", fallback="vi")  # serve --lang sk, LANG=vi_VN
    assert catalog(forced, headers=browser)["lang"] == "sk"
    forced.cookies.set("lang", "en")
    assert catalog(forced, headers=browser)["lang"] == "en"
    assert catalog(client(tmp_path, fallback="vi"))["lang"] == "vi"
    assert catalog(client(tmp_path, fallback="vi"), headers={"Accept-Language": "en"})[
        "lang"] == "en"


def test_the_server_s_words_are_in_the_request_s_language(tmp_path):
    c = client(tmp_path)
    sk, vi = {"Accept-Language": "sk"}, {"Accept-Language": "vi"}
    r = c.post("/api/games", json={"start": SEEN}, headers=sk)
    assert r.status_code == 201, r.text
    name, at = r.json()["name"], r.json()["at"]
    r = c.post(f"/api/games/{name}/move", json={"move": "zz", "at": at}, headers=sk)
    assert r.status_code == 400
    assert r.json()["error"] == ("nie je ťah: 'zz' (očakáva sa karta ako Kc alebo K♣, draw, "
                                 "undo)")
    r = c.post(f"/api/games/{name}/move", json={"move": "zz", "at": at})
    assert r.json()["error"].startswith("not a move: 'zz'")  # the next request: English
    state = c.post(f"/api/games/{name}/move", json={"move": "draw", "at": at},
                   headers=vi).json()
    assert state["need"]["name"] == "lá thứ 1 của chồng bài rút"
    assert c.get(f"/api/games/{name}", headers=sk).json()["need"]["name"] == \
        "1. karta doberacieho balíčka"
    r = c.post(f"/api/games/{name}/reveal", json={"card": "Jd", "at": state["at"]},
               headers=vi)
    assert r.status_code == 400
    assert r.json()["error"] == "bồi rô đã biết rồi: hãy chọn một lá chưa thấy"
    r = c.post("/api/games", json={"start": "Jd 4s"}, headers=vi)
    assert r.status_code == 400
    assert r.json()["error"].startswith("phần bắt đầu cần 11 lá (10 lá ngửa")


def test_the_page_holds_its_catalog_and_says_its_language(tmp_path):
    """The page's HTML carries the catalog (as data: the words from the first paint) and
    its language in ``<html lang>``; nothing in the catalog closes the script early."""
    c = client(tmp_path)
    for path in ("/", "/solve"):
        html = c.get(path, headers={"Accept-Language": "sk"}).text
        assert html.count('<html lang="sk">') == 1
        found = re.search(r'<script type="application/json" id="i18n-catalog">(.*?)</script>',
                          html, re.DOTALL)
        assert found and json.loads(found[1]) == catalog(c, headers={"Accept-Language": "sk"})
    html = c.get("/").text
    assert '<html lang="en">' in html and '"messages":{}' in html
    # The catalog's text "<=" (the plural rule) is escaped: no "<" can close the script.
    assert "<" not in page_html("<head></head>", "sk").split('id="i18n-catalog">')[1].split(
        "</script>")[0]


SK, VI = {"Accept-Language": "sk"}, {"Accept-Language": "vi"}
CODE = "TP1-E-AAAAAAD"


def sed_i(path: Path, old: str, new: str) -> None:
    """What ``sed -i`` does: a new file with the edit, renamed over the old one."""
    tmp = path.with_name(path.name + ".sed")
    tmp.write_text(path.read_text().replace(old, new))
    os.replace(tmp, path)


def test_a_person_s_refusals_are_in_their_language_a_script_s_in_english(tmp_path):
    """An address by another name, or without its token: a person in a browser meets
    them, in the browser's language. Another site's request meets only a script: English
    (docs/languages.md)."""
    c = client(tmp_path)
    r = c.get("/", headers={"host": "tripeaks.example:8765", **SK})
    assert (r.status_code, r.json()["error"]) == (
        421, "neznáma hlavička Host: otvorte adresu, ktorú server vypísal")
    r = client(tmp_path, token="secret").get("/", headers=VI)
    assert (r.status_code, r.json()["error"]) == (
        403, "cần mã token: hãy mở địa chỉ mà máy chủ đã in ra")
    r = c.post("/api/games", json={"start": CODE},
               headers={"origin": "http://tripeaks.example", **SK})
    assert (r.status_code, r.json()["error"]) == (403, "request from another site refused")
    r = c.get("/", headers={"host": "tripeaks.example:8765"})
    assert r.json()["error"] == "unknown Host header: open the address the server printed"


def test_the_conflicts_of_a_game_are_in_the_request_s_language(tmp_path):
    """409: the record changed outside the page; another tab moved the game on."""
    c = client(tmp_path)
    state = c.post("/api/games", json={"start": CODE}).json()
    name = state["name"]
    sed_i(tmp_path / name, "moves:\n", "moves:\n# a note added by hand\n")
    r = c.post(f"/api/games/{name}/move", json={"move": "draw", "at": state["at"]}, headers=SK)
    assert (r.status_code, r.json()["error"]) == (
        409, "záznam sa zmenil mimo stránky: znova načítajte stránku")
    now = c.get(f"/api/games/{name}").json()
    assert c.post(f"/api/games/{name}/move", json={"move": "draw", "at": now["at"]}
                  ).status_code == 200
    r = c.post(f"/api/games/{name}/move", json={"move": "draw", "at": now["at"]}, headers=VI)
    assert (r.status_code, r.json()["error"]) == (
        409, "ván chơi đã tiếp tục ở thẻ khác: hãy tải lại trang")
    r = c.post(f"/api/games/{name}/move", json={"move": "draw", "at": now["at"]})
    assert r.json()["error"] == "the game moved on in another tab: reload the page"


def test_a_job_s_error_is_in_the_language_of_the_request_that_began_it(tmp_path):
    """The solve page's errors are raised inside its job, in a worker thread of its own:
    the job runs in the request's context (web.jobs), its language too."""
    c = client(tmp_path)
    for headers, said in ((SK, "zadajte kód hry (TP1-E-AAAAAAB) alebo rozloženie 52 kariet"),
                          (VI, "hãy nhập mã ván chơi (TP1-E-AAAAAAB) hoặc bố cục 52 lá"),
                          ({}, "give a game code (TP1-E-AAAAAAB) or a layout of 52 cards")):
        r = c.post("/api/solve", json={"text": " "}, headers=headers)
        assert (r.status_code, r.json()["error"]) == (400, said)


def test_the_server_s_own_failures_are_in_the_request_s_language(tmp_path, monkeypatch):
    """503: the machine refusing (its reason as the system gives it), the server
    stopping; 500: a fault of the server's own."""
    c = client(tmp_path)
    name = c.post("/api/games", json={"start": CODE}).json()["name"]

    def no_more_files(path):
        raise OSError(errno.EMFILE, "Too many open files")

    monkeypatch.setattr(saved.os, "scandir", no_more_files)
    monkeypatch.setattr(guard.once, "last", {})  # its line logged apart from other tests'
    r = c.get("/api/games", headers=VI)
    assert (r.status_code, r.json()["error"]) == (
        503, "máy chủ hiện không làm được việc này: Too many open files")
    monkeypatch.undo()

    def broken(self):
        raise RuntimeError("a fault of the server's own")

    monkeypatch.setattr(Table, "state", broken)
    r = c.get(f"/api/games/{name}", headers=SK)
    assert (r.status_code, r.json()["error"]) == (500, "vnútorná chyba servera")
    monkeypatch.undo()
    c.app.stop()  # Ctrl-C: every search ends, none begins
    r = c.get(f"/api/games/{name}/advice", headers=SK)
    assert (r.status_code, r.json()["error"]) == (503, "server sa zastavuje")
    r = c.get(f"/api/games/{name}/advice")
    assert r.json()["error"] == "the server is stopping"


def test_the_games_list_says_why_a_record_is_not_listed_in_the_request_s_language(tmp_path):
    """A record that is not one, one with another hard link: said in each request's
    language (the list read once a language, and the files once)."""
    (tmp_path / "notes.txt").write_text("my notes\n")
    (tmp_path / "outside.txt").write_text(
        "# tripeaks-solver game record\nstart: code TP1-E-AAAAAAD\nrules: easy\n"
        "variant: none\nscoring: app\nmoves:\n")
    os.link(tmp_path / "outside.txt", tmp_path / "linked.txt")
    c = client(tmp_path)

    def errors(headers: dict) -> dict:
        games = c.get("/api/games", headers=headers).json()["games"]
        return {g["file"]: g["error"] for g in games}

    assert errors(SK) == {
        "notes.txt": "nečitateľný: notes.txt nie je záznam hry (nezačína sa riadkom "
                     "'# tripeaks-solver game record')",
        "linked.txt": "má ďalší pevný odkaz (iný názov, možno mimo priečinka s údajmi): "
                      "neotvára sa",
        "outside.txt": "má ďalší pevný odkaz (iný názov, možno mimo priečinka s údajmi): "
                       "neotvára sa"}
    assert errors({})["notes.txt"] == ("unreadable: notes.txt is not a game record (it does "
                                       "not begin with '# tripeaks-solver game record')")
    assert errors(VI)["notes.txt"].startswith("không đọc được: notes.txt không phải là bản ghi")


def test_the_start_form_s_numbers_refused_in_the_page_s_words(tmp_path):
    """The samples and the seed the player types on the start form reach the advice's
    address as typed: a wrong one is refused naming the form's field."""
    c = client(tmp_path)
    name = c.post("/api/games", json={"start": CODE}).json()["name"]
    r = c.get(f"/api/games/{name}/advice", params={"samples": "-5"}, headers=SK)
    assert (r.status_code, r.json()["error"]) == (400, "Vzorky: zadajte celé číslo od 0")
    r = c.get(f"/api/games/{name}/advice", params={"seed": "9" * 31}, headers=SK)
    assert (r.status_code, r.json()["error"]) == (400, "Semienko: zadajte celé číslo od 0")
    r = c.get(f"/api/games/{name}/advice", params={"seed": "1.5"}, headers=VI)
    assert (r.status_code, r.json()["error"]) == (400, "Hạt giống: hãy nhập một số nguyên")
    r = c.get(f"/api/games/{name}/advice", params={"samples": "99999"}, headers=SK)
    assert r.json()["error"] == "počet vzoriek musí byť 1 až 5\xa0000"


def test_the_page_gets_its_own_texts_and_no_other(tmp_path):
    """The catalog in the page (and /api/messages) holds every text the page's files
    look up, found in them as pybabel finds them, the same set as the catalog's source
    references under web/static name; not the terminal's texts, nor the server's own
    (it sends those worded)."""
    from babel.messages.pofile import read_po

    from tripeaks_solver.model.i18n import LOCALE_DIR
    from tripeaks_solver.web.page_texts import page_keys

    with open(LOCALE_DIR / "messages.pot", "rb") as pot:
        referenced = {(m.context, m.id if isinstance(m.id, str) else m.id[0])
                      for m in read_po(pot) if m.id and any(
                          path.startswith("tripeaks_solver/web/static/")
                          for path, _line in m.locations)}
    assert page_keys() == referenced and len(referenced) > 200
    c = client(tmp_path)
    for headers in (SK, VI):
        served = catalog(c, headers=headers)["messages"]
        assert {(k.split("\u0004")[0], k.split("\u0004")[1]) if "\u0004" in k else (None, k)
                for k in served} == referenced
    sk = catalog(c, headers=SK)["messages"]
    assert sk["Your game"] == "Vaša hra" and sk["{n} point"] == ["{n} bod", "{n} body",
                                                                  "{n} bodov"]
    assert (sk["field label\u0004Start"], sk["button\u0004Start"]) == ("Začiatok", "Začať")
    assert "Your move (a card, d, u; ? for help): " not in sk  # the coach's prompt
    assert "Peek stopped." not in sk and "the server is stopping" not in sk
    page = c.get("/", headers=SK).content
    assert len(page) < 40_000  # the whole catalog made it about 70 KB


def test_a_czech_browser_gets_the_page_and_its_answers_in_slovak(tmp_path):
    c = client(tmp_path)
    cs = {"Accept-Language": "cs-CZ,cs;q=0.9"}
    assert '<html lang="sk">' in c.get("/", headers=cs).text
    assert catalog(c, headers=cs)["lang"] == "sk"
    r = c.post("/api/games", json={"start": "Jd 4s"}, headers=cs)
    assert r.status_code == 400 and r.json()["error"].startswith("začiatok potrebuje 11 kariet")
    assert catalog(c, headers={"Accept-Language": "cs", "Cookie": "lang=vi"})["lang"] == "vi"


def test_a_record_that_cannot_be_opened_is_said_as_the_list_says_it(tmp_path):
    """Opening an unreadable record on the page: the words of the page's list (why it
    cannot be read), not the terminal's advice (a new file name, --record, coach) nor the
    server's folder."""
    (tmp_path / "notes.txt").write_text("my notes\n")
    (tmp_path / "binary.txt").write_bytes(b"# tripeaks-solver game record\n\xff\xfe\n")
    (tmp_path / "bad.txt").write_text(
        "# tripeaks-solver game record\nstart: code TP1-E-AAAAAAD\nrules: easy\n"
        "variant: none\nscoring: app\nmoves:\nKs\n")  # no K♠ to play at the start
    c = client(tmp_path)
    for headers, lang in ((SK, "sk"), (VI, "vi"), ({}, "en")):
        listed = {g["file"]: g["error"] for g in c.get("/api/games", headers=headers).json()[
            "games"]}
        assert set(listed) == {"notes.txt", "binary.txt", "bad.txt"}
        for name, why in listed.items():
            r = c.get(f"/api/games/{name}", headers=headers)
            assert r.status_code == 400, (name, r.text)
            said = r.json()["error"]
            assert said == why, (lang, name)
            assert str(tmp_path) not in said and "coach" not in said and "--record" not in said
    said = c.get("/api/games/notes.txt", headers=SK).json()["error"]
    assert said == ("nečitateľný: notes.txt nie je záznam hry (nezačína sa riadkom "
                    "'# tripeaks-solver game record')")
    said = c.get("/api/games/binary.txt", headers=VI).json()["error"]
    assert said == "không đọc được: không phải là bản ghi ván chơi (không phải văn bản UTF-8)"
    assert c.get("/api/games/binary.txt").json()["error"] == (
        "unreadable: not a game record (not UTF-8 text)")
