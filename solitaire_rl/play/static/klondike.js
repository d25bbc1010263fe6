// The Klondike page (draw 3, or draw 1): sends intents to /api/klondike and renders the JSON state it gets back.
// No rule logic here: legal targets, the waste fan, the finish button and every message come from the server.
"use strict";

const SAVE_KEY = "solitaire-rl.klondike.save";
const RECORDS_KEY = "solitaire-rl.klondike.records";
const DRAW_KEY = "solitaire-rl.klondike.draw";  // the draw (1 or 3) of the latest game started
const WARN_KEY = "solitaire-rl.klondike.warn-drop";  // "1": warn after a move that lowers the chance sharply
const GAMES = "/api/klondike/games";
const LONG_PRESS_MS = 450;
const DRAG_PX = 8;
const DOUBLE_TAP_MS = 400;  // a second tap this soon after the first, this near it, makes a double tap
const DOUBLE_TAP_PX = 24;

const app = pageApp({
  hintSource: "commitment",  // the commitment planner (world-bandit) by default on this page (issue 51)
  finishing: false,
  finishDelay: 220,       // ms between two cards of the auto-finish
  run: null,              // the open run panel: {col, cards, index, pointer}
  gesture: null,          // the pointer gesture in progress
  lastPointerTap: 0,
  lastTap: null,          // the last tap on a card: {at, x, y, place}, for the double tap
  focusKey: null,
  keepMessage: false,     // true: the next render keeps the message (a copied deal ID)
});


// ------------------------------------------------------------------ words
// The page's own words in English and in the seed's Japanese; messages about the game (refusals,
// hints, verdicts, outcomes) come from the server in both languages. The language choice is shared
// with the Pyramid page (LANG_KEY, in common.js).
const SUITS_JA = ["クラブ", "ダイヤ", "ハート", "スペード"];
const WORDS = {
  en: {
    lostPosition: "The server had closed this hand-built position; a new deal was dealt.",
    restored: "The server had closed this game; it was restored from your moves.",
    stockDown: (n) => `Stock, ${n} cards face down: tap to draw`,
    stockRecycle: (k) => `Stock, empty: tap to turn the waste over (recycle ${k})`,
    stockBoth: (why) => `Stock and waste both empty: ${why}`, empty: "empty",
    wasteTop: (card, n) => `Waste top: ${card}, playable; ${n} in the waste`,
    buried: (card) => `${card}, under the waste top, not playable`,
    wasteFan: (list, top) => `Waste: ${list}; top ${top}`, wasteEmpty: "Waste, empty",
    foundation: (suit, n, card) => `${suit} foundation: ${n} up, top ${card}`,
    foundationEmpty: (suit) => `${suit} foundation, empty`,
    targetCol: ", a target for the selected cards",
    cardLabel: (card, k, col) => `${card}${k ? `, with the ${k} card${k > 1 ? "s" : ""} on it` : ""}, column ${col}`,
    stop: "Stop", stopLabel: "Stop the finish", finishLabel: "Finish: send the remaining cards up one by one",
    draw: "Draw", recycle: "Recycle", drawLabel: (n = 3) => `Draw ${n} from the stock`, recycleLabel: "Recycle the waste",
    moves: (n) => `Moves ${n}`, recycles: (n) => `Recycles ${n}`, up: (n) => `Up ${n}/52`,
    counts: (d, o, h) => `Face down ${d} · Hints ${h}`,
    handBuilt: "hand-built position",
    verdict: (text) => `Can it be won? ${text}`,  // issue 51: no engine word
    newDeal: "New deal", sameDeal: "Same deal again", viewBoard: "View the board", undo: "Undo",
    code: "code", won: "You won!",
    wonNote: "You won! Hint (H) shows the result again and analyses the game; N deals a new one.",
    noProgressNote: "No progress possible: moves remain, but none leads anywhere new. Hint (H) shows the choices: Undo, Restart or New deal.",
    resultLine: (time, moves, rec, up) => `Time ${time} · Moves ${moves} · Recycles ${rec} · Cards up ${up} of 52`,
    resultCounts: (h, o) => `Hints ${h} · Operations ${o}`,
    deadTitle: "No legal move", noProgressTitle: "No progress possible",
    noProgressBody: "Every remaining move only shuffles known cards: undo, take the same deal again or a new one.",
    replaceBody: "The current game has moves. Start another one in its place?", noFinish: "The finish is not available yet: a card is face down or a stock card is unseen.",
    runPreview: (name, n) => `From the ${name}: ${n} card${n === 1 ? "" : "s"}`,
    runLabel: (card, n) => `From the ${card}, ${n} card${n === 1 ? "" : "s"}: select`,
    runFirst: "This is the first face-up card.", runLast: "This is the last card.",
    pausedBody: "Your saved game is restored. The clock starts again when you resume.",
    noStorage: "Saving is not available in this browser: you can play, but nothing is saved.",
    recordsTitle: "Records", noRecords: "No deal won yet.",
    recordsCount: (n, parts) => `${n} deal${n === 1 ? "" : "s"} won: ${parts}`,
    recordsHead: ["type", "deal", "time", "moves", "recycles", "hints"],
    dealTypes: {random: "random", winnable: "winnable", code: "code", position: "position", daily: "daily"},
    dealType: "Deal type", dealTypeTitle: "Deal type: a winnable deal was checked, knowing every card, when it was dealt",
    recordsNoStorage: "Storage is not available in this browser: records are not kept.",
    suit: (i) => ["clubs", "diamonds", "hearts", "spades"][i],
    faceDown: "face-down card", dealWhat: "a deal ID (like klondike-random-v1-123), a deal code or a Solvitaire JSON deal",
    // draw 1
    drawCount: "Draw", drawCountTitle: "Cards turned from the stock at a time (changing it deals a new game)",
    drawTitle: (n) => `draw ${n}`, pageTitle: (n) => `Klondike draw ${n} — solitaire-rl`,
    drawGroup: (n, type) => `draw ${n} · ${type}`,
    draw3OnlyTitle: "In draw 1 the planner answers every hint: the trained agent and the expert network play draw 3 only",
    chanceLabel: "Chance of winning from here", chanceAsking: "Estimating your chance of winning from here…",
    chanceDrop: (a, b) => `That move lowered your chance from ${a} to ${b}; Undo takes it back.`,
  },
  ja: {
    lostPosition: "サーバーがこの手作りの局面を閉じていたため、新しい配りを始めました。",
    restored: "サーバーがこの局を閉じていたため、これまでの手から復元しました。",
    stockDown: (n) => `山札 ${n} 枚（裏向き）：タップでめくる`,
    stockRecycle: (k) => `山札は空：タップでめくり札を組み直す（${k} 回目）`,
    stockBoth: (why) => `山札もめくり札も空：${why}`, empty: "空",
    wasteTop: (card, n) => `めくり札のいちばん上：${card}（動かせます）、めくり札 ${n} 枚`,
    buried: (card) => `${card}（いちばん上の下にあり、動かせません）`,
    wasteFan: (list, top) => `めくり札：${list}、いちばん上 ${top}`, wasteEmpty: "めくり札は空です",
    foundation: (suit, n, card) => `${suit}の組札：${n} 枚、いちばん上 ${card}`,
    foundationEmpty: (suit) => `${suit}の組札：空`,
    targetCol: "、選んだ札の置き先",
    cardLabel: (card, k, col) => `${card}${k ? `（上に ${k} 枚）` : ""}、${col} 列目`,
    stop: "止める", stopLabel: "自動で仕上げを止める", finishLabel: "自動で仕上げ：残りの札を 1 枚ずつ組札へ送る",
    draw: "めくる", recycle: "組み直す", drawLabel: (n = 3) => `山札から ${n} 枚めくる`, recycleLabel: "めくり札を組み直す",
    moves: (n) => `手数 ${n}`, recycles: (n) => `組み直し ${n}`, up: (n) => `組札 ${n}/52`,
    counts: (d, o, h) => `裏向き ${d} · ヒント ${h} 回`,
    handBuilt: "手作りの局面",
    verdict: (text) => `勝てるか：${text}`,
    newDeal: "新しい配り", sameDeal: "この配りをもう一度", viewBoard: "盤面を見る", undo: "取り消し",
    code: "コード", won: "勝ちました！",
    wonNote: "勝ちました！ヒント（H）で結果をもう一度表示し、この局を分析できます。N で新しい配りを始めます。",
    noProgressNote: "前に進む手がありません。手は残っていますが、どれも新しい展開につながりません。ヒント（H）で選べます：取り消し・最初から・新しい配り。",
    resultLine: (time, moves, rec, up) => `時間 ${time} · 手数 ${moves} · 組み直し ${rec} 回 · 上がった枚数 52 枚中 ${up} 枚`,
    resultCounts: (h, o) => `ヒント ${h} 回 · 操作 ${o} 回`,
    deadTitle: "手詰まりです", noProgressTitle: "前に進む手がありません",
    noProgressBody: "残っている手は見えている札を動かすだけです。取り消すか、同じ配りか新しい配りを選んでください。",
    replaceBody: "今の局には手の履歴があります。別の局に置き換えますか？", noFinish: "自動で仕上げはまだ使えません：裏向きの札か、まだ見ていない山札があります。",
    runPreview: (name, n) => `${name} から ${n} 枚`,
    runLabel: (card, n) => `${card} から ${n} 枚：選ぶ`,
    runFirst: "いちばん上の表向きの札です。", runLast: "いちばん下の札です。",
    pausedBody: "保存した局を読み込みました。「再開する」を押すと時間が進みます。",
    noStorage: "このブラウザでは保存できません。遊べますが、何も保存されません。",
    recordsTitle: "勝ちの記録", noRecords: "まだ勝った配りはありません。",
    recordsCount: (n, parts) => `勝ち ${n} 件：${parts}`,
    recordsHead: ["種類", "配り", "時間", "手数", "組み直し", "ヒント"],
    dealTypes: {random: "ランダム", winnable: "勝てる配り", code: "コード", position: "手作りの局面", daily: "今日の配り"},
    dealType: "配りの種類", dealTypeTitle: "配りの種類：勝てる配りは、配るときにすべての札で勝てることを確かめてあります",
    recordsNoStorage: "このブラウザでは保存できないため、記録は残りません。",
    suit: (i) => SUITS_JA[i],
    faceDown: "裏向きの札", dealWhat: "配りの識別子（例：klondike-random-v1-123）、盤面コード、Solvitaire JSON のどれか",
    // draw 1
    drawCount: "めくる枚数", drawCountTitle: "山札から一度にめくる枚数（変えると新しい配りになります）",
    drawTitle: (n) => `${n} 枚めくり`, pageTitle: (n) => `クロンダイク（${n} 枚めくり）— solitaire-rl`,
    drawGroup: (n, type) => `${n} 枚めくり · ${type}`,
    draw3OnlyTitle: "1 枚めくりではヒントはすべてプランナーが答えます（学習済みエージェントとエキスパートネットワークは 3 枚めくり専用です）",
    chanceLabel: "ここから勝てる見込み", chanceAsking: "ここから勝てる見込みを計算中…",
    chanceDrop: (a, b) => `今の手で勝てる見込みが${jaSpaced(a)}から${jaSpaced(b)}に下がりました。「取り消し」で戻せます`,
  },
};

