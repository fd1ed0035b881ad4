// What the page knows of the game, from the server (web/facts.py, the one source): the
// board's geometry, how a card is written, how many cards a player sees at the start,
// the languages and the advice's limits (FACTS of docs/web.md). No script of the page
// writes one of them again (tests/test_web_single_source.py). The server puts them in
// the page (<script type="application/json" id="page-facts">): they are there from the
// first paint; without it, they are asked for (/api/facts). Loaded first.
"use strict";

const FACTS = {};
async function loadFacts() {
  const inPage = document.getElementById("page-facts");
  try {
    if (inPage) {
      Object.assign(FACTS, JSON.parse(inPage.textContent));
    } else {
      const response = await fetch("/api/facts", { headers: { Accept: "application/json" } });
      if (response.ok) Object.assign(FACTS, await response.json());
    }
  } catch (err) {
    console.error("the page's facts could not be loaded:", err);
  }
}
