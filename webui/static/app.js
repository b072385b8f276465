// Oche tablet client: plain JavaScript, no build step. The server holds every rule; this
// file draws what the server says and sends what the player taps.
"use strict";

const Oche = {
  snapshot: null,
  board: null, // board JSON (zones, centres) of the game on screen
  boardId: null,
  manual: false,
  correcting: null, // seq of the dart being moved to another zone
  games: {}, // per-game overlay renderers: Oche.games[id] = {overlay(g, snap, board)}
};
window.Oche = Oche;

const $ = (sel, root = document) => root.querySelector(sel);
const SVG_NS = "http://www.w3.org/2000/svg";

function svgEl(name, attrs = {}, parent = null) {
  const el = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (parent) parent.appendChild(el);
  return el;
}
Oche.svgEl = svgEl;

function flash(message, isError = false) {
  const box = $("#flash");
  if (!box) return;
  box.textContent = message;
  box.classList.toggle("error", isError);
  box.hidden = false;
  clearTimeout(flash.timer);
  flash.timer = setTimeout(() => (box.hidden = true), isError ? 6000 : 3000);
}
Oche.flash = flash;

async function post(url, body) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    credentials: "same-origin",
    body: JSON.stringify(body || {}),
  });
  let data = {};
  try { data = await response.json(); } catch (e) { data = { error: "the server did not answer in JSON" }; }
  if (!response.ok) {
    flash(data.error || `request failed (${response.status})`, true);
    throw new Error(data.error || response.statusText);
  }
  return data;
}
Oche.post = post;

function control() { return document.body.dataset.control === "yes"; }
Oche.control = control;

// --- helpers shared by the game views (static/games/*.js) ------------------------------
// Colours: "#rrggbb" -> [r, g, b] (grey for anything else), and a colour darkened
// (factor < 1) or lightened (factor > 1), clamped to the valid range.
function rgb(hex) {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex || "");
  const n = m ? parseInt(m[1], 16) : 0x888888;
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}
function shade(hex, factor) {
  const [r, g, b] = rgb(hex).map((v) => Math.max(0, Math.min(255, Math.round(v * factor))));
  return `rgb(${r},${g},${b})`;
}
Oche.rgb = rgb;
Oche.shade = shade;

// A position is named by the game and the number of its last logged action: the board-view
// endpoints answer with the same two values, so a late answer can be told apart.
function lastSeq(snap) {
  const log = snap.log || [];
  return log.length ? log[log.length - 1].seq : null;
}
function positionKey(snap) {
  return `${snap.id}|${lastSeq(snap)}`;
}
function answerKey(data) {
  return `${data.game_id}|${data.last_seq}`;
}
Oche.lastSeq = lastSeq;
Oche.positionKey = positionKey;
Oche.answerKey = answerKey;

// GET a board-view endpoint for the position `snap` shows, one request per position at a
// time (`guard.fetching` holds the position asked about). `use(data)` gets the answer and
// must itself drop one that arrives late (compare answerKey with the position now shown).
// `what` names the data in the error messages; `flashRefusal: false` keeps quiet about a
// refusal (e.g. another game has started and its own view takes over).
async function fetchForPosition(guard, snap, url, what, use, { flashRefusal = true } = {}) {
  const wanted = positionKey(snap);
  if (guard.fetching === wanted) return;
  guard.fetching = wanted;
  try {
    const response = await fetch(url, { credentials: "same-origin" });
    const data = await response.json();
    if (!response.ok) {
      if (flashRefusal) flash(data.error || `could not load ${what}`, true);
      return;
    }
    await use(data);
  } catch (e) {
    flash(`could not load ${what}: is the server running?`, true);
  } finally {
    if (guard.fetching === wanted) guard.fetching = null;
  }
}
Oche.fetchForPosition = fetchForPosition;

