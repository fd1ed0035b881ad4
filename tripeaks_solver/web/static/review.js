// The game looked back on: the move list (judged in the background, its marks), the
// board after a move of it (← and → step), and the end in words first, then its
// picture. Uses cards.js, i18n.js and play.js (the game shown).
"use strict";

const MARK_WORDS = () => ({
  "??": _("no win left after it"), "?": _("points lost"), "!": _("the only move that kept the win"),
});
const FAIR_MARK_WORDS = () => ({
  "??": _("none of the guesses winnable after it"), "?": _("kept fewer guesses winnable than the best move"),
});

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
function markTitle(mark, exact) {
  return (exact ? MARK_WORDS() : FAIR_MARK_WORDS())[mark] || "";
}
// Words as a sentence of their own: "Points lost." (the words are a title elsewhere).
function sentence(words) { return words.charAt(0).toUpperCase() + words.slice(1) + "."; }

// --- the move list ------------------------------------------------------------------------------
function moveRow(row) {
  const j = judgedRow(row);
  const mark = j ? j.mark : "";
  const exact = game.judged && game.judged.exact;
  const lost = game.judged && game.judged.lost && game.judged.lost.ply === row.ply;
  const shown = row.shown.length ? ` → ${prettyLine(row.shown)}` : "";
  const label = [row.move === "undo" ? _("undo (move {n} taken back)", { n: fmtNumber(row.number) })
    : _("move {n}: {move}", { n: fmtNumber(row.number), move: row.move === "draw" ? pretty("draw") : cardName(row.move) }),
  row.shown.length ? _("turned up {cards}", { cards: andList(row.shown.map(cardName)) }) : null,
  mark ? markTitle(mark, exact) : null].filter(Boolean).join(", ");
  const button = el("button", { type: "button", class: "move", "aria-label": label,
    "aria-current": game.reviewing === row.ply ? "true" : null, onclick: () => openReview(row.ply) },
  el("span", { class: "n", "aria-hidden": "true", text: row.move === "undo" ? "↶" : `${fmtNumber(row.number)}.` }),
  el("span", { class: "what", "aria-hidden": "true", text: pretty(row.move) + shown }),
  mark ? el("span", { class: `mark m${mark === "!" ? "good" : mark.length}`, "aria-hidden": "true",
    title: lost ? _("no line won after it") : markTitle(mark, exact), text: mark }) : null);
  return el("li", { "data-ply": String(row.ply), "data-mark": mark,
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
      : j.exact ? _("Marks: ?? no win left after it, ? points lost, ! the only move that kept the win.")
        : ngettext("Marks over guesses at the {n} card not seen: ?? none of the guesses winnable after it, ? fewer kept winnable than by the best move.",
          "Marks over guesses at the {n} cards not seen: ?? none of the guesses winnable after it, ? fewer kept winnable than by the best move.",
          j.unseen, { n: fmtNumber(j.unseen) });
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
  if (j && j.mark) parts.push(" ", el("span", { class: `mark m${j.mark === "!" ? "good" : j.mark.length}`, text: j.mark }), " ", sentence(markTitle(j.mark, game.judged.exact)));
  if (j && j.best_after !== null && j.best_after !== undefined && !j.taken_back) {
    parts.push(" ", _("Best score still reachable after it: {best} ({lost} lost by it).", { best: fmtNumber(j.best_after), lost: fmtNumber(j.lost) }));
  } else if (j && j.share_after !== null && j.share_after !== undefined) {
    parts.push(" ", _("Still winnable after it: {after} of the guesses (the best move kept {best}).", { after: percent(j.share_after), best: percent(j.share_best) }));
  }
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
// The end in words: where the game was lost, the points lost, bad luck apart from mistakes;
// over guesses when cards were never seen.
function summary(j) {
  const out = [];
  const points = (n) => ngettext("{n} point", "{n} points", n, { n: fmtNumber(n) });
  if (!j.rows.length) return [_("No move was played.")];
  if (j.exact) {
    if (j.lost) {
      const row = j.rows[j.lost.ply - 1];
      out.push(_("After move {n} ({move}) no line won; {keepers} would have kept a win.", {
        n: fmtNumber(j.lost.number), move: pretty(j.lost.move), keepers: orList(j.lost.keepers.map(pretty)) }));
      if (row.verdict === "bad luck") out.push(_("With the cards you could see, that move was bad luck: it was rated best."));
      else if (row.verdict === "mistake") out.push(_("With the cards you could see, that move was a mistake: another move kept more of the guesses winnable."));
    } else if (j.status === "stuck" && j.winnable_start === false) {
      out.push(_("No line won this deal from its start."));
    }
    if (j.lost_total !== null && j.best_start !== null && j.scoring === "cards-left") {
      out.push(j.lost_total > 0 ? ngettext("The fewest cards left from the start: {best}; the moves left {n} more.",
        "The fewest cards left from the start: {best}; the moves left {n} more.", j.lost_total, { best: fmtNumber(j.best_start), n: fmtNumber(j.lost_total) })
        : _("The fewest cards left this deal allowed: no move left more."));
    } else if (j.lost_total !== null && j.best_start !== null) {
      out.push(j.lost_total > 0 ? _("The best score from the start was {best}: the moves lost {lost}.", { best: fmtNumber(j.best_start), lost: points(j.lost_total) })
        : _("The best score this deal allowed: no move lost any points."));
    }
    if (j.fair && (j.bad_luck || j.mistakes) && !(j.lost && j.rows[j.lost.ply - 1].verdict)) {
      const mistakes = ngettext("{n} mistake", "{n} mistakes", j.mistakes, { n: fmtNumber(j.mistakes) });
      const luck = ngettext("{n} bad luck", "{n} bad luck", j.bad_luck, { n: fmtNumber(j.bad_luck) });
      out.push(_("Moves that threw the win away: {mistakes}, {luck}.", { mistakes, luck }));
    }
  } else {
    out.push(ngettext("{n} card was never seen: this judgement is over guesses at it.",
      "{n} cards were never seen: this judgement is over guesses at them.", j.unseen, { n: fmtNumber(j.unseen) }));
    if (j.fell) {
      out.push(_("The share of guesses still winnable fell the most after move {n} ({move}): from {before} to {after}.", {
        n: fmtNumber(j.fell.number), move: pretty(j.fell.move), before: percent(j.fell.before), after: percent(j.fell.after) }));
    } else {
      out.push(_("No move lowered the share of guesses still winnable."));
    }
  }
  const marked = ["??", "?", "!"].filter((m) => j.marks[m]).map((m) => `${fmtNumber(j.marks[m])} × ${m}`);
  out.push(marked.length ? _("Marked in the move list: {marks}.", { marks: marked.join(", ") }) : _("No move is marked."));
  return out;
}
function renderEnd() {
  const box = $("#end");
  const j = game.judged;
  const state = game.state;
  box.hidden = false;
  const lostAt = j.exact && j.lost ? String(j.lost.number) : null;
  // the samples the judgement took a move, when fewer than asked for (it takes at most 200)
  const capped = j.fair && j.samples_asked !== undefined && j.samples !== j.samples_asked
    ? el("p", { class: "hint", text: _("Each move judged over {samples} samples ({asked} asked for).", {
      samples: fmtNumber(j.samples), asked: fmtNumber(j.samples_asked) }) }) : "";
  box.replaceChildren(el("h2", { text: endTitle(state.status, state.score, state.moves_played, state.scoring) }),
    el("div", { "data-summary": "", "data-lost-at": lostAt }, ...summary({ ...j, scoring: state.scoring }).map((t) => el("p", { text: t }))),
    capped,
    el("p", {}, el("a", { class: "button primary", href: "/", "data-action": "new-game", text: _("New game") })),
    j.rows.some((r) => !r.taken_back) ? chart(j) : "");
}
// The game's picture: each move's best score still reachable (exact), or its share of the
// guesses still winnable, scaled to what changed; points open their move.
function chart(j) {
  const rows = j.rows.filter((r) => !r.taken_back);
  const exact = j.exact;
  const num = (v) => (v === null || v === undefined ? 0 : v);
  // Each move a segment from the value before it to the value after it: its slope is the
  // move's; a step between two segments, the card the first turned up (fair only).
  const before = rows.map((r, i) => num(exact ? (i ? rows[i - 1].best_after : j.best_start) : r.share_before));
  const after = rows.map((r) => num(exact ? r.best_after : r.share_after));
  const ys = [before[0], ...after];
  const all = [...before, ...after];
  const top = Math.max(...all), bottom = Math.min(...all);
  const W = Math.round(Math.max(320, Math.min(720, $("#end").clientWidth - 24))), H = 190, L = 48, B = 30, T = 14;
  const pad = exact ? Math.max(1, Math.ceil((top - bottom) * 0.1)) : Math.max(0.01, (top - bottom) * 0.1);
  const lo = exact ? bottom - pad : Math.max(0, bottom - pad);
  const hi = exact ? top + pad : Math.min(1, top + pad);
  const x = (i) => L + (i * (W - L - 12)) / Math.max(1, ys.length - 1);
  const y = (v) => T + (H - B - T) * (1 - (v - lo) / Math.max(1e-9, hi - lo));
  const what = exact ? _("Best score still reachable after each move, from {lo} to {hi}", { lo: fmtNumber(bottom), hi: fmtNumber(top) })
    : _("Share of guesses still winnable before and after each move, from {lo} to {hi}", { lo: percent(bottom), hi: percent(top) });
  const fmt = (v) => (exact ? fmtNumber(Math.round(v)) : percent(v));
  const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": what });
  s.append(svg("line", { x1: L, y1: H - B, x2: W - 8, y2: H - B, class: "axis" }));
  s.append(svg("line", { x1: L, y1: T, x2: L, y2: H - B, class: "axis" }));
  // the values the curve reaches, at their heights (not the padded ends of the axis, which
  // no move reached)
  const close = fmt(top) === fmt(bottom) || y(bottom) - y(top) < 14;  // one label, not two on top of each other
  for (const v of close ? [top] : [top, bottom]) {
    s.append(svg("line", { x1: L - 3, y1: y(v), x2: L, y2: y(v), class: "axis" }));
    s.append(svg("text", { x: L - 5, y: y(v) + 4, class: "tick y-tick", "text-anchor": "end" }, fmt(v)));
  }
  // the axis numbered as the move list: the moves standing, by their numbers
  const ticks = new Set([0, ys.length - 1]);
  const step = Math.max(1, Math.ceil((ys.length - 1) / 6));
  for (let i = step; i < ys.length - 1 - step / 2; i += step) ticks.add(i);
  for (const i of ticks) {
    s.append(svg("text", { x: x(i), y: H - B + 16, class: "tick", "text-anchor": "middle" },
      i === 0 ? _("start") : fmtNumber(rows[i - 1].number)));
  }
  s.append(svg("text", { x: W - 8, y: H - 2, class: "tick", "text-anchor": "end" }, _("move")));
  s.append(svg("polyline", { points: rows.map((r, i) => `${x(i)},${y(before[i])} ${x(i + 1)},${y(after[i])}`).join(" "), class: "curve" }));
  rows.forEach((r, i) => {
    const cx = x(i + 1), cy = y(ys[i + 1]);
    const g = svg("g", { class: "point" });
    g.append(svg("title", {}, [_("move {n}: {move}", { n: fmtNumber(r.number), move: pretty(r.move) }), fmt(ys[i + 1]),
      r.mark ? `${r.mark} ${markTitle(r.mark, exact)}` : ""].filter(Boolean).join(" · ")));
    g.append(svg("circle", { cx, cy, r: r.mark ? 5 : 3, class: r.mark ? `mark m${r.mark === "!" ? "good" : r.mark.length}` : "dot" }));
    if (r.mark) g.append(svg("text", { x: cx, y: cy - 9, class: "mark-text", "text-anchor": "middle" }, r.mark));
    g.append(svg("circle", { cx, cy, r: 12, class: "hit", "data-chart-ply": String(r.ply) }));
    g.addEventListener("click", () => openReview(r.ply));
    s.append(g);
  });
  return el("figure", { class: "chart-box" }, s, el("figcaption", { class: "hint", text: exact
    ? _("The best score still reachable, move by move; click a point to see the board after that move.")
    : _("The share of guesses still winnable: each slope is a move, each step the cards it turned up; click a point to see the board after that move.") }));
}
