// Statistics and the daily deal, on both pages (loaded after common.js, before the page's script).
//
// What counts as a game: a game enters the statistics at its first move. It is won when cleared; it
// is lost when the player leaves it (a new deal, Restart, another deal, the daily deal) or reaches a
// dead end (a dead end undone and then cleared becomes a win: the same game, counted once). A game
// restored after a reload, or re-created on a restarted server, is the same game; a restarted deal
// is a new one. Games, wins, rates and streaks count finished games; the game in progress counts
// once it ends. Kept in localStorage beside the records (statsKey(): solitaire-rl.<page>.stats,
// format STATS_FORMAT): the latest MAX_STAT_GAMES games one by one, older ones folded into totals per
// variant and deal type, the daily deals' results by date. Unreadable or foreign data is reported in
// the view and replaced on the next write, never thrown.
//
// The daily deal: `${game}-daily-v1-YYYYMMDD` for the player's local date, the same deal for everyone
// on that date and always winnable (the server picks it from the winnable deals by the date:
// agents/solver/daily.py). Its games are the deal type "daily"; its day's result (won beats lost
// beats in progress) and a daily streak (consecutive dates won) are kept per variant.
//
// Hooks: common.js calls statsNote(previous, state) from noteState, wireStats() from wireCommon and
// offers showStats from the Records panel; the rest is here.
"use strict";

const STATS_FORMAT = 1;
const MAX_STAT_GAMES = 1000;   // games kept one by one; older ones are folded into per-group totals
const MAX_DAILY_DATES = 1000;  // daily results kept per variant (the latest dates)
const CHART_GAMES = 30;        // the chart's finished games
const DAY_MS = 86400000;

