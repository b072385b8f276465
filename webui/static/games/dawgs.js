// Dawgs of War views: the shared table map (side view, ground at the bottom) with every
// plane, its cone of fire and its condition track; the dice and target prompts as buttons;
// the players' private links; and each player's own phone page (hand and card pairs).
// The server holds every rule: hexes, cones, VULN and legal card pairs all come from the
// engine's view (`state.display`); this file only draws them and posts complete actions.
"use strict";

(function () {
  const S = 40; // one hex, flat side to flat side, in SVG units
  const R = S / Math.sqrt(3); // centre to corner
  const ROW = S * Math.sqrt(3) / 2; // distance between two rows
  const LEFT = 32; // room for the altitude numbers
  const TOP = 8;
  const THIN_AIR_ROWS = 3; // the top rows slow planes down (rules/dawgs/data.py)
  const PHASES = {
    setup: "Setup",
    place: "1 · Place cards",
    move: "2 · Reveal and move",
    fire: "3 · Fire",
    breakup: "5 · Breakup",
    over: "Game over",
  };
  const CARD_LABELS = {
    clockwise: "↻ Clockwise",
    counter_clockwise: "↺ Counter-clockwise",
    no_change: "No change",
  };
  const SHORT_LABELS = { clockwise: "↻", counter_clockwise: "↺", no_change: "–" };

  const el = (name, attrs, parent) => Oche.svgEl(name, attrs, parent);
  const color = (snap, i) => Oche.playerColor(snap, i);
  const name = (snap, i) => snap.players[i] || `Player ${i + 1}`;

  // Titles of the special cards (public: the cards of the box), fetched once.
  let specials = null;
  let specialsLoading = null;
  function loadSpecials() {
    if (!specialsLoading) {
      specialsLoading = fetch("/api/dawgs/cards")
        .then((r) => r.json())
        .then((data) => { specials = data; })
        .catch(() => { specials = {}; });
    }
    return specialsLoading;
  }
  function cardLabel(card, short = false) {
    if (/^[0-9]+$/.test(card)) return card;
    if (short && SHORT_LABELS[card]) return SHORT_LABELS[card];
    if (CARD_LABELS[card]) return CARD_LABELS[card];
    if (card === "hidden") return "special ?";
    if (specials && specials[card]) return specials[card].title;
    return String(card).replace(/_/g, " ");
  }

  function injectStyle() {
    if (document.getElementById("dawgs-style")) return;
    const style = document.createElement("style");
    style.id = "dawgs-style";
    style.textContent = `
      .dawgs-head { display: flex; flex-wrap: wrap; gap: .3rem 1rem; align-items: baseline; margin: .2rem .3rem .4rem; }
      .dawgs-head .round { font-weight: bold; font-size: 1.15rem; }
      .dawgs-waiting { background: #fff7d6; border: 1px solid #e7c65a; border-radius: .5rem; padding: .35rem .6rem; margin: .3rem; }
      .chip { display: inline-flex; align-items: center; gap: .3rem; border-radius: 1rem; padding: .1rem .55rem; margin: .1rem .15rem;
        background: #eef0f2; border: 1px solid #cfd4da; font-size: .92rem; white-space: nowrap; }
      .chip.done { background: #dcfce7; border-color: #86c79c; }
      .chip.waiting { background: #fff; border-style: dashed; }
      .chip .dot { width: .8rem; height: .8rem; border-radius: 50%; display: inline-block; border: 1px solid #0004; }
      .card-chip { display: inline-block; white-space: nowrap; min-width: 2rem; text-align: center; padding: .15rem .45rem; margin: .1rem;
        border: 2px solid #1f2328; border-radius: .35rem; background: #fffdf5; font-weight: bold; font-size: .9rem; }
      .card-chip.special { background: #ede9fe; border-color: #6d28d9; }
      .card-chip.facedown { background: repeating-linear-gradient(45deg, #94a3b8, #94a3b8 4px, #cbd5e1 4px, #cbd5e1 8px); color: #1f2328; }
      .card-chip.stale { opacity: .5; }
      .dawgs-legend .where, .dawgs-legend .no-damage { display: block; color: #5b636b; font-size: .8rem; }
      .dawgs-legend td.cards { line-height: 1.9; }
      .phone .dawgs-legend .card-chip, .phone .dawgs-legend .chip { font-size: .78rem; padding: .05rem .3rem; }
      table.dawgs-legend { width: 100%; border-collapse: collapse; font-size: .95rem; margin-top: .4rem; }
      table.dawgs-legend th, table.dawgs-legend td { padding: .25rem .3rem; border-bottom: 1px solid #e5e1d8; text-align: left; vertical-align: middle; }
      table.dawgs-legend th { font-size: .8rem; color: #5b636b; font-weight: normal; }
      tr.out td { color: #8a8f95; }
      tr.me td { background: #fff7d6; }
      .track { display: inline-flex; gap: 2px; }
      .track span { position: relative; display: inline-block; width: 1.9rem; height: 1.9rem; border: 1px solid #9aa3ad; border-radius: .25rem;
        text-align: center; line-height: 1.05; font-size: .62rem; background: #fff; padding-top: .12rem; }
      .track span b { display: block; font-size: .95rem; }
      .track span.speed { outline: 3px solid var(--pc); outline-offset: -3px; background: #f3f4f6; }
      .track span.danger { background: #fde2e1; }
      .track span .dmg { position: absolute; right: -3px; top: -5px; width: .85rem; height: .85rem; border-radius: 50%;
        background: #b91c1c; border: 1px solid #fff; }
      .dawgs-events { margin: .4rem .3rem; padding-left: 1.2rem; font-size: .9rem; color: #333; }
      .dawgs-links { margin-top: .6rem; width: 100%; }
      .dawgs-links summary { cursor: pointer; font-weight: bold; min-height: 2rem; }
      .dawgs-links li { margin: .3rem 0; word-break: break-all; }
      .dawgs-links li button { min-height: 2.4rem; min-width: 0; font-size: .95rem; margin-left: .4rem; background: #fff; color: #1f2328; border-color: #888; }
      .dawgs-links .link { margin: .2rem 0 .4rem 1.6rem; }
      .dawgs-links code { font-size: 1.05rem; background: #eef0f2; padding: .05rem .3rem; border-radius: .25rem; }
      .choices .dice { display: flex; flex-wrap: wrap; gap: .4rem; width: 100%; }
      .choices .dice button.die { min-width: 3.5rem; font-size: 1.4rem; background: #fff; color: #1f2328; border-color: #1f2328; }
      .roll-info { width: 100%; margin: .1rem 0 .3rem; }
      .phone { max-width: 40rem; margin: 0 auto; padding: .5rem; }
      .phone .status { font-size: 1.1rem; margin: .3rem 0; }
      .phone h2 { font-size: 1.2rem; margin: .6rem 0 .3rem; }
      .phone .pairs { display: grid; grid-template-columns: 1fr 1fr; gap: .5rem; }
      .phone .pairs button { min-height: 4.2rem; font-size: 1.15rem; background: #fff; color: #1f2328; border: 2px solid #1f2328; }
      .phone .pairs button.selected { background: #fde68a; border-color: #b45309; border-width: 3px; }
      .phone .pairs button .num { font-size: 1.6rem; font-weight: bold; margin-right: .35rem; }
      .phone .confirm { display: flex; gap: .5rem; margin: .6rem 0; }
      .phone .confirm button { flex: 1; min-height: 3.6rem; font-size: 1.15rem; }
      .phone .actions { display: flex; flex-wrap: wrap; gap: .5rem; }
      .phone .actions button { min-height: 3.6rem; min-width: 4rem; font-size: 1.15rem; }
      .phone .secret { background: #1f2328; color: #fff; border-radius: .6rem; padding: .7rem; margin: .5rem 0; font-size: 1.1rem; }
      .phone .board-pane { margin-top: .6rem; }
      .player-name { font-weight: bold; font-size: 1.15rem; }
    `;
    document.head.appendChild(style);
  }

  // --- geometry ------------------------------------------------------------------------
  function centre(h, map) {
    return [LEFT + S / 2 + (h[0] * S) / 2, TOP + R + (map.rows - 1 - h[1]) * ROW];
  }
  function hexPoints(cx, cy, r = R) {
    const pts = [];
    for (let k = 0; k < 6; k++) {
      const a = ((30 + 60 * k) * Math.PI) / 180;
      pts.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy - r * Math.sin(a)).toFixed(1)}`);
    }
    return pts.join(" ");
  }
  function fromColumn(column, row) { return [2 * column + (row & 1), row]; }

  // --- the map -------------------------------------------------------------------------
  function drawMap(snap, options = {}) {
    const state = snap.state;
    const map = state.map;
    const width = LEFT + (map.columns + 0.5) * S + 6;
    const height = TOP + 2 * R + map.rows * ROW + 4;
    const svg = el("svg", {
      class: "dawgs-map",
      viewBox: `0 0 ${width.toFixed(0)} ${height.toFixed(0)}`,
      role: "img",
      "aria-label": "The side-view map: the ground at the bottom, altitude upwards",
      "data-round": state.round,
      "data-phase": state.phase,
      // Names the position drawn (the last logged action), so a test can wait for it.
      "data-seq": snap.log && snap.log.length ? snap.log[snap.log.length - 1].seq : "",
    });
    const grid = el("g", { class: "hexes" }, svg);
    for (let row = -1; row < map.rows; row++) {
      const ground = row < 0;
      const thin = row >= map.rows - THIN_AIR_ROWS;
      for (let c = 0; c < map.columns; c++) {
        const [cx, cy] = centre(fromColumn(c, row), map);
        el("polygon", {
          class: ground ? "ground" : thin ? "hex thin" : "hex",
          points: hexPoints(cx, cy),
          fill: ground ? "#7c9a4a" : thin ? "#ece8f7" : "#e6f0fa",
          stroke: ground ? "#5d7736" : "#bfd0e3",
          "stroke-width": 1,
        }, grid);
      }
      if (!ground) {
        const [, cy] = centre([0, row], map);
        const label = el("text", { x: LEFT - 5, y: cy + 5, "text-anchor": "end", "font-size": 15, fill: "#5b636b" }, svg);
        label.textContent = String(row + 1);
      }
    }
    const [, groundY] = centre([0, -1], map);
    const g = el("text", {
      x: LEFT + ((map.columns + 0.5) * S) / 2, y: groundY + 5, "text-anchor": "middle",
      "font-size": 15, fill: "#fff", "font-weight": "bold", "letter-spacing": 2,
    }, svg);
    g.textContent = "GROUND";
    const [, topY] = centre([0, map.rows - 1], map);
    const thinLabel = el("text", { x: width - 8, y: topY + 5, "text-anchor": "end", "font-size": 15, fill: "#6d5fa6" }, svg);
    thinLabel.textContent = "thin air";
    const alt = el("text", { x: 4, y: TOP + 10, "font-size": 10, fill: "#5b636b" }, svg);
    alt.textContent = "alt";

    const planes = state.display.planes;
    const cones = el("g", { class: "cones" }, svg);
    // While a pilot picks a target or rolls to hit, that pilot's cone stands out.
    const aiming = ["choose_target", "roll"].includes(snap.prompt.kind) &&
      ["choose_target", "fire_roll"].includes((snap.prompt.data || {}).purpose || snap.prompt.kind)
      ? snap.prompt.player : null;
    planes.forEach((shown, i) => {
      if (!shown) return;
      const mine = aiming === null ? options.highlight === i : aiming === i;
      const g2 = el("g", { class: mine ? "cone focus" : "cone", "data-player": i }, cones);
      if (aiming !== null && !mine) g2.setAttribute("opacity", 0.45);
      for (const h of shown.cone) {
        const [cx, cy] = centre(h, map);
        el("polygon", {
          points: hexPoints(cx, cy, R * 0.92),
          fill: color(snap, i),
          "fill-opacity": mine ? 0.3 : 0.16,
          stroke: color(snap, i),
          "stroke-opacity": 0.7,
          "stroke-width": mine ? 2 : 1.2,
          "stroke-dasharray": "4 3",
        }, g2);
      }
    });
    const layer = el("g", { class: "planes" }, svg);
    planes.forEach((shown, i) => { if (shown) drawPlane(layer, snap, i, shown, options.highlight === i); });
    drawShot(svg, snap);
    return svg;
  }

  // While a shot waits for its die: a line from the shooter's nose to the target.
  function drawShot(svg, snap) {
    const data = snap.prompt.data || {};
    const planes = snap.state.display.planes;
    if (data.purpose !== "fire_roll" || snap.prompt.player === null) return;
    const shooter = planes[snap.prompt.player];
    const target = planes[data.target];
    if (!shooter || !target) return;
    const map = snap.state.map;
    const [x1, y1] = centre(shooter.body[0], map);
    const a = centre(target.body[0], map);
    const b = centre(target.body[1], map);
    const [x2, y2] = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
    const g = el("g", { class: "shot", "data-shooter": snap.prompt.player, "data-target": data.target }, svg);
    el("line", { x1, y1, x2, y2, stroke: "#b91c1c", "stroke-width": 4, "stroke-dasharray": "10 6", "stroke-linecap": "round" }, g);
    el("circle", { cx: x2, cy: y2, r: R * 0.9, fill: "none", stroke: "#b91c1c", "stroke-width": 3 }, g);
    const label = el("text", {
      x: (x1 + x2) / 2, y: (y1 + y2) / 2 - 8, "text-anchor": "middle", "font-size": 14, "font-weight": "bold",
      fill: "#b91c1c", stroke: "#fff", "stroke-width": 3, "paint-order": "stroke",
    }, g);
    label.textContent = `needs ${data.needed}${data.bonus ? `, die +${data.bonus}` : ""}`;
  }

  function drawPlane(parent, snap, i, shown, mine) {
    const map = snap.state.map;
    const plane = snap.state.planes[i];
    const col = color(snap, i);
    const g = el("g", {
      class: mine ? "plane mine" : "plane",
      "data-player": i,
      "data-front": shown.body[0].join(","),
      "data-heading": plane.heading,
      "data-altitude": shown.altitude,
      "data-speed": plane.speed,
    }, parent);
    // The counter covers two hexes: nose (front) and tail.
    shown.body.forEach((h, k) => {
      const [cx, cy] = centre(h, map);
      el("polygon", {
        class: k === 0 ? "nose-hex" : "tail-hex",
        points: hexPoints(cx, cy, R * 0.96),
        fill: col,
        "fill-opacity": k === 0 ? 0.5 : 0.32,
        stroke: mine ? "#111" : col,
        "stroke-width": mine ? 3.5 : 2,
      }, g);
    });
    const [fx, fy] = centre(shown.body[0], map);
    const [bx, by] = centre(shown.body[1], map);
    const mx = (fx + bx) / 2;
    const my = (fy + by) / 2;
    const angle = -30 * plane.heading; // SVG turns clockwise, headings count counter-clockwise
    const glyph = el("g", { class: "glyph", transform: `translate(${mx.toFixed(1)},${my.toFixed(1)}) rotate(${angle})` }, g);
    // A plane seen from above, nose to the right: fuselage, wings, tailplane.
    const L = S * 0.85;
    el("path", {
      d: `M ${L} 0 L ${L * 0.55} ${-S * 0.1} L ${-L * 0.8} ${-S * 0.07} L ${-L * 0.8} ${S * 0.07} L ${L * 0.55} ${S * 0.1} Z`,
      fill: col, stroke: "#111", "stroke-width": 1.5,
    }, glyph);
    el("path", {
      d: `M ${L * 0.28} ${-S * 0.08} L ${-L * 0.05} ${-S * 0.5} L ${-L * 0.22} ${-S * 0.5} L ${-L * 0.12} ${-S * 0.08} Z
          M ${L * 0.28} ${S * 0.08} L ${-L * 0.05} ${S * 0.5} L ${-L * 0.22} ${S * 0.5} L ${-L * 0.12} ${S * 0.08} Z`,
      fill: col, stroke: "#111", "stroke-width": 1.3,
    }, glyph);
    el("path", {
      d: `M ${-L * 0.6} 0 L ${-L * 0.85} ${-S * 0.22} L ${-L * 0.95} ${-S * 0.22} L ${-L * 0.85} 0 L ${-L * 0.95} ${S * 0.22} L ${-L * 0.85} ${S * 0.22} Z`,
      fill: col, stroke: "#111", "stroke-width": 1.2,
    }, glyph);
    el("circle", { class: "nose", cx: L * 0.93, cy: 0, r: S * 0.07, fill: "#111" }, glyph);
    const label = el("text", {
      x: fx, y: Math.min(fy, by) - R - 3, "text-anchor": "middle", "font-size": 15, "font-weight": "bold",
      fill: "#111", stroke: "#fff", "stroke-width": 3, "paint-order": "stroke",
    }, g);
    label.textContent = mine ? `${name(snap, i)} (you)` : name(snap, i);
    el("title", {}, g).textContent =
      `${name(snap, i)}: altitude ${shown.altitude}, speed ${plane.speed}, VULN ${shown.vuln}, heading ${plane.heading * 30}°`;
  }

  // --- the panel under the map ---------------------------------------------------------
  function header(snap) {
    const state = snap.state;
    const head = document.createElement("div");
    head.className = "dawgs-head";
    const round = document.createElement("span");
    round.className = "round";
    round.textContent = `Round ${state.round}`;
    const phase = document.createElement("span");
    phase.className = "phase";
    phase.textContent = PHASES[state.phase] || state.phase;
    head.append(round, phase);
    return head;
  }

  function waitingBox(snap) {
    // Names only: who has chosen (face down) and who is still choosing.
    if (snap.prompt.kind !== "choose_cards") return null;
    const waiting = (snap.prompt.data && snap.prompt.data.waiting_for) || [];
    const box = document.createElement("div");
    box.className = "dawgs-waiting";
    box.dataset.waiting = waiting.join(",");
    box.append(document.createTextNode("Secret cards: "));
    snap.state.planes.forEach((plane, i) => {
      if (plane.status !== "flying") return;
      const chip = document.createElement("span");
      const done = !waiting.includes(i);
      chip.className = done ? "chip done" : "chip waiting";
      chip.dataset.player = i;
      const dot = document.createElement("span");
      dot.className = "dot";
      dot.style.background = color(snap, i);
      chip.append(dot, document.createTextNode(done ? `${name(snap, i)} ✓` : `${name(snap, i)} choosing…`));
      box.appendChild(chip);
    });
    return box;
  }

  function cardChip(card, extra = "", short = false) {
    const chip = document.createElement("span");
    const special = !/^[0-9]+$/.test(card) && !CARD_LABELS[card] && card !== "hidden";
    chip.className = `card-chip${special ? " special" : ""}${card === "hidden" ? " facedown" : ""} ${extra}`.trim();
    chip.dataset.card = card;
    chip.textContent = cardLabel(card, short);
    if (short) chip.title = cardLabel(card);
    return chip;
  }

  function trackCell(snap, i, plane) {
    const track = document.createElement("span");
    track.className = "track";
    track.style.setProperty("--pc", color(snap, i));
    const vuln = snap.state.display.vuln_track;
    vuln.forEach((v, speed) => {
      const cell = document.createElement("span");
      const classes = [];
      if (plane.speed === speed && plane.status !== "eliminated") classes.push("speed");
      // A damaged plane at or above its damage space must roll for breakup.
      if (plane.damage !== null && speed >= plane.damage) classes.push("danger");
      cell.className = classes.join(" ");
      cell.dataset.speed = speed;
      cell.title = `speed ${speed}: VULN ${v}`;
      cell.innerHTML = `<b>${speed}</b>V${v}`;
      if (plane.damage === speed) {
        const dmg = document.createElement("i");
        dmg.className = "dmg";
        dmg.title = "damage token";
        cell.appendChild(dmg);
      }
      track.appendChild(cell);
    });
    return track;
  }

  function statusText(snap, i, plane) {
    const shown = snap.state.display.planes[i];
    switch (plane.status) {
      case "flying": return `altitude ${shown ? shown.altitude : "?"}`;
      case "waiting": return "not placed yet";
      case "respawning": return "re-entering";
      case "off_board": return "off the map";
      case "eliminated": return plane.fate || "out";
      default: return plane.status;
    }
  }

  function legend(snap, highlight, compact = false) {
    const state = snap.state;
    const table = document.createElement("table");
    table.className = "dawgs-legend";
    table.innerHTML = "<thead><tr><th>Pilot</th><th>Speed · VULN · damage</th><th>Cards</th></tr></thead>";
    const body = document.createElement("tbody");
    const teams = snap.options && snap.options.teams;
    state.planes.forEach((plane, i) => {
      const tr = document.createElement("tr");
      tr.dataset.player = i;
      if (plane.status === "eliminated") tr.className = "out";
      if (highlight === i) tr.className += " me";
      const who = document.createElement("td");
      who.innerHTML = `<span class="swatch"></span> <b></b><small class="where"></small>`;
      who.querySelector(".swatch").style.background = color(snap, i);
      who.querySelector("b").textContent = name(snap, i) + (teams ? ` (team ${teams[i]})` : "");
      who.querySelector(".where").textContent = statusText(snap, i, plane);
      const track = document.createElement("td");
      track.appendChild(trackCell(snap, i, plane));
      if (plane.damage === null && plane.status !== "eliminated") {
        const none = document.createElement("small");
        none.className = "no-damage";
        none.textContent = "no damage";
        track.append(none);
      }
      const cards = document.createElement("td");
      cards.className = "cards";
      if (plane.revealed) {
        const stale = state.phase === "place" || state.phase === "setup";
        cards.dataset.revealed = plane.revealed.join(",");
        for (const card of plane.revealed) {
          const chip = cards.appendChild(cardChip(card, stale ? "stale" : "revealed", compact));
          if (stale) chip.title = "played last round";
        }
      }
      if (state.phase === "place" && plane.status === "flying") {
        const chip = document.createElement("span");
        chip.className = plane.has_chosen ? "chip done" : "chip waiting";
        chip.textContent = plane.has_chosen ? "chosen" : "choosing";
        cards.appendChild(chip);
      }
      if (plane.special) cards.appendChild(cardChip(plane.special, "held"));
      if (plane.in_play) cards.appendChild(cardChip(plane.in_play, "in-play"));
      if (plane.cf_on !== null && plane.cf_on !== undefined) {
        const cf = document.createElement("span");
        cf.className = "chip";
        cf.textContent = `continuous fire on ${name(snap, plane.cf_on)}`;
        cards.appendChild(cf);
      }
      tr.append(who, track, cards);
      body.appendChild(tr);
    });
    table.appendChild(body);
    return table;
  }

  function events(snap) {
    const list = document.createElement("ol");
    list.className = "dawgs-events";
    list.reversed = true;
    for (const text of snap.state.events.slice(-6).reverse()) {
      const li = document.createElement("li");
      li.textContent = text;
      list.appendChild(li);
    }
    return list;
  }

  function drawAll(container, snap, highlight) {
    injectStyle();
    container.innerHTML = "";
    container.appendChild(header(snap));
    const waiting = waitingBox(snap);
    if (waiting) container.appendChild(waiting);
    container.appendChild(drawMap(snap, { highlight }));
    container.appendChild(legend(snap, highlight, highlight !== null));
    if (snap.state.events.length) container.appendChild(events(snap));
    if (!specials) loadSpecials().then(() => {
      // Redraw once the special card titles are known.
      if (container.isConnected) drawAll(container, snap, highlight);
    });
  }

  function board(container, snap) {
    drawAll(container, snap, null);
  }

  // --- the tablet's buttons ------------------------------------------------------------
  const button = Oche.button;

  async function send(url, body) {
    try {
      const data = await Oche.post(url, body);
      if (data.rolled) Oche.flash(`The table rolled a ${data.rolled}.`);
      return data;
    } catch (e) {
      return null; // flashed by Oche.post
    }
  }

  function rollInfo(snap) {
    const data = snap.prompt.data || {};
    const parts = [];
    if (data.purpose === "fire_roll") {
      parts.push(`at ${name(snap, data.target)}: needs ${data.needed} (VULN)`);
      if (data.bonus) parts.push(`+${data.bonus} added`);
      parts.push(`${data.needed + 2} or more: two hits`);
    } else if (data.purpose === "breakup_roll") {
      parts.push(`breaks up on ${data.needed} or more (die + ${data.bonus})`);
    }
    return parts.join(", ");
  }

  function diceButtons(snap, onRoll, onValue) {
    const box = document.createElement("div");
    box.className = "dice";
    const info = rollInfo(snap);
    if (info) {
      const p = document.createElement("p");
      p.className = "roll-info";
      p.textContent = info;
      box.appendChild(p);
    }
    box.appendChild(button("⚄ Roll for me", onRoll, "roll-for-me"));
    for (let value = 1; value <= 6; value++) {
      const b = button(String(value), () => onValue(value), "die");
      b.dataset.value = value;
      b.title = `The real die shows ${value}`;
      box.appendChild(b);
    }
    return box;
  }

  function choices(div, snap) {
    injectStyle();
    const prompt = snap.prompt;
    if (prompt.kind === "roll") {
      div.appendChild(diceButtons(
        snap,
        async () => Oche.render(await send("/api/roll", {})),
        async (value) => Oche.render(await send("/api/action", { action: { type: "roll", player: prompt.player, value } })),
      ));
    } else if (prompt.kind === "draw_special") {
      // The table picks the face-down card: nobody chooses a card by its place in the deck.
      div.appendChild(button("Draw a special card at random", async () => Oche.render(await send("/api/draw", {})), "draw"));
    } else {
      for (const option of snap.prompt_options) {
        div.appendChild(button(option.label, async () => Oche.render(await send("/api/action", { action: option.action }))));
      }
    }
    if (snap.game === "dawgs" && !snap.outcome) div.appendChild(linksPanel(snap));
    return true;
  }

  // The private links: made by the server the first time someone in control asks. The
  // tablet is in everyone's view, so it shows one player's link at a time, on request.
  const links = { gameId: null, data: null, loading: null, shown: null, open: false };
  function linksPanel(snap) {
    const details = document.createElement("details");
    details.className = "dawgs-links";
    details.open = links.open || snap.prompt.kind === "choose_cards";
    details.addEventListener("toggle", () => { links.open = details.open; });
    const summary = document.createElement("summary");
    summary.textContent = "Players' phone links (each player opens only their own)";
    details.appendChild(summary);
    const list = document.createElement("ul");
    details.appendChild(list);
    const fill = () => {
      list.innerHTML = "";
      for (const link of links.data.links) {
        const li = document.createElement("li");
        li.dataset.player = link.player;
        li.innerHTML = `<span class="swatch"></span> <b></b> `;
        li.querySelector(".swatch").style.background = color(snap, link.player);
        li.querySelector("b").textContent = link.name;
        const showing = links.shown === link.player;
        li.appendChild(button(showing ? "Hide" : "Show link", () => {
          links.shown = showing ? null : link.player;
          fill();
        }, "secondary show-link"));
        if (showing) {
          const where = document.createElement("div");
          where.className = "link";
          where.innerHTML = `<a target="_blank" rel="noopener noreferrer"></a><br>or open <b class="code-page"></b> and type the code <code></code>`;
          where.querySelector(".code-page").textContent = `${window.location.origin}/p`;
          const a = where.querySelector("a");
          a.href = link.path;
          a.textContent = `${window.location.origin}${link.path}`;
          where.querySelector("code").textContent = link.token;
          li.appendChild(where);
        }
        list.appendChild(li);
      }
    };
    if (links.gameId === snap.id && links.data) {
      fill();
    } else {
      if (links.gameId !== snap.id || !links.loading) {
        links.gameId = snap.id;
        links.data = null;
        links.shown = null;
        links.loading = Oche.post("/api/player/links", {})
          .then((data) => { links.data = data; })
          .catch(() => { links.loading = null; });
      }
      links.loading.then(() => { if (links.data && list.isConnected) fill(); });
    }
    return details;
  }

  // --- a player's phone ----------------------------------------------------------------
  function phone(root, token) {
    injectStyle();
    const ui = { snap: null, selected: null, sending: false, pending: false };
    const base = `/api/player/${encodeURIComponent(token)}`;

    async function refresh() {
      if (ui.pending) { ui.again = true; return; }
      ui.pending = true;
      try {
        const response = await fetch(`${base}/state`, { credentials: "same-origin", cache: "no-store" });
        const data = await response.json();
        if (!response.ok) { root.innerHTML = ""; root.append(problem(data.error || "This link no longer works.")); return; }
        show(data);
      } catch (e) {
        Oche.flash("The table cannot be reached: retrying…", true);
      } finally {
        ui.pending = false;
        if (ui.again) { ui.again = false; refresh(); }
      }
    }

    function problem(text) {
      const p = document.createElement("p");
      p.className = "problem";
      p.textContent = text;
      return p;
    }

    // A second tap on the position a move was sent from is a double tap; a tap on a newer
    // position (drawn by the live update before this reply came) is the player's next move.
    async function act(url, body) {
      const from = Oche.positionKey(ui.snap);
      if (ui.sending === from) return;
      ui.sending = from;
      try {
        const data = await send(url, body);
        if (data) show(data);
      } finally {
        if (ui.sending === from) ui.sending = false;
      }
    }

    function pairLabel(pair, hand) {
      const [number, second] = pair;
      const card = second === "special" ? hand.find((c) => !/^[0-9]+$/.test(c) && !CARD_LABELS[c]) || "special" : second;
      return [number, cardLabel(card)];
    }

    function show(snap) {
      // Replies and refreshes may arrive out of order: never draw an older position, and
      // forget a chosen card pair once the position it was chosen on has gone.
      if (Oche.isOlder(snap, ui.snap)) return;
      if (ui.snap && Oche.positionKey(ui.snap) !== Oche.positionKey(snap)) ui.selected = null;
      ui.snap = snap;
      const seat = snap.seat;
      const state = snap.state;
      const mine = state.planes[seat];
      const shown = state.display.planes[seat];
      const hand = state.display.hand || [];
      const pairs = state.display.card_choices || [];
      root.innerHTML = "";
      root.dataset.seat = seat;
      root.dataset.round = state.round;
      root.dataset.phase = state.phase;

      const status = document.createElement("div");
      status.className = "status";
      const dot = document.createElement("span");
      dot.className = "swatch";
      dot.style.background = color(snap, seat);
      const plane = shown
        ? `altitude ${shown.altitude}, speed ${mine.speed}, VULN ${shown.vuln}`
        : statusText(snap, seat, mine);
      status.append(dot, document.createTextNode(` ${name(snap, seat)} · round ${state.round} · ${plane}`));
      root.appendChild(status);

      if (snap.outcome) {
        const over = document.createElement("div");
        over.className = "outcome";
        const winners = snap.outcome.winners.map((i) => name(snap, i)).join(" and ");
        over.textContent = snap.outcome.draw ? `Draw: ${snap.outcome.reason}` : `${winners} won: ${snap.outcome.reason}`;
        root.appendChild(over);
      }

      if (pairs.length) {
        const h = document.createElement("h2");
        h.textContent = "Choose your two cards (only you see them)";
        root.appendChild(h);
        const handRow = document.createElement("div");
        handRow.className = "hand";
        for (const card of hand) handRow.appendChild(cardChip(card));
        root.appendChild(handRow);
        const help = document.createElement("p");
        help.className = "hint card-help";
        const special = hand.find((c) => !/^[0-9]+$/.test(c) && !CARD_LABELS[c]);
        help.textContent = "A rotate card turns your plane by the number card, 30° a step, about its nose." +
          (special && specials && specials[special] ? ` ${specials[special].title}: ${specials[special].text}` : "");
        root.appendChild(help);
        const grid = document.createElement("div");
        grid.className = "pairs";
        pairs.forEach((option, index) => {
          const [number, label] = pairLabel(option.cards, hand);
          const b = document.createElement("button");
          b.className = ui.selected === index ? "pair selected" : "pair";
          b.dataset.cards = option.cards.join(",");
          b.innerHTML = `<span class="num"></span><span class="second"></span>`;
          b.querySelector(".num").textContent = number;
          b.querySelector(".second").textContent = `+ ${label}`;
          b.addEventListener("click", () => { ui.selected = index; show(ui.snap); });
          grid.appendChild(b);
        });
        root.appendChild(grid);
        if (ui.selected !== null && pairs[ui.selected]) {
          const chosen = pairs[ui.selected];
          const [number, label] = pairLabel(chosen.cards, hand);
          const confirm = document.createElement("div");
          confirm.className = "confirm";
          confirm.appendChild(button(`Play ${number} + ${label}`, () => act(`${base}/action`, { action: chosen }), "primary play-cards"));
          confirm.appendChild(button("Cancel", () => { ui.selected = null; show(ui.snap); }, "secondary"));
          root.appendChild(confirm);
        }
      } else if (mine.chosen) {
        const secret = document.createElement("div");
        secret.className = "secret";
        secret.dataset.chosen = mine.chosen.join(",");
        const [number, label] = pairLabel(mine.chosen, hand);
        secret.textContent = `Your cards, face down: ${number} + ${label}.`;
        root.appendChild(secret);
      }

      const prompt = snap.prompt;
      const p = document.createElement("p");
      p.className = "prompt";
      p.textContent = prompt.text;
      root.appendChild(p);
      if (prompt.player === seat) {
        const actions = document.createElement("div");
        actions.className = "actions";
        if (prompt.kind === "roll") {
          actions.appendChild(diceButtons(
            snap,
            () => act(`${base}/roll`, {}),
            (value) => act(`${base}/action`, { action: { type: "roll", player: seat, value } }),
          ));
        } else if (prompt.kind === "draw_special") {
          actions.appendChild(button("Draw a special card at random", () => act(`${base}/draw`, {}), "draw"));
        } else {
          for (const option of snap.prompt_options) {
            actions.appendChild(button(option.label, () => act(`${base}/action`, { action: option.action })));
          }
        }
        root.appendChild(actions);
      }

      const pane = document.createElement("div");
      pane.className = "board-pane";
      root.appendChild(pane);
      drawAll(pane, snap, seat);
      root.dataset.ready = "yes";
    }

    // Every table update: fetch this seat's own view again (the stream carries only the
    // spectator's view, which never holds anyone's hand).
    let timer = null;
    const source = new EventSource("/api/stream");
    source.addEventListener("state", () => {
      clearTimeout(timer);
      timer = setTimeout(refresh, 30);
    });
    source.addEventListener("open", refresh);
    refresh();
  }

  Oche.games.dawgs = { board, choices, phone };
})();
