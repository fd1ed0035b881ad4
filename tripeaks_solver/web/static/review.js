// The game looked back on: the move list (judged in the background, its marks), the
// board after a move of it (← and → step), and the end in words first, then its
// picture. Uses cards.js, i18n.js and play.js (the game shown).
"use strict";

// The judgement as it could be seen then (chance lost against the advice of the moment),
// its grades where the server's judgement sets them (FACTS.marks)
const MARK_WORDS = () => {
  const [a, b, c] = FACTS.marks.chance.map(fmtNumber);
  return {
    "?!": _("an inaccuracy: {low} to {high} points of chance lost", { low: a, high: b }),
    "?": _("a mistake: {low} to {high} points of chance lost", { low: b, high: c }),
    "??": _("a blunder: {least} points of chance or more lost", { least: c }),
  };
};
const MARK_WORDS_POINTS = () => {
  const [a, b, c] = FACTS.marks.points.map(fmtNumber);
  return {
    "?!": _("an inaccuracy: every move had the same chance, {low} to {high} expected points lost", { low: a, high: b }),
    "?": _("a mistake: every move had the same chance, {low} to {high} expected points lost", { low: b, high: c }),
    "??": _("a blunder: every move had the same chance, {least} expected points or more lost", { least: c }),
  };
};
// in hindsight, every card known
const EXACT_MARK_WORDS = () => ({
  "??": _("no win left after it"), "?": _("fewer points still reachable after it"), "!": _("the only move that kept the win"),
});
const markClass = (mark) => ({ "?!": "mi", "?": "m1", "??": "m2", "!": "mgood" })[mark] || "";
// a change of chance in points of percentage: "+12", "−7"
const signed = (share) => {
  const n = Math.round(100 * share);
  return n > 0 ? `+${fmtNumber(n)}` : n < 0 ? `−${fmtNumber(-n)}` : "0";
};

// --- the judgement -------------------------------------------------------------------------
let judging = 0;
async function judge(at) {
  const mine = ++judging;
  if (game.judged && game.judged.at === at) { judgedArrived(); return; }
  renderMoves();
  try {
    const judged = await api(gamePath(`/review?at=${at}&${adviceQuery()}`), undefined, true);
    if (mine !== judging || !game.state || game.state.at !== judged.at) return;
    game.judged = judged;
    judgedArrived();
  } catch (e) {
    if (e.status === 409 || mine !== judging) return;  // the game moved on: judged again
    if (game.state && game.state.status !== "in play") $("#end").replaceChildren(el("p", { text: e.message }));
    else say(e.message);
  }
}
function judgedArrived() {
  renderMoves();
  if (game.state.status !== "in play" && !(game.state.peek && !game.state.peek.done)) renderEnd();
}
// The judged row of a line of the record, when the judgement is of the record shown (or
// of one it grew from: its rows still stand, until the new one arrives).
function judgedRow(row) {
  const j = game.judged;
  if (!j) return null;
  const r = j.rows[row.ply - 1];
  return r && r.move === row.move && r.taken_back === row.taken_back ? r : null;
}
function markTitle(row) {
  if (!row || !row.mark) return "";
  return (row.by_points ? MARK_WORDS_POINTS() : MARK_WORDS())[row.mark] || "";
}
// Words as a sentence of their own: "Points lost." (the words are a title elsewhere).
function sentence(words) { return words.charAt(0).toUpperCase() + words.slice(1) + "."; }

