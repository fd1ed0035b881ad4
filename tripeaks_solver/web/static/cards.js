// The helpers of the page of `tripeaks-solve serve`: the board's geometry, cards drawn
// with CSS, the JSON API (with the spinner) and the message line. Plain JavaScript, no
// build step; app.js (the pages) uses them.
"use strict";

const RANKS = "A23456789TJQK";
const SUITS = "cdhs";
const SUIT_SYMBOL = { c: "♣", d: "♦", h: "♥", s: "♠" };
const ROWS = [[0, 3], [3, 9], [9, 18], [18, 28]];
const COVERED_BY = (() => {
  const cover = new Array(28).fill(null).map(() => []);
  for (let j = 0; j < 9; j++) cover[9 + j] = [18 + j, 19 + j];
  for (let k = 0; k < 6; k++) {
    const p = Math.floor(k / 2), i = k % 2;
    cover[3 + k] = [9 + 3 * p + i, 10 + 3 * p + i];
  }
  for (let p = 0; p < 3; p++) cover[p] = [3 + 2 * p, 4 + 2 * p];
  return cover;
})();
function column(p) {  // half-card units: the bottom row at 0, 2, ..., 18
  if (!COVERED_BY[p].length) return 2 * (p - 18);
  const [a, b] = COVERED_BY[p];
  return (column(a) + column(b)) / 2;
}
function rowOf(p) { return ROWS.findIndex(([a, b]) => a <= p && p < b); }

const $ = (sel) => document.querySelector(sel);
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}
function pretty(token) {
  if (token === "draw") return "draw";
  if (token === "undo") return "undo";
  const rank = token[0] === "T" ? "10" : token[0];
  return rank + (SUIT_SYMBOL[token[1]] || token.slice(1));
}
function svg(tag, attrs = {}, text) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

// --- talking to the server -------------------------------------------------------------
let busy = 0;
function setBusy(delta) {
  busy += delta;
  $("#busy").hidden = busy <= 0;
}
function say(text) {
  const m = $("#message");
  m.textContent = text || "";
  m.hidden = !text;
}
async function api(path, body) {
  setBusy(1);
  try {
    const init = body === undefined ? {} : {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body) };
    const r = await fetch(path, init);
    let data = null;
    try { data = await r.json(); } catch (e) { data = { error: `the server answered ${r.status}` }; }
    if (!r.ok) throw Object.assign(new Error(data.error || `error ${r.status}`), { status: r.status });
    return data;
  } catch (e) {
    if (e.status === undefined) e.message = "the server does not answer: is it running?";
    throw e;
  } finally {
    setBusy(-1);
  }
}

// --- cards -----------------------------------------------------------------------------
function cardFace(token, attrs = {}) {
  const red = token[1] === "h" || token[1] === "d";
  const rank = token[0] === "T" ? "10" : token[0];
  return el("span", { class: `card face ${red ? "red" : "black"}`, title: pretty(token), ...attrs },
    el("span", { class: "corner" }, el("span", { class: "rank", text: rank }),
      el("span", { class: "csuit", text: SUIT_SYMBOL[token[1]] })),
    el("span", { class: "pip", text: SUIT_SYMBOL[token[1]] }));
}
function cardBack(attrs = {}) { return el("span", { class: "card back", ...attrs }); }

// The 28 places of the peaks, drawn into `box`; `view(p)` says what each shows.
function drawBoard(box, board, view) {
  box.replaceChildren();
  for (const cell of board) {
    if (cell.removed) continue;
    const p = cell.place;
    const node = view(cell);
    node.style.left = `${(column(p) / 20) * 100}%`;
    node.style.top = `${(rowOf(p) * 1.4 / 7) * 100}%`;
    node.style.zIndex = String(rowOf(p) + 1);
    box.append(node);
  }
}

