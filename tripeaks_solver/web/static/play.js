// A game played along (/play/NAME): the board, the card question, a card corrected,
// the peek (followed by the server: only its cards are asked), the advice. The move
// list, the review of a move and the end are in review.js. Uses cards.js and i18n.js;
// app.js shows it.
"use strict";

const game = {
  name: null, state: null, advice: null, samples: null, seed: null, asked: 0,
  judged: null,  // the record judged (GET review), the latest to arrive
  reviewing: null,  // the line of the record whose board is shown (null: the game)
  correcting: undefined,  // undefined: closed; null: the cards told; a token: its picker
  questionShown: null,  // the question last scrolled into view
  sending: 0,  // changes sent and not yet answered (a live update waits for them)
  stale: false,  // a live update came meanwhile: the game is fetched again after them
  live: null,  // the EventSource of the game's versions (while the tab is shown)
};

function gamePath(tail) {
  return `/api/games/${encodeURIComponent(game.name)}${tail}`;
}
function adviceQuery() {
  return `samples=${game.samples}${game.seed !== null ? "&seed=" + encodeURIComponent(game.seed) : ""}`;
}
function act(name, fn) {
  for (const node of document.querySelectorAll(`[data-action=${name}]`)) node.addEventListener("click", fn);
}
// A note floats at the foot of the window (nothing moves under the pointer) and goes
// after a while, or at a click.
let noteTimer = null;
function note(text) {
  const n = $("#note");
  n.textContent = text || "";
  n.hidden = !text;
  n.onclick = () => { n.hidden = true; };
  clearTimeout(noteTimer);
  if (text) noteTimer = setTimeout(() => { n.hidden = true; }, 10000);
}
async function showPlay(name) {
  $("#play-view").hidden = false;
  document.body.classList.add("play");
  game.name = name;
  const q = new URLSearchParams(location.search);
  game.samples = Number(q.get("samples")) || FACTS.limits.default_samples;
  // the seed as its digits (up to 2⁶³: past 2⁵³ a JavaScript number would change it)
  game.seed = q.get("seed") !== null && q.get("seed") !== "" ? q.get("seed") : null;
  $("#record-name").textContent = _("The record: {file}", { file: name });
  document.title = _("TriPeaks · {name}", { name });
  act("draw", () => send("move", { move: "draw" }));
  act("undo", () => send("move", { move: "undo" }));
  act("peek", () => send("peek", {}));
  act("stop-peek", () => send("peek", {}));
  act("cancel", () => send("cancel", {}));
  act("correct", () => openCorrect());
  act("review-prev", () => stepReview(-1));
  act("review-next", () => stepReview(1));
  act("back", () => closeReview());
  document.addEventListener("keydown", onKey);
  try {
    show(await api(gamePath("")));
  } catch (e) { say(e.message); }
  listen(true);
  document.addEventListener("visibilitychange", () => listen());
}
async function send(what, body) {
  if (!game.state) return;
  say("");
  note("");
  $("#advice").dataset.recommended = "";
  game.sending += 1;
  try {
    show(await api(gamePath(`/${what}`), { ...body, at: game.state.at }));
  } catch (e) {
    say(e.message);
    if (e.status === 409) { try { show(await api(gamePath(""))); } catch (e2) { say(e2.message); } }
    else if (game.state) show(game.state);
  } finally {
    game.sending -= 1;
  }
  if (game.stale && !game.sending) refresh();
}

// --- the other tabs of this game ---------------------------------------------------------
// While the tab is shown, the server tells it each new version of the game (server-sent
// events): a version other than the one shown is fetched and shown. A hidden tab closes
// its stream (a browser opens only a few connections to one server) and looks again
// when it is shown.
function listen(first = false) {
  if (document.hidden) {
    if (game.live) { game.live.close(); game.live = null; }
    return;
  }
  if (game.live) return;
  const source = new EventSource(gamePath("/events"));
  game.live = source;
  let opened = false;
  source.addEventListener("open", () => {
    if (opened) refresh();  // open again after a drop: what changed meanwhile
    opened = true;
  });
  source.addEventListener("at", (ev) => {
    let at = null;
    try { at = JSON.parse(ev.data).at; } catch (e) { return; }
    if (!game.state || at === null || at !== game.state.at) refresh();
  });
  if (!first) refresh();  // shown again: what changed while hidden
}
// The game fetched again and shown, when it is not the one shown.
async function refresh() {
  if (game.sending) { game.stale = true; return; }
  game.stale = false;
  let state;
  try { state = await api(gamePath(""), undefined, true); } catch (e) { return; }
  if (game.sending || (game.state && state.at === game.state.at)) return;
  const had = game.state;
  show(state);
  if (had) note(_("The game changed in another tab: it is shown as it now stands."));
}

