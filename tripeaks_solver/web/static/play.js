// A game played along (/play/NAME): the board, the card question, the peek, the
// advice. Uses cards.js and i18n.js; app.js shows it.
"use strict";


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
