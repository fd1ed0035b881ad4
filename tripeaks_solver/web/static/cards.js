// The helpers of the page of `tripeaks-solve serve`: the board's geometry, cards drawn
// with CSS (and named for screen readers), the words for the game's own terms, the JSON
// API (with the spinner) and the message line. Plain JavaScript, no build step; the
// pages (start.js, play.js, review.js, solve.js) use them. Every text goes through
// i18n.js (loaded first).
"use strict";

// The board and the cards as the server defines them (FACTS, facts.js): none written here.
// A place's column, in half-card units (the bottom row at 0, 2, …), and its row.
function column(p) { return FACTS.geometry.columns[p]; }
function rowOf(p) { return FACTS.geometry.rows.findIndex(([a, b]) => a <= p && p < b); }
// The 52 cards' tokens, suit by suit (the order of a picker).
function deckTokens() {
  const { ranks, suits } = FACTS.cards;
  return [...suits].flatMap((s) => [...ranks].map((r) => r + s));
}
function isJoker(token) { return token === FACTS.cards.joker; }
// A card's rank as people write it ("10" for T) and its suit's symbol.
function rankShown(token) {
  const { ranks, rank_names: names } = FACTS.cards;
  return isJoker(token) ? FACTS.cards.joker_symbol : names[ranks.indexOf(token[0])] || token[0];
}
function suitShown(token) { return isJoker(token) ? "" : FACTS.cards.suit_symbols[token[1]] || token.slice(1); }
// A word typed as a card ("10h", "th", "Th"): its token ("Th"), or null.
function cardToken(word) {
  const { ranks, suits, rank_names: names } = FACTS.cards;
  const head = word.slice(0, -1).toUpperCase(), suit = word.slice(-1).toLowerCase();
  const at = names.includes(head) ? names.indexOf(head) : head.length === 1 ? ranks.indexOf(head) : -1;
  return at >= 0 && suit.length === 1 && suits.includes(suit) ? ranks[at] + suit : null;
}

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
  for (const c of children) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
}
function svg(tag, attrs = {}, text) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