// --- the game as it stands ---------------------------------------------------------------
function show(state) {
  game.state = state;
  game.reviewing = null;
  if (game.seed === null) {
    game.seed = state.seed;
    const q = new URLSearchParams(location.search);
    q.set("samples", String(game.samples));
    q.set("seed", String(game.seed));
    history.replaceState(null, "", `${location.pathname}?${q}`);
  }
  const over = state.status !== "in play";
  const asking = state.need !== null;
  const peek = state.peek && !state.peek.done ? state.peek : null;
  const peekOn = !!peek;
  renderStatus(state);
  renderBoard(state, peek);
  renderControls(state, peek);
  showQuestion(state, peek);
  showCorrect(state);
  showPeek(state);
  $("#review-bar").hidden = true;
  $("#advice").hidden = false;
  $("#bars").hidden = false;
  $("#advice").dataset.recommended = "";
  $("#advice").replaceChildren();
  $("#advice-said").textContent = "";
  $("#bars").replaceChildren();
  $("#rather").hidden = true;
  $("#line").hidden = true;
  $("#end").hidden = true;
  renderMoves();
  if (state.status === "stuck" && state.can_peek && !peekOn) {
    note(_("Stuck with cards never seen: Peek shows what was under them, with undos in the app."));
  }
  if (over && !peekOn) { showEnd(); return; }
  if (!asking && !peekOn) ask(state.at);
  else if (!asking) judge(state.at);
}
function renderStatus(state) {
  const st = $("#status");
  st.dataset.status = state.status;
  st.dataset.moves = String(state.moves_played);
  st.dataset.score = String(state.score);
  $("#play-title").textContent = state.start.kind === "code" ? _("Game {code}", { code: state.start.text }) : _("Your game");
  const known = state.exact ? (state.told.length === 0 ? _("the whole deal known from its start") : _("every card known"))
    : _("{known} of {places} cards known", { known: fmtNumber(state.known), places: fmtNumber(state.places) });
  const score = state.scoring === "cards-left"
    ? ngettext("{n} card left", "{n} cards left", state.score, { n: fmtNumber(state.score) })
    : _("score {score}", { score: fmtNumber(state.score) });
  st.replaceChildren(el("strong", { text: statusWord(state.status) }), " · ",
    [ngettext("{n} move", "{n} moves", state.moves_played, { n: fmtNumber(state.moves_played) }), score, known,
      _("{rules} rules, {scoring}", { rules: rulesWords(state.rules, state.variant), scoring: scoringWord(state.scoring) })].join(" · "));
}
function renderBoard(state, peek) {
  const over = state.status !== "in play";
  const asking = state.need !== null;
  const taps = new Set(peek && peek.following ? peek.moves.slice(-1) : peek ? peek.moves : []);
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.place : undefined;
  const board = $("#board");
  delete board.dataset.review;
  drawBoard(board, state.board, (cell) => {
    if (!cell.face_up) return cardBack({ "data-down": String(cell.place) });
    const clickable = !over && !asking;
    const legal = state.legal.includes(cell.card);
    const tap = taps.has(cell.card);
    const label = tap ? _("{card}, to tap in the app", { card: cardName(cell.card) })
      : legal ? _("{card}, playable", { card: cardName(cell.card) }) : cardName(cell.card);
    const node = clickable ? cardFace(cell.card, { "data-card": cell.card, "data-place": String(cell.place),
      "aria-label": label, onclick: () => send("move", { move: cell.card }) }, "button")
      : cardFace(cell.card, { "aria-label": label });
    if (legal) node.classList.add("playable");
    if (tap) node.classList.add("tap");
    if (asking && state.need.place === cell.place) node.classList.add("asked");
    if (asking && state.need.move === cell.card) {  // played: its turned-up card is asked
      node.classList.add("played");
      node.setAttribute("aria-label", _("{card}, just played", { card: cardName(cell.card) }));
    }
    return node;
  });
  for (const p of asking ? [state.need.place] : []) {
    const down = document.querySelector(`[data-down="${p}"]`);
    if (down) {
      down.classList.add("asked");
      down.setAttribute("aria-label", _("the card asked for"));
    }
  }
  if (!board.children.length) board.append(el("p", { class: "cleared", text: _("The three peaks are cleared.") }));
  if (focused !== undefined) {
    const again = document.querySelector(`[data-card][data-place="${focused}"]`);
    if (again) again.focus();
  }
  showWaste(state.waste, state.need && state.need.move === "draw");
}
function showWaste(waste) {
  const box = $("#waste");
  box.dataset.waste = waste || "";
  box.replaceChildren(waste ? cardFace(waste, { "aria-label": _("the waste: {card}", { card: cardName(waste) }) })
    : el("span", { class: "card empty", role: "img", "aria-label": _("the waste is empty") },
      el("span", { "aria-hidden": "true", text: _("waste") })));
}
function renderControls(state, peek) {
  const over = state.status !== "in play";
  const asking = state.need !== null;
  const stock = $("#stock");
  $("#stock-left").textContent = ngettext("{n} left", "{n} left", state.stock_left, { n: fmtNumber(state.stock_left) });
  stock.setAttribute("aria-label", ngettext("Draw: {n} card left in the stock", "Draw: {n} cards left in the stock",
    state.stock_left, { n: fmtNumber(state.stock_left) }));
  stock.disabled = over || asking || state.stock_left === 0;
  stock.classList.remove("recommended");
  stock.classList.toggle("tap", !!peek && (peek.following ? peek.moves.slice(-1) : peek.moves).includes("draw"));
  const undo = document.querySelector(".controls [data-action=undo]");
  undo.disabled = !state.can_undo;
  undo.classList.toggle("tap", !!peek && !peek.following && peek.back > 0 && !peek.moves.length);
  const peekButton = document.querySelector(".controls [data-action=peek]");
  const peekOn = !!peek;
  peekButton.disabled = !peekOn && (!state.can_peek || asking);
  peekButton.classList.toggle("on", peekOn);
  peekButton.setAttribute("aria-pressed", peekOn ? "true" : "false");
  peekButton.textContent = peekOn ? _("Stop the peek") : pgettext("button", "Peek");
  peekButton.title = _("Look at the cards with moves and undos, in an app with undo");
  const correct = document.querySelector(".controls [data-action=correct]");
  correct.disabled = !state.told.length;
  correct.setAttribute("aria-expanded", game.correcting !== undefined ? "true" : "false");
}

