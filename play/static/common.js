// What the Pyramid and Klondike pages share: the page's app object, the server helper and request
// queue, the clock and the pause panel, the overlay panel, notices, the saved game and the records
// in localStorage, the keys and wiring both pages use. Plain global functions, loaded (defer) before
// the page's own script; that script defines what differs, read here only when a function runs:
//   app = pageApp({...})     the page's state (window.pyramidApp, window.klondikeApp)
//   SAVE_KEY, RECORDS_KEY    its localStorage keys
//   t(key, ...args)          its words (the messages about the game come from the server: tx)
//   wire, applyLanguage, message, showError, renderVerdict, openPanel, closePanel, resume, save,
//   act, hint, newDeal, onKey, recordGroup(r), recordsTable(items)   its own versions of these
"use strict";

const SAVE_FORMAT = 1;
const MAX_RECORDS = 1000;
const LANG_KEY = "solitaire-rl.lang";  // the language choice, shared by both pages

const $ = (id) => document.getElementById(id);
const tabId = Math.random().toString(36).slice(2) + Date.now().toString(36);

// The overlay panel (result, dead end, pause, records, confirmations), the last thing on both pages.
document.body.insertAdjacentHTML("beforeend", `<div id="overlay" class="overlay" hidden>
  <div id="panel" class="panel" role="dialog" aria-modal="true" aria-labelledby="panel-title">
    <h2 id="panel-title"></h2>
    <div id="panel-body"></div>
    <div id="panel-buttons" class="panel-buttons"></div>
  </div>
</div>
`);

function pageApp(own) {  // a page's app object: the fields used here, then the page's own
  return {
    state: null,            // the game's JSON state from the server
    storage: null,          // localStorage, or null when it cannot be used
    saving: true,           // false once the save is unreadable or another tab took it over
    paused: false,
    activeMs: 0,
    clockFrom: null,        // performance.now() when the clock last started, or null when stopped
    recorded: false,        // this win is in the records
    busy: Promise.resolve(),  // the request queue
    verdictPoll: 0,
    lang: "en",             // "en" or "ja": the page's language (the seeds' UI is Japanese)
    ...own,
  };
}

// ------------------------------------------------------------------ words
function tx(obj) { return app.lang === "ja" && obj && obj.ja ? obj.ja : obj.en; }  // a server message {en, ja}

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

