"""Seconds a move takes on the page of ``tripeaks-solve serve``, in a real browser, and
the clicks a peek takes there.

    python benchmarks/bench_web.py                      # 3 games, 25 moves, 20 peeks
    python benchmarks/bench_web.py --games 5 --samples 200 --peeks 0

Starts the server (``serve --port 0 --no-open``, records in a temporary folder) and
headless Chromium, starts each game from the cards seen (deals 0, 1, ...), and plays the
recommended move each turn, picking every card that turns up from the deal. Measured in
the page itself (``performance.now()``): from the last click of a move (the card or the
stock, or the card picked when the move turned one up) to the next recommendation shown;
and the server's advice requests alone (the browser's resource timing of
``/api/games/NAME/advice``). Prints the median, the 90th percentile and the slowest.

Then ``--peeks`` games (deals 0, 1, ...) start from the cards seen and peek from the
start as a player does on the page: Peek, then each card the page asks for picked from
the deal, and the last step's button; it counts those clicks against the cards the
peek shows (the page's promise: at most the cards shown + 3) and times each click to
the next question. A benchmark, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tripeaks_solver.model.dealing import Deal
from tripeaks_solver.model.game import Game, Status
from tripeaks_solver.model.observed import seen_places
from tripeaks_solver.model.rules import EASY

REPO = Path(__file__).resolve().parent.parent
TIMING = """
window.__waits = [];
document.addEventListener("click", () => { window.__clicked = performance.now(); }, true);
document.addEventListener("DOMContentLoaded", () => {
  const el = document.querySelector("[data-recommended]");
  if (!el) return;
  new MutationObserver(() => {
    if (el.dataset.recommended && window.__clicked !== undefined) {
      window.__waits.push(performance.now() - window.__clicked);
      window.__clicked = undefined;
    }
  }).observe(el, {attributes: true, attributeFilter: ["data-recommended"]});
});
"""


def browser() -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--window-size=1280,1000",
                f"--user-data-dir={tempfile.mkdtemp(prefix='bench-chromium-')}"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": TIMING})
    return driver


def ready(driver) -> str | None:
    try:
        return _ready(driver)
    except (StaleElementReferenceException, NoSuchElementException):
        return None  # the page is loading


def _ready(driver) -> str | None:
    if driver.find_element(By.CSS_SELECTOR, "[data-busy]").is_displayed():
        return None
    if driver.find_element(By.ID, "question").is_displayed():
        return "question"
    if driver.find_element(By.CSS_SELECTOR, "[data-status]").get_attribute(
            "data-status") != "in play":
        return "over"
    rec = driver.find_element(By.CSS_SELECTOR, "[data-recommended]").get_attribute(
        "data-recommended")
    return rec or None


def play(driver, url: str, number: int, samples: int, moves: int) -> tuple[list, list]:
    deal = Deal.from_number(number)
    game = Game(deal, EASY)
    seen = {deal.cards[p] for p in seen_places(EASY)}
    driver.get(url)
    box = driver.find_element(By.ID, "start-text")
    box.send_keys(" ".join(deal.cards[p].token for p in seen_places(EASY)))
    field = driver.find_element(By.ID, "samples")
    field.clear()
    field.send_keys(str(samples))
    driver.find_element(By.CSS_SELECTOR, "[data-action=start]").click()
    wait = WebDriverWait(driver, 120, poll_frequency=0.01)
    wait.until(lambda d: "/play/" in d.current_url)
    for _ in range(moves):
        now = wait.until(ready)
        if now == "over" or game.status is not Status.IN_PLAY:
            break
        before = game.visible_places()
        game.play(now)
        new = [deal.cards[p] for p in sorted(game.visible_places() - before)
               if deal.cards[p] not in seen]
        seen.update(new)
        selector = "[data-action=draw]" if now == "draw" else f'[data-card="{now}"]'
        driver.find_element(By.CSS_SELECTOR, selector).click()
        for card in new:
            wait.until(lambda d: ready(d) == "question")
            driver.find_element(By.CSS_SELECTOR, f'[data-reveal="{card.token}"]').click()
    wait.until(ready)
    waits = driver.execute_script("return window.__waits")
    server = driver.execute_script(
        "return performance.getEntriesByType('resource')"
        ".filter(e => e.name.includes('/advice')).map(e => e.duration)")
    return [w / 1000 for w in waits], [s / 1000 for s in server[1:]]  # the first: warm-up


def peek(driver, url: str, number: int) -> tuple[int, int, list[float]]:
    """A whole peek from the start of deal ``number``: the clicks on the page, the cards
    it showed, and the seconds from each click to the page's next question."""
    deal = Deal.from_number(number)
    driver.get(url)
    driver.find_element(By.ID, "start-text").send_keys(
        " ".join(deal.cards[p].token for p in seen_places(EASY)))
    field = driver.find_element(By.ID, "samples")
    field.clear()
    field.send_keys("50")  # the advice before the peek: not what is timed here
    driver.find_element(By.CSS_SELECTOR, "[data-action=start]").click()
    wait = WebDriverWait(driver, 120, poll_frequency=0.01)
    wait.until(lambda d: "/play/" in d.current_url)
    wait.until(ready)
    clicks, waits = 0, []

    def now(d):
        try:
            if d.find_element(By.CSS_SELECTOR, "[data-busy]").is_displayed():
                return None
            if d.find_element(By.ID, "question").is_displayed():
                return "question"
            if d.find_elements(By.CSS_SELECTOR, "[data-action=peek-next]"):
                return "peek-next"
            if d.find_element(By.ID, "peek").get_attribute("data-done") == "true":
                return "done"
        except (StaleElementReferenceException, NoSuchElementException):
            return None
        return None

    driver.find_element(By.CSS_SELECTOR, ".controls [data-action=peek]").click()
    clicks += 1
    clicked = time.perf_counter()
    for _ in range(200):
        state = wait.until(now)
        waits.append(time.perf_counter() - clicked)
        if state == "done":
            break
        if state == "question":
            place = int(driver.find_element(By.ID, "question").get_attribute("data-place"))
            selector = f'[data-reveal="{deal.cards[place].token}"]'
        else:
            selector = "[data-action=peek-next]"
        driver.find_element(By.CSS_SELECTOR, selector).click()
        clicks += 1
        clicked = time.perf_counter()
    shown = int(driver.find_element(By.ID, "peek").get_attribute("data-seen"))
    return clicks, shown, waits[:-1]  # the last wait: the peek's end, then the advice


