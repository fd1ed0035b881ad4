// The start page of `tripeaks-solve serve` (/): the picker of the cards seen, the
// rules, and the saved games. Uses cards.js and i18n.js; app.js shows it.
"use strict";

// The cards a player sees at the start under the variants ticked, as the server counts
// them (FACTS.starts): how many, and whether the last is the waste card.
function seenStart() {
  const open = document.querySelector('input[name=variant][value=open]').checked;
  const empty = document.querySelector('input[name=variant][value=empty-waste]').checked;
  return FACTS.starts.find((s) => s.open === open && s.empty_waste === empty);
}
function seenCount() { return seenStart().count; }
function startWords() {
  return $("#start-text").value.replace(/,/g, " ").split(/\s+/).filter(Boolean);
}
// The words typed as card tokens ("10h" as "Th"), or null when one is not a card.
function startTokens() {
  const tokens = startWords().map(cardToken);
  return tokens.every(Boolean) ? tokens : null;
}
// What to click, in words, under the variants ticked.
function seenHelp(seen) {
  const n = fmtNumber(seen.count - (seen.waste ? 1 : 0));  // the tableau's cards seen
  if (!seen.open) {
    return seen.waste ? _("Click the {n} face-up cards left to right, then the waste card, as the app shows them; or paste the cards seen, a game code or a layout.", { n })
      : _("Click the {n} face-up cards left to right as the app shows them; or paste the cards seen, a game code or a layout.", { n });
  }
  return seen.waste ? _("Click the {n} peak cards row by row, left to right, then the waste card, as the app shows them; or paste the cards seen, a game code or a layout.", { n })
    : _("Click the {n} peak cards row by row, left to right, as the app shows them; or paste the cards seen, a game code or a layout.", { n });
}
function renderPicker() {
  const words = startTokens() || [];
  const seen = seenStart(), n = seen.count;
  $("#seen-what").textContent = seenHelp(seen);
  const picked = $("#picked");
  picked.replaceChildren();
  for (let i = 0; i < n; i++) {
    const waste = seen.waste && i === n - 1;
    const name = waste ? _("the waste card") : _("card {n}", { n: fmtNumber(i + 1) });
    const slot = el("span", { class: `slot-small${waste ? " waste-slot" : ""}`, title: name });
    if (words[i]) slot.append(cardFace(words[i], { "aria-label": _("{place}: {card}", { place: name, card: cardName(words[i]) }) }));
    else slot.append(el("span", { "aria-hidden": "true", text: waste ? _("waste") : fmtNumber(i + 1) }));
    picked.append(slot);
  }
  for (const node of document.querySelectorAll("[data-pick]")) {
    const chosen = words.includes(node.dataset.pick);
    node.classList.toggle("chosen", chosen);
    node.setAttribute("aria-pressed", chosen ? "true" : "false");
  }
}
function pick(token) {
  const words = startTokens() || [];
  const at = words.indexOf(token);
  if (at >= 0) words.splice(at, 1);
  else if (words.length < seenCount()) words.push(token);
  $("#start-text").value = words.join(" ");
  renderPicker();
}
// A saved game's start, in words: the cards seen, a code, a layout.
function startWordsOf(text) {
  const [kind, ...rest] = String(text).split(" ");
  const body = rest.join(" ");
  if (kind === "code") return _("code {code}", { code: body });
  if (kind === "seen") return _("cards seen: {cards}", { cards: prettyLine(rest) });
  return _("layout {cards}", { cards: body.length > 40 ? body.slice(0, 40) + "…" : body });
}
// A saved game's first cards, short: the first four seen (or of the layout), or the code.
function firstCards(text) {
  const [kind, ...rest] = String(text).split(" ");
  if (kind === "code") return rest.join(" ");
  const cards = rest.filter((t) => t !== "??").slice(0, 4).map(pretty).join(" ");
  return rest.length > 4 ? `${cards} …` : cards;
}
// When a game was last played, in the reader's way ("6 Dec 2026, 02:01").
function playedWhen(iso) {
  const when = new Date(iso);
  if (Number.isNaN(when.getTime())) return String(iso);
  try {
    return new Intl.DateTimeFormat(I18N.lang, { dateStyle: "medium", timeStyle: "short" }).format(when);
  } catch (e) { return when.toLocaleString(); }
}
// A saved game named for people: when, the rules, its first cards, how it stands.
function gameTitle(g) {
  const score = g.scoring === "cards-left"
    ? ngettext("{n} card left", "{n} cards left", g.score, { n: fmtNumber(g.score) })
    : _("score {score}", { score: fmtNumber(g.score) });
  return [playedWhen(g.modified), listedRules(g.rules), firstCards(g.start),
    `${statusWord(g.result)}, ${score}`].join(" · ");
}
// "Classic (empty-waste, open)", as the list gives a record's rules, in words.
function listedRules(text) {
  const m = /^(\w+)(?: \((.*)\))?$/.exec(String(text));
  return m ? rulesWords(m[1], (m[2] || "").split(", ").join("+")) : String(text);
}
async function showStart() {
  $("#start-view").hidden = false;
  if (!$("#samples").value) $("#samples").value = String(FACTS.limits.default_samples);
  const grid = $("#pick-grid");
  grid.setAttribute("aria-label", _("The {n} cards", { n: fmtNumber(FACTS.cards.deck_size) }));
  for (const t of deckTokens()) {
    grid.append(pickButton(t, { "data-pick": t, "aria-pressed": "false", onclick: () => pick(t) }));
  }
  roving(grid);
  $("#start-text").addEventListener("input", renderPicker);
  $("#start-text").addEventListener("keydown", (ev) => { if (ev.key === "Enter") start(); });
  for (const box of document.querySelectorAll("input[name=variant]")) box.addEventListener("change", renderPicker);
  renderPicker();
  document.querySelector("[data-action=start]").addEventListener("click", start);
  if (location.hash === "#saved") $("#saved").scrollIntoView();
  try {
    const data = await api("/api/games");
    $("#folder").textContent = _("Records in {folder}, newest first: click one to continue it.", { folder: data.folder });
    const list = $("#games");
    if (!data.games.length) list.append(el("li", { class: "hint", text: _("No game yet.") }));
    for (const g of data.games) {
      if (g.error) {  // listed, as coach --list does, but not to be opened
        list.append(el("li", { class: "unreadable" }, el("strong", { text: g.file }), el("br"),
          el("span", { class: "hint", text: g.error })));
        continue;
      }
      const what = [startWordsOf(g.start), scoringWord(g.scoring),
        ngettext("{n} move", "{n} moves", g.moves, { n: fmtNumber(g.moves) })].join(" · ");
      const file = el("span", { class: "file", text: _("record {file}", { file: g.file }) });
      if (g.held_elsewhere) {  // another session (a terminal coach) holds it: no link
        list.append(el("li", { class: "unreadable" }, el("strong", { text: gameTitle(g) }), el("br"),
          el("span", { class: "hint", text: what }), el("br"), file, el("br"),
          el("span", { class: "held", text: _("open in a terminal coach: finish it there, then continue it here") })));
        continue;
      }
      list.append(el("li", {},
        el("a", { href: `/play/${encodeURIComponent(g.file)}`, "data-record": g.file },
          el("strong", { text: gameTitle(g) }), el("br"), el("span", { class: "hint", text: what }), el("br"), file)));
    }
    if (location.hash === "#saved") $("#saved").scrollIntoView();
  } catch (e) { say(e.message); }
  showShare();
}
// A server on the LAN: its address (with its token) as a QR code, for the phone.
async function showShare() {
  let share;
  try { share = await api("/api/share", undefined, true); } catch (e) { return; }
  if (!share.url || !share.svg) return;
  $("#share-qr").src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(share.svg)}`;
  $("#share-qr").alt = _("QR code of {url}", { url: share.url });
  $("#share-url").href = share.url;
  $("#share-url").textContent = share.url;
  $("#share").hidden = false;
}
// The start typed, checked here first: the page says what is wrong in its own words.
function startProblem() {
  const words = startWords();
  if (!words.length) return _("Give the start: click the cards seen, or paste them, a game code or a layout.");
  const tokens = startTokens();
  if (!tokens) return null;  // a code, a layout: the server reads it
  const n = seenCount();
  const cards = tokens;
  const twice = cards.find((c, i) => cards.indexOf(c) !== i);
  if (twice) return _("{card} is given twice: each card once.", { card: pretty(twice) });
  if (cards.length !== n && cards.length !== FACTS.cards.deck_size) {
    return ngettext("The start needs {want} cards; {n} is given.", "The start needs {want} cards; {n} are given.",
      cards.length, { want: fmtNumber(n), n: fmtNumber(cards.length) });
  }
  return null;
}
// The advice's fields, checked before a game is made for them (the server checks them
// again on every advice), against the server's bounds (FACTS.limits): samples from 1, a
// seed from 0 (as digits: a JavaScript number is exact only up to 2⁵³).
function adviceProblem(samples, seed) {
  const mostSamples = FACTS.limits.max_samples, mostSeed = BigInt(FACTS.limits.max_seed);
  if (samples && !(/^\d+$/.test(samples) && Number(samples) >= 1 && Number(samples) <= mostSamples)) {
    return _("Samples: a whole number from 1 to {most}.", { most: fmtNumber(mostSamples) });
  }
  if (seed && !(/^\d+$/.test(seed) && BigInt(seed) <= mostSeed)) {
    return _("Seed: a whole number from 0 to {most}.", { most: fmtNumber(mostSeed) });
  }
  return null;
}
async function start() {
  say("");
  const samples = $("#samples").value.trim() || String(FACTS.limits.default_samples);
  const seedTyped = $("#seed").value.trim();
  const problem = startProblem() || adviceProblem(samples, seedTyped);
  if (problem) { say(problem); return; }
  const rules = document.querySelector("input[name=rules]:checked").value;
  const variants = [...document.querySelectorAll("input[name=variant]:checked")].map((b) => b.value);
  try {
    const state = await api("/api/games", { start: $("#start-text").value, rules, variants,
      scoring: $("#scoring").value });
    // as the server reads them ("007" is 7): the address and the advice show what is used
    const seed = seedTyped ? BigInt(seedTyped).toString() : String(state.seed);
    location.assign(`/play/${encodeURIComponent(state.name)}?samples=${Number(samples)}&seed=${seed}`);
  } catch (e) { say(e.message); }
}
