// What the Pyramid and Klondike pages share: the page's app object, the server helper and request
// queue, hints (asked beside the queue, so play goes on; the source chosen in the menu), the clock
// and the pause panel, the overlay panel, the menu, notices, the saved game, other-tab detection and
// the records in localStorage, card faces, the keys and wiring both pages use. Plain global functions, loaded (defer) before
// the page's own script; that script defines what differs, read here only when a function runs:
//   app = pageApp({...})     the page's state (window.pyramidApp, window.klondikeApp)
//   SAVE_KEY, RECORDS_KEY    its localStorage keys
//   t(key, ...args)          its words (the messages about the game come from the server: tx)
//   GAMES                    its API's games URL (/api/games, /api/klondike/games)
//   WARN_KEY, chanceDrop(a, b)   where the chance warning's setting is kept; the warning's {en, ja} (a, b:
//                            the chances before and after, as chanceLevel words them)
//   chanceLost()             the chance line's {en, ja} beside a verdict that proves the loss
//   wire, applyLanguage, render, setState, message, showError, renderVerdict, resume, save, act,
//   newDeal, onKey, recordGroup(r), recordsTable(items)   its own versions of these
//   behindPanel(), refocus(el)   what the open panel makes inert, and how focus goes back
// stats.js (loaded after this file, before the page's script) adds the statistics and the daily deal.
"use strict";

const SAVE_FORMAT = 1;
const MAX_RECORDS = 1000;
const LANG_KEY = "solitaire-rl.lang";  // the language choice, shared by both pages
const HINT_SOURCE_KEY = "solitaire-rl.hint-source";  // "planner", "agent", ...: shared by both pages
// The hint sources this page offers: its "Hints from" options (planner, agent, network, guided); the
// first is the page's own (Klondike: the commitment planner; Pyramid: the planner).
function hintSources() { return [...$("hint-source").options].map((o) => o.value); }
function defaultHintSource() { return hintSources()[0]; }

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
    hintSource: "planner",  // where hints come from: one of hintSources(), "planner" (stronger) by default
    offline: false,         // the last request got no answer: the server is down
    hintAsk: 0,             // the number of the latest hint request; an older one's answer is dropped
    hintPending: false,     // a hint request is in flight for the current position
    hintWaiting: false,     // the hint waits for what was asked before it (a move, the auto-play it brings)
    acts: 0,                // the player's actions queued so far (auto-play not counted)
    hinting: Promise.resolve(),  // the hint request in flight (tests wait on it)
    chanceAsk: 0,           // the number of the latest chance request; an older one's answer is dropped
    chancePending: false,   // an asked-for chance is being estimated for the current position
    chanceNote: null,       // the chance line shown for a position: {key, en, ja, kind}
    warnDrop: false,        // the menu's "Warn after a move that lowers my chance sharply" (off by default)
    lastChance: null,       // the latest estimate: {key: positionKey(state), share, session}
    chancing: Promise.resolve(),  // the chance request in flight (tests wait on it)
    returnFocus: null,
    ...own,
  };
}

// ------------------------------------------------------------------ words
function tx(obj) { return app.lang === "ja" && obj && obj.ja ? obj.ja : obj.en; }  // a server message {en, ja}