// --- the move list ------------------------------------------------------------------------------
function moveRow(row) {
  const j = judgedRow(row);
  const mark = j ? j.mark : "";
  const exactMark = j ? j.exact_mark : "";
  const shown = row.shown.length ? ` → ${prettyLine(row.shown)}` : "";
  const label = [row.move === "undo" ? _("undo (move {n} taken back)", { n: fmtNumber(row.number) })
    : _("move {n}: {move}", { n: fmtNumber(row.number), move: row.move === "draw" ? pretty("draw") : cardName(row.move) }),
  row.shown.length ? _("turned up {cards}", { cards: andList(row.shown.map(cardName)) }) : null,
  mark ? markTitle(j) : null,
  j && j.followed ? _("followed the advice") : null,
  j && j.better && mark ? _("better: {move}", { move: pretty(j.better) }) : null,
  exactMark ? _("in hindsight: {words}", { words: EXACT_MARK_WORDS()[exactMark] }) : null].filter(Boolean).join(", ");
  const button = el("button", { type: "button", class: "move", "aria-label": label,
    "aria-current": game.reviewing === row.ply ? "true" : null, onclick: () => openReview(row.ply) },
  el("span", { class: "n", "aria-hidden": "true", text: row.move === "undo" ? "↶" : `${fmtNumber(row.number)}.` }),
  el("span", { class: "what", "aria-hidden": "true", text: pretty(row.move) + shown }),
  mark ? el("span", { class: `mark ${markClass(mark)}`, "aria-hidden": "true", title: markTitle(j), text: mark }) : null,
  j && j.followed && j.choices > 1 ? el("span", { class: "followed", "aria-hidden": "true", title: _("followed the advice"), text: "★" }) : null,
  exactMark ? el("span", { class: `exact-mark ${markClass(exactMark)}`, "aria-hidden": "true",
    title: _("in hindsight: {words}", { words: EXACT_MARK_WORDS()[exactMark] }), text: exactMark }) : null);
  return el("li", { "data-ply": String(row.ply), "data-mark": mark, "data-better": j && j.better && !j.followed ? j.better : "",
    "data-followed": j && j.followed ? "true" : "false", "data-loss": j && j.loss !== null ? String(j.loss) : "0",
    "data-exact-mark": exactMark || "",
    class: `${row.taken_back ? "taken-back" : ""}${game.reviewing === row.ply ? " on" : ""}` }, button);
}
function renderMoves() {
  const list = $("#moves");
  const state = game.state;
  if (!state) return;
  const rows = state.moves;
  const items = [];
  let run = [];  // moves taken back, shown apart as analyze shows them
  const flush = () => {
    if (!run.length) return;
    const moves = run.filter((r) => r.move !== "undo").length;
    const undos = run.length - moves;
    const open = game.reviewing !== null && run.some((r) => r.ply === game.reviewing);
    // Each text in a call of its own: pybabel misses one inside another call's arguments.
    const movesText = ngettext("{n} move", "{n} moves", moves, { n: fmtNumber(moves) });
    const undosText = ngettext("{n} undo", "{n} undos", undos, { n: fmtNumber(undos) });
    items.push(el("li", { class: "run" }, el("details", { open },
      el("summary", { text: _("Taken back: {moves}, {undos}", { moves: movesText, undos: undosText }) }),
      el("ol", { class: "moves" }, ...run.map(moveRow)))));
    run = [];
  };
  for (const row of rows) {
    if (row.taken_back) { run.push(row); continue; }
    flush();
    items.push(moveRow(row));
  }
  flush();
  list.replaceChildren(...items);
  const j = game.judged;
  const current = j && j.at === state.at;
  $("#moves-note").textContent = !rows.length ? _("No move yet.")
    : !current ? _("Judging the moves…")
      : (_("Marks, as it could be seen then (chance lost against the advice): ?! an inaccuracy, ? a mistake, ?? a blunder; ★ followed the advice.")
        + (j.exact ? " " + _("In hindsight (every card known, small marks): ?? no win left after it, ? fewer points still reachable, ! the only move that kept the win.") : ""));
}

// --- the board after a move ---------------------------------------------------------------------
async function openReview(ply) {
  const state = game.state;
  if (!state || state.need) return;
  const n = state.moves.length;
  ply = Math.max(0, Math.min(ply, n));
  game.reviewing = ply;
  let frame;
  try {
    frame = await api(gamePath(`/review/${ply}`));
  } catch (e) { say(e.message); return; }
  if (game.reviewing !== ply || game.state !== state) return;
  const board = $("#board");
  drawBoard(board, frame.board, (cell) => (cell.face_up ? cardFace(cell.card) : cardBack()));
  board.dataset.review = String(ply);
  showWaste(frame.waste);
  $("#stock-left").textContent = ngettext("{n} left", "{n} left", frame.stock_left, { n: fmtNumber(frame.stock_left) });
  for (const b of document.querySelectorAll(".controls button")) b.disabled = true;
  for (const node of document.querySelectorAll(".recommended")) node.classList.remove("recommended");
  for (const id of ["#advice", "#bars", "#rather", "#line", "#end", "#peek", "#correct"]) $(id).hidden = true;
  const row = ply ? state.moves[ply - 1] : null;
  const j = row ? judgedRow(row) : null;
  const parts = [];
  const moved = row && (pretty(row.move) + (row.shown.length ? ` → ${prettyLine(row.shown)}` : ""));
  parts.push(el("strong", { text: row === null ? _("The start.") : row.move === "undo"
    ? _("Undo (move {n} taken back).", { n: fmtNumber(row.number) })
    : _("Move {n}: {move}.", { n: fmtNumber(row.number), move: moved }) }));
  parts.push(" ", row === null ? _("The board before the first move.") : _("The board after it, as you knew it then."));
  if (j && !j.taken_back) parts.push(" ", ...judgedWords(j));
  const text = el("p", {}, ...parts);
  const line = frame.line === null ? (frame.status !== "in play" ? null
    : el("p", { class: "hint", text: _("No best line: some cards were never seen.") }))
    : frame.line.length ? el("p", {}, el("strong", { text: frame.winnable ? _("Best line from here (every card known), a win:") : _("Best line from here (every card known), no win:") }),
      " ", prettyLine(frame.line), " ", el("span", { class: "hint", text: _("best score {score}", { score: fmtNumber(frame.best_score) }) }))
      : null;
  $("#review-text").replaceChildren(text, line || "");
  $("#review-bar").hidden = false;
  document.querySelector("[data-action=review-prev]").disabled = ply === 0;
  document.querySelector("[data-action=review-next]").disabled = ply >= n;
  renderMoves();
  const on = document.querySelector(`#moves [data-ply="${ply}"]`);
  if (on) on.scrollIntoView({ block: "nearest" });
  $("#review-bar").scrollIntoView({ block: "nearest" });
}
function stepReview(delta) {
  if (game.reviewing === null) return;
  openReview(game.reviewing + delta);
}
function closeReview() {
  if (game.reviewing === null || !game.state) return;
  const advice = game.advice;
  show(game.state);
  if (advice && advice.at === game.state.at && game.state.status === "in play" && !game.state.need) {
    game.asked++;
    showAdvice(advice);
  }
}

