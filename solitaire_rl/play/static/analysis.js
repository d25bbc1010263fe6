// The analysis viewer: a finished game (or an agent's game from a benchmark file) move by move, with the
// solver's verdict after each move, the losing move marked and its winning alternative on the board.
// Every text comes in words from the server (English and Japanese) or from WORDS here; the pictures are
// the server's, drawn in the page's card art, showing what the player saw.
"use strict";

const LANG_KEY = "solitaire-rl.lang";  // the language choice, shared with the game pages
const WORDS = {
  en: {
    colon: ": ", title: "Game analysis", pageTitle: "Game analysis — solitaire-rl", lang: "日本語",
    chooserTitle: "Watch an agent's game",
    chooserHelp: "Open a benchmark result file (python -m solitaire_rl.training.benchmark --json), choose a game and watch it move by move with the solver's verdicts.",
    file: "Benchmark file", row: "Game", watch: "Watch this game", other: "Watch another game",
    back: "Back to the game", games: "Games", steps: "Step through the game", moves: "Moves",
    first: "First position", prev: "Previous move", next: "Next move", last: "Last position",
    toLosing: "Losing move", alternative: "Winning alternative", deal: "The deal",
    analysing: "Analysing the game…", noFile: "This file holds no game to replay.",
    badFile: "This is not a benchmark result file (no rows with moves).",
    rowLabel: (r) => `${r.agent} on ${r.deal_id}: ${r.outcome}, ${r.steps} moves${r.first_losing_move != null ? `, lost at move ${r.first_losing_move + 1}` : ""}`,
    afterMove: (n, total) => `After move ${n} of ${total}`, atDeal: (total) => `The deal, before the first of ${total} moves`,
    boardAlt: (where, verdict) => `The table: ${where}. The game ${verdict}.`,
    instead: (n, text, len) => `Instead of move ${n}, a winning move was: ${text} (a winning line of ${len} moves begins with it; framed on the board).`,
    noLosing: "No move lost the game: there is no alternative to show.",
    agentGame: (agent) => `The ${agent} agent's game.`,
    playerVerdict: (v) => v,
    hintMove: "the hint's move", hintMoveAlt: " It was the hint's move.", hintMoveCaption: " (the hint's move)",
  },
  ja: {
    colon: "：", title: "局の振り返り", pageTitle: "局の振り返り — solitaire-rl", lang: "English",
    chooserTitle: "エージェントの対局を見る",
    chooserHelp: "ベンチマークの結果ファイル（python -m solitaire_rl.training.benchmark --json）を開き、対局を選ぶと、ソルバーの判定つきで 1 手ずつ見られます。",
    file: "ベンチマークの結果ファイル", row: "対局", watch: "この対局を見る", other: "別の対局を見る",
    back: "ゲームに戻る", games: "ゲーム", steps: "1 手ずつ進める・戻す", moves: "手順",
    first: "最初の局面", prev: "1 手戻る", next: "1 手進む", last: "最後の局面",
    toLosing: "負けの一手", alternative: "勝てた別の手", deal: "配り",
    analysing: "局を調べています…", noFile: "このファイルには再生できる対局がありません。",
    badFile: "ベンチマークの結果ファイルではありません（手順つきの行がありません）。",
    rowLabel: (r) => `${r.agent}・${r.deal_id}：${r.outcome}、${r.steps} 手${r.first_losing_move != null ? `、${r.first_losing_move + 1} 手目で負け` : ""}`,
    afterMove: (n, total) => `${total} 手中 ${n} 手目のあと`, atDeal: (total) => `配りの局面（全 ${total} 手）`,
    boardAlt: (where, verdict) => `盤面：${where}。${verdict}。`,
    instead: (n, text, len) => `${n} 手目の代わりに勝てた手：${text}（${len} 手の勝ち筋の最初の一手。盤面に枠で示しています）。`,
    noLosing: "負けの原因になった手はないので、示す別の手はありません。",
    agentGame: (agent) => `${agent} エージェントの対局です。`,
    playerVerdict: (v) => v,
    hintMove: "ヒントの手", hintMoveAlt: "ヒントの手でした。", hintMoveCaption: "（ヒントの手）",
  },
};

const view = {lang: "en", data: null, pos: 0, alt: false, rows: [], file: null, busy: Promise.resolve()};
window.analysisApp = view;
const $ = (id) => document.getElementById(id);
function w(key, ...args) { const v = WORDS[view.lang][key]; return typeof v === "function" ? v(...args) : v; }
function tx(obj) { return obj ? (view.lang === "ja" && obj.ja ? obj.ja : obj.en) : ""; }