function t(key, ...args) {
  const table = WORDS[app.lang] || WORDS.en;
  const v = key in table ? table[key] : WORDS.en[key];
  if (v === undefined) return ct(key, ...args);  // the words both pages share (common.js)
  return typeof v === "function" ? v(...args) : v;
}
function sp(card) { return app.lang === "ja" && card.spoken_ja ? card.spoken_ja : card.spoken; }

function applyLanguage() {  // the static labels (data-en / data-ja attributes) and the rules page
  document.documentElement.lang = app.lang;
  for (const el of document.querySelectorAll("[data-ja]")) {
    if (!el.dataset.en) el.dataset.en = el.textContent;
    el.textContent = app.lang === "ja" ? el.dataset.ja : el.dataset.en;
  }
  $("deal-input").placeholder = app.lang === "ja" ? "配りの識別子、コード、Solvitaire JSON" : "deal ID, code or Solvitaire JSON";
  $("deal-type").setAttribute("aria-label", t("dealType"));
  $("deal-type").title = t("dealTypeTitle");
  $("draw-count").setAttribute("aria-label", t("drawCount"));
  $("draw-count").title = t("drawCountTitle");
  $("chance").setAttribute("aria-label", t("chanceLabel"));
  $("rules-en").hidden = app.lang !== "en";
  $("rules-ja").hidden = app.lang !== "ja";
  $("lang").textContent = app.lang === "ja" ? "English" : "日本語";
  $("lang").setAttribute("aria-label", app.lang === "ja" ? "英語で表示する" : "Show the page in Japanese");
  if (app.state) render();
}

// ------------------------------------------------------------------ server
async function send(action, {quiet = false, retry = true} = {}) {
  if (!app.state || app.paused) return false;
  try {
    const before = app.state.history.length;
    setState(await api("POST", `/api/klondike/games/${app.state.session}/actions`, {...action, revision: app.state.revision}));
    if (app.state.history.length !== before) sound("snap");
    if (PLAYER_MOVES.includes(action.type) && app.state.history.length > before) autoPlay();
    return true;
  } catch (e) {
    app.lastTap = null;  // a tap that was not carried out is no first half of a double tap
    if (e.code === "STALE_GAME") await reloadStale();  // another tab played on: the latest game, and why
    if (e.status === 404) {  // the server forgot this game (restarted): restore it, then carry out the action
      if (await recoverLostGame() && retry) return send(action, {quiet, retry: false});
      return false;
    }
    if (!quiet) showError(e);
    throw e;
  }
}

const act = (action) => queue(() => send(action).catch(() => false));