const COMMON_WORDS = {
  en: {
    copyTitle: (l) => `Copy ${l}`, codeChip: (c) => `code ${c}…`,
    reasonJoin: " — ", moreMessage: "… more", lessMessage: "less", moreMessageLabel: "Show the whole message",
    lessMessageLabel: "Show the message in its line again",
    menu: "Menu", hintSource: "Hints from", fromPlanner: "the planner (stronger)",
    fromAgent: "the trained agent (instant)", checking: "Thinking…",
    fromCommitment: "the commitment planner", byCommitment: "commitment planner",
    klondikeOnly: ", the commitment planner plays Klondike only",
    fromNetwork: "the expert network", fromGuided: "the network-guided search",
    hint: "Hint: ", quickAnswer: " (there was no time to think it through; a quicker answer)",
    hintBy: (who) => `Hint (${who}): `, byPlanner: "planner", byAgent: "trained agent", bySimple: "simple player",
    byNetwork: "expert network", byGuided: "network-guided search",
    agentDown: ", the trained agent is unavailable",
    networkDown: ", no expert network", guidedLate: ", the guided search ran out of time",
    badDeal: (text, what) => `"${text}" is not a deal this page can open. Type ${what}.`, closeNotice: "Close this notice",
    // saving, other tabs, the pause and replace panels, the deal ID: the same on both pages
    noUndo: "There is no move to undo.",
    noRedo: "There is no move to redo.",
    dealCopy: (label) => `Deal ${label} (copy)`,
    replaceTitle: "Replace this game?",
    replace: "Replace",
    keep: "Keep playing",
    copied: (label) => `Copied the deal ID: ${label}`,
    copyRefused: (label) => `Deal ID: ${label} (copying is not allowed here; select it to copy)`,
    pausedTitle: "Game paused",
    resume: "Resume",
    saveFailed: "Saving failed (storage full or blocked): play on, but this game is not saved.",
    saveProblem: (why) => `Your saved game was not loaded: ${why}. It is kept as it is and will not be overwritten; this game is not saved.`,
    corrupt: "it is not readable (corrupt)",
    unsupported: (v) => `it is from an unsupported version (${v})`,
    noReplay: (why) => `it does not replay (${why})`,
    dropSave: "Delete the old save and save this game",
    otherTab: "This game was changed in another tab, so this tab has stopped saving. Reload to continue with the latest game.",
    reload: "Reload",
    close: "Close",
    noRestart: "This is the deal's start: there is nothing to restart.",
    offline: "The server cannot be reached: nothing was changed. Start it again (python -m solitaire_rl.play) and repeat the move; your game is kept in this browser.",
    verdictOffline: "not checked: the server cannot be reached",
    // draw 1
    draw3Only: (source) => `, ${{agent: "the trained agent", network: "the expert network",
                                 guided: "the network-guided search"}[source] || "that source"} plays draw 3 only`,
    plannerLate: ", the planner ran out of time",
  },
  ja: {
    copyTitle: (l) => `${l} をコピー`, codeChip: (c) => `コード ${c}…`,
    reasonJoin: "。", moreMessage: "…続き", lessMessage: "閉じる", moreMessageLabel: "メッセージ全体を表示",
    lessMessageLabel: "メッセージを元の行に戻す",
    menu: "メニュー", hintSource: "ヒントの出どころ", fromPlanner: "プランナー（強い）",
    fromAgent: "学習済みエージェント（すぐ答える）", checking: "考え中…",
    fromCommitment: "コミットメント・プランナー", byCommitment: "コミットメント・プランナー",
    klondikeOnly: "、コミットメント・プランナーはクロンダイク専用です",
    fromNetwork: "エキスパートネットワーク", fromGuided: "ネットワークが導く探索",
    hint: "ヒント：", quickAnswer: "（考える時間が足りず、手早く答える相手のヒントです）",
    hintBy: (who) => `ヒント（${who}）：`, byPlanner: "プランナー", byAgent: "学習済みエージェント", bySimple: "簡単なプレイヤー",
    agentDown: "、学習済みエージェントは使えません",
    byNetwork: "エキスパートネットワーク", byGuided: "ネットワークが導く探索",
    networkDown: "、ネットワークは使えません", guidedLate: "、探索は時間切れ",
    badDeal: (text, what) => `「${text}」は開ける配りではありません。${what}を入力してください。`, closeNotice: "このお知らせを閉じる",
    noUndo: "戻せる手がありません",
    noRedo: "やり直せる手がありません",
    dealCopy: (label) => `配り ${label}（コピー）`,
    replaceTitle: "この局を置き換えますか？",
    replace: "置き換える",
    keep: "続ける",
    copied: (label) => `配りの識別子をコピーしました：${label}`,
    copyRefused: (label) => `配りの識別子：${label}（ここではコピーできません。選択してコピーしてください）`,
    pausedTitle: "一時停止中",
    resume: "再開する",
    saveFailed: "保存できませんでした（容量不足か保存の禁止）。このまま遊べますが、この局は保存されません。",
    saveProblem: (why) => `保存された局を読み込めませんでした：${why}。保存はそのまま残し、上書きしません。この局は保存されません。`,
    corrupt: "読み取れません（破損）",
    unsupported: (v) => `対応外の版です（${v}）`,
    noReplay: (why) => `再現できません（${why}）`,
    dropSave: "古い保存を消して、この局を保存する",
    otherTab: "別のタブでこの局が更新されたため、このタブでの保存を停止しました。最新の局で続けるには読み直してください。",
    reload: "読み直す",
    close: "閉じる",
    noRestart: "配りの最初の状態です。最初からやり直す手はありません",
    offline: "サーバーにつながりません。何も変わっていません。サーバーを起動し直して（python -m solitaire_rl.play）、もう一度操作してください。局はこのブラウザに残っています。",
    verdictOffline: "確認できません：サーバーにつながりません",
    // draw 1
    draw3Only: (source) => `、${{agent: "学習済みエージェント", network: "エキスパートネットワーク",
                                 guided: "ネットワークが導く探索"}[source] || "その出どころ"}は 3 枚めくり専用です`,
    plannerLate: "、プランナーは時間切れ",
  },
};
function ct(key, ...args) {  // the shared words, in the page's language (a page's t() falls back to them)
  const v = (COMMON_WORDS[app.lang] || COMMON_WORDS.en)[key];
  return typeof v === "function" ? v(...args) : v;
}

