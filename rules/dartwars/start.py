"""Starting the game: who goes first (throws at the target), then homelands (darts at the map).

First player: every contender throws one dart at the target; the closest to the centre goes
first. Contenders tied for the best throw throw again; when every dart of a round is farthest
(no position, outside the target, bounced off), the whole round is thrown again.

Homelands: starting with the first player and going round the table, each player still
without a homeland throws one dart at the map. A dart in a free eligible zone makes it his
homeland; anything else (a miss, water, an ineligible or taken zone, a dart that did not
stick) forfeits that throw. Once a player has failed ``stand_in_after`` throws (four), the
next player in seating order throws in his stead on each of his later throws until one hits.
The order of play is the order in which the homelands were obtained; each player then puts
``start_magnets`` (three) magnets of his colour on his homeland.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boards.model import Board
from rules.base import Action, State
from rules.dartwars.mapinfo import MapInfo
from rules.dartwars.state import add_magnet, event, name
from rules.dartwars.throws import distance_json, distance_value, read_map_dart, read_target_dart


# --- first player ------------------------------------------------------------------------
def order_thrower(state: State) -> int:
    order = state["order"]
    return order["contenders"][len(order["throws"])]


def apply_order_throw(board: Board, info: MapInfo, state: State, action: Action) -> None:
    thrower = order_thrower(state)
    hit = read_target_dart(board, info, state, thrower, action)
    if hit.asked or hit.again:
        return
    order = state["order"]
    order["throws"].append(distance_json(hit.distance))
    if len(order["throws"]) < len(order["contenders"]):
        return
    values = [distance_value(v) for v in order["throws"]]
    best = min(values)
    leaders = [p for p, v in zip(order["contenders"], values, strict=True) if v == best]
    throws = dict(zip(map(str, order["contenders"]), order["throws"], strict=True))
    if len(leaders) > 1:
        event(state, "order_tie", "tied for the closest throw: throw again", throws=throws)
        # Ties throw again; a round with every dart farthest is thrown again by everyone.
        state["order"] = {"contenders": leaders, "throws": []}
        return
    first = leaders[0]
    state["first_player"] = first
    state["phase"] = "homeland"
    state["homeland_turn"] = first
    event(state, "first_player", f"{name(state, first)} goes first", throws=throws, player=first)


# --- homelands ---------------------------------------------------------------------------
def homeland_thrower(state: State, options: Mapping[str, Any]) -> int:
    """Who throws for the player whose homeland is sought (a stand-in after four misses)."""
    player = state["homeland_turn"]
    if state["failures"][player] >= options["stand_in_after"]:
        return (player + 1) % len(state["players"])
    return player


def free_homelands(info: MapInfo, state: State, options: Mapping[str, Any]) -> list[str]:
    taken = set(state["homelands"])
    return [z for z in info.eligible_homelands(options["islands_as_homelands"]) if z not in taken]


def apply_homeland_throw(
    board: Board, info: MapInfo, state: State, action: Action, options: Mapping[str, Any]
) -> bool:
    """Handle one homeland throw; returns True when every player has a homeland."""
    player = state["homeland_turn"]
    thrower = homeland_thrower(state, options)
    hit = read_map_dart(board, info, state, thrower, action)
    if hit.asked or hit.again:
        return False
    if hit.zone is not None and hit.zone in free_homelands(info, state, options):
        state["homelands"][player] = hit.zone
        state["play_order"].append(player)
        state["visited"][hit.zone] = None
        for _ in range(options["start_magnets"]):
            add_magnet(state, player, hit.zone)
        event(
            state,
            "homeland",
            f"{name(state, player)} takes {hit.zone} as homeland",
            player=player,
            zone=hit.zone,
        )
    else:
        state["failures"][player] += 1
        event(
            state,
            "homeland_forfeit",
            f"{name(state, thrower)} did not hit a free homeland for {name(state, player)}",
            player=player,
            thrower=thrower,
            zone=hit.zone,
        )
    count = len(state["players"])
    for step in range(1, count + 1):
        candidate = (player + step) % count
        if state["homelands"][candidate] is None:
            state["homeland_turn"] = candidate
            return False
    state["homeland_turn"] = None
    return True
