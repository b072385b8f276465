"""Turning a dart action into the hex it counts for, and resolving a kept throw.

A throw goes through up to three steps: the dart arrives (``aim``); if it sits on a printed
line the thrower picks one of the touching hexes; if he holds Dart hexes with re-throws left
he may cancel it. Only a kept throw is ``resolve``d: it uses up a dart and may capture.
"""

from __future__ import annotations

from typing import Any

from boards.model import Board
from rules.base import Action, ActionFormatError
from rules.darts import read_bounce_cause, read_dart
from rules.groundround import pins
from rules.groundround.layout import (
    BLANK,
    CROSSED_DARTS,
    FLAMING_FIST,
    PIN,
    TOWER,
    Layout,
)
from rules.groundround.strength import attack, beats, defence, held

State = dict[str, Any]


def aim(layout: Layout, board: Board, action: Action) -> dict[str, Any]:
    """What a dart/miss/bounceout action means before any choice.

    Returns ``{"kind": "miss" | "bounceout"}``, ``{"kind": "hit", "zone": hex, "red": bool}``
    or, for a dart on a line, ``{"kind": "line", "candidates": [hex, ...], "red": [hex]}``.
    """
    if action["type"] == "miss":
        return {"kind": "miss"}
    if action["type"] == "bounceout":
        return {"kind": "bounceout", "cause": read_bounce_cause(action)}
    for name in ("candidates", "subzones"):
        if not isinstance(action.get(name) or [], list):
            raise ActionFormatError(name, f'field "{name}" must be a list of zone ids')
    dart = read_dart(action, board)
    red = sorted(
        {layout.red_parent[s] for s in (*dart.subzones, dart.zone or "") if s in layout.red_parent}
    )
    candidates: list[str] = []
    for zone_id in dart.candidates:
        hex_id = layout.hex_of(zone_id)
        if hex_id in layout.symbol and hex_id not in candidates:
            candidates.append(hex_id)
    zone = layout.hex_of(dart.zone) if dart.zone is not None else None
    if zone is not None and zone not in layout.symbol:
        zone = None  # a zone with no place on the map (never on a Ground Round board)
    if (dart.on_line or zone is None) and len(candidates) >= 2:
        return {"kind": "line", "candidates": sorted(candidates), "red": red}
    if zone is None:
        zone = candidates[0] if candidates else None
    if zone is None:
        return {"kind": "miss", "off_board": True}
    return {"kind": "hit", "zone": zone, "red": zone in red}


def resolve(layout: Layout, state: State, throw: dict[str, Any], tower_defends: str) -> None:
    """Apply a kept throw to ``state`` (a private copy): use a dart, capture, set bonuses."""
    player = state["current"]
    state["pending"] = None
    if state["extra_darts"] > 0:
        state["extra_darts"] -= 1
    else:
        state["darts_left"] -= 1
    dart_attack = attack(layout, state, player)
    state["flaming"] = False
    record: dict[str, Any] = {
        "player": player,
        "kind": throw["kind"],
        "zone": throw.get("zone"),
        "red": bool(throw.get("red")),
        "attack": dart_attack,
        "result": throw["kind"],
    }
    state["last_throw"] = record
    if throw["kind"] != "hit":
        return
    zone = throw["zone"]
    symbol = layout.symbol[zone]
    if symbol == BLANK:
        record["result"] = "blank"
        return
    previous = state["owners"][zone]
    record["defence"] = defence(layout, state, zone, tower_defends)
    record["previous_owner"] = previous
    if previous == player:
        record["result"] = "held"
    elif symbol == TOWER and previous is not None and dart_attack is not None:
        record["result"] = "tower-protected"
    elif beats(dart_attack, record["defence"]):
        record["result"] = "captured"
        _capture(layout, state, zone, player, previous, record)
    else:
        record["result"] = "repelled"
    if state["owners"][zone] != player:
        return
    if symbol == FLAMING_FIST:
        state["flaming"] = True
        record["flaming"] = True
    if symbol == CROSSED_DARTS and throw.get("red") and not state["crossed_used"]:
        extra = 1 + len(held(layout, state, player, CROSSED_DARTS))
        state["extra_darts"] += extra
        state["crossed_used"] = True
        record["extra_darts"] = extra


def _capture(
    layout: Layout,
    state: State,
    zone: str,
    player: int,
    previous: int | None,
    record: dict[str, Any],
) -> None:
    state["owners"][zone] = player
    if layout.symbol[zone] == PIN:
        state["pin_moves"]["window"] = pins.BARRED
    if previous is None:
        return
    loser_pins = state["army_pins"][previous]
    if zone in loser_pins:
        # An Army Pin cannot stand on an enemy hex: it goes back to its owner's hand.
        loser_pins.remove(zone)
        record["knocked_off"] = zone
    if pins.excess(layout, state, previous) > 0:
        if len(loser_pins) == 1:
            record["pin_removed"] = loser_pins.pop()
        else:
            state["removals"].append(previous)


def winner(layout: Layout, state: State) -> int | None:
    """The player holding every Flag hex, if any."""
    owners = {state["owners"][f] for f in layout.flags}
    if len(owners) == 1:
        (only,) = owners
        return only
    return None