function applyCommonLanguage() {  // the menu's shared labels
  $("menu-button").setAttribute("aria-label", ct("menu"));  // the button shows ☰ and, where there is room, the word
  $("menu-button").title = ct("menu");
  wordMore();
  wordSettings();
  for (const el of document.querySelectorAll("[data-c]")) el.textContent = ct(el.dataset.c);
}

function setLanguage(lang) {
  app.lang = lang;
  try { if (app.storage) app.storage.setItem(LANG_KEY, lang); } catch (e) { /* the choice is not kept */ }
  applyCommonLanguage();
  applyLanguage();
}

// ------------------------------------------------------------------ the message line and grey buttons
function message(text, kind = "info", ja = "") {  // the dock's message line (two lines kept for it)
  const m = $("message");
  m.textContent = text;
  m.className = `message ${kind}`;
  m.title = ja || "";
}

// A message longer than its box (a hint with its reason on a phone) is never cut for good: "… more" at
// the box's end opens the whole text over the table, above the dock, until tapped again or the text
// changes. The box keeps its height, so nothing on the table moves.
function wireMessage() {
  const m = $("message"), box = document.createElement("div"), more = document.createElement("button");
  box.className = "message-box";
  m.before(box);
  more.id = "message-more"; more.type = "button"; more.className = "message-more"; more.hidden = true;
  more.setAttribute("aria-controls", "message"); more.setAttribute("aria-expanded", "false");
  box.append(m, more);
  let shown = "";
  const expand = (open) => {
    box.style.height = open ? `${box.offsetHeight}px` : "";
    m.classList.toggle("expanded", open);
    more.setAttribute("aria-expanded", String(open));
    wordMore();
  };
  const check = () => {
    if (m.textContent !== shown) { shown = m.textContent; if (m.classList.contains("expanded")) expand(false); }
    if (m.classList.contains("expanded")) return;
    m.classList.remove("clipped");
    const clipped = m.scrollHeight > m.clientHeight + 1;
    m.classList.toggle("clipped", clipped);
    more.hidden = !clipped;
  };
  more.addEventListener("click", () => expand(!m.classList.contains("expanded")));
  new MutationObserver(check).observe(m, {childList: true, characterData: true, subtree: true});
  new ResizeObserver(check).observe(box);
}

function wordMore() {  // the "… more" button's words, in the page's language
  const more = $("message-more");
  if (!more) return;
  const open = more.getAttribute("aria-expanded") === "true";
  more.textContent = ct(open ? "lessMessage" : "moreMessage");
  more.setAttribute("aria-label", ct(open ? "lessMessageLabel" : "moreMessageLabel"));
}

function showError(e) {
  const text = e.message || String(e);
  if (app.lang !== "ja" || !e.ja) message(text, "error");
  else if (app.errorDetail && e.code === "MALFORMED") message(`${e.ja}：${text}`, "error", e.ja);  // names what was read
  else message(e.ja, "error", e.ja);
}

function setDisabled(button, why) {  // a grey button that still explains, when pressed, why it does nothing
  button.setAttribute("aria-disabled", why ? "true" : "false");
  button.title = !why ? "" : typeof why === "string" ? why : tx(why);
}

// ------------------------------------------------------------------ server
function browserLanguage(chosen) {  // the stored choice, else the browser's language (Japanese or English)
  if (["en", "ja"].includes(chosen)) return chosen;
  return (navigator.language || "").toLowerCase().startsWith("ja") ? "ja" : "en";
}

function setOffline(offline) {  // the server answered (false) or could not be reached (true): the verdict says so
  if (app.offline === offline) return;
  app.offline = offline;
  if (app.state) {
    renderVerdict();
    if (!offline) requestVerdict();  // back: the verdict is asked again for the position shown
  }
}

async function api(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method, headers: body ? {"Content-Type": "application/json"} : {},
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (e) {  // no answer at all (the server is down): a plain message, never the browser's "Failed to fetch"
    const error = new Error(COMMON_WORDS.en.offline);
    error.ja = COMMON_WORDS.ja.offline; error.code = "OFFLINE";
    setOffline(true);
    throw error;
  }
  setOffline(false);
  const data = await response.json().catch(() => ({message: `HTTP ${response.status}`}));
  if (!response.ok) {
    const error = new Error(data.message || `HTTP ${response.status}`);
    error.status = response.status; error.code = data.error; error.ja = data.message_ja;
    throw error;
  }
  return data;
}