// POST a move and draw the answer. A second tap on the position the first was sent from is
// a double tap and is ignored (`guard.sending` holds that position), so a move is never sent
// twice. The live update may show the answer before the POST's own reply arrives: a tap on
// that newer position is the player's next move and goes out at once (it used to be dropped
// silently while the reply was on its way). `accepted(data)` runs once the server took the
// action, before the page is drawn again, unless the page already shows a newer position
// (every view clears its selection when the position changes, so a selection made on the
// newer one must stay).
async function sendAction(guard, action, accepted = null) {
  const from = Oche.snapshot ? positionKey(Oche.snapshot) : "none";
  if (guard.sending === from) return;
  guard.sending = from;
  try {
    const data = await post("/api/action", { action });
    const shown = Oche.snapshot ? positionKey(Oche.snapshot) : "none";
    if (accepted && shown === from) accepted(data);
    await render(data);
  } catch (e) {
    /* post flashed the reason */
  } finally {
    if (guard.sending === from) guard.sending = false;
  }
}
Oche.sendAction = sendAction;

// Rebuild the prompt's buttons with a game view's `fill(div, snap)` after a tap changed what
// they offer: only in control and while the prompt is one of `kinds`.
function refillChoices(snap, kinds, fill) {
  const div = document.getElementById("choices");
  if (div && control() && snap && kinds.includes((snap.prompt || {}).kind)) {
    div.innerHTML = "";
    fill(div, snap);
  }
}
Oche.refillChoices = refillChoices;

// The element matching `selector` that a tap landed in (or null).
function tapped(event, selector) {
  return event.target.closest ? event.target.closest(selector) : null;
}
Oche.tapped = tapped;

// --- login ----------------------------------------------------------------------------
function setupLogin() {
  const form = $("#login");
  if (!form) return;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await post("/api/login", { pin: $("#pin").value });
      document.body.dataset.control = "yes";
      form.hidden = true;
      $("#control-badge").hidden = false;
      flash("You control the game.");
      if (Oche.snapshot) render(Oche.snapshot);
    } catch (e) { /* flashed */ }
  });
}

// --- the play page --------------------------------------------------------------------
function playerName(snap, index) {
  return index === null || index === undefined ? "" : snap.players[index] || `Player ${index + 1}`;
}
function playerColor(snap, index) {
  return (snap.colors || [])[index] || "#888";
}
Oche.playerColor = playerColor;

async function loadBoard(boardId) {
  if (Oche.boardId === boardId) return;
  Oche.boardId = boardId;
  const holder = $("#board");
  if (!boardId) { holder.innerHTML = ""; Oche.board = null; return; }
  const [svgText, info] = await Promise.all([
    fetch(`/api/boards/${boardId}.svg`).then((r) => r.text()),
    fetch(`/api/boards/${boardId}.json`).then((r) => r.json()),
  ]);
  holder.innerHTML = svgText;
  Oche.board = info;
  const svg = holder.querySelector("svg");
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.addEventListener("click", onBoardTap);
}

function boardPoint(svg, event) {
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  return point.matrixTransform(svg.getScreenCTM().inverse());
}

async function onBoardTap(event) {
  if (!control()) { flash("Enter the table's PIN to throw darts from the tablet.", true); return; }
  const svg = event.currentTarget;
  const zoneEl = event.target.closest ? event.target.closest(".zone") : null;
  const snap = Oche.snapshot;
  if (!snap || !snap.game) return;
  if (Oche.correcting !== null && zoneEl) {
    const seq = Oche.correcting;
    Oche.correcting = null;
    const p = boardPoint(svg, event);
    const data = await post("/api/correct", { seq, zone: zoneEl.dataset.zone, x_mm: p.x, y_mm: p.y });
    if (data.dropped && data.dropped.length) flash(`Also undone: ${data.dropped.join("; ")}`);
    render(data);
    return;
  }
  const renderer = Oche.games[snap.game];
  if (renderer && renderer.tap && renderer.tap(zoneEl ? zoneEl.dataset.zone : null, boardPoint(svg, event), snap)) return;
  const candidates = (snap.prompt.data && snap.prompt.data.candidates) || null;
  if (snap.prompt.kind === "choose_zone" && zoneEl && candidates && candidates.includes(zoneEl.dataset.zone)) {
    const action = snap.prompt_options.find((o) => o.action.zone === zoneEl.dataset.zone);
    if (action) { render(await post("/api/action", { action: action.action })); return; }
  }
  if (!(snap.prompt.accepts || []).includes("dart")) {
    flash(snap.prompt.text || "The game does not wait for a dart now.");
    return;
  }
  const p = boardPoint(svg, event);
  // A finger is not a point: half a screen pixel of uncertainty, in board mm.
  const mmPerPixel = svg.viewBox.baseVal.width / svg.getBoundingClientRect().width;
  const data = await post("/api/dart", { x_mm: p.x, y_mm: p.y, sigma_mm: mmPerPixel / 2, manual: Oche.manual });
  if (data.thrown) flash("Dart thrown: the camera is looking…");
  else render(data);
}

