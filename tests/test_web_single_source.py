"""The server is the one source of what the page knows of the game (issue 55): the page's
static files (web/static) write again none of the rules the Python side defines (the
board's geometry, the card syntax, the start's counts, the languages, the advice's
samples), they read them from FACTS (web/facts.py, in the page and at /api/facts); and
FACTS is what the Python modules define.

Each check is shown to catch a copy put back (a small script holding one); the scan of
the real files must find none."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import warnings
from itertools import product
from pathlib import Path

import pytest

with warnings.catch_warnings():  # starlette's note on httpx's successor
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tripeaks_solver.analysis.judgement import (
    BLUNDER,
    DEFAULT_POINT_GRADES,
    INACCURACY,
    MISTAKE,
)
from tripeaks_solver.limits import MAX_ADVICE_SEED, PAGE_SAMPLES, REVIEW_SAMPLES
from tripeaks_solver.model.cards import DECK_SIZE, RANKS, SUIT_SYMBOLS, SUITS, Card
from tripeaks_solver.model.dealing import WASTE_INDEX
from tripeaks_solver.model.geometry import COVERED_BY, ROWS, TABLEAU_SIZE, column_of
from tripeaks_solver.model.i18n import LANGUAGE_NAMES, LANGUAGES
from tripeaks_solver.model.observed import seen_places
from tripeaks_solver.model.rules import EASY
from tripeaks_solver.web import advice, app
from tripeaks_solver.web.app import make_app
from tripeaks_solver.web.facts import page_facts

STATIC = Path(app.__file__).parent / "static"
HOST = "127.0.0.1:8765"


# --- reading a script -------------------------------------------------------------------
def split_js(text: str) -> tuple[str, list[tuple[int, str]]]:
    """The script's code with its comments, strings and regular expressions blanked (its
    lines kept), and its string literals (line, text; a template's text with its ``${}``
    parts)."""
    code: list[str] = []
    strings: list[tuple[int, str]] = []
    i, n, line = 0, len(text), 1
    last = ""  # the last character of code that is not a space: does a "/" begin a regex?

    def blank(part: str) -> str:
        return "".join(c if c == "\n" else " " for c in part)

    while i < n:
        c = text[i]
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            code.append(blank(text[i:end]))
            i = end
        elif text.startswith("/*", i):
            end = text.index("*/", i) + 2
            code.append(blank(text[i:end]))
            line += text.count("\n", i, end)
            i = end
        elif c in "\"'`":
            j = i + 1
            while text[j] != c:
                j += 2 if text[j] == "\\" else 1
            strings.append((line, text[i + 1:j]))
            code.append(c + blank(text[i + 1:j]) + c)
            last = c
            line += text.count("\n", i, j)
            i = j + 1
        elif c == "/" and (not last or last in "(,=:[!&|?{};+-*%<>~^" or
                           re.search(r"\breturn\s*$", "".join(code[-8:]))):
            j, in_class = i + 1, False  # a regular expression: to its closing "/"
            while in_class or text[j] != "/":
                if text[j] == "\\":
                    j += 1
                elif text[j] == "[":
                    in_class = True
                elif text[j] == "]":
                    in_class = False
                j += 1
            code.append(blank(text[i:j + 1]))
            last = "/"
            i = j + 1
        else:
            code.append(c)
            if not c.isspace():
                last = c
            line += c == "\n"
            i += 1
    return "".join(code), strings


def number_at(text: str, value: int) -> re.Pattern:
    """``value`` as a number of its own (not a part of 10000, 1.28 or x28)."""
    return re.compile(rf"(?<![\w.]){value}(?![\w.])")


Finding = tuple[str, int, str]


def lines_of(text: str, pattern: re.Pattern, name: str, what: str) -> list[Finding]:
    return [(name, text.count("\n", 0, m.start()) + 1, what) for m in pattern.finditer(text)]


# --- the checks: each takes a file's name and text, and says each copy it finds ---------
def ranks_and_suits(name: str, text: str) -> list[Finding]:
    """The rank string (or its run of letters, as a character class writes it), the suit
    string, a suit's symbol or the deck's size outside a comment."""
    out = lines_of(text, re.compile(re.escape(RANKS[RANKS.index("T"):])), name,
                   "the ranks (model/cards.py)")
    out += lines_of(text, re.compile(re.escape(SUITS)), name, "the suits (model/cards.py)")
    symbol, deck = re.compile(f"[{SUIT_SYMBOLS}]"), f"the deck's {DECK_SIZE} cards"
    if name.endswith(".html"):
        shown = re.sub(r"<!--.*?-->", "", text, flags=re.DOTALL)
        out += lines_of(shown, number_at(shown, DECK_SIZE), name, deck)
    if not name.endswith(".js"):
        return out + lines_of(text, symbol, name, "a suit's symbol (model/cards.py)")
    code, strings = split_js(text)
    out += lines_of(code, number_at(code, DECK_SIZE), name, deck)
    return out + [(name, line, what) for line, string in strings
                  for what, found in (("a suit's symbol (model/cards.py)", symbol.search(string)),
                                      (deck, number_at(string, DECK_SIZE).search(string)))
                  if found]


def geometry(name: str, text: str) -> list[Finding]:
    """A row's bounds, the tableau's size (and the place after it, the waste's first
    card and the 29 of a start), the bottom row's first place: in a script's code."""
    if not name.endswith(".js"):
        return []
    code, strings = split_js(text)
    out: list[Finding] = []
    for first, stop in ROWS:
        out += lines_of(code, re.compile(rf"\[\s*{first}\s*,\s*{stop}\s*\]"), name,
                        f"the row [{first}, {stop}) (model/geometry.py)")
    for value in sorted({TABLEAU_SIZE, WASTE_INDEX + 1, ROWS[-1][0]}):
        out += lines_of(code, number_at(code, value), name,
                        f"{value}, of the board (model/geometry.py)")
        out += [(name, line, f"{value} in a text, of the board (model/geometry.py)")
                for line, s in strings if number_at(s, value).search(s)]
    return out


def start_counts(name: str, text: str) -> list[Finding]:
    """A start's count compared or chosen in a script (``n === 11``, ``open ? 28 : 10``)."""
    if not name.endswith(".js"):
        return []
    code = split_js(text)[0]
    counts = {len(seen_places(EASY.with_options(open=o, empty_waste=e)))
              for o, e in product((False, True), repeat=2)}
    out: list[Finding] = []
    for value in sorted(counts):
        compared = re.compile(rf"(?:[=!]==?|[<>]=?|\?|:)\s*{value}(?![\w.])"
                              rf"|(?<![\w.]){value}\s*(?:[=!]==?|[<>]=?|:)")
        out += lines_of(code, compared, name, f"the start's count {value} (model/observed.py)")
    return out