// --- the card that turned up -----------------------------------------------------------------
// What to do in the app for a peek step, in words.
function peekTaps(p) {
  const moves = p.moves.map((m) => (m === "draw" ? _("the stock") : pretty(m))).join(" → ");
  if (p.undos && moves) {
    return ngettext("In the app: undo {n} move, then tap {moves}.", "In the app: undo {n} moves, then tap {moves}.",
      p.undos, { n: fmtNumber(p.undos), moves });
  }
  return _("In the app: tap {moves}.", { moves });
}
function showQuestion(state, peek) {
  const box = $("#question");
  const need = state.need;
  box.hidden = need === null;
  if (need === null) { game.questionShown = null; return; }
  box.dataset.place = String(need.place);
  const following = !!peek && peek.following;
  const peekLine = $("#question-peek");
  peekLine.hidden = !following;
  if (following) {
    peekLine.textContent = peekTaps(peek) + (peek.no_moves_message ? " " +
      _("After it no move is left: close the app's “No more valid moves” to read the card (undo still works).") : "");
  }
  const place = need.name;  // worded by the server, as the terminal's coach says it
  let ask = need.move === "draw" ? _("Which card did you draw?")
    : _("After {card}: which card turned up at {place}?", { card: pretty(need.move), place });
  if (need.of > 1) {
    ask += " " + _("Card {asked} of {of}, left to right.", { asked: fmtNumber(need.asked), of: fmtNumber(need.of) });
  }
  $("#question-text").textContent = ask;
  const known = new Set(state.known_cards);
  const grid = $("#reveal-grid");
  grid.replaceChildren();
  for (const t of deckTokens()) {
    const seen = known.has(t);
    grid.append(pickButton(t, { disabled: seen, "data-reveal": seen ? null : t,
      "aria-label": seen ? _("{card}, told already", { card: cardName(t) }) : cardName(t),
      onclick: seen ? null : () => send("reveal", { card: t }) }));
  }
  roving(grid);
  document.querySelector("#question [data-action=cancel]").hidden = following;
  document.querySelector("#question [data-action=stop-peek]").hidden = !following;
  document.querySelector("#question [data-action=correct]").disabled = !state.told.length;
  const key = `${state.at}:${need.place}:${need.asked}`;
  if (game.questionShown !== key) {
    game.questionShown = key;
    box.scrollIntoView({ block: "nearest" });
    box.focus({ preventScroll: true });
  }
}