function applyLanguage() {
  document.documentElement.lang = view.lang;
  document.title = w("pageTitle");
  $("title").textContent = view.data && view.data.title ? tx(view.data.title) : w("title");
  $("lang").textContent = w("lang");
  $("lang").lang = view.lang === "ja" ? "en" : "ja";
  $("games-nav").setAttribute("aria-label", w("games"));
  $("to-pyramid").textContent = view.lang === "ja" ? "ピラミッド" : "Pyramid";
  $("to-klondike").textContent = view.lang === "ja" ? "クロンダイク" : "Klondike";
  $("chooser-title").textContent = w("chooserTitle");
  $("chooser-help").textContent = w("chooserHelp");
  $("file-label").textContent = w("file");
  $("row-label").textContent = w("row");
  $("watch").textContent = w("watch");
  $("other").textContent = w("other");
  $("back").textContent = w("back");
  $("steps").setAttribute("aria-label", w("steps"));
  $("moves").setAttribute("aria-label", w("moves"));
  for (const [id, key] of [["first", "first"], ["prev", "prev"], ["next", "next"], ["last", "last"]]) {
    $(id).setAttribute("aria-label", w(key));
    $(id).title = w(key);
  }
  $("to-losing").textContent = w("toLosing");
  $("alternative").textContent = w("alternative");
  fillRows();
  if (view.data) render(true);
}

function setLanguage(lang) {
  view.lang = lang;
  try { localStorage.setItem(LANG_KEY, lang); } catch (e) { /* the choice is not kept */ }
  applyLanguage();
}

function status(text) { $("status").textContent = text; }

async function post(body) {
  const r = await fetch("/api/analysis", {method: "POST", headers: {"Content-Type": "application/json"},
                                          body: JSON.stringify(body)});
  const data = await r.json();
  if (!r.ok) throw data;
  return data;
}

function analyse(body) {
  status(w("analysing"));
  view.busy = post(body).then((data) => {
    view.data = data; view.pos = data.losing ? data.losing.index + 1 : data.frames - 1; view.alt = false;
    $("chooser").hidden = true;
    $("analysis").hidden = false;
    $("other").hidden = !data.agent;
    $("back").hidden = !!data.agent;
    $("back").href = data.game === "klondike" ? "/klondike" : "/";
    status("");
    render(true);
    $(data.losing ? "to-losing" : "last").focus();
  }).catch((e) => { status(e && e.message ? tx({en: e.message, ja: e.message_ja}) : String(e)); });
  return view.busy;
}

// ------------------------------------------------------------------ the analysis
function moveList() {
  const d = view.data, list = $("moves");
  list.replaceChildren();
  const item = (pos, text, verdict, verdictText, losing, hinted) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button"; b.dataset.pos = String(pos); b.dataset.verdict = verdict;
    if (losing) b.classList.add("losing");
    const main = document.createElement("span"); main.textContent = text;
    if (hinted) {  // the player played the move the hint gave (issue 51): the analysis never blames them for it
      const mark = document.createElement("span"); mark.className = "hint-mark"; mark.textContent = w("hintMove");
      main.append(" ", mark);
    }
    const word = document.createElement("span"); word.className = "verdict-word"; word.textContent = tx(verdictText);
    b.append(main, word);
    b.addEventListener("click", () => go(pos));
    li.append(b);
    if (pos === 0) li.value = 0;
    list.append(li);
  };
  item(0, w("deal"), d.start_verdict, d.start_text, false);
  for (const m of d.moves) item(m.index + 1, tx(m.text), m.verdict, m.verdict_text, m.losing, m.hint);
}

function render(rebuild = false) {
  const d = view.data;
  if (rebuild) moveList();
  $("title").textContent = d.title ? tx(d.title) : w("title");  // by the outcome: a won game lost nothing
  $("summary").textContent = (d.agent ? w("agentGame", d.agent) + " " : "") + tx(d.summary);
  $("judgement").textContent = d.losing && d.losing.judgement_text ? tx(d.losing.judgement_text) : "";
  const total = d.moves.length, pos = view.pos;
  const showAlt = view.alt && d.losing && pos === d.losing.index;
  const verdictText = pos === 0 ? d.start_text : d.moves[pos - 1].verdict_text;
  const where = pos === 0 ? w("atDeal", total) : `${w("afterMove", pos, total)}${w("colon")}${tx(d.moves[pos - 1].text)}`;
  const img = $("board");
  img.src = `/api/analysis/${d.id}/frames/${pos}.png${showAlt ? "?show=alternative" : ""}`;
  img.width = d.game === "klondike" ? 560 : 640;
  img.height = d.game === "klondike" ? 560 : 384;
  img.alt = w("boardAlt", where, tx(verdictText)) + (pos > 0 && d.moves[pos - 1].hint ? w("hintMoveAlt") : "");
  $("caption").textContent = showAlt ? w("instead", d.losing.index + 1, tx(d.losing.alternative), d.losing.line_length)
    : `${where}${pos > 0 && d.moves[pos - 1].hint ? w("hintMoveCaption") : ""} — ${tx(verdictText)}`;
  for (const b of $("moves").querySelectorAll("button")) {
    if (Number(b.dataset.pos) === pos) b.setAttribute("aria-current", "step"); else b.removeAttribute("aria-current");
  }
  const current = $("moves").querySelector('[aria-current="step"]');
  if (current) current.scrollIntoView({block: "nearest"});
  disable("first", pos === 0); disable("prev", pos === 0);
  disable("next", pos === total); disable("last", pos === total);
  disable("to-losing", !d.losing); disable("alternative", !d.losing);
  $("alternative").setAttribute("aria-pressed", String(!!showAlt));
}