def languages(name: str, text: str) -> list[Finding]:
    """A language's code as a script's string or a switch of the HTML, or its name."""
    out: list[Finding] = []
    if name.endswith(".js"):
        out += [(name, line, f"the language {s!r} (model/i18n.py)")
                for line, s in split_js(text)[1] if s in LANGUAGES]
    if name.endswith(".html"):
        out += lines_of(text, re.compile(r"data-lang\s*="), name, "a language's switch")
        # <html lang="en"> is the server's to fill in (web/lang.py's page_html)
        out += lines_of(text, re.compile(r"<(?!html\b)[^>]*\blang\s*=", re.IGNORECASE),
                        name, "an element's language")
    # a name in a script's text, or outside the comments of the HTML or the styles
    said = "\n".join(s for _line, s in split_js(text)[1]) if name.endswith(".js") else \
        re.sub(r"/\*.*?\*/|<!--.*?-->", "", text, flags=re.DOTALL)
    for language in LANGUAGE_NAMES.values():
        out += [(name, 0, f"the language name {language} (model/i18n.py)")
                for _ in re.finditer(re.escape(language), said)]
    return out


def samples(name: str, text: str) -> list[Finding]:
    """The advice's default samples or its bound, the largest seed: a script's number or
    string, an HTML attribute's value."""
    out: list[Finding] = []
    values = (REVIEW_SAMPLES, PAGE_SAMPLES)
    if name.endswith(".js"):
        code, strings = split_js(text)
        for value in values:
            out += lines_of(code, number_at(code, value), name, f"the samples' {value}")
            out += [(name, line, f"the samples' {value} in a text") for line, s in strings
                    if number_at(s, value).search(s)]
    if name.endswith(".html"):
        for value in values:
            out += lines_of(text, re.compile(rf"=\s*\"?{value}\b"), name,
                            f"the samples' {value} as an attribute")
    out += lines_of(text, re.compile(str(MAX_ADVICE_SEED)), name, "the largest seed")
    return out


def grades(name: str, text: str) -> list[Finding]:
    """A grade's threshold (analysis/judgement.py: ``?!`` from 5 points of chance lost)
    in a script's text about points."""
    if not name.endswith(".js"):
        return []
    values = {round(100 * g) for g in (INACCURACY, MISTAKE, BLUNDER)}
    values |= {round(g) for g in DEFAULT_POINT_GRADES}
    return [(name, line, f"the grade {value} in a text (analysis/judgement.py)")
            for line, s in split_js(text)[1] if "point" in s
            for value in sorted(values) if number_at(s, value).search(s)]


CHECKS = (ranks_and_suits, geometry, start_counts, languages, samples, grades)


def scan(name: str, text: str) -> list[Finding]:
    return [found for check in CHECKS for found in check(name, text)]