// --- a card told wrongly -------------------------------------------------------------------
function openCorrect(token = null) {
  if (!game.state) return;
  game.correcting = game.correcting === undefined || token !== null ? token : undefined;
  showCorrect(game.state);
  renderControls(game.state, game.state.peek && !game.state.peek.done ? game.state.peek : null);
  if (game.correcting !== undefined) {
    const box = $("#correct");
    box.scrollIntoView({ block: "nearest" });
    box.focus({ preventScroll: true });
  }
}
function toldWhen(t, state) {
  const place = t.name;
  if (t.ply === 0) return _("{card}: {place}, told at the start", { card: pretty(t.card), place });
  const row = state.moves[t.ply - 1];
  return _("{card}: {place}, told with move {n} ({move})",
    { card: pretty(t.card), place, n: fmtNumber(row.number), move: pretty(row.move) });
}
function showCorrect(state) {
  const box = $("#correct");
  box.hidden = game.correcting === undefined;
  if (box.hidden) return;
  const close = el("button", { type: "button", onclick: () => { game.correcting = undefined; showCorrect(state); },
    text: _("Close") });
  const told = state.told.find((t) => t.card === game.correcting);
  if (!told) {
    game.correcting = null;
    box.replaceChildren(el("h2", { text: _("Correct a card") }),
      el("p", { text: _("Which card did you tell wrongly? Pick it, then the card it was: the record is rewritten, and the advice follows.") }),
      el("div", { class: "told" }, ...[...state.told].reverse().map((t) => el("button", { type: "button", "data-told": t.card,
        "aria-label": _("{name}: {where}", { name: cardName(t.card), where: toldWhen(t, state) }),
        onclick: () => openCorrect(t.card) }, toldWhen(t, state)))), close);
    return;
  }
  const known = new Set(state.known_cards);
  const grid = el("div", { class: "grid", role: "group", "aria-label": _("The cards not told yet") });
  for (const t of deckTokens()) {
    if (known.has(t)) continue;
    grid.append(pickButton(t, { "data-correct-to": t, onclick: () => correct(told.card, t) }));
  }
  roving(grid);
  box.replaceChildren(el("h2", { text: _("Correct a card") }),
    el("p", { text: _("You told {card} for {place}. Which card was it?", { card: pretty(told.card), place: told.name }) }),
    grid, el("button", { type: "button", onclick: () => openCorrect(null), text: _("Another card") }), " ", close);
}
async function correct(told, to) {
  game.correcting = undefined;
  game.judged = null;  // the cards changed: judged again
  await send("correct", { told, to });
  if (game.state && !game.state.known_cards.includes(told)) {
    note(_("{old} is now {new}: the record is rewritten.", { old: pretty(told), new: pretty(to) }));
  }
}

// --- the peek --------------------------------------------------------------------------------
function showPeek(state) {
  const box = $("#peek");
  const p = state.peek;
  box.hidden = !p;
  if (!p) return;
  box.dataset.undos = String(p.undos);
  box.dataset.moves = p.moves.join(" ");
  box.dataset.seen = String(p.seen);
  box.dataset.done = p.done ? "true" : "false";
  box.dataset.seed = String(p.seed);  // peek --seed S plans the same walk
  const seen = _("{seen} of {of} cards seen.", { seen: fmtNumber(p.seen), of: fmtNumber(p.of) });
  if (p.done) {
    box.replaceChildren(el("strong", { text: ngettext("Peek done in {n} tap.", "Peek done in {n} taps.", p.taps, { n: fmtNumber(p.taps) }) }),
      " ", p.unknown ? ngettext("{n} card stays unknown: no line within the undo limit shows it.",
        "{n} cards stay unknown: no line within the undo limit shows them.", p.unknown, { n: fmtNumber(p.unknown) })
        : _("Every card is known: the advice is exact."), " ", seen);
    return;
  }
  const taps = ngettext("{n} tap so far.", "{n} taps so far.", p.taps, { n: fmtNumber(p.taps) });
  if (p.following) {
    box.replaceChildren(el("strong", { text: _("Peek") }), " ",
      _("The page follows the plan: make the taps in the app, then say the card that turns up."), " ", seen, " ", taps);
    return;
  }
  if (!p.moves.length) {  // the last step: back to where the peek began
    const why = p.unknown ? ngettext("No line shows the other card with the cards known.",
      "No line shows the other {n} cards with the cards known.", p.unknown, { n: fmtNumber(p.unknown) })
      : _("Every card is known.");
    box.replaceChildren(el("strong", { text: _("Peek") }), " ", why, " ",
      ngettext("In the app, undo {n} move to go back to where the peek began.",
        "In the app, undo {n} moves to go back to where the peek began.", p.back, { n: fmtNumber(p.back) }),
      " ", seen, " ", el("button", { type: "button", class: "primary", "data-action": "peek-next",
        onclick: () => send("peek-next", {}), text: ngettext("Done: I undid it", "Done: I undid them", p.back) }));
    return;
  }
  box.replaceChildren(el("strong", { text: _("Peek") }), " ", peekTaps(p), " ", seen, " ", taps);
}

