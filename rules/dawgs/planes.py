"""A plane in the state: its fields, where it is, and the changes every phase shares.

A plane is a plain dict (see ``new_plane``). ``front`` is the nose hex in doubled
coordinates (``rules.dawgs.hexgrid``), ``heading`` one of the 12 directions; the tail hex
is derived from them. These helpers mutate the working copy ``apply`` made.
"""

from __future__ import annotations

from typing import Any

from rules.dawgs import hexgrid
from rules.dawgs.config import Config

Plane = dict[str, Any]

#: Not yet placed (setup), on the map, left the map and waiting for its respawn roll this
#: phase, removed until the next movement phase (delayed respawn), out of the game.
STATUSES = ("waiting", "flying", "respawning", "off_board", "eliminated")
#: Planes still in the game (they count for victory).
IN_GAME = ("waiting", "flying", "respawning", "off_board")


def new_plane(start_speed: int) -> Plane:
    return {
        "status": "waiting",
        "side": None,
        "front": None,
        "heading": hexgrid.RIGHT,
        "zig": 0,
        "speed": start_speed,
        "damage": None,
        "special": None,
        "in_play": None,
        "chosen": None,
        "revealed": None,
        "fire_bonus": 0,
        "cf_on": None,
        "respawn": None,
        "fate": None,
    }


def front_of(plane: Plane) -> hexgrid.Hex:
    x, y = plane["front"]
    return (x, y)


def body_of(plane: Plane) -> tuple[hexgrid.Hex, hexgrid.Hex]:
    return hexgrid.body(front_of(plane), plane["heading"])


def flying(state: dict[str, Any]) -> list[int]:
    return [i for i, p in enumerate(state["planes"]) if p["status"] == "flying"]


def enemies(state: dict[str, Any], player: int) -> list[int]:
    """Planes on the map that belong to another team."""
    team = state["teams"][player]
    return [i for i in flying(state) if state["teams"][i] != team]


def targets_in_cone(state: dict[str, Any], player: int, config: Config) -> list[int]:
    """Enemy planes with any part (nose or tail) inside ``player``'s cone of fire."""
    shooter = state["planes"][player]
    front, heading = front_of(shooter), shooter["heading"]
    return [
        i
        for i in enemies(state, player)
        if any(
            hexgrid.in_cone(front, heading, h, config.fire_range)
            for h in body_of(state["planes"][i])
        )
    ]


def place_on_edge(plane: Plane, edge: str, altitude: int, config: Config) -> None:
    """Put a plane at the side ``edge`` at ``altitude``, level, facing across the map.

    The tail sits in the outermost column and the nose one column in, as at setup.
    """
    row = altitude - 1
    if edge == "left":
        front, heading = hexgrid.from_column(1, row), hexgrid.RIGHT
    else:
        front, heading = hexgrid.from_column(config.columns - 2, row), hexgrid.LEFT
    plane.update(
        status="flying",
        front=list(front),
        heading=heading,
        zig=0,
        speed=config.start_speed,
        respawn=None,
    )


def add_hits(plane: Plane, hits: int, config: Config) -> None:
    """Move the damage token: the first hit puts it on the rightmost track space, each
    further hit one space left; it stays on the leftmost space once there."""
    for _ in range(hits):
        if plane["damage"] is None:
            plane["damage"] = config.max_speed
        else:
            plane["damage"] = max(0, plane["damage"] - 1)


def discard_special(state: dict[str, Any], plane: Plane) -> None:
    for slot in ("special", "in_play"):
        if plane[slot] is not None:
            state["discard"].append(plane[slot])
            plane[slot] = None


def eliminate(state: dict[str, Any], player: int, fate: str) -> None:
    """Remove a plane from the game (crash or breakup) and tidy what pointed at it."""
    plane = state["planes"][player]
    discard_special(state, plane)
    plane.update(
        status="eliminated",
        fate=fate,
        front=None,
        chosen=None,
        cf_on=None,
        respawn=None,
        fire_bonus=0,
    )
    for other in state["planes"]:
        if other["cf_on"] == player:
            other["cf_on"] = None
    state["queue"] = [task for task in state["queue"] if task["player"] != player]
    state["events"].append(f"{state['players'][player]} {fate}")