# --- the page's files -------------------------------------------------------------------
def test_no_static_file_writes_a_rule_the_server_defines():
    files = sorted(p for p in STATIC.iterdir() if p.suffix in (".js", ".html", ".css"))
    assert {p.name for p in files} >= {"cards.js", "start.js", "play.js", "i18n.js",
                                        "facts.js", "index.html", "style.css"}
    found = [f for p in files for f in scan(p.name, p.read_text(encoding="utf-8"))]
    assert found == []


COPIES = [  # a copy each check must catch, as the page held them before FACTS
    (ranks_and_suits, "a.js", 'const RANKS = "A23456789TJQK";'),
    (ranks_and_suits, "a.js", "const ok = /^(10|[A2-9TJQK])[a-z]$/i.test(w);"),
    (ranks_and_suits, "a.js", 'const SUITS = "cdhs";'),
    (ranks_and_suits, "a.js", 'const SUIT_SYMBOL = { c: "♣", d: "♦" };'),
    (ranks_and_suits, "a.html", "<span>♠</span>"),
    (ranks_and_suits, "a.html", '<div role="group" aria-label="The 52 cards"></div>'),
    (ranks_and_suits, "a.js", 'say(_("A layout of 52 cards"));'),
    (ranks_and_suits, "a.js", "if (cards.length !== n && cards.length !== 52) x();"),
    (geometry, "a.js", "const ROWS = [[0, 3], [3, 9], [9, 18], [18, 28]];"),
    (geometry, "a.js", "const cover = new Array(28).fill(null);"),
    (geometry, "a.js", "if (place < 28) return row(place);"),
    (geometry, "a.js", "const drawn = place - 28 + (emptyWaste ? 1 : 0);"),
    (geometry, "a.js", "return 2 * (p - 18);"),
    (geometry, "a.js", 'say(_("Click the 28 peak cards"));'),
    (start_counts, "a.js", "return (open ? 28 : 10) + (empty ? 0 : 1);"),
    (start_counts, "a.js", "if (n === 11) return help;"),
    (start_counts, "a.js", "if (n===29) return help;"),
    (languages, "a.js", 'const LANGUAGES = ["en", "vi", "sk"];'),
    (languages, "a.js", "if (lang === 'sk') x();"),
    (languages, "a.html", '<button type="button" data-lang="vi">VI</button>'),
    (languages, "a.html", '<button lang="sk" title="Slovenčina">SK</button>'),
    (languages, "a.html", "<p>Tiếng Việt</p>"),
    (languages, "a.js", 'b.title = "English";'),
    (samples, "a.js", "const game = { samples: 1000 };"),
    (samples, "a.js", 'const samples = $("#samples").value.trim() || "1000";'),
    (samples, "a.js", "if (samples > 5000) say(tooMany);"),
    (samples, "a.html", '<input id="samples" value="1000">'),
    (samples, "a.html", '<input id="seed" data-most="9223372036854775807">'),
    (grades, "a.js", '_("an inaccuracy: 5 to 10 points of chance lost")'),
    (grades, "a.js", "_('a blunder: every move had the same chance, 50 expected points or more lost')"),
    (grades, "a.js", '_("{n} of {total} decisions within 5 points of chance of the advice")'),
]


@pytest.mark.parametrize(("check", "name", "text"), COPIES,
                         ids=[f"{c.__name__}-{i}" for i, (c, _n, _t) in enumerate(COPIES)])
def test_each_check_catches_a_copy_put_back(check, name, text):
    assert check(name, text), text


@pytest.mark.parametrize("text", [
    "// the 28 places of the peaks, RANKS A23456789 in a comment: no rule in code",
    'const W = 200, H = 320, x = 10000; node.style.width = "280px";',
    "const t = 1.28 + x28 + 2018;",
    "const re = /[-+*/%<>]/y; const s = \"http://www.w3.org/2000/svg\";",
    "// the English text as the key, as in Slovenčina",
    '_("{n} points of chance lost"); const p = 50; _("in 5 moves");',
])
def test_the_checks_leave_what_is_no_copy_alone(text):
    """Pixel values, longer numbers, comments, regular expressions: no false alarm."""
    assert scan("a.js", text) == []


def test_a_script_is_read_as_code_strings_and_comments():
    code, strings = split_js('a = "x//y"; // c 28\nb = /"/g; c = `t${1}`; /* 29 */ d = 5 / 2;')
    assert strings == [(1, "x//y"), (2, "t${1}")]
    assert "28" not in code and "29" not in code and "5 / 2" in code and "b = " in code
    assert code.count("\n") == 1