function zoneName(id) {
  const zone = Oche.board && Oche.board.zones[id];
  return zone ? zone.name : id;
}
Oche.zoneName = zoneName;

function describeDart(action) {
  if (action.type === "miss") return "miss";
  if (action.type === "bounceout") return "bounce-out";
  if (action.on_line && (action.candidates || []).length > 1) {
    return `on the line: ${action.candidates.map(zoneName).join(" / ")}`;
  }
  return action.zone ? zoneName(action.zone) : "off the board";
}

const DART_TYPES = ["dart", "miss", "bounceout"];

function dartsThisTurn(snap) {
  // The latest thrower's darts, back to the first dart thrown by someone else: what the
  // tablet shows as "this turn" (another player's answer mid-turn does not end it).
  const darts = [];
  let thrower = null;
  for (let i = snap.log.length - 1; i >= 0; i--) {
    const entry = snap.log[i];
    const a = entry.action;
    if (!DART_TYPES.includes(a.type)) continue;
    if (thrower === null) thrower = a.player;
    if (a.player !== thrower) break;
    darts.unshift(entry);
    if (darts.length >= 9) break;
  }
  return darts;
}

function drawDarts(snap, layer) {
  for (const entry of dartsThisTurn(snap)) {
    const a = entry.action;
    if (a.x_mm === null || a.x_mm === undefined) continue;
    const color = playerColor(snap, a.player);
    if (a.sigma_mm > 0) svgEl("circle", { cx: a.x_mm, cy: a.y_mm, r: a.sigma_mm * 2, fill: color, "fill-opacity": 0.2 }, layer);
    svgEl("circle", { cx: a.x_mm, cy: a.y_mm, r: 3, fill: "#111", stroke: "#fff", "stroke-width": 1.2 }, layer);
    svgEl("line", { x1: a.x_mm - 7, y1: a.y_mm, x2: a.x_mm + 7, y2: a.y_mm, stroke: color, "stroke-width": 1.5 }, layer);
    svgEl("line", { x1: a.x_mm, y1: a.y_mm - 7, x2: a.x_mm, y2: a.y_mm + 7, stroke: color, "stroke-width": 1.5 }, layer);
  }
}

function renderBoardOverlay(snap) {
  const svg = $("#board svg");
  if (!svg) return;
  const layer = svg.querySelector("#overlay");
  layer.innerHTML = "";
  for (const el of svg.querySelectorAll(".zone.candidate")) el.classList.remove("candidate");
  const candidates = (snap.prompt.data && snap.prompt.data.candidates) || [];
  if (snap.prompt.kind === "choose_zone") {
    for (const id of candidates) {
      const el = svg.querySelector(`.zone[data-zone="${CSS.escape(id)}"]`);
      if (el) el.classList.add("candidate");
    }
  }
  const renderer = Oche.games[snap.game];
  if (renderer && renderer.overlay && Oche.board) renderer.overlay(layer, snap, Oche.board);
  drawDarts(snap, layer);
}

function button(label, onClick, cls = "") {
  const b = document.createElement("button");
  b.textContent = label;
  if (cls) b.className = cls;
  b.addEventListener("click", onClick);
  return b;
}
Oche.button = button;

function renderPrompt(snap) {
  const turn = $("#turn");
  const prompt = snap.prompt;
  turn.innerHTML = "";
  if (prompt.player !== null && prompt.player !== undefined) {
    const sw = document.createElement("span");
    sw.className = "swatch";
    sw.style.background = playerColor(snap, prompt.player);
    turn.append(sw, document.createTextNode(playerName(snap, prompt.player)));
  }
  $("#prompt").textContent = prompt.text;
  const choices = $("#choices");
  choices.innerHTML = "";
  if (!control()) return;
  const renderer = Oche.games[snap.game];
  if (renderer && renderer.choices && renderer.choices(choices, snap)) return;
  for (const option of snap.prompt_options) {
    choices.appendChild(button(option.label, async () => render(await post("/api/action", { action: option.action }))));
  }
  const offered = new Set(snap.prompt_options.map((o) => o.action.type));
  for (const type of ["miss", "bounceout"]) {
    if ((prompt.accepts || []).includes(type) && !offered.has(type)) {
      const label = type === "miss" ? "Missed the board" : "Bounce-out";
      choices.appendChild(button(label, async () => render(await post("/api/action", { action: { type, player: prompt.player } })), "secondary"));
    }
  }
}

