"""The page in a real browser: headless Chromium driven by Selenium against the real
server (``tripeaks-solve serve --port 0``), playing whole games by clicking what a player
would, on deals whose hidden cards only the test knows.

The test holds the deal and its own plain-Python game: it clicks the move the page
recommends, plays it on its own game too, and picks each card that turns up from the
deal. The page's result is then checked against that game, and the record the server
wrote against ``tripeaks-solve replay --record``.
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
from selenium.webdriver.support.ui import WebDriverWait

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
    ``over``; None while it waits for the server."""
    try:
        if driver.find_element(By.CSS_SELECTOR, "[data-busy]").is_displayed():
            return None
        if driver.find_element(By.ID, "question").is_displayed():
            return "question"
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
        selector = {"draw": "[data-action=draw]", "undo": "[data-action=undo]"}.get(
            token, f'[data-card="{token}"]')
        new = self._play(token)
        self.driver.execute_script("window.__recommended = []")
        click(self.driver, selector)
        for card in new:
            assert wait_settled(self.driver) == "question"
            assert not self.driver.find_elements(By.CSS_SELECTOR,
                                                 f'[data-reveal="{card.token}"][disabled]')
            click(self.driver, f'[data-reveal="{card.token}"]')

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


def start_game(driver, server: Server, text: str, samples: int = SAMPLES) -> None:
    driver.get(server.url)
    box = driver.find_element(By.ID, "start-text")
    box.clear()
    box.send_keys(text)
    samples_box = driver.find_element(By.ID, "samples")
    samples_box.clear()
    samples_box.send_keys(str(samples))
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
    assert sorted(server.folder.glob(f"from-the-terminal-{to_end}*")) == [record]


@pytest.mark.slow  # CI's slow step; the fast set keeps the keys (the quickest browser game)
@pytest.mark.parametrize("steps", [pytest.param(3, id="3-steps"),
                                   pytest.param(None, id="whole", marks=pytest.mark.slow)])
def test_peek_walks_through_on_the_board_then_the_best_line(server, browser, steps):
    deal = Deal.from_number(2)
    player = Player(browser, deal)
    start_game(browser, server, player.seen_line())
    assert wait_settled(browser) == "move"
    click(browser, "[data-action=peek]")
    peek = browser.find_element(By.ID, "peek")
    WebDriverWait(browser, WAIT).until(lambda d: "cards seen 0 of 41" in peek.text)
    for n in range(300):
        wait_settled_or_peek(browser)
        if peek.get_attribute("data-done") == "true":
            break
        seen = int(peek.get_attribute("data-seen"))
        assert seen == len(player.seen) - 11 and f"cards seen {seen} of 41" in peek.text
        if n == steps:
            player.check_end(server.folder)
            return
        # the walk-through on the board: the undo button and the cards to tap marked
        undos = int(peek.get_attribute("data-undos"))
        moves = peek.get_attribute("data-moves").split()
        marked = [el.get_attribute("data-card") for el in
                  browser.find_elements(By.CSS_SELECTOR, "[data-card].tap")]
        if browser.find_elements(By.CSS_SELECTOR, "[data-action=draw].tap"):
            marked.append("draw")
        assert bool(browser.find_elements(By.CSS_SELECTOR, "[data-action=undo].tap")) == (
            undos > 0)
        if undos:
            player.move("undo")
        else:
            assert moves and moves[0] in marked, (moves, marked)
            player.move(moves[0])
    assert "Peek done" in peek.text
    line = WebDriverWait(browser, WAIT).until(
        lambda d: d.find_element(By.ID, "line") if d.find_element(By.ID, "line").is_displayed()
        else None)
    assert line.text.startswith("Best line:")
    assert "exact" in browser.find_element(By.ID, "advice").text
    player.follow()
    player.check_end(server.folder)


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
    from tripeaks_solver.model.rules import CLASSIC
    from tripeaks_solver.solver.solve import solve

    deal = Deal.from_code("TP1-E-AAAAAAD")
    browser.get(server.url + "solve")
    box = browser.find_element(By.ID, "solve-text")
    box.send_keys("TP1-E-AAAAAAD")
    click(browser, "[data-action=solve]")
    WebDriverWait(browser, WAIT).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "[data-solve-rules]"))
    verdicts = browser.find_element(By.ID, "verdicts").text
    for rules, name in ((EASY, "Easy"), (CLASSIC, "Classic")):
        best = solve(deal, rules)
        assert f"{name}: {'winnable' if best.winnable else 'no win'}, best score " \
               f"{best.best_score} in {len(best.moves)} moves" in verdicts
    steps = solve(deal, EASY).steps()
    step = browser.find_element(By.ID, "solve-step")
    for s in steps[:3]:
        click(browser, "[data-action=next]")
        assert step.text.startswith(f"Move {s.number} of {len(steps)}: {pretty(s.token)}, "
                                    f"score {s.score}")
    click(browser, "[data-action=prev]")
    assert step.text.startswith(f"Move 2 of {len(steps)}")


@pytest.mark.slow  # CI's slow step; the fast set keeps the keys (the quickest browser game)
def test_the_page_looks_right_at_both_widths(server, browser, tmp_path_factory):
    """No horizontal scrolling at 390 px on any page; screenshots kept as artifacts."""
    deal = Deal.from_number(3)
    player = Player(browser, deal)
    start_game(browser, server, player.seen_line())
    player.follow(stop_at=3)
    game_url = browser.current_url
    folder = artifact_dir(tmp_path_factory)
    for width in (390, 1280):
        set_width(browser, width)
        for url in (browser.current_url, server.url, server.url + "solve?text=TP1-E-AAAAAAD"):
            browser.get(url)
            time.sleep(0.3)
            wait_settled_or_peek(browser)
            assert no_horizontal_scroll(browser), (width, url)
        browser.get(game_url)
        wait_settled(browser)
        browser.save_screenshot(str(folder / f"board-{width}.png"))
    set_width(browser, 1280)


def test_the_keys_play_draw_and_undo(server, browser):
    """The card's token typed plays it, ``d`` draws, ``u`` takes the last move back;
    a card that turns up is typed too."""
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
    player.check_end(server.folder)