// statistics and daily deal
const STATS_WORDS = {
  en: {
    stOpen: "Statistics", stTitle: "Statistics", stDaily: "Daily deal", stRecords: "Records",
    stExport: "Export JSON",
    stHead: ["Variant · deal type", "Games", "Won", "Streak now (best)", "Best time", "Fewest moves"],
    stCaption: "Finished games by variant and deal type",
    stAll: "All games", stRate: (w, pct) => `${w} (${pct}%)`, stStreak: (now, best) => `${now} (${best})`,
    stTypes: {random: "random", winnable: "winnable", code: "code", position: "position", daily: "daily"},
    stDraw: (n) => `draw ${n}`,
    stRule: "A game counts from its first move: won when cleared, lost when you leave it (new deal, restart, another deal) or reach a dead end. Reloading the page does not count it again.",
    stNone: "No game finished yet.",
    stPlaying: "The game in progress counts once it ends.",
    stChartTitle: (n) => `The last ${n} finished game${n === 1 ? "" : "s"}, oldest first`,
    stChartAlt: (n, list, wins, pct) => `Chart of the last ${n} finished game${n === 1 ? "" : "s"}, oldest first: ${list}. ${wins} won (${pct}%).`,
    stWon: "won", stLost: "lost", stSep: ", ",
    stLegend: "Tall green bar: won · short red bar: lost · line: win rate so far",
    stNoChart: "The chart appears once a game has finished.",
    stDailyTitle: "Daily deal",
    stDailyLine: (variant, date, result) => `${variant}, ${date}: ${result}`,
    stDailyWon: (time, moves) => `won in ${time}, ${moves} moves`,
    stDailyLost: "lost (you can play it again)", stDailyPlaying: "in progress", stDailyNot: "not played yet",
    stDailyStreak: (now, best) => `Daily streak: ${now} day${now === 1 ? "" : "s"} (best ${best})`,
    stDailyRule: "The same deal for everyone on a date, chosen from the winnable deals: it can always be won.",
    stDailyStarted: (date) => `The daily deal of ${date}: the same deal for everyone today, and winnable.`,
    stDailyAlready: (date) => `This is the daily deal of ${date}: play on.`,
    stExported: (name) => `Saved the statistics and records as ${name}.`,
    stProblem: (why) => `Your stored statistics could not be read (${why}): they have been started afresh.`,
    stForeign: "they belong to another page or version",
    stNoStorage: "Storage is not available in this browser: statistics are not kept.",
  },
  ja: {
    stOpen: "統計", stTitle: "統計", stDaily: "今日の配り", stRecords: "記録", stExport: "JSON で書き出す",
    stHead: ["遊び方 · 配りの種類", "局数", "勝ち", "連勝 今（最高）", "最短時間", "最少手数"],
    stCaption: "終わった局の遊び方と配りの種類ごとの数",
    stAll: "すべての局", stRate: (w, pct) => `${w}（${pct}%）`, stStreak: (now, best) => `${now}（${best}）`,
    stTypes: {random: "ランダム", winnable: "勝てる配り", code: "コード", position: "手作りの局面", daily: "今日の配り"},
    stDraw: (n) => `${n} 枚めくり`,
    stRule: "局は最初の 1 手から数えます。すべて片づければ勝ち、途中で離れる（新しい配り・最初から・別の配り）か手詰まりになれば負けです。ページを読み直しても二重には数えません。",
    stNone: "まだ終わった局はありません。",
    stPlaying: "遊んでいる局は、終わったときに数えます。",
    stChartTitle: (n) => `最近終わった ${n} 局（古い順）`,
    stChartAlt: (n, list, wins, pct) => `最近終わった ${n} 局の図（古い順）：${list}。勝ち ${wins} 局（${pct}%）。`,
    stWon: "勝ち", stLost: "負け", stSep: "、",
    stLegend: "高い緑の棒：勝ち · 低い赤の棒：負け · 線：それまでの勝率",
    stNoChart: "局が 1 つ終わると図が出ます。",
    stDailyTitle: "今日の配り",
    stDailyLine: (variant, date, result) => `${variant}、${date}：${result}`,
    stDailyWon: (time, moves) => `勝ち（時間 ${time}、${moves} 手）`,
    stDailyLost: "負け（もう一度遊べます）", stDailyPlaying: "遊んでいる途中", stDailyNot: "まだ遊んでいません",
    stDailyStreak: (now, best) => `今日の配りの連勝：${now} 日（最高 ${best} 日）`,
    stDailyRule: "その日は誰にとっても同じ配りで、勝てる配りから選ばれます。必ず勝てます。",
    stDailyStarted: (date) => `${date} の今日の配り：今日は誰にとっても同じ配りで、必ず勝てます。`,
    stDailyAlready: (date) => `これは ${date} の今日の配りです。このまま続けてください。`,
    stExported: (name) => `統計と記録を ${name} として保存しました。`,
    stProblem: (why) => `保存された統計を読み取れませんでした（${why}）。統計を新しく始めました。`,
    stForeign: "別のページか対応外の版のものです",
    stNoStorage: "このブラウザでは保存できないため、統計は残りません。",
  },
};
for (const lang of ["en", "ja"]) Object.assign(COMMON_WORDS[lang], STATS_WORDS[lang]);  // ct() and data-c read them

const stats = {cur: null, problem: null};  // the game being tracked, and what was wrong with the stored data

// ------------------------------------------------------------------ which page, which variant
function statsGame() { return GAMES === "/api/games" ? "pyramid" : "klondike"; }
function statsKey() { return `solitaire-rl.${statsGame()}.stats`; }
function variantOf(s) {  // Pyramid "000"/"001"; Klondike "draw3"/"draw1" (a state without draw_count: draw 3)
  return statsGame() === "pyramid" ? s.variant : `draw${s.draw_count === 1 ? 1 : 3}`;
}
function variantWords(v) {  // "draw 3"; a Pyramid variant in the Records' words, never its seed's number (000)
  if (v.startsWith("draw")) return ct("stDraw", v.slice(4));
  return typeof recordVariant === "function" ? recordVariant(v) : v;  // pyramid.js
}
function typeWords(type) { return ct("stTypes")[type] || type; }
function dailyDate(s) {  // "2026-12-03" for the daily deal pyramid-daily-v1-20261203, else null
  const m = s.deal.type === "daily" && /-daily-v\d+-(\d{4})(\d{2})(\d{2})$/.exec(s.deal.id || "");
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
}
function localDate(d = new Date()) {  // the player's local date, YYYY-MM-DD
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}
function shiftDate(date, days) {  // date arithmetic on calendar dates (UTC: no daylight saving)
  const [y, m, d] = date.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d) + days * DAY_MS).toISOString().slice(0, 10);
}

