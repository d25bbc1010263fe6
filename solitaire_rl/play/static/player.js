// What a player keeps, on both pages (issue 51): the settings (felt, card back, dark mode, four-colour deck, large
// print, card size, left-handed layout, sound, auto-play, the verdict and chance lines), kept in
// localStorage and applied as classes on <html>; sound synthesised with WebAudio (no files); the win
// celebration (the cards cascade, then the result; a tap or key ends it at once). Loaded after common.js,
// before the page's script. prefers-reduced-motion is honoured: no cascade, no slides.
"use strict";

const SETTINGS_KEY = "solitaire-rl.settings";
const SETTING_DEFAULTS = {
  felt: "green",        // green, blue, red or grey
  back: "blue",         // the card backs: blue, red, green or purple
  dark: false,          // dark mode
  fourColour: false,    // clubs green, diamonds blue
  largePrint: false,    // bigger ranks and suits
  cardSize: "medium",   // small, medium or large
  leftHanded: false,    // the stock on the other side
  sound: true,          // card snap, deal, win chime (false: muted)
  autoPlay: true,       // Klondike: safe cards go up to the foundations by themselves
  showVerdict: true,    // the verdict line
  showChance: true,     // the Chance button and its line
  advancedOpen: false,  // the menu's Advanced section (the deal box, the hint source, the drop warning) open
};
const FELTS = ["green", "blue", "red", "grey"];
const BACKS = ["blue", "red", "green", "purple"];
const CARD_SIZES = ["small", "medium", "large"];
const settings = {...SETTING_DEFAULTS};

const SETTING_WORDS = {
  en: {
    title: "Settings", button: "Settings", felt: "Table colour", feltNames: {green: "green", blue: "blue", red: "red", grey: "grey"},
    back: "Card back", backNames: {blue: "blue", red: "red", green: "green", purple: "purple"},
    dark: "Dark mode", fourColour: "Four-colour deck (clubs green, diamonds blue)", largePrint: "Large print cards",
    cardSize: "Card size", sizeNames: {small: "small", medium: "medium", large: "large"},
    leftHanded: "Left-handed layout (stock on the right)", sound: "Sound (card snap, deal, win chime)",
    autoPlay: "Play safe cards to the foundations by themselves", showVerdict: "Show whether the game can still be won (this can give away whether a deal can be won)",
    showChance: "Show the chance of winning (button and line)", kept: "Kept in this browser.",
    advanced: "Advanced", advancedTitle: "For researchers: open a deal by ID or code, where hints come from, the drop warning",
    skip: "Tap to skip",
  },
  ja: {
    title: "設定", button: "設定", felt: "台の色", feltNames: {green: "緑", blue: "青", red: "赤", grey: "灰"},
    back: "札の裏の色", backNames: {blue: "青", red: "赤", green: "緑", purple: "紫"},
    dark: "ダークモード", fourColour: "4 色の札（クラブは緑、ダイヤは青）", largePrint: "大きな文字の札",
    cardSize: "札の大きさ", sizeNames: {small: "小", medium: "中", large: "大"},
    leftHanded: "左利き用の配置（山札を右に）", sound: "音（札の音、配る音、勝ちの音）",
    autoPlay: "安全な札を自動で組札へ上げる", showVerdict: "勝てるかどうかの行を表示する（勝てる配りかどうかが分かります）",
    showChance: "勝てる見込みを表示する（ボタンと行）", kept: "このブラウザに保存されます。",
    advanced: "詳細", advancedTitle: "研究用：識別子やコードで配りを開く、ヒントの出どころ、見込みが下がったときの警告",
    skip: "タップで飛ばす",
  },
};
function sw(key) { return (SETTING_WORDS[app.lang] || SETTING_WORDS.en)[key]; }

