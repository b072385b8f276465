"""Random legal play that ends: the computer player of self-play, property tests and the demo.

Uniformly random darts would wander for ever on a world map, so the random player leans
towards progress: most of its darts land next to its own magnets, on the way to the nearest
enemy homeland, and it prefers moves that attack or close in. Every action it picks is one of
``legal_actions`` (or one of the same representative darts), so the games stay legal; only
the odds are tilted.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

from rules.base import Action, State
from rules.darts import dart_in_zone
from rules.dartwars import combat
from rules.dartwars.mapinfo import MapInfo
from rules.dartwars.state import allied

if TYPE_CHECKING:
    from rules.dartwars.engine import DartWars

#: Fractions of the target radius of the representative combat darts (1.3: off the target).
TARGET_FRACTIONS = (0.05, 0.3, 0.55, 0.8, 0.98, 1.3)


def target_darts(info: MapInfo) -> tuple[Action, ...]:
    """Representative darts at the target: one per distance band, and one just outside."""
    cx, cy = info.target_center or (0.0, 0.0)
    darts = []
    for index, fraction in enumerate(TARGET_FRACTIONS):
        angle = index * 2.1
        r = fraction * info.target_radius
        darts.append(
            {
                "type": "dart",
                "zone": info.target_zone if fraction <= 1 else None,
                "candidates": [],
                "on_line": False,
                "subzones": [],
                "x_mm": round(cx + r * math.cos(angle), 2),
                "y_mm": round(cy + r * math.sin(angle), 2),
                "sigma_mm": 0.0,
            }
        )
    return tuple(darts)


def _target_throw(game: DartWars, player: int, rng: random.Random) -> Action:
    roll = rng.random()
    if roll < 0.05:
        return {"type": "miss", "player": player}
    if roll < 0.08:
        return {
            "type": "bounceout",
            "player": player,
            "cause": rng.choice(("magnet", "other", None)),
        }
    if roll < 0.2:
        return {**rng.choice(game._combat_darts), "player": player}
    # A dart anywhere on a disc a little wider than the target: ties almost never happen.
    cx, cy = game.info.target_center
    r = game.info.target_radius * 1.15 * math.sqrt(rng.random())
    angle = rng.random() * math.tau
    inside = r <= game.info.target_radius
    return {
        "type": "dart",
        "player": player,
        "zone": game.info.target_zone if inside else None,
        "candidates": [],
        "on_line": False,
        "subzones": [],
        "x_mm": round(cx + r * math.cos(angle), 2),
        "y_mm": round(cy + r * math.sin(angle), 2),
        "sigma_mm": 0.0,
    }


def _goal_distance(game: DartWars, state: State, player: int):
    """A function zone -> moves to the nearest enemy homeland (None when there is none)."""
    info = game.info
    own = [z for o, z in state["magnets"].values() if o == player]
    goals = [
        home
        for p, home in enumerate(state["homelands"])
        if home is not None and not allied(state, player, p)
    ]
    if not own or not goals:
        return None
    best = min(goals, key=lambda g: min(info.distances_from(g).get(z, 10**6) for z in own))
    table = info.distances_from(best)
    return lambda zone: table.get(zone, 10**6)


def _map_dart(game: DartWars, state: State, rng: random.Random) -> Action:
    turn = state["turn"]
    player = turn["player"]
    roll = rng.random()
    own = sorted({z for o, z in state["magnets"].values() if o == player})
    if not own or (roll < 0.05 and turn["thrown"] > 0):
        return {"type": "stop", "player": player}
    if roll < 0.08:
        return {"type": "miss", "player": player}
    if roll < 0.1:
        return {
            "type": "bounceout",
            "player": player,
            "cause": rng.choice(("magnet", "dart", None)),
        }
    if roll < 0.12:
        return dart_in_zone(player, rng.choice(list(game.info.kinds)))
    near = sorted({n for z in own for n in game.info.neighbours[z]} | set(own))
    distance = _goal_distance(game, state, player)
    if distance is not None and rng.random() < 0.75:
        best = min(distance(z) for z in near)
        near = [z for z in near if distance(z) == best]
    return dart_in_zone(player, rng.choice(near))


def _move(game: DartWars, state: State, rng: random.Random) -> Action:
    player = state["turn"]["player"]
    options = list(game._move_options(state))
    distance = _goal_distance(game, state, player)
    weights = []
    for action in options:
        if action["type"] != "move":
            weights.append(1.0)
        elif action.get("attack"):
            weights.append(6.0)
        elif distance is not None and distance(action["to"]) < distance(action["from"]):
            weights.append(4.0)
        else:
            weights.append(1.5)
    return rng.choices(options, weights)[0]


def random_action(game: DartWars, state: State, rng: random.Random) -> Action:
    if state["pending"] is not None:
        return rng.choice(list(game._answers(state)))
    phase = state["phase"]
    player = game.whose_move(state)
    if phase == "order":
        return _target_throw(game, player, rng)
    if phase == "homeland":
        roll = rng.random()
        free = game.prompt(state).data["free_homelands"]
        if roll < 0.8 and free:
            return dart_in_zone(player, rng.choice(free))
        return rng.choice(list(game._map_throws(player)))
    stage = state["turn"]["stage"]
    if stage == "darts":
        return _map_dart(game, state, rng)
    if stage == "moves":
        return _move(game, state, rng)
    if combat.step(state)[0] == "combat_throw":
        return _target_throw(game, player, rng)
    return rng.choice(list(game._answers(state)))