function renderLog(snap) {
  const darts = $("#darts");
  darts.innerHTML = "";
  for (const entry of dartsThisTurn(snap)) {
    const li = document.createElement("li");
    li.textContent = describeDart(entry.action);
    if (control() && entry.action.type === "dart" && snap.board) {
      li.appendChild(button(Oche.correcting === entry.seq ? "Cancel move" : "Move", () => {
        Oche.correcting = Oche.correcting === entry.seq ? null : entry.seq;
        if (Oche.correcting !== null) flash("Tap the zone where this dart really is.");
        render(Oche.snapshot);
      }, "secondary"));
      li.appendChild(button("Delete", async () => render(await post("/api/correct", { seq: entry.seq, delete: true })), "secondary"));
    }
    darts.appendChild(li);
  }
  const log = $("#log");
  log.innerHTML = "";
  for (const entry of snap.log.slice().reverse().slice(0, 60)) {
    const li = document.createElement("li");
    li.textContent = entry.text;
    log.appendChild(li);
  }
  const problem = $("#problem");
  problem.hidden = !snap.replay_problem;
  problem.textContent = snap.replay_problem || "";
}

function renderOutcome(snap) {
  const box = $("#outcome");
  if (!snap.outcome) { box.hidden = true; return; }
  const names = snap.outcome.winners.map((i) => playerName(snap, i)).join(" and ");
  // The engine's own sentence ("Ann holds every Flag and wins") reads better than its code.
  const sentence = snap.prompt.text || snap.outcome.reason;
  box.textContent = snap.outcome.draw ? `Draw: ${sentence}` : `${names} won. ${sentence}`;
  box.hidden = false;
}

// Each game may bring its own drawing code: static/games/<game>.js registers
// Oche.games[game] = {board(container, snap), overlay(svgLayer, snap, board), choices(div, snap)}.
// Without one, the generic view (board drawing, prompt buttons, log) is used.
const loadedGames = {};
function loadGameScript(game) {
  if (!(game in loadedGames)) {
    loadedGames[game] = new Promise((resolve) => {
      const script = document.createElement("script");
      script.src = `/static/games/${game}.js`;
      script.onload = () => resolve(true);
      script.onerror = () => resolve(false);
      document.head.appendChild(script);
    });
  }
  return loadedGames[game];
}

function isOlder(snap, shown) {
  // Snapshots reach the page two ways (answers and the stream); never draw an older one
  // over a newer one of the same game.
  return Boolean(shown && snap.id && snap.id === shown.id && snap.version < shown.version);
}

Oche.isOlder = isOlder;

async function render(snap) {
  if (!snap || isOlder(snap, Oche.snapshot)) return;
  Oche.snapshot = snap;
  if (document.body.dataset.page !== "play") return;
  if (!snap.game) {
    $("#prompt").textContent = "No game yet: start one on the New game page.";
    return;
  }
  await loadGameScript(snap.game);
  for (const el of document.querySelectorAll(".dart-only")) el.hidden = !snap.board || !control();
  $("#undo").hidden = !control();
  await loadBoard(snap.board);
  const renderer = Oche.games[snap.game];
  if (!snap.board && renderer && renderer.board) renderer.board($("#board"), snap);
  $("#board-hint").textContent = snap.board
    ? Oche.correcting !== null ? "Moving a dart: tap the zone where it really is." : (Oche.manual ? "Tap where the dart is: it is added directly." : "Tap the board to throw a dart (demo) or add one the camera missed.")
    : "";
  renderPrompt(snap);
  renderLog(snap);
  renderOutcome(snap);
  if (snap.board) renderBoardOverlay(snap);
}
Oche.render = render;

