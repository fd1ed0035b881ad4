// The pages of `tripeaks-solve serve`: start picker and saved games (/, start.js), a
// game played along (/play/NAME, play.js; its end: review.js), a deal's best line
// (/solve, solve.js). The helpers (cards, board, API) are in cards.js, the words in
// i18n.js, the server's facts of the game in facts.js; all are loaded first.
"use strict";

// --- which page ------------------------------------------------------------------------
(async function route() {
  await loadFacts();  // the languages first: the words' loader reads them
  await loadMessages();
  const path = location.pathname;
  if (path.startsWith("/play/")) showPlay(gameName(path.slice(6)));
  else if (path === "/solve") showSolve();
  else showStart();
})();

// A game's name from its address: a broken escape (%E0%A4%A) is no name of a game, and
// the server says so for the text as it stands, rather than the page stopping blank.
function gameName(text) {
  try {
    return decodeURIComponent(text);
  } catch (e) {
    return text;
  }
}
