// The Pyramid page: sends intents to the server and renders the JSON state it gets back.
// No rule logic here: which cards are usable, their partners and every message come from the server.
"use strict";

const SAVE_KEY = "solitaire-rl.pyramid.save";
const RECORDS_KEY = "solitaire-rl.pyramid.records";
const STOCK = 28, WASTE = 29;
const GAMES = "/api/games";
const WARN_KEY = "solitaire-rl.pyramid.warn-drop";  // "1": warn after a move that lowers the chance sharply

const app = pageApp({
  errorDetail: true,      // a malformed input's Japanese message is followed by what was read
  showFirstStep: false,
  notices: {},            // id -> () => [text, buttons], redrawn when the language changes
});

// ------------------------------------------------------------------ words
function t(key, ...args) {  // the page's words (pyramid_i18n.js), then the words both pages share (common.js)
  const v = (TEXT[app.lang] || TEXT.en)[key];
  if (v === undefined) return ct(key, ...args);
  return typeof v === "function" ? v(...args) : v;
}
function spoken(card) { return app.lang === "ja" ? card.spoken_ja : card.spoken; }

function applyLanguage() {
  document.documentElement.lang = app.lang;
  document.title = t("pageTitle");  // the tab's title in the page's language too (issue 51)
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  for (const el of document.querySelectorAll("[data-t-label]")) el.setAttribute("aria-label", t(el.dataset.tLabel));
  for (const el of document.querySelectorAll("[data-t-placeholder]")) el.placeholder = t(el.dataset.tPlaceholder);
  $("lang").textContent = t("lang");
  $("lang").lang = app.lang === "ja" ? "en" : "ja";
  $("lang").setAttribute("aria-label", t("langLabel"));
  $("rules-en").hidden = app.lang !== "en";
  $("rules-ja").hidden = app.lang !== "ja";
  for (const [id, make] of Object.entries(app.notices)) if ($(id)) notice(id, make);
  if (app.state) render();
}

// ------------------------------------------------------------------ server
async function send(action, retry = true) {
  if (!app.state || app.paused) return;
  app.chanceNote = null;  // the chance line stays until the player does something
  try {
    const before = app.state.history.length;
    setState(await api("POST", `/api/games/${app.state.session}/actions`, {...action, revision: app.state.revision}));
    if (app.state.history.length !== before) sound("snap");  // player.js (muted: nothing)
  } catch (e) {
    if (e.code === "STALE_GAME") await reloadStale();  // another tab played on: the latest game, and why
    if (e.status === 404 && retry) {  // the server forgot this game: restore it from the moves, then act
      await recoverLostGame();
      return send(action, false);
    }
    showError(e);
  }
}

const act = (action) => queue(() => send(action));

async function startGame(body, options = {}) {
  return adoptGame(await api("POST", GAMES, body), options);
}

function adoptGame(state, {paused = false, activeMs = 0} = {}) {  // a new game's state becomes this page's game
  closeMenu();
  stopClock();
  app.activeMs = activeMs;
  app.recorded = state.outcome === "win";
  app.showFirstStep = false;
  closePanel();
  setState(state);
  if (paused) pause(); else startClock();
  return state;
}

async function recoverLostGame() {  // the server forgot this game (restarted or evicted it): replay it
  const s = app.state;
  setState(null);
  const elapsed = currentMs();
  await startGame({variant: s.variant, deal: s.deal.type === "code" ? s.deal.code : s.deal.label,
                   history: s.history, redo: s.redo, seen: s.seen, operations: s.operations, hints: s.hints,
                   hinted: s.hinted || []},
                  {activeMs: elapsed});
}

