// Dart Wars view: the troop magnets on the world map (a stack per colour and zone, with its
// count), each homeland's flag, the countries already discovered, the darts of this turn,
// the moves the player may make (touch a magnet, then a lit zone), the combat and start
// throws with their distances from the centre of the target, and a players' legend (magnets
// on the map / in the box / out of the game, homeland, master).
// Every rule stays on the server: moves are picked among the prompt's own options, the
// distances are the ones the engine measured and stored in the state.
"use strict";

(function () {
  const R = 10; // radius of a troop magnet disc, in board mm
  const GAP = 3; // room between two stacks in one zone
  const MOVE_COLOR = "#16a34a";
  const ATTACK_COLOR = "#dc2626";
  const HIT_COLOR = "#facc15";

  const view = {
    posKey: null, // which position the selection below belongs to
    selected: null, // zone of the magnet the player touched (move prompt)
    choice: null, // {from, to, options} when one tap leaves two moves (attack or pass)
    sending: false,
    svgs: new WeakSet(), // board drawings that already have our tap listener
  };

  const el = (name, attrs, parent) => Oche.svgEl(name, attrs, parent);
  const control = Oche.control;

  // --- small helpers --------------------------------------------------------------------
  function syncPosition(snap) {
    const key = Oche.positionKey(snap);
    if (key !== view.posKey) {
      view.posKey = key;
      view.selected = null;
      view.choice = null;
    }
  }
  function playerName(snap, p) {
    return p === null || p === undefined ? "nobody" : snap.players[p] || `Player ${p + 1}`;
  }
  function color(snap, p) {
    return Oche.playerColor(snap, p);
  }
  const zoneName = Oche.zoneName;
  const shade = Oche.shade;
  function ink(hex) {
    const [r, g, b] = Oche.rgb(hex);
    return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? "#111827" : "#ffffff";
  }
  function mm(value) {
    return value === null || value === undefined ? "off the target" : `${Number(value).toFixed(1)} mm`;
  }
  function html(tag, attrs = {}, text = null) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "class") node.className = v;
      else if (k === "style") node.style.cssText = v;
      else node.setAttribute(k, v);
    }
    if (text !== null) node.textContent = text;
    return node;
  }
  function chainOf(state, p) {
    // The masters above p, nearest first (the state stores each player's direct master).
    const chain = [];
    let at = state.master[p];
    while (at !== null && at !== undefined && !chain.includes(at) && chain.length < state.master.length) {
      chain.push(at);
      at = state.master[at];
    }
    return chain;
  }
  function topMaster(state, p) {
    const chain = chainOf(state, p);
    return chain.length ? chain[chain.length - 1] : p;
  }

  // --- reading the state -----------------------------------------------------------------
  function stacksByZone(state) {
    // zone -> [[owner, count], ...] in seating order
    const zones = new Map();
    for (const [owner, zone] of Object.values(state.magnets || {})) {
      if (!zones.has(zone)) zones.set(zone, new Map());
      const owners = zones.get(zone);
      owners.set(owner, (owners.get(owner) || 0) + 1);
    }
    const out = new Map();
    for (const [zone, owners] of zones) out.set(zone, [...owners.entries()].sort((a, b) => a[0] - b[0]));
    return out;
  }
  function moveOptions(snap) {
    if ((snap.prompt || {}).kind !== "move") return [];
    return (snap.prompt_options || []).filter((o) => o.action.type === "move");
  }
  function sources(moves) {
    return new Set(moves.map((o) => o.action.from));
  }
  function turnOf(snap) {
    const state = snap.state || {};
    return state.phase === "play" ? state.turn : null;
  }

  // --- drawing on the map -----------------------------------------------------------------
  function zoneShape(svg, zone) {
    return svg.querySelector(`#zones .zone[data-zone="${CSS.escape(zone)}"]`);
  }
  function copyZone(svg, zone, attrs, parent) {
    const shape = zoneShape(svg, zone);
    if (!shape) return null;
    return el("path", { d: shape.getAttribute("d"), "fill-rule": "evenodd", "data-zone": zone, ...attrs }, parent);
  }
  function center(zone) {
    const z = Oche.board && Oche.board.zones[zone];
    return z ? z.center : null;
  }

  function drawVisited(svg, layer, snap) {
    // A small card in the discoverer's colour, like the copies of the countries kept beside
    // the map; homelands (null: taken at the start) get their flag instead.
    const g = el("g", { class: "dw-visited" }, layer);
    for (const [zone, who] of Object.entries(snap.state.visited || {})) {
      if (who === null || who === undefined) continue;
      const c = center(zone);
      if (!c) continue;
      copyZone(svg, zone, { fill: color(snap, who), "fill-opacity": 0.13, stroke: "none" }, g);
      const card = el("g", { class: "visited", "data-zone": zone, "data-by": who }, g);
      const x = c[0] + R * 0.9;
      const y = c[1] + R * 0.6;
      el("rect", { x, y, width: 9, height: 7, rx: 1.5, fill: color(snap, who), stroke: "#fff", "stroke-width": 0.8, opacity: 0.85 }, card);
      el("path", { d: `M${x + 2},${y + 3.6} l2,2 l3.2,-4`, fill: "none", stroke: ink(color(snap, who)), "stroke-width": 1.1 }, card);
    }
  }

  function drawFreeHomelands(svg, layer, snap) {
    const prompt = snap.prompt || {};
    if (prompt.kind !== "throw_homeland") return;
    const g = el("g", { class: "dw-free-homelands" }, layer);
    for (const zone of (prompt.data || {}).free_homelands || []) {
      copyZone(svg, zone, { class: "free-homeland", fill: "none", stroke: "#334155", "stroke-width": 1.4, "stroke-dasharray": "4 3", "stroke-opacity": 0.55 }, g);
    }
  }

  function drawHits(svg, layer, snap) {
    const turn = turnOf(snap);
    if (!turn || !turn.hits || !turn.hits.length) return;
    const g = el("g", { class: "dw-hits" }, layer);
    const counts = new Map();
    turn.hits.forEach((zone, i) => {
      const c = counts.get(zone) || { unused: 0, used: 0 };
      if (turn.used[i]) c.used += 1;
      else c.unused += 1;
      counts.set(zone, c);
    });
    for (const [zone, c] of counts) {
      const live = c.unused > 0;
      copyZone(svg, zone, {
        class: live ? "hit" : "hit used",
        "data-unused": c.unused,
        fill: live ? HIT_COLOR : "#94a3b8",
        "fill-opacity": live ? 0.5 : 0.2,
        stroke: live ? "#b45309" : "#64748b",
        "stroke-width": 2.2,
        "stroke-dasharray": live ? "none" : "5 3",
      }, g);
    }
    // A badge per zone: how many of this turn's darts are still to spend there.
    for (const [zone, c] of counts) {
      const p = center(zone);
      if (!p || c.unused === 0) continue;
      const x = p[0] - R * 1.6;
      const y = p[1] + R + 2;
      const badge = el("g", { class: "hit-badge", "data-zone": zone }, g);
      el("rect", { x, y, width: 16, height: 9, rx: 4.5, fill: "#b45309", stroke: "#fff", "stroke-width": 0.8 }, badge);
      el("text", { x: x + 8, y: y + 7, "font-size": 7, "font-weight": "bold", fill: "#fff", "text-anchor": "middle" }, badge).textContent = `×${c.unused}`;
    }
  }

  function arrow(parent, from, to, stroke, dashed) {
    const [x1, y1] = from;
    const [x2, y2] = to;
    const len = Math.hypot(x2 - x1, y2 - y1);
    if (len < 1) return;
    const ux = (x2 - x1) / len;
    const uy = (y2 - y1) / len;
    const sx = x1 + ux * R * 1.2;
    const sy = y1 + uy * R * 1.2;
    const ex = x2 - ux * R * 1.3;
    const ey = y2 - uy * R * 1.3;
    el("line", { x1: sx, y1: sy, x2: ex, y2: ey, stroke: "#fff", "stroke-width": 5, "stroke-linecap": "round", opacity: 0.8 }, parent);
    el("line", { x1: sx, y1: sy, x2: ex, y2: ey, stroke, "stroke-width": 2.6, "stroke-linecap": "round", "stroke-dasharray": dashed ? "5 3" : "none" }, parent);
    const hx = -uy * 4.5;
    const hy = ux * 4.5;
    el("path", { d: `M${ex + ux * 7},${ey + uy * 7} L${ex + hx},${ey + hy} L${ex - hx},${ey - hy} Z`, fill: stroke, stroke: "#fff", "stroke-width": 0.8 }, parent);
  }

  function drawMoveChoices(svg, layer, snap) {
    const moves = moveOptions(snap);
    if (!moves.length || !control()) return;
    const g = el("g", { class: "dw-moves" }, layer);
    if (!view.selected) {
      for (const zone of sources(moves)) {
        const p = center(zone);
        if (!p) continue;
        el("circle", { class: "source", "data-zone": zone, cx: p[0], cy: p[1], r: R * 1.9, fill: "#fde047", "fill-opacity": 0.35, stroke: "#ca8a04", "stroke-width": 2.2, "stroke-dasharray": "5 2.5" }, g);
      }
      return;
    }
    const from = view.selected;
    const fromPoint = center(from);
    const mine = moves.filter((o) => o.action.from === from);
    const byDest = new Map();
    for (const o of mine) {
      if (!byDest.has(o.action.to)) byDest.set(o.action.to, []);
      byDest.get(o.action.to).push(o);
    }
    for (const [to, options] of byDest) {
      const attack = options.some((o) => o.action.attack);
      const chosen = view.choice && view.choice.to === to;
      copyZone(svg, to, {
        class: `dest ${attack ? "attack" : "move"}`,
        "data-options": options.length,
        fill: attack ? ATTACK_COLOR : MOVE_COLOR,
        "fill-opacity": chosen ? 0.55 : 0.35,
        stroke: attack ? "#7f1d1d" : "#14532d",
        "stroke-width": 2.5,
      }, g);
      const toPoint = center(to);
      if (fromPoint && toPoint && to !== from) arrow(g, fromPoint, toPoint, attack ? ATTACK_COLOR : MOVE_COLOR, false);
      if (to === from && toPoint) {
        el("circle", { cx: toPoint[0], cy: toPoint[1], r: R * 2.1, fill: "none", stroke: ATTACK_COLOR, "stroke-width": 2.5, "stroke-dasharray": "3 2" }, g);
      }
    }
    if (fromPoint) {
      el("circle", { class: "selected", "data-zone": from, cx: fromPoint[0], cy: fromPoint[1], r: R * 1.9, fill: "#fde047", "fill-opacity": 0.6, stroke: "#a16207", "stroke-width": 3 }, g);
    }
  }

  function drawCombatZone(layer, snap) {
    const turn = turnOf(snap);
    const combat = turn && turn.stage === "combat" ? turn.combat : null;
    const waiting = turn && turn.stage === "combat" ? turn.attacks || [] : [];
    const g = el("g", { class: "dw-combat" }, layer);
    const mark = (zone, cls, strong) => {
      const p = center(zone);
      if (!p) return;
      const m = el("g", { class: cls, "data-zone": zone }, g);
      el("circle", { cx: p[0], cy: p[1], r: R * 2.4, fill: "none", stroke: ATTACK_COLOR, "stroke-width": strong ? 3.5 : 1.8, "stroke-dasharray": strong ? "none" : "4 3" }, m);
      swords(m, p[0] + R * 2.1, p[1] - R * 2.1, strong ? 9 : 7);
    };
    for (const [, zone] of waiting) mark(zone, "attack-waiting", false);
    if (combat) mark(combat.zone, "combat-zone", true);
  }

  function swords(parent, x, y, size) {
    el("circle", { cx: x, cy: y, r: size * 0.75, fill: "#fff", stroke: ATTACK_COLOR, "stroke-width": 1.2 }, parent);
    const s = size * 0.45;
    el("path", { d: `M${x - s},${y - s} L${x + s},${y + s} M${x + s},${y - s} L${x - s},${y + s}`, stroke: "#7f1d1d", "stroke-width": size * 0.16, "stroke-linecap": "round" }, parent);
  }

  function drawFlag(parent, x, y, fill, owner) {
    const g = el("g", { class: "flag", "data-owner": owner }, parent);
    el("line", { x1: x, y1: y + 3, x2: x, y2: y - 20, stroke: "#1f2937", "stroke-width": 1.6, "stroke-linecap": "round" }, g);
    el("path", { d: `M${x},${y - 20} L${x + 14},${y - 16} L${x},${y - 11} Z`, fill, stroke: "#1f2937", "stroke-width": 0.9, "stroke-linejoin": "round" }, g);
    el("circle", { cx: x, cy: y + 3, r: 1.6, fill: "#1f2937" }, g);
    return g;
  }

  function drawStack(parent, x, y, owner, count, snap, zone, tappable) {
    const fill = color(snap, owner);
    const g = el("g", { class: "magnets", "data-zone": zone, "data-owner": owner, "data-count": count }, parent);
    // Magnets under the top one peek out, so a pile reads as a pile.
    for (let i = Math.min(count, 3) - 1; i > 0; i--) {
      el("circle", { cx: x + i * 1.6, cy: y + i * 1.6, r: R, fill: shade(fill, 0.6), stroke: "#fff", "stroke-width": 0.8 }, g);
    }
    el("circle", { cx: x, cy: y, r: R, fill, stroke: "#fff", "stroke-width": 1.6 }, g);
    el("circle", { cx: x, cy: y, r: R + 0.9, fill: "none", stroke: "#111827", "stroke-width": 0.7 }, g);
    el("text", { x, y: y + 4.6, "font-size": 13, "font-weight": "bold", fill: ink(fill), "text-anchor": "middle" }, g).textContent = String(count);
    el("title", {}, g).textContent = `${playerName(snap, owner)}: ${count} magnet${count === 1 ? "" : "s"} in ${zoneName(zone)}`;
    if (tappable) {
      // The overlay lets taps through to the zones below; a magnet to move must catch them
      // itself (small islands sit under their own magnets).
      const hit = el("circle", { class: "tap", "data-zone": zone, cx: x, cy: y, r: R * 1.4, fill: "transparent" }, g);
      hit.style.pointerEvents = "all";
      hit.style.cursor = "pointer";
    }
    return g;
  }

  function magnetZoom(svg) {
    // A magnet should stay at least ~6 screen pixels in radius (a phone shows the metre-wide
    // map at a third of a pixel per millimetre); never more than twice its size.
    const box = svg.viewBox && svg.viewBox.baseVal;
    const width = svg.getBoundingClientRect().width;
    if (!box || !box.width || !width) return 1;
    const pxPerMm = width / box.width;
    return Math.min(2, Math.max(1, 6 / (R * pxPerMm)));
  }

  function drawMagnets(layer, snap) {
    const state = snap.state;
    const g = el("g", { class: "dw-magnets" }, layer);
    const stacks = stacksByZone(state);
    const tappable = control() && (snap.prompt || {}).kind === "move" ? sources(moveOptions(snap)) : new Set();
    const homes = new Map();
    (state.homelands || []).forEach((zone, p) => { if (zone) homes.set(zone, p); });
    const zones = new Set([...stacks.keys(), ...homes.keys()]);
    const k = magnetZoom(layer.ownerSVGElement);
    for (const zone of zones) {
      const p = center(zone);
      if (!p) continue;
      // On a small screen each zone's magnets and flag grow around the zone's centre.
      const zg = k === 1 ? g : el("g", { transform: `translate(${p[0]},${p[1]}) scale(${k}) translate(${-p[0]},${-p[1]})` }, g);
      const owners = stacks.get(zone) || [];
      const width = owners.length * 2 * R + Math.max(0, owners.length - 1) * GAP;
      const x0 = p[0] - width / 2 + R;
      owners.forEach(([owner, count], i) => {
        drawStack(zg, x0 + i * (2 * R + GAP), p[1], owner, count, snap, zone, tappable.has(zone));
      });
      if (homes.has(zone)) {
        const owner = homes.get(zone);
        const fx = owners.length ? p[0] - width / 2 - 3 : p[0] - 4;
        const fy = p[1] - (owners.length ? R * 0.3 : -8);
        const flag = drawFlag(zg, fx, fy, color(snap, owner), owner);
        flag.setAttribute("data-zone", zone);
        const master = state.master[owner];
        if (master !== null && master !== undefined) {
          // A conquered homeland: its owner serves the player in the ring's colour.
          flag.setAttribute("data-master", master);
          el("circle", { class: "conquered", cx: fx, cy: fy - 28, r: 6.5, fill: "#fff", stroke: color(snap, master), "stroke-width": 2.2 }, flag);
          chainLinks(flag, fx - 5, fy - 33, 10 / 24, "#111827");
        }
        const whose = `${playerName(snap, owner)}'s homeland`;
        el("title", {}, flag).textContent = master === null || master === undefined
          ? whose
          : `${whose}, conquered: ${playerName(snap, owner)} serves ${playerName(snap, master)}`;
      }
    }
  }

  function throwsToShow(snap) {
    // [{player, distance, pending}] and a title: the combat being fought, the start throws,
    // or what the last action settled (a combat, the first player).
    const state = snap.state;
    const turn = turnOf(snap);
    const happened = (kind) => (state.events || []).find((e) => e.event === kind);
    if (state.phase === "order") {
      const order = state.order;
      const rows = order.contenders.map((p, i) => ({ player: p, distance: order.throws[i], thrown: i < order.throws.length }));
      const tie = happened("order_tie");
      const result = tie ? `A tie: ${order.contenders.map((p) => playerName(snap, p)).join(" and ")} throw again.` : null;
      return { title: "Who starts: the dart nearest the centre", rows, zone: null, result };
    }
    if (turn && turn.stage === "combat" && turn.combat && turn.combat.defender !== null) {
      const c = turn.combat;
      const fighters = c.throwers.length ? c.throwers : [turn.player, c.defender_player];
      const rows = fighters.map((p, i) => ({ player: p, distance: c.throws[i], thrown: i < c.throws.length, role: p === turn.player ? "attacker" : "defender" }));
      const again = happened("combat_again") ? "Both darts equally far, or both off the target: both throw again." : null;
      return { title: `Combat in ${zoneName(c.zone)}`, rows, zone: c.zone, combat: c, result: again };
    }
    const settled = [...(state.events || [])].reverse().find((e) => e.throws && (e.event === "combat" || e.event === "first_player" || e.event === "order_tie"));
    if (settled) {
      const rows = Object.entries(settled.throws).map(([p, d]) => ({ player: Number(p), distance: d, thrown: true }));
      if (settled.event === "combat") {
        for (const row of rows) row.role = row.player === settled.winner ? "winner" : "loser";
        return { title: `Combat in ${zoneName(settled.zone)}`, rows, zone: settled.zone, result: combatResult(snap, settled) };
      }
      return { title: "Who starts", rows, zone: null, result: settled.text };
    }
    return null;
  }

  function combatResult(snap, e) {
    const winner = playerName(snap, e.winner);
    const loser = playerName(snap, e.loser);
    const what = {
      turned: `${loser}'s magnet changes to ${winner}'s colour`,
      removed: `in a homeland nobody changes sides: ${loser}'s magnet is taken off the map`,
      removed_no_supply: `${loser}'s magnet is taken off (${winner} has no magnet left in the box)`,
    }[e.result];
    return `${winner} beats ${loser} in ${zoneName(e.zone)}${what ? `: ${what}` : ""}.`;
  }

  function drawTargetThrows(layer, snap, board) {
    const shown = throwsToShow(snap);
    if (!shown || !board.target) return;
    const [cx, cy] = board.target.center;
    const radius = board.target.radius_mm;
    const g = el("g", { class: "dw-throws" }, layer);
    const thrown = shown.rows.filter((row) => row.thrown);
    thrown.forEach((row, i) => {
      if (row.distance === null || row.distance === undefined) return;
      el("circle", {
        class: "distance-ring", "data-player": row.player, "data-mm": row.distance,
        cx, cy, r: Math.max(row.distance, 0.8), fill: "none",
        stroke: color(snap, row.player), "stroke-width": 2.4, "stroke-dasharray": i ? "5 2.5" : "none",
      }, g);
    });
    // The labels sit in a card under the target (open sea on the built-in map), so they
    // never hide South America, where a combat next to the target may be fought.
    const width = 150;
    const lineH = 14;
    const x = cx - width / 2;
    const top = cy + radius + 6;
    const height = 8 + lineH * (shown.rows.length + 1);
    el("rect", { class: "throw-card", x, y: top, width, height, rx: 4, fill: "#fff", "fill-opacity": 0.92, stroke: "#334155", "stroke-width": 0.8 }, g);
    el("text", { x: x + 6, y: top + 13, "font-size": 9.5, "font-weight": "bold", fill: "#111827" }, g).textContent = shown.title;
    shown.rows.forEach((row, i) => {
      const y = top + 13 + lineH * (i + 1);
      el("circle", { cx: x + 10, cy: y - 3.5, r: 4.5, fill: color(snap, row.player), stroke: "#111827", "stroke-width": 0.6 }, g);
      const what = row.thrown ? mm(row.distance) : "to throw";
      const star = row.role === "winner" ? " ✔" : "";
      el("text", { class: "throw-label", "data-player": row.player, x: x + 19, y, "font-size": 9.5, fill: "#111827" }, g).textContent = `${playerName(snap, row.player)}: ${what}${star}`;
    });
  }

  function setHint(snap) {
    const hint = document.getElementById("board-hint");
    if (!hint || !control()) return;
    const kind = (snap.prompt || {}).kind;
    if (kind === "move") hint.textContent = "Touch a magnet with a gold ring, then a lit zone: green moves, red attacks.";
    else if (kind === "throw_for_order" || kind === "combat_throw") hint.textContent = "Tap the red-and-white target where the dart stuck.";
    else if (kind === "throw_homeland") hint.textContent = "Tap the map where the dart stuck: a free homeland (dashed outline) becomes yours.";
    else if (kind === "choose_zone") hint.textContent = "Tap one of the lit zones, or pick it on the right.";
  }

  function ensureTapListener(svg) {
    if (!svg || view.svgs.has(svg)) return;
    view.svgs.add(svg);
    // Capture phase: runs before app.js's tap handler, which would take the tap for a dart.
    svg.addEventListener("click", onTap, true);
  }

  // --- entry point from app.js: the map overlay -------------------------------------------
  function overlay(layer, snap, board) {
    if (!snap.state || !snap.state.magnets) return;
    syncPosition(snap);
    const svg = layer.ownerSVGElement;
    ensureTapListener(svg);
    svg.dataset.position = view.posKey;
    svg.dataset.selected = view.selected || "";
    svg.dataset.prompt = (snap.prompt || {}).kind || "";
    drawVisited(svg, layer, snap);
    drawFreeHomelands(svg, layer, snap);
    drawHits(svg, layer, snap);
    drawMoveChoices(svg, layer, snap);
    drawCombatZone(layer, snap);
    drawMagnets(layer, snap);
    drawTargetThrows(layer, snap, board);
    setHint(snap);
    renderPanel(snap);
  }

  // --- touching the map during the moves ------------------------------------------------------
  function refresh() {
    if (Oche.snapshot) Oche.render(Oche.snapshot);
  }

  function send(action) {
    return Oche.sendAction(view, action, () => {
      view.selected = null;
      view.choice = null;
    });
  }

  function pick(options) {
    if (options.length === 1) { send(options[0].action); return; }
    const a = options[0].action;
    view.choice = { from: a.from, to: a.to, options };
    refresh();
  }

  function onTap(event) {
    const snap = Oche.snapshot;
    if (!snap || snap.game !== "dartwars") return;
    if (Oche.correcting !== null && Oche.correcting !== undefined) return; // a dart is being moved
    if ((snap.prompt || {}).kind !== "move") return; // darts and line choices: app.js
    event.stopPropagation();
    if (!control()) { Oche.flash("Enter the table's PIN to move magnets from this tablet.", true); return; }
    syncPosition(snap);
    const node = Oche.tapped(event, "[data-zone]");
    const zone = node ? node.dataset.zone : null;
    const moves = moveOptions(snap);
    if (!zone) return;
    if (view.selected) {
      const here = moves.filter((o) => o.action.from === view.selected && o.action.to === zone);
      if (here.length) { pick(here); return; }
      if (zone === view.selected) { view.selected = null; view.choice = null; refresh(); return; }
    }
    view.choice = null;
    if (sources(moves).has(zone)) {
      view.selected = zone;
    } else {
      const into = moves.filter((o) => o.action.to === zone);
      const from = new Set(into.map((o) => o.action.from));
      if (from.size === 1) {
        // Only one zone's magnets can go there: take that one and offer the move.
        view.selected = [...from][0];
        if (into.length === 1) { send(into[0].action); return; }
        pick(into);
        return;
      }
      view.selected = null;
      Oche.flash(into.length
        ? `Magnets from ${[...from].map(zoneName).join(", ")} can go to ${zoneName(zone)}: touch one of them first.`
        : `No move leads to ${zoneName(zone)} now. Magnets that can move have a gold ring.`);
    }
    refresh();
  }

  // --- the prompt's buttons ---------------------------------------------------------------------
  function button(label, onClick, opts = {}) {
    const b = document.createElement("button");
    b.textContent = label;
    if (opts.cls) b.className = opts.cls;
    if (opts.secondary) { b.style.background = "#fff"; b.style.color = "#1f2328"; b.style.borderColor = "#888"; }
    if (opts.color) {
      b.style.background = opts.color;
      b.style.borderColor = shade(opts.color, 0.7);
      b.style.color = ink(opts.color);
    }
    for (const [k, v] of Object.entries(opts.data || {})) b.dataset[k] = v;
    b.addEventListener("click", onClick);
    return b;
  }
  function actionButton(label, action, opts = {}) {
    return button(label, () => send(action), { ...opts, data: { type: action.type, ...(opts.data || {}) } });
  }
  function note(div, text) {
    const p = html("p", { class: "hint dw-hint" }, text);
    p.style.flexBasis = "100%";
    p.style.margin = "0";
    div.appendChild(p);
    return p;
  }

  const BOUNCE_LABELS = {
    magnet: "Fell off a magnet (throw again)",
    dart: "Fell off: hit another dart",
    other: "Fell off (other cause)",
  };

  function throwLabel(action) {
    if (action.type === "miss") return "Missed the board";
    if (action.type === "bounceout") return BOUNCE_LABELS[action.cause] || "Bounce-out";
    if (action.type === "stop") return "Stop throwing";
    return action.type;
  }

  function moveLabel(action) {
    if (action.from === action.to) return `Attack in ${zoneName(action.to)} (already there)`;
    const path = `${zoneName(action.from)} → ${zoneName(action.to)}`;
    if (action.attack === true) return `Attack: ${path}`;
    if (action.attack === false) return `Pass through: ${path} (no attack)`;
    return path;
  }

  function fellButtons(div, snap) {
    const prompt = snap.prompt;
    const turn = turnOf(snap);
    if (!turn || !(prompt.accepts || []).includes("dart_fell") || !turn.hits.length) return;
    if (turn.used.some(Boolean)) return; // the server refuses it once a move is made
    turn.hits.forEach((zone, i) => {
      const b = button(`Dart in ${zoneName(zone)} fell out`, () => send({ type: "dart_fell", player: prompt.player, dart: i }), { secondary: true, cls: "dw-fell", data: { type: "dart_fell" } });
      b.style.cssText += "min-height:2.4rem;min-width:0;font-size:.9rem;padding:.2rem .6rem;";
      div.appendChild(b);
    });
  }

  function moveChoices(div, snap) {
    const moves = moveOptions(snap);
    const end = snap.prompt_options.find((o) => o.action.type === "end_moves");
    const owed = (snap.prompt.data || {}).owed_attacks || [];
    if (view.choice) {
      note(div, `Into ${zoneName(view.choice.to)}: attack there, or go through without fighting?`);
      for (const o of view.choice.options) {
        div.appendChild(actionButton(moveLabel(o.action), o.action, { color: o.action.attack ? ATTACK_COLOR : MOVE_COLOR, cls: "dw-move" }));
      }
      div.appendChild(button("Cancel", () => { view.choice = null; refresh(); }, { secondary: true }));
      return;
    }
    if (view.selected) {
      note(div, `From ${zoneName(view.selected)}: touch a lit zone on the map, or pick here.`);
      for (const o of moves.filter((m) => m.action.from === view.selected)) {
        div.appendChild(actionButton(moveLabel(o.action), o.action, { color: o.action.attack ? ATTACK_COLOR : MOVE_COLOR, cls: "dw-move" }));
      }
      div.appendChild(button("Another magnet", () => { view.selected = null; refresh(); }, { secondary: true }));
    } else {
      note(div, owed.length
        ? `A dart in enemy-held ${owed.map(zoneName).join(", ")} must be used to attack.`
        : "Touch a magnet with a gold ring, then a lit zone (or pick a move here).");
      for (const o of moves) {
        div.appendChild(actionButton(moveLabel(o.action), o.action, { secondary: !o.action.attack, color: o.action.attack ? ATTACK_COLOR : null, cls: "dw-move" }));
      }
    }
    if (end) div.appendChild(actionButton("End the moves", end.action, { cls: "dw-end" }));
    fellButtons(div, snap);
  }

  function choices(div, snap) {
    if (!snap.state || !snap.prompt) return false;
    syncPosition(snap);
    const prompt = snap.prompt;
    const options = snap.prompt_options || [];
    const state = snap.state;
    switch (prompt.kind) {
      case "move":
        moveChoices(div, snap);
        return true;
      case "throw_for_order":
      case "throw_homeland":
      case "dart":
      case "combat_throw": {
        const target = prompt.kind === "throw_for_order" || prompt.kind === "combat_throw";
        note(div, target ? "Tap the target on the map where the dart stuck, or:" : "Tap the map where the dart stuck, or:");
        for (const o of options) {
          const primary = o.action.type === "stop";
          div.appendChild(actionButton(throwLabel(o.action), o.action, { secondary: !primary, cls: primary ? "dw-stop" : "dw-throw-button" }));
        }
        fellButtons(div, snap);
        return true;
      }
      case "choose_zone":
        note(div, "The dart sits on a line: which zone does it count for?");
        for (const o of options) div.appendChild(actionButton(zoneName(o.action.zone), o.action, { cls: "dw-zone", data: { zone: o.action.zone } }));
        return true;
      case "bounce_cause":
        note(div, "Why did the dart fall?");
        for (const o of options) div.appendChild(actionButton(BOUNCE_LABELS[o.action.cause] || o.action.cause, o.action));
        return true;
      case "order_attacks": {
        note(div, "Each attacking magnet fights its own combat, one after another.");
        const attacks = (prompt.data || {}).attacks || [];
        const seen = {};
        for (const o of options) {
          const zone = (attacks[o.action.attack] || [])[1];
          seen[zone] = (seen[zone] || 0) + 1;
          const several = attacks.filter((a) => a[1] === zone).length > 1;
          const label = `Fight in ${zoneName(zone)}${several ? ` (attack ${seen[zone]})` : ""}`;
          div.appendChild(actionButton(label, o.action, { color: color(snap, prompt.player), data: { zone } }));
        }
        return true;
      }
      case "choose_target":
        note(div, "Several camps stand there: which one do you fight?");
        for (const o of options) {
          const head = o.action.camp;
          const members = state.players.map((_, p) => p).filter((p) => topMaster(state, p) === head);
          div.appendChild(actionButton(`Fight ${playerName(snap, head)}'s camp (${members.map((p) => playerName(snap, p)).join(", ")})`, o.action, { color: color(snap, head) }));
        }
        return true;
      case "choose_defender":
        note(div, "Your camp shares the zone: who defends it?");
        for (const o of options) {
          div.appendChild(actionButton(`${playerName(snap, o.action.defender)} defends`, o.action, { color: color(snap, o.action.defender) }));
        }
        return true;
      case "who_throws_first": {
        const combat = (prompt.data || {}).combat || {};
        note(div, `Combat in ${zoneName(combat.zone)}: who throws first at the target?`);
        for (const o of options) {
          const p = o.action.thrower;
          const role = p === prompt.player ? "attacker" : "defender";
          div.appendChild(actionButton(`${playerName(snap, p)} (${role}) throws first`, o.action, { color: color(snap, p), data: { thrower: p } }));
        }
        return true;
      }
      default:
        return false;
    }
  }

  // --- the panel: combat, start throws and the players' legend ------------------------------
  function panelRoot() {
    let root = document.getElementById("dartwars-panel");
    if (!root) {
      const after = document.getElementById("choices");
      if (!after) return null;
      root = html("div", { id: "dartwars-panel", class: "dartwars-panel" });
      root.style.cssText = "margin:.6rem 0;display:flex;flex-direction:column;gap:.5rem;";
      after.parentNode.insertBefore(root, after.nextSibling);
    }
    return root;
  }

  function chainIcon(stroke, size = 16) {
    // Two links of a chain (the emoji is missing from many tablet fonts).
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("width", size);
    svg.setAttribute("height", size);
    svg.setAttribute("class", "chain");
    svg.setAttribute("aria-hidden", "true");
    svg.style.verticalAlign = "-3px";
    chainLinks(svg, 0, 0, 1, stroke);
    return svg;
  }

  function chainLinks(parent, x, y, scale, stroke) {
    // Two interlocked links in a 24 x 24 box at (x, y).
    const g = el("g", { transform: `translate(${x},${y}) scale(${scale})`, fill: "none", stroke, "stroke-width": 2.6 }, parent);
    el("rect", { x: 2, y: 7, width: 12, height: 8, rx: 4, transform: "rotate(-35 8 11)" }, g);
    el("rect", { x: 10, y: 9, width: 12, height: 8, rx: 4, transform: "rotate(-35 16 13)" }, g);
    return g;
  }

  function dot(fill, ring) {
    const s = html("span", { class: "swatch" });
    s.style.background = fill;
    if (ring) { s.style.border = `3px solid ${ring}`; s.style.boxShadow = "0 0 0 1px #0006"; }
    return s;
  }

  function renderThrowBox(root, snap) {
    const shown = throwsToShow(snap);
    if (!shown) return;
    const box = html("div", { class: `dw-throwbox${shown.combat || shown.result ? " combat" : ""}` });
    box.style.cssText = "border:2px solid #dc2626;border-radius:.5rem;padding:.4rem .6rem;background:#fff7f7;";
    if (!shown.zone) box.style.borderColor = "#334155";
    box.appendChild(html("strong", {}, shown.zone ? `⚔ ${shown.title}` : shown.title));
    const list = html("ul");
    list.style.cssText = "list-style:none;margin:.3rem 0 0;padding:0;";
    for (const row of shown.rows) {
      const li = html("li", { class: "dw-throw", "data-player": row.player, "data-mm": row.thrown ? String(row.distance) : "" });
      li.style.cssText = "display:flex;align-items:center;gap:.4rem;margin:.15rem 0;";
      li.appendChild(dot(color(snap, row.player)));
      const role = row.role ? ` (${row.role})` : "";
      li.appendChild(document.createTextNode(`${playerName(snap, row.player)}${role}: ${row.thrown ? mm(row.distance) : "to throw"}`));
      list.appendChild(li);
    }
    box.appendChild(list);
    if (shown.result) box.appendChild(html("div", { class: "dw-result" }, shown.result));
    root.appendChild(box);
  }

  function renderAttacks(root, snap) {
    const turn = turnOf(snap);
    if (!turn || turn.stage !== "combat" || !(turn.attacks || []).length) return;
    const zones = turn.attacks.map((a) => zoneName(a[1]));
    root.appendChild(html("div", { class: "dw-waiting hint" }, `Attacks still to fight: ${zones.join(", ")}`));
  }

  function renderLegend(root, snap) {
    const state = snap.state;
    const onMap = state.players.map(() => 0);
    for (const [owner] of Object.values(state.magnets || {})) onMap[owner] += 1;
    const turn = turnOf(snap);
    const box = html("div", { class: "dw-legend" });
    box.style.cssText = "border:1px solid #d6d0c4;border-radius:.5rem;padding:.35rem .6rem;font-size:.95rem;";
    const head = html("div", {}, "Players: magnets on the map / in the box / out");
    head.style.cssText = "color:#5b636b;font-size:.85rem;";
    box.appendChild(head);
    const order = state.play_order && state.play_order.length === state.players.length ? state.play_order : state.players.map((_, p) => p);
    for (const p of order) {
      const master = state.master[p];
      const row = html("div", {
        class: "dw-player",
        "data-player": p,
        "data-onboard": onMap[p],
        "data-supply": state.supply[p],
        "data-removed": state.removed[p],
        "data-homeland": state.homelands[p] || "",
        "data-master": master === null || master === undefined ? "" : master,
      });
      row.style.cssText = "display:flex;flex-wrap:wrap;align-items:center;gap:.25rem .5rem;padding:.2rem 0;border-top:1px solid #eee;";
      const ring = master === null || master === undefined ? null : color(snap, master);
      row.appendChild(dot(color(snap, p), ring));
      const nameEl = html("strong", {}, `${turn && turn.player === p ? "▶ " : ""}${playerName(snap, p)}`);
      row.appendChild(nameEl);
      row.appendChild(html("span", { class: "dw-counts", title: "on the map / in the box / out of the game" }, `${onMap[p]} / ${state.supply[p]} / ${state.removed[p]}`));
      const home = state.homelands[p];
      row.appendChild(html("span", { class: "dw-home" }, home ? `⚑ ${zoneName(home)}` : "⚑ no homeland yet"));
      if (ring) {
        const chain = chainOf(state, p);
        const slave = html("span", { class: "dw-slave" });
        slave.append(chainIcon(shade(ring, 0.8)), ` slave of ${chain.map((m) => playerName(snap, m)).join(" → ")}`);
        slave.style.cssText = `color:${shade(ring, 0.8)};font-weight:bold;`;
        row.appendChild(slave);
      }
      const slaves = state.master.map((m, q) => (m === p ? q : null)).filter((q) => q !== null);
      if (slaves.length) row.appendChild(html("span", { class: "dw-master" }, `♛ master of ${slaves.map((q) => playerName(snap, q)).join(", ")}`));
      box.appendChild(row);
    }
    root.appendChild(box);
  }

  function renderPanel(snap) {
    const root = panelRoot();
    if (!root) return;
    root.innerHTML = "";
    renderThrowBox(root, snap);
    renderAttacks(root, snap);
    renderLegend(root, snap);
  }

  // Turning the tablet changes the map's scale, and with it the size of the magnets.
  let resizeTimer = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      if (Oche.snapshot && Oche.snapshot.game === "dartwars" && !view.sending) refresh();
    }, 200);
  });

  // Another game on this page: our panel goes.
  document.addEventListener("oche:update", (event) => {
    const snap = (event.detail || {}).snapshot;
    if (snap && snap.game !== "dartwars") {
      const root = document.getElementById("dartwars-panel");
      if (root) root.remove();
    }
  });

  Oche.games.dartwars = { overlay, choices };
})();
