"""The page in a real browser: headless Chromium driven by Selenium against the real
server (``tripeaks-solve serve --port 0``), playing whole games by clicking what a player
would, on deals whose hidden cards only the test knows.

The test holds the deal and its own plain-Python game: it clicks the move the page
recommends, plays it on its own game too, and picks each card that turns up from the
deal. The page's result is then checked against that game, and the record the server
wrote against ``tripeaks-solve replay --record``. A card picked wrongly is corrected on
the page; the end's summary is checked against ``analyze --record``; a peek's clicks
are counted; axe-core (axe-selenium-python) checks every page in light and dark, at
390 and 1280 px.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from tripeaks_solver.model.cards import Card
from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.game import Game
from tripeaks_solver.model.observed import seen_places
from tripeaks_solver.model.rules import EASY

REPO = Path(__file__).resolve().parent.parent
CHROMEDRIVER = "/usr/bin/chromedriver"  # Debian's chromium-driver (.ci/run installs it)
CHROMIUM = "/usr/bin/chromium"
SAMPLES = 50  # fair advice from 50 completions: a turn in well under a second
WAIT = 60  # seconds: the first advice may load the kernels

# CI (CI=true: .ci/run installs Debian's chromium and chromium-driver) runs these tests
# always, and fails here if the browser is missing; a machine without the browser skips
# them with the command that installs it.
if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
    if os.environ.get("CI"):
        raise RuntimeError(f"{CHROMIUM} or {CHROMEDRIVER} is missing: .ci/run installs them")
    pytestmark = pytest.mark.skip(reason="no browser: apt-get install chromium chromium-driver")


# --- the server and the browser ---------------------------------------------------------
class Server:
    """``tripeaks-solve serve --port 0 --no-open --data-dir DIR`` as a process."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tripeaks_solver", "serve", "--port", "0", "--no-open",
             "--data-dir", str(folder)], env={**os.environ, "PYTHONPATH": str(REPO)},
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+/", line)
        if not found:
            self.proc.kill()
            raise AssertionError(f"no address printed: {line!r} {self.proc.stderr.read()}")
        self.url = found.group(0)

    def stop(self, sig: int = signal.SIGINT) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            self.proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.communicate()
        return self.proc.returncode


def chromium(width: int = 1280) -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run",
                f"--user-data-dir={tempfile.mkdtemp(prefix='tripeaks-chromium-')}",
                "--window-size=1280,1000"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    set_width(driver, width)
    # Every value data-recommended takes, in order (window.__recommended), to check
    # that it is empty from a click until the advice for the new position shows.
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
        window.__recommended = [];
        document.addEventListener("DOMContentLoaded", () => {
          const el = document.querySelector("[data-recommended]");
          if (!el) return;
          new MutationObserver(() => window.__recommended.push(el.dataset.recommended))
            .observe(el, {attributes: true, attributeFilter: ["data-recommended"]});
        });"""})
    return driver


def set_width(driver: webdriver.Chrome, width: int, height: int = 1000) -> None:
    """The page's viewport ``width`` CSS pixels wide (a phone's 390 px too: headless
    windows have a minimum width, the device metrics have none)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("records"))
    yield srv
    assert srv.stop() == 130


@pytest.fixture(scope="module")
def browser():
    driver = chromium()
    yield driver
    driver.quit()


def artifact_dir(tmp_path_factory) -> Path:
    where = os.environ.get("TRIPEAKS_WEB_ARTIFACTS")
    folder = Path(where) if where else tmp_path_factory.getbasetemp() / "artifacts"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


# --- reading and clicking the page ------------------------------------------------------
def attr(driver, selector: str, name: str) -> str:
    return driver.find_element(By.CSS_SELECTOR, selector).get_attribute(name) or ""


def status(driver) -> tuple[str, int, int]:
    el = driver.find_element(By.CSS_SELECTOR, "[data-status]")
    return (el.get_attribute("data-status"), int(el.get_attribute("data-moves") or -1),
            int(el.get_attribute("data-score") or -1))


def settled(driver) -> str | None:
    """What the page waits for from the player: ``question``, ``move`` (advice shown),
    ``peek-next`` (a peek's last step), ``over``; None while it waits for the server."""
    try:
        if driver.find_element(By.CSS_SELECTOR, "[data-busy]").is_displayed():
            return None
        if driver.find_element(By.ID, "question").is_displayed():
            return "question"
        if any(e.is_displayed() for e in driver.find_elements(
                By.CSS_SELECTOR, "[data-action=peek-next]")):
            return "peek-next"
        state = driver.find_element(By.CSS_SELECTOR, "[data-status]").get_attribute(
            "data-status")
        if state in ("won", "stuck"):
            return "over"
        if attr(driver, "[data-recommended]", "data-recommended"):
            return "move"
    except StaleElementReferenceException:
        return None
    return None


def wait_settled(driver) -> str:
    return WebDriverWait(driver, WAIT, poll_frequency=0.02).until(settled)


def click(driver, selector: str) -> None:
    driver.find_element(By.CSS_SELECTOR, selector).click()


class Player:
    """A player at the page, on a deal only they (the test) know in full."""

    def __init__(self, driver, deal: Deal, rules=EASY) -> None:
        self.driver = driver
        self.deal = deal
        self.game = Game(deal, rules)
        self.seen = {deal.cards[p] for p in seen_places(rules)}
        self.told: dict[str, str] = {}  # a card the page shows: the card it really is
        self.clicks = 0  # on the page, by move() and pick()

    def click(self, selector: str) -> None:
        click(self.driver, selector)
        self.clicks += 1

    def seen_line(self) -> str:
        return " ".join(self.deal.cards[p].token for p in seen_places(self.game.rules))

    def catch_up(self, tokens: list[str]) -> None:
        """Play the moves of a record made elsewhere on the test's own game."""
        for token in tokens:
            self._play(token.split(":")[0])

    def _play(self, move: str) -> list:
        before = self.game.visible_places()
        self.game.play(move)
        shown = sorted(self.game.visible_places() - before)
        new = [self.deal.cards[p] for p in shown if self.deal.cards[p] not in self.seen]
        self.seen.update(new)
        if len(self.seen) == len(self.deal.cards) - 1:  # the last one, by elimination
            self.seen.update(self.deal.cards)
        return new

    def move(self, token: str) -> None:
        """Click ``token`` (a card of the board, draw, undo) and say the cards it turned
        up, left first."""
        selector = {"draw": "[data-action=draw]", "undo": ".controls [data-action=undo]"}.get(
            token, f'[data-card="{token}"]')
        new = self._play(self.told.get(token, token))
        self.driver.execute_script("window.__recommended = []")
        self.click(selector)
        for card in new:
            self.pick(card.token)

    def pick(self, card: str) -> None:
        """Say ``card`` at the question the page asks."""
        assert wait_settled(self.driver) == "question"
        assert not self.driver.find_elements(By.CSS_SELECTOR, f'[data-reveal="{card}"][disabled]')
        self.click(f'[data-reveal="{card}"]')

    def follow(self, most: int = 500, stop_at: int | None = None) -> str:
        """Play the recommended move until the game ends (or ``stop_at`` moves)."""
        for _ in range(most):
            now = wait_settled(self.driver)
            if now == "over":
                return now
            assert now == "move", now
            changes = self.driver.execute_script("return window.__recommended")
            if self.game.moves:  # since the last click: emptied, then the new advice
                assert changes[0] == "" and changes[-1] != "", changes
            if stop_at is not None and self.game.moves >= stop_at:
                return now
            self.move(attr(self.driver, "[data-recommended]", "data-recommended"))
        raise AssertionError("the game did not end")

    def check_end(self, folder: Path) -> Path:
        """The page shows the test's game (its status, moves and score); the record
        replays to it."""
        state, moves, score = status(self.driver)
        want = self.game.status.value
        assert (state, moves, score) == (want, self.game.moves, self.game.score_under("app"))
        record = folder / self.record_name()
        out = subprocess.run([sys.executable, "-m", "tripeaks_solver", "replay", "--record",
                              str(record), "--json"], env={**os.environ, "PYTHONPATH": str(REPO)},
                             capture_output=True, text=True, check=True)
        replayed = json.loads(out.stdout)
        assert (replayed["status"], replayed["score"], replayed["moves"]) == (want, score, moves)
        return record

    def record_name(self) -> str:
        return self.driver.current_url.split("/play/", 1)[1].split("?")[0]


