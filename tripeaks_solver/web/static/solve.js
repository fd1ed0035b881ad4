// The solve page (/solve): a deal's verdicts under both rule sets and its best line
// step by step. Uses cards.js and i18n.js; app.js shows it.
"use strict";

const solved = { data: null, rules: 0, step: 0, timer: null };
function showSolve() {
  $("#solve-view").hidden = false;
  const q = new URLSearchParams(location.search);
  if (q.get("text")) $("#solve-text").value = q.get("text");
  document.querySelector("[data-action=solve]").addEventListener("click", solveIt);
  $("#solve-text").addEventListener("keydown", (ev) => { if (ev.key === "Enter") solveIt(); });
  document.querySelector("[data-action=prev]").addEventListener("click", () => stepTo(solved.step - 1));
  document.querySelector("[data-action=next]").addEventListener("click", () => stepTo(solved.step + 1));
  document.querySelector("[data-action=play]").addEventListener("click", playLine);
  if (q.get("text")) solveIt();
}
async function solveIt() {
  say("");
  stopPlaying();
  try {
    solved.data = await api("/api/solve", { text: $("#solve-text").value, scoring: $("#solve-scoring").value });
  } catch (e) { say(e.message); return; }
  const box = $("#verdicts");
  box.replaceChildren(el("p", { text: solved.data.title }));
  solved.data.rules.forEach((r, i) => {
    box.append(el("button", { type: "button", class: "verdict", "data-solve-rules": r.rules,
      onclick: () => { solved.rules = i; stepTo(0); } },
    el("strong", { text: r.rules === "easy" ? "Easy" : "Classic" }),
    `: ${r.winnable ? "winnable" : "no win"}, best score ${r.best_score} in ${r.moves.length} moves`));
  });
  solved.rules = 0;
  $("#solve-board").hidden = false;
  $("#stepper").hidden = false;
  stepTo(0);
}
function stepTo(i) {
  const r = solved.data.rules[solved.rules];
  solved.step = Math.max(0, Math.min(i, r.moves.length));
  const f = r.frames[solved.step];
  for (const b of document.querySelectorAll("[data-solve-rules]")) b.classList.toggle("on", b.dataset.solveRules === r.rules);
  const next = r.moves[solved.step];
  drawBoard($("#solve-board"), f.board, (cell) => {
    const node = cardFace(cell.card);
    if (!cell.face_up) node.classList.add("down");
    if (cell.card === next) node.classList.add("recommended");
    return node;
  });
  $("#solve-waste").replaceChildren(f.waste ? cardFace(f.waste) : el("span", { class: "card empty", text: "waste" }));
  $("#solve-stock").textContent = `stock ${f.stock_left}` + (next === "draw" ? " · next: draw" : "");
  $("#solve-step").textContent = solved.step === 0 ? `Start: score ${f.score}; ${r.moves.length} moves to go.` :
    `Move ${solved.step} of ${r.moves.length}: ${pretty(r.moves[solved.step - 1])}, score ${f.score}${f.status !== "in play" ? " (" + f.status + ")" : ""}`;
  const list = $("#solve-line");
  list.replaceChildren(...r.moves.map((m, j) => el("li", { class: j + 1 === solved.step ? "on" : "",
    onclick: () => stepTo(j + 1) }, el("span", { class: "n", text: `${j + 1}. ` }), `${pretty(m)} `,
    el("span", { class: "hint", text: String(r.frames[j + 1].score) }))));
}
function stopPlaying() { if (solved.timer) { clearInterval(solved.timer); solved.timer = null; } }
function playLine() {
  if (solved.timer) { stopPlaying(); return; }
  const r = solved.data.rules[solved.rules];
  if (solved.step >= r.moves.length) stepTo(0);
  solved.timer = setInterval(() => {
    if (solved.step >= r.moves.length) { stopPlaying(); return; }
    stepTo(solved.step + 1);
  }, 600);
}