// ------------------------------------------------------------------ rendering
function setState(state) {
  const previous = app.state;
  noteState(previous, state);
  if (app.chancePending && positionKey(previous) !== positionKey(state)) { app.chancePending = false; app.chanceAsk++; }
  app.state = state;
  if (!state) return;
  if (!previous || previous.session !== state.session || previous.history.length !== state.history.length ||
      previous.history.join() !== state.history.join()) {
    app.showFirstStep = false;
  }
  render();
  save();
  if (!previous || previous.session !== state.session || previous.history.join() !== state.history.join()) {
    requestVerdict();
  }
  if (app.warnDrop && (!app.lastChance || app.lastChance.key !== positionKey(state))) watchChance();
  if (state.outcome === "win" && (!app.recorded || (previous && previous.outcome !== "win"))) {
    app.recorded = true;  // won (again, after an undo): the panel opens; record() never counts a deal twice
    stopClock();
    record();
    celebrate(() => pyramidRect(), showResult);  // player.js: the cards cascade, then the result
  } else if (state.outcome !== "win" && previous && previous.outcome === "win") {
    startClock();  // an undo after the win: play on, the clock runs again
  } else if (state.outcome === "dead_end") {
    showDeadEnd();
  }
}

function render() {
  const s = app.state;
  const partnerSet = new Set(s.selected !== null ? partnersOf(s.selected) : []);
  const hinted = new Set(s.hint ? s.hint.places : []);
  if (app.showFirstStep && s.verdict && s.verdict.first_step_places) s.verdict.first_step_places.forEach((p) => hinted.add(p));
  const focused = document.activeElement && document.activeElement.dataset.place;
  const focusedInList = document.activeElement && document.activeElement.dataset.listPlace;

  // pyramid
  const pyramid = $("pyramid");
  pyramid.textContent = "";
  for (let row = 1; row <= 7; row++) {
    const line = document.createElement("div");
    line.className = "row";
    for (const c of s.pyramid.filter((p) => p.row === row)) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = `card ${c.state}`;
      b.dataset.place = c.place;
      b.id = `card-${c.name}`;
      cardFace(b, c.card);
      const where = t("where", c.row, c.col);
      if (c.state === "removed") { b.tabIndex = -1; b.setAttribute("aria-hidden", "true"); }
      else if (c.state === "covered") {
        b.setAttribute("aria-disabled", "true");
        b.tabIndex = -1;
        const why = app.lang === "ja" ? c.covered_reason_ja : c.covered_reason;
        b.setAttribute("aria-label", `${spoken(c.card)}, ${where}, ${t("covered")}: ${why}`);
      } else {
        b.tabIndex = 0;
        let label = `${spoken(c.card)}, ${where}, ${t("availableWord")}`;
        if (s.selected === c.place) label += t("selectedNeeds", rankWord(s.needed_rank));
        if (partnerSet.has(c.place)) label += t("partnerOfSelected");
        b.setAttribute("aria-label", label);
        b.setAttribute("aria-pressed", String(s.selected === c.place));
      }
      decorate(b, c.place, partnerSet, hinted);
      b.addEventListener("click", () => act({type: "tap", place: c.place}));
      line.append(b);
    }
    pyramid.append(line);
  }

  // stock and waste
  const stock = $("stock");
  stock.className = "card pile-card";
  if (s.stock.top) {
    cardFace(stock, s.stock.top);
    stock.setAttribute("aria-label", t("stockTop", spoken(s.stock.top), s.stock.count));
    decorate(stock, STOCK, partnerSet, hinted);
  } else {
    if (s.stock.count) backFace(stock, s.stock.count);
    else { stock.textContent = t("empty"); stock.classList.add("empty"); }
    stock.setAttribute("aria-label", s.stock.count ? t("stockDown", s.stock.count) : t("stockEmpty"));
  }
  const waste = $("waste");
  waste.className = "card pile-card";
  if (s.waste.top) {
    cardFace(waste, s.waste.top);
    waste.setAttribute("aria-label", t("wasteTop", spoken(s.waste.top), s.waste.count));
    decorate(waste, WASTE, partnerSet, hinted);
  } else {
    waste.textContent = t("empty");
    waste.classList.add("empty");
    waste.setAttribute("aria-label", t("wasteEmpty"));
  }
  $("stock-label").textContent = `${t("stock", s.stock.count)} · ${t("passShort", s.pass, s.passes)}`;
  setDisabled($("draw"), s.draw_refusal);
  setDisabled($("recycle"), s.recycle_refusal);
  $("recycle").setAttribute("aria-label", s.recycle_refusal ? t("recycleUnavailable", tx(s.recycle_refusal)) : t("recycle"));
  $("recycle-reason").textContent = s.recycle_refusal ? tx(s.recycle_refusal) : "";
  $("draw").classList.toggle("hinted", !!s.hint && s.hint.move_kind === "draw");
  $("recycle").classList.toggle("hinted", !!s.hint && s.hint.move_kind === "recycle");
  setDisabled($("undo"), s.can_undo ? null : {en: t("noUndo")});
  setDisabled($("redo"), s.can_redo ? null : {en: t("noRedo")});
  setDisabled($("restart"), s.moves ? null : t("noRestart"));  // at the deal's start it would do nothing

  // status
  $("status-left").textContent = t("left", s.cards_left);
  $("status-pass").textContent = t("pass", s.pass, s.passes, s.recycles_left);
  $("status-stock").textContent = t("stock", s.stock.count);
  $("status-counts").textContent = t("counts", s.moves, s.hints);  // operations: in the result (issue 51)
  $("copy-deal").textContent = s.deal.label.length > 40 ? ct("codeChip", s.deal.label.slice(0, 12)) : s.deal.label;
  $("copy-deal").title = ct("copyTitle", s.deal.label);
  $("variant").value = s.variant;
  $("deal-type").value = s.deal.type === "winnable" ? "winnable" : "random";
  $("deal-type").querySelector('[value="winnable"]').disabled = s.variant !== "001";

  // message: a selection shows the needed rank; a hint its move
  const note = app.chanceNote && app.chanceNote.key === positionKey(s) ? app.chanceNote : null;
  if (app.hintPending) message(ct("checking"), "info");
  else if (app.chancePending) message(t("chanceAsking"), "info");
  else if (note) message(tx(note), note.kind, note.ja);  // the latest asked: a hint clears it (hintArrived)
  else if (s.hint) message(hintLine(s.hint), "info");
  else if (s.message) message(tx(s.message), s.message.kind);
  else if (s.outcome === "win") message(t("wonNote"), "info");
  else if (s.outcome === "dead_end") message(t("deadNote"), "info");  // after View the board
  else message("");
  renderVerdict();

  // the large-button list of available cards
  const list = $("available-list");
  list.textContent = "";
  for (const u of s.usable) {  // the exposed pyramid cards, then the usable stock and waste tops
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.listPlace = u.place;
    const where = app.lang === "ja" ? u.label_ja : u.label;
    b.textContent = `${spoken(u.card)} — ${where}`;
    let label = `${spoken(u.card)}, ${where}`;
    if (s.selected === u.place) { b.classList.add("selected"); label += t("selectedNeeds", rankWord(s.needed_rank)); }
    if (partnerSet.has(u.place)) { b.classList.add("partner"); label += t("partner"); }
    b.setAttribute("aria-label", label);
    b.addEventListener("click", () => act({type: "tap", place: u.place}));
    list.append(b);
  }
  if (focusedInList !== undefined) {  // a keyboard player in the large-button list stays there
    const again = list.querySelector(`[data-list-place="${focusedInList}"]`) || list.querySelector("button");
    if (again) again.focus();
  } else if (focused !== undefined) {
    const again = document.querySelector(`#pyramid [data-place="${focused}"]`);
    if (again && again.tabIndex === 0) again.focus();
    else focusNearest(Number(focused));
  }
}