function connectStream() {
  const source = new EventSource("/api/stream");
  source.addEventListener("state", (event) => {
    const data = JSON.parse(event.data);
    if (data.snapshot) {
      data.snapshot.control = control();
      data.snapshot.colors = data.snapshot.colors || (Oche.snapshot && Oche.snapshot.colors);
      if (Oche.snapshot && Oche.snapshot.id !== data.snapshot.id) {
        // A new game: its colours come with the full answer, which may be newer or older
        // than this message; render() keeps whichever is newest.
        fetch("/api/state").then((r) => r.json()).then(render);
      }
      render(data.snapshot);
    }
    document.dispatchEvent(new CustomEvent("oche:update", { detail: data }));
  });
  source.addEventListener("detection", (event) => {
    const data = JSON.parse(event.data);
    if (data.message) flash(data.message, Boolean(data.error));
  });
  Oche.stream = source;
}

function setupPlay() {
  fetch("/api/state").then((r) => r.json()).then(render);
  connectStream();
  $("#undo").addEventListener("click", async () => render(await post("/api/undo")));
  $("#computer").addEventListener("click", async () => {
    const data = await post("/api/computer", { skill_mm: 12 });
    if (data.thrown) flash("The computer threw: the camera is looking…");
    else render(data);
  });
  const toggle = $("#manual-toggle");
  toggle.addEventListener("click", () => {
    Oche.manual = !Oche.manual;
    toggle.setAttribute("aria-pressed", String(Oche.manual));
    render(Oche.snapshot);
  });
}

// --- new game -------------------------------------------------------------------------
async function setupNew() {
  const catalog = await fetch("/api/catalog").then((r) => r.json());
  const gameSelect = $("#game");
  for (const g of catalog.games) {
    const o = document.createElement("option");
    o.value = g.id; o.textContent = `${g.title} (${g.min_players}-${g.max_players} players)`;
    gameSelect.appendChild(o);
  }
  const players = $("#players");
  function addPlayer(name) {
    const index = players.children.length;
    const row = document.createElement("div");
    row.className = "player-row";
    row.innerHTML = `<input type="text" required aria-label="Player ${index + 1} name">
      <input type="color" aria-label="Player ${index + 1} colour">
      <button type="button" class="secondary remove">Remove</button>`;
    row.querySelector("input[type=text]").value = name || `Player ${index + 1}`;
    row.querySelector("input[type=color]").value = catalog.colors[index % catalog.colors.length];
    row.querySelector(".remove").addEventListener("click", () => row.remove());
    players.appendChild(row);
  }
  function onGame() {
    const g = catalog.games.find((x) => x.id === gameSelect.value);
    const boardSelect = $("#board-select");
    boardSelect.innerHTML = "";
    for (const b of g.boards) {
      const o = document.createElement("option");
      o.value = b; o.textContent = b;
      if (b === g.id) o.selected = true;
      boardSelect.appendChild(o);
    }
    $("#board-label").hidden = g.boards.length === 0;
    while (players.children.length < g.min_players) addPlayer();
    while (players.children.length > g.max_players) players.lastChild.remove();
  }
  gameSelect.addEventListener("change", onGame);
  $("#add-player").addEventListener("click", () => addPlayer());
  onGame();
  $("#new-game").addEventListener("submit", async (event) => {
    event.preventDefault();
    const g = catalog.games.find((x) => x.id === gameSelect.value);
    const list = [...players.children].map((row) => ({
      name: row.querySelector("input[type=text]").value,
      color: row.querySelector("input[type=color]").value,
    }));
    const body = { game: g.id, players: list };
    if (g.boards.length) body.board = $("#board-select").value;
    try {
      await post("/api/games", body);
      window.location = "/play";
    } catch (e) { /* flashed */ }
  });
}

// --- games, status, calibrate -----------------------------------------------------------
function setupGames() {
  for (const b of document.querySelectorAll("button.resume")) {
    b.addEventListener("click", async () => {
      await post(`/api/games/${b.dataset.game}/resume`);
      window.location = "/play";
    });
  }
}

