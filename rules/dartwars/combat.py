"""Combats, fought after the moves: one attacking magnet against one defending magnet.

Order: the attacker picks which of his attacks is fought next (``next_attack``). Defender:
among the enemy magnets in the zone that have not fought yet this turn (all of them if each
has), the attacker picks the camp he fights (``choose_target``) and, when that camp has
magnets of several colours there (a master and his slaves), its master picks the colour
that defends (``choose_defender``). The attacker says who throws first (``first_thrower``);
each side throws one dart at the target; the closer to the centre wins. Both darts farthest
(outside, no position, bounced) or an exact tie: both throw again.

Result: in the homeland of either fighter the loser's magnet is taken off the map; elsewhere it
changes colour (it goes back to its box and the winner puts one of his own from his supply in
its place). With the winner's supply empty, the loser's magnet is taken off all the same and
nothing replaces it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boards.model import Board
from rules.base import Action, RulesError, State, require
from rules.dartwars.flow import end_turn
from rules.dartwars.homelands import check_conquest
from rules.dartwars.mapinfo import MapInfo
from rules.dartwars.state import add_magnet, allied, event, name, take_off, top_master
from rules.dartwars.throws import distance_json, distance_value, read_target_dart


def begin(state: State, options: Mapping[str, Any]) -> None:
    state["turn"]["stage"] = "combat"
    settle(state, options)


def _enemies(state: State, player: int, zone: str) -> list[tuple[str, int]]:
    return [
        (m, o)
        for m, (o, where) in state["magnets"].items()
        if where == zone and not allied(state, player, o)
    ]


def candidates(state: State) -> list[tuple[str, int]]:
    """Enemy magnets the current attack may face: those that have not fought this turn."""
    turn = state["turn"]
    enemies = _enemies(state, turn["player"], turn["combat"]["zone"])
    fresh = [(m, o) for m, o in enemies if m not in turn["fought"]]
    return fresh or enemies


def camps_to_fight(state: State) -> list[int]:
    return sorted({top_master(state, o) for _m, o in candidates(state)})


def defenders_in_camp(state: State) -> list[int]:
    chosen = state["turn"]["combat"]["camp"]
    return sorted({o for _m, o in candidates(state) if top_master(state, o) == chosen})


def step(state: State) -> tuple[str, int]:
    """(prompt kind, player) the combat stage waits for."""
    turn = state["turn"]
    combat = turn["combat"]
    if combat is None:
        return "order_attacks", turn["player"]
    if combat["defender"] is None:
        if combat["camp"] is None:
            return "choose_target", turn["player"]
        return "choose_defender", combat["camp"]
    if combat["first"] is None:
        return "who_throws_first", turn["player"]
    return "combat_throw", combat["throwers"][len(combat["throws"])]


def _prune(state: State) -> None:
    turn = state["turn"]
    player = turn["player"]
    turn["attacks"] = [
        [m, z]
        for m, z in turn["attacks"]
        if m in state["magnets"] and state["magnets"][m][1] == z and _enemies(state, player, z)
    ]


def settle(state: State, options: Mapping[str, Any]) -> None:
    """Take every step that needs nobody's decision; stop at the next question."""
    while state["phase"] == "play":
        turn = state["turn"]
        if turn["combat"] is None:
            _prune(state)
            if not turn["attacks"]:
                end_turn(state, options)
                return
            if len(turn["attacks"]) > 1:
                return
            _start(state, 0)
        combat = turn["combat"]
        if combat["defender"] is None:
            if not candidates(state):
                turn["combat"] = None
                continue
            if combat["camp"] is None:
                camps = camps_to_fight(state)
                if len(camps) > 1:
                    return
                combat["camp"] = camps[0]
            owners = defenders_in_camp(state)
            if len(owners) > 1:
                return
            _set_defender(state, owners[0])
        return


def _start(state: State, index: int) -> None:
    turn = state["turn"]
    magnet, zone = turn["attacks"].pop(index)
    turn["combat"] = {
        "magnet": magnet,
        "zone": zone,
        "camp": None,
        "defender": None,
        "defender_player": None,
        "first": None,
        "throwers": [],
        "throws": [],
    }


