// The solve page (/solve): a deal's verdicts under both rule sets and its best line
// step by step (← and → step; the address becomes /solve?text=…, to bookmark or
// share). Uses cards.js and i18n.js; app.js shows it.
"use strict";

const solved = { data: null, rules: 0, step: 0, timer: null };
function showSolve() {
  $("#solve-view").hidden = false;
  const q = new URLSearchParams(location.search);
  if (q.get("text")) $("#solve-text").value = q.get("text");
  if (q.get("scoring")) $("#solve-scoring").value = q.get("scoring");
  document.querySelector("[data-action=solve]").addEventListener("click", solveIt);
  $("#solve-text").addEventListener("keydown", (ev) => { if (ev.key === "Enter") solveIt(); });
  document.querySelector("[data-action=prev]").addEventListener("click", () => { stopPlaying(); stepTo(solved.step - 1); });
  document.querySelector("[data-action=next]").addEventListener("click", () => { stopPlaying(); stepTo(solved.step + 1); });
  document.querySelector("[data-action=play]").addEventListener("click", playLine);
  document.addEventListener("keydown", (ev) => {
    if (!solved.data || solved.data.unknown || ev.ctrlKey || ev.metaKey || ev.altKey || ["INPUT", "SELECT"].includes(ev.target.tagName)) return;
    if (ev.key === "ArrowLeft" || ev.key === "ArrowRight") {
      ev.preventDefault();
      stopPlaying();
      stepTo(solved.step + (ev.key === "ArrowLeft" ? -1 : 1));
    }
  });
  if (q.get("text")) solveIt();
}
async function solveIt() {
  say("");
  stopPlaying();
  const text = $("#solve-text").value.trim();
  const scoring = $("#solve-scoring").value;
  // The address names what the page shows: the text asked, even when refused (a reload
  // or a bookmark never brings back an old deal that is no longer on the screen).
  const q = new URLSearchParams(text ? { text } : {});
  if (scoring !== "app") q.set("scoring", scoring);
  history.replaceState(null, "", q.toString() ? `/solve?${q}` : "/solve");
  try {
    solved.data = await api("/api/solve", { text, scoring });
  } catch (e) {
    solved.data = null;  // no old result under the error
    $("#solve-result").hidden = true;
    $("#verdicts").replaceChildren();
    $("#solve-line").replaceChildren();
    say(e.message);
    return;
  }
  const box = $("#verdicts");
  box.replaceChildren(el("p", { text: solved.data.title === "layout" ? _("A layout of {n} cards", { n: fmtNumber(FACTS.cards.deck_size) }) : solved.data.title }));
  if (solved.data.unknown) { showShares(box, solved.data); return; }
  solved.data.rules.forEach((r, i) => {
    const verdict = r.winnable
      ? ngettext("{rules}: winnable, best score {score} in {n} move", "{rules}: winnable, best score {score} in {n} moves", r.moves.length,
        { rules: rulesWord(r.rules), score: fmtNumber(r.best_score), n: fmtNumber(r.moves.length) })
      : ngettext("{rules}: no win, best score {score} in {n} move", "{rules}: no win, best score {score} in {n} moves", r.moves.length,
        { rules: rulesWord(r.rules), score: fmtNumber(r.best_score), n: fmtNumber(r.moves.length) });
    box.append(el("button", { type: "button", class: "verdict", "data-solve-rules": r.rules, "aria-pressed": "false",
      onclick: () => { stopPlaying(); solved.rules = i; stepTo(0); } }, verdict));
  });
  // A code names its rules (TP1-C-…: Classic): open those; a layout names none.
  solved.rules = Math.max(0, solved.data.rules.findIndex((r) => r.rules === solved.data.code_rules));
  for (const id of ["#solve-board", "#stepper", "#solve-step", "#solve-line"]) $(id).hidden = false;
  $("#solve-result").hidden = false;
  stepTo(0);
}
// A layout with cards not known (??): each rule set's share of its completions won, as
// `solve --layout` gives it; no line to step through (the deal is not known).
function showShares(box, data) {
  box.append(el("p", { text: ngettext("{n} card not known (??): the share of the ways to fill it that can be won.",
    "{n} cards not known (??): the share of the ways to fill them that can be won.", data.unknown, { n: fmtNumber(data.unknown) }) }));
  for (const r of data.rules) {
    const s = r.share;
    const text = s.exact
      ? _("{rules}: winnable in {wins} of {total} completions ({share}, exact)", { rules: rulesWord(r.rules),
        wins: fmtNumber(s.wins), total: fmtNumber(s.total), share: percent(s.share) })
      : _("{rules}: winnable in {wins} of {total} random completions ({share}; 95% between {low} and {high})", {
        rules: rulesWord(r.rules), wins: fmtNumber(s.wins), total: fmtNumber(s.total), share: percent(s.share),
        low: percent(s.low), high: percent(s.high) });
    box.append(el("p", { class: "share", "data-share-rules": r.rules, text }));
  }
  for (const id of ["#solve-board", "#stepper", "#solve-step", "#solve-line"]) $(id).hidden = true;
  $("#solve-result").hidden = false;
}
// A move of the line in words: a draw names the card it drew.
function lineMove(r, j) {
  const m = r.moves[j];
  return m === "draw" ? _("draw {card}", { card: pretty(r.frames[j + 1].waste) }) : pretty(m);
}
function stepTo(i) {
  const r = solved.data.rules[solved.rules];
  solved.step = Math.max(0, Math.min(i, r.moves.length));
  const f = r.frames[solved.step];
  for (const b of document.querySelectorAll("[data-solve-rules]")) {
    const on = b.dataset.solveRules === r.rules;
    b.classList.toggle("on", on);
    b.setAttribute("aria-pressed", on ? "true" : "false");
  }
  const next = r.moves[solved.step];
  drawBoard($("#solve-board"), f.board, (cell) => {
    const label = cell.face_up ? cardName(cell.card) : _("{card}, face down", { card: cardName(cell.card) });
    const node = cardFace(cell.card, { "aria-label": cell.card === next ? _("{card}, the next move", { card: label }) : label });
    if (!cell.face_up) node.classList.add("down");
    if (cell.card === next) node.classList.add("recommended");
    return node;
  });
  $("#solve-waste").replaceChildren(f.waste ? cardFace(f.waste, { "aria-label": _("the waste: {card}", { card: cardName(f.waste) }) })
    : el("span", { class: "card empty", role: "img", "aria-label": _("the waste is empty") }, el("span", { "aria-hidden": "true", text: _("waste") })));
  const stock = $("#solve-stock");
  stock.classList.toggle("recommended", next === "draw");
  stock.replaceChildren(el("span", { class: "back", "aria-hidden": "true" }),
    next === "draw" ? ngettext("{n} left: next, draw", "{n} left: next, draw", f.stock_left, { n: fmtNumber(f.stock_left) })
      : ngettext("{n} left", "{n} left", f.stock_left, { n: fmtNumber(f.stock_left) }));
  const step = $("#solve-step");
  step.dataset.step = String(solved.step);
  const over = f.status === "won" ? _("won") : f.status === "stuck" ? _("stuck") : null;
  step.textContent = solved.step === 0
    ? ngettext("Start: score {score}; {n} move to go.", "Start: score {score}; {n} moves to go.", r.moves.length, { score: fmtNumber(f.score), n: fmtNumber(r.moves.length) })
    : stepWords({ n: fmtNumber(solved.step), of: fmtNumber(r.moves.length), move: lineMove(r, solved.step - 1),
      score: fmtNumber(f.score), end: over });
  const list = $("#solve-line");
  list.replaceChildren(...r.moves.map((m, j) => el("li", { class: j + 1 === solved.step ? "on" : "" },
    el("button", { type: "button", class: "step", "aria-current": j + 1 === solved.step ? "step" : null,
      onclick: () => { stopPlaying(); stepTo(j + 1); } },
    el("span", { class: "n", text: `${fmtNumber(j + 1)}. ` }), `${lineMove(r, j)} `,
    el("span", { class: "hint", text: fmtNumber(r.frames[j + 1].score) })))));
  document.querySelector("[data-action=prev]").disabled = solved.step === 0;
  document.querySelector("[data-action=next]").disabled = solved.step === r.moves.length;
}
function stepWords(vars) {
  return vars.end ? _("Move {n} of {of}: {move}, score {score} ({end})", vars) : _("Move {n} of {of}: {move}, score {score}", vars);
}
function playButton(playing) {
  const play = document.querySelector("[data-action=play]");
  play.querySelector(".icon").textContent = playing ? "⏸" : "▶";
  play.querySelector(".word").textContent = playing ? _("Pause") : _("Play");
  play.setAttribute("aria-label", playing ? _("Pause") : _("Play"));
  play.setAttribute("aria-pressed", playing ? "true" : "false");
}
function stopPlaying() {
  if (solved.timer) { clearInterval(solved.timer); solved.timer = null; }
  playButton(false);
}
function playLine() {
  if (solved.timer) { stopPlaying(); return; }
  const r = solved.data.rules[solved.rules];
  if (solved.step >= r.moves.length) stepTo(0);
  playButton(true);
  solved.timer = setInterval(() => {
    if (solved.step >= r.moves.length) { stopPlaying(); return; }
    stepTo(solved.step + 1);
  }, 600);
}