// Auto-play (a setting, on by default): after the player's move, a card that is safe to send up (the
// server's auto_home: no card left could need it) goes to its foundation, one by one. Never after an
// undo, a redo or a restart, so an undone card stays where the player put it.
const PLAYER_MOVES = ["tap", "move", "stock"];
function autoPlay() {
  const s = app.state;
  if (!settings.autoPlay || !s || !s.auto_home || app.finishing || s.outcome) return;
  queue(async () => {
    await new Promise((r) => setTimeout(r, reducedMotion() ? 0 : 90));
    const now = app.state;
    if (!now || !now.auto_home || now.outcome || now.revision !== s.revision) return;
    await send({type: "move", source: now.auto_home.source, target: now.auto_home.target}, {quiet: true})
      .catch(() => false);
  }, {auto: true});
}

async function startGame(body, options = {}) {
  return adoptGame(await api("POST", GAMES, body), options);
}

function adoptGame(state, {paused = false, activeMs = 0} = {}) {  // a new game's state becomes this page's game
  keepDraw(state.draw_count);
  closeMenu();
  stopFinish();
  stopClock();
  if (!state.history.length) sound("deal");
  app.activeMs = activeMs;
  app.recorded = state.outcome === "win";
  closePanel();
  closeRun();
  setState(state);
  if (paused) pause(); else startClock();
  return state;
}

function dealName(s) {  // the deal ID, or the code the player typed in; null for a hand-built position
  return s.deal.id || s.deal.code || null;
}

async function recoverLostGame() {  // true: the same game is back (replayed from its moves), the clock kept
  const s = app.state;
  const elapsed = currentMs();
  setState(null);
  if (!dealName(s)) {
    await startGame({draw_count: s.draw_count});
    message(t("lostPosition"), "error");
    return false;
  }
  await startGame({deal: dealName(s), history: s.history, redo: s.redo, seen: s.seen, operations: s.operations,
                   hints: s.hints, hinted: s.hinted || [], draw_count: s.draw_count}, {activeMs: elapsed});
  message(t("restored"), "info");
  app.keepMessage = true;
  return true;
}

// ------------------------------------------------------------------ rendering
function face(el, card) {
  cardFace(el, card);
  el.dataset.card = card.card;
}

function isTarget(place) {
  const s = app.state;
  if (!s.selected) return false;
  return s.selected_targets.includes(place);
}

function setState(state) {
  const previous = app.state;
  noteState(previous, state);
  if (app.chancePending && positionKey(previous) !== positionKey(state)) { app.chancePending = false; app.chanceAsk++; }
  stopTravel();  // a hint's flying copy never outlives the position it was shown for
  const rects = previous && state ? cardRects() : null;
  app.state = state;
  if (!state) return;
  render();
  if (rects) animateFrom(rects);
  save();
  if (!previous || previous.session !== state.session || previous.history.join() !== state.history.join() ||
      previous.seen.length !== state.seen.length) {
    requestVerdict();
  }
  if (app.warnDrop && (!app.lastChance || app.lastChance.key !== positionKey(state))) watchChance();
  if (state.outcome === "win" && (!app.recorded || (previous && previous.outcome !== "win"))) {
    app.recorded = true;  // won (again, after an undo): the panel opens; record() never counts a deal twice
    stopFinish();
    stopClock();
    record();
    celebrate(foundationRect, showResult);  // player.js: the cards cascade, then the result
  } else if (state.outcome !== "win" && previous && previous.outcome === "win") {
    startClock();  // an undo after the win: play on, the clock runs again
  } else if (state.outcome === "dead_end" && (!previous || previous.outcome !== "dead_end" ||
             previous.history.join() !== state.history.join())) {
    showDeadEnd();
  }
}

