// The pages of `tripeaks-solve serve`: start picker and saved games (/), a game played
// along (/play/NAME), a deal's best line (/solve). The helpers (cards, board, API) are
// in cards.js, loaded first.
"use strict";

// --- the start page --------------------------------------------------------------------
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

// --- a game played along ---------------------------------------------------------------
const game = { name: null, state: null, advice: null, samples: 1000, seed: null, asked: 0 };

function gamePath(tail) {
  return `/api/games/${encodeURIComponent(game.name)}${tail}`;
}
function adviceQuery() {
  return `samples=${game.samples}${game.seed !== null ? "&seed=" + game.seed : ""}`;
}
async function showPlay(name) {
  $("#play-view").hidden = false;
  game.name = name;
  const q = new URLSearchParams(location.search);
  game.samples = Number(q.get("samples")) || 1000;
  game.seed = q.get("seed") !== null && q.get("seed") !== "" ? Number(q.get("seed")) : null;
  $("#record-name").textContent = name;
  document.title = `TriPeaks · ${name}`;
  document.querySelector("[data-action=draw]").addEventListener("click", () => send("move", { move: "draw" }));
  document.querySelector("[data-action=undo]").addEventListener("click", () => send("move", { move: "undo" }));
  document.querySelector("[data-action=peek]").addEventListener("click", () => send("peek", {}));
  document.querySelector("[data-action=cancel]").addEventListener("click", () => send("cancel", {}));
  document.addEventListener("keydown", onKey);
  try {
    show(await api(gamePath("")));
  } catch (e) { say(e.message); }
}
async function send(what, body) {
  if (!game.state) return;
  say("");
  $("#advice").dataset.recommended = "";
  try {
    show(await api(gamePath(`/${what}`), { ...body, at: game.state.at }));
  } catch (e) {
    say(e.message);
    if (e.status === 409) { try { show(await api(gamePath(""))); } catch (e2) { say(e2.message); } }
    else if (game.state) show(game.state);
  }
}
function show(state) {
  game.state = state;
  if (game.seed === null) {
    game.seed = state.seed;
    const q = new URLSearchParams(location.search);
    q.set("samples", String(game.samples));
    q.set("seed", String(game.seed));
    history.replaceState(null, "", `${location.pathname}?${q}`);
  }
  const st = $("#status");
  st.dataset.status = state.status;
  st.dataset.moves = String(state.moves_played);
  st.dataset.score = String(state.score);
  st.replaceChildren(
    el("strong", { text: state.status === "in play" ? "In play" : state.status === "won" ? "Won!" : "Stuck" }),
    ` · ${state.moves_played} move${state.moves_played === 1 ? "" : "s"} · score ${state.score} · known ${state.known} of ${state.places} cards` +
    ` · ${state.rules}${state.variant ? " (" + state.variant + ")" : ""}, ${state.scoring} scoring`);
  const over = state.status !== "in play";
  const asking = state.need !== null;
  const peek = state.peek && !state.peek.done ? state.peek : null;
  const taps = new Set(peek ? peek.moves : []);
  drawBoard($("#board"), state.board, (cell) => {
    if (!cell.face_up) return cardBack({ "data-down": String(cell.place) });
    const clickable = !over && !asking;
    const attrs = clickable ? { "data-card": cell.card, "data-place": String(cell.place), role: "button", tabindex: "0" } : {};
    const node = cardFace(cell.card, attrs);
    if (state.legal.includes(cell.card)) node.classList.add("playable");
    if (taps.has(cell.card)) node.classList.add("tap");
    if (asking && state.need.place === cell.place) node.classList.add("asked");
    if (clickable) node.addEventListener("click", () => send("move", { move: cell.card }));
    return node;
  });
  for (const p of asking ? [state.need.place] : []) {
    const down = document.querySelector(`[data-down="${p}"]`);
    if (down) down.classList.add("asked");
  }
  $("#waste").replaceChildren(state.waste ? cardFace(state.waste) : el("span", { class: "card empty", text: "waste" }));
  $("#stock-left").textContent = `${state.stock_left} left`;
  const stock = $("#stock");
  stock.disabled = over || asking || state.stock_left === 0;
  stock.classList.toggle("tap", taps.has("draw"));
  const undo = document.querySelector("[data-action=undo]");
  undo.disabled = !state.can_undo;
  undo.classList.toggle("tap", !!peek && peek.undos > 0);
  document.querySelector("[data-action=peek]").classList.toggle("on", !!state.peek && !state.peek.done);
  showQuestion(state);
  showPeek(state);
  $("#advice").dataset.recommended = "";
  $("#advice").replaceChildren();
  $("#bars").replaceChildren();
  $("#line").hidden = true;
  $("#end").hidden = true;
  if (over) { showEnd(); return; }
  if (!asking) ask(state.at);
}
function showQuestion(state) {
  const box = $("#question");
  box.hidden = state.need === null;
  if (state.need === null) return;
  const need = state.need;
  box.dataset.place = String(need.place);
  const what = need.move === "draw" ? "The card you drew" : `${need.name[0].toUpperCase()}${need.name.slice(1)} turned up`;
  $("#question-text").textContent = `${what}: which card?${need.of > 1 ? ` (card ${need.asked} of ${need.of}, left to right)` : ""}`;
  const known = new Set(state.known_cards);
  const grid = $("#reveal-grid");
  grid.replaceChildren();
  for (const s of SUITS) for (const r of RANKS) {
    const t = r + s;
    const seen = known.has(t);
    grid.append(el("button", { type: "button", class: "pick", disabled: seen, "data-reveal": seen ? null : t,
      "aria-label": pretty(t), onclick: seen ? null : () => send("reveal", { card: t }) }, cardFace(t)));
  }
}
function showPeek(state) {
  const box = $("#peek");
  const p = state.peek;
  box.hidden = !p;
  if (!p) return;
  const seen = `cards seen ${p.seen} of ${p.of}`;
  box.dataset.undos = String(p.undos);
  box.dataset.moves = p.moves.join(" ");
  box.dataset.seen = String(p.seen);
  box.dataset.done = p.done ? "true" : "false";
  if (p.done) {
    box.textContent = `Peek done in ${p.taps} taps: ${p.unknown ? p.unknown + " cards stay unknown" : "every card is known"} (${seen}). The exact best line follows.`;
    return;
  }
  const parts = [];
  if (p.undos) parts.push(`undo ${p.undos}`);
  if (p.moves.length) parts.push(`tap ${p.moves.map(pretty).join(" ")}`);
  const shows = p.shows.length ? `, and say the card that turns up (${p.shows.map((s) => s.name).join(" and ")})` : "";
  box.textContent = `Peek: ${parts.join(", then ") || "nothing more to look at"}${shows}. ${seen}, ${p.taps} taps so far.`;
}
async function ask(at) {
  const asked = ++game.asked;
  try {
    const advice = await api(gamePath(`/advice?at=${at}&${adviceQuery()}`));
    if (asked !== game.asked || !game.state || game.state.at !== advice.at) return;
    showAdvice(advice);
  } catch (e) {
    if (asked === game.asked) say(e.message);
  }
}
// A share as a whole percent that never says 100% (or 0%) unless it is exactly that.
function percent(share) {
  let p = Math.round(100 * share);
  if (p === 100 && share < 1) p = 99;
  if (p === 0 && share > 0) p = 1;
  return `${p}%`;
}
function showAdvice(advice) {
  game.advice = advice;
  const box = $("#advice");
  const rec = advice.recommended;
  box.dataset.recommended = rec || "";
  for (const node of document.querySelectorAll(".recommended")) node.classList.remove("recommended");
  if (rec === "draw") $("#stock").classList.add("recommended");
  else if (rec) { const c = document.querySelector(`[data-card="${rec}"]`); if (c) c.classList.add("recommended"); }
  if (!rec) { box.textContent = "No move left."; return; }
  const who = advice.exact ? `exact, every card known: ${advice.winnable ? "winnable" : "no win left"}, best score ${advice.best_score}` :
    `${advice.player} player, seed ${advice.seed}`;
  box.replaceChildren(el("span", { text: "Recommended: " }), el("strong", { text: pretty(rec) }), ` (${who})`);
  if (advice.chance !== null && advice.chance !== undefined) {
    // The honest odds: games the advised play itself won, not the ceiling of the bars.
    box.append(el("div", { class: "chance", text: `Chance: ${percent(advice.chance)} of the guessed games won by this move, then careful play` }));
  }
  const bars = $("#bars");
  bars.replaceChildren(el("div", { class: "bars-title", text: advice.exact ? "Each move: best score still reachable" :
    "Each move: share of guesses at the unseen cards still winnable" }));
  const top = Math.max(1, ...advice.moves.map((m) => (advice.exact ? m.best_score || 0 : m.share)));
  for (const m of advice.moves) {
    const value = advice.exact ? m.best_score || 0 : m.share;
    const fill = el("span", { class: "fill" });
    fill.style.width = `${advice.exact ? (100 * value) / top : 100 * value}%`;
    bars.append(el("div", { class: `bar${m.move === rec ? " best" : ""}` },
      el("span", { class: "label", text: pretty(m.move) }), el("span", { class: "track" }, fill),
      el("span", { class: "value", text: advice.exact ? `${m.best_score ?? "–"}${m.mark ? " " + m.mark : ""}` : percent(m.share) })));
  }
  if (advice.exact && advice.line.length) {
    const line = $("#line");
    line.hidden = false;
    line.replaceChildren(el("strong", { text: "Best line: " }), advice.line.map(pretty).join(" "));
  }
}
async function showEnd() {
  const box = $("#end");
  box.hidden = false;
  box.replaceChildren(el("p", { text: "Judging the game…" }));
  try {
    const end = await api(gamePath(`/analysis?${adviceQuery()}`));
    const a = end.analysis;
    const parts = [el("h2", { text: `Game ${end.result}: score ${end.score} in ${end.moves} moves` })];
    if (a) {
      const lost = a.lost_total === null ? "" : `Points lost by the moves: ${a.lost_total} (best at the start ${a.best_start}, still reachable at the end ${a.final_best}). `;
      const where = a.lost_at ? `The win was lost for good at move ${a.lost_at}. ` : "";
      parts.push(el("p", { text: `${lost}${where}Moves marked ?? ${a.marks["??"]}, ? ${a.marks["?"]}, ! ${a.marks["!"]}; bad luck ${a.bad_luck}, mistakes ${a.mistakes}.` }));
      parts.push(chart(a));
    }
    parts.push(el("p", { class: "hint", text: `Record: ${end.record.join(" ")}` }));
    box.replaceChildren(...parts);
  } catch (e) { box.replaceChildren(el("p", { text: e.message })); }
}
// The game's picture: each move's best score still reachable (exact), or its share of
// completions still winnable (fair), with the marked moves as dots.
function chart(a) {
  const rows = a.moves.filter((r) => !r.taken_back);
  const exact = a.exact;
  const values = rows.map((r) => (exact ? r.best_after : r.share_after));
  const first = exact ? a.best_start : (rows.length ? rows[0].share_before : 0);
  const ys = [first, ...values].map((v) => (v === null || v === undefined ? 0 : v));
  const W = 600, H = 180, L = 44, B = 24;
  const hi = exact ? Math.max(...ys, 1) : 1, lo = exact ? Math.min(...ys, 0) : 0;
  const x = (i) => L + (i * (W - L - 8)) / Math.max(1, ys.length - 1);
  const y = (v) => 8 + (H - B - 8) * (1 - (v - lo) / Math.max(1e-9, hi - lo));
  const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img",
    "aria-label": exact ? "best score still reachable after each move" : "share still winnable after each move" });
  s.append(svg("line", { x1: L, y1: y(lo), x2: W - 8, y2: y(lo), class: "axis" }));
  s.append(svg("line", { x1: L, y1: 8, x2: L, y2: y(lo), class: "axis" }));
  s.append(svg("text", { x: L - 4, y: 14, class: "tick", "text-anchor": "end" }, exact ? String(hi) : "100%"));
  s.append(svg("text", { x: L - 4, y: y(lo), class: "tick", "text-anchor": "end" }, exact ? String(lo) : "0%"));
  s.append(svg("text", { x: W - 8, y: H - 4, class: "tick", "text-anchor": "end" }, `move ${rows.length}`));
  s.append(svg("polyline", { points: ys.map((v, i) => `${x(i)},${y(v)}`).join(" "), class: "curve" }));
  rows.forEach((r, i) => {
    if (!r.mark) return;
    s.append(svg("circle", { cx: x(i + 1), cy: y(ys[i + 1]), r: 4, class: `mark m${r.mark === "!" ? "good" : r.mark.length}` },
    ));
    s.lastChild.append(svg("title", {}, `move ${r.number} ${pretty(r.move)} ${r.mark}${r.verdict ? " (" + r.verdict + ")" : ""}`));
  });
  return s;
}
let keys = "";
function onKey(ev) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey || ev.target.tagName === "INPUT") return;
  const k = ev.key;
  if (k === "Escape") { keys = ""; if (game.state && game.state.need) send("cancel", {}); return; }
  if (k.length !== 1) return;
  const c = k.toUpperCase();
  if (keys && SUITS.includes(k.toLowerCase())) {
    const token = keys + k.toLowerCase();
    keys = "";
    if (game.state && game.state.need) send("reveal", { card: token });
    else send("move", { move: token });
    return;
  }
  if (c === "1") { keys = "1"; return; }
  if (keys === "1" && c === "0") { keys = "T"; return; }
  if (RANKS.includes(c)) { keys = c; return; }
  keys = "";
  if (game.state && game.state.need) return;
  if (c === "D") send("move", { move: "draw" });
  else if (c === "U") send("move", { move: "undo" });
}

// --- the solve page --------------------------------------------------------------------
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

// --- which page ------------------------------------------------------------------------
(async function route() {
  await loadMessages();
  const path = location.pathname;
  if (path.startsWith("/play/")) showPlay(decodeURIComponent(path.slice(6)));
  else if (path === "/solve") showSolve();
  else showStart();
})();
