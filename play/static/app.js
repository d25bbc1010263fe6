// The Pyramid page: sends intents to the server and renders the JSON state it gets back.
// No rule logic here: which cards are usable, their partners and every message come from the server.
"use strict";

const SAVE_KEY = "solitaire-rl.pyramid.save";
const RECORDS_KEY = "solitaire-rl.pyramid.records";
const SAVE_FORMAT = 1;
const MAX_RECORDS = 1000;
const STOCK = 28, WASTE = 29;

const $ = (id) => document.getElementById(id);
const tabId = Math.random().toString(36).slice(2) + Date.now().toString(36);

const app = {
  state: null,
  storage: null,          // localStorage, or null when it cannot be used
  saving: true,           // false once the save is unreadable or another tab took it over
  paused: false,
  activeMs: 0,
  clockFrom: null,        // performance.now() when the clock last started, or null when stopped
  recorded: false,
  busy: Promise.resolve(),
  verdictPoll: 0,
  showFirstStep: false,
  lang: "en",             // "en" or "ja": the page's language (the seeds' UI is Japanese)
  notices: {},            // id -> () => [text, buttons], redrawn when the language changes
};
const LANG_KEY = "solitaire-rl.lang";

// ------------------------------------------------------------------ words
function t(key, ...args) {
  const v = (TEXT[app.lang] || TEXT.en)[key];
  return typeof v === "function" ? v(...args) : v;
}
function tx(obj) {  // a server message {en, ja}: the one in the page's language
  return app.lang === "ja" && obj.ja ? obj.ja : obj.en;
}
function spoken(card) { return app.lang === "ja" ? card.spoken_ja : card.spoken; }