// ------------------------------------------------------------------ storage
function emptyStats() { return {format: STATS_FORMAT, game: statsGame(), games: [], earlier: {}, daily: {}, current: null}; }

const RESULTS = ["playing", "won", "lost"];
function validEntry(g) {
  return !!g && typeof g === "object" && typeof g.id === "string" && typeof g.variant === "string" &&
    typeof g.type === "string" && typeof g.label === "string" && RESULTS.includes(g.result) &&
    Number.isFinite(g.time_ms) && Number.isInteger(g.moves) && Number.isFinite(g.clock0) &&
    (g.daily === null || typeof g.daily === "string");
}
const isMap = (x) => !!x && typeof x === "object" && !Array.isArray(x);

function readStats() {  // {data} or {data: empty, problem: words}: never throws
  let raw = null;
  try { raw = app.storage.getItem(statsKey()); } catch (e) { return {data: emptyStats(), problem: ct("corrupt")}; }
  if (raw === null) return {data: emptyStats()};
  let data;
  try { data = JSON.parse(raw); } catch (e) { return {data: emptyStats(), problem: ct("corrupt")}; }
  if (!isMap(data)) return {data: emptyStats(), problem: ct("corrupt")};
  if (data.format !== STATS_FORMAT || data.game !== statsGame()) return {data: emptyStats(), problem: ct("stForeign")};
  const totals = (t) => isMap(t) && Number.isInteger(t.games) && Number.isInteger(t.wins);
  const days = (d) => isMap(d) && Object.values(d).every((x) => isMap(x) && RESULTS.includes(x.result));
  const fine = Array.isArray(data.games) && data.games.every(validEntry) && isMap(data.earlier) && isMap(data.daily) &&
    Object.values(data.earlier).every(totals) && Object.values(data.daily).every(days) &&
    (data.current === null || typeof data.current === "string");
  return fine ? {data} : {data: emptyStats(), problem: ct("corrupt")};
}

function loadStats() {  // the stored statistics; a problem is remembered for the view (and the next write replaces it)
  const {data, problem} = readStats();
  if (problem && !stats.problem) stats.problem = problem;
  return data;
}

function updateStats(change) {  // read, change, bound, write: entries by ID, so nothing is counted twice
  if (!app.storage) return;
  const data = loadStats();
  change(data);
  foldOld(data);
  try { app.storage.setItem(statsKey(), JSON.stringify(data)); }
  catch (e) { /* no room: the game itself is unaffected */ }
}

function blankTotals() { return {games: 0, wins: 0, best_time_ms: null, fewest_moves: null, best_streak: 0, tail_streak: 0}; }

function foldOld(data) {  // the oldest games beyond MAX_STAT_GAMES become per-group totals
  while (data.games.length > MAX_STAT_GAMES) {
    const g = data.games.shift();
    if (g.result === "playing") continue;  // never finished: it was never counted
    const key = `${g.variant} ${g.type}`;
    const t = data.earlier[key] = {...blankTotals(), ...data.earlier[key]};
    addGame(t, g);
  }
}

function addGame(t, g) {  // one finished game into totals {games, wins, best_time_ms, fewest_moves, best_streak, tail_streak}
  t.games++;
  if (g.result === "won") {
    t.wins++;
    t.tail_streak++;
    t.best_streak = Math.max(t.best_streak, t.tail_streak);
    t.best_time_ms = t.best_time_ms === null ? g.time_ms : Math.min(t.best_time_ms, g.time_ms);
    t.fewest_moves = t.fewest_moves === null ? g.moves : Math.min(t.fewest_moves, g.moves);
  } else {
    t.tail_streak = 0;
  }
}

// ------------------------------------------------------------------ tracking the game (from noteState)
function newGameId() { return Date.now().toString(36) + Math.random().toString(36).slice(2, 8); }
function historyKey(s) { return `${s.history.join(",")}|${s.redo.join(",")}`; }
function played(s) { return s.history.length > 0 || s.redo.length > 0; }