def _set_defender(state: State, owner: int) -> None:
    combat = state["turn"]["combat"]
    combat["defender"] = min((m for m, o in candidates(state) if o == owner), key=int)
    combat["defender_player"] = owner


def _choice(action: Action, field: str, allowed: list[int], rule: str, what: str) -> int:
    value = require(action, field, int)
    if value not in allowed:
        raise RulesError(rule, f"{what} must be one of {allowed}, not {value}")
    return value


def apply_combat_action(
    board: Board, info: MapInfo, state: State, action: Action, options: Mapping[str, Any]
) -> None:
    kind, _player = step(state)
    turn = state["turn"]
    combat = turn["combat"]
    expected = {
        "order_attacks": "next_attack",
        "choose_target": "choose_target",
        "choose_defender": "choose_defender",
        "who_throws_first": "first_thrower",
    }.get(kind)
    if expected is not None and action["type"] != expected:
        raise RulesError(
            "combat-step", f'the combat waits for "{expected}", not "{action["type"]}"'
        )
    if kind == "order_attacks":
        index = _choice(
            action, "attack", list(range(len(turn["attacks"]))), "attack-order", "the attack"
        )
        _start(state, index)
    elif kind == "choose_target":
        combat["camp"] = _choice(action, "camp", camps_to_fight(state), "choose-target", "camp")
    elif kind == "choose_defender":
        owner = _choice(action, "defender", defenders_in_camp(state), "master-decides", "defender")
        _set_defender(state, owner)
    elif kind == "who_throws_first":
        fighters = [turn["player"], combat["defender_player"]]
        first = _choice(action, "thrower", fighters, "attacker-chooses-first", "first thrower")
        combat["first"] = first
        combat["throwers"] = [first, fighters[1] if first == fighters[0] else fighters[0]]
    else:
        _throw(board, info, state, action, options)
        return
    settle(state, options)


def _throw(
    board: Board, info: MapInfo, state: State, action: Action, options: Mapping[str, Any]
) -> None:
    combat = state["turn"]["combat"]
    thrower = combat["throwers"][len(combat["throws"])]
    hit = read_target_dart(board, info, state, thrower, action)
    if hit.asked or hit.again:
        return
    combat["throws"].append(distance_json(hit.distance))
    if len(combat["throws"]) < 2:
        return
    by_player = dict(zip(combat["throwers"], map(distance_value, combat["throws"]), strict=True))
    attacker = state["turn"]["player"]
    defender = combat["defender_player"]
    if by_player[attacker] == by_player[defender]:
        combat["throws"] = []
        event(state, "combat_again", "both darts equally far (or both off the target): again")
        return
    attacker_won = by_player[attacker] < by_player[defender]
    _resolve(state, attacker_won, options)
    settle(state, options)


def _resolve(state: State, attacker_won: bool, options: Mapping[str, Any]) -> None:
    turn = state["turn"]
    combat = turn["combat"]
    attacker, defender = turn["player"], combat["defender_player"]
    zone = combat["zone"]
    winner, loser = (attacker, defender) if attacker_won else (defender, attacker)
    loser_magnet = combat["defender"] if attacker_won else combat["magnet"]
    to_the_death = zone in (state["homelands"][attacker], state["homelands"][defender])
    take_off(state, loser_magnet, options["lost_magnets_return"])
    if to_the_death:
        outcome = "removed"
    elif state["supply"][winner] > 0:
        turned = add_magnet(state, winner, zone)
        outcome = "turned"
        if not attacker_won:  # the turned magnet has fought this turn, like its new comrade
            turn["fought"].append(turned)
    else:
        outcome = "removed_no_supply"
    if not attacker_won:
        turn["fought"].append(combat["defender"])
    event(
        state,
        "combat",
        f"{name(state, winner)} beats {name(state, loser)} in {zone}"
        + (" (no surrender in a homeland: removed)" if to_the_death else ""),
        zone=zone,
        winner=winner,
        loser=loser,
        result=outcome,
        throws=dict(zip(map(str, combat["throwers"]), combat["throws"], strict=True)),
    )
    turn["combat"] = None
    check_conquest(state, zone, winner, options)
