"""The page in Vietnamese and Slovak, in a real browser (headless Chromium): a browser
whose language is Vietnamese gets the page in Vietnamese; the page's switch turns it to
Slovak and the choice holds across reloads. The visible text of the start page, a game,
a question, the end and /solve holds no English text of the catalog. At 390 px the words
longer than English's fit where they stand: the advice bars' labels, the waste slot. A
Czech browser gets Slovak; a file that is no record is said in the list's words."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from test_web_browser import (
    WAIT,
    Player,
    Server,
    chromium,
    click,
    set_width,
    start_game,
    status,
    wait_settled,
)

from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.i18n import LOCALE_DIR

pytestmark = pytest.mark.slow  # a browser and whole games: CI's slow step
PLACEHOLDER = re.compile(r"\{\w+\}")
# Words every language writes the same (names, codes).
SAME = {"TriPeaks", "TP1"}


def english(lang: str) -> list[re.Pattern]:
    """A pattern for each English text of the catalog that ``lang`` translates: the text
    between its placeholders (a word alone as a whole word)."""
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po", "rb") as po:
        catalog = read_po(po, locale=lang)
    found = set()
    for m in catalog:
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        forms = m.string if isinstance(m.id, tuple) else (m.string,)
        if not m.id or set(ids) & set(forms):  # the same in both: nothing to find
            continue
        for text in ids:
            for part in PLACEHOLDER.split(text):
                part = part.strip(" .,:;()·–-")
                words = re.findall(r"[A-Za-z]+", part)
                if len("".join(words)) >= 3 and not set(words) <= SAME:
                    found.add(part)
    return [re.compile(rf"(?<![\w-]){re.escape(p)}(?![\w-])") for p in sorted(found)]


def left_in_english(driver, patterns: list[re.Pattern]) -> list[str]:
    text = driver.execute_script("return document.body.innerText")
    return sorted({p.pattern for p in patterns if p.search(text)})


def browser_speaking(lang: str) -> webdriver.Chrome:
    """The tests' Chromium, its languages (Accept-Language) ``lang``'s."""
    driver = chromium()
    agent = driver.execute_script("return navigator.userAgent")
    driver.execute_cdp_cmd("Network.setUserAgentOverride",
                           {"userAgent": agent, "acceptLanguage": f"{lang},en;q=0.5"})
    return driver


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("records"))
    yield srv
    assert srv.stop() == 130


def check_pages(driver, server: Server, lang: str) -> None:
    """/, a game with its advice, a question, the end, /solve: in ``lang``, no English."""
    patterns = english(lang)
    assert len(patterns) > 150
    seen: dict[str, list[str]] = {}

    def look(where: str) -> None:
        assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == lang
        seen[where] = left_in_english(driver, patterns)

    driver.get(server.url)
    WebDriverWait(driver, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-pick]"))
    look("/")
    deal = Deal.from_number(5)
    player = Player(driver, deal)
    start_game(driver, server, player.seen_line())
    assert wait_settled(driver) == "move"
    look("a game")
    driver.find_element(By.CSS_SELECTOR, "[data-action=draw]").click()
    assert wait_settled(driver) == "question"
    look("a question")
    # The end: a code (every card known), draws until no win is left, then the best moves.
    code = "TP1-E-AAAAAAD"
    player = Player(driver, Deal.from_code(code))
    player.seen = set(player.deal.cards)
    start_game(driver, server, code)
    for _ in range(6):
        assert wait_settled(driver) == "move"
        player.move("draw")
    assert player.follow() == "over" and status(driver)[0] == "stuck"
    WebDriverWait(driver, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-summary]"))
    look("the end")
    # The moves that would have kept the win were never played: said as a condition.
    summary = driver.find_element(By.CSS_SELECTOR, "[data-summary]").text
    assert {"vi": "; nếu đi ", "sk": "; výhru by zachoval ťah "}[lang] in summary, summary
    # The move that threw the win away, looked back on: its mark's words a sentence.
    WebDriverWait(driver, WAIT).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, '#moves [data-exact-mark="??"]'))
    click(driver, '#moves [data-exact-mark="??"] button')
    WebDriverWait(driver, WAIT).until(lambda d: "??" in d.find_element(By.ID, "review-text").text)
    said = driver.find_element(By.ID, "review-text").text
    assert said.split("?? ", 1)[1][:1].isupper(), said
    look("a move looked back on")
    driver.get(f"{server.url}solve?text={code}")
    WebDriverWait(driver, WAIT).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "[data-solve-rules]"))
    look("/solve")
    assert {where: left for where, left in seen.items() if left} == {}


def test_the_page_speaks_the_browser_s_language_then_the_switch_s(server):
    driver = browser_speaking("vi")
    try:
        check_pages(driver, server, "vi")
        driver.get(server.url)
        click(driver, '[data-lang="sk"]')
        WebDriverWait(driver, WAIT).until(
            lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("lang") == "sk")
        assert driver.find_element(By.CSS_SELECTOR, '[data-lang="sk"]').get_attribute(
            "aria-pressed") == "true"
        # One English word, two Slovak ones: the start field's label, the start button.
        words = [driver.find_element(By.CSS_SELECTOR, css).get_attribute("textContent")
                 for css in ("#start-view label.wide span", "[data-action=start]",
                             "[data-action=peek]")]
        assert words == ["Začiatok", "Začať", "Nakuknúť"]
        check_pages(driver, server, "sk")  # the choice holds, page after page
        driver.get(server.url)
        click(driver, '[data-lang="en"]')
        WebDriverWait(driver, WAIT).until(
            lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en")
        assert left_in_english(driver, english("sk"))  # the check finds English
    finally:
        driver.quit()


def test_an_address_s_language_holds_on_the_pages_and_answers_that_follow(server):
    """/?lang=sk in an English browser: /solve, reached without it, is Slovak too, and
    so is the server's error there (the request carries the kept choice)."""
    driver = browser_speaking("en")
    try:
        driver.get(server.url + "?lang=sk")
        WebDriverWait(driver, WAIT).until(
            lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("lang") == "sk")
        driver.get(server.url + "solve")
        WebDriverWait(driver, WAIT).until(
            lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("lang") == "sk")
        driver.find_element(By.ID, "solve-text").send_keys("TP1-Q-AAAAAAD")
        click(driver, "[data-action=solve]")
        WebDriverWait(driver, WAIT).until(
            lambda d: d.find_element(By.ID, "message").is_displayed())
        said = driver.find_element(By.ID, "message").text
        assert said and not left_in_english(driver, english("sk")), said
    finally:
        driver.quit()


