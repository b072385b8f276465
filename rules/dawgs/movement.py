"""Phase 2: reveal the cards, change orientation, move; leaving the map and respawning."""

from __future__ import annotations

from typing import Any

from rules.dawgs import data, hexgrid
from rules.dawgs.config import Config
from rules.dawgs.planes import (
    Plane,
    add_hits,
    discard_special,
    eliminate,
    front_of,
    place_on_edge,
)

State = dict[str, Any]


def reveal(state: State) -> None:
    """Turn every chosen pair face up; the special slot shows the card it holds."""
    for plane in state["planes"]:
        plane["fire_bonus"] = 0
        if plane["chosen"] is None:
            plane["revealed"] = None
            continue
        number, second = plane["chosen"]
        if second == data.SPECIAL:
            second = plane["special"]
        plane["revealed"] = [number, second]
        plane["chosen"] = None


def change_orientation(plane: Plane, config: Config) -> None:
    """Rotate about the front hex (or play the special) according to the revealed cards."""
    number_card, second = plane["revealed"]
    number = int(number_card)
    if second == data.CLOCKWISE:
        plane["heading"] = hexgrid.rotate(plane["heading"], -number)
    elif second == data.COUNTER_CLOCKWISE:
        plane["heading"] = hexgrid.rotate(plane["heading"], number)
    elif second in data.SPECIAL_CARDS:
        _play_special(plane, second, number, config)


def _play_special(plane: Plane, card: str, number: int, config: Config) -> None:
    if card == "afterburner":
        plane["speed"] = max(plane["speed"], min(number, config.max_speed))
    elif card == "air_brake":
        plane["speed"] = max(0, plane["speed"] - number)
    elif card == "immelmann":
        plane["heading"] = hexgrid.rotate(plane["heading"], 6)
    elif card == "half_roll":
        plane["heading"] = hexgrid.mirror_vertical(plane["heading"])
    elif card == "steady_aim":
        plane["fire_bonus"] = 1
    if data.SPECIAL_CARDS[card].stay_in_play:
        plane["in_play"] = card
        plane["special"] = None


def move(state: State, player: int, config: Config) -> None:
    """Fly ``speed`` increments forward (speed 0: sink one increment straight down).

    Each increment looks at the hex the nose would enter: the ground ends the move there
    (the caller finds the crash), a side edge takes the plane off the map, the top edge
    stops it with speed 0. The ground is checked first, so a plane diving into a bottom
    corner crashes rather than escaping over the side.
    """
    plane = state["planes"][player]
    front, zig = front_of(plane), plane["zig"]
    heading = plane["heading"] if plane["speed"] > 0 else hexgrid.DOWN
    for _ in range(max(plane["speed"], 1)):
        nxt, next_zig = hexgrid.step(front, heading, zig)
        column = hexgrid.column_of(nxt)
        if hexgrid.altitude_of(nxt) <= 0:
            front, zig = nxt, next_zig
            break
        if column < 0 or column >= config.columns:
            plane["front"], plane["zig"] = list(front), zig
            leave_map(state, player, "left" if column < 0 else "right", config)
            return
        if nxt[1] >= config.rows:
            plane["speed"] = 0
            state["events"].append(f"{state['players'][player]} stalls at the top of the map")
            break
        front, zig = nxt, next_zig
    plane["front"], plane["zig"] = list(front), zig


def leave_map(state: State, player: int, edge: str, config: Config) -> None:
    """The plane flew off a side edge: take it off and note where and how it comes back."""
    plane = state["planes"][player]
    name = state["players"][player]
    if config.damage_on_leaving:
        add_hits(plane, 1, config)
    enter = edge if config.world_not_round else ("right" if edge == "left" else "left")
    altitude = hexgrid.altitude_of(front_of(plane)) if config.constant_altitude else None
    plane["respawn"] = {"edge": enter, "altitude": altitude}
    plane["front"] = None
    plane["status"] = "off_board" if config.delayed_respawn else "respawning"
    state["events"].append(f"{name} leaves the map over the {edge} edge")
    if not config.delayed_respawn:
        queue_respawn(state, player, config)


def queue_respawn(state: State, player: int, config: Config) -> None:
    """Queue what a respawn needs: a new special (optional rule), then the altitude roll."""
    state["planes"][player]["status"] = "respawning"
    if config.redraw_special:
        discard_special(state, state["planes"][player])
        state["queue"].append({"task": "draw_special", "player": player})
    state["queue"].append({"task": "respawn_roll", "player": player})


def respawn(state: State, player: int, altitude: int, config: Config) -> None:
    plane = state["planes"][player]
    edge = plane["respawn"]["edge"]
    place_on_edge(plane, edge, altitude, config)
    state["events"].append(
        f"{state['players'][player]} re-enters at the {edge} edge, altitude {altitude}"
    )


def crashed(plane: Plane) -> bool:
    """Nose or tail at or below the ground line."""
    front = front_of(plane)
    return any(hexgrid.altitude_of(h) <= 0 for h in hexgrid.body(front, plane["heading"]))


def reveal_and_move(state: State, config: Config) -> None:
    """The whole of phase 2, up to the respawn rolls it queues."""
    reveal(state)
    waiting = [i for i, p in enumerate(state["planes"]) if p["status"] == "off_board"]
    movers = [i for i, p in enumerate(state["planes"]) if p["status"] == "flying"]
    for player in waiting:
        # Delayed respawn: back on this movement phase, without moving.
        queue_respawn(state, player, config)
    for player in movers:
        change_orientation(state["planes"][player], config)
    for player in movers:
        move(state, player, config)
    for player in movers:
        plane = state["planes"][player]
        if plane["status"] == "flying" and crashed(plane):
            eliminate(state, player, "crashed")