function decorate(button, place, partnerSet, hinted) {
  const s = app.state;
  if (s.selected === place) {
    button.classList.add("selected");
    const need = document.createElement("span");
    need.className = "need";
    need.textContent = t("needs", rankWord(s.needed_rank));
    button.append(need);
  }
  if (partnerSet.has(place)) button.classList.add("partner");
  if (hinted.has(place)) button.classList.add("hinted");
}

function partnersOf(place) {
  const s = app.state;
  const u = s.usable.find((x) => x.place === place);
  return u ? u.partners : [];
}

function rankWord(r) {
  return ({1: "A", 11: "J", 12: "Q", 13: "K"})[r] || String(r);
}

// ------------------------------------------------------------------ verdicts
async function requestVerdict() {
  const s = app.state;
  if (!s || s.outcome === "win") return;
  await pollVerdict("/api/games");
}

function renderVerdict() {
  const s = app.state, v = s && s.verdict;
  const actions = $("verdict-actions");
  actions.textContent = "";
  actions.hidden = true;
  setDisabled($("path"), v && !["winnable", "checking"].includes(v.status) ? {en: t("noPath", tx(v))} : null);
  if (!v) { $("verdict").textContent = ""; return; }
  if (app.offline) {  // a verdict is for the position the server last saw: not fresh while it is unreachable
    $("verdict").textContent = ct("verdictOffline");
    $("verdict").dataset.status = "offline";
    return;
  }
  let text = tx(v);
  if (v.status === "winnable" && app.showFirstStep) text += " " + tx({en: v.first_step_en, ja: v.first_step_ja});
  $("verdict").textContent = text;
  $("verdict").dataset.status = v.status;
  if (v.status === "not_winnable") {
    actions.hidden = false;
    for (const [label, fn] of exitsNotWinnable()) actions.append(panelButton(label, fn));
  }
}