# The words at 390 px: each label's lines and box, the box beside it.
BAR_LABELS = """return [...document.querySelectorAll('#bars .bar')].map((bar) => {
  const label = bar.querySelector('.label'), range = document.createRange();
  range.selectNodeContents(label);
  const text = range.getBoundingClientRect(), track = bar.querySelector('.track').getBoundingClientRect();
  return {word: label.textContent, lines: range.getClientRects().length, right: text.right,
          track: track.left, cut: label.scrollWidth > label.clientWidth};
});"""
WASTE_SLOT = """const slots = [...document.querySelectorAll('#picked .slot-small')];
const slot = slots[slots.length - 1], word = slot.querySelector('span'), range = document.createRange();
range.selectNodeContents(word);
const box = (r) => ({left: r.left, right: r.right, top: r.top, bottom: r.bottom});
return {waste: slot.classList.contains('waste-slot'), word: word.textContent,
        slot: box(slot.getBoundingClientRect()), text: box(range.getBoundingClientRect()),
        before: box(slots[slots.length - 2].getBoundingClientRect()), width: window.innerWidth};"""
# The start field's example (its placeholder) as wide as the font draws it, and the room.
PLACEHOLDER_FITS = """const input = document.getElementById('start-text'), style = getComputedStyle(input);
const canvas = document.createElement('canvas').getContext('2d');
canvas.font = getComputedStyle(input, '::placeholder').font;
return [canvas.measureText(input.placeholder).width,
        input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)];"""