def figures(name: str, values: list[float]) -> None:
    values = sorted(values)
    p90 = values[min(len(values) - 1, int(0.9 * len(values)))]
    print(f"{name}: median {statistics.median(values):.3f} s, 90th percentile {p90:.3f} s, "
          f"slowest {values[-1]:.3f} s ({len(values)} turns)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games (3)")
    parser.add_argument("--moves", type=int, default=25, help="moves a game at most (25)")
    parser.add_argument("--samples", type=int, default=1000, help="advice samples (1000)")
    parser.add_argument("--peeks", type=int, default=20, help="whole peeks from the start (20)")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="bench-web-")
    proc = subprocess.Popen([sys.executable, "-m", "tripeaks_solver", "serve", "--port", "0",
                             "--no-open", "--data-dir", folder],
                            env={**os.environ, "PYTHONPATH": str(REPO)},
                            stdout=subprocess.PIPE, text=True)
    url = re.search(r"http://\S+", proc.stdout.readline()).group(0)
    driver = browser()
    try:
        time.sleep(2)  # the server loads the kernels
        page: list[float] = []
        server: list[float] = []
        for number in range(args.games):
            waits, advice = play(driver, url, number, args.samples, args.moves)
            page += waits
            server += advice
        if args.games:
            print(f"fair:{args.samples} advice, {args.games} games, up to {args.moves} moves "
                  "each")
            figures("click to the next advice shown, in the browser", page)
            figures("the server's advice request", server)
        peeks = [peek(driver, url, number) for number in range(args.peeks)]
        if peeks:
            clicks = [c for c, _, _ in peeks]
            shown = [s for _, s, _ in peeks]
            over = [c - s for c, s, _ in peeks]
            print(f"peek from the start, {len(peeks)} deals (Easy, from the cards seen): "
                  f"{statistics.mean(clicks):.1f} clicks on the page for "
                  f"{statistics.mean(shown):.1f} cards shown (mean); clicks minus cards "
                  f"shown: {min(over)} to {max(over)} (at most 3 promised)")
            figures("click to the peek's next question, in the browser",
                    [w for _, _, ws in peeks for w in ws])
    finally:
        driver.quit()
        proc.terminate()
        proc.wait()


if __name__ == "__main__":
    main()