function beginGame(s, clock0) {
  return {id: newGameId(), label: s.deal.label, variant: variantOf(s), type: s.deal.type, daily: dailyDate(s),
          clock0, counted: false, result: "playing", moves: 0, time_ms: 0};
}

function fromEntry(g) { return {...g, counted: true}; }

function statsNote(previous, state) {  // every new state of the page's game
  if (!state || !app.storage) return;
  const s = state;
  let cur = stats.cur;
  if (!cur) {  // the page's first game: a restored save continues its game
    const data = loadStats();
    const open = data.current && data.games.find((g) => g.id === data.current);
    if (open && open.label === s.deal.label && played(s)) cur = fromEntry(open);
    else {
      if (open) endGame(fromEntry(open));
      cur = beginGame(s, 0);
    }
  } else if (!previous || previous.session !== s.session) {  // another session: the same game only if re-created as it was
    if (!(cur.label === s.deal.label && cur.key === historyKey(s) && played(s))) {
      endGame(cur);
      cur = beginGame(s, 0);
    }
  } else if (previous.history.length && !s.history.length && !s.redo.length) {  // Restart: a new game
    endGame(cur);
    cur = beginGame(s, currentMs());
  }
  stats.cur = cur;
  cur.key = historyKey(s);
  cur.moves = s.moves;
  cur.time_ms = Math.max(0, Math.round(currentMs() - cur.clock0));
  if (!cur.counted && s.history.length) countGame(cur);
  if (!cur.counted) return;
  if (s.outcome === "win") finishGame(cur, "won");
  else if (s.outcome === "dead_end") finishGame(cur, "lost");
}

function entryOf(cur) {
  return {id: cur.id, variant: cur.variant, type: cur.type, label: cur.label, result: cur.result,
          time_ms: cur.time_ms, moves: cur.moves, clock0: cur.clock0, daily: cur.daily,
          ...(statsGame() === "klondike" ? {draw: cur.variant === "draw1" ? 1 : 3} : {}),
          at: cur.at || new Date().toISOString(), ...(cur.ended ? {ended: cur.ended} : {})};
}

function countGame(cur) {  // the first move: the game is in the statistics, in progress
  cur.counted = true;
  cur.at = new Date().toISOString();
  updateStats((data) => {
    if (!data.games.some((g) => g.id === cur.id)) data.games.push(entryOf(cur));
    data.current = cur.id;
    if (cur.daily) setDaily(data, cur, "playing");
  });
}

function finishGame(cur, result) {  // won (stays won), or lost (a win later still makes it a win)
  if (cur.result === "won" || cur.result === result) return;
  cur.result = result;
  cur.ended = new Date().toISOString();
  updateStats((data) => {
    const i = data.games.findIndex((g) => g.id === cur.id);
    if (i >= 0) data.games[i] = {...data.games[i], ...entryOf(cur), at: data.games[i].at};
    else data.games.push(entryOf(cur));
    if (cur.daily) setDaily(data, cur, result);
  });
}

function endGame(cur) {  // the player leaves the game: a loss, unless it was won or never counted
  if (cur.counted && cur.result === "playing") finishGame(cur, "lost");
}

const DAY_RANK = {playing: 0, lost: 1, won: 2};
function setDaily(data, cur, result) {  // the day's result: won beats lost beats in progress; the first win is kept
  const days = data.daily[cur.variant] = isMap(data.daily[cur.variant]) ? data.daily[cur.variant] : {};
  const old = days[cur.daily];
  if (old && DAY_RANK[old.result] >= DAY_RANK[result]) return;
  days[cur.daily] = {result, time_ms: cur.time_ms, moves: cur.moves, deal: cur.label};
  const dates = Object.keys(days).sort();
  for (const d of dates.slice(0, Math.max(0, dates.length - MAX_DAILY_DATES))) delete days[d];
}

