// The end of a game played along: the game judged and its picture. Uses cards.js,
// i18n.js and play.js (the game shown).
"use strict";

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