// --- the advice --------------------------------------------------------------------------------
async function ask(at) {
  const asked = ++game.asked;
  try {
    const advice = await api(gamePath(`/advice?at=${at}&${adviceQuery()}`));
    if (asked !== game.asked || !game.state || game.state.at !== advice.at) return;
    showAdvice(advice);
    judge(at);  // the move list's marks: after the advice
  } catch (e) {
    if (asked === game.asked) say(e.message);
  }
}
function markRecommended(rec) {
  for (const node of document.querySelectorAll(".recommended")) {
    node.classList.remove("recommended");
    if (node.dataset.card) node.setAttribute("aria-label", _("{card}, playable", { card: cardName(node.dataset.card) }));
  }
  const stock = $("#stock");
  stock.setAttribute("aria-label", ngettext("Draw: {n} card left in the stock", "Draw: {n} cards left in the stock",
    game.state.stock_left, { n: fmtNumber(game.state.stock_left) }));
  if (rec === "draw") {
    stock.classList.add("recommended");
    stock.setAttribute("aria-label", ngettext("Draw, recommended: {n} card left in the stock",
      "Draw, recommended: {n} cards left in the stock", game.state.stock_left, { n: fmtNumber(game.state.stock_left) }));
  } else if (rec) {
    const c = document.querySelector(`[data-card="${rec}"]`);
    if (c) {
      c.classList.add("recommended");
      c.setAttribute("aria-label", _("{card}, recommended", { card: cardName(rec) }));
    }
  }
  keepFocus(rec);
}
// The focus lost with the card played (or the question answered): on the board again,
// on the move recommended (else the first card playable, else the stock).
function keepFocus(rec) {
  const now = document.activeElement;
  if (now && now !== document.body && now.isConnected && !now.closest("[hidden]")) return;
  const target = (rec === "draw" ? $("#stock") : rec && document.querySelector(`[data-card="${rec}"]`))
    || document.querySelector("#board button[data-card]") || $("#stock");
  if (target && !target.disabled) target.focus({ preventScroll: true });
}
function showAdvice(advice) {
  game.advice = advice;
  const box = $("#advice");
  const rec = advice.recommended;
  box.dataset.recommended = rec || "";
  markRecommended(rec);
  // said to screen readers (the board keeps the focus): the move, by its name
  const named = rec === "draw" ? pretty(rec) : rec ? cardName(rec) : "";
  $("#advice-said").textContent = !rec ? _("No move left.") : advice.exact ? _("Recommended: {move}", { move: named })
    : _("Recommended: {move}, about {chance} to win", { move: named, chance: percent(advice.chance) });
  if (!rec) { box.textContent = _("No move left."); return; }
  const move = el("strong", { text: pretty(rec) });
  let text;
  if (advice.exact) {
    text = advice.winnable ? _("Recommended: {move} (exact, every card known: winnable, best score {score})", { score: fmtNumber(advice.best_score) })
      : _("Recommended: {move} (exact, every card known: no win left, best score {score})", { score: fmtNumber(advice.best_score) });
  } else {
    // one odds figure: the chance of the move recommended, the top bar's
    text = _("Recommended: {move}, about {chance} to win", { chance: percent(advice.chance) });
  }
  box.replaceChildren(el("p", { class: "said" }, ...withNodes(text, { move })));
  if (!advice.exact) {
    // how it was found, one click away: the seed's digits as asked (the seed the server
    // used: its JSON number would read rounded here past 2⁵³)
    box.append(el("details", { class: "how" }, el("summary", { text: _("How it was chosen") }),
      _("Chance: the share of the guessed games won by the move, then careful play ({player} player, seed {seed}).",
        { player: advice.player, seed: game.seed })));
  }
  showRather(advice);
  const bars = $("#bars");
  bars.replaceChildren(el("div", { class: "bars-title", text: advice.exact ? _("Each move: best score still reachable")
    : _("Each move: its chance to win") }));
  const top = Math.max(1, ...advice.moves.map((m) => (advice.exact ? m.best_score || 0 : m.chance)));
  for (const m of advice.moves) {
    const value = advice.exact ? m.best_score || 0 : m.chance;
    const fill = el("span", { class: "fill" });
    fill.style.width = `${advice.exact ? (100 * value) / top : 100 * value}%`;
    const shown = advice.exact ? `${m.best_score === null ? "–" : fmtNumber(m.best_score)}${m.mark ? " " + m.mark : ""}` : percent(m.chance);
    // the ceiling, a second figure named as such, on demand only
    const ceiling = advice.exact ? null : _("Ceiling: {share} of the guesses still winnable by a player who saw every card; expected points {points}.", { share: percent(m.share), points: fmtNumber(Math.round(m.points)) });
    bars.append(el("div", { class: `bar${m.move === rec ? " best" : ""}`, "data-move": m.move, "data-chance": String(m.chance), title: ceiling },
      el("span", { class: "label", text: pretty(m.move) }), el("span", { class: "track", "aria-hidden": "true" }, fill),
      el("span", { class: "value", text: shown }), m.move === rec ? el("span", { class: "star", text: "★", title: _("recommended") }) : null));
  }
  if (advice.exact && advice.line.length) {
    const line = $("#line");
    line.hidden = false;
    line.replaceChildren(el("strong", { text: _("Best line:") }), " ", prettyLine(advice.line));
  }
}
// Why the move recommended is not alone at the top of the bars, as the terminal coach says it.
function showRather(advice) {
  const box = $("#rather");
  const r = advice.rather;
  box.hidden = !r;
  if (!r) return;
  const rec = pretty(advice.recommended), top = pretty(r.top);
  box.textContent = r.why === "tie"
    ? ngettext("{rec} rather than {top}: {top} won {n} guessed game more, within the noise of the samples; {rec} is the careful move.",
      "{rec} rather than {top}: {top} won {n} guessed games more, within the noise of the samples; {rec} is the careful move.", r.more, { rec, top, n: fmtNumber(r.more) })
    : _("Every move has the same chance: {rec} for its expected points ({points}).", { rec, points: fmtNumber(Math.round(r.points)) });
}