// ------------------------------------------------------------------ the figures
function summarize(data) {  // [{key, variant, type, games, wins, streak, best_streak, best_time_ms, fewest_moves}], all, playing
  const groups = new Map();
  const group = (variant, type) => {
    const key = `${variant} ${type}`;
    if (!groups.has(key)) groups.set(key, {key, variant, type, ...blankTotals()});
    return groups.get(key);
  };
  const all = {key: "all", ...blankTotals()};
  for (const [key, t] of Object.entries(data.earlier)) {
    const [variant, type] = key.split(" ");
    Object.assign(group(variant, type), blankTotals(), t);
    for (const k of ["games", "wins"]) all[k] += t[k] || 0;
    for (const k of ["best_time_ms", "fewest_moves"]) {
      if (Number.isFinite(t[k])) all[k] = all[k] === null ? t[k] : Math.min(all[k], t[k]);
    }
    all.best_streak = Math.max(all.best_streak, t.best_streak || 0);
  }
  let playing = 0;
  for (const g of data.games) {
    if (g.result === "playing") { playing++; continue; }
    addGame(group(g.variant, g.type), g);
    addGame(all, g);
  }
  const typeOrder = ["random", "winnable", "daily", "code", "position"];
  const rank = (x) => [x.variant, String(typeOrder.indexOf(x.type) + 10), x.type].join(" ");
  return {rows: [...groups.values()].sort((a, b) => (rank(a) < rank(b) ? -1 : 1)), all, playing};
}

function dailyStreaks(days, today) {  // {now, best}: consecutive dates won (now: ending today, or yesterday)
  const won = new Set(Object.keys(days).filter((d) => days[d].result === "won" && d <= today));
  let now = 0;
  let d = won.has(today) ? today : shiftDate(today, -1);
  while (won.has(d)) { now++; d = shiftDate(d, -1); }
  let best = 0, run = 0, last = null;
  for (const date of [...won].sort()) {
    run = last !== null && shiftDate(last, 1) === date ? run + 1 : 1;
    best = Math.max(best, run);
    last = date;
  }
  return {now, best};
}

const percent = (wins, games) => (games ? Math.round((100 * wins) / games) : 0);

// ------------------------------------------------------------------ the view
function showStats() {
  const data = app.storage ? loadStats() : emptyStats();
  const {rows, all, playing} = summarize(data);
  const nodes = [];
  if (stats.problem) {
    const p = para(ct("stProblem", stats.problem));
    p.className = "stats-problem"; p.setAttribute("role", "alert");
    nodes.push(p);
  }
  if (!app.storage) nodes.push(para(ct("stNoStorage")));
  if (all.games) nodes.push(statsTable(rows, all));
  else nodes.push(para(ct("stNone")));
  const rule = para(ct("stRule") + (playing ? (app.lang === "ja" ? "" : " ") + ct("stPlaying") : ""));
  rule.className = "stats-note";
  nodes.push(rule, statsChart(data), dailyView(data));
  const exporter = panelButton(ct("stExport"), () => exportStats());
  exporter.id = "stats-export";
  nodes.push(exporter);
  openPanel(ct("stTitle"), nodes, [[ct("stRecords"), showRecords], [ct("stDaily"), () => dailyDeal()],
                                   [ct("close"), () => {}]], "stats");
}

function statsTable(rows, all) {
  const table = document.createElement("table");
  table.className = "stats-table";
  table.createCaption().textContent = ct("stCaption");
  const head = table.createTHead().insertRow();
  for (const h of ct("stHead")) { const th = document.createElement("th"); th.scope = "col"; th.textContent = h; head.append(th); }
  const body = table.createTBody();
  const line = (name, x) => {
    const tr = body.insertRow();
    const th = document.createElement("th");
    th.scope = "row"; th.textContent = name;
    tr.append(th);
    recordCells(tr, [x.games, ct("stRate", x.wins, percent(x.wins, x.games)), ct("stStreak", x.tail_streak, x.best_streak),
                     x.best_time_ms === null ? "–" : formatTime(x.best_time_ms), x.fewest_moves === null ? "–" : x.fewest_moves]);
    tr.dataset.group = x.key;
  };
  for (const x of rows) line(`${variantWords(x.variant)} · ${typeWords(x.type)}`, x);
  if (rows.length > 1) line(ct("stAll"), all);
  return table;
}

