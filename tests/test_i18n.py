"""The languages: the catalogs hold every text of the code, each translated, none left
in English, every placeholder kept, compiled as written; the language chosen as POSIX
says; numbers, percentages and plurals written for it; the page's plural rule read as
gettext reads it."""

from __future__ import annotations

import ast
import gettext
import json
import re
import shutil
import subprocess
from functools import cache
from pathlib import Path

import pytest
from babel.messages.extract import extract, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from tripeaks_solver.model import i18n
from tripeaks_solver.model.cards import Card
from tripeaks_solver.model.i18n import (
    LOCALE_DIR,
    language_from_env,
    ngettext,
    number,
    percent,
    speaking,
)
from tripeaks_solver.web.page_texts import html_texts

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "tripeaks_solver" / "web" / "static"
TRANSLATED = ("vi", "sk")
PLACEHOLDER = re.compile(r"\{(\w+)\}")
# Texts that are the same in every language: no word in them to translate.
INVARIANT_WORDS = {"TriPeaks", "TP1", "PySolFC"}  # names
# English words a Vietnamese or Slovak text never holds (outside commands, options and
# card tokens, which stay as they are typed).
ENGLISH = re.compile(r"\b(the|and|of|with|card|cards|move|moves|score|peek|rules|"
                     r"waste|stock|left|known|game|saved|player)\b", re.IGNORECASE)
TYPED = re.compile(r"tripeaks-solve [^)\n]*|coach --[a-z-]+( [A-Z]+)?|--[a-z-]+|\bfix\b|^peek |"
                   r"\b(draw|undo|OLD|NEW|CARD|FILE)\b|fair:\S+")


def key(message) -> tuple[str | None, str]:
    ids = message.id
    return message.context, ids[0] if isinstance(ids, (tuple, list)) else ids


@cache
def extracted() -> dict[tuple[str | None, str], tuple[str, ...]]:
    """Every text of the code, as ``pybabel extract -F babel.cfg`` finds it."""
    with open(ROOT / "babel.cfg", encoding="utf-8") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    found: dict[tuple[str | None, str], tuple[str, ...]] = {}
    package = str(ROOT / "tripeaks_solver")
    for _path, _line, message, _comments, context in extract_from_dir(
            str(ROOT), method_map, options_map, strip_comment_tags=True,
            directory_filter=lambda path: path.startswith(package)):
        ids = message if isinstance(message, tuple) else (message,)
        found[(context, ids[0])] = ids
    return found


@cache
def catalog(lang: str):
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po", "rb") as po:
        return read_po(po, locale=lang)


def messages(lang: str) -> list:
    return [m for m in catalog(lang) if m.id]


def test_the_code_has_texts_to_translate():
    texts = extracted()
    assert len(texts) > 150
    assert (None, "Your game") in texts  # coach
    assert ("move", "draw") in texts  # a context
    assert texts[(None, "{n} move")] == ("{n} move", "{n} moves")  # a plural


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_catalog_holds_every_text_of_the_code_and_no_other(lang):
    """pybabel extract, then update: a text added to the code and not to the catalogs
    (or one the code no longer has) fails here."""
    code = extracted()
    held = {key(m): m.id if isinstance(m.id, tuple) else (m.id,) for m in messages(lang)}
    assert sorted(set(code) - set(held), key=str) == [], "missing from the catalog"
    assert sorted(set(held) - set(code), key=str) == [], "no longer in the code"
    assert {k: v for k, v in code.items() if held[k] != v} == {}, "plural changed"


def test_the_template_is_the_code_s():
    with open(LOCALE_DIR / "messages.pot", "rb") as pot:
        template = {key(m) for m in read_po(pot) if m.id}
    assert template == set(extracted())


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_text_is_translated(lang):
    cat = catalog(lang)
    assert cat.num_plurals == {"vi": 1, "sk": 3}[lang]
    bad = []
    for m in messages(lang):
        forms = m.string if isinstance(m.id, tuple) else (m.string,)
        if m.fuzzy or not all(forms) or len(forms) != (cat.num_plurals
                                                       if isinstance(m.id, tuple) else 1):
            bad.append(key(m))
    assert bad == []
    assert not cat.obsolete