def start_game(driver, server: Server, text: str, samples: int = SAMPLES,
               seed: int | str | None = None) -> None:
    driver.get(server.url)
    box = driver.find_element(By.ID, "start-text")
    box.clear()
    box.send_keys(text)
    samples_box = driver.find_element(By.ID, "samples")
    samples_box.clear()
    samples_box.send_keys(str(samples))
    if seed is not None:
        driver.find_element(By.ID, "seed").send_keys(str(seed))
    click(driver, "[data-action=start]")
    WebDriverWait(driver, WAIT).until(lambda d: "/play/" in d.current_url)


def no_horizontal_scroll(driver) -> bool:
    return driver.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth")


# --- the tests -------------------------------------------------------------------------
@pytest.mark.slow  # CI's slow step; the fast set keeps the keys (the quickest browser game)
def test_a_whole_game_clicked_on_a_phone_with_a_reload(server, browser, tmp_path_factory):
    """Start from the 11 cards clicked on the picker, play the recommended move each
    turn and pick every card that turns up, reload mid-game, play to the end."""
    deal = Deal.from_number(7)
    player = Player(browser, deal)
    set_width(browser, 390)
    try:
        browser.get(server.url)
        for token in player.seen_line().split():
            click(browser, f'[data-pick="{token}"]')
        click(browser, '[data-rules="easy"]')
        samples_box = browser.find_element(By.ID, "samples")
        samples_box.clear()
        samples_box.send_keys(str(SAMPLES))
        click(browser, "[data-action=start]")
        WebDriverWait(browser, WAIT).until(lambda d: "/play/" in d.current_url)
        assert wait_settled(browser) == "move"
        # Only the bottom row is face up: the ten cards clicked, clickable.
        places = {el.get_attribute("data-place"): el.get_attribute("data-card")
                  for el in browser.find_elements(By.CSS_SELECTOR, "[data-card]")}
        assert places == {str(p): deal.cards[p].token for p in range(18, 28)}
        player.follow(stop_at=6)
        url = browser.current_url
        before = status(browser)
        browser.refresh()
        assert wait_settled(browser) in ("move", "over")
        assert browser.current_url == url and status(browser) == before
        assert no_horizontal_scroll(browser)
        browser.save_screenshot(str(artifact_dir(tmp_path_factory) / "board-390.png"))
        player.follow()
        assert no_horizontal_scroll(browser)
        player.check_end(server.folder)
        # the end: the game judged, and its picture
        WebDriverWait(browser, WAIT).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, "#end svg.chart"))
        browser.save_screenshot(str(artifact_dir(tmp_path_factory) / "end-390.png"))
    finally:
        set_width(browser, 1280)


@pytest.mark.slow  # CI's slow step; the fast set keeps the keys (the quickest browser game)
@pytest.mark.parametrize("to_end", [pytest.param(False, id="on"),
                                    pytest.param(True, id="to-the-end", marks=pytest.mark.slow)])
def test_a_game_survives_a_killed_server(tmp_path, browser, to_end):
    deal = Deal.from_number(21)
    player = Player(browser, deal)
    srv = Server(tmp_path)
    try:
        start_game(browser, srv, player.seen_line())
        player.follow(stop_at=5)
        played = status(browser)
        srv.stop(signal.SIGKILL)
        srv = Server(tmp_path)  # a new port: the same game by its name
        browser.get(srv.url + "play/" + player.record_name() + f"?samples={SAMPLES}&seed=1")
        assert wait_settled(browser) == "move"
        assert status(browser) == played
        player.follow(stop_at=None if to_end else 8)
        player.check_end(tmp_path)
    finally:
        srv.stop()


@pytest.mark.slow  # CI's slow step; the fast set keeps the keys (the quickest browser game)
@pytest.mark.parametrize("to_end", [pytest.param(False, id="on"),
                                    pytest.param(True, id="to-the-end", marks=pytest.mark.slow)])
def test_a_record_begun_by_the_terminal_coach_continues_on_the_page(server, browser, to_end):
    deal = Deal.from_number(33 + to_end)
    player = Player(browser, deal)
    record = server.folder / f"from-the-terminal-{to_end}.txt"
    # The terminal coach: start, draw and say the card, quit; the record stays.
    lines = f"d\n{deal.cards[29].token}\nq\n"
    subprocess.run([sys.executable, "-m", "tripeaks_solver", "coach", "--seen",
                    player.seen_line(), "--record", str(record), "--no-analysis",
                    "--samples", "20", "--seed", "1"], input=lines, text=True,
                   env={**os.environ, "PYTHONPATH": str(REPO)}, capture_output=True,
                   check=True)
    assert record.read_text().endswith(f"moves:\ndraw:{deal.cards[29].token}\n")
    player.catch_up(["draw"])
    browser.get(server.url)
    link = f'[data-record="{record.name}"]'
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, link))
    click(browser, link)
    assert wait_settled(browser) == "move"
    assert status(browser)[1] == 1
    browser.get(browser.current_url.split("?")[0] + f"?samples={SAMPLES}&seed=2")
    player.follow(stop_at=None if to_end else 5)
    assert player.check_end(server.folder) == record  # continued in place
    # no other record made (the advice's chances kept beside it are a cache, not a record)
    assert sorted(p for p in server.folder.glob(f"from-the-terminal-{to_end}*")
                  if not p.name.endswith(".chances")) == [record]