function render() {
  const s = app.state;
  const hint = s.hint && s.hint.kind === "move" ? s.hint : null;  // framed: its from_place and to_place

  // stock
  const stock = $("stock");
  stock.className = "card slot stock";
  stock.textContent = "";
  if (s.stock.count) {
    backFace(stock, s.stock.count);
    stock.setAttribute("aria-label", t("stockDown", s.stock.count));
  } else if (s.waste.count) {
    stock.textContent = "↻";
    stock.setAttribute("aria-label", t("stockRecycle", s.recycles + 1));
  } else {
    stock.textContent = t("empty");
    stock.classList.add("spent");  // a word, not a symbol: sized to stay inside the slot
    stock.setAttribute("aria-label", t("stockBoth", s.stock.refusal ? tx(s.stock.refusal) : ""));
  }
  if (hint && hint.from_place === "stock") stock.classList.add("hinted");

  // waste: the fan, only the top card playable
  const waste = $("waste");
  waste.textContent = "";
  const fan = s.waste.fan;
  fan.forEach((card, i) => {
    const top = i === fan.length - 1;
    const el = document.createElement(top ? "button" : "div");
    el.className = `card ${top ? "" : "buried"}`;
    face(el, card);
    el.style.left = `calc(var(--card-w) * ${0.5 * i})`;
    if (top) {
      el.type = "button";
      el.dataset.place = "waste";
      el.tabIndex = -1;
      el.setAttribute("aria-label", t("wasteTop", sp(card), s.waste.count));
      if (s.selected === "waste") el.classList.add("selected");
      if (hint && hint.from_place === "waste") el.classList.add("hinted");
    } else {
      el.setAttribute("role", "img");
      el.setAttribute("aria-label", t("buried", sp(card)));
    }
    waste.append(el);
  });
  waste.setAttribute("aria-label", fan.length ? t("wasteFan", fan.map(sp).join(", "), sp(fan[fan.length - 1])) : t("wasteEmpty"));

  // foundations
  const fnd = $("foundations");
  fnd.textContent = "";
  for (const f of s.foundations) {
    const b = document.createElement("button");
    b.type = "button";
    b.id = `f-${f.suit}`;
    b.className = "card slot foundation";
    b.dataset.place = f.place;
    b.dataset.drop = f.place;
    b.dataset.focus = f.place;
    b.tabIndex = -1;
    if (f.top) {
      b.classList.add("has-card");
      face(b, f.top);
      b.setAttribute("aria-label", t("foundation", t("suit", s.foundations.indexOf(f)), f.count, sp(f.top)));
    } else {
      b.textContent = f.suit === "C" ? "♣" : f.suit === "D" ? "♦" : f.suit === "H" ? "♥" : "♠";
      b.setAttribute("aria-label", t("foundationEmpty", t("suit", s.foundations.indexOf(f))));
    }
    if (s.selected === f.place) b.classList.add("selected");
    if (isTarget(f.place)) b.classList.add("target");
    if (hint && (hint.to_place === f.place || hint.from_place === f.place)) b.classList.add("hinted");
    fnd.append(b);
  }

  // columns
  const cols = $("columns");
  cols.textContent = "";
  for (const col of s.columns) {
    const c = document.createElement("div");
    c.className = "column";
    c.id = `col-${col.col + 1}`;
    c.dataset.drop = col.name;
    c.dataset.focus = col.name;
    c.dataset.col = col.col;
    c.tabIndex = -1;
    c.setAttribute("role", "group");
    let label = app.lang === "ja" && col.label_ja ? col.label_ja : col.label;
    if (isTarget(col.name)) { c.classList.add("target"); label += t("targetCol"); }
    c.setAttribute("aria-label", label);
    if (!col.cards.length) c.classList.add("empty-col");
    let y = 0;
    const steps = columnSteps(col);
    col.cards.forEach((card) => {
      const el = document.createElement(card.face_down ? "div" : "button");
      el.className = "card";
      el.style.top = `${y}px`;
      if (card.face_down) {
        el.classList.add("back");
        el.setAttribute("role", "img");
        el.setAttribute("aria-label", t("faceDown"));
        y += steps.down;
      } else {
        el.type = "button";
        el.tabIndex = -1;
        face(el, card);
        el.dataset.place = card.place;
        el.dataset.count = card.count;
        el.setAttribute("aria-label", t("cardLabel", sp(card), card.count - 1, col.col + 1));
        if (s.selected && samePlace(s.selected, card.place, col.name)) el.classList.add("selected");
        if (hint && (hint.from_place === card.place || (hint.to_place === col.name && card.count === 1))) el.classList.add("hinted");
        y += steps.up;
      }
      c.append(el);
    });
    if (hint && hint.to_place === col.name && !col.cards.length) c.classList.add("hinted");
    c.style.minHeight = `calc(${y}px + var(--card-h))`;
    cols.append(c);
  }

  // buttons and status
  setDisabled($("undo"), s.can_undo ? null : t("noUndo"));
  setDisabled($("redo"), s.can_redo ? null : t("noRedo"));
  setDisabled($("restart"), s.moves ? null : t("noRestart"));  // at the deal's start it would do nothing
  const third = $("third");
  third.className = "";
  setDisabled(third, null);
  if (app.finishing) {
    third.innerHTML = `${t("stop")} <kbd>F</kbd>`; third.classList.add("finishing");
    third.setAttribute("aria-label", t("stopLabel"));
  } else if (s.finish.available) {
    third.innerHTML = `${app.lang === "ja" ? s.finish.label_ja : s.finish.label} <kbd>F</kbd>`; third.classList.add("finish");
    third.setAttribute("aria-label", t("finishLabel"));
  } else {
    third.innerHTML = `${t(s.stock.action)} <kbd>Space</kbd>`;
    third.setAttribute("aria-label", t(`${s.stock.action}Label`, s.draw_count));
    setDisabled(third, s.stock.refusal ? tx(s.stock.refusal) : null);
  }
  $("status-moves").textContent = t("moves", s.moves);
  $("status-recycles").textContent = t("recycles", s.recycles);
  $("status-up").textContent = t("up", s.cards_up);
  $("status-counts").textContent = t("counts", s.face_down, s.operations, s.hints);
  const handBuilt = !s.deal.id && !s.deal.code;  // the server names it in English: say it in the page's language
  const chip = handBuilt ? t("handBuilt") : s.deal.label;
  $("copy-deal").textContent = chip.length > 40 ? t("codeChip", chip.slice(0, 12)) : chip;
  $("copy-deal").title = t("copyTitle", chip);
  $("deal-type").value = MENU_DEAL_TYPES.includes(s.deal.type) ? s.deal.type : "random";
  renderDraw(s);

  const note = app.chanceNote && app.chanceNote.key === positionKey(s) ? app.chanceNote : null;
  if (app.hintPending) message(ct("checking"), "info");
  else if (app.chancePending) message(t("chanceAsking"), "info");
  else if (note) message(tx(note), note.kind, note.ja);  // the latest asked: a hint clears it (hintArrived)
  else if (s.hint && s.hint.kind === "move") {
    message(hintLine(s.hint), "info", s.hint.ja);
  } else if (s.hint && s.hint.kind === "looping") message(tx(s.hint), "info", s.hint.ja);
  else if (s.message) message(tx(s.message), s.message.kind, s.message.ja);
  else if (s.outcome === "win") message(t("wonNote"), "info");
  else if (s.outcome === "no_progress") message(t("noProgressNote"), "warning");  // moves remain: said, not a panel
  else if (!app.keepMessage) message("");
  app.keepMessage = false;
  renderVerdict();
  restoreFocus();
}

function foundationRect(suit) {  // where a suit's cards leave from in the celebration
  const el = $(`f-${suit}`);
  return el ? el.getBoundingClientRect() : {left: window.innerWidth / 2, top: 0};
}

function samePlace(selected, place, colName) {
  // the selected run starts at this card or above it in the same column
  if (!selected.startsWith("c")) return false;
  const [sc, sn] = selected.split(":");
  const [pc, pn] = place.split(":");
  return sc === pc && sc === colName && Number(pn || 1) <= Number(sn || 1);
}

function stepPx(name) {  // the vertical offset of a face-down or face-up card in a column
  const h = ($("stock").offsetWidth || 60) * 1.4;
  return Math.round(h * (name === "--down-step" ? 0.12 : 0.3));
}

// The column's steps, squeezed so that its last card stays in view: first the face-up step, down to
// the height of a card's corner (rank and suit), then the face-down cards' step, then the face-up
// step again, down to 14% of a card's height.
function columnSteps(col) {
  const h = ($("stock").offsetWidth || 60) * 1.4;
  const natural = {down: stepPx("--down-step"), up: stepPx("--up-step")};
  const up = col.cards.filter((c) => !c.face_down).length, hidden = col.face_down;
  const area = document.querySelector(".play-area");
  const top = $("columns").getBoundingClientRect().top - area.getBoundingClientRect().top + area.scrollTop;
  const room = area.clientHeight - top - h - 8;
  const fits = (down, upStep) => hidden * down + Math.max(up - 1, 0) * upStep <= room;
  if (up < 2 || fits(natural.down, natural.up)) return natural;
  const corner = Math.round(h * 0.2);  // the corner's rank and suit (one line beside each other, or two)
  const squeezed = (down) => Math.floor((room - hidden * down) / (up - 1));
  if (squeezed(natural.down) >= corner) return {down: natural.down, up: squeezed(natural.down)};
  const down = Math.max(Math.round(h * 0.04), Math.min(natural.down, Math.floor((room - (up - 1) * corner) / Math.max(hidden, 1))));
  return {down, up: Math.max(Math.round(h * 0.14), Math.min(natural.up, squeezed(down)))};
}

// ------------------------------------------------------------------ animation
function cardRects() {
  const out = new Map();
  for (const el of document.querySelectorAll("#table [data-card]")) {
    if (!el.classList.contains("buried")) out.set(el.dataset.card, el.getBoundingClientRect());
  }
  return out;
}

function animateFrom(rects) {
  for (const el of document.querySelectorAll("#table [data-card]")) {
    const before = rects.get(el.dataset.card);
    if (!before) continue;
    const after = el.getBoundingClientRect();
    const dx = before.left - after.left, dy = before.top - after.top;
    if (Math.abs(dx) < 2 && Math.abs(dy) < 2) continue;
    el.animate([{transform: `translate(${dx}px, ${dy}px)`, zIndex: 30}, {transform: "none", zIndex: 30}],
               {duration: app.finishing ? 180 : 140, easing: "ease-out"});
  }
}

function stopTravel() { for (const g of document.querySelectorAll(".hint-ghost")) g.remove(); }