// --- the game's words ------------------------------------------------------------------
// A card for people: its rank and suit symbol (A♣, 10♦), the same in every language.
function pretty(token) {
  if (token === "draw") return pgettext("move", "draw");
  if (token === "undo") return pgettext("move", "undo");
  return rankShown(token) + suitShown(token);
}
// Cards and moves in a row: "8♥ draw 7♣".
function prettyLine(tokens) { return tokens.map(pretty).join(" "); }
let CARD_NAMES = null;
// A card's name for screen readers and sentences: "jack of diamonds".
function cardName(token) {
  if (isJoker(token)) return _("joker");
  if (CARD_NAMES === null) CARD_NAMES = {
    "Ac": _("ace of clubs"), "2c": _("two of clubs"), "3c": _("three of clubs"),
    "4c": _("four of clubs"), "5c": _("five of clubs"), "6c": _("six of clubs"),
    "7c": _("seven of clubs"), "8c": _("eight of clubs"), "9c": _("nine of clubs"),
    "Tc": _("ten of clubs"), "Jc": _("jack of clubs"), "Qc": _("queen of clubs"),
    "Kc": _("king of clubs"),
    "Ad": _("ace of diamonds"), "2d": _("two of diamonds"), "3d": _("three of diamonds"),
    "4d": _("four of diamonds"), "5d": _("five of diamonds"), "6d": _("six of diamonds"),
    "7d": _("seven of diamonds"), "8d": _("eight of diamonds"), "9d": _("nine of diamonds"),
    "Td": _("ten of diamonds"), "Jd": _("jack of diamonds"), "Qd": _("queen of diamonds"),
    "Kd": _("king of diamonds"),
    "Ah": _("ace of hearts"), "2h": _("two of hearts"), "3h": _("three of hearts"),
    "4h": _("four of hearts"), "5h": _("five of hearts"), "6h": _("six of hearts"),
    "7h": _("seven of hearts"), "8h": _("eight of hearts"), "9h": _("nine of hearts"),
    "Th": _("ten of hearts"), "Jh": _("jack of hearts"), "Qh": _("queen of hearts"),
    "Kh": _("king of hearts"),
    "As": _("ace of spades"), "2s": _("two of spades"), "3s": _("three of spades"),
    "4s": _("four of spades"), "5s": _("five of spades"), "6s": _("six of spades"),
    "7s": _("seven of spades"), "8s": _("eight of spades"), "9s": _("nine of spades"),
    "Ts": _("ten of spades"), "Js": _("jack of spades"), "Qs": _("queen of spades"),
    "Ks": _("king of spades"),
  };
  return CARD_NAMES[token] || token;
}
// A translated text whose placeholders left are filled with nodes: the parts to append
// ("Recommended: {move} …" with {move} a <strong>).
function withNodes(text, nodes) {
  const out = [];
  let last = 0;
  text.replace(/\{(\w+)\}/g, (whole, key, at) => {
    if (!(key in nodes)) return whole;
    out.push(text.slice(last, at), nodes[key]);
    last = at + whole.length;
    return whole;
  });
  out.push(text.slice(last));
  return out.filter((x) => x !== "");
}
// One of several things, in the language's way: "8♥ or draw".
function orList(items) {
  try {
    return new Intl.ListFormat(I18N.lang, { type: "disjunction" }).format(items);
  } catch (e) { return items.join(" / "); }
}
function andList(items) {
  try {
    return new Intl.ListFormat(I18N.lang, { type: "conjunction" }).format(items);
  } catch (e) { return items.join(", "); }
}
function statusWord(status) {
  if (status === "won") return _("Won");
  if (status === "stuck") return _("Stuck");
  return _("In play");
}
function rulesWord(name) {
  return String(name).toLowerCase() === "classic" ? _("Classic") : _("Easy");
}
function variantWord(v) {
  return { "empty-waste": _("empty waste"), "draw-when-stuck": _("draw when stuck"),
    open: _("open"), joker: _("joker") }[v] || v;
}
// The rules with their variants: "Classic (empty waste, open)".
function rulesWords(name, variant) {
  const vs = (variant || "").split("+").filter(Boolean);
  if (!vs.length) return rulesWord(name);
  return _("{rules} ({variants})", { rules: rulesWord(name), variants: vs.map(variantWord).join(", ") });
}
function scoringWord(s) {
  return { app: _("app scoring"), original: _("original scoring"),
    "cards-left": _("cards-left scoring") }[s] || s;
}
// A share as a whole percent that never says 100% (or 0%) unless it is exactly that.
function percent(share) {
  let p = Math.round(100 * share);
  if (p === 100 && share < 1) p = 99;
  if (p === 0 && share > 0) p = 1;
  return fmtPercent(p / 100);
}
// Two shares with the fewest decimals that tell them apart (the same when equal).
function percentPair(a, b) {
  for (let d = 0; d < 4; d++) {
    const x = fmtPercent(a, d), y = fmtPercent(b, d);
    if (x !== y || a === b) return [x, y];
  }
  return [fmtPercent(a, 4), fmtPercent(b, 4)];
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
  m.onclick = () => { m.hidden = true; };
}
// A request to the server, with the spinner (not for `quiet` ones: the judging of the
// move list goes on behind the page, which stays usable meanwhile).
async function api(path, body, quiet = false) {
  if (!quiet) setBusy(1);
  try {
    const init = body === undefined ? {} : {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body) };
    const r = await fetch(path, init);
    let data = null;
    try { data = await r.json(); } catch (e) {
      data = { error: _("the server answered {status}", { status: r.status }) };
    }
    if (!r.ok) {
      throw Object.assign(new Error(data.error || _("the server answered {status}", { status: r.status })),
        { status: r.status });
    }
    return data;
  } catch (e) {
    if (e.status === undefined) e.message = _("the server does not answer: is it running?");
    throw e;
  } finally {
    if (!quiet) setBusy(-1);
  }
}