@pytest.mark.slow  # CI's slow step; the fast set keeps the keys (the quickest browser game)
def test_a_peek_from_the_start_takes_the_cards_it_shows_plus_three_clicks(server, browser):
    """The player makes the taps in the app; the page follows them itself and asks only
    for the cards that turn up: Peek, a click a card, and the last step's click. The
    moves it records are the plan of ``peek`` (the coach's walk-through) with the
    session's seed; then the exact best line wins the deal's best score."""
    from tripeaks_solver.analysis.peek import plan_peek
    from tripeaks_solver.model.layout import Layout
    from tripeaks_solver.solver.solve import solve

    deal = Deal.from_number(2)
    player = Player(browser, deal)
    start_game(browser, server, player.seen_line())
    assert wait_settled(browser) == "move"
    player.clicks = 0
    player.click("[data-action=peek]")
    peek = browser.find_element(By.ID, "peek")
    for _ in range(100):
        now = wait_settled(browser)
        if now == "question":
            assert peek.get_attribute("data-done") == "false"
            seen = int(peek.get_attribute("data-seen"))
            assert seen == len(player.seen) - 11 and f"{seen} of 41 cards seen" in peek.text
            # the taps to make in the app are said, and the card to tap marked
            moves = peek.get_attribute("data-moves").split()
            assert "In the app" in browser.find_element(By.ID, "question-peek").text
            marked = [e.get_attribute("title") for e in
                      browser.find_elements(By.CSS_SELECTOR, "#board .card.tap")]
            if browser.find_elements(By.CSS_SELECTOR, "[data-action=draw].tap"):
                marked.append("draw")
            assert marked == [pretty(m) for m in moves[-1:]]
            undos = int(peek.get_attribute("data-undos"))
            seed = int(peek.get_attribute("data-seed"))
            for token in ["undo"] * undos + moves:  # the taps the page made for the player
                new = player._play(token)
            asked = int(browser.find_element(By.ID, "question").get_attribute("data-place"))
            assert new and new[0] == deal.cards[asked]
            for card in new:
                player.pick(card.token)
        elif now == "peek-next":
            for _ in range(int(peek.get_attribute("data-undos"))):
                player._play("undo")
            player.click("[data-action=peek-next]")
        else:
            break
    assert peek.get_attribute("data-done") == "true" and "Peek done" in peek.text
    shown = int(peek.get_attribute("data-seen"))
    assert shown == 41 and player.clicks <= shown + 3, (player.clicks, shown)
    state = server_state(server, player.record_name())
    plan = plan_peek(deal, EASY, Layout.of_deal(deal, Game(deal, EASY).visible_places()),
                     seed=seed)
    want = [t for e in plan.excursions for t in [m.token for m in e.moves] + ["undo"] * e.undos]
    assert [t.split(":")[0] for t in state["record"]] == want
    line = browser.find_element(By.ID, "line")
    assert line.is_displayed() and line.text.startswith("Best line:")
    assert "exact" in browser.find_element(By.ID, "advice").text
    player.follow()
    player.check_end(server.folder)
    assert player.game.score_under("app") == solve(deal, EASY).best_score


def server_state(server: Server, name: str) -> dict:
    """The game's state as the server answers it (the page's own request)."""
    from urllib.request import urlopen

    with urlopen(f"{server.url}api/games/{name}", timeout=WAIT) as r:
        return json.loads(r.read())


def wait_settled_or_peek(driver) -> None:
    WebDriverWait(driver, WAIT, poll_frequency=0.02).until(
        lambda d: not d.find_element(By.CSS_SELECTOR, "[data-busy]").is_displayed())


def pretty(token: str) -> str:
    if token == "draw":
        return token
    rank = "10" if token[0] == "T" else token[0]
    return rank + {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}[token[1]]


@pytest.mark.slow  # CI's slow step; the fast set keeps the keys (the quickest browser game)
def test_the_solve_page_steps_through_the_best_line(server, browser):
    """Both verdicts; the line step by step (buttons and ← →), each draw named with its
    card, the next move outlined (on the stock too); the address to share; an error
    leaves no old result under it."""
    from tripeaks_solver.model.rules import CLASSIC
    from tripeaks_solver.solver.solve import solve

    code = "TP1-E-AAAAAAD"
    deal = Deal.from_code(code)
    browser.get(server.url + "solve")
    box = browser.find_element(By.ID, "solve-text")
    box.send_keys(code)
    click(browser, "[data-action=solve]")
    WebDriverWait(browser, WAIT).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "[data-solve-rules]"))
    assert browser.current_url == f"{server.url}solve?text={code}"
    verdicts = browser.find_element(By.ID, "verdicts").text
    for rules, name in ((EASY, "Easy"), (CLASSIC, "Classic")):
        best = solve(deal, rules)
        assert f"{name}: {'winnable' if best.winnable else 'no win'}, best score " \
               f"{best.best_score} in {len(best.moves)} moves" in verdicts
    steps = solve(deal, EASY).steps()
    step = browser.find_element(By.ID, "solve-step")
    game = Game(deal, EASY)
    for n, s in enumerate(steps[:6], 1):
        nxt = s.token
        if nxt == "draw":  # outlined on the stock, as drawn (its style, not only its class)
            assert "recommended" in attr(browser, "#solve-stock", "class")
            outline = browser.execute_script(
                "return getComputedStyle(document.getElementById('solve-stock')).outlineStyle")
            assert outline == "solid"
        else:
            assert "recommended" in attr(browser, '#solve-board [aria-label*="next move"]',
                                         "class")
        if n % 2:
            click(browser, "[data-action=next]")
        else:
            browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
        game.play(nxt)
        said = f"draw {pretty(game.waste.token)}" if nxt == "draw" else pretty(nxt)
        assert step.get_attribute("data-step") == str(n)
        assert step.text.startswith(f"Move {s.number} of {len(steps)}: {said}, score {s.score}")
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
    assert step.get_attribute("data-step") == "5"
    click(browser, "[data-action=prev]")
    assert step.text.startswith(f"Move 4 of {len(steps)}")
    drawn = [li.text.split() for i, li in enumerate(
        browser.find_elements(By.CSS_SELECTOR, "#solve-line li"), 1) if steps[i - 1].token == "draw"]
    assert drawn and all(words[1] == "draw" and words[2][-1] in "♣♦♥♠" for words in drawn), drawn
    box.clear()
    box.send_keys("TP1-Q-AAAAAAD")
    click(browser, "[data-action=solve]")
    WebDriverWait(browser, WAIT).until(lambda d: d.find_element(By.ID, "message").is_displayed())
    assert not browser.find_element(By.ID, "solve-result").is_displayed()
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-solve-rules]")
    # the address names the text refused, not the deal solved before it
    assert browser.current_url == f"{server.url}solve?text=TP1-Q-AAAAAAD"
    box.clear()
    box.send_keys("TP1-C-AAAAAAD")  # a Classic code opens on Classic
    click(browser, "[data-action=solve]")
    WebDriverWait(browser, WAIT).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "[data-solve-rules]"))
    assert attr(browser, '[data-solve-rules="classic"]', "aria-pressed") == "true"
    assert attr(browser, '[data-solve-rules="easy"]', "aria-pressed") == "false"


class Mistaken(Player):
    """A player who says one card wrongly (a card of the same rank: the game plays the
    same) and corrects it on the page when the true card turns up later, greyed out."""

    wrong: str | None = None
    truth: str | None = None
    corrected_in_question = False

    def pick(self, card: str) -> None:
        if self.wrong is None and card not in self.told:
            # the same rank, another suit, not seen yet: the soonest drawn of them
            others = [c for c in self.deal.cards if c.rank == Card.parse(card).rank
                      and c.token != card and c not in self.seen]
            if others:
                later = min(others, key=lambda c: self.deal.cards.index(c) if
                            self.deal.cards.index(c) >= 28 else 100 + self.deal.cards.index(c))
                self.wrong, self.truth = later.token, card
                self.told[later.token] = card
                super().pick(later.token)
                return
        if card == self.wrong and card in self.told:
            # the true card turns up: told already, so greyed; the question corrects it
            assert wait_settled(self.driver) == "question"
            assert self.driver.find_elements(By.CSS_SELECTOR,
                                             '#reveal-grid button[disabled][aria-label*="told"]')
            assert not self.driver.find_elements(By.CSS_SELECTOR, f'[data-reveal="{card}"]')
            self.click("#question [data-action=correct]")
            self.click(f'[data-told="{card}"]')
            self.click(f'[data-correct-to="{self.told[card]}"]')
            del self.told[card]
            self.corrected_in_question = True
        super().pick(card)