def _words(text: str) -> str:
    return re.sub(r"[^\w]|\d|_", " ", PLACEHOLDER.sub(" ", text)).strip()


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_text_is_left_in_english(lang):
    """A translation equal to its English text passes only when the text has no word
    to translate (``{label}: {score}``, ``2``); no translation holds an English word,
    commands, options and typed tokens aside."""
    same, english = [], []
    for m in messages(lang):
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        forms = m.string if isinstance(m.id, tuple) else (m.string,)
        for form in forms:
            if form in ids and set(_words(form).split()) - INVARIANT_WORDS:
                same.append(form)
            if ENGLISH.search(TYPED.sub(" ", PLACEHOLDER.sub(" ", form))):
                english.append(form)
    assert same == [], "untranslated"
    assert english == [], "English words in a translation"


def test_the_english_check_catches_english():
    assert ENGLISH.search(TYPED.sub(" ", "Known: 3 of 52 cards"))
    assert not ENGLISH.search(TYPED.sub(" ", "Záznam: coach --record FILE v ňom pokračuje"))
    assert set(_words("Peek stopped.").split()) and not _words("{label}: {score}")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_placeholder_is_kept(lang):
    """A translation has exactly the placeholders of its English text (both forms of a
    plural): one dropped or misspelt would print ``{card}`` or lose the card."""
    bad = []
    for m in messages(lang):
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        want = {p for text in ids for p in PLACEHOLDER.findall(text)}
        forms = m.string if isinstance(m.id, tuple) else (m.string,)
        for i, form in enumerate(forms):
            have = set(PLACEHOLDER.findall(form))
            # The one form (n == 1) may leave the number out where English does ("the
            # other card", "the other {n} cards"); no other form may.
            one = i == 0 and len(forms) > 1 and "n" not in PLACEHOLDER.findall(ids[0])
            if have != want and not (one and have == want - {"n"}):
                bad.append((m.id, form))
    assert bad == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_compiled_catalog_is_the_po_file(lang):
    """The .mo files are committed (a fresh clone needs no compile step): each says what
    its .po says (pybabel compile after every update)."""
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / "messages.mo", "rb") as mo:
        compiled = read_mo(mo)

    def pairs(messages) -> set:
        return {(key(m), m.string if isinstance(m.string, str) else tuple(m.string))
                for m in messages if m.id}

    assert pairs(compiled) == pairs(catalog(lang))
    assert compiled.plural_expr == catalog(lang).plural_expr


def test_the_translation_function_is_never_shadowed():
    """A module that imports ``_`` from model.i18n never binds ``_`` itself (``for _ in``,
    ``x, _ = …``): inside such a function ``_()`` would not translate but fail."""
    bad = []
    for path in (ROOT / "tripeaks_solver").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imports = any(isinstance(n, ast.ImportFrom) and (n.module or "").endswith("i18n")
                      and any(a.name == "_" for a in n.names) for n in ast.walk(tree))
        if imports:
            bad += [f"{path.name}:{n.lineno}" for n in ast.walk(tree)
                    if isinstance(n, ast.Name) and n.id == "_" and isinstance(n.ctx, ast.Store)
                    or isinstance(n, ast.arg) and n.arg == "_"]
    assert bad == []


# --- choosing the language ------------------------------------------------------------
@pytest.mark.parametrize(("env", "lang"), [
    ({}, "en"),
    ({"LANG": "vi_VN.UTF-8"}, "vi"),
    ({"LANG": "sk_SK.UTF-8", "LC_MESSAGES": "vi_VN"}, "vi"),
    ({"LANG": "vi_VN.UTF-8", "LC_ALL": "sk_SK.UTF-8", "LC_MESSAGES": "en_US"}, "sk"),
    ({"LANG": "vi_VN.UTF-8", "LC_ALL": "C"}, "en"),  # LC_ALL decides, even for English
    ({"LANG": "sk", "LC_ALL": ""}, "sk"),  # an empty variable is no choice
    ({"LANG": "fr_FR.UTF-8"}, "en"),
    ({"LANG": "sk@euro"}, "sk"),
])
def test_the_environment_chooses_as_posix_says(env, lang):
    assert language_from_env(env) == lang


def test_a_context_speaks_its_language_and_the_process_its_own():
    assert i18n.current() == "en"  # the tests' environment
    with speaking("sk"):
        assert i18n.current() == "sk"
        with speaking("vi"):
            assert Card.parse("As").name == "át bích"
        assert Card.parse("As").name == "pikové eso"
    assert Card.parse("As").name == "A♠"
    try:
        assert i18n.set_language("vi") == "vi" and i18n.current() == "vi"
        with speaking("sk"):  # a request's language outweighs the process's
            assert i18n.current() == "sk"
    finally:
        i18n.set_language(None)
    assert i18n.current() == "en"