async function refreshStatus() {
  const data = await fetch("/api/status").then((r) => r.json());
  const list = $("#status");
  list.innerHTML = "";
  const cam = data.camera || {};
  const rows = data.camera
    ? [
        ["Camera", cam.state || "unknown"],
        ["Source", cam.source || ""],
        ["Frames per second", cam.fps !== undefined ? cam.fps.toFixed(1) : ""],
        ["Detector", cam.detector || ""],
        ["Calibration", cam.calibration || "none"],
        ["Board position check", cam.drift || "not checked yet"],
        ["Last error", cam.last_error || "none"],
      ]
    : [["Camera", "no camera in this mode (darts are entered on the tablet)"]];
  rows.push(["Game", data.game || "none"]);
  for (const [k, v] of rows) {
    const dt = document.createElement("dt"); dt.textContent = k;
    const dd = document.createElement("dd"); dd.textContent = v;
    list.append(dt, dd);
  }
  return data;
}

function setupStatus() {
  refreshStatus();
  setInterval(refreshStatus, 1000);
}

function setupCalibrate() {
  const img = $("#snapshot");
  const refresh = () => { img.src = `/api/camera/snapshot.jpg?overlay=1&t=${Date.now()}`; };
  refresh();
  $("#refresh-snapshot").addEventListener("click", refresh);
  const info = $("#calibration");
  async function showInfo() {
    const data = await fetch("/api/status").then((r) => r.json());
    info.innerHTML = "";
    const cam = data.camera || {};
    const rows = [
      ["Calibration", cam.calibration || "none"],
      ["Markers", cam.markers || "not checked yet"],
      ["Lens", `${cam.lens || "not measured"}${cam.lens_views ? ` (${cam.lens_views} pictures kept)` : ""}`],
    ];
    for (const [k, v] of rows) {
      const dt = document.createElement("dt"); dt.textContent = k;
      const dd = document.createElement("dd"); dd.textContent = v;
      info.append(dt, dd);
    }
  }
  showInfo();
  $("#calibrate-markers").addEventListener("click", async () => {
    const data = await post("/api/calibrate", { method: "markers" });
    flash(data.message || "Calibrated.");
    refresh(); showInfo();
  });
  $("#calibrate-artwork").addEventListener("click", async () => {
    flash("Matching the board's drawing to the picture…");
    const data = await post("/api/calibrate", { method: "artwork" });
    flash(data.message || "Calibrated.");
    refresh(); showInfo();
  });
  $("#lens-view").addEventListener("click", async () => {
    const data = await post("/api/calibrate", { method: "lens_view" });
    flash(data.message); showInfo();
  });
  $("#lens-compute").addEventListener("click", async () => {
    const data = await post("/api/calibrate", { method: "lens" });
    flash(data.message); refresh(); showInfo();
  });
  // Manual: pair taps on the picture with taps on the board drawing.
  const points = [];
  let pending = null;
  const list = $("#manual-points");
  img.addEventListener("click", (event) => {
    const rect = img.getBoundingClientRect();
    pending = [
      (event.clientX - rect.left) * (img.naturalWidth / rect.width),
      (event.clientY - rect.top) * (img.naturalHeight / rect.height),
    ];
    flash("Now tap the same point on the board drawing.");
  });
  fetch("/api/state").then((r) => r.json()).then(async (snap) => {
    const boardId = snap.board || "groundround";
    const holder = $("#manual-board");
    holder.innerHTML = await fetch(`/api/boards/${boardId}.svg`).then((r) => r.text());
    const svg = holder.querySelector("svg");
    svg.removeAttribute("width"); svg.removeAttribute("height");
    svg.addEventListener("click", (event) => {
      if (!pending) { flash("Tap the camera picture first."); return; }
      const p = boardPoint(svg, event);
      points.push({ pixel: pending, board_mm: [p.x, p.y] });
      pending = null;
      const li = document.createElement("li");
      li.textContent = `picture (${points.at(-1).pixel.map((v) => v.toFixed(0)).join(", ")}) = board (${p.x.toFixed(0)}, ${p.y.toFixed(0)}) mm`;
      list.appendChild(li);
      $("#calibrate-manual").disabled = points.length < 4;
    });
  });
  $("#calibrate-manual").addEventListener("click", async () => {
    const data = await post("/api/calibrate", { method: "points", points });
    flash(data.message || "Calibrated.");
    refresh(); showInfo();
  });
}

document.addEventListener("DOMContentLoaded", () => {
  setupLogin();
  const page = document.body.dataset.page;
  if (page === "play") setupPlay();
  else if (page === "new") setupNew();
  else if (page === "games") setupGames();
  else if (page === "status") setupStatus();
  else if (page === "calibrate") setupCalibrate();
});