// The judgement of one move in words: its chance against the advice's, the mark, the
// better move and what it cost, the luck of the cards it turned up; then, in hindsight,
// the exact values.
function judgedWords(j) {
  const out = [];
  const add = (...nodes) => { if (out.length) out.push(" "); out.push(...nodes); };
  if (j.chance_played === null || j.chance_played === undefined) return out;
  const chance = percent(j.chance_played);
  if (j.followed) {
    add(j.choices > 1 ? _("It followed the advice: chance {chance}.", { chance }) : _("The only move: chance {chance}.", { chance }));
  } else if (j.better) {
    add(_("Chance {chance}; the advice, {better}, had {best}.", { chance, better: pretty(j.better), best: percent(j.chance_best) }));
  } else {
    add(_("Chance {chance}, as high as the advice's.", { chance }));
  }
  if (j.mark) {
    add(el("span", { class: `mark ${markClass(j.mark)}`, text: j.mark }), " ", sentence(markTitle(j)));
    const pts = Math.round(j.points_lost);
    const vars = { loss: fmtNumber(Math.round(100 * j.loss)), n: pts < 0 ? `−${fmtNumber(-pts)}` : fmtNumber(pts) };
    const cost = ngettext("It cost {loss} points of chance and {n} expected point.", "It cost {loss} points of chance and {n} expected points.", Math.abs(pts), vars);
    add(cost);
  }
  if (j.luck !== null && j.luck !== undefined) {
    add(_("Luck: the cards it turned up moved the chance by {luck} points.", { luck: signed(j.luck) }));
  }
  if (j.best_after !== null && j.best_after !== undefined) {
    add(_("In hindsight (every card known): best score still reachable after it {best}, {lost} below the best before it.",
      { best: fmtNumber(j.best_after), lost: fmtNumber(j.lost) }));
    if (j.exact_mark) add(el("span", { class: `exact-mark ${markClass(j.exact_mark)}`, text: j.exact_mark }), " ", sentence(EXACT_MARK_WORDS()[j.exact_mark]));
  }
  return out;
}