function applyLanguage() {
  document.documentElement.lang = app.lang;
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

function setLanguage(lang) {
  app.lang = lang;
  try { if (app.storage) app.storage.setItem(LANG_KEY, lang); } catch (e) { /* the choice is not kept */ }
  applyLanguage();
}

// ------------------------------------------------------------------ server
async function api(method, path, body) {
  const response = await fetch(path, {
    method, headers: body ? {"Content-Type": "application/json"} : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await response.json().catch(() => ({message: `HTTP ${response.status}`}));
  if (!response.ok) {
    const error = new Error(data.message || `HTTP ${response.status}`);
    error.status = response.status; error.code = data.error; error.ja = data.message_ja;
    throw error;
  }
  return data;
}

function queue(task) {  // one request at a time, in order
  app.busy = app.busy.then(task).catch((e) => showError(e));
  return app.busy;
}

async function send(action, retry = true) {
  if (!app.state || app.paused) return;
  try {
    setState(await api("POST", `/api/games/${app.state.session}/actions`, action));
  } catch (e) {
    if (e.status === 404 && retry) {  // the server forgot this game: restore it from the moves, then act
      await recoverLostGame();
      return send(action, false);
    }
    showError(e);
  }
}

const act = (action) => queue(() => send(action));

async function startGame(body, {paused = false, activeMs = 0} = {}) {
  const state = await api("POST", "/api/games", body);
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
                   history: s.history, redo: s.redo, seen: s.seen, operations: s.operations, hints: s.hints},
                  {activeMs: elapsed});
}

// ------------------------------------------------------------------ rendering
function cardFace(button, card) {
  button.textContent = "";
  const r = document.createElement("span"); r.textContent = card.name.slice(0, -1);
  const s = document.createElement("span"); s.className = "suit"; s.textContent = card.suit;
  button.append(r, s);
  button.classList.toggle("red", card.red);
}

function setState(state) {
  const previous = app.state;
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
  if (state.outcome === "win" && (!app.recorded || (previous && previous.outcome !== "win"))) {
    app.recorded = true;  // won (again, after an undo): the panel opens; record() never counts a deal twice
    stopClock();
    record();
    showResult();
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
    stock.textContent = s.stock.count ? String(s.stock.count) : t("empty");
    stock.classList.add(s.stock.count ? "back" : "empty");
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
  $("draw").classList.toggle("hinted", !!s.hint && s.hint.kind === "draw");
  $("recycle").classList.toggle("hinted", !!s.hint && s.hint.kind === "recycle");
  setDisabled($("undo"), s.can_undo ? null : {en: t("noUndo")});
  setDisabled($("redo"), s.can_redo ? null : {en: t("noRedo")});

  // status
  $("status-left").textContent = t("left", s.cards_left);
  $("status-pass").textContent = t("pass", s.pass, s.passes, s.recycles_left);
  $("status-stock").textContent = t("stock", s.stock.count);
  $("status-counts").textContent = t("counts", s.operations, s.hints);
  $("copy-deal").textContent = s.deal.label.length > 40 ? `code ${s.deal.label.slice(0, 12)}…` : s.deal.label;
  $("copy-deal").title = `Copy ${s.deal.label}`;
  $("variant").value = s.variant;
  $("deal-type").value = s.deal.type === "winnable" ? "winnable" : "random";
  $("deal-type").querySelector('[value="winnable"]').disabled = s.variant !== "001";

  // message: a selection shows the needed rank; a hint its move
  if (s.hint) message(t("hintLine", s.hint.agent, s.hint.fallback_reason, tx(s.hint)), "info");
  else if (s.message) message(tx(s.message), s.message.kind);
  else if (s.outcome === "win") message(t("wonNote"), "info");
  else message("");
  renderVerdict();

  // the large-button list of available cards
  const list = $("available-list");
  list.textContent = "";
  for (const u of s.usable.filter((x) => x.place < STOCK)) {  // seed 001: only the exposed pyramid cards
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.listPlace = u.place;
    const where = app.lang === "ja" ? u.label_ja : u.label;
    b.textContent = `${u.card.name} — ${where}`;
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

function setDisabled(button, refusal) {
  button.setAttribute("aria-disabled", refusal ? "true" : "false");
  button.title = refusal ? refusal.en : "";
}

function message(text, kind = "info") {
  const m = $("message");
  m.textContent = text;
  m.className = `message ${kind}`;
}

function showError(e) {
  const text = e.message || String(e);
  if (app.lang !== "ja" || !e.ja) message(text, "error");
  else message(e.code === "MALFORMED" ? `${e.ja}：${text}` : e.ja, "error");  // the detail names what was read
}

// ------------------------------------------------------------------ verdicts
async function requestVerdict() {
  const s = app.state;
  if (!s || s.outcome === "win") return;
  const poll = ++app.verdictPoll;
  try {
    let data = await api("POST", `/api/games/${s.session}/verdict`);
    let verdict = data.verdict;
    while (verdict && verdict.status === "checking" && poll === app.verdictPoll) {
      app.state.verdict = verdict; renderVerdict();
      verdict = (await api("GET", `/api/games/${s.session}/verdict?wait=1`)).verdict;
    }
    if (poll === app.verdictPoll && app.state && app.state.session === s.session) {
      app.state.verdict = verdict;
      renderVerdict();
    }
  } catch (e) { /* a verdict is advice: play goes on without it */ }
}

function renderVerdict() {
  const s = app.state, v = s && s.verdict;
  const actions = $("verdict-actions");
  actions.textContent = "";
  actions.hidden = true;
  if (!v) { $("verdict").textContent = ""; return; }
  let text = tx(v);
  if (v.status === "winnable" && app.showFirstStep) text += " " + tx({en: v.first_step_en, ja: v.first_step_ja});
  $("verdict").textContent = text;
  $("verdict").dataset.status = v.status;
  if (v.status === "not_winnable") {
    actions.hidden = false;
    for (const [label, fn] of exitsNotWinnable()) actions.append(panelButton(label, fn));
  }
}

function exitsNotWinnable() {
  return [[t("exitUndo"), () => act({type: "undo"})], [t("exitHint"), hint],
          [t("exitRestart"), () => act({type: "restart"})], [t("exitAnother"), () => newDeal()]];
}

// ------------------------------------------------------------------ panels
const BEHIND_PANEL = () => [document.querySelector("header.top"), $("notices"), $("game-view"), $("rules")];

function openPanel(title, bodyNodes, buttons, kind) {
  if ($("overlay").hidden) app.returnFocus = document.activeElement;  // given back when the panel closes
  $("panel-title").textContent = title;
  const body = $("panel-body");
  body.textContent = "";
  body.append(...bodyNodes);
  const row = $("panel-buttons");
  row.textContent = "";
  for (const [label, fn] of buttons) row.append(panelButton(label, () => { closePanel(); fn(); }));
  $("overlay").hidden = false;
  $("overlay").dataset.kind = kind;
  for (const el of BEHIND_PANEL()) el.inert = true;  // Tab and clicks stay in the panel until it closes
  (row.querySelector("button") || $("panel")).focus();
}

function closePanel() {
  const wasOpen = !$("overlay").hidden;
  for (const el of BEHIND_PANEL()) el.inert = false;
  $("overlay").hidden = true;
  const back = app.returnFocus;
  app.returnFocus = null;
  if (wasOpen && back && back !== document.body) {
    const place = back.dataset && back.dataset.place;
    if (back.isConnected) back.focus();
    else if (place !== undefined) focusNearest(Number(place));  // its card was redrawn or removed
  }
  $("overlay").dataset.kind = "";
}

function panelButton(label, fn) {
  const b = document.createElement("button");
  b.type = "button"; b.textContent = label;
  b.addEventListener("click", fn);
  return b;
}

function para(text) {
  const p = document.createElement("p"); p.textContent = text; return p;
}

function showResult() {
  const s = app.state;
  const copy = panelButton(t("dealCopy", s.deal.label.length > 40 ? t("code") : s.deal.label), () => copyDeal());
  copy.id = "result-copy";
  openPanel(t("cleared"), [
    para(t("resultLine", formatTime(currentMs()), s.moves, s.operations, s.hints)),
    para(t("removed", s.removed)), copy,
  ], [[t("exitAnother"), () => newDeal({force: true})], [t("replay"), () => replayDeal()],
      [t("viewBoard"), () => {}]], "result");
}

function showDeadEnd() {
  openPanel(t("deadTitle"), [para(t("deadBody"))],
    [[t("exitUndo"), () => act({type: "undo"})], [t("exitRestart"), () => act({type: "restart"})],
     [t("newDealExit"), () => newDeal({force: true})]], "dead-end");
}

function confirmReplace(then) {
  const s = app.state;
  if (!s || s.outcome === "win" || (!s.history.length && !s.redo.length)) return then();
  openPanel(t("replaceTitle"), [para(t("replaceBody"))], [[t("replace"), then], [t("keep"), () => {}]], "confirm");
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

function openDeal(text) {
  const v = $("variant").value;
  return confirmReplace(() => queue(() => startGame({variant: v, deal: text})));
}

function replayDeal() {
  const s = app.state;
  return queue(() => startGame({variant: s.variant, deal: s.deal.id || s.deal.code}));
}

async function copyDeal() {
  const label = app.state.deal.label;
  try { await navigator.clipboard.writeText(label); message(t("copied", label), "info"); }
  catch (e) { message(t("copyRefused", label), "info"); }
}

function hint() {
  if (!app.state || app.paused) return;
  return queue(async () => {
    try { setState(await api("POST", `/api/games/${app.state.session}/hint`)); }
    catch (e) { showError(e); }
  });
}

// ------------------------------------------------------------------ clock
function currentMs() { return app.activeMs + (app.clockFrom !== null ? performance.now() - app.clockFrom : 0); }
function startClock() {
  if (app.clockFrom === null && !app.paused && !document.hidden && !(app.state && app.state.outcome === "win")) {
    app.clockFrom = performance.now();
  }
  tick();
}
function stopClock() {
  if (app.clockFrom !== null) { app.activeMs += performance.now() - app.clockFrom; app.clockFrom = null; }
  tick();  // the display never lags a start, stop or restored time
}
function formatTime(ms) {
  const total = Math.floor(ms / 1000);
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}
function tick() { $("status-clock").textContent = formatTime(currentMs()); }

function pause() {
  stopClock();
  app.paused = true;
  openPanel(t("pausedTitle"), [para(t("pausedBody"))], [[t("resume"), resume]], "paused");
}
function resume() {
  app.paused = false;
  startClock();
  if (app.state && app.state.outcome === "dead_end") showDeadEnd();
}

// ------------------------------------------------------------------ saving
function probeStorage() {
  try {
    const s = window.localStorage;
    s.setItem("solitaire-rl.probe", "1"); s.removeItem("solitaire-rl.probe");
    return s;
  } catch (e) { return null; }
}

function notice(id, make) {  // make() -> [text, buttons]: called again when the language changes
  app.notices[id] = make;
  const [text, buttons = []] = make();
  let n = $(id);
  if (!n) { n = document.createElement("div"); n.id = id; n.className = "notice"; n.setAttribute("role", "alert"); $("notices").append(n); }
  n.textContent = "";
  n.append(document.createTextNode(text));
  for (const [label, fn] of buttons) n.append(panelButton(label, fn));
}

function save() {
  const s = app.state;
  if (!s || !app.storage || !app.saving) return;
  const data = {format: SAVE_FORMAT, writer: tabId, saved_at: Date.now(), variant: s.variant,
                deal: s.deal.code, label: s.deal.label, deal_type: s.deal.type, history: s.history, redo: s.redo,
                seen: s.seen, active_ms: Math.round(currentMs()), operations: s.operations, hints: s.hints,
                won: s.outcome === "win"};
  try { app.storage.setItem(SAVE_KEY, JSON.stringify(data)); }
  catch (e) { notice("storage-notice", () => [t("saveFailed")]); }
}

function readSave() {  // {save}, {absent: true} or {problem: text}
  const raw = app.storage.getItem(SAVE_KEY);
  if (raw === null) return {absent: true};
  let data;
  try { data = JSON.parse(raw); } catch (e) { return {problem: () => t("corrupt")}; }
  if (!data || typeof data !== "object") return {problem: () => t("corrupt")};
  if (data.format !== SAVE_FORMAT) return {problem: () => t("unsupported", JSON.stringify(data.format))};
  const okList = (x) => Array.isArray(x) && x.every((m) => typeof m === "string");
  if (!["000", "001"].includes(data.variant) || typeof data.deal !== "string" || !okList(data.history) ||
      !okList(data.redo) || !Array.isArray(data.seen) || !Number.isFinite(data.active_ms) ||
      !Number.isInteger(data.operations) || !Number.isInteger(data.hints)) {
    return {problem: () => t("corrupt")};
  }
  return {save: data};
}

function blockSaving(why) {  // why() says, in the page's language, what is wrong with the save
  app.saving = false;
  notice("save-notice", () => [t("saveProblem", why()), [[t("dropSave"), () => {
    app.storage.removeItem(SAVE_KEY); app.saving = true; $("save-notice").remove(); delete app.notices["save-notice"];
    save();
  }]]]);
}

function onStorage(event) {
  if (event.key !== SAVE_KEY || !app.saving || event.newValue === null) return;
  let writer = null;
  try { writer = JSON.parse(event.newValue).writer; } catch (e) { /* an unreadable write is still another tab's */ }
  if (writer === tabId) return;
  app.saving = false;
  notice("tab-notice", () => [t("otherTab"), [[t("reload"), () => location.reload()]]]);
}

function readRecords() {
  try {
    const data = JSON.parse(app.storage.getItem(RECORDS_KEY) || "null");
    return data && data.format === SAVE_FORMAT && Array.isArray(data.items) ? data.items : [];
  } catch (e) { return []; }
}

function record() {
  if (!app.storage) return;
  const s = app.state;
  const items = readRecords();
  const type = s.deal.type;
  if (items.some((r) => r.variant === s.variant && r.type === type && r.code === s.deal.code)) return;  // no double counting
  items.push({variant: s.variant, type, code: s.deal.code, label: s.deal.label, time_ms: Math.round(currentMs()),
              moves: s.moves, operations: s.operations, hints: s.hints, at: new Date().toISOString()});
  try { app.storage.setItem(RECORDS_KEY, JSON.stringify({format: SAVE_FORMAT, items: items.slice(-MAX_RECORDS)})); }
  catch (e) { /* no room: the game itself is unaffected */ }
}

function showRecords() {
  const items = app.storage ? readRecords() : [];
  const byType = {};
  for (const r of items) byType[`${r.variant} ${r.type}`] = (byType[`${r.variant} ${r.type}`] || 0) + 1;
  const nodes = [para(items.length ? t("recordsCount", items.length,
    Object.entries(byType).map(([k, n]) => `${k}: ${n}`).join(", ")) : t("noRecords"))];
  if (items.length) {
    const table = document.createElement("table");
    table.createCaption().textContent = t("recordsCaption");
    const head = table.createTHead().insertRow();
    for (const h of t("recordsHead")) { const th = document.createElement("th"); th.scope = "col"; th.textContent = h; head.append(th); }
    const rows = table.createTBody();
    for (const r of items.slice(-20).reverse()) {
      const tr = document.createElement("tr");
      for (const v of [r.variant, r.type, r.label.length > 30 ? r.label.slice(0, 12) + "…" : r.label,
                       formatTime(r.time_ms), r.operations, r.hints]) {
        const td = document.createElement("td"); td.textContent = v; tr.append(td);
      }
      rows.append(tr);
    }
    nodes.push(table);
  }
  if (!app.storage) nodes.push(para(t("recordsNoStorage")));
  openPanel(t("recordsTitle"), nodes, [[t("close"), () => {}]], "records");
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
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const tag = event.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  if (!$("overlay").hidden) {
    if (event.key === "Escape" && ["records", "confirm", "result"].includes($("overlay").dataset.kind)) closePanel();
    return;
  }
  if (!$("rules").hidden) { if (event.key === "Escape") showGame(); return; }
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  const handlers = {
    u: () => act({type: "undo"}), h: hint, n: () => newDeal(), d: () => act({type: "draw"}),
    r: () => act({type: "recycle"}), Escape: () => { app.showFirstStep = false; act({type: "clear"}); },
    ArrowLeft: () => moveFocus("ArrowLeft"), ArrowRight: () => moveFocus("ArrowRight"),
    ArrowUp: () => moveFocus("ArrowUp"), ArrowDown: () => moveFocus("ArrowDown"),
  };
  if (handlers[key]) { event.preventDefault(); handlers[key](); }
}

function showRules() { $("game-view").hidden = true; $("rules").hidden = false; $("rules-title").focus(); }
function showGame() { $("rules").hidden = true; $("game-view").hidden = false; $("rules-button").focus(); }

// ------------------------------------------------------------------ start
function wire() {
  $("draw").addEventListener("click", () => act({type: "draw"}));
  $("recycle").addEventListener("click", () => act({type: "recycle"}));
  $("stock").addEventListener("click", () => {
    if (app.state && app.state.variant === "000" && app.state.stock.top) act({type: "tap", place: STOCK});
    else act({type: "draw"});
  });
  $("waste").addEventListener("click", () => { if (app.state && app.state.waste.top) act({type: "tap", place: WASTE}); });
  $("undo").addEventListener("click", () => act({type: "undo"}));
  $("redo").addEventListener("click", () => act({type: "redo"}));
  $("hint").addEventListener("click", hint);
  $("path").addEventListener("click", () => {
    app.showFirstStep = true;
    renderVerdict(); render();
    if (!app.state.verdict) requestVerdict();
  });
  $("new-deal").addEventListener("click", () => newDeal());
  $("restart").addEventListener("click", () => confirmReplace(() => act({type: "restart"})));  // history is lost
  $("records-button").addEventListener("click", showRecords);
  $("fullscreen").addEventListener("click", () => {
    if (document.fullscreenElement) document.exitFullscreen();
    else if (document.documentElement.requestFullscreen) document.documentElement.requestFullscreen().catch(() => {});
  });
  $("rules-button").addEventListener("click", showRules);
  $("rules-back").addEventListener("click", showGame);
  $("copy-deal").addEventListener("click", copyDeal);
  $("lang").addEventListener("click", () => setLanguage(app.lang === "ja" ? "en" : "ja"));
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
    $("deal-input").value = "";
    $("deal-input").blur();
    if (text) openDeal(text);
  });
  document.addEventListener("keydown", onKey);
  document.addEventListener("visibilitychange", () => { if (document.hidden) stopClock(); else startClock(); });
  window.addEventListener("storage", onStorage);
  window.addEventListener("pagehide", () => { stopClock(); save(); });
  setInterval(tick, 500);
  setInterval(() => { if (app.clockFrom !== null) save(); }, 5000);
}

async function main() {
  wire();
  app.storage = probeStorage();
  let chosen = null;
  try { chosen = app.storage && app.storage.getItem(LANG_KEY); } catch (e) { /* no stored choice */ }
  app.lang = ["en", "ja"].includes(chosen) ? chosen : ((navigator.language || "").startsWith("ja") ? "ja" : "en");
  applyLanguage();
  if (!app.storage) {
    notice("storage-notice", () => [t("noStorage")]);
    return queue(() => startGame({variant: "000"}));
  }
  const found = readSave();
  if (found.problem) {
    blockSaving(found.problem);
    return queue(() => startGame({variant: "000"}));
  }
  if (found.absent) return queue(() => startGame({variant: "000"}));
  const s = found.save;
  return queue(async () => {
    try {
      await startGame({variant: s.variant, deal: s.deal_type === "code" ? s.deal : s.label,
                       history: s.history, redo: s.redo, seen: s.seen.filter((c) => Number.isInteger(c) && c >= 0 && c < 52),
                       operations: Math.max(0, s.operations), hints: Math.max(0, s.hints)},
                      {paused: true, activeMs: Math.max(0, s.active_ms)});
    } catch (e) {
      blockSaving(() => t("noReplay", e.message));
      await startGame({variant: "000"});
    }
  });
}

window.pyramidApp = app;  // for tests and the curious
main();
