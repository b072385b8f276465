// Conquest referee view: the 9x8 board with every die showing its top face (and, small, the
// face turned south), the key squares, the last move and the captured dice. Touch a die of
// the player to move and its legal destinations light up with the face that will be on top
// there; touch one to move (if several paths lead there, pick the path on the board).
// Every rule stays on the server: movable dice come from the prompt, destinations and paths
// from GET /api/conquest/destinations (the engine's own `destinations`); this file only draws
// what those say and posts the engine's move action.
"use strict";

(function () {
  const S = 100; // one square in SVG units
  const TRAY = 66; // height of a player's strip (name and the dice that player took)
  const MARGIN = 40; // room for the row numbers and column letters
  const PATH_COLORS = ["#0284c7", "#9333ea", "#ea580c", "#059669", "#be123c", "#4d7c0f"];
  // Pip positions on a face, as fractions of the face's side.
  const PIPS = {
    1: [[0.5, 0.5]],
    2: [[0.27, 0.27], [0.73, 0.73]],
    3: [[0.27, 0.27], [0.5, 0.5], [0.73, 0.73]],
    4: [[0.27, 0.27], [0.73, 0.27], [0.27, 0.73], [0.73, 0.73]],
    5: [[0.27, 0.27], [0.73, 0.27], [0.5, 0.5], [0.27, 0.73], [0.73, 0.73]],
    6: [[0.27, 0.25], [0.27, 0.5], [0.27, 0.75], [0.73, 0.25], [0.73, 0.5], [0.73, 0.75]],
  };

  const view = {
    container: null,
    svg: null,
    snap: null,
    posKey: null, // which position `moves` belongs to
    moves: null, // {"c,r": [destination, ...]} from the server, for the position `posKey`
    board: null, // {columns, rows, key_squares, column_names} from the server
    fetching: null,
    selected: null, // "c,r" of the touched die
    choosing: null, // {to: "c,r", entries: [...]} while the player picks one of several paths
    sending: false,
  };

  const el = (name, attrs, parent) => Oche.svgEl(name, attrs, parent);
  const key = (sq) => `${sq[0]},${sq[1]}`;
  const control = Oche.control;
  const positionKey = Oche.positionKey;

  // --- geometry ------------------------------------------------------------------------
  function cellX(sq) { return sq[0] * S; }
  function cellY(sq) { return (view.board.rows - 1 - sq[1]) * S; }
  function center(sq) { return [cellX(sq) + S / 2, cellY(sq) + S / 2]; }
  function squareName(sq) { return `${view.board.column_names[sq[0]]}${sq[1] + 1}`; }

  // --- colours -------------------------------------------------------------------------
  const shade = Oche.shade;
  function pipColor(hex) {
    const [r, g, b] = Oche.rgb(hex);
    return 0.299 * r + 0.587 * g + 0.114 * b > 160 ? "#1f2328" : "#ffffff";
  }

  // --- drawing one die -----------------------------------------------------------------
  // The die is seen from above and a little from the south: its top face as a square with
  // pips, the south ("front") face as a flattened band below it with smaller pips.
  function drawFace(parent, x, y, w, h, value, color, turned = false) {
    // `turned`: the layout a quarter turn round (a 6 as two rows of three), which fits the
    // flattened south face; the top face is drawn the usual way.
    const r = w * 0.085;
    for (const [a, b] of PIPS[value] || []) {
      const [fx, fy] = turned ? [b, a] : [a, b];
      el("ellipse", { cx: x + fx * w, cy: y + fy * h, rx: r, ry: Math.min(r, h * 0.12), fill: color }, parent);
    }
  }

  function drawKeyIcon(parent, cx, cy, size, color) {
    const g = el("g", { stroke: color, "stroke-width": size * 0.09, fill: "none", "stroke-linecap": "round" }, parent);
    el("circle", { cx: cx - size * 0.22, cy, r: size * 0.16 }, g);
    el("line", { x1: cx - size * 0.06, y1: cy, x2: cx + size * 0.34, y2: cy }, g);
    el("line", { x1: cx + size * 0.2, y1: cy, x2: cx + size * 0.2, y2: cy + size * 0.15 }, g);
    el("line", { x1: cx + size * 0.32, y1: cy, x2: cx + size * 0.32, y2: cy + size * 0.12 }, g);
  }

  function drawDie(parent, die, x, y, size, color, extra = {}) {
    const g = el("g", {
      class: "die",
      "data-square": die.at ? key(die.at) : "",
      "data-owner": die.owner,
      "data-key": die.key ? "yes" : "no",
      "data-top": die.top === null ? "" : die.top,
      "data-front": die.front === null ? "" : die.front,
      ...extra,
    }, parent);
    const side = size * 0.7;
    const band = size * 0.22;
    const fx = x + (size - side) / 2;
    const fy = y + size * 0.05;
    const ink = pipColor(color);
    // front band first, so the top face's rounded corners sit over it
    el("rect", { x: fx, y: fy + side - size * 0.06, width: side, height: band + size * 0.06, rx: size * 0.07, fill: shade(color, 0.62), stroke: shade(color, 0.4), "stroke-width": size * 0.015 }, g);
    el("rect", { x: fx, y: fy, width: side, height: side, rx: size * 0.09, fill: color, stroke: shade(color, 0.5), "stroke-width": size * 0.02 }, g);
    if (die.key) {
      drawKeyIcon(g, fx + side / 2, fy + side / 2, side, ink);
    } else {
      drawFace(g, fx, fy, side, side, die.top, ink);
      drawFace(g, fx + side * 0.08, fy + side - size * 0.01, side * 0.84, band, die.front, ink, true);
    }
    const label = die.key ? "key" : `${die.top} on top, ${die.front} to the south`;
    el("title", {}, g).textContent = label;
    return g;
  }

  // --- the board -----------------------------------------------------------------------
  function drawSquares(svg) {
    const g = el("g", { class: "squares" }, svg);
    const snap = view.snap;
    for (let c = 0; c < view.board.columns; c++) {
      for (let r = 0; r < view.board.rows; r++) {
        const sq = [c, r];
        el("rect", {
          class: "square", "data-square": key(sq), x: cellX(sq), y: cellY(sq), width: S, height: S,
          fill: (c + r) % 2 ? "#efe6d2" : "#e4d7bb", stroke: "#b9a989", "stroke-width": 1.5,
        }, g);
      }
    }
    view.board.key_squares.forEach((sq, owner) => {
      const color = Oche.playerColor(snap, owner);
      el("rect", { class: "key-square", "data-owner": owner, x: cellX(sq) + 4, y: cellY(sq) + 4, width: S - 8, height: S - 8, fill: "none", stroke: color, "stroke-width": 6, "stroke-dasharray": "14 7", "pointer-events": "none" }, g);
      const icon = el("g", { opacity: 0.4, "pointer-events": "none" }, g);
      drawKeyIcon(icon, cellX(sq) + S / 2, cellY(sq) + S / 2, 60, color);
    });
    const labels = el("g", { class: "coords", "font-size": 22, fill: "#5b636b", "text-anchor": "middle" }, svg);
    for (let c = 0; c < view.board.columns; c++) {
      el("text", { x: c * S + S / 2, y: view.board.rows * S + 28 }, labels).textContent = view.board.column_names[c];
    }
    for (let r = 0; r < view.board.rows; r++) {
      el("text", { x: -MARGIN / 2, y: cellY([0, r]) + S / 2 + 8 }, labels).textContent = String(r + 1);
    }
  }

  function drawTrays(svg) {
    const snap = view.snap;
    const state = snap.state;
    const width = view.board.columns * S;
    // Player 1 sits at the north edge (top), player 0 at the south edge (bottom).
    const tops = [view.board.rows * S + MARGIN, -TRAY - 8];
    for (const player of [0, 1]) {
      const y = tops[player];
      const color = Oche.playerColor(snap, player);
      const g = el("g", { class: "tray", "data-player": player }, svg);
      const toMove = state.to_move === player && state.phase === "play";
      el("rect", { x: 0, y, width, height: TRAY, rx: 12, fill: toMove ? shade(color, 1) : "#ffffff", "fill-opacity": toMove ? 0.14 : 1, stroke: color, "stroke-width": toMove ? 5 : 2 }, g);
      const name = (snap.players[player] || `Player ${player + 1}`).slice(0, 14);
      el("text", { x: 16, y: y + TRAY / 2 + 9, "font-size": 26, "font-weight": "bold", fill: shade(color, 0.8) }, g).textContent = (toMove ? "▶ " : "") + name;
      el("text", { x: 300, y: y + TRAY / 2 + 7, "font-size": 19, fill: "#5b636b", "text-anchor": "end" }, g).textContent = "took";
      const taken = state.captured.filter((d) => d.owner !== player);
      taken.forEach((d, i) => {
        const dieG = drawDie(g, { ...d, at: null }, 310 + i * 64, y + 4, 58, Oche.playerColor(snap, d.owner), { class: "die captured", "data-id": d.id });
        dieG.removeAttribute("data-square");
      });
    }
  }

  function drawLastMove(svg) {
    const last = view.snap.state.last_move;
    if (!last || !last.path || last.path.length < 2) return;
    const color = Oche.playerColor(view.snap, last.player);
    const g = el("g", { class: "last-move", "pointer-events": "none" }, svg);
    const pts = last.path.map(center);
    el("polyline", { points: pts.map((p) => p.join(",")).join(" "), fill: "none", stroke: shade(color, 0.8), "stroke-opacity": 0.45, "stroke-width": 14, "stroke-linejoin": "round", "stroke-linecap": "round" }, g);
    el("circle", { cx: pts[0][0], cy: pts[0][1], r: 16, fill: "none", stroke: shade(color, 0.8), "stroke-opacity": 0.6, "stroke-width": 5 }, g);
    for (const sq of last.path.slice(1, -1)) {
      const [x, y] = center(sq);
      el("circle", { cx: x, cy: y, r: 6, fill: shade(color, 0.8), "fill-opacity": 0.6 }, g);
    }
  }

  function drawCaptureMark(svg) {
    // The die taken by the last move, small and struck out in the corner of its square.
    const last = view.snap.state.last_move;
    if (!last || !last.captured) return;
    const victim = view.snap.state.captured.find((d) => d.id === last.captured);
    if (!victim) return;
    const size = 50;
    const x = cellX(victim.at) + S - size + 4;
    const y = cellY(victim.at) - 6;
    const g = el("g", { class: "captured-mark", "pointer-events": "none", "data-id": victim.id }, svg);
    drawDie(g, { ...victim, at: null }, x, y, size, Oche.playerColor(view.snap, victim.owner), { class: "die ghost" });
    const a = size * 0.12;
    const b = size * 0.88;
    el("path", { d: `M${x + a},${y + a} L${x + b},${y + b} M${x + b},${y + a} L${x + a},${y + b}`, stroke: "#fff", "stroke-width": 9, "stroke-linecap": "round" }, g);
    el("path", { d: `M${x + a},${y + a} L${x + b},${y + b} M${x + b},${y + a} L${x + a},${y + b}`, stroke: "#b91c1c", "stroke-width": 5, "stroke-linecap": "round" }, g);
  }

  function movableSet(snap) {
    const prompt = snap.prompt || {};
    if (prompt.kind !== "move") return new Set();
    return new Set(((prompt.data || {}).movable || []).map(key));
  }

  function drawDice(svg) {
    const snap = view.snap;
    const g = el("g", { class: "dice" }, svg);
    // Once a die is touched only it stays marked, so its destinations stand out.
    const movable = control() && !view.selected ? movableSet(snap) : new Set();
    for (const die of snap.state.dice) {
      const sq = die.at;
      const k = key(sq);
      if (movable.has(k)) {
        el("rect", { class: "movable", x: cellX(sq) + 3, y: cellY(sq) + 3, width: S - 6, height: S - 6, rx: 10, fill: "#fffdf3", stroke: "#eab308", "stroke-width": 4, "pointer-events": "none" }, g);
      }
      if (view.selected === k) {
        el("rect", { class: "selected", x: cellX(sq) + 2, y: cellY(sq) + 2, width: S - 4, height: S - 4, rx: 10, fill: "#fde047", stroke: "#a16207", "stroke-width": 6 }, g);
      }
      drawDie(g, die, cellX(sq), cellY(sq), S, Oche.playerColor(snap, die.owner), movable.has(k) ? { class: "die movable" } : {});
    }
  }

  function groupByTarget(entries) {
    const groups = new Map();
    for (const entry of entries) {
      const k = key(entry.to);
      if (!groups.has(k)) groups.set(k, []);
      groups.get(k).push(entry);
    }
    return groups;
  }

  function drawDestinations(under, over) {
    if (!view.selected || !view.moves) return;
    const entries = view.moves[view.selected] || [];
    const mover = view.snap.state.dice.find((d) => key(d.at) === view.selected);
    if (!mover) return;
    const color = Oche.playerColor(view.snap, mover.owner);
    for (const [k, group] of groupByTarget(entries)) {
      const to = group[0].to;
      const x = cellX(to);
      const y = cellY(to);
      const capture = group[0].captures !== null;
      const wins = group.some((e) => e.wins);
      const chosen = view.choosing && view.choosing.to === k;
      const fill = capture ? "#f87171" : chosen ? "#facc15" : "#fde047";
      el("rect", { class: "dest-fill", x: x + 2, y: y + 2, width: S - 4, height: S - 4, rx: 8, fill, "fill-opacity": 0.7, stroke: wins ? "#15803d" : "#a16207", "stroke-width": wins ? 8 : 3 }, under);
      const g = el("g", { class: "dest", "data-square": k, "data-tops": group.map((e) => e.top ?? "key").join(" "), "data-paths": group.length }, over);
      el("rect", { x, y, width: S, height: S, fill: "transparent" }, g);
      // The faces this die can show here: one per distinct result.
      const tops = [];
      for (const e of group) {
        const face = `${e.top}/${e.front}`;
        if (!tops.some((t) => `${t.top}/${t.front}` === face)) tops.push(e);
      }
      if (capture) {
        el("rect", { x: x + 6, y: y + 6, width: S - 12, height: S - 12, rx: 12, fill: "none", stroke: "#b91c1c", "stroke-width": 6, "stroke-dasharray": "10 6", "pointer-events": "none" }, g);
      }
      if (!capture && tops.length === 1) {
        const ghost = drawDie(g, { ...mover, at: null, top: tops[0].top, front: tops[0].front }, x, y, S, color, { class: "die ghost" });
        ghost.setAttribute("opacity", 0.75);
        ghost.removeAttribute("data-square");
      } else {
        // Small faces along the top of the square (over the enemy die when it is a capture).
        const size = 50;
        tops.forEach((e, i) => {
          const gx = x + S - size - i * size;
          const ghost = drawDie(g, { ...mover, at: null, top: e.top, front: e.front }, gx, y - 6, size, color, { class: "die ghost" });
          ghost.removeAttribute("data-square");
        });
      }
      if (wins) {
        el("rect", { x: x + 14, y: y + S - 30, width: S - 28, height: 26, rx: 13, fill: "#15803d", "pointer-events": "none" }, g);
        el("text", { x: x + S / 2, y: y + S - 10, "font-size": 19, "font-weight": "bold", fill: "#fff", "text-anchor": "middle", "pointer-events": "none" }, g).textContent = "WINS";
      }
    }
  }

  function drawPathChoices(svg) {
    if (!view.choosing) return;
    const g = el("g", { class: "path-choices" }, svg);
    const n = view.choosing.entries.length;
    view.choosing.entries.forEach((entry, i) => {
      const offset = (i - (n - 1) / 2) * 14;
      const pts = entry.path.map((sq) => center(sq).map((v) => v + offset));
      const color = PATH_COLORS[i % PATH_COLORS.length];
      const pg = el("g", { class: "path-choice", "data-index": i }, g);
      const points = pts.map((p) => p.join(",")).join(" ");
      el("polyline", { points, fill: "none", stroke: "#000", "stroke-opacity": 0, "stroke-width": 40, "stroke-linejoin": "round", "pointer-events": "stroke" }, pg);
      el("polyline", { points, fill: "none", stroke: color, "stroke-width": 9, "stroke-linejoin": "round", "stroke-linecap": "round", "stroke-dasharray": i ? "18 8" : "none" }, pg);
      // The number sits on the corner (or the middle of a straight path).
      const corner = pts[Math.max(1, Math.floor(pts.length / 2))];
      const turn = pts.findIndex((p, j) => j > 0 && j < pts.length - 1 && (p[0] - pts[j - 1][0]) * (pts[j + 1][1] - p[1]) !== (p[1] - pts[j - 1][1]) * (pts[j + 1][0] - p[0]));
      const at = turn > 0 ? pts[turn] : corner;
      el("circle", { class: "path-label", cx: at[0], cy: at[1], r: 22, fill: color, stroke: "#fff", "stroke-width": 3 }, pg);
      el("text", { x: at[0], y: at[1] + 8, "font-size": 24, "font-weight": "bold", fill: "#fff", "text-anchor": "middle", "pointer-events": "none" }, pg).textContent = String(i + 1);
    });
  }

  function draw() {
    const snap = view.snap;
    if (!view.board) {
      view.container.textContent = "Loading the board…";
      view.svg = null;
      return;
    }
    let svg = view.svg;
    if (!svg || !view.container.contains(svg)) {
      view.container.innerHTML = "";
      const w = view.board.columns * S;
      const top = -TRAY - 10;
      const height = view.board.rows * S + MARGIN + TRAY + 10 - top;
      svg = el("svg", {
        viewBox: `${-MARGIN} ${top} ${w + MARGIN + 6} ${height}`,
        class: "conquest-board",
        role: "img",
        "aria-label": "Conquest board",
        "font-family": "DejaVu Sans, sans-serif",
      }, view.container);
      svg.addEventListener("click", onTap);
      view.svg = svg;
    }
    svg.innerHTML = "";
    svg.dataset.position = view.posKey || "";
    svg.dataset.ready = view.moves ? "yes" : "no";
    svg.dataset.selected = view.selected || "";
    drawSquares(svg);
    const under = el("g", { class: "dest-under" }, svg);
    drawLastMove(svg);
    drawDice(svg);
    const over = el("g", { class: "dest-over" }, svg);
    drawDestinations(under, over);
    drawCaptureMark(svg);
    drawPathChoices(svg);
    drawTrays(svg);
  }

  // --- talking to the server -----------------------------------------------------------
  function fetchMoves(snap) {
    return Oche.fetchForPosition(view, snap, "/api/conquest/destinations", "the moves", (data) => {
      view.board = data.board;
      // A late answer for an older position is dropped; the newer one is on its way.
      if (Oche.answerKey(data) !== positionKey(view.snap)) return;
      view.moves = data.dice;
      draw();
      refreshChoices();
    });
  }

  function send(entry) {
    return Oche.sendAction(view, entry.action, () => {
      view.selected = null;
      view.choosing = null;
    });
  }

  // --- touching the board --------------------------------------------------------------
  function onTap(event) {
    const snap = view.snap;
    if (!snap || !view.board) return;
    const pathEl = Oche.tapped(event, ".path-choice");
    if (view.choosing && pathEl) {
      send(view.choosing.entries[Number(pathEl.dataset.index)]);
      return;
    }
    const hit = Oche.tapped(event, "[data-square]");
    const k = hit ? hit.dataset.square : null;
    if (!k) return;
    if (!control()) { Oche.flash("Enter the table's PIN to move dice from this tablet.", true); return; }
    if ((snap.prompt || {}).kind !== "move") { Oche.flash(snap.prompt.text); return; }
    const entries = view.selected && view.moves ? (view.moves[view.selected] || []) : [];
    const here = entries.filter((e) => key(e.to) === k);
    if (here.length === 1) { send(here[0]); return; }
    if (here.length > 1) {
      view.choosing = { to: k, entries: here };
      update();
      return;
    }
    view.choosing = null;
    const die = snap.state.dice.find((d) => key(d.at) === k);
    if (die && die.owner === snap.prompt.player) {
      if (view.selected === k) view.selected = null;
      else if (movableSet(snap).has(k)) view.selected = k;
      else { view.selected = null; Oche.flash("That die has no legal move now."); }
    } else {
      view.selected = null;
    }
    update();
  }

  function update() {
    draw();
    refreshChoices();
  }

  function refreshChoices() {
    Oche.refillChoices(view.snap, ["move"], choices);
  }

  // --- the prompt area -----------------------------------------------------------------
  function describePath(entry) {
    const corner = entry.path.find((sq, j) => {
      if (j === 0 || j === entry.path.length - 1) return false;
      const a = entry.path[j - 1];
      const b = entry.path[j + 1];
      return (sq[0] - a[0]) !== (b[0] - sq[0]) || (sq[1] - a[1]) !== (b[1] - sq[1]);
    });
    const via = corner ? `turning at ${squareName(corner)}` : "straight";
    const face = entry.top === null ? "" : `, ${entry.top} on top`;
    return `${via}${face}`;
  }

  function button(label, onClick, cls) {
    const b = document.createElement("button");
    b.textContent = label;
    if (cls) b.className = cls;
    b.addEventListener("click", onClick);
    if (cls === "secondary") { b.style.background = "#fff"; b.style.color = "#1f2328"; }
    return b;
  }

  function choices(div, snap) {
    if ((snap.prompt || {}).kind !== "move") return false;
    const note = document.createElement("p");
    note.className = "hint conquest-hint";
    div.appendChild(note);
    if (view.choosing) {
      note.textContent = `Several ways lead to ${squareName(view.choosing.to.split(",").map(Number))}: touch a path on the board or pick one here.`;
      view.choosing.entries.forEach((entry, i) => {
        const b = button(`${i + 1}: ${describePath(entry)}`, () => send(entry), "path-button");
        b.style.background = PATH_COLORS[i % PATH_COLORS.length];
        b.style.borderColor = PATH_COLORS[i % PATH_COLORS.length];
        div.appendChild(b);
      });
      div.appendChild(button("Cancel", () => { view.choosing = null; update(); }, "secondary"));
    } else if (view.selected) {
      const n = view.moves ? (view.moves[view.selected] || []).length : 0;
      const targets = view.moves ? groupByTarget(view.moves[view.selected] || []).size : 0;
      note.textContent = view.moves
        ? `${targets} destination${targets === 1 ? "" : "s"} (${n} path${n === 1 ? "" : "s"}): the face shown is the one on top after the move.`
        : "Loading the destinations…";
      div.appendChild(button("Choose another die", () => { view.selected = null; update(); }, "secondary"));
    } else {
      note.textContent = "Dice that can move have a gold frame.";
    }
    return true;
  }

  // --- entry point from app.js ---------------------------------------------------------
  function board(container, snap) {
    const newPosition = positionKey(snap) !== view.posKey;
    view.container = container;
    view.snap = snap;
    if (newPosition) {
      view.posKey = positionKey(snap);
      view.moves = null;
      view.selected = null;
      view.choosing = null;
    }
    // Also ask again when an earlier answer was lost (network) or arrived for another position.
    if (newPosition || !view.board || (!view.moves && !view.fetching)) fetchMoves(snap);
    draw();
  }

  Oche.games.conquest = { board, choices };
})();