function exitsNotWinnable() {  // at the deal's start there is nothing to undo or restart
  const played = app.state.moves > 0;
  return [...(played ? [[t("exitUndo"), () => act({type: "undo"})]] : []), [t("exitHint"), hint],
          ...(played ? [[t("exitRestart"), () => act({type: "restart"})]] : []), [t("exitAnother"), () => newDeal()]];
}

// ------------------------------------------------------------------ panels
function behindPanel() { return [document.querySelector("header.top"), $("notices"), $("game-view"), $("rules")]; }

function refocus(back) {  // focus goes back where it was; a card redrawn or removed meanwhile: the nearest one
  const place = back.dataset && back.dataset.place;
  if (back.isConnected) back.focus();
  else if (place !== undefined) focusNearest(Number(place));
}

function pyramidRect() {  // where the celebration's cards leave from: the pyramid's top
  const r = $("pyramid").getBoundingClientRect();
  return {left: r.left + r.width / 2 - 30, top: r.top};
}

function showResult() {
  const s = app.state;
  openPanel(t("cleared"), [
    para(t("resultLine", formatTime(currentMs()), s.moves, s.operations, s.hints)),
    para(t("removed", s.removed)), dealCopyButton(),
  ], [[t("exitAnother"), () => newDeal({force: true})], [t("replay"), () => replayDeal()],
      [t("viewBoard"), () => {}], analyseExit("pyramid")], "result");
}

function showDeadEnd() {
  const played = app.state.moves > 0;
  openPanel(t("deadTitle"), [para(t("deadBody"))],
    [...(played ? [[t("exitUndo"), () => act({type: "undo"})], [t("exitRestart"), () => act({type: "restart"})]] : []),
     [t("newDealExit"), () => newDeal({force: true})], [t("viewBoard"), () => {}], analyseExit("pyramid")], "dead-end");
}

// ------------------------------------------------------------------ deals
function newDeal({force = false, variant, dealType} = {}) {
  const body = () => {
    const v = variant || $("variant").value;
    const t = v === "001" ? (dealType || $("deal-type").value) : "random";
    return queue(() => startGame({variant: v, deal_type: t}));
  };
  return force ? body() : confirmReplace(body);
}

function openDeal(text) {  // the deal is checked first; a bad one keeps its text in the box, said plainly
  const v = $("variant").value;
  return queue(async () => {
    const state = await checkedDeal({variant: v, deal: text}, t("dealWhat"));
    if (state) confirmReplace(() => queue(() => adoptGame(state)));
  });
}

function replayDeal() {
  const s = app.state;
  return queue(() => startGame({variant: s.variant, deal: s.deal.id || s.deal.code}));
}

function hintArrived() { if (app.chanceNote) { app.chanceNote = null; render(); } }  // the hint's line shows