// --- cards -----------------------------------------------------------------------------
// A card's face; inside, the rank and suit are hidden from screen readers: the card is
// named once, by its aria-label (or its button's).
function cardFace(token, attrs = {}, tag = "span") {
  const red = token[1] === "h" || token[1] === "d";
  const rank = rankShown(token), suit = suitShown(token);
  const label = attrs["aria-hidden"] ? null : attrs["aria-label"] || cardName(token);
  const node = el(tag, { class: `card face ${red ? "red" : "black"}`, title: pretty(token),
    ...(tag === "span" ? { role: "img" } : { type: "button" }), ...attrs, "aria-label": label },
  el("span", { class: "corner", "aria-hidden": "true" }, el("span", { class: "rank", text: rank }),
    el("span", { class: "csuit", text: suit })),
  el("span", { class: "pip", "aria-hidden": "true", text: suit }));
  return node;
}
// A card of a 52-card picker: a button named by the card.
function pickButton(token, attrs = {}) {
  return el("button", { type: "button", class: "pick", "aria-label": cardName(token), ...attrs },
    cardFace(token, { role: null, "aria-hidden": "true", title: null }));
}
// A picker of cards is one stop of the Tab key (not 52): the arrows move in it, by row
// and column as it is laid out (13 or 7 a row), Home and End to its ends; Enter or Space
// picks. Called again after the picker is drawn anew.
function roving(grid) {
  const live = () => [...grid.querySelectorAll("button.pick:not(:disabled)")];
  const all = live();
  for (const b of grid.querySelectorAll("button.pick")) b.tabIndex = -1;
  if (all.length) all[0].tabIndex = 0;
  if (grid.dataset.roving) return;
  grid.dataset.roving = "on";
  grid.addEventListener("focusin", (ev) => {
    for (const b of grid.querySelectorAll("button.pick")) b.tabIndex = b === ev.target ? 0 : -1;
  });
  grid.addEventListener("keydown", (ev) => {
    const list = live();
    const at = list.indexOf(document.activeElement);
    if (at < 0 || !["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(ev.key)) return;
    let next = null;
    if (ev.key === "Home") next = list[0];
    else if (ev.key === "End") next = list[list.length - 1];
    else if (ev.key === "ArrowLeft") next = list[at - 1];
    else if (ev.key === "ArrowRight") next = list[at + 1];
    else {  // the nearest card of the next row up or down
      const here = list[at].getBoundingClientRect();
      const down = ev.key === "ArrowDown";
      const rows = list.map((b) => [b, b.getBoundingClientRect()])
        .filter(([, r]) => (down ? r.top >= here.bottom - 1 : r.bottom <= here.top + 1));
      const edge = down ? Math.min(...rows.map(([, r]) => r.top)) : Math.max(...rows.map(([, r]) => r.top));
      const row = rows.filter(([, r]) => Math.abs(r.top - edge) < 2);
      const x = here.left + here.width / 2;
      row.sort((a, b) => Math.abs(a[1].left + a[1].width / 2 - x) - Math.abs(b[1].left + b[1].width / 2 - x));
      next = row.length ? row[0][0] : null;
    }
    ev.preventDefault();
    ev.stopPropagation();  // not the page's own arrows (a move's review)
    if (next) next.focus();
  });
}
function cardBack(attrs = {}) {
  return el("span", { class: "card back", role: "img", "aria-label": _("a face-down card"), ...attrs });
}

// The places of the peaks, drawn into `box`; `view(p)` says what each shows.
function drawBoard(box, board, view) {
  box.replaceChildren();
  for (const cell of board) {
    if (cell.removed) continue;
    const p = cell.place;
    const node = view(cell);
    node.style.left = `${(column(p) / FACTS.geometry.width) * 100}%`;
    node.style.top = `${(rowOf(p) * 1.4 / 7) * 100}%`;
    node.style.zIndex = String(rowOf(p) + 1);
    box.append(node);
  }
}