function reducedMotion() {
  return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

function loadSettings() {  // the kept settings, each checked: a bad value keeps its default
  let kept = {};
  try { kept = JSON.parse((app.storage && app.storage.getItem(SETTINGS_KEY)) || "{}") || {}; } catch (e) { kept = {}; }
  for (const [key, def] of Object.entries(SETTING_DEFAULTS)) {
    const v = kept[key];
    if (typeof def === "boolean" && typeof v === "boolean") settings[key] = v;
    if (key === "felt" && FELTS.includes(v)) settings.felt = v;
    if (key === "back" && BACKS.includes(v)) settings.back = v;
    if (key === "cardSize" && CARD_SIZES.includes(v)) settings.cardSize = v;
  }
  applySettings();
}

function keepSettings() {
  try { if (app.storage) app.storage.setItem(SETTINGS_KEY, JSON.stringify(settings)); } catch (e) { /* not kept */ }
}

function applySettings() {  // the settings as classes and attributes on <html>: the style sheets do the rest
  const root = document.documentElement;
  root.dataset.felt = settings.felt;
  root.dataset.back = settings.back;
  root.dataset.cardSize = settings.cardSize;
  root.classList.toggle("dark", settings.dark);
  root.classList.toggle("four-colour", settings.fourColour);
  root.classList.toggle("large-print", settings.largePrint);
  root.classList.toggle("left-handed", settings.leftHanded);
  root.classList.toggle("hide-verdict", !settings.showVerdict);
  root.classList.toggle("hide-chance", !settings.showChance);
}

function setSetting(key, value) {
  settings[key] = value;
  keepSettings();
  applySettings();
  if (app.state) render();
}

function showSettings() {  // the settings panel: every change applies and is kept at once
  const form = document.createElement("form");
  form.className = "settings";
  form.addEventListener("submit", (e) => e.preventDefault());
  const check = (key) => {
    const label = document.createElement("label");
    const box = document.createElement("input");
    box.type = "checkbox"; box.id = `set-${key}`; box.checked = settings[key];
    box.addEventListener("change", () => setSetting(key, box.checked));
    label.append(box, document.createTextNode(" " + sw(key)));
    return label;
  };
  const choose = (key, values, names) => {
    const label = document.createElement("label");
    const select = document.createElement("select");
    select.id = `set-${key}`;
    for (const v of values) { const o = document.createElement("option"); o.value = v; o.textContent = names[v]; select.append(o); }
    select.value = settings[key];
    select.addEventListener("change", () => setSetting(key, select.value));
    label.append(document.createTextNode(sw(key) + " "), select);
    return label;
  };
  form.append(choose("felt", FELTS, sw("feltNames")), choose("back", BACKS, sw("backNames")), check("dark"), check("fourColour"), check("largePrint"),
              choose("cardSize", CARD_SIZES, sw("sizeNames")), check("leftHanded"), check("sound"));
  if (app.state && app.state.game === "klondike") form.append(check("autoPlay"));
  form.append(check("showVerdict"), check("showChance"), para(sw("kept")));
  openPanel(sw("title"), [form], [[ct("close"), () => {}]], "settings");
}

function wireSettings() {  // the menu's Settings button (added here so that both pages have it)
  const button = document.createElement("button");
  button.id = "settings-button"; button.type = "button";
  button.textContent = sw("button");
  button.addEventListener("click", showSettings);
  $("rules-button").before(button);
}

function wordSettings() {
  const b = $("settings-button"); if (b) b.textContent = sw("button");
  const summary = $("advanced-summary");
  if (summary) { summary.textContent = sw("advanced"); summary.title = sw("advancedTitle"); }
}

// The menu's Advanced section (issue 51: engine words off the main screen): closed unless the player
// opened it, and kept as the player leaves it.
function wireAdvanced() {
  const box = $("advanced");
  if (!box) return;
  box.open = settings.advancedOpen;
  box.addEventListener("toggle", () => {
    if (settings.advancedOpen === box.open) return;
    settings.advancedOpen = box.open;
    keepSettings();
  });
}

// ------------------------------------------------------------------ sound: synthesised, nothing downloaded
let audioContext = null;
const soundLog = [];  // the sounds asked for, in order (tests read it; a muted page adds nothing)

function sound(kind) {
  if (!settings.sound) return;
  soundLog.push(kind);
  try {
    audioContext = audioContext || new (window.AudioContext || window.webkitAudioContext)();
  } catch (e) { return; }
  const ac = audioContext, now = ac.currentTime;
  if (ac.state === "suspended") ac.resume().catch(() => {});
  const snap = (at, gain = 0.25) => {  // a short filtered burst of noise: a card laid down
    const length = Math.floor(ac.sampleRate * 0.05);
    const buffer = ac.createBuffer(1, length, ac.sampleRate);
    const data = buffer.getChannelData(0);
    for (let i = 0; i < length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / length) ** 3;
    const src = ac.createBufferSource(), filter = ac.createBiquadFilter(), amp = ac.createGain();
    src.buffer = buffer; filter.type = "bandpass"; filter.frequency.value = 2200; filter.Q.value = 0.8;
    amp.gain.value = gain;
    src.connect(filter).connect(amp).connect(ac.destination);
    src.start(at);
  };
  const note = (freq, at, length = 0.35) => {  // a soft bell: a sine with a quick decay
    const osc = ac.createOscillator(), amp = ac.createGain();
    osc.type = "triangle"; osc.frequency.value = freq;
    amp.gain.setValueAtTime(0.0001, at);
    amp.gain.exponentialRampToValueAtTime(0.18, at + 0.02);
    amp.gain.exponentialRampToValueAtTime(0.0001, at + length);
    osc.connect(amp).connect(ac.destination);
    osc.start(at); osc.stop(at + length + 0.05);
  };
  if (kind === "snap") snap(now);
  else if (kind === "deal") for (let i = 0; i < 7; i++) snap(now + i * 0.05, 0.18);
  else if (kind === "win") [523.25, 659.25, 783.99, 1046.5].forEach((f, i) => note(f, now + i * 0.13, 0.6));
}

// ------------------------------------------------------------------ the win celebration
const SUIT_SYMBOL = {C: "♣", D: "♦", H: "♥", S: "♠"};

function celebrationCards() {  // the 52 cards, Kings first, as the foundations give them back
  const out = [];
  for (const rank of ["K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2", "A"]) {
    for (const suit of "CDHS") out.push({name: rank + suit, suit: SUIT_SYMBOL[suit], red: suit === "D" || suit === "H", key: suit});
  }
  return out;
}

// The cards leave from origins(suit) (a rect) one after another and bounce down the screen, each
// leaving its trail; then done() shows the result. A tap, a click or a key ends it at once.
function celebrate(origins, done) {
  const finish = () => {
    if (!app.celebrating) return;
    app.celebrating = null;
    layer.remove();
    sound("win");
    done();
  };
  if (reducedMotion()) { app.celebrating = null; sound("win"); done(); return; }
  const layer = document.createElement("div");
  layer.className = "celebration";
  layer.setAttribute("aria-hidden", "true");
  const skip = document.createElement("p");
  skip.className = "celebration-skip";
  skip.textContent = sw("skip");
  layer.append(skip);
  document.body.append(layer);
  app.celebrating = {finish};
  const w = Math.min(112, Math.max(40, window.innerWidth / 9));
  layer.style.setProperty("--card-w", `${w}px`);
  layer.style.setProperty("--card-h", `${w * 1.4}px`);
  const floor = window.innerHeight - w * 1.4;
  let last = null;
  celebrationCards().forEach((card, i) => {
    const el = document.createElement("div");
    el.className = "card celebration-card";
    cardFace(el, card);
    const from = origins(card.key);
    el.style.left = `${from.left}px`; el.style.top = `${from.top}px`;
    layer.append(el);
    const dir = i % 2 ? -1 : 1, speed = 3 + (i % 5);  // across the screen, this way or that
    const frames = [];
    let x = 0, y = 0, vy = -4 - (i % 3) * 2;
    for (let f = 0; f < 60; f++) {  // a bouncing fall, sampled
      x += dir * speed * 1.6; vy += 1.4; y += vy;
      if (from.top + y > floor) { y = floor - from.top; vy = -vy * 0.72; }
      frames.push({transform: `translate(${x}px, ${y}px)`});
    }
    last = el.animate(frames, {duration: 1400, delay: i * 55, easing: "linear", fill: "both"});
  });
  layer.addEventListener("pointerdown", (e) => { e.preventDefault(); finish(); });
  if (last) last.onfinish = () => setTimeout(finish, 250);
}

function endCelebration() {  // true: a celebration was running and is now over (the key or tap is spent)
  if (!app.celebrating) return false;
  app.celebrating.finish();
  return true;
}

document.addEventListener("keydown", (e) => { if (endCelebration()) { e.preventDefault(); e.stopImmediatePropagation(); } },
                          true);