@pytest.mark.slow  # CI's slow step; the fast set keeps the keys (the quickest browser game)
def test_a_card_picked_wrongly_is_corrected_then_the_game_reviewed(server, browser):
    """A card picked wrongly, corrected from the question where its true card turns up
    greyed out; the game played to the end, its record replayed to the deal's result;
    the review of move N shows the board after move N (its waste); ← → step."""
    deal = Deal.from_number(9)
    player = Mistaken(browser, deal)
    start_game(browser, server, player.seen_line(), seed=5)
    player.follow()
    assert player.wrong is not None and player.corrected_in_question, player.wrong
    record = player.check_end(server.folder)
    assert f":{player.truth}" in record.read_text() or f",{player.truth}" in record.read_text()
    state = status(browser)[0]
    undo = browser.find_element(By.CSS_SELECTOR, ".controls [data-action=undo]")
    peek = browser.find_element(By.CSS_SELECTOR, ".controls [data-action=peek]")
    assert undo.is_enabled() == (state == "stuck")
    # stuck with cards never seen, the peek shows them (the app still undoes there)
    told = server_state(server, player.record_name())
    assert peek.is_enabled() == (state == "stuck" and told["known"] < told["places"])
    summary = WebDriverWait(browser, WAIT).until(
        lambda d: d.find_element(By.CSS_SELECTOR, "[data-summary]"))
    assert summary.text
    # the review: the board after move N, with move N's waste
    tokens = server_state(server, player.record_name())["record"]
    replay = Game(deal, EASY)
    wastes = []
    for token in tokens:
        replay.play(token.split(":")[0])
        wastes.append(replay.waste.token)
    rows = browser.find_elements(By.CSS_SELECTOR, "#moves [data-ply]")
    assert [int(r.get_attribute("data-ply")) for r in rows] == list(range(1, len(tokens) + 1))
    assert {r.get_attribute("data-mark") for r in rows} <= {"", "?!", "?", "??"}
    for n in (1, len(tokens) // 2, len(tokens)):
        click(browser, f'#moves [data-ply="{n}"] button')
        WebDriverWait(browser, WAIT).until(
            lambda d, n=n: attr(d, "#board", "data-review") == str(n))
        assert attr(browser, "[data-waste]", "data-waste") == wastes[n - 1]
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
    n = len(tokens) - 1
    WebDriverWait(browser, WAIT).until(lambda d: attr(d, "#board", "data-review") == str(n))
    assert attr(browser, "[data-waste]", "data-waste") == wastes[n - 1]
    click(browser, "[data-action=back]")
    assert attr(browser, "#board", "data-review") == ""
    assert attr(browser, "[data-waste]", "data-waste") == wastes[-1]


@pytest.mark.slow  # CI's slow step; the fast set keeps the keys (the quickest browser game)
def test_a_lost_game_says_where_it_was_lost(server, browser):
    """Draws thrown in until no win is left, then the best moves to a stuck end: the
    summary names the move ``analyze --record FILE --json`` gives as lost_at, Undo stays
    (the app allows it there) and Peek is off; the chart's scale reads the best score from
    the start and the last; a point of the chart opens its move; New game goes to the start."""
    code = "TP1-E-AAAAAAD"
    player = Player(browser, Deal.from_code(code))
    player.seen = set(player.deal.cards)  # a code: every card known
    start_game(browser, server, code)
    for _ in range(6):
        assert wait_settled(browser) == "move"
        player.move("draw")
    assert player.follow() == "over"
    record = player.check_end(server.folder)
    assert status(browser)[0] == "stuck"
    out = subprocess.run([sys.executable, "-m", "tripeaks_solver", "analyze", "--record",
                          str(record), "--json"], env={**os.environ, "PYTHONPATH": str(REPO)},
                         capture_output=True, text=True, check=True)
    judged = json.loads(out.stdout)
    lost_at = judged["lost_at"]
    assert lost_at is not None
    summary = WebDriverWait(browser, WAIT).until(
        lambda d: d.find_element(By.CSS_SELECTOR, "[data-summary]"))
    assert summary.get_attribute("data-lost-at") == str(lost_at)
    assert f"after move {lost_at} (" in summary.text and "kept a win" in summary.text
    assert browser.find_element(By.CSS_SELECTOR, '#moves [data-exact-mark="??"]')
    assert browser.find_element(By.CSS_SELECTOR, ".controls [data-action=undo]").is_enabled()
    assert not browser.find_element(By.CSS_SELECTOR, ".controls [data-action=peek]").is_enabled()
    # the chart of the chance, from 0 to 100% (a fall looks its size)
    labels = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#end .y-tick")]
    assert labels == ["0%", "50%", "100%"]
    point = browser.find_element(By.CSS_SELECTOR, "[data-chart-ply]")
    ply = point.get_attribute("data-chart-ply")
    browser.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))",
                           point)
    WebDriverWait(browser, WAIT).until(lambda d: attr(d, "#board", "data-review") == ply)
    click(browser, "[data-action=back]")
    WebDriverWait(browser, WAIT).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "[data-action=new-game]"))
    click(browser, "[data-action=new-game]")
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-pick]"))


# --- accessibility -------------------------------------------------------------------------
AXE_TARGETS = """
const small = [];
for (const node of document.querySelectorAll('button, a[href], input, select, summary, [tabindex="0"]')) {
  const box = (node.closest('label') || node).getBoundingClientRect();
  if (!box.width && !box.height) continue;  // not shown
  if (box.width < 24 || box.height < 24) small.push(node.outerHTML.slice(0, 80) + ` ${box.width}x${box.height}`);
}
return small;
"""


# The contrast of every card face's rank and suit with the face under them: axe skips
# them (the face is named once by its aria-label, its ink aria-hidden). 4.5:1 at least.
FACE_CONTRAST = """
function rgb(text) { return (text.match(/[\\d.]+/g) || []).map(Number); }
function lum([r, g, b]) {
  const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); };
  return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
}
function under(node) {  // the first opaque background at or above node
  for (let n = node; n; n = n.parentElement) {
    const c = rgb(getComputedStyle(n).backgroundColor);
    if (c.length >= 3 && (c.length === 3 || c[3] > 0.5)) return c;
  }
  return [255, 255, 255];
}
const low = [];
for (const face of document.querySelectorAll('.card.face')) {
  const box = face.getBoundingClientRect();
  if (!box.width || !box.height) continue;
  for (const ink of face.querySelectorAll('.rank, .pip')) {
    if (!ink.getBoundingClientRect().width) continue;
    const a = lum(rgb(getComputedStyle(ink).color)), b = lum(under(face));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const opacity = Number(getComputedStyle(face).opacity) * Number(getComputedStyle(face.parentElement).opacity);
    if (ratio < 4.5 || opacity < 1) low.push(`${face.title || face.className}: ${ratio.toFixed(2)}:1 opacity ${opacity}`);
  }
}
return low;
"""
# On a phone every control is a finger's size: 44×44 px at least, the board's cards
# excepted (ten in a row on the screen: as wide as that allows, 34 px at least).
FINGER_TARGETS = """
const small = [];
for (const node of document.querySelectorAll('button, a[href], input, select, summary')) {
  const box = (node.closest('label') || node).getBoundingClientRect();
  if (!box.width && !box.height) continue;  // not shown
  const card = node.closest('#board, #solve-board');
  const [w, h] = card ? [34, 44] : [44, 44];
  if (box.width < w - 0.5 || box.height < h - 0.5) small.push(node.outerHTML.slice(0, 80) + ` ${box.width.toFixed(1)}x${box.height.toFixed(1)}`);
}
return small;
"""