# --- FACTS is what the Python modules define --------------------------------------------
def test_facts_are_the_modules_own():
    facts = TestClient(make_app(Path("."), lambda: {HOST}),
                       base_url=f"http://{HOST}").get("/api/facts")
    assert facts.status_code == 200 and facts.headers["content-type"] == "application/json"
    got = facts.json()
    assert got == json.loads(json.dumps(page_facts()))
    g = got["geometry"]
    assert g["tableau_size"] == TABLEAU_SIZE == 28
    assert g["rows"] == [list(r) for r in ROWS] == [[0, 3], [3, 9], [9, 18], [18, 28]]
    assert g["covered_by"] == [list(c) for c in COVERED_BY]
    assert g["columns"] == [column_of(p) for p in range(TABLEAU_SIZE)]
    # by hand: the bottom row at 0, 2, …, 18; the peaks' tops above its 2nd, 5th, 8th gaps
    assert g["columns"][18:] == list(range(0, 20, 2)) and g["columns"][:3] == [3, 9, 15]
    assert g["width"] == 20 and g["stock_size"] == 52 - 28 - 1
    c = got["cards"]
    assert (c["ranks"], c["suits"], c["deck_size"]) == (RANKS, SUITS, DECK_SIZE)
    assert c["suit_symbols"] == {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
    assert c["rank_names"][9] == "10" and (c["joker"], c["joker_symbol"]) == ("Jk", "🃏")
    # the cards a player sees: the bottom row (every card when open), then the waste card
    assert {(s["open"], s["empty_waste"]): (s["count"], s["waste"]) for s in got["starts"]} \
        == {(False, False): (11, True), (False, True): (10, False),
            (True, False): (29, True), (True, True): (28, False)}
    assert [lang["code"] for lang in got["languages"]] == list(LANGUAGES) == ["en", "vi", "sk"]
    assert {lang["code"]: lang["name"] for lang in got["languages"]} == LANGUAGE_NAMES
    # the review's grades: ?! from 5 points of chance lost, ? from 10, ?? from 20; where
    # every chance is the same, from 10, 25 and 50 expected points
    assert got["marks"] == {"chance": [5, 10, 20], "points": [10, 25, 50]}
    assert got["marks"]["chance"] == [round(100 * g) for g in (INACCURACY, MISTAKE, BLUNDER)]
    assert got["marks"]["points"] == [round(g) for g in DEFAULT_POINT_GRADES]
    assert got["limits"] == {"default_samples": app.DEFAULT_SAMPLES,
                             "max_samples": advice.MAX_SAMPLES,
                             "max_seed": str(app.MAX_NUMBER)}


def test_the_page_holds_the_facts_from_its_first_paint():
    html = TestClient(make_app(Path("."), lambda: {HOST}),
                      base_url=f"http://{HOST}").get("/").text
    found = re.search(r'<script type="application/json" id="page-facts">(.*?)</script>', html)
    assert found and json.loads(found.group(1)) == json.loads(json.dumps(page_facts()))
    assert html.index('id="page-facts"') < html.index("</head>")


NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="node is not installed (the browser tests type "
                                         "cards too)")
def test_the_page_reads_cards_and_keys_by_the_facts():
    """cards.js and play.js, run by node on FACTS: a word typed as a card, a card shown,
    the keys typed one by one as the rank they begin (``1`` then ``0``: T)."""
    scripts = "\n".join((STATIC / name).read_text(encoding="utf-8")
                        for name in ("facts.js", "i18n.js", "cards.js"))
    play = (STATIC / "play.js").read_text(encoding="utf-8")
    rank_keys = play[play.index("function rankKeys"):]
    driver = ("globalThis.document = {addEventListener() {}}; globalThis.window = {};\n"
              + scripts + "\n" + rank_keys + "\nObject.assign(FACTS, JSON.parse(process.argv[1]));\n"
              "const words = ['10h', 'th', 'Th', 'AS', 'kc', '1h', 'A2h', 'h', '10', '9x', 'Jk'];\n"
              "const keys = (typed) => [...typed].reduce((k, c) => rankKeys(k, c) || '', '');\n"
              "console.log(JSON.stringify({tokens: words.map(cardToken),\n"
              "  shown: ['Th', 'As', 'Jk', '??'].map(pretty), deck: deckTokens(),\n"
              "  keys: ['10', '1', 'K', 'Q1', '0', '9'].map(keys)}));")
    out = json.loads(subprocess.run([NODE, "-e", driver, json.dumps(page_facts())],
                                    capture_output=True, text=True, timeout=60,
                                    check=True).stdout)
    assert out["tokens"] == ["Th", "Th", "Th", "As", "Kc", None, None, None, None, None, None]
    assert out["shown"] == ["10♥", "A♠", "🃏", "??"]
    assert out["deck"] == [Card(i).token for i in range(DECK_SIZE)]
    assert out["keys"] == ["T", "1", "K", "1", "", "9"]