// --- keys ----------------------------------------------------------------------------------------
let keys = "";
function onKey(ev) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey || ["INPUT", "SELECT", "TEXTAREA"].includes(ev.target.tagName)) return;
  const k = ev.key;
  const state = game.state;
  if (k === "ArrowLeft" || k === "ArrowRight") {
    if (!state) return;
    ev.preventDefault();
    if (game.reviewing !== null) stepReview(k === "ArrowLeft" ? -1 : 1);
    else if (k === "ArrowLeft" && state.moves.length && !state.need) openReview(state.moves.length);
    return;
  }
  if (k === "Escape") {
    keys = "";
    if (game.reviewing !== null) closeReview();
    else if (game.correcting !== undefined) { game.correcting = undefined; showCorrect(state); }
    else if (state && state.need && !(state.peek && state.peek.following)) send("cancel", {});
    return;
  }
  if (k.length !== 1 || game.reviewing !== null) return;
  if (k === " " && ev.target.tagName === "BUTTON") return;  // the focused button's own
  const c = k.toUpperCase();
  if (keys && FACTS.cards.suits.includes(k.toLowerCase())) {
    const token = keys + k.toLowerCase();
    keys = "";
    if (state && state.need) send("reveal", { card: token });
    else send("move", { move: token });
    return;
  }
  const rank = rankKeys(keys, c);
  if (rank) { keys = rank; return; }
  keys = "";
  if (state && state.need) return;
  if (c === "D") send("move", { move: "draw" });
  else if (c === "U") send("move", { move: "undo" });
}
// The rank typed so far: a rank's letter (8, T, K), or its name as people write it,
// digit by digit ("1" then "0": T); null when the key begins no rank.
function rankKeys(keys, c) {
  const { ranks, rank_names: names } = FACTS.cards;
  const named = names.indexOf(keys + c);
  if (keys && named >= 0) return ranks[named];
  if (ranks.includes(c)) return c;
  return names.some((n) => n.length > 1 && n.startsWith(c)) ? c : null;
}