def axe_check(driver, where: str) -> list[str]:
    """axe-core's violations on the page, targets under 24×24 px (WCAG 2.2 AA), at a
    phone's width under 44×44 px, and card faces under 4.5:1, as lines naming
    ``where``."""
    from axe_selenium_python import Axe

    axe = Axe(driver)
    axe.inject()
    found = axe.run()["violations"]
    lines = [f"{where}: {v['id']} ({v['impact']}): " + "; ".join(
        str(n["target"]) for n in v["nodes"][:5]) for v in found]
    lines += [f"{where}: target under 24 px: {t}" for t in driver.execute_script(AXE_TARGETS)]
    if driver.execute_script("return window.innerWidth") <= 600:
        lines += [f"{where}: target under 44 px: {t}"
                  for t in driver.execute_script(FINGER_TARGETS)]
    lines += [f"{where}: card face under 4.5:1: {t}"
              for t in driver.execute_script(FACE_CONTRAST)]
    return lines


def dark(driver, on: bool) -> None:
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
        {"name": "prefers-color-scheme", "value": "dark" if on else "light"}]})


def record_text(start: str, moves: list[str]) -> str:
    return (f"# tripeaks-solver game record\nstart: {start}\nrules: easy\nvariant: none\n"
            "scoring: app\nmoves:\n" + "".join(m + "\n" for m in moves))


@pytest.mark.slow  # CI's slow step; the fast set keeps the keys (the quickest browser game)
def test_axe_finds_nothing_in_light_and_dark_at_both_widths(server, browser, tmp_path_factory):
    """axe-core: 0 violations on /, a game in play, a card question, a peek, the review
    of a move, the end and /solve, at 390 and 1280 px, light and dark; every target at
    least 24×24 px; dark mode's background dark; the question in view at 1280×757."""
    from tripeaks_solver.solver.solve import solve

    deal = Deal.from_number(12)
    seen = Player(browser, deal).seen_line()
    best = solve(Deal.from_code("TP1-E-AAAAAAD"), EASY)
    problems: list[str] = []
    folder = artifact_dir(tmp_path_factory)
    try:
        for width, height, night in ((390, 844, False), (390, 844, True), (1280, 757, False),
                                     (1280, 757, True)):
            mode = f"{width}-{'dark' if night else 'light'}"
            set_width(browser, width, height)
            dark(browser, night)
            name = f"axe-{mode}"
            (server.folder / f"{name}-play.txt").write_text(record_text(f"seen {seen}", []))
            (server.folder / f"{name}-peek.txt").write_text(record_text(f"seen {seen}", []))
            (server.folder / f"{name}-end.txt").write_text(
                record_text("code TP1-E-AAAAAAD", best.tokens))
            browser.get(server.url)
            WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR,
                                                                         "[data-record]"))
            problems += axe_check(browser, f"{mode} /")
            for token in seen.split()[:5]:  # chosen on the picker: marked, still legible
                click(browser, f'[data-pick="{token}"]')
            problems += axe_check(browser, f"{mode} / picked")
            background = browser.execute_script(
                "return getComputedStyle(document.body).backgroundColor")
            level = sum(int(v) for v in re.findall(r"\d+", background)[:3]) / 3
            assert (level < 60) if night else (level > 200), (mode, background)
            browser.get(f"{server.url}play/{name}-play.txt?samples={SAMPLES}&seed=1")
            assert wait_settled(browser) == "move"
            problems += axe_check(browser, f"{mode} game")
            click(browser, ".controls [data-action=correct]")  # the cards told, then one's picker
            problems += axe_check(browser, f"{mode} correct list")
            click(browser, "[data-told]")
            problems += axe_check(browser, f"{mode} correct picker")
            browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
            click(browser, "[data-action=draw]")
            assert wait_settled(browser) == "question"
            box = browser.execute_script(  # in the viewport: scrolled into view
                "return document.getElementById('question').getBoundingClientRect().toJSON()")
            assert box["top"] >= 0 and box["bottom"] <= height + 1, (mode, box)
            browser.save_screenshot(str(folder / f"question-{mode}.png"))  # axe scrolls
            problems += axe_check(browser, f"{mode} question")
            click(browser, "#question [data-action=cancel]")
            browser.get(f"{server.url}play/{name}-peek.txt?samples={SAMPLES}&seed=1")
            assert wait_settled(browser) == "move"
            click(browser, "[data-action=peek]")
            assert wait_settled(browser) == "question"
            browser.save_screenshot(str(folder / f"peek-{mode}.png"))
            problems += axe_check(browser, f"{mode} peek")
            browser.get(f"{server.url}play/{name}-end.txt")
            WebDriverWait(browser, WAIT).until(
                lambda d: d.find_elements(By.CSS_SELECTOR, "[data-summary]"))
            browser.save_screenshot(str(folder / f"end-{mode}.png"))  # axe scrolls
            problems += axe_check(browser, f"{mode} end")
            click(browser, '#moves [data-ply="3"] button')
            WebDriverWait(browser, WAIT).until(lambda d: attr(d, "#board", "data-review") == "3")
            browser.save_screenshot(str(folder / f"review-{mode}.png"))  # axe scrolls
            problems += axe_check(browser, f"{mode} review")
            browser.get(server.url + "solve?text=TP1-E-AAAAAAD")
            WebDriverWait(browser, WAIT).until(
                lambda d: d.find_elements(By.CSS_SELECTOR, "[data-solve-rules]"))
            problems += axe_check(browser, f"{mode} /solve")
            for _ in range(3):  # a step of the line current (its row marked)
                browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
            assert browser.find_elements(By.CSS_SELECTOR, "#solve-line li.on")
            problems += axe_check(browser, f"{mode} /solve step 3")
            assert no_horizontal_scroll(browser), mode
    finally:
        dark(browser, False)
        set_width(browser, 1280)
    assert not problems, "\n".join(problems)


@pytest.mark.slow  # CI's slow step; the fast set keeps the keys (the quickest browser game)
def test_the_page_looks_right_at_both_widths(server, browser, tmp_path_factory):
    """No horizontal scrolling at 390 px on any page, light or dark; screenshots kept as
    artifacts."""
    deal = Deal.from_number(3)
    player = Player(browser, deal)
    start_game(browser, server, player.seen_line())
    player.follow(stop_at=3)
    game_url = browser.current_url
    folder = artifact_dir(tmp_path_factory)
    try:
        for width in (390, 1280):
            for night in (False, True):
                set_width(browser, width)
                dark(browser, night)
                for url in (browser.current_url, server.url,
                            server.url + "solve?text=TP1-E-AAAAAAD"):
                    browser.get(url)
                    time.sleep(0.3)
                    wait_settled_or_peek(browser)
                    assert no_horizontal_scroll(browser), (width, url)
                browser.get(game_url)
                wait_settled(browser)
                browser.save_screenshot(str(folder / f"board-{width}{'-dark' * night}.png"))
    finally:
        dark(browser, False)
        set_width(browser, 1280)


RANK_WORDS = dict(zip("A23456789TJQK", ("ace", "two", "three", "four", "five", "six", "seven",
                                         "eight", "nine", "ten", "jack", "queen", "king"),
                      strict=True))
SUIT_WORDS = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}