function queue(task, {auto = false} = {}) {  // one request at a time, in order; auto: not the player's own
  if (!auto) app.acts++;
  app.busy = app.busy.then(task).catch((e) => showError(e));
  return app.busy;
}

async function drained() {  // once the queue is empty, with what its tasks queued in turn (auto-play)
  let last;
  do { last = app.busy; await last; } while (last !== app.busy);
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
      chanceMeetsVerdict();
    }
  } catch (e) { /* a verdict is advice: play goes on without it */ }
}

// ------------------------------------------------------------------ hints
function positionKey(s) { return s ? `${s.session}|${s.history.join(",")}` : ""; }

function noteState(previous, state) {  // a new position drops the hint request still in flight
  if (!state || positionKey(previous) !== positionKey(state)) {  // (not one still waiting for the queue)
    if (app.hintPending && !app.hintWaiting) { app.hintPending = false; app.hintAsk++; }
  }
  statsNote(previous, state);  // stats.js: a game counts from its first move, once
}

// A hint is for the position the player will see once what they asked before it is done: a move still
// on its way, and the safe cards auto-play sends up after it (issue 51: a Hint tapped just after a move
// was dropped when auto-play moved a card, and said nothing). What the player does after asking drops it.
function hint() {  // asks for a hint beside the request queue: taps and draws go on meanwhile
  if (!app.state || app.paused) return;
  if (app.state.outcome === "win") { showResult(); return; }  // after View the board: the result again
  if (app.state.outcome === "dead_end") { showDeadEnd(); return; }  // after View the board: the exits again
  const ask = ++app.hintAsk, acts = app.acts;
  app.hintPending = true;
  app.hintWaiting = true;
  render();
  const source = hintSources().includes(app.hintSource) ? app.hintSource : defaultHintSource();
  app.hinting = (async () => {
    try {
      await drained();  // the queue's actions first, auto-play's included
      if (ask !== app.hintAsk) return;
      app.hintWaiting = false;
      const s = app.state, key = positionKey(s);
      if (!s || app.acts !== acts) {  // the player acted meanwhile: no hint for where they left
        app.hintPending = false; render(); return;
      }
      const state = await api("POST", `${GAMES}/${s.session}/hint?source=${source}`);
      if (ask !== app.hintAsk || positionKey(app.state) !== key) return;  // for an older position: dropped
      app.hintPending = false;
      setState(state);
      hintArrived();
    } catch (e) {
      if (ask === app.hintAsk) { app.hintWaiting = false; app.hintPending = false; render(); showError(e); }
    }
  })();
  return app.hinting;
}

// A hint as the server sends it (play/server/hints.py): kind "move" (Pyramid's places and move_kind,
// Klondike's from_place and to_place), "looping" or "no_progress"; a move or looping hint names the source
// asked (requested), the source that answered (hint_source), its player (agent) and why another answered
// (fallback_reason; fallbacks, the codes the page words).
function hintWho(h) {  // who answered, in words
  if (h.hint_source === "commitment") return ct("byCommitment");
  if (h.hint_source === "planner") return ct("byPlanner");
  if (h.hint_source === "network") return ct("byNetwork");
  if (h.hint_source === "guided") return ct("byGuided");
  return h.agent === "greedy" ? ct("bySimple") : ct("byAgent");
}

const FALLBACK_WORDS = {network_unavailable: "networkDown", guided_late: "guidedLate", planner_late: "plannerLate",
                        agent_unavailable: "agentDown", klondike_only: "klondikeOnly"};

function fallbackNote(h) {  // why other sources than the one asked for answered, in order ("" when none did)
  return (h.fallbacks || []).map((code) => code === "draw3_only" ? ct("draw3Only", h.requested)
                                                                 : ct(FALLBACK_WORDS[code])).join("");
}

function hintReason(h) {  // the server's words for a player (0 wins said plainly; a preference is no chance)
  return (app.lang === "ja" ? h.reason_ja : h.reason_en) || "";  // reason_ja is null for a reason it cannot say
}