function disable(id, off) { $(id).setAttribute("aria-disabled", String(off)); }

function go(pos) {
  if (!view.data) return;
  view.pos = Math.max(0, Math.min(view.data.moves.length, pos));
  view.alt = false;
  render();
}

function toLosing() { if (view.data && view.data.losing) go(view.data.losing.index + 1); }

function toggleAlternative() {
  const d = view.data;
  if (!d || !d.losing) { status(w("noLosing")); return; }
  const on = !(view.alt && view.pos === d.losing.index);
  view.pos = d.losing.index;
  view.alt = on;
  render();
}

// ------------------------------------------------------------------ agents' games from a benchmark file
function fillRows() {
  const select = $("rows");
  const keep = select.value;
  select.replaceChildren();
  view.rows.forEach((r, k) => {
    const o = document.createElement("option");
    o.value = String(k); o.textContent = w("rowLabel", r);
    select.append(o);
  });
  if (keep) select.value = keep;
  select.disabled = !view.rows.length;
  $("watch").disabled = !view.rows.length;
}

async function readFile(file) {
  try {
    const data = JSON.parse(await file.text());
    const rows = (data && Array.isArray(data.rows) ? data.rows : []).filter((r) => r && Array.isArray(r.moves));
    view.file = data;
    view.rows = rows;
    fillRows();
    status(rows.length ? "" : w("badFile"));
  } catch (e) { view.rows = []; fillRows(); status(w("badFile")); }
}

function watch() {
  const r = view.rows[Number($("rows").value)];
  if (!r) { status(w("noFile")); return; }
  const variant = String(view.file.variant || "");
  const game = variant.startsWith("klondike") ? "klondike" : "pyramid";
  analyse({game, variant: game === "klondike" ? "draw3" : variant.replace("pyramid-", "") || "000",
           deal: r.deal_id, moves: r.moves, agent: r.agent});
}

function showChooser() {
  $("analysis").hidden = true;
  $("chooser").hidden = false;
  view.data = null;
  $("file").focus();
}

// ------------------------------------------------------------------ keys and start
function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const tag = (event.target && event.target.tagName) || "";
  if (["INPUT", "SELECT", "TEXTAREA"].includes(tag) || !view.data) return;
  const keys = {ArrowLeft: () => go(view.pos - 1), ArrowRight: () => go(view.pos + 1), Home: () => go(0),
                End: () => go(view.data.moves.length), l: toLosing, L: toLosing, a: toggleAlternative,
                A: toggleAlternative};
  const f = keys[event.key];
  if (f) { event.preventDefault(); f(); }
}

function start() {
  let chosen = null;
  try { chosen = localStorage.getItem(LANG_KEY); } catch (e) { /* no stored choice */ }
  view.lang = ["en", "ja"].includes(chosen) ? chosen : ((navigator.language || "").startsWith("ja") ? "ja" : "en");
  $("lang").addEventListener("click", () => setLanguage(view.lang === "ja" ? "en" : "ja"));
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(view.pos - 1));
  $("next").addEventListener("click", () => go(view.pos + 1));
  $("last").addEventListener("click", () => go(view.data ? view.data.moves.length : 0));
  $("to-losing").addEventListener("click", toLosing);
  $("alternative").addEventListener("click", toggleAlternative);
  $("file").addEventListener("change", () => { if ($("file").files[0]) readFile($("file").files[0]); });
  $("watch").addEventListener("click", watch);
  $("other").addEventListener("click", showChooser);
  document.addEventListener("keydown", onKey);
  applyLanguage();
  const params = new URLSearchParams(location.search);
  const game = params.get("game") === "klondike" ? "klondike" : "pyramid";
  if (params.get("session")) analyse({game, session: params.get("session")});
  else showChooser();
}

start();