def test_an_address_with_a_broken_escape_is_refused_in_words(server, browser):
    """``/play/%E0%A4%A`` (a percent-escape cut short) is refused as a game's name, in
    words, not a blank page (issue 54, D13: the page stopped on a URIError before it asked)."""
    browser.get(server.url.rstrip("/") + "/play/%E0%A4%A")
    WebDriverWait(browser, WAIT).until(lambda d: d.find_element(By.ID, "message").is_displayed())
    said = browser.find_element(By.ID, "message").text
    assert said.startswith("not a record name"), said  # the server's refusal of the name


def test_the_keys_play_draw_and_undo(server, browser):
    """The card's token typed plays it, ``d`` draws, ``u`` takes the last move back;
    a card that turns up is typed too. The cards are buttons named once ("jack of
    diamonds, playable"): Enter plays the one focused, Space draws from the stock."""
    deal = Deal.from_number(5)
    player = Player(browser, deal)
    start_game(browser, server, player.seen_line())
    assert wait_settled(browser) == "move"
    body = browser.find_element(By.TAG_NAME, "body")

    def typed(move: str, keys: str) -> None:
        new = player._play(move)
        body.send_keys(keys)
        for card in new:
            assert wait_settled(browser) == "question"
            body.send_keys(card.token.lower())
        assert wait_settled(browser) == "move"
        assert status(browser)[1:] == (player.game.moves, player.game.score_under("app"))

    cards = [el.get_attribute("data-card") for el in
             browser.find_elements(By.CSS_SELECTOR, "[data-card].playable")]
    if cards:  # 10h is typed as "10h", the others as their token
        typed(cards[0], cards[0].replace("T", "10").lower())
    typed("draw", "d")
    typed("undo", "u")
    button = browser.find_element(By.CSS_SELECTOR, "button[data-card].playable")
    card = button.get_attribute("data-card")
    name = f"{RANK_WORDS[card[0]]} of {SUIT_WORDS[card[1]]}"
    assert button.get_attribute("aria-label") in (f"{name}, playable", f"{name}, recommended")
    assert not browser.execute_script(  # named once: the rank and suit drawn are hidden
        "return [...arguments[0].querySelectorAll('*')].filter((n) => !n.children.length"
        " && n.textContent && !n.closest('[aria-hidden=true]')).length", button)
    new = player._play(card)
    button.send_keys(Keys.ENTER)
    if new:  # the card just played marked, and named by the question
        assert wait_settled(browser) == "question"
        assert attr(browser, "#board .card.played", "title") == pretty(card)
        assert browser.find_element(By.ID, "question-text").text.startswith(
            f"After {pretty(card)}: which card turned up")
    for c in new:
        player.pick(c.token)
    assert wait_settled(browser) in ("move", "over")
    assert status(browser)[1] == player.game.moves
    if status(browser)[0] == "in play":
        # the focus back on the board, on the move recommended; the advice announced
        rec = attr(browser, "[data-recommended]", "data-recommended")
        focused = browser.switch_to.active_element
        assert (focused.get_attribute("data-card") == rec if rec != "draw"
                else focused.get_attribute("id") == "stock"), focused.get_attribute("outerHTML")
        said = browser.find_element(By.ID, "advice-said")
        assert said.get_attribute("aria-live") == "polite"
        assert said.get_attribute("textContent").startswith("Recommended: ")
        # an error (a card face down typed) floats: the board does not move
        top = browser.execute_script("return document.getElementById('board').getBoundingClientRect().top")
        down = deal.cards[0].token  # the top of the first peak: face down after 3 moves
        body.send_keys(down.replace("T", "10").lower())
        WebDriverWait(browser, WAIT).until(lambda d: d.find_element(By.ID, "message").is_displayed())
        assert browser.execute_script(
            "return document.getElementById('board').getBoundingClientRect().top") == top
        assert wait_settled(browser) == "move" and status(browser)[1] == player.game.moves
    if status(browser)[0] == "in play" and player.game.stock_left:
        new = player._play("draw")
        browser.find_element(By.CSS_SELECTOR, "[data-action=draw]").send_keys(Keys.SPACE)
        for c in new:
            player.pick(c.token)
        assert wait_settled(browser) in ("move", "over")
        assert status(browser)[1] == player.game.moves
    player.check_end(server.folder)


HOLD = ("import sys\nfrom tripeaks_solver.games.record_file import RecordFile\n"
        "RecordFile(sys.argv[1]).open()\nprint('held', flush=True)\nsys.stdin.read()\n")


@pytest.mark.slow  # CI's slow step; the fast set keeps the keys (the quickest browser game)
def test_a_held_record_is_not_linked_and_the_end_says_its_samples(server, browser):
    """A record a terminal coach holds is listed without a link, said so; a game begun
    with cards unseen, ended, and opened asking 1,000 samples: the end judges with the
    advice's samples, no note of fewer."""
    from tripeaks_solver.games.record_file import RecordFile
    from tripeaks_solver.games.session import CoachSession
    from tripeaks_solver.model.observed import Observed, Start
    from tripeaks_solver.solver.solve import solve

    deal = Deal.from_number(3)
    seen = " ".join(deal.cards[p].token for p in seen_places(EASY))
    ended = server.folder / "ended-fair.txt"
    session = CoachSession.new(Start.of_seen(seen, EASY), record=RecordFile(ended))
    for move in solve(deal, EASY).tokens:  # to its end, each card that turns up said
        session.play(Observed.parse(move))
        while session.pending is not None:
            session.answer(deal.cards[session.need[len(session.said)]].token)
    assert session.game.position().status.value in ("won", "stuck")
    session.close()
    held = server.folder / "held-by-coach.txt"
    held.write_text(record_text("code TP1-E-AAAAAAD", ["draw"]))
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(held)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(REPO)})
    try:
        assert holder.stdout.readline() == "held\n"
        browser.get(server.url)
        WebDriverWait(browser, WAIT).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, '[data-record="ended-fair.txt"]'))
        assert not browser.find_elements(By.CSS_SELECTOR, '[data-record="held-by-coach.txt"]')
        item = next(li for li in browser.find_elements(By.CSS_SELECTOR, "#games li")
                    if "held-by-coach.txt" in li.text)
        assert "open in a terminal coach" in item.text and not item.find_elements(
            By.TAG_NAME, "a")
    finally:
        holder.communicate("")
    browser.get(f"{server.url}play/ended-fair.txt?samples=1000&seed=1")
    WebDriverWait(browser, WAIT).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "[data-summary]"))
    end = browser.find_element(By.ID, "end").text
    assert "asked for" not in end and "Accuracy" in end


