// "Analyse this game": the exit the result, dead-end and no-progress panels of both game pages offer.
// It opens the analysis viewer (/analysis) on this game's session; the game is saved first, so coming
// back restores it. The server refuses a game still in play, so nothing hidden reaches the page early.
"use strict";

function analyseExit(game) {  // a panel button: [label, action]
  const label = app.lang === "ja" ? "この局を振り返る" : "Analyse this game";
  return [label, () => {
    if (typeof save === "function") save();
    location.href = `/analysis?game=${game}&session=${encodeURIComponent(app.state.session)}`;
  }];
}