function travel(fromEl, toEl, {duration = 600, iterations = 1} = {}) {  // a clone flying along the hint, once
  if (!fromEl || !toEl) return;
  const a = fromEl.getBoundingClientRect(), b = toEl.getBoundingClientRect();
  const ghost = fromEl.cloneNode(true);
  ghost.removeAttribute("id");
  ghost.classList.add("ghost", "hint-ghost");
  ghost.setAttribute("aria-hidden", "true");
  Object.assign(ghost.style, {left: `${a.left}px`, top: `${a.top}px`, width: `${a.width}px`, height: `${a.height}px`});
  ghost.style.setProperty("--card-w", `${a.width}px`);  // outside the table: its card size in px
  ghost.style.setProperty("--card-h", `${a.height}px`);
  document.body.append(ghost);
  const dy = b.top - a.top + (toEl.closest(".column") && !toEl.classList.contains("column") ? stepPx("--up-step") / 2 : 0);
  const anim = ghost.animate([{transform: "none", opacity: 1}, {transform: `translate(${b.left - a.left}px, ${dy}px)`, opacity: .9}],
                             {duration, iterations, easing: "ease-in-out"});
  anim.onfinish = () => ghost.remove();
}

function previewHint() {
  const h = app.state && app.state.hint;
  if (!h || h.kind !== "move") return;
  if (h.from_place === "stock") return;  // draw or recycle: the stock is framed, nothing flies over the waste
  travel(placeElement(h.from_place), placeElement(h.to_place));
}

function placeElement(place) {
  if (!place) return null;
  if (place === "stock") return $("stock");
  if (place === "waste") return document.querySelector('#waste [data-place="waste"]');
  if (place.startsWith("f")) return $(`f-${place[1]}`);
  const [c] = place.split(":");
  const exact = document.querySelector(`#columns [data-place="${place}"]`);
  return exact || $(`col-${c.slice(1)}`);
}

// ------------------------------------------------------------------ verdicts
async function requestVerdict() {
  const s = app.state;
  if (!s || s.outcome === "win") { $("verdict").textContent = ""; return; }
  await pollVerdict("/api/klondike/games");
}

function renderVerdict() {
  const v = app.state && app.state.verdict;
  if (v && app.offline) {  // a verdict is for the position the server last saw: not fresh while it is unreachable
    $("verdict").textContent = t("verdict", ct("verdictOffline"));
    $("verdict").dataset.status = "offline";
    return;
  }
  $("verdict").textContent = v ? t("verdict", tx(v)) : "";
  $("verdict").dataset.status = v ? v.status : "";
}

// ------------------------------------------------------------------ panels
function behindPanel() {
  return [document.querySelector("header.top"), $("notices"), $("game-view"), $("rules"), $("run-panel")];
}

function refocus(back) { if (back.isConnected) back.focus(); else restoreFocus(); }

function exits(withUndo) {
  const list = [[t("newDeal"), () => newDeal({force: true})], [t("sameDeal"), () => replayDeal()],
                [t("viewBoard"), () => {}]];
  if (withUndo && app.state && app.state.moves > 0) list.push([t("undo"), () => act({type: "undo"})]);
  list.push(analyseExit("klondike"));
  return list;
}

function showResult() {
  const s = app.state;
  openPanel(t("won"), [
    para(t("resultLine", formatTime(currentMs()), s.moves, s.recycles, s.cards_up)),
    para(t("resultCounts", s.hints, s.operations)), dealCopyButton(),
  ], exits(false), "result");
}

function showDeadEnd() {
  const s = app.state;
  openPanel(t("deadTitle"), [para(tx(s.outcome_text))], exits(true), "dead-end");
}

function showNoProgress() {  // from the no-progress hint, or the outcome a move reached
  const s = app.state, why = s.hint && s.hint.kind === "no_progress" ? s.hint : s.outcome_text;
  openPanel(t("noProgressTitle"), [para(tx(why)), para(t("noProgressBody"))],
    [[t("close"), () => {}], ...exits(true)], "no-progress");
}

// ------------------------------------------------------------------ deals and actions
const MENU_DEAL_TYPES = ["random", "winnable", "daily"];  // the deal-type menu's options

// A new deal of the type and draw chosen in the menu. "daily" (today's daily deal, stats.js) when
// chosen in the menu now or when the draw changes in a daily game: New deal after one is a random deal.
function newDeal({force = false, dealType, draw} = {}) {
  const menuType = $("deal-type").value;
  const type = dealType || (menuType === "daily" && !draw ? "random" : menuType);
  const drawCount = draw || chosenDraw();
  if (type === "daily") return dailyDeal({draw: drawCount, force});
  const start = () => queue(() => startGame({...(type === "winnable" ? {deal_type: "winnable"} : {}), draw_count: drawCount}));
  return force ? start() : confirmReplace(start);
}

function openDeal(text) {  // the deal is checked first; a bad one keeps its text in the box, said plainly
  if (/^pyramid-/i.test(text)) {  // another game's deal: where it opens
    message(app.lang === "ja" ? `「${text}」はピラミッドの配りです。ピラミッドのページ（/?deal=…）で開いてください。`
      : `"${text}" is a Pyramid deal: open it on the Pyramid page.`, "error");
    return Promise.resolve();
  }
  return queue(async () => {
    const state = await checkedDeal({deal: text, draw_count: chosenDraw()}, t("dealWhat"));
    if (state) confirmReplace(() => queue(() => adoptGame(state)));
  });
}

function replayDeal() {
  const s = app.state;
  if (!dealName(s)) return act({type: "restart"});  // a hand-built position: back to its start
  return queue(() => startGame({deal: dealName(s), draw_count: s.draw_count}));
}

function hintArrived() {  // the no-progress notice opens its panel; a move is shown flying once
  const h = app.state.hint;
  if (app.chanceNote) { app.chanceNote = null; render(); }  // the hint is the latest asked: its line shows
  if (h && h.kind === "no_progress") showNoProgress();
  else previewHint();
}

function tapStock() { act({type: "stock"}); }

function tapPlace(place) {
  if (!app.state || app.paused) return;
  act({type: "tap", place});
}

// ------------------------------------------------------------------ auto-finish
function toggleFinish() {
  if (app.finishing) { stopFinish(); return; }
  if (!app.state || !app.state.finish.available || app.paused) {
    if (app.state && !app.state.finish.available) message(t("noFinish"), "error");
    return;
  }
  app.finishing = true;
  render();
  queue(finishLoop);
}

async function finishLoop() {
  while (app.finishing && app.state && app.state.outcome !== "win") {
    try { await send({type: "finish"}, {quiet: true}); }
    catch (e) { showError(e); break; }
    if (!app.finishing) break;
    await new Promise((r) => setTimeout(r, app.finishDelay));
  }
  stopFinish();
}

function stopFinish() {
  if (!app.finishing) return;
  app.finishing = false;
  if (app.state) render();
}

// ------------------------------------------------------------------ pointer: tap, drag, long-press
function sourceAt(el) {  // the draggable place under an element, if any
  const card = el && el.closest("[data-place]");
  if (!card || card.closest("#run-panel")) return null;
  const place = card.dataset.place;
  if (place.startsWith("f") && !card.classList.contains("has-card")) return null;
  return {el: card, place};
}