@pytest.mark.slow  # CI's slow step; the fast set keeps the keys (the quickest browser game)
def test_the_start_form_refuses_samples_and_seeds_the_advice_would_refuse(server, browser):
    """Samples outside 1–5,000 or a seed outside 0..2⁶³−1: said on the start page, and no
    game made for them; the bounds are the server's own. A seed past 2⁵³ is kept exact."""
    from tripeaks_solver.web.advice import MAX_SAMPLES

    before = sorted(p.name for p in server.folder.iterdir())
    biggest = f"{2**63 - 1:,}"
    refused = (("0", "", f"Samples: a whole number from 1 to {MAX_SAMPLES:,}."),
               (str(MAX_SAMPLES + 1), "", "Samples: a whole number from 1"),
               ("12x", "", "Samples: a whole number from 1"),
               ("10", str(2**63), f"Seed: a whole number from 0 to {biggest}."),
               ("10", "-1", "Seed: a whole number from 0"))
    for samples, seed, said in refused:
        browser.get(server.url)
        browser.find_element(By.ID, "start-text").send_keys("TP1-E-AAAAAAD")
        for field, value in (("samples", samples), ("seed", seed)):
            box = browser.find_element(By.ID, field)
            box.clear()
            box.send_keys(value)
        click(browser, "[data-action=start]")
        WebDriverWait(browser, WAIT).until(
            lambda d: d.find_element(By.ID, "message").is_displayed())
        assert browser.find_element(By.ID, "message").text.startswith(said)
        assert "/play/" not in browser.current_url
    assert sorted(p.name for p in server.folder.iterdir()) == before
    # A seed past 2⁵³ (where a JavaScript number rounds) is used and shown digit for digit.
    seen = Player(browser, Deal.from_number(5)).seen_line()  # cards unseen: fair advice
    start_game(browser, server, seen, samples=10, seed=f"000{2**53 + 1}")  # read as 2⁵³ + 1
    assert browser.current_url.endswith(f"samples=10&seed={2**53 + 1}")
    assert wait_settled(browser) == "move"
    advice = browser.find_element(By.ID, "advice")
    # the advice line says the move plainly; how it was chosen (the seed) one click away
    line = advice.find_element(By.CSS_SELECTOR, ".said").text
    rec = pretty(attr(browser, "[data-recommended]", "data-recommended"))
    assert re.fullmatch(rf"Recommended: {re.escape(rec)}, about \d+% to win", line), line
    how = advice.find_element(By.CSS_SELECTOR, "details.how")
    assert how.get_attribute("open") is None  # folded
    click(browser, "#advice details.how summary")
    assert how.get_attribute("open") is not None
    assert f"seed {2**53 + 1})" in advice.text


# --- beside the phone -------------------------------------------------------------------
def draw_seen_in_the_other_tab(driver, player: Player, here: str, there: str) -> list:
    """Draw in the window ``here``; the window ``there`` asks the card within a second.
    The cards the draw turned up (the player's game, drawn too)."""
    driver.switch_to.window(here)
    new = player._play("draw")
    click(driver, "[data-action=draw]")
    assert wait_settled(driver) == "question"
    driver.switch_to.window(there)
    WebDriverWait(driver, 1.0, poll_frequency=0.02).until(
        lambda d: d.find_element(By.ID, "question").is_displayed())
    return new


def open_in_two_windows(driver, url: str) -> tuple[str, str]:
    """``url`` in this window and in a second one, both settled: their handles."""
    first = driver.current_window_handle
    driver.switch_to.new_window("window")
    driver.get(url)
    assert wait_settled(driver) == "move"
    return first, driver.current_window_handle


@pytest.mark.slow  # CI's slow step; the fast set keeps the keys (the quickest browser game)
def test_two_tabs_of_a_game_stay_in_step(server, browser):
    """A move made in one tab shows in the other within a second (its card question too,
    and the answer); a tab that missed it (its live stream closed) and answers a card the
    other tab answered is told so, and shows the game as it stands: no move twice."""
    deal = Deal.from_number(5)
    player = Player(browser, deal)
    start_game(browser, server, player.seen_line())
    assert wait_settled(browser) == "move"
    a, b = open_in_two_windows(browser, browser.current_url)
    try:
        # B draws: A asks the card within a second
        new = draw_seen_in_the_other_tab(browser, player, b, a)
        # A answers: B shows the card said within a second
        for card in new:
            player.pick(card.token)
        assert wait_settled(browser) == "move"
        browser.switch_to.window(b)
        WebDriverWait(browser, 1.0, poll_frequency=0.02).until(
            lambda d: status(d)[1] == player.game.moves
            and not d.find_element(By.ID, "question").is_displayed())
        assert "changed in another tab" in browser.find_element(By.ID, "note").text
        # A draws again, B shows the question; B's stream closed: A answers, B is stale
        new = draw_seen_in_the_other_tab(browser, player, a, b)
        browser.execute_script("game.live.close()")
        browser.switch_to.window(a)
        for card in new:
            player.pick(card.token)
        assert wait_settled(browser) == "move"
        browser.switch_to.window(b)
        assert browser.find_element(By.ID, "question").is_displayed()  # behind
        other = next(c for c in browser.find_elements(By.CSS_SELECTOR, "[data-reveal]"))
        other.click()
        WebDriverWait(browser, WAIT).until(lambda d: d.find_element(By.ID, "message").is_displayed())
        said = browser.find_element(By.ID, "message").text
        assert said.startswith("another tab answered this card"), said
        assert "dropped" not in said and "again" not in said
        assert wait_settled(browser) == "move"  # the game as it stands, shown at once
        assert status(browser)[1] == player.game.moves == 2
        record = server_state(server, player.record_name())["record"]
        assert len(record) == 2 and all(t.startswith("draw:") for t in record), record
    finally:
        browser.switch_to.window(b)
        browser.close()
        browser.switch_to.window(a)


@pytest.mark.slow  # CI's slow step; the fast set keeps the keys (the quickest browser game)
def test_saved_games_are_named_for_people(server, browser):
    """The list names a game by when it was played, its rules, its first cards and how it
    stands; its file is a small line under it."""
    deal = Deal.from_number(11)
    seen = Player(browser, deal).seen_line()
    (server.folder / "named-game.txt").write_text(record_text(f"seen {seen}", []))
    browser.get(server.url)
    link = WebDriverWait(browser, WAIT).until(
        lambda d: d.find_element(By.CSS_SELECTOR, '[data-record="named-game.txt"]'))
    title = link.find_element(By.TAG_NAME, "strong").text
    first = " ".join(pretty(t) for t in seen.split()[:4])
    assert re.search(rf" · Easy · {re.escape(first)} … · In play, score \d", title), title
    assert re.search(r"20\d\d", title), title  # the date
    assert "named-game.txt" not in title and "record named-game.txt" in link.text


@pytest.mark.slow  # CI's slow step; the fast set keeps the keys (the quickest browser game)
def test_the_solve_page_takes_a_layout_with_unknown_cards(server, browser):
    """A layout with ``??`` cards: each rule set's share of its completions won, the
    figures ``solve --layout … --seed 0 --json`` gives; no line to step through."""
    from tripeaks_solver.model.layout import Layout

    deal = Deal.from_number(3)
    text = " ".join(c.token if 18 <= i <= 28 else "??" for i, c in enumerate(deal.cards))
    out = subprocess.run([sys.executable, "-m", "tripeaks_solver", "solve", "--layout", text,
                          "--seed", "0", "--json"], env={**os.environ, "PYTHONPATH": str(REPO)},
                         capture_output=True, text=True, check=True)
    want = {r["rules"].lower(): r for r in json.loads(out.stdout)}
    browser.get(server.url + "solve")
    browser.find_element(By.ID, "solve-text").send_keys(text)
    click(browser, "[data-action=solve]")
    WebDriverWait(browser, WAIT).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "[data-share-rules]"))
    unknown = len(Layout.parse(text).unknown_places)
    assert f"{unknown} cards not known (??)" in browser.find_element(By.ID, "verdicts").text
    for rules in ("easy", "classic"):
        shown = attr(browser, f'[data-share-rules="{rules}"]', "textContent")
        assert shown.startswith(f"{rules.title()}: winnable in {want[rules]['wins']:,} of "
                                f"{want[rules]['completions']:,} random completions"), shown
    assert not browser.find_element(By.ID, "solve-board").is_displayed()
    assert not browser.find_element(By.ID, "stepper").is_displayed()
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)  # nothing to step
    assert not browser.find_element(By.ID, "message").is_displayed()