function chanceDrop(a, b) { return {en: TEXT.en.chanceDrop(a.en, b.en), ja: TEXT.ja.chanceDrop(a.ja, b.ja)}; }  // the warning
function chanceLost() {  // the chance beside a verdict that proves the loss (the server's words for it)
  if (app.state && app.state.all_stock_seen) {
    return {en: "Chance of clearing the pyramid from here: none, every stock card has been seen and no line clears it.",
            ja: "ここから全消しできる見込み：ありません（山札はすべて見えていて、全消しの手順がありません）"};
  }
  return {en: "Chance of clearing the pyramid from here: none, no line clears it (knowing every card, " +
              "the unseen stock's order too).",
          ja: "ここから全消しできる見込み：ありません（まだ見ていない山札の並びも含め、すべてのカードで確かめました）"};
}

// ------------------------------------------------------------------ pause
function resume() {
  app.paused = false;
  startClock();
  if (app.state && app.state.outcome === "dead_end") showDeadEnd();
}

// ------------------------------------------------------------------ saving
function save() {
  const s = app.state;
  if (!savable()) return;
  writeSave({format: SAVE_FORMAT, writer: tabId, saved_at: Date.now(), variant: s.variant,
             deal: s.deal.code, label: s.deal.label, deal_type: s.deal.type, history: s.history, redo: s.redo,
             seen: s.seen, active_ms: Math.round(currentMs()), operations: s.operations, hints: s.hints,
             hinted: s.hinted || [], won: s.outcome === "win"});
}

function validSave(data) { return ["000", "001"].includes(data.variant) && typeof data.deal === "string"; }

function record() {
  const s = app.state;
  const type = s.deal.type;
  keepRecord((r) => r.variant === s.variant && r.type === type && r.code === s.deal.code,
             () => ({variant: s.variant, type, code: s.deal.code, label: s.deal.label, time_ms: Math.round(currentMs()),
                    moves: s.moves, operations: s.operations, hints: s.hints, at: new Date().toISOString()}));
}

// a record's variant and deal type in the page's language, not the engine's codes (issue 51: "000"/"001",
// and "random"/"daily" in English on the Japanese page)
function recordVariant(v) { return (t("recordVariants") || {})[v] || v; }
function recordType(type) { return (t("recordTypes") || {})[type] || type; }
function recordGroup(r) { return `${recordVariant(r.variant)} · ${recordType(r.type)}`; }

function recordsTable(items) {
  const table = document.createElement("table");
  table.createCaption().textContent = t("recordsCaption");
  const head = table.createTHead().insertRow();
  for (const h of t("recordsHead")) { const th = document.createElement("th"); th.scope = "col"; th.textContent = h; head.append(th); }
  const rows = table.createTBody();
  for (const r of items) {
    const tr = document.createElement("tr");
    recordCells(tr, [recordVariant(r.variant), recordType(r.type), shortLabel(r.label), formatTime(r.time_ms), r.moves ?? r.operations,
                     r.hints]);
    rows.append(tr);
  }
  return table;
}

// ------------------------------------------------------------------ keyboard and focus
function availableButtons() {
  return [...document.querySelectorAll("#pyramid .card.available")];
}

function focusNearest(place) {
  const buttons = availableButtons();
  if (!buttons.length) return;
  buttons.sort((a, b) => Math.abs(a.dataset.place - place) - Math.abs(b.dataset.place - place));
  buttons[0].focus();
}

function moveFocus(key) {
  const buttons = availableButtons();
  if (!buttons.length) return;
  const current = buttons.indexOf(document.activeElement);
  if (current < 0) { buttons[key === "ArrowLeft" || key === "ArrowUp" ? buttons.length - 1 : 0].focus(); return; }
  const here = app.state.pyramid[Number(buttons[current].dataset.place)];
  let target;
  if (key === "ArrowLeft") target = buttons[(current - 1 + buttons.length) % buttons.length];
  else if (key === "ArrowRight") target = buttons[(current + 1) % buttons.length];
  else {
    const dir = key === "ArrowUp" ? -1 : 1;
    const rows = buttons.map((b) => app.state.pyramid[Number(b.dataset.place)]);
    const candidates = rows.filter((c) => (c.row - here.row) * dir > 0);
    if (!candidates.length) return;
    const nearestRow = dir < 0 ? Math.max(...candidates.map((c) => c.row)) : Math.min(...candidates.map((c) => c.row));
    const inRow = candidates.filter((c) => c.row === nearestRow);
    inRow.sort((a, b) => Math.abs(a.col - here.col) - Math.abs(b.col - here.col));
    target = buttons[rows.indexOf(inRow[0])];
  }
  target.focus();
}

