// Sparta referee view: the square board with its cities (in their owner's colour), warriors
// and heroes of both sides, each side's heroes still beside the board and the pieces it took,
// and the last move (its path, a promotion, a conquest, the pieces captured).
// Touch a piece of the player to move: the squares it can stop on light up, marked with what
// the move would do there (capture, promotion, conquest, a win); touch one to move there.
// Every rule stays on the server: movable pieces and one engine path per destination come
// from the prompt, the effects of each move from GET /api/sparta/moves (the engine applies
// each move); this file only draws what those say and posts the engine's move action.
"use strict";

(function () {
  const S = 100; // one square in SVG units
  const TRAY = 96; // height of a player's strip (name, heroes in stock, pieces taken)
  const TRAY_WIDTH = 1000; // the strip is laid out this wide, then scaled to the board's width
  const MARGIN = 44; // room for the rank numbers and file letters
  const GAP = 10;
  // Selection marks in blue: apart from both sides' usual colours (yellow, red) and the cities.
  const SELECT = "#38bdf8";
  const SELECT_EDGE = "#0369a1";
  const DEST = "#7dd3fc";

  const view = {
    container: null,
    svg: null,
    snap: null,
    posKey: null, // which position `moves` belongs to
    moves: null, // {"r,c": [entry, ...]} from the server for the position `posKey`
    board: null, // {size, files, ranks, colours} from the server
    fetching: null,
    selected: null, // "r,c" of the touched piece
    peek: null, // {square, to: ["r,c", ...]}: where a piece not on the move could go
    sending: false,
  };

  const el = (name, attrs, parent) => Oche.svgEl(name, attrs, parent);
  const key = (sq) => `${sq[0]},${sq[1]}`;
  const control = Oche.control;
  const positionKey = Oche.positionKey;

  // --- geometry and names --------------------------------------------------------------
  function size() { return view.snap.state.size; }
  function center(sq) { return [sq[1] * S + S / 2, sq[0] * S + S / 2]; }
  function squareName(sq) {
    const b = view.board;
    return b ? `${b.files[sq[1]]}${b.ranks[sq[0]]}` : key(sq);
  }
  function pieceAt(sq) {
    const letter = view.snap.state.board[sq[0]][sq[1]];
    if (letter === ".") return null;
    return { owner: letter === letter.toUpperCase() ? 0 : 1, kind: "wW".includes(letter) ? "warrior" : "hero" };
  }

  // --- colours -------------------------------------------------------------------------
  function colour(player) {
    return view.board ? view.board.colours[player] : Oche.playerColor(view.snap, player);
  }
  const rgb = Oche.rgb;
  const shade = Oche.shade;
  function tint(hex, amount) {
    // Mix with white: 0 = the colour, 1 = white.
    const [r, g, b] = rgb(hex).map((v) => Math.round(v + (255 - v) * amount));
    return `rgb(${r},${g},${b})`;
  }
  function ink(hex) {
    const [r, g, b] = rgb(hex);
    return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? "#1f2328" : "#ffffff";
  }

  // --- drawing pieces ------------------------------------------------------------------
  function starPoints(cx, cy, outer, inner, points = 5) {
    const out = [];
    for (let i = 0; i < points * 2; i++) {
      const r = i % 2 ? inner : outer;
      const a = -Math.PI / 2 + (i * Math.PI) / points;
      out.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
    }
    return out.join(" ");
  }

  // A warrior is a plain disc with a ring; a hero is a larger disc with a thick rim and a
  // star, so the two read apart at a glance in either colour.
  function drawPiece(parent, kind, owner, cx, cy, scale, extra = {}) {
    const c = colour(owner);
    const g = el("g", { class: `piece ${kind}`, "data-owner": owner, "data-kind": kind, ...extra }, parent);
    const mark = ink(c);
    if (kind === "hero") {
      el("circle", { cx, cy: cy + 3 * scale, r: 38 * scale, fill: "#0004" }, g);
      el("circle", { cx, cy, r: 38 * scale, fill: c, stroke: shade(c, 0.45), "stroke-width": 7 * scale }, g);
      el("circle", { cx, cy, r: 28 * scale, fill: "none", stroke: mark, "stroke-width": 2.5 * scale, "stroke-opacity": 0.7 }, g);
      el("polygon", { points: starPoints(cx, cy, 22 * scale, 9 * scale), fill: mark }, g);
    } else {
      el("circle", { cx, cy: cy + 3 * scale, r: 31 * scale, fill: "#0004" }, g);
      el("circle", { cx, cy, r: 31 * scale, fill: c, stroke: shade(c, 0.5), "stroke-width": 3.5 * scale }, g);
      el("circle", { cx, cy, r: 17 * scale, fill: "none", stroke: mark, "stroke-width": 4 * scale, "stroke-opacity": 0.75 }, g);
    }
    return g;
  }

  function drawCastle(parent, x, y, w, fill) {
    // A small wall with three towers: the city sign in a corner of the square.
    const h = w * 0.8;
    const t = w / 5;
    const d = [
      `M${x},${y + h}`, `L${x},${y}`, `L${x + t},${y}`, `L${x + t},${y + t}`, `L${x + 2 * t},${y + t}`,
      `L${x + 2 * t},${y}`, `L${x + 3 * t},${y}`, `L${x + 3 * t},${y + t}`, `L${x + 4 * t},${y + t}`,
      `L${x + 4 * t},${y}`, `L${x + w},${y}`, `L${x + w},${y + h}`, "Z",
    ].join(" ");
    el("path", { d, fill, stroke: "#fff", "stroke-width": 2, "stroke-linejoin": "round" }, parent);
    el("rect", { x: x + w / 2 - t / 2, y: y + h - t * 1.4, width: t, height: t * 1.4, rx: t / 2, fill: "#fff" }, parent);
  }

  function drawFlag(parent, x, y, h, fill) {
    el("line", { x1: x, y1: y, x2: x, y2: y + h, stroke: "#1f2328", "stroke-width": h * 0.09, "stroke-linecap": "round" }, parent);
    el("path", { d: `M${x},${y} L${x + h * 0.7},${y + h * 0.22} L${x},${y + h * 0.45} Z`, fill, stroke: "#1f2328", "stroke-width": h * 0.05 }, parent);
  }

  // --- the board -----------------------------------------------------------------------
  function drawSquares(svg) {
    const n = size();
    const g = el("g", { class: "squares" }, svg);
    el("rect", { x: -4, y: -4, width: n * S + 8, height: n * S + 8, fill: "#8a7350", rx: 6 }, g);
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        el("rect", {
          class: "square", "data-square": `${r},${c}`, x: c * S, y: r * S, width: S, height: S,
          fill: (r + c) % 2 ? "#eadfc8" : "#e2d5b9", stroke: "#b9a989", "stroke-width": 1.5,
        }, g);
      }
    }
    const labels = el("g", { class: "coords", "font-size": 24, fill: "#5b636b", "text-anchor": "middle", "pointer-events": "none" }, svg);
    const files = view.board ? view.board.files : [];
    const ranks = view.board ? view.board.ranks : [];
    for (let c = 0; c < n; c++) {
      el("text", { x: c * S + S / 2, y: n * S + 32 }, labels).textContent = files[c] || "";
    }
    for (let r = 0; r < n; r++) {
      el("text", { x: -MARGIN / 2, y: r * S + S / 2 + 8 }, labels).textContent = ranks[r] || "";
    }
  }

  function drawCities(svg) {
    const g = el("g", { class: "cities", "pointer-events": "none" }, svg);
    for (const [k, owner] of Object.entries(view.snap.state.cities)) {
      const sq = k.split(",").map(Number);
      const x = sq[1] * S;
      const y = sq[0] * S;
      const c = colour(owner);
      const city = el("g", { class: "city", "data-square": k, "data-owner": owner }, g);
      el("rect", { x: x + 4, y: y + 4, width: S - 8, height: S - 8, rx: 6, fill: tint(c, 0.55), stroke: shade(c, 0.75), "stroke-width": 6 }, city);
      drawCastle(city, x + 9, y + 9, 26, shade(c, 0.8));
      el("title", {}, city).textContent = `city of ${view.snap.players[owner] || `player ${owner + 1}`} on ${squareName(sq)}`;
    }
  }

  function movableSet() {
    const prompt = view.snap.prompt || {};
    if (prompt.kind !== "move" || !control()) return new Set();
    return new Set(Object.keys((prompt.data || {}).destinations || {}));
  }
  function promotableSet() {
    const prompt = view.snap.prompt || {};
    if (prompt.kind !== "move" || !control()) return new Set();
    return new Set(((prompt.data || {}).promotable || []).map(key));
  }

  function drawPieces(svg) {
    const g = el("g", { class: "pieces" }, svg);
    const movable = view.selected ? new Set() : movableSet();
    const promotable = promotableSet();
    const rows = view.snap.state.board;
    for (let r = 0; r < rows.length; r++) {
      for (let c = 0; c < rows[r].length; c++) {
        const piece = pieceAt([r, c]);
        if (!piece) continue;
        const k = `${r},${c}`;
        const x = c * S;
        const y = r * S;
        if (view.selected === k) {
          el("rect", { class: "selected", x: x + 3, y: y + 3, width: S - 6, height: S - 6, rx: 10, fill: SELECT, "fill-opacity": 0.55, stroke: SELECT_EDGE, "stroke-width": 7 }, g);
        } else if (movable.has(k)) {
          el("rect", { class: "movable-frame", x: x + 5, y: y + 5, width: S - 10, height: S - 10, rx: 10, fill: "none", stroke: SELECT_EDGE, "stroke-width": 4, "pointer-events": "none" }, g);
        }
        const [cx, cy] = center([r, c]);
        const extra = { "data-square": k };
        if (movable.has(k)) extra.class = `piece ${piece.kind} movable`;
        const pg = drawPiece(g, piece.kind, piece.owner, cx, cy, 1, extra);
        el("title", {}, pg).textContent = `${view.snap.players[piece.owner] || ""}: ${piece.kind} on ${squareName([r, c])}`;
        if (promotable.has(k)) {
          // A warrior that may be promoted instead of moving: a small star badge.
          const badge = el("g", { class: "promotable", "data-square": k, "pointer-events": "none" }, g);
          el("circle", { cx: x + S - 20, cy: y + 20, r: 16, fill: "#15803d", stroke: "#fff", "stroke-width": 3 }, badge);
          el("polygon", { points: starPoints(x + S - 20, y + 20, 11, 4.5), fill: "#fff" }, badge);
        }
      }
    }
  }

  // --- the last move -------------------------------------------------------------------
  function drawLastMove(svg) {
    const last = view.snap.state.last;
    if (!last) return;
    const c = colour(last.player);
    const g = el("g", { class: "last-move", "data-type": last.type, "pointer-events": "none" }, svg);
    if (last.path && last.path.length > 1) {
      const pts = last.path.map(center);
      el("polyline", { class: "last-path", points: pts.map((p) => p.join(",")).join(" "), fill: "none", stroke: shade(c, 0.7), "stroke-opacity": 0.5, "stroke-width": 14, "stroke-linejoin": "round", "stroke-linecap": "round" }, g);
      el("circle", { class: "last-start", cx: pts[0][0], cy: pts[0][1], r: 20, fill: "none", stroke: shade(c, 0.7), "stroke-opacity": 0.75, "stroke-width": 5, "stroke-dasharray": "8 5" }, g);
      for (const p of pts.slice(1, -1)) el("circle", { cx: p[0], cy: p[1], r: 7, fill: shade(c, 0.7), "fill-opacity": 0.7 }, g);
      const end = last.path[last.path.length - 1];
      el("rect", { class: "last-end", x: end[1] * S + 2, y: end[0] * S + 2, width: S - 4, height: S - 4, rx: 8, fill: "none", stroke: shade(c, 0.7), "stroke-width": 4 }, g);
    }
  }

  function drawLastMarks(svg) {
    // Drawn over the pieces: what the last move caused.
    const last = view.snap.state.last;
    if (!last) return;
    const g = el("g", { class: "last-marks", "pointer-events": "none" }, svg);
    if (last.promoted) {
      const [r, c] = last.promoted;
      const m = el("g", { class: "promoted-mark", "data-square": key(last.promoted) }, g);
      el("rect", { x: c * S + 3, y: r * S + 3, width: S - 6, height: S - 6, rx: 10, fill: "none", stroke: "#15803d", "stroke-width": 5, "stroke-dasharray": "10 6" }, m);
      el("circle", { cx: c * S + 20, cy: r * S + S - 20, r: 16, fill: "#15803d", stroke: "#fff", "stroke-width": 3 }, m);
      el("polygon", { points: starPoints(c * S + 20, r * S + S - 20, 11, 4.5), fill: "#fff" }, m);
    }
    if (last.conquered) {
      const [r, c] = last.conquered;
      const m = el("g", { class: "conquered-mark", "data-square": key(last.conquered) }, g);
      el("circle", { cx: c * S + S - 22, cy: r * S + S - 22, r: 19, fill: "#fff", stroke: "#1f2328", "stroke-width": 2 }, m);
      drawFlag(m, c * S + S - 30, r * S + S - 36, 28, colour(last.player));
    }
    for (const taken of last.captured || []) {
      const [r, c] = taken.square;
      const [cx, cy] = center(taken.square);
      const m = el("g", { class: "captured-mark", "data-square": key(taken.square), "data-owner": taken.player, "data-kind": taken.kind }, g);
      const ghost = drawPiece(m, taken.kind, taken.player, cx, cy, 0.8, { opacity: 0.45 });
      ghost.setAttribute("class", `ghost ${taken.kind}`);
      const a = 24;
      const cross = `M${cx - a},${cy - a} L${cx + a},${cy + a} M${cx + a},${cy - a} L${cx - a},${cy + a}`;
      el("path", { d: cross, stroke: "#fff", "stroke-width": 13, "stroke-linecap": "round" }, m);
      el("path", { d: cross, stroke: "#b91c1c", "stroke-width": 7, "stroke-linecap": "round" }, m);
      el("title", {}, m).textContent = `captured: ${taken.kind} on ${squareName([r, c])}`;
    }
  }

  // --- destinations of the touched piece -----------------------------------------------
  function destinationEntries() {
    // The server's entries (with effects) once they are here; until then the prompt's paths.
    if (!view.selected) return [];
    if (view.moves && view.moves[view.selected]) return view.moves[view.selected];
    const paths = ((view.snap.prompt || {}).data || {}).paths || {};
    return Object.values(paths[view.selected] || {}).map((path) => ({ to: path[path.length - 1], path, action: null, effects: null }));
  }

  function badge(parent, cx, cy, fill, cls) {
    const b = el("g", { class: cls }, parent);
    el("circle", { cx, cy, r: 17, fill, stroke: "#fff", "stroke-width": 3 }, b);
    return b;
  }

  function drawDestinations(under, over) {
    const entries = destinationEntries();
    if (!entries.length) return;
    const mover = pieceAt(view.selected.split(",").map(Number));
    for (const entry of entries) {
      const [r, c] = entry.to;
      const x = c * S;
      const y = r * S;
      const fx = entry.effects || {};
      const captures = (fx.captures || []).length;
      const fill = captures ? "#f87171" : DEST;
      el("rect", { class: "dest-fill", x: x + 3, y: y + 3, width: S - 6, height: S - 6, rx: 8, fill, "fill-opacity": 0.6, stroke: fx.result === "wins" ? "#15803d" : captures ? "#991b1b" : SELECT_EDGE, "stroke-width": fx.result === "wins" ? 8 : 3 }, under);
      const g = el("g", {
        class: "dest", "data-square": key(entry.to),
        "data-captures": captures, "data-promotes": fx.promotes ? "yes" : "no",
        "data-conquers": fx.conquers ? "yes" : "no", "data-result": fx.result || "",
      }, over);
      el("rect", { x, y, width: S, height: S, fill: "transparent" }, g);
      if (mover) {
        const ghost = drawPiece(g, fx.promotes ? "hero" : mover.kind, mover.owner, x + S / 2, y + S / 2, 0.62, { opacity: 0.55 });
        ghost.setAttribute("class", "ghost");
        ghost.setAttribute("pointer-events", "none");
      }
      if (captures) {
        const b = badge(g, x + S - 21, y + 21, "#b91c1c", "capture-badge");
        el("text", { x: x + S - 21, y: y + 28, "font-size": 20, "font-weight": "bold", fill: "#fff", "text-anchor": "middle" }, b).textContent = `×${captures}`;
      }
      if (fx.promotes) {
        badge(g, x + 21, y + 21, "#15803d", "promote-badge");
        el("polygon", { points: starPoints(x + 21, y + 21, 11, 4.5), fill: "#fff", "pointer-events": "none" }, g);
      }
      if (fx.conquers) {
        const b = badge(g, x + 21, y + S - 21, "#fff", "conquer-badge");
        drawFlag(b, x + 14, y + S - 35, 26, colour(mover ? mover.owner : 0));
      }
      if (fx.result) {
        const label = { wins: "WINS", loses: "LOSES", draw: "TIE" }[fx.result];
        const colourOf = { wins: "#15803d", loses: "#7f1d1d", draw: "#475569" }[fx.result];
        el("rect", { x: x + 12, y: y + S - 32, width: S - 24, height: 27, rx: 13, fill: colourOf, "pointer-events": "none" }, g);
        el("text", { x: x + S / 2, y: y + S - 12, "font-size": 19, "font-weight": "bold", fill: "#fff", "text-anchor": "middle", "pointer-events": "none" }, g).textContent = label;
      }
      for (const child of g.querySelectorAll("g, circle, text, polygon, path")) child.setAttribute("pointer-events", "none");
    }
  }

  function drawCaptureTargets(svg) {
    // While a piece is touched, the pieces some destination would capture get a red ring.
    const targets = new Set();
    for (const entry of destinationEntries()) {
      for (const taken of ((entry.effects || {}).captures || [])) targets.add(key(taken.square));
    }
    const g = el("g", { class: "capture-targets", "pointer-events": "none" }, svg);
    for (const k of targets) {
      const [cx, cy] = center(k.split(",").map(Number));
      el("circle", { class: "threatened", "data-square": k, cx, cy, r: 44, fill: "none", stroke: "#b91c1c", "stroke-width": 5, "stroke-dasharray": "9 6" }, g);
    }
  }

  // --- the players' strips -------------------------------------------------------------
  function drawTrays(svg) {
    const snap = view.snap;
    const state = snap.state;
    const n = size();
    const width = TRAY_WIDTH;
    const k = trayScale();
    // Player 1 sits at the top edge, player 0 at the bottom edge.
    const tops = [n * S + MARGIN, -TRAY * k - GAP];
    for (const player of [0, 1]) {
      const y = 0;
      const c = colour(player);
      const other = 1 - player;
      const g = el("g", { class: "tray", "data-player": player, transform: `translate(0 ${tops[player]}) scale(${k})` }, svg);
      const toMove = !snap.outcome && state.to_move === player;
      el("rect", { x: 0, y, width, height: TRAY, rx: 12, fill: toMove ? tint(c, 0.8) : "#ffffff", stroke: shade(c, 0.8), "stroke-width": toMove ? 6 : 2 }, g);
      const name = (snap.players[player] || `Player ${player + 1}`).slice(0, 12);
      const mid = y + TRAY / 2;
      el("text", { x: 18, y: mid + 12, "font-size": 36, "font-weight": "bold", fill: shade(c, 0.55) }, g).textContent = (toMove ? "▶ " : "") + name;
      // Heroes still beside the board.
      const stock = el("g", { class: "stock", "data-player": player, "data-count": state.stock[player] }, g);
      drawPiece(stock, "hero", player, 395, mid - 8, 0.62);
      el("text", { x: 425, y: mid + 4, "font-size": 34, "font-weight": "bold", fill: "#1f2328" }, stock).textContent = `×${state.stock[player]}`;
      el("text", { x: 395, y: mid + 40, "font-size": 19, fill: "#5b636b", "text-anchor": "middle" }, stock).textContent = "heroes in stock";
      // What this player took from the other side.
      const otherName = (snap.players[other] || `Player ${other + 1}`).slice(0, 12);
      el("text", { x: 695, y: mid + 40, "font-size": 19, fill: "#5b636b", "text-anchor": "middle" }, g).textContent = `taken from ${otherName}`;
      const lost = state.lost[other];
      [["warrior", 600], ["hero", 760]].forEach(([kind, x]) => {
        const t = el("g", { class: "taken", "data-kind": kind, "data-count": lost[kind] }, g);
        drawPiece(t, kind, other, x, mid - 8, 0.62, { opacity: lost[kind] ? 1 : 0.3 });
        el("text", { x: x + 30, y: mid + 4, "font-size": 34, "font-weight": "bold", fill: lost[kind] ? "#1f2328" : "#9ca3af" }, t).textContent = `×${lost[kind]}`;
      });
    }
  }

  function trayScale() { return (size() * S) / TRAY_WIDTH; }

  function draw() {
    const snap = view.snap;
    if (!snap.state || !snap.state.board) return;
    const n = size();
    let svg = view.svg;
    if (!svg || !view.container.contains(svg)) {
      view.container.innerHTML = "";
      svg = el("svg", {
        class: "sparta-board",
        role: "img",
        "aria-label": "Sparta board",
        "font-family": "DejaVu Sans, sans-serif",
      }, view.container);
      svg.addEventListener("click", onTap);
      view.svg = svg;
    }
    svg.innerHTML = "";
    // The board's size may change from one game to the next: the view box follows it.
    const top = -TRAY * trayScale() - GAP - 4;
    const height = n * S + MARGIN + TRAY * trayScale() + 4 - top;
    svg.setAttribute("viewBox", `${-MARGIN} ${top} ${n * S + MARGIN + 6} ${height}`);
    svg.dataset.position = view.posKey || "";
    svg.dataset.ready = view.moves ? "yes" : "no";
    svg.dataset.selected = view.selected || "";
    drawSquares(svg);
    drawCities(svg);
    const under = el("g", { class: "dest-under" }, svg);
    drawLastMove(svg);
    drawPieces(svg);
    drawLastMarks(svg);
    drawCaptureTargets(svg);
    drawPeek(svg);
    const over = el("g", { class: "dest-over" }, svg);
    drawDestinations(under, over);
    drawTrays(svg);
  }

  // --- talking to the server -----------------------------------------------------------
  function fetchMoves(snap) {
    return Oche.fetchForPosition(view, snap, "/api/sparta/moves", "the moves", async (data) => {
      const firstBoard = !view.board;
      view.board = data.board;
      if (firstBoard) syncColours(view.snap);
      // A late answer for an older position is dropped; the newer one is on its way.
      const current = Oche.answerKey(data) === positionKey(view.snap);
      if (current) view.moves = data.pieces;
      if (firstBoard) await Oche.render(view.snap); // the whole page in our colours
      else if (current) update();
    });
  }

  function syncColours(snap) {
    // The page's own marks (the turn swatch) use the snapshot's colours: make them ours.
    if (view.board && snap) snap.colors = view.board.colours.slice();
  }

  function send(action) {
    return Oche.sendAction(view, action, () => { view.selected = null; });
  }

  function moveAction(entry) {
    if (entry.action) return entry.action;
    return { type: "move", player: view.snap.prompt.player, path: entry.path };
  }

  // --- touching the board --------------------------------------------------------------
  function onTap(event) {
    const snap = view.snap;
    if (!snap || !snap.state) return;
    const hit = Oche.tapped(event, "[data-square]");
    const k = hit ? hit.dataset.square : null;
    if (!k) return;
    const piece = pieceAt(k.split(",").map(Number));
    const moving = control() && (snap.prompt || {}).kind === "move";
    const target = moving ? destinationEntries().find((e) => key(e.to) === k) : null;
    if (target) { send(moveAction(target)); return; }
    view.peek = null;
    if (piece && !(moving && piece.owner === snap.prompt.player)) {
      // Anyone may look where a piece could go: the other side's, or any piece for spectators.
      view.selected = null;
      peek(k);
      update();
      return;
    }
    if (!control()) { Oche.flash("Enter the table's PIN to move pieces from this tablet.", true); return; }
    if (!moving) { Oche.flash(snap.prompt.text); update(); return; }
    if (piece) {
      if (view.selected === k) view.selected = null;
      else if (movableSet().has(k) || promotableSet().has(k)) view.selected = k;
      else { view.selected = null; Oche.flash("That piece cannot move now: every square around it is taken."); }
    } else {
      view.selected = null;
    }
    update();
  }

  async function peek(k) {
    // The squares a piece not on the move could reach: what it threatens next turn.
    const wanted = view.posKey;
    try {
      const response = await fetch(`/api/sparta/moves?square=${k}`, { credentials: "same-origin" });
      const data = await response.json();
      if (!response.ok) { Oche.flash(data.error || "could not load that piece's moves", true); return; }
      if (Oche.answerKey(data) !== wanted || view.posKey !== wanted) return;
      view.peek = { square: k, to: (data.pieces[k] || []).map((e) => key(e.to)) };
      update();
    } catch (e) {
      Oche.flash("could not load that piece's moves: is the server running?", true);
    }
  }

  function drawPeek(svg) {
    if (!view.peek) return;
    const piece = pieceAt(view.peek.square.split(",").map(Number));
    if (!piece) return;
    const edge = shade(colour(piece.owner), 0.7);
    const g = el("g", { class: "peek", "data-square": view.peek.square, "pointer-events": "none" }, svg);
    const [cx, cy] = center(view.peek.square.split(",").map(Number));
    el("circle", { cx, cy, r: 46, fill: "none", stroke: edge, "stroke-width": 4, "stroke-dasharray": "4 5" }, g);
    for (const k of view.peek.to) {
      const [r, c] = k.split(",").map(Number);
      el("rect", { class: "reach", "data-square": k, x: c * S + 10, y: r * S + 10, width: S - 20, height: S - 20, rx: 8, fill: edge, "fill-opacity": 0.12, stroke: edge, "stroke-width": 4, "stroke-dasharray": "10 7" }, g);
    }
  }

  function update() {
    draw();
    refreshChoices();
  }

  function refreshChoices() {
    Oche.refillChoices(view.snap, ["move"], choices);
  }

  // --- the prompt area -----------------------------------------------------------------
  function button(label, onClick, cls) {
    const b = document.createElement("button");
    b.textContent = label;
    if (cls) b.className = cls;
    b.addEventListener("click", onClick);
    if (cls === "secondary") { b.style.background = "#fff"; b.style.color = "#1f2328"; b.style.borderColor = "#888"; }
    return b;
  }

  function choices(div, snap) {
    if ((snap.prompt || {}).kind !== "move") return false;
    const note = document.createElement("p");
    note.className = "hint sparta-hint";
    div.appendChild(note);
    if (view.selected) {
      const entries = destinationEntries();
      const has = (test) => entries.some((e) => e.effects && test(e.effects));
      const keys = [];
      if (has((fx) => fx.captures.length)) keys.push("red: captures (×n pieces)");
      if (has((fx) => fx.promotes)) keys.push("★ becomes a hero");
      if (has((fx) => fx.conquers)) keys.push("⚑ conquers the city");
      const count = `${entries.length} square${entries.length === 1 ? "" : "s"} to go to`;
      note.textContent = entries.length
        ? `${count}${keys.length ? `: ${keys.join(", ")}` : ""}.`
        : "This warrior cannot move, but it may be promoted.";
      div.appendChild(button("Choose another piece", () => { view.selected = null; update(); }, "secondary"));
    } else if (view.peek) {
      const [r, c] = view.peek.square.split(",").map(Number);
      const piece = pieceAt([r, c]);
      const whose = piece ? `${snap.players[piece.owner]}'s ${piece.kind}` : "The piece";
      note.textContent = `${whose} on ${squareName([r, c])} could go to the dashed squares on its turn.`;
    } else if (Object.keys((snap.prompt.data || {}).destinations || {}).length) {
      note.textContent = "Pieces that can move have a blue frame: touch one, then a blue square.";
    } else {
      note.textContent = "No piece can move.";
    }
    // The special case: a warrior in its own city may become a hero instead of moving.
    for (const option of snap.prompt_options) {
      const action = option.action;
      if (action.type === "promote") {
        const b = button(`Promote the warrior on ${squareName(action.square)} instead of moving`, () => send(action), "promote-button");
        b.dataset.square = key(action.square);
        div.appendChild(b);
      } else {
        div.appendChild(button(option.label, () => send(action)));
      }
    }
    return true;
  }

  // --- entry point from app.js ---------------------------------------------------------
  function board(container, snap) {
    const newPosition = positionKey(snap) !== view.posKey;
    if (view.snap && view.snap.id !== snap.id) view.board = null; // another game: ask again
    view.container = container;
    view.snap = snap;
    syncColours(snap);
    if (newPosition) {
      view.posKey = positionKey(snap);
      view.moves = null;
      view.selected = null;
      view.peek = null;
    }
    // Also ask again when an earlier answer was lost (network) or arrived for another position.
    if (newPosition || !view.board || (!view.moves && !view.fetching)) fetchMoves(snap);
    draw();
  }

  Oche.games.sparta = { board, choices };
})();