function onPointerDown(event) {
  if (event.button !== 0 || !app.state || app.paused) return;
  if (app.gesture) {  // one gesture at a time: a second finger is ignored; a lost one is dropped
    if (event.pointerType === "touch" && app.gesture.type === "touch") return;
    abandonGesture(app.gesture);
  }
  if (app.run && !app.run.pointer) return;
  const column = event.target.closest(".column");
  let src = sourceAt(event.target);
  const drop = src || column ? null : event.target.closest("[data-drop]");  // an empty foundation
  if (!src && !column && !drop) return;
  const sel = app.state.selected;
  if (src && sel && column && sel.split(":")[0] === src.place.split(":")[0] &&
      Number(src.place.split(":")[1] || 1) <= Number(sel.split(":")[1] || 1)) {
    const first = column.querySelector(`[data-place="${sel}"]`);  // inside the selected run: drag the run
    if (first) src = {el: first, place: sel};
  }
  app.gesture = {id: event.pointerId, type: event.pointerType, x: event.clientX, y: event.clientY, src, column, dragging: false, ghost: null,
                 timer: null, drop: drop ? drop.dataset.drop : null};
  if (column) {
    app.gesture.timer = setTimeout(() => {
      const g = app.gesture;
      if (!g || g.dragging) return;
      g.longPress = true;
      openRun(Number(column.dataset.col), src ? src.place : null, true);
    }, LONG_PRESS_MS);
  }
  if (event.target.setPointerCapture) { try { event.target.releasePointerCapture(event.pointerId); } catch (e) { /* none */ } }
}

function onPointerMove(event) {
  const g = app.gesture;
  if (!g || g.id !== event.pointerId) return;
  if (g.longPress) { slideRun(event); event.preventDefault(); return; }
  const far = Math.hypot(event.clientX - g.x, event.clientY - g.y) > DRAG_PX;
  if (!g.dragging && far) {
    clearTimeout(g.timer);
    if (!g.src) { app.gesture = null; return; }
    startDrag(g);
  }
  if (g.dragging) {
    event.preventDefault();
    g.ghost.style.left = `${event.clientX - g.offX}px`;
    g.ghost.style.top = `${event.clientY - g.offY}px`;
  }
}

function startDrag(g) {
  g.dragging = true;
  const els = dragElements(g.src);
  const first = els[0].getBoundingClientRect();
  g.origin = first;
  g.offX = g.x - first.left; g.offY = g.y - first.top;
  const ghost = document.createElement("div");
  ghost.className = "ghost lifted";
  // the ghost lives outside the table, where --card-w is not defined: it takes the table's card size in px
  Object.assign(ghost.style, {left: `${first.left}px`, top: `${first.top}px`, width: `${first.width}px`,
                              transformOrigin: `${g.offX}px ${g.offY}px`});
  ghost.style.setProperty("--card-w", `${first.width}px`);
  ghost.style.setProperty("--card-h", `${first.height}px`);
  for (const el of els) {
    const r = el.getBoundingClientRect();
    const clone = el.cloneNode(true);
    clone.removeAttribute("data-place");
    clone.style.top = `${r.top - first.top}px`;
    clone.style.left = "0px";
    ghost.append(clone);
    el.classList.add("dragging");
  }
  document.body.append(ghost);
  g.ghost = ghost;
  g.els = els;
}

function dragElements(src) {
  const el = src.el;
  if (!el.closest(".column")) return [el];
  const siblings = [...el.closest(".column").children];
  return siblings.slice(siblings.indexOf(el));
}

function onPointerUp(event) {
  const g = app.gesture;
  if (!g || g.id !== event.pointerId) return;
  clearTimeout(g.timer);
  app.gesture = null;
  app.lastPointerTap = Date.now();
  if (g.longPress) { releaseRun(); return; }
  if (g.dragging) { finishDrag(g, event); return; }
  // a tap
  if (app.run) return;
  if (g.src && secondTap(g.src.place, event)) return;
  if (g.src && g.src.place.startsWith("f") && !app.state.selected) {
    act({type: "select", place: g.src.place});  // a foundation card is never pulled back by one tap: it is selected
  }
  else if (g.src) tapPlace(g.src.place);
  else if (g.column) tapPlace(g.column.dataset.drop);
  else if (g.drop) tapPlace(g.drop);
}

// One gesture is one move (issue 51): the second tap of a double tap (or click) never plays the card
// that the first tap uncovered. If the first tap only selected the card (it had several targets) and a
// foundation is one of them, the double tap sends it there, as in the apps players come from.
function secondTap(place, event) {
  const now = Date.now(), prev = app.lastTap;
  app.lastTap = {at: now, x: event.clientX, y: event.clientY, place};
  if (!prev || now - prev.at > DOUBLE_TAP_MS || Math.hypot(event.clientX - prev.x, event.clientY - prev.y) > DOUBLE_TAP_PX) {
    return false;
  }
  app.lastTap = null;
  queue(async () => {  // after the first tap's answer: the state it left
    const s = app.state;
    if (!s || s.selected !== prev.place) return;
    const home = s.selected_targets.find((t) => t.startsWith("f"));
    if (home) await send({type: "move", source: s.selected, target: home}).catch(() => false);
  });
  return true;
}

function onPointerCancel(event) {
  const g = app.gesture;
  if (g && g.id === event.pointerId) abandonGesture(g);
}

function abandonGesture(g) {
  clearTimeout(g.timer);
  app.gesture = null;
  if (g.ghost) returnGhost(g);
  if (g.longPress) closeRun();
}

function dropTargetAt(x, y) {
  const el = document.elementFromPoint(x, y);
  const t = el && el.closest("[data-drop]");
  return t ? t.dataset.drop : null;
}

function finishDrag(g, event) {
  const target = dropTargetAt(event.clientX, event.clientY);
  const from = g.src.place;
  if (!target || target === from.split(":")[0] || (from === "waste" && target === "waste")) { returnGhost(g); return; }
  queue(async () => {
    try {
      await send({type: "move", source: from, target}, {quiet: true});
      g.ghost.remove();
    } catch (e) {
      showError(e);
      returnGhost(g);
    }
  });
}

function returnGhost(g) {  // the refused drop: the cards slide back where they were, set down as they land
  const ghost = g.ghost;
  const dx = g.origin.left - parseFloat(ghost.style.left), dy = g.origin.top - parseFloat(ghost.style.top);
  ghost.classList.add("returning");
  const done = () => { ghost.remove(); for (const el of g.els) el.classList.remove("dragging"); };
  if (reducedMotion()) { done(); return; }
  const anim = ghost.animate([{transform: "none", scale: "1.06"}, {transform: `translate(${dx}px, ${dy}px)`, scale: "1"}],
                             {duration: 240, easing: "ease-out", fill: "forwards"});
  anim.onfinish = done;
}

// ------------------------------------------------------------------ the run panel
function faceUpCards(col) {
  return app.state.columns[col].cards.filter((c) => !c.face_down);
}

