// The start page of `tripeaks-solve serve` (/): the picker of the cards seen, the
// rules, and the saved games. Uses cards.js and i18n.js; app.js shows it.
"use strict";

function seenCount() {
  const open = document.querySelector('input[name=variant][value=open]').checked;
  const empty = document.querySelector('input[name=variant][value=empty-waste]').checked;
  return (open ? 28 : 10) + (empty ? 0 : 1);
}
function startTokens() {
  const words = $("#start-text").value.replace(/,/g, " ").split(/\s+/).filter(Boolean);
  return words.every((w) => /^(10|[A2-9TJQK])[cdhs]$/i.test(w)) ? words : null;
}
function normal(word) {
  const w = word.replace(/^10/, "T");
  return w[0].toUpperCase() + w[1].toLowerCase();
}
function renderPicker() {
  const words = (startTokens() || []).map(normal);
  const n = seenCount();
  const open = n >= 28;
  $("#seen-what").textContent = `${open ? "28 peak cards row by row" : "10 face-up cards"} left to right${n % 2 ? ", then the waste card" : ""}`;
  const picked = $("#picked");
  picked.replaceChildren();
  for (let i = 0; i < n; i++) {
    const waste = i === n - 1 && n % 2 === 1;
    const slot = el("span", { class: `slot-small${waste ? " waste-slot" : ""}`, title: waste ? "the waste" : `card ${i + 1}` });
    if (words[i]) slot.append(cardFace(words[i]));
    else slot.textContent = waste ? "waste" : String(i + 1);
    picked.append(slot);
  }
  for (const node of document.querySelectorAll("[data-pick]")) {
    node.classList.toggle("chosen", words.includes(node.dataset.pick));
  }
}
function pick(token) {
  const words = (startTokens() || []).map(normal);
  const at = words.indexOf(token);
  if (at >= 0) words.splice(at, 1);
  else if (words.length < seenCount()) words.push(token);
  $("#start-text").value = words.join(" ");
  renderPicker();
}
async function showStart() {
  $("#start-view").hidden = false;
  const grid = $("#pick-grid");
  for (const s of SUITS) for (const r of RANKS) {
    const t = r + s;
    grid.append(el("button", { type: "button", class: "pick", "data-pick": t, "aria-label": pretty(t),
      onclick: () => pick(t) }, cardFace(t)));
  }
  $("#start-text").addEventListener("input", renderPicker);
  for (const box of document.querySelectorAll("input[name=variant]")) box.addEventListener("change", renderPicker);
  renderPicker();
  document.querySelector("[data-action=start]").addEventListener("click", start);
  try {
    const data = await api("/api/games");
    $("#folder").textContent = `Records in ${data.folder}, newest first: click one to continue it.`;
    const list = $("#games");
    if (!data.games.length) list.append(el("li", { class: "hint", text: "No game yet." }));
    for (const g of data.games) {
      if (g.error) {  // listed, as coach --list does, but not to be opened
        list.append(el("li", { class: "unreadable" }, el("strong", { text: g.file }), el("br"),
          el("span", { class: "hint", text: g.error })));
        continue;
      }
      const what = `${g.start} · ${g.rules}, ${g.scoring} · ${g.moves} moves · ${g.result} · score ${g.score}`;
      list.append(el("li", {},
        el("a", { href: `/play/${encodeURIComponent(g.file)}`, "data-record": g.file },
          el("strong", { text: g.file }), el("br"), el("span", { class: "hint", text: what }))));
    }
  } catch (e) { say(e.message); }
}
async function start() {
  say("");
  const rules = document.querySelector("input[name=rules]:checked").value;
  const variants = [...document.querySelectorAll("input[name=variant]:checked")].map((b) => b.value);
  const samples = $("#samples").value || "1000";
  try {
    const state = await api("/api/games", { start: $("#start-text").value, rules, variants,
      scoring: $("#scoring").value });
    const seed = $("#seed").value || String(state.seed);
    location.assign(`/play/${encodeURIComponent(state.name)}?samples=${encodeURIComponent(samples)}&seed=${encodeURIComponent(seed)}`);
  } catch (e) { say(e.message); }
}
