"""A turn: up to three darts at the map, then the moves they allow.

How darts become moves: every dart that sticks in a territory is recorded as a *hit*. Once the
darts are over (three thrown, or the player stops), the player spends hits one at a time: a
hit on zone Z moves one of his magnets from a zone bordering Z into Z (``{"type": "move",
"from": F, "to": Z}``). Hits need not be spent, except that a hit on a zone held by an enemy
must carry an attack while some magnet can still make it (``forced-attack``); the lone magnet
on its owner's homeland is never forced out (last stronghold). A magnet already standing
beside enemies in Z attacks them in place with ``"from": Z``.

Per-turn locks: a magnet that won an extra magnet, the extra magnet itself, and a magnet that
attacked cannot move again this turn; a magnet that moved to a known country or to water may
move again with another hit.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from boards.model import Board
from rules.base import Action, ActionFormatError, RulesError, State, require
from rules.dartwars import combat
from rules.dartwars.homelands import check_conquest
from rules.dartwars.mapinfo import MapInfo
from rules.dartwars.state import (
    add_magnet,
    allied,
    count_own,
    event,
    fast_copy,
    name,
)
from rules.dartwars.throws import read_map_dart


# --- darts ------------------------------------------------------------------------------
def apply_dart(
    board: Board, info: MapInfo, state: State, action: Action, options: Mapping[str, Any]
) -> None:
    turn = state["turn"]
    if action["type"] == "stop":
        event(state, "stop", f"{name(state, turn['player'])} stops throwing")
        begin_moves(info, state, options)
        return
    if action["type"] == "dart_fell":
        remove_fallen(state, action)
        return
    hit = read_map_dart(board, info, state, turn["player"], action)
    if hit.asked or hit.again:
        return
    turn["thrown"] += 1
    if hit.zone is not None:
        turn["hits"].append(hit.zone)
        turn["used"].append(False)
    if turn["thrown"] >= options["darts_per_turn"]:
        begin_moves(info, state, options)


def remove_fallen(state: State, action: Action) -> None:
    """A recorded dart fell off before the end of the throws (knocked out by a later dart):
    only darts still stuck count, so its hit is struck off."""
    turn = state["turn"]
    index = require(action, "dart", int)
    if turn["stage"] == "moves" and any(turn["used"]):
        raise RulesError("dart-fell", "a dart can only be struck off before any move is made")
    if not 0 <= index < len(turn["hits"]):
        raise ActionFormatError(
            "dart", f"no recorded hit number {index} (0..{len(turn['hits']) - 1})"
        )
    del turn["hits"][index]
    del turn["used"][index]


def begin_moves(info: MapInfo, state: State, options: Mapping[str, Any]) -> None:
    state["turn"]["stage"] = "moves"
    settle_moves(info, state, options)


def settle_moves(info: MapInfo, state: State, options: Mapping[str, Any]) -> None:
    """Go on to the combats by itself once no hit can be spent any more."""
    if state["turn"]["stage"] == "moves" and next(legal_moves(info, state, options), None) is None:
        combat.begin(state, options)


# --- moves ------------------------------------------------------------------------------
def unused_hits(turn: Mapping[str, Any]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for zone, used in zip(turn["hits"], turn["used"], strict=True):
        if not used:
            counts[zone] = counts.get(zone, 0) + 1
    return counts


def movable(state: State, player: int) -> dict[str, str]:
    """Zone -> a magnet of ``player`` there that may still move this turn (lowest id)."""
    locked = state["turn"]["locked"]
    found: dict[str, str] = {}
    for magnet_id, (owner, zone) in state["magnets"].items():
        if owner == player and magnet_id not in locked and zone not in found:
            found[zone] = magnet_id
    return found


def committed(turn: Mapping[str, Any], zone: str) -> int:
    return sum(1 for _m, z in turn["attacks"] if z == zone)


def enemy_count(state: State, player: int, zone: str) -> int:
    return sum(
        1
        for owner, where in state["magnets"].values()
        if where == zone and not allied(state, player, owner)
    )


def is_last_stronghold(state: State, player: int, zone: str) -> bool:
    return zone == state["homelands"][player] and count_own(state, player, zone) == 1


def legal_moves(info: MapInfo, state: State, options: Mapping[str, Any]) -> Iterator[Action]:
    """Every move the player may make now (moves that would dodge an owed attack excluded)."""
    owed: list[str] | None = None
    for move in _candidate_moves(info, state, options):
        if not move.get("attack"):
            if owed is None:
                owed = owed_attacks(info, state, options)
            if owed and dropped_duties(info, state, move, owed, options):
                continue
        yield move


def _candidate_moves(info: MapInfo, state: State, options: Mapping[str, Any]) -> Iterator[Action]:
    turn = state["turn"]
    player = turn["player"]
    hits = unused_hits(turn)
    if not hits:
        return
    sources = movable(state, player)
    if not sources:
        return
    home = state["homelands"][player]
    for zone in sorted(hits):
        enemies = enemy_count(state, player, zone)
        home_full = zone == home and count_own(state, player, zone) >= options["homeland_limit"]
        froms = sorted(f for f in sources if f in info.neighbours[zone])
        if enemies and zone in sources:
            froms.append(zone)
        for origin in froms:
            if origin != zone and home_full:
                continue
            if not enemies:
                yield {"type": "move", "player": player, "from": origin, "to": zone}
                continue
            yield {"type": "move", "player": player, "from": origin, "to": zone, "attack": True}
            if origin != zone and committed(turn, zone) >= enemies:
                yield {
                    "type": "move",
                    "player": player,
                    "from": origin,
                    "to": zone,
                    "attack": False,
                }


def owed_attacks(info: MapInfo, state: State, options: Mapping[str, Any]) -> list[str]:
    """Zones where an unused hit on an enemy must still become an attack."""
    player = state["turn"]["player"]
    owed = set()
    for move in _candidate_moves(info, state, options):
        if move.get("attack") and not is_last_stronghold(state, player, move["from"]):
            owed.add(move["to"])
    return sorted(owed)


def dropped_duties(
    info: MapInfo, state: State, move: Action, owed: list[str], options: Mapping[str, Any]
) -> list[str]:
    """Owed attacks that a non-attacking ``move`` would make impossible (e.g. by walking the
    only magnet that could attack away, or by letting it win an extra magnet). Spending a
    second dart on the attacked zone by passing through it is allowed by the book."""
    trial = fast_copy(state)
    trial["events"] = []
    _perform(info, trial, move["from"], move["to"], False, options)
    if trial["phase"] != "play":
        return []
    player = state["turn"]["player"]
    still = set(owed_attacks(info, trial, options))
    hits = unused_hits(trial["turn"])
    return [
        zone
        for zone in owed
        if zone != move["to"]
        and zone not in still
        and hits.get(zone)
        and enemy_count(trial, player, zone)
    ]


def _zone_field(info: MapInfo, action: Action, field: str) -> str:
    zone = require(action, field, str)
    if zone not in info.kinds:
        raise RulesError(
            "unknown-zone", f'board {info.board_id!r} has no zone {zone!r} ("{field}")'
        )
    if not info.is_territory(zone):
        raise RulesError("territory-only", f"{zone!r} is not a land, island or water zone")
    return zone


def apply_move(info: MapInfo, state: State, action: Action, options: Mapping[str, Any]) -> None:
    turn = state["turn"]
    player = turn["player"]
    origin = _zone_field(info, action, "from")
    dest = _zone_field(info, action, "to")
    attack_field = action.get("attack")
    if attack_field is not None and not isinstance(attack_field, bool):
        raise ActionFormatError("attack", 'field "attack" must be true or false')
    if unused_hits(turn).get(dest, 0) == 0:
        raise RulesError(
            "move-needs-hit", f"no unused dart in {dest}: a magnet moves only to a hit zone"
        )
    enemies = enemy_count(state, player, dest)
    if origin == dest:
        if not enemies:
            raise RulesError(
                "adjacent-only", f"a magnet already in {dest} has no enemy there to attack"
            )
    elif dest not in info.neighbours[origin]:
        raise RulesError(
            "adjacent-only", f"{origin} does not border {dest} (no border or sea link)"
        )
    magnet = movable(state, player).get(origin)
    if magnet is None:
        raise RulesError(
            "no-movable-magnet",
            f"{name(state, player)} has no magnet in {origin} that may still move this turn "
            "(a magnet that won an extra magnet, a new magnet and an attacker stay put)",
        )
    if (
        origin != dest
        and dest == state["homelands"][player]
        and count_own(state, player, dest) >= options["homeland_limit"]
    ):
        raise RulesError(
            "homeland-limit",
            f"at most {options['homeland_limit']} of your own magnets may stand on your homeland",
        )
    attack = bool(enemies) and attack_field is not False
    if enemies and not attack and committed(turn, dest) < enemies:
        raise RulesError(
            "must-fight-each",
            f"{dest} holds {enemies} enemy magnet(s) and only {committed(turn, dest)} of yours "
            "attack there: this magnet must attack too",
        )
    if attack_field and not enemies:
        raise RulesError("attack-needs-enemy", f"there is no enemy in {dest} to attack")
    owed = [] if attack else owed_attacks(info, state, options)
    dodged = dropped_duties(info, state, action, owed, options) if owed else []
    if dodged:
        raise RulesError(
            "forced-attack",
            f"this move would leave the dart in enemy-held {', '.join(dodged)} without the "
            "attack it owes: attack there first",
        )
    _perform(info, state, origin, dest, attack, options)
    if state["phase"] == "play":
        settle_moves(info, state, options)


def _perform(
    info: MapInfo, state: State, origin: str, dest: str, attack: bool, options: Mapping[str, Any]
) -> None:
    """Carry out a checked move: spend the hit, move the magnet, attack or win a magnet."""
    turn = state["turn"]
    player = turn["player"]
    magnet = movable(state, player)[origin]
    enemies = enemy_count(state, player, dest)
    turn["used"][_first_unused(turn, dest)] = True
    state["magnets"][magnet][1] = dest
    if attack:
        turn["locked"][magnet] = "attacked"
        turn["attacks"].append([magnet, dest])
        event(state, "attack", f"{name(state, player)} attacks {dest} from {origin}", zone=dest)
    elif not enemies and info.is_country(dest) and dest not in state["visited"]:
        _extra_magnet(state, player, magnet, dest)
    check_conquest(state, dest, player, options)


def _first_unused(turn: Mapping[str, Any], zone: str) -> int:
    for index, (hit, used) in enumerate(zip(turn["hits"], turn["used"], strict=True)):
        if hit == zone and not used:
            return index
    raise AssertionError("no unused hit")  # checked by the caller


def _extra_magnet(state: State, player: int, magnet: str, zone: str) -> None:
    """First visit of a country: one more magnet from the supply (if any is left)."""
    if state["supply"][player] <= 0:
        event(state, "no_supply", f"{name(state, player)} has no magnet left to win in {zone}")
        return
    state["visited"][zone] = player
    new = add_magnet(state, player, zone)
    state["turn"]["locked"][magnet] = "bonus"
    state["turn"]["locked"][new] = "new"
    event(
        state, "extra_magnet", f"{name(state, player)} discovers {zone}: one more magnet", zone=zone
    )


def apply_end_moves(info: MapInfo, state: State, options: Mapping[str, Any]) -> None:
    owed = owed_attacks(info, state, options)
    if owed:
        raise RulesError(
            "forced-attack",
            f"a dart in enemy-held {', '.join(owed)} must be used to attack while one of your "
            "magnets can reach it",
        )
    combat.begin(state, options)