@pytest.mark.parametrize(("lang", "names"), [
    ("en", ["A♣", "K♣", "Q♦", "7♣", "J♥", "🃏"]),
    ("vi", ["át chuồn", "vua chuồn", "đầm rô", "7 chuồn", "bồi cơ", "lá joker"]),
    ("sk", ["krížové eso", "krížový kráľ", "kárová dáma", "krížová 7", "srdcový dolník",
            "žolík"]),
])
def test_cards_are_named_as_the_app_names_them(lang, names):
    with speaking(lang):
        assert [Card.parse(c).name for c in ("Ac", "Kc", "Qd", "7c", "Jh", "Jk")] == names


@pytest.mark.parametrize(("lang", "names"), [
    ("en", ["the peaks, 1st card from the left", "row 2 from the top, 6th card from the left",
            "the bottom row, 10th card from the left"]),
    ("vi", ["các lá ở đỉnh, lá thứ nhất từ bên trái", "hàng 2 từ trên xuống, lá thứ sáu từ bên trái",
            "hàng dưới cùng, lá thứ mười từ bên trái"]),
    ("sk", ["špičky, 1. karta zľava", "rad 2 zhora, 6. karta zľava",
            "spodný rad, 10. karta zľava"]),
])
def test_the_first_and_last_rows_are_named_as_the_app_names_them(lang, names):
    from tripeaks_solver.model.layout import place_name

    with speaking(lang):
        assert [place_name(p) for p in (0, 8, 27)] == names


@pytest.mark.parametrize(("lang", "todo"), [
    ("en", "Peek: undo 2, then tap 8♥ → the stock → 4♣, and say "),
    ("vi", "Xem trước: hoàn tác 2 lần, rồi chạm vào 8♥ → chồng bài rút → 4♣, rồi nhập "),
    ("sk", "Nakuknutie: vráťte ťah (2×), potom klepnite na 8♥ → doberací balíček → 4♣ a "),
])
def test_a_peek_step_says_what_to_tap_in_the_app(lang, todo):
    """As the page says it: a verb, the taps in order, a draw a tap on the stock."""
    from tripeaks_solver.analysis.peek import Step
    from tripeaks_solver.games.turns import PeekTurn
    from tripeaks_solver.model.moves import Move
    from tripeaks_solver.model.rules import EASY

    step = Step(2, (Move.parse("8h"), Move.DRAW, Move.parse("4c")), (9,))
    with speaking(lang):
        assert PeekTurn(step, 2, 1, 40).text(EASY).startswith(todo)


def test_slovak_has_three_plural_forms_and_vietnamese_one():
    def moves(lang: str) -> list[str]:
        with speaking(lang):
            return [ngettext("{n} move", "{n} moves", n) for n in (1, 2, 4, 5, 1000)]

    assert moves("en") == ["1 move", "2 moves", "4 moves", "5 moves", "1,000 moves"]
    assert moves("sk") == ["1 ťah", "2 ťahy", "4 ťahy", "5 ťahov", "1\xa0000 ťahov"]
    assert moves("vi") == ["1 nước đi", "2 nước đi", "4 nước đi", "5 nước đi", "1.000 nước đi"]


@pytest.fixture(scope="module")
def review_with_everything():
    """A fair review of a whole deal (every card known) with moves taken back and the win
    lost: every text of the plot is drawn."""
    from tripeaks_solver.analysis.hints import analyze_game
    from tripeaks_solver.games.records import make_start
    from tripeaks_solver.model.rules import EASY

    moves = ["8h", "d", "d", "u", "u", "d", "d", "d", "d", "d", "d"]
    review = analyze_game(make_start("code", "TP1-E-AAAAAAD", EASY), moves, fair=True,
                          samples=5, seed=1)
    assert review.exact and review.fair and any(r.taken_back for r in review.moves)
    assert any(not r.winnable_after for r in review.moves)
    return review


@pytest.mark.parametrize(("lang", "rules", "hundred"), [
    ("en", "Easy rules", "100%"), ("vi", "luật Dễ", "100%"), ("sk", "pravidlá Ľahké", "100\xa0%")])