function trapTab(event) {  // Tab and Shift+Tab cycle through the open panel's buttons
  const items = [...$("panel").querySelectorAll("button")];
  if (!items.length) return;
  event.preventDefault();
  const i = items.indexOf(document.activeElement);
  const next = event.shiftKey ? (i <= 0 ? items.length - 1 : i - 1) : (i + 1) % items.length;
  items[next].focus();
}

function onKey(event) {
  if (event.key === "Tab" && !$("overlay").hidden) { trapTab(event); return; }
  if (ignoredKey(event)) return;
  if (panelOrRulesKey(event, ["records", "confirm", "result"])) return;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  const handlers = {
    u: () => act({type: "undo"}), h: hint, c: chance, n: () => newDeal(), d: () => act({type: "draw"}),
    r: () => act({type: "recycle"}), Escape: () => { app.showFirstStep = false; act({type: "clear"}); },
    ArrowLeft: () => moveFocus("ArrowLeft"), ArrowRight: () => moveFocus("ArrowRight"),
    ArrowUp: () => moveFocus("ArrowUp"), ArrowDown: () => moveFocus("ArrowDown"),
  };
  if (handlers[key]) { event.preventDefault(); handlers[key](); }
}

// ------------------------------------------------------------------ start
function wire() {
  $("draw").addEventListener("click", () => act({type: "draw"}));
  $("recycle").addEventListener("click", () => act({type: "recycle"}));
  $("stock").addEventListener("click", () => {
    if (app.state && app.state.variant === "000" && app.state.stock.top) act({type: "tap", place: STOCK});
    else act({type: "draw"});
  });
  $("waste").addEventListener("click", () => { if (app.state && app.state.waste.top) act({type: "tap", place: WASTE}); });
  $("path").addEventListener("click", () => {
    const v = app.state && app.state.verdict;
    if (v && v.status !== "winnable" && v.status !== "checking") {  // no path to show: say why, offer the hint
      message(t("noPath", tx(v)), "info");
      return;
    }
    app.showFirstStep = true;
    renderVerdict(); render();
    if (!app.state.verdict) requestVerdict();
  });
  $("restart").addEventListener("click", () => confirmReplace(() => act({type: "restart"})));  // history is lost
  $("variant").addEventListener("change", () => {
    const v = $("variant").value;
    if (!app.state || v === app.state.variant) return;
    $("variant").value = app.state.variant;
    newDeal({variant: v});
  });
  $("deal-type").addEventListener("change", () => {
    const t = $("deal-type").value;
    $("deal-type").value = app.state.deal.type === "winnable" ? "winnable" : "random";
    newDeal({dealType: t});
  });
  $("deal-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("deal-input").value.trim();
    if (text) openDeal(text);
  });
}

async function main() {
  openPage(browserLanguage);
  wireChance();  // after openPage: it reads the stored setting
  const s = savedGame(validSave);
  if (!s) return queue(() => startGame({variant: "000"}));
  return queue(async () => {
    try {
      const live = await liveGame(s);  // the server still has it: its latest state (moves from other tabs kept)
      if (live) return void adoptGame(live, {paused: true, activeMs: Math.max(0, s.active_ms)});
      await startGame({variant: s.variant, deal: s.deal_type === "code" ? s.deal : s.label,
                       history: s.history, redo: s.redo, seen: s.seen.filter((c) => Number.isInteger(c) && c >= 0 && c < 52),
                       operations: Math.max(0, s.operations), hints: Math.max(0, s.hints), hinted: savedHinted(s)},
                      {paused: true, activeMs: Math.max(0, s.active_ms)});
    } catch (e) {
      blockSaving(() => t("noReplay", e.message));
      await startGame({variant: "000"});
    }
  });
}

window.pyramidApp = app;  // for tests and the curious
main();