// The hint's line: "Hint: Move the 8 of clubs onto ... — why" from the page's own source, which is
// never named (issue 51: no engine words on the main screen); when it ran out of time and another
// answered, the line ends saying so in a player's words. A source chosen under Advanced is named, with
// why another answered for it: "Hint (trained agent): ...".
function hintLine(h) {
  const reason = hintReason(h);
  const said = reason ? tx(h).replace(/\.$/, "") : tx(h);  // "Draw 3 cards — why", not "cards. — why"
  const move = `${said}${reason ? ct("reasonJoin") + reason : ""}`;
  if ((h.requested || app.hintSource) !== defaultHintSource()) {
    return `${ct("hintBy", hintWho(h) + fallbackNote(h))}${move}`;
  }
  return `${ct("hint")}${move}${(h.fallbacks || []).length ? ct("quickAnswer") : ""}`;
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

// ------------------------------------------------------------------ the chance of winning
// Chance (C) asks the planner's estimate for the position as the player sees it (beside the queue,
// after its last action, as a hint is) and shows it in the message line until the position changes.
// With the menu's warning on, every new position is asked quietly (a busy server's 503 is ignored),
// and a drop of SHARP_DROP or more from the last estimate of the same game is said (the page's
// chanceDrop words), with Undo as the way back.
const SHARP_DROP = 0.2;  // a drop of 20 points or more in the chance is worth a warning

function chancePercent(share) { return 5 * Math.round(share * 20); }  // as the server words it: 32 samples tell no finer

// A chance in the drop warning's words (issue 51), honest at both ends as the server's chance line is
// (chance_words.py): "certain" and "none" only where every card is known (or a loss is proved); an estimate
// that rounds to 0% is "very low", never "about 0%", and one that rounds to 100% "very high".
function chanceLevel(share, certain) {
  if (certain && share >= 1) return {en: "certain", ja: "確実な状態"};
  if (certain && share <= 0) return {en: "none", ja: "ゼロ"};
  const pct = chancePercent(share);
  if (pct === 0) return {en: "very low", ja: "ごくわずか"};
  if (pct === 100) return {en: "very high", ja: "とても高い状態"};
  return {en: `about ${pct}%`, ja: `約 ${pct}%`};
}
function jaSpaced(word) { return /[\w%]$/.test(word) ? `${word} ` : word; }  // "約 60% から", "ゼロから"

function askChance(s) {  // the estimate for s's position, after the queue's last action
  return (async () => {
    await app.busy;
    if (positionKey(app.state) !== positionKey(s)) return null;
    return api("POST", `${GAMES}/${s.session}/chance`);
  })();
}

function keepChance(s, answer) {  // the estimate of s's position becomes the last one; the previous one
  if (answer.basis === "none") return null;  // no sample finished in time: nothing to compare, nothing kept
  const key = positionKey(s), before = app.lastChance;
  const previous = before && before.session === s.session && before.key !== key ? before : null;
  const again = before && before.session === s.session && before.key === key;  // asked again: the same previous
  app.lastChance = {key, share: answer.share, certain: answer.basis === "certain", session: s.session,
                    previous: previous ? previous.share : again ? before.previous : null,
                    previousCertain: previous ? !!previous.certain : again ? !!before.previousCertain : false};
  return previous;
}

// One honest policy (issue 51): a chance is never above 0 beside a proved loss, and the drop warning reads
// the same numbers. The server's chance already says "none" where it proves the loss itself; the verdict's
// own search may prove it later (a longer budget), and then the chance line and the warning follow it.
function provedLost(s) { return !!(s && s.verdict && s.verdict.status === "not_winnable"); }

function honestAnswer(s, answer) {  // the estimate as shown beside s's verdict
  return provedLost(s) && answer.share > 0 ? {...answer, share: 0, basis: "certain", ...chanceLost()} : answer;
}

function chanceMeetsVerdict() {  // a verdict that proves the loss after the estimate came: the estimate follows
  const s = app.state, key = positionKey(s);
  if (!provedLost(s)) return;
  const last = app.lastChance;
  let changed = false;
  if (last && last.key === key && last.share > 0) {
    last.share = 0;
    last.certain = true;
    if (app.warnDrop && last.previous !== null && last.previous >= SHARP_DROP - 1e-9) {
      app.chanceNote = {key, kind: "warning", share: 0,
                        ...chanceDrop(chanceLevel(last.previous, last.previousCertain), chanceLevel(0, true))};
      changed = true;
    }
  }
  const note = app.chanceNote;
  if (note && note.key === key && note.kind === "info" && note.share > 0) {
    app.chanceNote = {key, kind: "info", share: 0, ...chanceLost()};
    changed = true;
  }
  if (changed) render();
}

function chance() {
  if (!app.state || app.paused) return;
  const s = app.state, key = positionKey(s), ask = ++app.chanceAsk;
  app.chancePending = true;
  render();
  app.chancing = (async () => {
    try {
      const asked = await askChance(s);
      if (ask !== app.chanceAsk || !asked || positionKey(app.state) !== key) return;
      const answer = honestAnswer(app.state, asked);
      app.chancePending = false;
      keepChance(s, answer);
      app.chanceNote = {key, en: answer.en, ja: answer.ja, kind: "info", share: answer.share};
      render();
    } catch (e) {
      if (ask === app.chanceAsk) { app.chancePending = false; render(); showError(e); }
    }
  })();
  return app.chancing;
}

function watchChance() {  // the warning's quiet estimate of the position just reached
  const s = app.state, key = positionKey(s);
  app.chancing = (async () => {
    let answer;
    try { answer = await askChance(s); } catch (e) { return; }  // busy or offline: no warning this time
    if (!answer || positionKey(app.state) !== key) return;
    answer = honestAnswer(app.state, answer);
    const before = keepChance(s, answer);
    if (before && before.share - answer.share >= SHARP_DROP - 1e-9) {
      app.chanceNote = {key, kind: "warning", share: answer.share,
                        ...chanceDrop(chanceLevel(before.share, before.certain),
                                      chanceLevel(answer.share, answer.basis === "certain"))};
      render();
    }
  })();
  return app.chancing;
}

function wireChance() {  // the Chance button and the warning's box (after openPage: it reads the stored setting)
  $("chance").addEventListener("click", chance);
  const box = $("warn-drop");
  try { box.checked = !!app.storage && app.storage.getItem(WARN_KEY) === "1"; } catch (e) { box.checked = false; }
  app.warnDrop = box.checked;
  box.addEventListener("change", () => {
    app.warnDrop = box.checked;
    try { if (app.storage) app.storage.setItem(WARN_KEY, box.checked ? "1" : "0"); } catch (e) { /* not kept */ }
    if (app.warnDrop && app.state) watchChance();  // the estimate the next move is compared with
  });
}

// ------------------------------------------------------------------ cards
const FACE_RANKS = {J: "J", Q: "Q", K: "K"};
// The number cards' traditional pip layouts (issue 51): each pip's column (0 left, 1 middle, 2 right) and
// height (0 top to 1 bottom) in the card's middle; pips below the middle are printed upside down.
const PIP_LAYOUTS = {
  2: [[1, 0], [1, 1]],
  3: [[1, 0], [1, .5], [1, 1]],
  4: [[0, 0], [2, 0], [0, 1], [2, 1]],
  5: [[0, 0], [2, 0], [1, .5], [0, 1], [2, 1]],
  6: [[0, 0], [2, 0], [0, .5], [2, .5], [0, 1], [2, 1]],
  7: [[0, 0], [2, 0], [1, .25], [0, .5], [2, .5], [0, 1], [2, 1]],
  8: [[0, 0], [2, 0], [1, .25], [0, .5], [2, .5], [1, .75], [0, 1], [2, 1]],
  9: [[0, 0], [2, 0], [0, 1 / 3], [2, 1 / 3], [1, .5], [0, 2 / 3], [2, 2 / 3], [0, 1], [2, 1]],
  10: [[0, 0], [2, 0], [1, 1 / 6], [0, 1 / 3], [2, 1 / 3], [0, 2 / 3], [2, 2 / 3], [1, 5 / 6], [0, 1], [2, 1]],
};
function pipsOf(rank, suit) {  // a number card's pips, laid out as printed
  const box = document.createElement("span");
  box.className = "pips"; box.setAttribute("aria-hidden", "true");
  for (const [x, y] of PIP_LAYOUTS[rank]) {
    const pip = document.createElement("span");
    pip.textContent = suit;
    pip.style.setProperty("--x", String(x / 2)); pip.style.setProperty("--y", String(y));
    if (y > .5) pip.className = "down";
    box.append(pip);
  }
  return box;
}
// Rank and suit in two corners; in the middle the face's letter, the Ace's large suit, or a number card's
// pips (large print: one large suit instead, behind bigger corners).
function cardFace(el, card) {
  el.textContent = "";
  const rank = card.name.slice(0, -1) === "T" ? "10" : card.name.slice(0, -1);
  const corner = (where) => {
    const c = document.createElement("span"); c.className = `corner ${where}${rank === "10" ? " ten" : ""}`;
    c.setAttribute("aria-hidden", "true");
    const r = document.createElement("span"); r.className = "rank"; r.textContent = rank;
    const s = document.createElement("span"); s.className = "suit"; s.textContent = card.suit;
    c.append(r, s);
    return c;
  };
  const pip = document.createElement("span");
  pip.setAttribute("aria-hidden", "true");
  pip.className = FACE_RANKS[rank] ? "pip face" : PIP_LAYOUTS[rank] ? "pip number" : "pip";
  pip.textContent = FACE_RANKS[rank] ? `${rank}${card.suit}` : card.suit;
  el.append(corner("tl"), pip, ...(PIP_LAYOUTS[rank] ? [pipsOf(rank, card.suit)] : []), corner("br"));
  el.classList.toggle("red", card.red);
  el.dataset.suit = card.suit;  // the four-colour deck's colours key on it
}

function backFace(el, count) {  // a card back, with the count of the cards under it
  el.textContent = "";
  el.classList.add("back");
  const n = document.createElement("span"); n.className = "count"; n.textContent = String(count);
  el.append(n);
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

function openPanel(title, bodyNodes, buttons, kind) {
  closeMenu();
  if ($("overlay").hidden) app.returnFocus = document.activeElement;  // given back when the panel closes
  const row = fillPanel(title, bodyNodes, buttons, kind);
  for (const el of behindPanel()) if (el) el.inert = true;  // Tab and clicks stay in the panel until it closes
  (row.querySelector("button") || $("panel")).focus();
}

function closePanel() {
  const wasOpen = !$("overlay").hidden;
  for (const el of behindPanel()) if (el) el.inert = false;
  $("overlay").hidden = true;
  const back = app.returnFocus;
  app.returnFocus = null;
  if (wasOpen && back && back !== document.body) refocus(back);
  $("overlay").dataset.kind = "";
}

// ------------------------------------------------------------------ the menu (on a phone: the rare controls)
function openMenu() { $("menu").classList.add("open"); $("menu-button").setAttribute("aria-expanded", "true"); }
function closeMenu() {
  if (!$("menu").classList.contains("open")) return;
  $("menu").classList.remove("open");
  $("menu-button").setAttribute("aria-expanded", "false");
}
function menuOpen() { return $("menu").classList.contains("open"); }

function wireMenu() {
  $("menu-button").addEventListener("click", () => (menuOpen() ? closeMenu() : openMenu()));
  $("menu").addEventListener("click", (e) => { if (e.target.closest("button") && !e.target.closest("form")) closeMenu(); });
  document.addEventListener("pointerdown", (e) => {
    if (menuOpen() && !e.target.closest("#menu") && !e.target.closest("#menu-button")) closeMenu();
  });
  const sourceBox = $("hint-source");
  sourceBox.value = app.hintSource;
  sourceBox.addEventListener("change", () => {
    app.hintSource = hintSources().includes(sourceBox.value) ? sourceBox.value : defaultHintSource();
    try { if (app.storage) app.storage.setItem(HINT_SOURCE_KEY, app.hintSource); } catch (e) { /* not kept */ }
  });
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

async function checkedDeal(body, what) {  // the new game's state, or null with a plain message (the box keeps the text)
  try {
    const state = await api("POST", GAMES, body);
    $("deal-input").value = "";
    $("deal-input").blur();
    return state;
  } catch (e) {
    if (e.status === undefined || e.status >= 500) { showError(e); return null; }
    const text = body.deal.length > 40 ? body.deal.slice(0, 37) + "…" : body.deal;
    if (e.code === "DEAL_OUT_OF_RANGE") message(tx({en: e.message, ja: e.ja}), "error");  // says the range
    else message(ct("badDeal", text, what), "error");
    $("message").title = e.message || "";
    $("deal-input").focus();
    return null;
  }
}

function showRules() { closeMenu(); $("game-view").hidden = true; $("rules").hidden = false; $("rules-title").focus(); }
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
  const close = panelButton("×", () => { n.remove(); if (app.notices) delete app.notices[id]; });
  close.className = "notice-close";
  close.setAttribute("aria-label", ct("closeNotice"));
  n.append(close);
}

function savable() { return !!(app.state && app.storage && app.saving); }

function writeSave(data) {  // with the server's session and revision: a reload takes the game up there
  try { app.storage.setItem(SAVE_KEY, JSON.stringify({...data, server_session: app.state.session, revision: app.state.revision})); }
  catch (e) { notice("storage-notice", () => [t("saveFailed")]); }
}

async function liveGame(s) {  // the saved game's state on the server, if it still has it (another tab may have played on)
  if (typeof s.server_session !== "string") return null;
  try {
    const state = await api("GET", `${GAMES}/${encodeURIComponent(s.server_session)}`);
    return state.deal.label === s.label && state.revision >= (s.revision || 0) ? state : null;
  } catch (e) { return null; }  // forgotten (restarted, evicted): the save is replayed instead
}

async function reloadStale() {  // 409 STALE_GAME: another tab moved this game on; show its latest state
  setState(await api("GET", `${GAMES}/${app.state.session}`));
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

function savedHinted(s) {  // a save's moves that were the hint's (issue 51): indices into its moves, else none
  const moves = (s.history || []).length + (s.redo || []).length;
  return Array.isArray(s.hinted) ? s.hinted.filter((i) => Number.isInteger(i) && i >= 0 && i < moves) : [];
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
  // Before this page shows a game, a save is what it is about to load: the last words of the page
  // this one replaces (a reload saves on pagehide, which Chromium may run after this page starts).
  if (!app.state) return;
  if (sameGameSaved(event.newValue)) return;  // another tab opened (and saved) this same game: nothing changed
  app.saving = false;
  notice("tab-notice", () => [t("otherTab"), [[t("reload"), () => location.reload()]]]);
}

function sameGameSaved(raw) {  // whether a save written by another tab holds this tab's game as it is
  const s = app.state;
  if (!s) return false;
  try {
    const data = JSON.parse(raw);
    return data.label === s.deal.label && data.history.join() === s.history.join() && data.redo.join() === s.redo.join();
  } catch (e) { return false; }
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
  openPanel(t("recordsTitle"), nodes, [[ct("stOpen"), showStats], [t("close"), () => {}]], "records");  // stats.js
}

function recordCells(tr, values) {
  for (const v of values) { const td = document.createElement("td"); td.textContent = v; tr.append(td); }
}

function shortLabel(label) { return label.length > 30 ? label.slice(0, 12) + "…" : label; }

// ------------------------------------------------------------------ keys and wiring
function ignoredKey(event) {  // a key with a modifier, or one typed into a field, is not a shortcut
  if (event.ctrlKey || event.metaKey || event.altKey) return true;
  const tag = event.target.tagName;
  if (tag === "INPUT" && event.target.type === "checkbox") return event.key !== "Escape";  // Esc closes the menu
  return tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA";
}

function panelOrRulesKey(event, closable) {  // true: the open panel or the rules page takes the key (Esc closes)
  if (menuOpen() && event.key === "Escape") { closeMenu(); $("menu-button").focus(); return true; }
  if (!$("overlay").hidden) {
    const kind = $("overlay").dataset.kind;  // every page's settings and dead-end panels close with Esc too
    if (event.key === "Escape" && (closable.includes(kind) || kind === "settings" || kind === "dead-end")) closePanel();
    return true;
  }
  if (!$("rules").hidden) { if (event.key === "Escape") showGame(); return true; }
  return false;
}

function openPage(language) {  // wires the page, finds its storage and shows it in language(stored choice)
  wire();
  wireCommon();
  app.storage = probeStorage();
  loadSettings();  // player.js: the kept settings, applied before the first render
  wireSettings();
  wireAdvanced();
  let chosen = null;
  try { chosen = app.storage && app.storage.getItem(LANG_KEY); } catch (e) { /* no stored choice */ }
  app.lang = language(chosen);
  try {
    const source = app.storage && app.storage.getItem(HINT_SOURCE_KEY);
    if (hintSources().includes(source)) app.hintSource = source;
  } catch (e) { /* no stored choice */ }
  wireMenu();
  applyCommonLanguage();
  applyLanguage();
}

function wireCommon() {  // the buttons, events and timers both pages wire the same way
  wireMessage();
  $("undo").addEventListener("click", () => act({type: "undo"}));
  $("redo").addEventListener("click", () => act({type: "redo"}));
  $("hint").addEventListener("click", hint);
  $("new-deal").addEventListener("click", () => newDeal());
  $("records-button").addEventListener("click", showRecords);
  wireStats();  // stats.js: the Daily deal button
  $("rules-button").addEventListener("click", showRules);
  $("rules-back").addEventListener("click", showGame);
  if ($("rules-link")) $("rules-link").addEventListener("click", showRules);  // under the table, always
  $("copy-deal").addEventListener("click", copyDeal);
  $("lang").addEventListener("click", () => setLanguage(app.lang === "ja" ? "en" : "ja"));
  $("fullscreen").addEventListener("click", () => {  // the game is on the server: nothing to redo
    if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
    else if (document.documentElement.requestFullscreen) document.documentElement.requestFullscreen().catch(() => {});
  });
  document.addEventListener("fullscreenchange", () => {
    $("fullscreen").setAttribute("aria-pressed", String(!!document.fullscreenElement));
  });
  document.addEventListener("keydown", onKey);
  document.addEventListener("visibilitychange", () => { if (document.hidden) stopClock(); else startClock(); });
  window.addEventListener("storage", onStorage);
  window.addEventListener("pagehide", () => { stopClock(); save(); });
  setInterval(tick, 500);
  setInterval(() => { if (app.clockFrom !== null) save(); }, 5000);
}