function statsChart(data) {  // the last CHART_GAMES finished games as bars, with the running win rate; a text alternative
  const box = document.createElement("figure");
  box.className = "stats-chart";
  const games = data.games.filter((g) => g.result !== "playing").slice(-CHART_GAMES);
  if (!games.length) { box.append(para(ct("stNoChart"))); return box; }
  const n = games.length, wins = games.filter((g) => g.result === "won").length;
  const W = 300, H = 80, slot = W / Math.max(n, 10), ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("role", "img");
  svg.id = "stats-chart";
  const alt = ct("stChartAlt", n, games.map((g) => ct(g.result === "won" ? "stWon" : "stLost")).join(ct("stSep")), wins, percent(wins, n));
  svg.setAttribute("aria-label", alt);
  const title = document.createElementNS(ns, "title");
  title.textContent = alt;
  svg.append(title);
  const add = (tag, attrs) => { const el = document.createElementNS(ns, tag); for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v); svg.append(el); return el; };
  add("line", {x1: 0, x2: W, y1: H / 2, y2: H / 2, stroke: "#767676", "stroke-dasharray": "3 3", "stroke-width": 1});
  let won = 0;
  const points = [];
  games.forEach((g, i) => {
    const win = g.result === "won";
    const h = win ? H - 6 : 14;
    add("rect", {x: i * slot + 1, y: H - h, width: slot - 2, height: h, fill: win ? "#1f7a3f" : "#b3261e",
                 "data-result": g.result});
    won += win ? 1 : 0;
    points.push(`${(i + 0.5) * slot},${H - 3 - ((H - 6) * won) / (i + 1)}`);
  });
  add("polyline", {points: points.join(" "), fill: "none", stroke: "#1a3c8f", "stroke-width": 2.5});
  const caption = document.createElement("figcaption");
  caption.textContent = `${ct("stChartTitle", n)} · ${ct("stLegend")}`;
  box.append(svg, caption);
  return box;
}

function dailyView(data) {  // each variant's daily deal today and its streak
  const box = document.createElement("section");
  box.className = "stats-daily";
  const h = document.createElement("h3");
  h.textContent = ct("stDailyTitle");
  const today = localDate();
  const variants = new Set(Object.keys(data.daily));
  if (app.state) variants.add(variantOf(app.state));
  const list = document.createElement("ul");
  for (const v of [...variants].sort()) {
    const days = isMap(data.daily[v]) ? data.daily[v] : {};
    const d = days[today];
    const result = !d ? ct("stDailyNot") : d.result === "won" ? ct("stDailyWon", formatTime(d.time_ms), d.moves)
      : d.result === "lost" ? ct("stDailyLost") : ct("stDailyPlaying");
    const streak = dailyStreaks(days, today);
    const li = document.createElement("li");
    li.dataset.variant = v;
    li.textContent = `${ct("stDailyLine", variantWords(v), today, result)} · ${ct("stDailyStreak", streak.now, streak.best)}`;
    list.append(li);
  }
  const rule = para(ct("stDailyRule"));
  rule.className = "stats-note";
  box.append(h, list, dailyCalendar(data, today), rule);
  return box;
}

// The daily calendar (issue 51): the last four weeks' daily deals of the variant in play, each day
// marked with its result (won ✓, lost ✗, begun …), each a button that opens that day's deal.
const CALENDAR_DAYS = 28;
function dailyCalendar(data, today) {
  const v = app.state ? variantOf(app.state) : null;
  const days = v && isMap(data.daily[v]) ? data.daily[v] : {};
  const grid = document.createElement("div");
  grid.className = "daily-calendar";
  grid.setAttribute("role", "group");
  grid.setAttribute("aria-label", app.lang === "ja" ? "過去の毎日の配り" : "Past daily deals");
  for (let i = CALENDAR_DAYS - 1; i >= 0; i--) {
    const date = shiftDate(today, -i), d = days[date];
    const result = !d ? "" : d.result === "won" ? "won" : d.result === "lost" ? "lost" : "playing";
    const b = document.createElement("button");
    b.type = "button"; b.className = `day ${result}`; b.dataset.date = date;
    b.textContent = `${Number(date.slice(8))}${{won: " ✓", lost: " ✗", playing: " …"}[result] || ""}`;
    const words = !d ? ct("stDailyNot") : result === "won" ? ct("stDailyWon", formatTime(d.time_ms), d.moves)
      : result === "lost" ? ct("stDailyLost") : ct("stDailyPlaying");
    b.title = `${date}: ${words}`;
    b.setAttribute("aria-label", b.title);
    if (date === today) b.classList.add("today");
    b.addEventListener("click", () => { closePanel(); dailyDeal({date}); });
    grid.append(b);
  }
  return grid;
}