async function pollVerdict(games) {  // asks games (the API's games URL) for app.state's verdict and shows it
  const s = app.state;
  const poll = ++app.verdictPoll;
  try {
    let verdict = (await api("POST", `${games}/${s.session}/verdict`)).verdict;
    while (verdict && verdict.status === "checking" && poll === app.verdictPoll) {
      app.state.verdict = verdict; renderVerdict();
      verdict = (await api("GET", `${games}/${s.session}/verdict?wait=1`)).verdict;
    }
    if (poll === app.verdictPoll && app.state && app.state.session === s.session) {
      app.state.verdict = verdict;
      renderVerdict();
    }
  } catch (e) { /* a verdict is advice: play goes on without it */ }
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

// ------------------------------------------------------------------ cards
function cardFace(el, card) {  // the rank and the suit, red or black
  el.textContent = "";
  const r = document.createElement("span"); r.textContent = card.name.slice(0, -1);
  const s = document.createElement("span"); s.className = "suit"; s.textContent = card.suit;
  el.append(r, s);
  el.classList.toggle("red", card.red);
}

// ------------------------------------------------------------------ panels
function fillPanel(title, bodyNodes, buttons, kind) {  // shows the overlay panel; returns its button row
  $("panel-title").textContent = title;
  const body = $("panel-body");
  body.textContent = "";
  body.append(...bodyNodes);
  const row = $("panel-buttons");
  row.textContent = "";
  for (const [label, fn] of buttons) row.append(panelButton(label, () => { closePanel(); fn(); }));
  $("overlay").hidden = false;
  $("overlay").dataset.kind = kind;
  return row;
}

function panelButton(label, fn) {
  const b = document.createElement("button");
  b.type = "button"; b.textContent = label;
  b.addEventListener("click", fn);
  return b;
}

function para(text) { const p = document.createElement("p"); p.textContent = text; return p; }

function dealCopyButton() {  // the result panel's button that copies the deal ID
  const label = app.state.deal.label;
  const copy = panelButton(t("dealCopy", label.length > 40 ? t("code") : label), () => copyDeal());
  copy.id = "result-copy";
  return copy;
}

async function copyDeal() {
  const label = app.state.deal.label;
  try { await navigator.clipboard.writeText(label); message(t("copied", label), "info"); }
  catch (e) { message(t("copyRefused", label), "info"); }
  if ("keepMessage" in app) app.keepMessage = true;  // a page that clears the message on render keeps this one
}

function confirmReplace(then) {
  const s = app.state;
  if (!s || s.outcome === "win" || (!s.history.length && !s.redo.length)) return then();
  openPanel(t("replaceTitle"), [para(t("replaceBody"))], [[t("replace"), then], [t("keep"), () => {}]], "confirm");
}

function showRules() { $("game-view").hidden = true; $("rules").hidden = false; $("rules-title").focus(); }
function showGame() { $("rules").hidden = true; $("game-view").hidden = false; $("rules-button").focus(); }

// ------------------------------------------------------------------ saving
function probeStorage() {
  try {
    const s = window.localStorage;
    s.setItem("solitaire-rl.probe", "1"); s.removeItem("solitaire-rl.probe");
    return s;
  } catch (e) { return null; }
}

function notice(id, make) {  // make() -> [text, buttons]; kept in app.notices, where the page redraws them
  if (app.notices) app.notices[id] = make;
  const [text, buttons = []] = make();
  let n = $(id);
  if (!n) { n = document.createElement("div"); n.id = id; n.className = "notice"; n.setAttribute("role", "alert"); $("notices").append(n); }
  n.textContent = "";
  n.append(document.createTextNode(text));
  for (const [label, fn] of buttons) n.append(panelButton(label, fn));
}

function savable() { return !!(app.state && app.storage && app.saving); }

function writeSave(data) {
  try { app.storage.setItem(SAVE_KEY, JSON.stringify(data)); }
  catch (e) { notice("storage-notice", () => [t("saveFailed")]); }
}

function readSave(validGame) {  // {save}, {absent: true} or {problem: () => text}
  const raw = app.storage.getItem(SAVE_KEY);
  if (raw === null) return {absent: true};
  let data;
  try { data = JSON.parse(raw); } catch (e) { return {problem: () => t("corrupt")}; }
  if (!data || typeof data !== "object") return {problem: () => t("corrupt")};
  if (data.format !== SAVE_FORMAT) return {problem: () => t("unsupported", JSON.stringify(data.format))};
  const okList = (x) => Array.isArray(x) && x.every((m) => typeof m === "string");
  if (!validGame(data) || !okList(data.history) ||
      !okList(data.redo) || !Array.isArray(data.seen) || !Number.isFinite(data.active_ms) ||
      !Number.isInteger(data.operations) || !Number.isInteger(data.hints)) {
    return {problem: () => t("corrupt")};
  }
  return {save: data};
}

function savedGame(validGame) {  // the save to restore, or null (none, or unusable: then a notice says why)
  if (!app.storage) {
    notice("storage-notice", () => [t("noStorage")]);
    return null;
  }
  const found = readSave(validGame);
  if (found.problem) {
    blockSaving(found.problem);
    return null;
  }
  return found.absent ? null : found.save;
}

function blockSaving(why) {  // why() says, in the page's language, what is wrong with the save
  app.saving = false;
  notice("save-notice", () => [t("saveProblem", why()), [[t("dropSave"), () => {
    app.storage.removeItem(SAVE_KEY); app.saving = true; $("save-notice").remove();
    if (app.notices) delete app.notices["save-notice"];
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

function keepRecord(isThisDeal, makeRecord) {  // adds this win to the records, unless the deal is already there
  if (!app.storage) return;
  const items = readRecords();
  if (items.some(isThisDeal)) return;  // no double counting
  items.push(makeRecord());
  try { app.storage.setItem(RECORDS_KEY, JSON.stringify({format: SAVE_FORMAT, items: items.slice(-MAX_RECORDS)})); }
  catch (e) { /* no room: the game itself is unaffected */ }
}

function showRecords() {  // the counts by recordGroup(r), and the page's table of the last 20
  const items = app.storage ? readRecords() : [];
  const byGroup = {};
  for (const r of items) byGroup[recordGroup(r)] = (byGroup[recordGroup(r)] || 0) + 1;
  const nodes = [para(items.length ? t("recordsCount", items.length,
    Object.entries(byGroup).map(([k, n]) => `${k}: ${n}`).join(", ")) : t("noRecords"))];
  if (items.length) nodes.push(recordsTable(items.slice(-20).reverse()));
  if (!app.storage) nodes.push(para(t("recordsNoStorage")));
  openPanel(t("recordsTitle"), nodes, [[t("close"), () => {}]], "records");
}

function recordCells(tr, values) {
  for (const v of values) { const td = document.createElement("td"); td.textContent = v; tr.append(td); }
}

function shortLabel(label) { return label.length > 30 ? label.slice(0, 12) + "…" : label; }

// ------------------------------------------------------------------ keys and wiring
function ignoredKey(event) {  // a key with a modifier, or one typed into a field, is not a shortcut
  if (event.ctrlKey || event.metaKey || event.altKey) return true;
  const tag = event.target.tagName;
  return tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA";
}

function panelOrRulesKey(event, closable) {  // true: the open panel or the rules page takes the key (Esc closes)
  if (!$("overlay").hidden) {
    if (event.key === "Escape" && closable.includes($("overlay").dataset.kind)) closePanel();
    return true;
  }
  if (!$("rules").hidden) { if (event.key === "Escape") showGame(); return true; }
  return false;
}

function openPage(language) {  // wires the page, finds its storage and shows it in language(stored choice)
  wire();
  wireCommon();
  app.storage = probeStorage();
  let chosen = null;
  try { chosen = app.storage && app.storage.getItem(LANG_KEY); } catch (e) { /* no stored choice */ }
  app.lang = language(chosen);
  applyLanguage();
}

function wireCommon() {  // the buttons, events and timers both pages wire the same way
  $("undo").addEventListener("click", () => act({type: "undo"}));
  $("redo").addEventListener("click", () => act({type: "redo"}));
  $("hint").addEventListener("click", hint);
  $("new-deal").addEventListener("click", () => newDeal());
  $("records-button").addEventListener("click", showRecords);
  $("rules-button").addEventListener("click", showRules);
  $("rules-back").addEventListener("click", showGame);
  $("copy-deal").addEventListener("click", copyDeal);
  $("lang").addEventListener("click", () => setLanguage(app.lang === "ja" ? "en" : "ja"));
  document.addEventListener("keydown", onKey);
  document.addEventListener("visibilitychange", () => { if (document.hidden) stopClock(); else startClock(); });
  window.addEventListener("storage", onStorage);
  window.addEventListener("pagehide", () => { stopClock(); save(); });
  setInterval(tick, 500);
  setInterval(() => { if (app.clockFrom !== null) save(); }, 5000);
}
