"""The page's language on the server: chosen per request (``?lang=``, the ``lang``
cookie, ``serve --lang``, ``Accept-Language``, the environment), the catalog served to
the page, and the server's own words (errors, the places it asks about, the peek's
steps: the coach's, tests/test_coach_languages.py) in the request's language, never leaking into the next request."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import pytest

with warnings.catch_warnings():  # starlette's note on httpx's successor
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tripeaks_solver.web.app import make_app
from tripeaks_solver.web.lang import accepted, page_html

HOST = "127.0.0.1:8765"
SEEN = "Jd 4s Ac 8h 4c 2h 8c 6h 8d 8s 9c"


def client(folder: Path, **kw) -> TestClient:
    app = make_app(folder, lambda: {HOST}, **kw)
    return TestClient(app, base_url=f"http://{HOST}", raise_server_exceptions=False)


@pytest.mark.parametrize(("header", "lang"), [
    ("", None), ("fr-FR,fr;q=0.9", None), ("vi-VN,vi;q=0.9,en;q=0.8", "vi"),
    ("en-US,en;q=0.9,sk;q=0.8", "en"), ("fr, sk;q=0.5, vi;q=0.7", "vi"),
    ("sk;q=0, vi;q=0.1", "vi"), ("SK-sk", "sk"), ("vi;q=abc, sk", "sk"), ("*", None),
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