def test_the_plot_of_a_review_is_in_the_language(review_with_everything, lang, rules,
                                                 hundred):
    """analyze --plot: its title, axes, legend and percentages in the language; in
    Vietnamese and Slovak no English word (the check finds the English ones)."""
    pytest.importorskip("matplotlib")
    from tripeaks_solver.analysis.review_plot import review_figure
    from tripeaks_solver.games.turns import rules_name

    with speaking(lang):
        fig = review_figure(review_with_everything, "TP1-E-AAAAAAD",
                            rules_name(review_with_everything.start.rules))
        fig.canvas.draw()
    score_axis, share_axis = fig.axes
    (legend,) = [ax.get_legend() for ax in fig.axes if ax.get_legend() is not None]
    texts = [score_axis.get_title(), score_axis.get_xlabel(), score_axis.get_ylabel(),
             share_axis.get_ylabel(), *(t.get_text() for t in legend.get_texts())]
    assert len(texts) == 8 and all(texts)  # 4 in the legend: the lines, the lost, the bands
    assert texts[0].startswith(f"TP1-E-AAAAAAD: {rules}, ")
    shares = [t.get_text() for t in share_axis.get_yticklabels()]
    assert hundred in shares and all(s.endswith("%") for s in shares if s)
    english = [t for t in texts if ENGLISH.search(t.replace("TP1-E-AAAAAAD", ""))]
    if lang == "en":
        assert len(english) >= 6
    else:
        assert english == []
        assert [t for t in texts if set(_words(t).split()) & {"fair", "share", "undos",
                                                              "taken", "final", "best"}] == []


def test_numbers_and_percentages_are_written_for_the_language():
    written = {}
    for lang in ("en", "vi", "sk"):
        with speaking(lang):
            written[lang] = (number(1234567), percent(0.31), percent(0.996, 1),
                             percent(0.99995, 2))
    assert written["en"] == ("1,234,567", "31%", "99.6%", "100.00%")
    assert written["vi"] == ("1.234.567", "31%", "99,6%", "100,00%")
    assert written["sk"] == ("1\xa0234\xa0567", "31\xa0%", "99,6\xa0%", "100,00\xa0%")
    with speaking("sk"):  # rounded once, as Python rounds, whatever the language
        assert [percent(x, 1) for x in (0.00125, 0.00135)] == [f"{100 * x:.1f}\xa0%"
                                                               .replace(".", ",")
                                                               for x in (0.00125, 0.00135)]


# --- the page --------------------------------------------------------------------------
def test_the_page_s_html_texts_are_read_as_i18n_js_reads_them():
    html = ('<p data-i18n>Click a card,\n    then   the stock</p>\n'
            '<button data-i18n-attrs="title aria-label" title="draw (d)" aria-label="Draw">'
            '<span data-i18n>Undo</span></button><input data-i18n-attrs="placeholder" '
            'placeholder="">')
    assert html_texts(html) == [(1, None, "Click a card, then the stock"),
                                (3, None, "draw (d)"), (3, None, "Draw"), (3, None, "Undo")]
    with pytest.raises(ValueError, match="only text"):
        html_texts("<p data-i18n>Click <b>here</b></p>")
    # data-i18n-context: the element's text and attributes keyed as pgettext keys them
    html = ('<label><span data-i18n data-i18n-context="field label">Start</span></label>'
            '<button data-i18n data-i18n-context="button" data-i18n-attrs="title" '
            'title="Start  a game">Start</button>')
    assert html_texts(html) == [(1, "field label", "Start"), (1, "button", "Start a game"),
                                (1, "button", "Start")]


def test_babel_cfg_sends_the_page_s_html_to_its_extractor(tmp_path):
    """pybabel reads index.html through web/page_texts.py (babel.cfg's mapping), and every
    text of the page's HTML is in the catalogs."""
    static = tmp_path / "tripeaks_solver" / "web" / "static"
    static.mkdir(parents=True)
    (static / "index.html").write_text('<p data-i18n>Peek first</p>\n<b data-i18n '
                                       'data-i18n-context="button">Peek</b>', encoding="utf-8")
    with open(ROOT / "babel.cfg", encoding="utf-8") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    found = [(m[4], m[2]) for m in extract_from_dir(str(tmp_path), method_map, options_map)]
    assert found == [(None, "Peek first"), ("button", "Peek")]
    html = (STATIC / "index.html").read_text("utf-8")
    assert {(context, text) for _line, context, text in html_texts(html)} <= set(extracted())


def test_a_key_with_two_meanings_has_a_context_for_each():
    """The page's "Start" is the start field's label and the button that starts the game
    (Slovak: "Začiatok", "Začať"); "Peek" the button and the peek's title above its steps.
    Each has its context, and each context its own word where the language has two."""
    code = extracted()
    assert {("field label", "Start"), ("button", "Start"), ("button", "Peek"),
            (None, "Peek")} <= set(code) and (None, "Start") not in code
    sk = {key(m): m.string for m in messages("sk")}
    assert sk[("field label", "Start")] == "Začiatok" and sk[("button", "Start")] == "Začať"
    assert sk[("button", "Peek")] == "Nakuknúť" and sk[(None, "Peek")] == "Nakuknutie"


