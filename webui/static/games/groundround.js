// Ground Round view, drawn over the printed 19-hex board that app.js loads: each captured hex
// gets its owner's pin and a frame in his colour, Army Pins stand out as stars, every symbol
// hex shows its defence (the badge turns green where the thrower's next dart would take it),
// and the thrower's attack sits in the corner. The panel lists the powers of the turn
// (Flaming Fist, extra darts, Dart re-throws, Army Pins) and asks keep / throw again plainly.
// When the game waits for an Army Pin to be placed, moved or taken off, the legal hexes light
// up and a tap on one posts the matching prompt option.
// No rule lives here: attack, defence and what a hit would do come from
// GET /api/groundround/strength (the engine's own functions); taps only pick prompt options.
"use strict";

(function () {
  const RESULT_WORDS = {
    captured: "captured",
    repelled: "holds",
    held: "already his",
    "tower-protected": "held Tower: only a Flaming Fist dart takes it",
    blank: "blank, cannot be taken",
    miss: "missed the board",
    bounceout: "bounced out",
    cancelled: "cancelled with a Dart re-throw",
  };
  const PIN_KINDS = ["place_pin", "end_turn", "remove_pin"];

  const view = {
    snap: null,
    board: null,
    svg: null,
    group: null, // <g class="gr-view"> inside the board's overlay layer
    posKey: null, // which position the fields below belong to
    strength: null, // the server's answer for `posKey`
    fetching: null,
    pinMode: false, // in a dart prompt: taps place / move Army Pins instead of throwing
    source: null, // hex of the Army Pin picked up to be moved
    sending: false,
  };

  const el = (name, attrs, parent) => Oche.svgEl(name, attrs, parent);
  const control = Oche.control;

  // --- positions -----------------------------------------------------------------------
  const positionKey = Oche.positionKey;
  function lastActionType(snap) {
    const log = snap.log || [];
    return log.length ? log[log.length - 1].action.type : null;
  }

  // Called with every snapshot (choices() runs before overlay() in app.js's render).
  function sync(snap) {
    view.snap = snap;
    const key = positionKey(snap);
    if (key === view.posKey) return;
    view.posKey = key;
    // Keep the pin mode after a pin action while more pin choices remain (several pins).
    const pinAction = ["place_pin", "move_pin"].includes(lastActionType(snap));
    view.pinMode = view.pinMode && pinAction && hasPinOptions(snap);
    view.source = null;
    if (view.strength && view.strength.key !== key) view.strength = null;
    fetchStrength(snap);
  }

  function fetchStrength(snap) {
    const wanted = positionKey(snap);
    const use = (data) => {
      // A late answer for an older position is dropped; the newer one is on its way.
      if (Oche.answerKey(data) !== positionKey(view.snap)) return;
      view.strength = { ...data, key: wanted };
      redraw(false);
    };
    // A refusal means another game took over; its own view draws it.
    const url = "/api/groundround/strength";
    return Oche.fetchForPosition(view, snap, url, "attack and defence", use, { flashRefusal: false });
  }

  function strength() {
    return view.strength && view.strength.key === view.posKey ? view.strength : null;
  }

  // --- the board's data ----------------------------------------------------------------
  function zone(id) { return (view.board.zones || {})[id]; }
  function hexOf(id) {
    const z = zone(id);
    return z && z.parent ? z.parent : id;
  }
  function hexName(id) { return (zone(id) || {}).name || id; }
  function hexPath(id) {
    const path = view.svg.querySelector(`.zone[data-zone="${CSS.escape(id)}"]`);
    return path ? path.getAttribute("d") : null;
  }
  function inset(id, factor) {
    const [x, y] = zone(id).center;
    return `translate(${x} ${y}) scale(${factor}) translate(${-x} ${-y})`;
  }

  // --- colours -------------------------------------------------------------------------
  const shade = Oche.shade;

  // --- what the prompt lets a tap do ----------------------------------------------------
  function actions(snap) { return (snap.prompt_options || []).map((o) => o.action); }
  function hasPinOptions(snap) {
    return actions(snap).some((a) => ["place_pin", "move_pin", "remove_pin"].includes(a.type));
  }
  function pinTapsActive(snap) {
    const kind = (snap.prompt || {}).kind;
    if (PIN_KINDS.includes(kind)) return hasPinOptions(snap);
    return kind === "dart" && view.pinMode && hasPinOptions(snap);
  }
  // targets: hex -> the option a tap there posts; sources: Army Pins that may be picked up.
  function pinChoices(snap) {
    const targets = new Map();
    const sources = new Set();
    for (const a of actions(snap)) {
      if (a.type === "move_pin") {
        sources.add(a.from);
        if (view.source === a.from) targets.set(a.to, a);
      } else if (!view.source && (a.type === "place_pin" || a.type === "remove_pin")) {
        targets.set(a.zone, a);
      }
    }
    return { targets, sources };
  }

  // --- drawing -------------------------------------------------------------------------
  // The board and the panel's status box; `withChoices` also rebuilds the buttons (only
  // after the player's own taps, so that a late server answer never swaps a button away
  // under a finger).
  function redraw(withChoices = true) {
    if (view.group && view.group.isConnected) {
      view.group.innerHTML = "";
      drawAll(view.group);
    }
    renderStatus();
    if (withChoices) refreshChoices();
  }

  function drawAll(g) {
    const snap = view.snap;
    const state = snap.state;
    const s = strength();
    g.dataset.position = view.posKey;
    g.dataset.ready = s ? "yes" : "no";
    g.dataset.pinMode = pinTapsActive(snap) ? "yes" : "no";
    g.dataset.source = view.source || "";
    const under = el("g", { class: "gr-under" }, g);
    const marks = el("g", { class: "gr-marks" }, g);
    for (const [id, owner] of Object.entries(state.owners || {})) {
      if (owner === null || owner === undefined || !zone(id)) continue;
      drawOwnerFrame(under, id, owner);
      drawOwnerPin(marks, id, owner);
    }
    drawPending(under, snap);
    drawWinning(under, s);
    if (control() && pinTapsActive(snap)) drawPinChoices(under, marks, snap);
    (state.army_pins || []).forEach((placed, owner) => {
      for (const id of placed) drawArmyPin(marks, id, owner);
    });
    drawDefence(marks, snap, s);
    drawAttack(g, snap, s);
  }

  function drawOwnerFrame(parent, id, owner) {
    const d = hexPath(id);
    if (!d) return;
    const color = Oche.playerColor(view.snap, owner);
    el("path", {
      class: "owned", "data-zone": id, "data-owner": owner, d, transform: inset(id, 0.9),
      fill: color, "fill-opacity": 0.12, stroke: color, "stroke-width": 5, "stroke-linejoin": "round",
    }, parent);
  }

  // The ownership pin: a round-headed push pin in the owner's colour, upper left of the hex.
  function drawOwnerPin(parent, id, owner) {
    const [cx, cy] = zone(id).center;
    const color = Oche.playerColor(view.snap, owner);
    const x = cx - 28;
    const y = cy - 33;
    const g = el("g", { class: "owner-pin", "data-zone": id, "data-owner": owner }, parent);
    el("line", { x1: x, y1: y, x2: x + 5, y2: y + 13, stroke: "#374151", "stroke-width": 2.2, "stroke-linecap": "round" }, g);
    el("circle", { cx: x, cy: y, r: 9, fill: color, stroke: shade(color, 0.55), "stroke-width": 1.8 }, g);
    el("circle", { cx: x - 3, cy: y - 3, r: 2.6, fill: "#fff", "fill-opacity": 0.7 }, g);
    el("title", {}, g).textContent = `${hexName(id)}: held by ${view.snap.players[owner]}`;
  }

  // An Army Pin: a star in the owner's colour with a gold rim, left of the hex's symbol.
  function drawArmyPin(parent, id, owner) {
    if (!zone(id)) return;
    const [cx, cy] = zone(id).center;
    const color = Oche.playerColor(view.snap, owner);
    const x = cx - 35;
    const y = cy + 15;
    const points = [];
    for (let i = 0; i < 10; i++) {
      const r = i % 2 ? 6 : 14;
      const a = -Math.PI / 2 + (i * Math.PI) / 5;
      points.push(`${(x + r * Math.cos(a)).toFixed(1)},${(y + r * Math.sin(a)).toFixed(1)}`);
    }
    const picked = view.source === id;
    const g = el("g", { class: "army-pin", "data-zone": id, "data-owner": owner }, parent);
    el("polygon", { points: points.join(" "), fill: "none", stroke: "#1f2328", "stroke-width": 6, "stroke-linejoin": "round" }, g);
    el("polygon", { points: points.join(" "), fill: color, stroke: picked ? "#fff" : "#facc15", "stroke-width": 2.6, "stroke-linejoin": "round" }, g);
    el("title", {}, g).textContent = `Army Pin of ${view.snap.players[owner]} on ${hexName(id)}`;
  }

  // The throw waiting for keep / re-throw, or for a line-hit choice, is ringed on the board.
  function drawPending(parent, snap) {
    const data = (snap.prompt || {}).data || {};
    const pending = snap.prompt.kind === "rethrow" ? data.pending : null;
    if (!pending || !pending.zone || !zone(pending.zone)) return;
    const d = hexPath(pending.zone);
    if (!d) return;
    el("path", {
      class: "pending", "data-zone": pending.zone, d, transform: inset(pending.zone, 0.8),
      fill: "#fde047", "fill-opacity": 0.3, stroke: "#a16207", "stroke-width": 4, "stroke-dasharray": "10 6",
    }, parent);
  }

  function drawPinChoices(under, marks, snap) {
    const { targets, sources } = pinChoices(snap);
    const color = Oche.playerColor(snap, snap.prompt.player);
    for (const [id, action] of targets) {
      const d = hexPath(id);
      if (!d) continue;
      const removing = action.type === "remove_pin";
      el("path", {
        class: "pin-target", "data-zone": id, "data-action": action.type, d, transform: inset(id, 0.82),
        fill: removing ? "#ef4444" : color, "fill-opacity": 0.22,
        stroke: removing ? "#b91c1c" : shade(color, 0.8), "stroke-width": 4, "stroke-dasharray": "9 6",
      }, under);
    }
    for (const id of sources) {
      if (!zone(id)) continue;
      const [cx, cy] = zone(id).center;
      el("circle", {
        class: view.source === id ? "pin-source picked" : "pin-source", "data-zone": id,
        cx: cx - 35, cy: cy + 15, r: 21, fill: view.source === id ? "#fde047" : "#fef9c3",
        "fill-opacity": 0.9, stroke: "#ca8a04", "stroke-width": view.source === id ? 5 : 3,
      }, marks);
    }
  }

  // Defence badges: a small shield with the number; its colour says what a dart there would
  // do now (from the server's trial throws): green takes it, red is held off.
  function drawDefence(parent, snap, s) {
    const defence = s ? s.defence : ((snap.prompt.data || {}).defence || null);
    if (!defence) return;
    const hits = (s && s.hits) || {};
    for (const [id, value] of Object.entries(defence)) {
      if (!zone(id)) continue;
      const [cx, cy] = zone(id).center;
      const x = cx + 31;
      const y = cy - 27;
      const hit = hits[id] || {};
      let fill = "#ffffff";
      let stroke = "#4b5563";
      if (hit.result === "captured") { fill = hit.wins ? "#86efac" : "#dcfce7"; stroke = "#15803d"; }
      else if (hit.result === "repelled" || hit.result === "tower-protected") { fill = "#fee2e2"; stroke = "#b91c1c"; }
      const g = el("g", { class: "defence", "data-zone": id, "data-defence": value, "data-hit": hit.result || "", "data-wins": hit.wins ? "yes" : "no" }, parent);
      el("path", {
        d: `M${x - 10},${y - 11} L${x + 10},${y - 11} L${x + 10},${y + 1} Q${x + 10},${y + 9} ${x},${y + 13} Q${x - 10},${y + 9} ${x - 10},${y + 1} Z`,
        fill, stroke, "stroke-width": hit.wins ? 3 : 1.8,
      }, g);
      el("text", { x, y: y + 5, "font-size": 14, "font-weight": "bold", fill: "#111827", "text-anchor": "middle" }, g).textContent = String(value);
      const parts = s && s.defence_parts ? s.defence_parts[id] || [] : [];
      el("title", {}, g).textContent = `${hexName(id)}: defence ${value}` +
        (parts.length ? ` (${parts.map(([why, n]) => `${why} ${n > 0 ? "+" : ""}${n}`).join(", ")})` : "");
    }
  }

  // Hexes where the thrower's next dart would win the game get a green frame.
  function drawWinning(parent, s) {
    for (const [id, hit] of Object.entries((s && s.hits) || {})) {
      const d = hit.wins ? hexPath(id) : null;
      if (!d) continue;
      el("path", {
        class: "winning", "data-zone": id, d, transform: inset(id, 0.76), fill: "none",
        stroke: "#16a34a", "stroke-width": 5, "stroke-dasharray": "3 7", "stroke-linecap": "round",
      }, parent);
    }
  }

  // The thrower's attack, small, in the top left corner of the sheet.
  function drawAttack(parent, snap, s) {
    if (snap.outcome) return;
    const data = snap.prompt.data || {};
    const known = s || (snap.prompt.kind === "dart" ? data : null);
    if (!known) return;
    const thrower = s ? s.current : snap.prompt.player;
    const color = Oche.playerColor(snap, thrower);
    const unlimited = known.attack === null;
    const g = el("g", { class: "attack", "data-attack": unlimited ? "unlimited" : known.attack, "data-player": thrower }, parent);
    el("rect", { x: 10, y: 10, width: 130, height: 52, rx: 10, fill: unlimited ? "#ffedd5" : "#ffffff", "fill-opacity": 0.92, stroke: color, "stroke-width": 3 }, g);
    el("text", { x: 22, y: 30, "font-size": 13, fill: "#4b5563" }, g).textContent = `${(snap.players[thrower] || "").slice(0, 12)}'s attack`;
    el("text", { x: 22, y: 54, "font-size": 20, "font-weight": "bold", fill: unlimited ? "#c2410c" : shade(color, 0.8) }, g).textContent =
      unlimited ? "unlimited" : String(known.attack);
  }

  // --- the panel: powers of the turn and who holds what ----------------------------------
  function ensureStyle() {
    if (document.getElementById("gr-style")) return;
    const style = document.createElement("style");
    style.id = "gr-style";
    style.textContent = `
      .gr-status { margin: .2rem 0 .6rem; }
      .gr-chips { display: flex; flex-wrap: wrap; gap: .35rem; margin: .3rem 0; }
      .gr-chip { border-radius: 1rem; padding: .2rem .7rem; background: #eef2f7; font-size: .95rem; border: 1px solid #cbd5e1; }
      .gr-chip.thrower { background: none; border-color: transparent; padding-left: 0; font-weight: bold; }
      .gr-chip.flaming { background: #ffedd5; border-color: #ea580c; color: #9a3412; font-weight: bold; }
      .gr-chip.extra { background: #fee2e2; border-color: #dc2626; color: #991b1b; font-weight: bold; }
      .gr-chip.rethrows { background: #dbeafe; border-color: #2563eb; color: #1e3a8a; }
      .gr-chip.pins { background: #fef9c3; border-color: #ca8a04; color: #713f12; }
      .gr-players { width: 100%; border-collapse: collapse; font-size: .95rem; margin-top: .3rem; }
      .gr-players td { padding: .15rem .3rem; border-bottom: 1px solid #e5e7eb; }
      .gr-players tr.current td { font-weight: bold; }
      .gr-last, .gr-key { color: #4b5563; font-size: .95rem; margin: .2rem 0; }
      .gr-key { font-size: .85rem; }
      .choices .gr-wide { flex-basis: 100%; margin: 0; }
      .choices .gr-note { color: #374151; font-size: 1rem; }
      .choices button.gr-keep { background: #15803d; border-color: #15803d; flex: 1 1 12rem; }
      .choices button.gr-rethrow { background: #d97706; border-color: #d97706; flex: 1 1 12rem; }
      .choices button.gr-secondary { background: #fff; color: #1f2328; border-color: #888; }
      .choices button.gr-small { min-height: 2.6rem; min-width: 0; font-size: 1rem; }
      .choices button.gr-on { background: #fde68a; color: #1f2328; border-color: #ca8a04; }
    `;
    document.head.appendChild(style);
  }

  function statusBox() {
    let box = document.getElementById("gr-status");
    if (!box) {
      const choices = document.getElementById("choices");
      if (!choices) return null;
      box = document.createElement("div");
      box.id = "gr-status";
      box.className = "gr-status";
      choices.parentNode.insertBefore(box, choices);
    }
    return box;
  }

  function chip(parent, kind, text, cls = "") {
    const span = document.createElement("span");
    span.className = `gr-chip ${cls}`.trim();
    span.dataset.kind = kind;
    span.textContent = text;
    parent.appendChild(span);
  }

  function renderStatus() {
    const snap = view.snap;
    const box = statusBox();
    if (!snap || !box) return;
    box.innerHTML = "";
    const s = strength();
    const data = snap.prompt.data || {};
    const chips = document.createElement("div");
    chips.className = "gr-chips";
    box.appendChild(chips);
    if (!snap.outcome) {
      const known = s || (snap.prompt.kind === "dart" ? data : null);
      if (s && snap.prompt.player !== s.current) {
        // Someone else answers now (a lost Army Pin): the chips still describe the thrower.
        chip(chips, "thrower", `${snap.players[s.current]}'s turn:`, "thrower");
      }
      if (known) {
        if (known.attack === null || known.unlimited) {
          chip(chips, "attack", "Flaming Fist: this dart has unlimited attack", "flaming");
        } else {
          chip(chips, "attack", `Attack ${known.attack}`);
        }
        const perTurn = s ? s.darts_per_turn : snap.options.darts_per_turn;
        if (known.extra_darts > 0) {
          chip(chips, "extra", `${known.extra_darts} extra dart${known.extra_darts === 1 ? "" : "s"} (Crossed Darts) first`, "extra");
        }
        if (perTurn) {
          const left = known.darts_left;
          chip(chips, "darts", left > 0 ? `Dart ${perTurn - left + 1} of ${perTurn}` : "All darts thrown");
        }
      }
      const rethrows = s ? s.rethrows_left : data.rethrows_left;
      if (rethrows !== undefined && rethrows > 0) {
        chip(chips, "rethrows", `${rethrows} Dart re-throw${rethrows === 1 ? "" : "s"} left`, "rethrows");
      }
      const inHand = s ? s.players[s.current].pins_in_hand : data.pins_in_hand;
      if (inHand > 0) chip(chips, "pins", `${inHand} Army Pin${inHand === 1 ? "" : "s"} to place`, "pins");
    }
    const last = snap.state.last_throw;
    if (last && last.result) {
      const p = document.createElement("p");
      p.className = "gr-last";
      p.dataset.result = last.result;
      const where = last.zone ? `${hexName(last.zone)}: ` : "";
      let text = `Last throw (${snap.players[last.player]}): ${where}${RESULT_WORDS[last.result] || last.result}`;
      if (last.extra_darts) text += `, ${last.extra_darts} extra darts`;
      if (last.flaming) text += ", next dart unlimited";
      p.textContent = text;
      box.appendChild(p);
    }
    if (s && Object.keys(s.hits || {}).length) {
      const key = document.createElement("p");
      key.className = "gr-key";
      key.textContent = "Shields on the board: each hex's defence; green where this dart takes the hex, red where it holds.";
      box.appendChild(key);
    }
    if (s) {
      const table = document.createElement("table");
      table.className = "gr-players";
      s.players.forEach((info, i) => {
        const tr = document.createElement("tr");
        tr.dataset.player = i;
        if (i === s.current && !snap.outcome) tr.className = "current";
        const swatch = `<span class="swatch" style="background:${Oche.playerColor(snap, i)}"></span>`;
        const pins = info.pins_on_board.length + (info.pins_in_hand ? ` (+${info.pins_in_hand} to place)` : "");
        tr.innerHTML = `<td>${swatch}</td><td class="name"></td><td data-kind="flags">⚑ ${info.flags}/${s.flags_total}</td>` +
          `<td data-kind="hexes">${info.hexes} hex${info.hexes === 1 ? "" : "es"}</td><td data-kind="army-pins">★ ${pins}</td>`;
        tr.querySelector(".name").textContent = snap.players[i];
        table.appendChild(tr);
      });
      box.appendChild(table);
    }
  }

  // --- taps on the board ----------------------------------------------------------------
  // Registered in the capture phase on the board's <svg>: while the game waits for an Army
  // Pin, a tap is answered here and never reaches app.js (where it would be a dart).
  function onTapCapture(event) {
    const snap = view.snap;
    if (!snap || snap.game !== "groundround" || !control()) return;
    if (Oche.correcting !== null && Oche.correcting !== undefined) return;
    if (!pinTapsActive(snap)) return;
    event.stopPropagation();
    event.preventDefault();
    const zoneEl = Oche.tapped(event, ".zone");
    if (!zoneEl) return;
    const id = hexOf(zoneEl.dataset.zone);
    const { targets, sources } = pinChoices(snap);
    if (targets.has(id)) { send(targets.get(id)); return; }
    if (sources.has(id)) {
      view.source = view.source === id ? null : id;
      redraw();
      return;
    }
    if (view.source) { view.source = null; redraw(); }
    Oche.flash(pinHint(snap));
  }

  function attachTap(svg) {
    if (!svg || svg.dataset.groundround === "yes") return;
    svg.dataset.groundround = "yes";
    svg.addEventListener("click", onTapCapture, true);
  }

  function send(action) {
    return Oche.sendAction(view, action);
  }

  function pinHint(snap) {
    const { targets, sources } = pinChoices(snap);
    if (view.source) return `Tap the hex where the Army Pin from ${hexName(view.source)} goes (dashed outline).`;
    const kinds = new Set([...targets.values()].map((a) => a.type));
    if (kinds.has("remove_pin")) return "Tap the Army Pin (red outline) that comes off the board.";
    const parts = [];
    if (kinds.has("place_pin")) parts.push("tap one of your hexes with a dashed outline to put your Army Pin there");
    if (sources.size) parts.push("tap an Army Pin with a gold ring to move it");
    return parts.length ? parts.join(", or ").replace(/^./, (c) => c.toUpperCase()) + "." : snap.prompt.text;
  }

  // --- the prompt area -------------------------------------------------------------------
  function button(label, onClick, cls = "") {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    if (cls) b.className = cls;
    b.addEventListener("click", onClick);
    return b;
  }
  function note(div, text) {
    const p = document.createElement("p");
    p.className = "gr-wide gr-note";
    p.textContent = text;
    div.appendChild(p);
  }
  function option(snap, type) { return actions(snap).find((a) => a.type === type); }

  function refreshChoices() {
    const div = document.getElementById("choices");
    const snap = view.snap;
    if (!div || !snap || !control()) return;
    if (!["dart", "rethrow", ...PIN_KINDS].includes(snap.prompt.kind)) return;
    div.innerHTML = "";
    choices(div, snap);
  }

  function pinButtons(div, snap) {
    const { targets, sources } = pinChoices(snap);
    note(div, pinHint(snap));
    if (view.source) {
      for (const [id, action] of targets) div.appendChild(button(`To ${hexName(id)}`, () => send(action), "gr-secondary gr-small"));
      div.appendChild(button("Pick another pin", () => { view.source = null; redraw(); }, "gr-secondary gr-small"));
      return;
    }
    for (const [id, action] of targets) {
      const verb = action.type === "remove_pin" ? "Off" : "On";
      div.appendChild(button(`${verb} ${hexName(id)}`, () => send(action), "gr-secondary gr-small"));
    }
    for (const id of sources) {
      div.appendChild(button(`Move the pin on ${hexName(id)}`, () => { view.source = id; redraw(); }, "gr-secondary gr-small"));
    }
  }

  function choices(div, snap) {
    ensureStyle();
    sync(snap);
    const prompt = snap.prompt;
    const player = prompt.player;
    if (prompt.kind === "rethrow") {
      const left = (prompt.data || {}).rethrows_left;
      note(div, "Keep this throw, or cancel it and throw that dart again?");
      const keep = option(snap, "keep");
      const again = option(snap, "rethrow");
      if (keep) div.appendChild(button("Keep the throw", () => send(keep), "gr-keep"));
      if (again) div.appendChild(button(`Throw again (${left} re-throw${left === 1 ? "" : "s"} left)`, () => send(again), "gr-rethrow"));
      return true;
    }
    if (prompt.kind === "dart") {
      if (view.pinMode && hasPinOptions(snap)) {
        pinButtons(div, snap);
        div.appendChild(button("Back to throwing", () => { view.pinMode = false; view.source = null; redraw(); }, "gr-secondary"));
        return true;
      }
      for (const [type, label] of [["miss", "Missed the board"], ["bounceout", "Bounce-out"]]) {
        const a = option(snap, type) || ((prompt.accepts || []).includes(type) ? { type, player } : null);
        if (a) div.appendChild(button(label, () => send(a)));
      }
      const stop = option(snap, "stop");
      if (stop) div.appendChild(button("Stop throwing this turn", () => send(stop), "gr-secondary"));
      const place = option(snap, "place_pin");
      const move = option(snap, "move_pin");
      if (place || move) {
        const label = place ? "Place Army Pin" : "Move Army Pins";
        div.appendChild(button(label, () => { view.pinMode = true; view.source = null; redraw(); }, "gr-on"));
      }
      return true;
    }
    if (PIN_KINDS.includes(prompt.kind)) {
      pinButtons(div, snap);
      const end = option(snap, "end_turn");
      if (end) div.appendChild(button("End the turn", () => send(end)));
      return true;
    }
    return false; // line-hit choice, game over: the generic buttons do
  }

  // --- entry point from app.js -----------------------------------------------------------
  function overlay(layer, snap, board) {
    ensureStyle();
    view.board = board;
    view.svg = layer.ownerSVGElement;
    attachTap(view.svg);
    sync(snap);
    view.group = el("g", { class: "gr-view" }, layer);
    drawAll(view.group);
    renderStatus();
  }

  // Another game on the table: take the panel's Ground Round box away.
  document.addEventListener("oche:update", (event) => {
    const snap = event.detail && event.detail.snapshot;
    if (snap && snap.game !== "groundround") {
      const box = document.getElementById("gr-status");
      if (box) box.remove();
    }
  });

  Oche.games.groundround = { overlay, choices };
})();
