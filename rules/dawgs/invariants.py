"""What must hold in every Dawgs of War state (self-play and the property tests check it)."""

from __future__ import annotations

from typing import Any

from rules.dawgs import hexgrid
from rules.dawgs.config import Config
from rules.dawgs.planes import IN_GAME, STATUSES, body_of, front_of

State = dict[str, Any]
PHASES = ("setup", "place", "move", "fire", "breakup", "over")


def check(state: State, config: Config) -> list[str]:
    problems: list[str] = []
    phase = state["phase"]
    if phase not in PHASES:
        problems.append(f"unknown phase {phase!r}")
    if (state["outcome"] is None) == (phase == "over"):
        problems.append("outcome must be set exactly when the phase is over")
    if state["turn_number"] != state["round"]:
        problems.append("turn_number must equal the round")
    held: list[str] = []
    for index, plane in enumerate(state["planes"]):
        tag = f"plane {index}"
        if plane["status"] not in STATUSES:
            problems.append(f"{tag} has unknown status {plane['status']!r}")
        on_map = plane["status"] == "flying"
        if on_map != (plane["front"] is not None):
            problems.append(f"{tag}: only a plane on the map has a front hex")
        if on_map:
            front = front_of(plane)
            if not hexgrid.is_hex(front):
                problems.append(f"{tag} front {front} is not a hex")
            column = hexgrid.column_of(front)
            if not 0 <= column < config.columns or not 0 <= front[1] < config.rows:
                problems.append(f"{tag} nose {front} is off the map")
            if any(hexgrid.altitude_of(h) <= 0 for h in body_of(plane)):
                problems.append(f"{tag} is in the ground but not eliminated")
        if not 0 <= plane["heading"] < hexgrid.HEADINGS:
            problems.append(f"{tag} heading {plane['heading']} out of range")
        if not 0 <= plane["speed"] <= config.max_speed:
            problems.append(f"{tag} speed {plane['speed']} off the track")
        if plane["damage"] is not None and not 0 <= plane["damage"] <= config.max_speed:
            problems.append(f"{tag} damage token {plane['damage']} off the track")
        if plane["chosen"] is not None and (phase != "place" or not on_map):
            problems.append(f"{tag} holds hidden cards outside the Place Cards phase")
        if plane["status"] == "eliminated" and (plane["special"] or plane["in_play"]):
            problems.append(f"{tag} is out of the game but still holds a special card")
        if plane["cf_on"] is not None and state["planes"][plane["cf_on"]]["status"] not in IN_GAME:
            problems.append(f"{tag} has a continuous fire token on an eliminated plane")
        held += [card for card in (plane["special"], plane["in_play"]) if card]
    counted = sorted(held + state["deck"] + state["discard"])
    if counted != config.special_deck():
        problems.append("special cards were lost or duplicated")
    for task in state["queue"]:
        if state["planes"][task["player"]]["status"] == "eliminated":
            problems.append(f"task {task['task']} waits on an eliminated plane")
    if phase == "over" and not state["outcome"]["draw"]:
        teams = {state["teams"][i] for i in state["outcome"]["winners"]}
        alive = {state["teams"][i] for i, p in enumerate(state["planes"]) if p["status"] in IN_GAME}
        if len(teams) != 1 or alive != teams:
            problems.append("the winners are not the one team left in the sky")
    return problems