@pytest.mark.slow  # CI's slow step; the fast set keeps the keys (the quickest browser game)
def test_the_star_stays_off_the_rank_and_suit(server, browser):
    """The recommended card's star sits in the face's empty corner, clear of the rank,
    the suit and the pip, at both widths."""
    deal = Deal.from_number(4)
    start_game(browser, server, Player(browser, deal).seen_line())
    try:
        for width in (390, 1280):
            set_width(browser, width)
            browser.refresh()
            assert wait_settled(browser) == "move"
            boxes = browser.execute_script("""
              // the card recommended (a draw recommended: a card of the board starred as it)
              const card = document.querySelector('#board .card.recommended')
                || document.querySelector('#board [data-card]');
              card.classList.add('recommended');
              const star = getComputedStyle(card, '::after');
              const box = card.getBoundingClientRect();
              const left = box.left + parseFloat(star.left) + card.clientLeft,
                    top = box.top + parseFloat(star.top) + card.clientTop;
              const s = {left, top, right: left + parseFloat(star.width), bottom: top + parseFloat(star.height)};
              return [s, ...[...card.querySelectorAll('.rank, .csuit, .pip')].map((n) => n.getBoundingClientRect().toJSON())];
            """)
            star, *inks = boxes
            assert len(inks) == 3 and star["right"] > star["left"]
            for ink in inks:
                apart = (star["right"] <= ink["left"] + 0.5 or ink["right"] <= star["left"] + 0.5
                         or star["bottom"] <= ink["top"] + 0.5 or ink["bottom"] <= star["top"] + 0.5)
                assert apart, (width, star, ink)
    finally:
        set_width(browser, 1280)


@pytest.mark.slow  # CI's slow step; the fast set keeps the keys (the quickest browser game)
def test_a_server_on_the_lan_shows_its_qr_code(browser, tmp_path):
    """The page of a server given the address other machines open (``serve --host``)
    shows it with a QR code of it, the code qrcode draws for that address; a server on
    the loopback shows none. (Served on the loopback: a test binds nothing else.)"""
    import threading

    import uvicorn

    from tripeaks_solver.web.app import make_app, qr_svg

    share = "http://192.0.2.7:8765/?token=abc-DEF_123"
    shown = []
    for given in (share, None):
        hosts: set[str] = set()
        app = make_app(tmp_path, lambda hosts=hosts: hosts, share=given)
        srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
        thread = threading.Thread(target=srv.run, daemon=True)
        thread.start()
        WebDriverWait(browser, 10).until(lambda _d, srv=srv: srv.started)
        port = srv.servers[0].sockets[0].getsockname()[1]
        hosts.add(f"127.0.0.1:{port}")
        try:
            browser.get(f"http://127.0.0.1:{port}/")
            WebDriverWait(browser, WAIT).until(lambda d: d.find_element(By.ID, "folder").text)
            time.sleep(0.3)
            box = browser.find_element(By.ID, "share")
            shown.append(box.is_displayed())
            if given:
                assert browser.find_element(By.ID, "share-url").text == share
                src = attr(browser, "#share-qr", "src")
                from urllib.parse import unquote

                assert unquote(src.split(",", 1)[1]) == qr_svg(share)
                assert browser.execute_script(  # drawn, at its size
                    "const i = document.getElementById('share-qr');"
                    "return i.complete && i.naturalWidth > 0 && i.width >= 150")
                assert attr(browser, "#share-qr", "alt") == f"QR code of {share}"
                problems = []
                try:
                    for width, night in ((390, True), (1280, False)):
                        set_width(browser, width, 844)
                        dark(browser, night)
                        problems += axe_check(browser, f"{width} {'dark' if night else 'light'}"
                                                       " / with the QR code")
                finally:
                    dark(browser, False)
                    set_width(browser, 1280)
                assert not problems, "\n".join(problems)
        finally:
            srv.should_exit = True
            thread.join(10)
    assert shown == [True, False]


@pytest.mark.slow  # CI's slow step; the fast set keeps the keys (the quickest browser game)
def test_a_stuck_game_offers_a_peek_at_what_was_under(server, browser):
    """Stuck with cards never seen: the page says Peek shows them, Peek is on, and its
    first step asks a card never seen (the game's own moves taken back in the app)."""
    from tripeaks_solver.games.record_file import RecordFile
    from tripeaks_solver.games.session import CoachSession
    from tripeaks_solver.model.observed import Observed, Start

    deal = Deal.from_number(5)
    seen = " ".join(deal.cards[p].token for p in seen_places(EASY))
    session = CoachSession.new(Start.of_seen(seen, EASY),
                               record=RecordFile(server.folder / "stuck-unseen.txt"))
    game = Game(deal, EASY)
    while game.status.value == "in play":  # draws first: stuck with cards never seen
        move = "draw" if game.stock_left else game.playable()[0].token
        game.play(move)
        session.play(Observed.parse(move))
        while session.pending is not None:
            session.answer(deal.cards[session.need[len(session.said)]].token)
    assert game.status.value == "stuck"
    session.close()
    browser.get(f"{server.url}play/stuck-unseen.txt?samples={SAMPLES}&seed=1")
    WebDriverWait(browser, WAIT).until(lambda d: status(d)[0] == "stuck")
    assert "Peek shows what was under them" in browser.find_element(By.ID, "note").text
    peek = browser.find_element(By.CSS_SELECTOR, ".controls [data-action=peek]")
    assert peek.is_enabled()
    known = set(server_state(server, "stuck-unseen.txt")["known_cards"])
    peek.click()
    assert wait_settled(browser) == "question"
    place = int(attr(browser, "#question", "data-place"))
    assert deal.cards[place].token not in known  # a card never seen
    assert "In the app: undo" in browser.find_element(By.ID, "question-peek").text


@pytest.mark.slow  # CI's slow step; the fast set keeps the keys (the quickest browser game)
def test_a_picker_is_one_tab_stop_and_the_arrows_move_in_it(server, browser):
    """The start picker's 52 cards are one stop of the Tab key (the Start field a few
    Tabs from the top, not 59); the arrows move by card and by row, Enter picks."""
    browser.get(server.url)
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-pick]"))
    browser.execute_script("document.activeElement.blur()")  # from the top of the page
    tabs = 0
    while browser.switch_to.active_element.get_attribute("id") != "start-text":
        browser.switch_to.active_element.send_keys(Keys.TAB)
        tabs += 1
        assert tabs <= 12, browser.switch_to.active_element.get_attribute("outerHTML")[:80]
    browser.switch_to.active_element.send_keys(Keys.SHIFT, Keys.TAB)  # back into the picker
    assert browser.switch_to.active_element.get_attribute("data-pick") == "Ac"
    for key, want in ((Keys.ARROW_RIGHT, "2c"), (Keys.ARROW_DOWN, "2d"), (Keys.END, "Ks"),
                      (Keys.ARROW_UP, "Kh"), (Keys.HOME, "Ac"), (Keys.ARROW_LEFT, "Ac")):
        browser.switch_to.active_element.send_keys(key)
        assert browser.switch_to.active_element.get_attribute("data-pick") == want, key
    browser.switch_to.active_element.send_keys(Keys.ARROW_RIGHT, Keys.ENTER)
    assert attr(browser, '[data-pick="2c"]', "aria-pressed") == "true"
    assert browser.find_element(By.ID, "start-text").get_attribute("value") == "2c"