function openRun(col, place, pointer) {
  const cards = faceUpCards(col);
  if (!cards.length) return;
  let index = cards.length - 1;
  if (place) { const i = cards.findIndex((c) => c.place === place); if (i >= 0) index = i; }
  app.run = {col, cards, index, pointer, last: null, repeat: null};
  const panel = $("run-panel");
  panel.hidden = false;
  const colEl = $(`col-${col + 1}`).getBoundingClientRect();
  const width = panel.offsetWidth || 150;  // beside the column, so the run stays in view
  const left = colEl.right + 6 + width <= window.innerWidth ? colEl.right + 6 : Math.max(4, colEl.left - width - 6);
  const cardEl = document.querySelector(`#col-${col + 1} [data-place="${cards[index].place}"]`);
  const top = cardEl ? cardEl.getBoundingClientRect().top - 40 : colEl.top;
  panel.style.left = `${left}px`;
  panel.style.top = `${Math.max(4, Math.min(top, window.innerHeight - (panel.offsetHeight || 180) - 4))}px`;
  renderRun();
  if (!pointer) $("run-preview").focus();
}

function renderRun() {
  const r = app.run;
  const card = r.cards[r.index];
  const n = r.cards.length - r.index;
  $("run-preview").textContent = t("runPreview", sp(card), n);
  $("run-preview").setAttribute("aria-label", t("runLabel", sp(card), n));
  setDisabled($("run-up"), r.index > 0 ? null : t("runFirst"));
  setDisabled($("run-down"), r.index < r.cards.length - 1 ? null : t("runLast"));
  document.querySelectorAll(`#col-${r.col + 1} .card`).forEach((el) => {
    el.classList.toggle("selected", !!el.dataset.count && Number(el.dataset.count) <= n);
  });
}

function stepRun(delta) {
  const r = app.run;
  if (!r) return;
  const next = r.index + delta;
  if (next < 0 || next >= r.cards.length) return;
  r.index = next;
  renderRun();
}

function slideRun(event) {  // finger held down: sliding onto an arrow moves the start
  const el = document.elementFromPoint(event.clientX, event.clientY);
  const over = el && el.closest(".run-arrow");
  const r = app.run;
  if (!r) return;
  const id = over ? over.id : null;
  if (id !== r.last) {
    clearInterval(r.repeat); clearTimeout(r.repeat);
    $("run-up").classList.toggle("active", id === "run-up");
    $("run-down").classList.toggle("active", id === "run-down");
    r.last = id;
    if (id) {
      const delta = id === "run-up" ? -1 : 1;
      stepRun(delta);  // held: one step now, the next after 0.8 s (issue 51: 0.6 s stepped twice), then every 0.4 s
      r.repeat = setTimeout(() => { stepRun(delta); r.repeat = setInterval(() => stepRun(delta), 400); }, 800);
    }
  }
}

function releaseRun() {
  const r = app.run;
  if (!r) return;
  clearInterval(r.repeat);
  confirmRun();
}

function confirmRun() {
  const r = app.run;
  if (!r) return;
  const place = r.cards[r.index].place;
  closeRun();
  act({type: "select", place});
}

function closeRun() {
  const r = app.run;
  if (r) clearInterval(r.repeat);
  app.run = null;
  $("run-panel").hidden = true;
  $("run-up").classList.remove("active"); $("run-down").classList.remove("active");
  if (r && app.state) { render(); focusPlace(`c${r.col + 1}`); }
}

// ------------------------------------------------------------------ pause
function resume() { app.paused = false; startClock(); }

// ------------------------------------------------------------------ saving
function save() {
  const s = app.state;
  if (!savable()) return;
  writeSave({format: SAVE_FORMAT, writer: tabId, saved_at: Date.now(), game: "klondike",
             deal: dealName(s), session: dealName(s) ? null : s.session, label: s.deal.label, deal_type: s.deal.type,
             history: s.history, redo: s.redo, seen: s.seen, active_ms: Math.round(currentMs()),
             operations: s.operations, hints: s.hints, hinted: s.hinted || [], won: s.outcome === "win",
             draw_count: s.draw_count});
}

function validSave(data) { return typeof data.deal === "string" || typeof data.session === "string"; }

function record() {
  const s = app.state;
  const code = dealName(s) || `position ${s.session}`;
  keepRecord((r) => r.type === s.deal.type && r.code === code && recordDraw(r) === s.draw_count,
             () => ({type: s.deal.type, draw: s.draw_count, code, label: s.deal.label, time_ms: Math.round(currentMs()), moves: s.moves,
                    recycles: s.recycles, operations: s.operations, hints: s.hints, at: new Date().toISOString()}));
}

function recordGroup(r) {  // the draw and the deal type, in the page's language: "draw 1 · random"
  return t("drawGroup", recordDraw(r), t("dealTypes")[r.type] || r.type);
}

function recordsTable(items) {
  const table = document.createElement("table");
  const head = document.createElement("tr");
  for (const h of t("recordsHead")) { const th = document.createElement("th"); th.textContent = h; head.append(th); }
  table.append(head);
  for (const r of items) {
    const tr = document.createElement("tr");
    recordCells(tr, [recordGroup(r), shortLabel(r.label), formatTime(r.time_ms), r.moves, r.recycles, r.hints]);
    table.append(tr);
  }
  return table;
}

function chanceDrop(a, b) { return {en: WORDS.en.chanceDrop(a.en, b.en), ja: WORDS.ja.chanceDrop(a.ja, b.ja)}; }  // the warning
function chanceLost() {  // the chance beside a verdict that proves the loss (the server's words for it)
  return {en: "Chance of winning from here: none, every card is known and no winning line exists.",
          ja: "ここから勝てる見込み：ありません（すべての札が見えていて、勝つ手順がありません）"};
}

// ------------------------------------------------------------------ draw 1
// The menu's draw (1 or 3) beside the deal type: it shows the game in play's draw, a change deals a
// new game in the other one, and the draw of the latest game started is kept for the next visit.
function chosenDraw() { return $("draw-count").value === "1" ? 1 : 3; }
function recordDraw(r) { return r.draw === 1 ? 1 : 3; }  // a record from before draw 1 is a draw-3 win
function storedDraw() {
  try { return app.storage && app.storage.getItem(DRAW_KEY) === "1" ? 1 : 3; } catch (e) { return 3; }
}
function keepDraw(n) {
  try { if (app.storage && (n === 1 || n === 3)) app.storage.setItem(DRAW_KEY, String(n)); } catch (e) { /* not kept */ }
}
function renderDraw(s) {  // the menu's draw, the header's "draw N", the tab's title, the hint sources' note
  $("draw-count").value = String(s.draw_count === 1 ? 1 : 3);
  $("draw-title").textContent = t("drawTitle", s.draw_count);
  document.title = t("pageTitle", s.draw_count);
  $("hint-source").title = s.draw_count === 1 ? t("draw3OnlyTitle") : "";
}

// ------------------------------------------------------------------ keyboard and focus
function focusRing() {
  return ["stock", "waste", "fC", "fD", "fH", "fS", "c1", "c2", "c3", "c4", "c5", "c6", "c7"];
}