// --- the end -----------------------------------------------------------------------------------
function showEnd() {
  const box = $("#end");
  box.hidden = false;
  const state = game.state;
  box.replaceChildren(el("h2", { text: endTitle(state.status, state.score, state.moves_played, state.scoring) }),
    el("p", { text: _("Judging the game…") }));
  judge(state.at);
}
function endTitle(status, score, moves, scoring) {
  const vars = { score: fmtNumber(score), n: fmtNumber(moves) };
  if (scoring === "cards-left") {
    return status === "won" ? ngettext("Won in {n} move.", "Won in {n} moves.", moves, vars)
      : ngettext("Stuck after {n} move: {score} cards left.", "Stuck after {n} moves: {score} cards left.", moves, vars);
  }
  return status === "won" ? ngettext("Won: score {score} in {n} move.", "Won: score {score} in {n} moves.", moves, vars)
    : ngettext("Stuck: score {score} after {n} move.", "Stuck: score {score} after {n} moves.", moves, vars);
}
// The end in words, as a chess site's review: the accuracy, the costliest decisions (the
// better move, the cost), luck apart from mistakes; then, in hindsight, where the game
// was lost and the points lost.
function summary(j) {
  const out = [];
  const points = (n) => ngettext("{n} point", "{n} points", n, { n: fmtNumber(n) });
  if (!j.rows.length) return [_("No move was played.")];
  if (j.accuracy !== null) {
    out.push(_("Accuracy {accuracy}: {n} of {total} decisions within {within} points of chance of the advice; {followed} followed it.", {
      within: fmtNumber(FACTS.marks.chance[0]), accuracy: percent(j.accuracy), n: fmtNumber(Math.round(j.accuracy * j.decisions)), total: fmtNumber(j.decisions), followed: fmtNumber(j.followed) }));
  }
  if (j.costliest.length) {
    const c = j.costliest[0];
    out.push(_("The costliest decision: move {n} ({move} {mark}); {better} was better, {loss} points of chance more.", {
      n: fmtNumber(c.number), move: pretty(c.move), mark: c.mark, better: pretty(c.better), loss: fmtNumber(Math.round(100 * c.loss)) }));
    if (j.costliest.length > 1) {
      const next = [];
      for (const r of j.costliest.slice(1)) {
        const vars = { n: fmtNumber(r.number), move: pretty(r.move), mark: r.mark, better: pretty(r.better), loss: fmtNumber(Math.round(100 * r.loss)) };
        next.push(_("move {n} ({move} {mark}, {better} better by {loss})", vars));
      }
      out.push(_("Then: {moves}.", { moves: next.join("; ") }));
    }
  } else {
    out.push(_("No decision is marked: every move kept its chance within {within} points of the advice's.",
      { within: fmtNumber(FACTS.marks.chance[0]) }));
  }
  if (j.luck) {
    out.push(_("Luck apart: the cards that turned up moved the chance by {luck} points in all.", { luck: signed(j.luck.total) }));
    if (j.luck.worst) {
      out.push(_("The worst luck: move {n} ({move}), {luck} points.", { n: fmtNumber(j.luck.worst.number), move: pretty(j.luck.worst.move), luck: signed(j.luck.worst.luck) }));
    }
  }
  if (j.exact) {
    if (j.lost) {
      const row = j.rows[j.lost.ply - 1];
      out.push(_("In hindsight, after move {n} ({move}) no line won; {keepers} would have kept a win.", {
        n: fmtNumber(j.lost.number), move: pretty(j.lost.move), keepers: orList(j.lost.keepers.map(pretty)) }));
      if (row.verdict === "bad luck") out.push(_("With the cards you could see, that move was not a mistake: bad luck."));
      else if (row.verdict === "mistake") out.push(_("With the cards you could see, that move was a mistake too."));
    } else if (j.status === "stuck" && j.winnable_start === false) {
      out.push(_("No line won this deal from its start."));
    }
    if (j.lost_total !== null && j.best_start !== null && j.scoring === "cards-left") {
      out.push(j.lost_total > 0 ? ngettext("The fewest cards left from the start: {best}; the moves left {n} more.",
        "The fewest cards left from the start: {best}; the moves left {n} more.", j.lost_total, { best: fmtNumber(j.best_start), n: fmtNumber(j.lost_total) })
        : _("The fewest cards left this deal allowed: no move left more."));
    } else if (j.lost_total !== null && j.best_start !== null) {
      out.push(j.lost_total > 0 ? _("In hindsight, the best score from the start was {best}: the moves lost {lost}.", { best: fmtNumber(j.best_start), lost: points(j.lost_total) })
        : _("The best score this deal allowed: no move lost any points."));
    }
  } else {
    out.push(ngettext("{n} card was never seen: no judgement in hindsight.",
      "{n} cards were never seen: no judgement in hindsight.", j.unseen, { n: fmtNumber(j.unseen) }));
  }
  const marked = ["??", "?", "?!"].filter((m) => j.marks[m]).map((m) => `${fmtNumber(j.marks[m])} × ${m}`);
  out.push(marked.length ? _("Marked in the move list: {marks}.", { marks: marked.join(", ") }) : _("No move is marked."));
  return out;
}
function renderEnd() {
  const box = $("#end");
  const j = game.judged;
  const state = game.state;
  box.hidden = false;
  const lostAt = j.exact && j.lost ? String(j.lost.number) : null;
  const costliest = j.costliest.length ? String(j.costliest[0].number) : "";
  box.replaceChildren(el("h2", { text: endTitle(state.status, state.score, state.moves_played, state.scoring) }),
    el("div", { "data-summary": "", "data-lost-at": lostAt, "data-costliest": costliest, "data-accuracy": j.accuracy === null ? "" : String(j.accuracy) },
      ...summary({ ...j, scoring: state.scoring }).map((t) => el("p", { text: t }))),
    el("p", {}, el("a", { class: "button primary", href: "/", "data-action": "new-game", text: _("New game") })),
    j.rows.some((r) => !r.taken_back) ? chart(j) : "");
}
// The game's picture: the chance move by move, as it could be seen then: each move a
// slope from the advice's chance to the chance of the move played (a mistake falls),
// each step the luck of the cards it turned up; each point a button (Tab, Enter) that
// opens its move.
function chart(j) {
  const rows = j.rows.filter((r) => !r.taken_back && r.chance_best !== null);
  if (!rows.length) return "";
  const before = rows.map((r) => r.chance_best);
  const after = rows.map((r) => r.chance_played);
  const landed = rows.map((r) => Math.min(1, Math.max(0, r.chance_played + (r.luck === null ? 0 : r.luck))));
  const W = Math.round(Math.max(320, Math.min(720, $("#end").clientWidth - 24))), H = 200, L = 44, B = 30, T = 22;
  const x = (i) => L + (i * (W - L - 14)) / Math.max(1, rows.length);
  const y = (v) => T + (H - B - T) * (1 - v);  // the whole range, 0 to 100%: a fall looks its size
  const what = _("Chance to win, move by move, as it could be seen then: the advice's before each move, the move's after it");
  const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "group", "aria-label": what });
  s.append(svg("line", { x1: L, y1: H - B, x2: W - 8, y2: H - B, class: "axis" }));
  s.append(svg("line", { x1: L, y1: T, x2: L, y2: H - B, class: "axis" }));
  for (const v of [0, 0.5, 1]) {
    s.append(svg("line", { x1: L - 3, y1: y(v), x2: L, y2: y(v), class: "axis" }));
    s.append(svg("text", { x: L - 5, y: y(v) + 4, class: "tick y-tick", "text-anchor": "end" }, percent(v)));
  }
  // the axis numbered as the move list; at most one number every 40 px
  const every = Math.max(1, Math.ceil(rows.length / Math.max(2, Math.floor((W - L) / 40))));
  s.append(svg("text", { x: x(0), y: H - B + 16, class: "tick", "text-anchor": "middle" }, _("start")));
  for (let i = every; i <= rows.length; i += every) {
    if (rows.length - i < every / 2 && i !== rows.length) continue;
    s.append(svg("text", { x: x(i), y: H - B + 16, class: "tick", "text-anchor": "middle" }, fmtNumber(rows[i - 1].number)));
  }
  const pts = [];
  rows.forEach((r, i) => { pts.push(`${x(i)},${y(before[i])}`, `${x(i + 1)},${y(after[i])}`, `${x(i + 1)},${y(landed[i])}`); });
  s.append(svg("polyline", { points: pts.join(" "), class: "curve" }));
  rows.forEach((r, i) => {
    const cx = x(i + 1), cy = y(after[i]);
    const label = [_("move {n}: {move}", { n: fmtNumber(r.number), move: pretty(r.move) }),
      _("chance {chance}", { chance: percent(r.chance_played) }),
      r.mark ? `${r.mark} ${markTitle(r)}` : "", r.mark && r.better ? _("better: {move}", { move: pretty(r.better) }) : "",
      r.followed && r.choices > 1 ? _("followed the advice") : ""].filter(Boolean).join(", ");
    const g = svg("g", { class: "point", tabindex: "0", role: "button", "aria-label": label, "data-chart-ply": String(r.ply) });
    g.append(svg("title", {}, label));
    g.append(svg("circle", { cx, cy, r: r.mark ? 5 : 3, class: r.mark ? `mark ${markClass(r.mark)}` : "dot" }));
    // the mark's label above the point, clear of the curve
    if (r.mark) g.append(svg("text", { x: cx, y: Math.max(12, cy - 10), class: "mark-text", "text-anchor": "middle" }, r.mark));
    g.append(svg("circle", { cx, cy, r: 12, class: "hit" }));
    g.addEventListener("click", () => openReview(r.ply));
    g.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); openReview(r.ply); }
    });
    s.append(g);
  });
  return el("figure", { class: "chart-box" }, s, el("figcaption", { class: "hint", text:
    _("The chance to win, as it could be seen then: each slope is a move (a fall, chance lost against the advice), each step the cards it turned up (luck). Tab to a point and press Enter, or click it, to see the board after that move.") }));
}
