"""The review on the page agrees with ``analyze --record FILE --json`` (issue 52): three
games played in headless Chromium, each with bad moves planted (a bar 0.15 or more
below the advice's), their move lists' marks, better moves, advice followed and chance
lost read off the page and compared with analyze's rows for the same record and seed;
the summary names the costliest move by its number; the chart's points take the
keyboard. In the slow set: a game takes a browser about 20 s."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait
from test_web_browser import (  # noqa: F401 - the fixtures too
    REPO,
    WAIT,
    Player,
    attr,
    browser,
    server,
    start_game,
    wait_settled,
)

from tripeaks_solver.model.dealing import Deal

SAMPLES = 50
GAP = 0.15


class Planter(Player):
    """Follows the advice, but plays a bar GAP or more below the advice's at up to
    ``most`` decisions (every other one that offers it)."""

    def __init__(self, driver, deal: Deal, most: int = 2) -> None:
        super().__init__(driver, deal)
        self.most = most
        self.offers = 0
        self.planted: list[int] = []  # the plies of the planted moves
        self.plies = 0  # lines of the record so far

    def play_on(self) -> None:
        for _ in range(300):
            now = wait_settled(self.driver)
            if now == "over":
                return
            assert now == "move", now
            rec = attr(self.driver, "[data-recommended]", "data-recommended")
            bars = {b.get_attribute("data-move"): float(b.get_attribute("data-chance"))
                    for b in self.driver.find_elements(By.CSS_SELECTOR, "#bars .bar[data-move]")}
            bad = [m for m, chance in bars.items() if bars[rec] - chance >= GAP]
            move = rec
            if bad:
                self.offers += 1
                if len(self.planted) < self.most and self.offers % 2 == 1:
                    move = bad[-1]
                    self.planted.append(self.plies + 1)
            self.move(move)
            self.plies += 1
        raise AssertionError("the game did not end")


def judged_alike(server, browser, number: int, seed: int) -> int:  # noqa: F811 - fixtures
    """Play deal ``number`` on the page with bad moves planted, compare the page's review
    with analyze's for the same record and seed; the number of moves planted."""
    player = Planter(browser, Deal.from_number(number))
    start_game(browser, server, player.seen_line(), SAMPLES, seed)
    player.play_on()
    record = server.folder / player.record_name()
    out = subprocess.run([sys.executable, "-m", "tripeaks_solver", "analyze", "--record",
                          str(record), "--samples", str(SAMPLES), "--seed", str(seed),
                          "--json"], env={**os.environ, "PYTHONPATH": str(REPO)},
                         capture_output=True, text=True, check=True)
    judged = json.loads(out.stdout)
    summary = WebDriverWait(browser, WAIT).until(
        lambda d: d.find_element(By.CSS_SELECTOR, "[data-summary]"))
    rows = browser.find_elements(By.CSS_SELECTOR, "#moves [data-ply]")
    assert len(rows) == len(judged["moves"])
    for row, want in zip(rows, judged["moves"], strict=True):
        ply = int(row.get_attribute("data-ply"))
        seen = (row.get_attribute("data-mark"), row.get_attribute("data-better"),
                row.get_attribute("data-followed"), float(row.get_attribute("data-loss")))
        assert seen == (want["mark"], want["better"] or "",
                        "true" if want["followed"] else "false",
                        want["chance_lost"] or 0.0), ply
        if ply in player.planted:
            assert want["mark"] in ("?", "??") and want["better"], ply
        elif want["followed"]:
            assert want["mark"] == ""
    costliest = judged["costliest"]
    assert summary.get_attribute("data-costliest") == (str(costliest[0]) if costliest
                                                       else "")
    if costliest:
        assert f"move {costliest[0]} (" in summary.text
    assert "Accuracy" in summary.text
    # the chart: its points are reached by Tab and opened by Enter
    point = browser.find_element(By.CSS_SELECTOR, "#end .point[data-chart-ply]")
    assert point.get_attribute("tabindex") == "0"
    browser.execute_script("arguments[0].focus()", point)
    ply = point.get_attribute("data-chart-ply")
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    WebDriverWait(browser, WAIT).until(lambda d, ply=ply: attr(d, "#board", "data-review") == ply)
    browser.find_element(By.CSS_SELECTOR, "[data-action=back]").click()
    return len(player.planted)


@pytest.mark.slow  # about 20 s a game (the fast set has analyze's own planted moves)
def test_the_page_and_analyze_judge_alike(server, browser):  # noqa: F811 - fixtures
    planted = [judged_alike(server, browser, number, seed)
               for number, seed in ((11, 5), (27, 8), (40, 2))]
    assert sum(planted) >= 3