function focusElement(key) {
  if (key === "stock") return $("stock");
  if (key === "waste") return $("waste");
  if (key.startsWith("f")) return $(`f-${key[1]}`);
  return $(`col-${key.slice(1)}`);
}

function focusPlace(key) {
  const el = focusElement(key);
  if (!el) return;
  for (const k of focusRing()) { const e = focusElement(k); if (e) e.tabIndex = -1; }
  el.tabIndex = 0;
  app.focusKey = key;
  el.focus();
}

function restoreFocus() {
  const key = app.focusKey || "stock";
  for (const k of focusRing()) { const e = focusElement(k); if (e) e.tabIndex = k === key ? 0 : -1; }
  const active = document.activeElement;
  if (app.focusKey && (!active || active === document.body || !document.contains(active))) {
    const el = focusElement(app.focusKey);
    if (el && $("overlay").hidden && !app.run) el.focus();
  }
}

function currentFocusKey() {
  const el = document.activeElement;
  const holder = el && el.closest && el.closest("[data-focus]");
  return holder ? holder.dataset.focus : null;
}

function moveFocus(delta) {
  const ring = focusRing();
  const key = currentFocusKey() || app.focusKey;
  const i = key ? ring.indexOf(key) : -1;
  const next = i < 0 ? (delta > 0 ? 0 : ring.length - 1) : (i + delta + ring.length) % ring.length;
  focusPlace(ring[next]);
}

function enterOnFocus() {
  const key = currentFocusKey();
  if (!key) return false;
  if (key === "stock") tapStock();
  else tapPlace(key);
  return true;
}

function onKey(event) {
  if (ignoredKey(event)) return;
  if (app.run) {
    const keys = {ArrowUp: () => stepRun(-1), ArrowDown: () => stepRun(1), Enter: confirmRun, Escape: closeRun};
    if (keys[event.key]) { event.preventDefault(); keys[event.key](); }
    return;
  }
  if (panelOrRulesKey(event, ["records", "confirm", "result", "no-progress", "dead-end"])) return;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  const handlers = {
    u: () => act({type: "undo"}), h: hint, c: chance, n: () => newDeal(), f: toggleFinish, " ": tapStock,
    Escape: () => act({type: "clear"}),
    ArrowLeft: () => moveFocus(-1), ArrowRight: () => moveFocus(1),
    ArrowUp: () => runFromFocus(), ArrowDown: () => runFromFocus(),
    Enter: () => { if (!enterOnFocus()) return "default"; },
  };
  if (handlers[key]) {
    if (key === "Enter" && event.target.tagName === "BUTTON" && !event.target.closest("#table")) return;
    event.preventDefault();
    handlers[key]();
  }
}

function runFromFocus() {
  const key = currentFocusKey();
  if (key && key.startsWith("c")) openRun(Number(key.slice(1)) - 1, null, false);
}

// ------------------------------------------------------------------ start
function wire() {
  const table = $("table");
  table.addEventListener("pointerdown", onPointerDown);
  window.addEventListener("pointermove", onPointerMove, {passive: false});
  window.addEventListener("pointerup", onPointerUp);
  window.addEventListener("pointercancel", onPointerCancel);
  table.addEventListener("contextmenu", (e) => e.preventDefault());
  const area = document.querySelector(".play-area");  // the table never scrolls: long columns are squeezed
  area.addEventListener("scroll", () => { if (area.scrollTop) area.scrollTop = 0; });
  window.addEventListener("resize", () => { if (app.state) render(); });
  table.addEventListener("click", (e) => {  // a click with no pointer before it: a screen reader's activation
    if (Date.now() - app.lastPointerTap < 800 || e.target.closest("#stock")) return;
    const el = e.target.closest("[data-place]");
    const col = e.target.closest(".column");
    if (el) tapPlace(el.dataset.place);
    else if (col) tapPlace(col.dataset.drop);
  });
  $("stock").addEventListener("click", () => { focusPlace("stock"); tapStock(); });
  table.addEventListener("focusin", (e) => {
    const holder = e.target.closest("[data-focus]");
    if (holder) app.focusKey = holder.dataset.focus;
  });
  $("run-up").addEventListener("click", () => { if (app.run && !app.run.pointer) stepRun(-1); });
  $("run-down").addEventListener("click", () => { if (app.run && !app.run.pointer) stepRun(1); });
  $("run-preview").addEventListener("click", () => { if (app.run && !app.run.pointer) confirmRun(); });
  $("third").addEventListener("click", () => {
    if (app.finishing || (app.state && app.state.finish.available)) toggleFinish(); else tapStock();
  });
  $("restart").addEventListener("click", () => act({type: "restart"}));
  $("deal-type").addEventListener("change", () => {  // a new deal of the chosen type (asks first if moves would be lost)
    const type = $("deal-type").value;
    if (app.state) $("deal-type").value = MENU_DEAL_TYPES.includes(app.state.deal.type) ? app.state.deal.type : "random";
    newDeal({dealType: type});
  });
  $("draw-count").addEventListener("change", () => {  // a new deal in the chosen draw (asks first if moves would be lost)
    const draw = chosenDraw();
    if (app.state) renderDraw(app.state);  // the menu tells the game in play until the new one starts
    newDeal({draw});
  });
  $("deal-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("deal-input").value.trim();
    $("deal-input").blur();
    if (text) openDeal(text);
  });
}

async function main() {
  openPage(browserLanguage);
  wireChance();
  const attach = new URLSearchParams(location.search).get("session");
  if (attach) {  // open a game already on the server (a hand-built position, a tool's link)
    return queue(async () => {
      try { setState(await api("GET", `/api/klondike/games/${encodeURIComponent(attach)}`)); startClock(); }
      catch (e) { showError(e); await startGame({}); }
    });
  }
  const s = savedGame(validSave);
  if (!s) return queue(() => startGame({draw_count: storedDraw()}));
  return queue(async () => {
    const body = {history: s.history, redo: s.redo, seen: s.seen.filter((c) => Number.isInteger(c) && c >= 0 && c < 52),
                  operations: Math.max(0, s.operations), hints: Math.max(0, s.hints), hinted: savedHinted(s),
                  draw_count: s.draw_count === 1 ? 1 : 3};  // a save from before draw 1 is draw 3
    try {
      if (typeof s.deal !== "string") {  // a hand-built position lives on the server only
        const state = await api("GET", `/api/klondike/games/${encodeURIComponent(s.session)}`);
        app.activeMs = Math.max(0, s.active_ms);
        setState(state);
        if (s.won) tick(); else pause();
        return;
      }
      body.deal = s.deal;
      const live = await liveGame(s);  // the server still has it: its latest state (moves from other tabs kept)
      if (live) return void adoptGame(live, {paused: !s.won, activeMs: Math.max(0, s.active_ms)});
      await startGame(body, {paused: !s.won, activeMs: Math.max(0, s.active_ms)});
    } catch (e) {
      blockSaving(() => t("noReplay", e.message));
      await startGame({});
    }
  });
}

window.klondikeApp = app;  // for tests and the curious
main();