# A scan of the page's scripts independent of pybabel's: every call of the page's
# functions whose first argument is a literal, wherever it stands (inside another call's
# arguments too: pybabel's JavaScript reader misses those), comments and strings skipped.
JS_TOKENS = re.compile(r"""//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'"""
                       r"""|`(?:\\.|[^`\\])*`|(?<![\w$.])(_|ngettext|pgettext)\s*\(""",
                       re.DOTALL)
JS_LITERAL = r"""\s*("(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')"""


def js_calls(text: str) -> list[tuple[int, str | None, str | None]]:
    """(line, context, text) of every ``_("…")``, ``ngettext("…", …)``,
    ``pgettext("context", "…")`` of ``text`` (a pgettext whose text is no literal: None)."""
    found = []
    for m in JS_TOKENS.finditer(text):
        first = m[1] and re.compile(JS_LITERAL).match(text, m.end())
        if not first:
            continue  # a comment, a string, or a call on a variable (i18n.js's own)
        line, value = text.count("\n", 0, m.start()) + 1, ast.literal_eval(first[1])
        if m[1] == "pgettext":
            second = re.compile(r"\s*," + JS_LITERAL).match(text, first.end())
            found.append((line, value, second and ast.literal_eval(second[1])))
        else:
            found.append((line, None, value))
    return found


def test_the_scan_of_the_scripts_finds_nested_calls_and_skips_comments():
    text = ('// _("a comment")\nsay(_("Moves: {a}", { a: ngettext("{n} x", "{n} xs", n),\n'
            ' b: pgettext("move", "draw") }), "_(\\"in a string\\")", f._("no"));\n'
            '/* ngettext("nor this") */ _(key);')
    assert js_calls(text) == [(2, None, "Moves: {a}"), (2, None, "{n} x"), (3, "move", "draw")]


@pytest.mark.parametrize("script", sorted(p.name for p in STATIC.glob("*.js")))
def test_every_text_of_a_script_is_extracted_from_it(script):
    """pybabel extracts each call the scan finds from that very script (a call inside
    another's arguments it skips: its text, missing from the page's catalog, would show in
    English), and the catalogs hold it."""
    path = STATIC / script
    with open(path, "rb") as f:
        babel = {(context, msg if isinstance(msg, str) else msg[0])
                 for _line, msg, _comments, context in extract("javascript", f)}
    scanned = js_calls(path.read_text(encoding="utf-8"))
    assert [(line, context, text) for line, context, text in scanned
            if (context, text) not in babel] == [], "not extracted by pybabel"
    assert {(context, text) for _line, context, text in scanned} <= set(extracted())
    assert len(scanned) >= {"app.js": 0, "i18n.js": 0, "facts.js": 0}.get(script, 10)


NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="node is not installed (the browser test reads "
                                         "the rule too)")
def test_the_page_reads_a_plural_rule_as_gettext_does():
    """i18n.js parses the catalog's rule (the page may not eval): the same form as
    Python's gettext for every n up to 200, under our catalogs' rules and harder ones."""
    rules = [catalog(lang).plural_expr for lang in TRANSLATED]
    rules += ["n != 1",
              ("(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) "
               "? 1 : 2)"),
              "n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5",
              "(n % 10 == 1 && n % 100 != 11) ? 0 : 1", "!(n == 1)", "n / 10 % 3"]
    script = (ROOT / "tripeaks_solver" / "web" / "static" / "i18n.js").read_text()
    driver = ("globalThis.document = {addEventListener() {}}; globalThis.window = {};\n"
              + script + "\nconst rules = JSON.parse(process.argv[1]);\n"
              "console.log(JSON.stringify(rules.map((r) => { const f = pluralRule(r);"
              " return Array.from({length: 201}, (_, n) => f(n)); })));")
    out = subprocess.run([NODE, "-e", driver, json.dumps(rules)], capture_output=True,
                         text=True, timeout=60, check=True).stdout
    expected = [[gettext.c2py(r)(n) for n in range(201)] for r in rules]
    assert json.loads(out) == expected
    assert expected[1][:6] == [2, 0, 1, 1, 1, 2]  # Slovak: 5+, 1, 2–4