@pytest.mark.parametrize(("lang", "draw", "waste"), [
    ("vi", "rút bài", "chồng bài bỏ"), ("sk", "dobratie", "odkladací balíček"),
    ("en", "draw", "waste")])
def test_the_longer_words_fit_at_390_px(server, lang, draw, waste):
    """The advice bars' labels on one line, each left of its bar, the bars starting
    together; the start picker's waste slot holding its word, clear of the slot before
    it and of the screen's edge; the start field's example whole."""
    driver = browser_speaking(lang)
    try:
        set_width(driver, 390, 844)
        driver.get(server.url)
        WebDriverWait(driver, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR,
                                                                    "#picked .slot-small"))
        slot = driver.execute_script(WASTE_SLOT)
        assert slot["waste"] and slot["word"] == waste
        inside = (slot["slot"]["left"] - 0.5 <= slot["text"]["left"]
                  and slot["text"]["right"] <= slot["slot"]["right"] + 0.5
                  and slot["slot"]["top"] - 0.5 <= slot["text"]["top"]
                  and slot["text"]["bottom"] <= slot["slot"]["bottom"] + 0.5)
        assert inside, slot
        assert slot["before"]["right"] <= slot["slot"]["left"] or (
            slot["before"]["bottom"] <= slot["slot"]["top"]), slot  # beside it, or below
        assert slot["slot"]["right"] <= slot["width"], slot
        need, room = driver.execute_script(PLACEHOLDER_FITS)
        assert need <= room, (need, room)
        start_game(driver, server, "TP1-E-AAAAAAD")
        assert wait_settled(driver) == "move"
        rules = {"vi": "luật Dễ, cách tính điểm của ứng dụng", "en": "Easy rules, app scoring",
                 "sk": "pravidlá Ľahké, bodovanie aplikácie"}[lang]  # the scoring's full name
        assert rules in driver.find_element(By.CSS_SELECTOR, "[data-status]").text
        bars = driver.execute_script(BAR_LABELS)
        assert draw in [b["word"] for b in bars], bars
        assert [b for b in bars if b["lines"] != 1 or b["cut"] or b["right"] > b["track"]] == []
        assert len({round(b["track"], 1) for b in bars}) == 1, bars  # one column of bars
    finally:
        driver.quit()


def test_a_record_that_cannot_be_read_is_said_in_the_list_s_words(server):
    """/play/NAME of a file that is no record: the page says why in the words of its list
    of saved games, not the terminal's advice (a new file name, a record coach wrote)."""
    (server.folder / "notes.txt").write_text("my notes\n", encoding="utf-8")
    driver = browser_speaking("sk")
    try:
        driver.get(server.url + "play/notes.txt")
        WebDriverWait(driver, WAIT).until(
            lambda d: d.find_element(By.ID, "message").is_displayed())
        said = driver.find_element(By.ID, "message").text
        assert said.startswith("nečitateľný: notes.txt nie je záznam hry"), said
        assert "coach" not in said and str(server.folder) not in said, said
    finally:
        driver.quit()


def test_a_czech_browser_gets_the_page_in_slovak(server):
    """Czech, which the page lacks: its closest language, Slovak, rather than English."""
    driver = browser_speaking("cs-CZ,cs;q=0.9")
    try:
        driver.get(server.url)
        WebDriverWait(driver, WAIT).until(
            lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("lang") == "sk")
        assert driver.find_element(By.CSS_SELECTOR, "[data-action=start]").text == "Začať"
    finally:
        driver.quit()
