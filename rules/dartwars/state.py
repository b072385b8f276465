"""The Dart Wars state (a plain JSON dict) and small queries on it.

Layout::

    {"game": "dartwars", "board": board id, "players": [names], "colours": [names],
     "phase": "order" | "homeland" | "play" | "over", "turn_number": int,
     "order": {"contenders": [p], "throws": [mm | null]}      # null: farthest (no position,
                                                               # outside the target, bounced)
     "first_player": p | null,
     "homeland_turn": p | null, "failures": [int per player],
     "homelands": [zone | null per player], "play_order": [p in the order homelands came],
     "master": [p | null per player],                          # the player's direct master
     "supply": [int per colour], "removed": [int per colour],  # colour i belongs to player i
     "magnets": {"id": [owner, zone]}, "next_magnet": int,
     "visited": {zone: p | null},                              # null: a homeland at the start
     "turn": null | {"player", "stage": "darts" | "moves" | "combat", "thrown", "hits",
                     "used", "locked": {id: "bonus" | "new" | "attacked"},
                     "attacks": [[id, zone]], "fought": [id], "combat": null | {...}},
     "pending": null | {"kind": "choose_zone" | "bounce_cause", "player", "candidates"},
     "events": [what the last action caused, for the tablet and the log],
     "result": null | Outcome JSON}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rules.base import State

COLOURS = ("red", "blue", "green", "yellow", "black")


def _deep(value: Any) -> Any:
    if type(value) is dict:
        return {k: _deep(v) for k, v in value.items()}
    if type(value) is list:
        return [_deep(v) for v in value]
    return value


def fast_copy(state: State) -> State:
    """A deep copy of a state, written for its known layout (self-play copies one per action,
    and this is several times faster than ``copy.deepcopy`` or a JSON round trip). Unknown
    keys are copied generically."""
    new = {key: _deep(value) for key, value in state.items() if key not in _SHAPED}
    new["magnets"] = {m: list(v) for m, v in state["magnets"].items()}
    new["visited"] = dict(state["visited"])
    for key in _LISTS:
        new[key] = list(state[key])
    order = state["order"]
    new["order"] = {"contenders": list(order["contenders"]), "throws": list(order["throws"])}
    new["events"] = [dict(e) for e in state["events"]]
    turn = state["turn"]
    if turn is not None:
        turn = dict(turn)
        for key in ("hits", "used", "fought"):
            turn[key] = list(turn[key])
        turn["locked"] = dict(turn["locked"])
        turn["attacks"] = [list(a) for a in turn["attacks"]]
        if turn["combat"] is not None:
            combat = dict(turn["combat"])
            combat["throwers"] = list(combat["throwers"])
            combat["throws"] = list(combat["throws"])
            turn["combat"] = combat
    new["turn"] = turn
    return new


_LISTS = (
    "players",
    "colours",
    "failures",
    "homelands",
    "play_order",
    "master",
    "supply",
    "removed",
)
_SHAPED = frozenset((*_LISTS, "magnets", "visited", "order", "events", "turn"))


def initial_state(board_id: str, players: list[str], supply: int) -> State:
    count = len(players)
    return {
        "game": "dartwars",
        "board": board_id,
        "players": list(players),
        "colours": list(COLOURS[:count]),
        "phase": "order",
        "turn_number": 0,
        "order": {"contenders": list(range(count)), "throws": []},
        "first_player": None,
        "homeland_turn": None,
        "failures": [0] * count,
        "homelands": [None] * count,
        "play_order": [],
        "master": [None] * count,
        "supply": [supply] * count,
        "removed": [0] * count,
        "magnets": {},
        "next_magnet": 1,
        "visited": {},
        "turn": None,
        "pending": None,
        "events": [],
        "result": None,
    }


# --- magnets --------------------------------------------------------------------------
def add_magnet(state: State, owner: int, zone: str) -> str:
    """Take a magnet of ``owner``'s colour from the supply and put it on ``zone``."""
    magnet_id = str(state["next_magnet"])
    state["next_magnet"] += 1
    state["magnets"][magnet_id] = [owner, zone]
    state["supply"][owner] -= 1
    return magnet_id


def take_off(state: State, magnet_id: str, returns_to_supply: bool) -> None:
    """Take a magnet off the map: back into its colour's box, or out of the game."""
    owner, _zone = state["magnets"].pop(magnet_id)
    if returns_to_supply:
        state["supply"][owner] += 1
    else:
        state["removed"][owner] += 1


def magnets_in(state: State, zone: str) -> Iterator[tuple[str, int]]:
    for magnet_id, (owner, where) in state["magnets"].items():
        if where == zone:
            yield magnet_id, owner


def count_own(state: State, player: int, zone: str) -> int:
    return sum(1 for owner, where in state["magnets"].values() if owner == player and where == zone)


def magnets_of(state: State, player: int) -> list[str]:
    return [m for m, (owner, _z) in state["magnets"].items() if owner == player]


# --- masters and camps -----------------------------------------------------------------
def top_master(state: State, player: int) -> int:
    """The free player at the top of ``player``'s chain of masters (himself when free)."""
    masters = state["master"]
    seen = 0
    while masters[player] is not None:
        player = masters[player]
        seen += 1
        if seen > len(masters):  # a cycle would be a bug; check_invariants reports it
            break
    return player


def allied(state: State, a: int, b: int) -> bool:
    """Players of one camp (a master, his slaves, their slaves) never fight each other."""
    return a == b or top_master(state, a) == top_master(state, b)


def camp(state: State, player: int) -> list[int]:
    head = top_master(state, player)
    return [p for p in range(len(state["players"])) if top_master(state, p) == head]


def free_players(state: State) -> list[int]:
    return [p for p, m in enumerate(state["master"]) if m is None]


def enemies_in(state: State, player: int, zone: str) -> list[tuple[str, int]]:
    return [(m, o) for m, o in magnets_in(state, zone) if not allied(state, player, o)]


def name(state: State, player: int | None) -> str:
    if player is None:
        return "nobody"
    return str(state["players"][player])


def homeland_owner(state: State, zone: str) -> int | None:
    for player, home in enumerate(state["homelands"]):
        if home == zone:
            return player
    return None


def event(state: State, kind: str, text: str, **data: Any) -> None:
    """Record something the last action caused (a combat result, a conquest...)."""
    state["events"].append({"event": kind, "text": text, **data})


def player_field(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