// ------------------------------------------------------------------ export
function statsExport() {  // what Export JSON writes: the figures, the games, the daily results and the records
  const data = app.storage ? loadStats() : emptyStats();
  const {rows, all, playing} = summarize(data);
  const today = localDate();
  const figures = (x) => ({games: x.games, wins: x.wins, win_rate: x.games ? x.wins / x.games : null,
                           current_streak: x.tail_streak, best_streak: x.best_streak,
                           best_time_ms: x.best_time_ms, fewest_moves: x.fewest_moves});
  const daily = {};
  for (const [v, days] of Object.entries(data.daily)) daily[v] = {days, streak: dailyStreaks(days, today)};
  return {format: STATS_FORMAT, kind: "solitaire-rl statistics", game: statsGame(), exported_at: new Date().toISOString(),
          today, groups: rows.map((x) => ({variant: x.variant, type: x.type, ...figures(x)})), all: figures(all),
          in_progress: playing, daily, games: data.games, earlier: data.earlier,
          records: app.storage ? readRecords() : []};
}

function exportStats() {
  const name = `solitaire-rl-${statsGame()}-statistics-${localDate()}.json`;
  const blob = new Blob([JSON.stringify(statsExport(), null, 2)], {type: "application/json"});
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60000);
  message(ct("stExported", name), "info");
}

// ------------------------------------------------------------------ the daily deal
function dailyDealId(date = localDate()) { return `${statsGame()}-daily-v1-${date.replaceAll("-", "")}`; }

// Today's deal, in the variant (Pyramid) or draw (Klondike: `draw`, else the game's) being played;
// `force`: without asking first (the game in play is over).
function dailyDeal({draw, force = false, date: day} = {}) {
  closeMenu();
  const today = localDate();
  const date = day && day <= today ? day : today;  // a past day from the calendar; never a day to come
  const deal = dailyDealId(date), s = app.state;
  if (s && s.deal.id === deal && s.outcome !== "win" && (!draw || draw === s.draw_count)) {
    message(ct("stDailyAlready", date), "info");
    return;
  }
  let body = {deal};
  if (statsGame() === "pyramid") body = {variant: $("variant").value, deal};
  else {
    const drawCount = draw || (s && s.draw_count ? s.draw_count : Number(($("draw-count") || {}).value || 3));
    if (drawCount === 1) body = {deal, draw_count: 1};
  }
  return (force ? (f) => f() : confirmReplace)(() => queue(async () => {
    await startGame(body);
    message(ct("stDailyStarted", date), "info");
  }));
}

// ------------------------------------------------------------------ wiring (from wireCommon)
function wireStats() {
  if (statsGame() === "pyramid") {  // Klondike's header has no room: its deal-type menu offers the daily deal
    const daily = document.createElement("button");
    daily.type = "button"; daily.id = "daily-button"; daily.dataset.c = "stDaily";
    daily.addEventListener("click", () => dailyDeal());
    $("records-button").before(daily);
  }
  document.addEventListener("keydown", (e) => {  // Esc closes the statistics, as it closes the records
    if (e.key !== "Escape" || $("overlay").hidden || $("overlay").dataset.kind !== "stats") return;
    e.preventDefault();
    e.stopImmediatePropagation();  // the page's own keys (Esc: clear the selection) are not for this press
    closePanel();
  });
}
