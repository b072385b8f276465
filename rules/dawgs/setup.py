"""Setup: sides (team choice or a parity roll), starting altitudes, special cards."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from rules.base import RulesError
from rules.dawgs import data
from rules.dawgs.config import Config
from rules.dawgs.planes import new_plane, place_on_edge

State = dict[str, Any]
SIDES = ("left", "right")


def resolve_teams(config: Config, count: int) -> list[Any]:
    """One team label per seat; free-for-all gives everyone a team of their own."""
    if config.teams is None:
        return list(range(count))
    teams = list(config.teams)
    if len(teams) != count:
        raise RulesError(
            "options", f"option teams lists {len(teams)} seats but the game has {count} players"
        )
    if len(set(teams)) < 2:
        raise RulesError("options", "option teams needs at least two different teams")
    for label in set(teams):
        if teams.count(label) > data.START_ALTITUDES:
            raise RulesError(
                "options",
                f"team {label!r} has {teams.count(label)} planes; a map side holds at most "
                f"{data.START_ALTITUDES} (one per starting altitude)",
            )
    return teams


def team_order(teams: list[Any]) -> list[Any]:
    """Teams in the order of their first seat (that seat chooses the side)."""
    order: list[Any] = []
    for label in teams:
        if label not in order:
            order.append(label)
    return order


def initial_queue(teams: list[Any], free_for_all: bool) -> list[dict[str, Any]]:
    queue: list[dict[str, Any]] = []
    if free_for_all:
        for seat in range(len(teams)):
            queue.append({"task": "side_roll", "player": seat})
            queue.append({"task": "altitude_roll", "player": seat})
    else:
        for label in team_order(teams):
            queue.append({"task": "choose_side", "player": teams.index(label), "team": label})
        queue.extend({"task": "altitude_roll", "player": seat} for seat in range(len(teams)))
    queue.extend({"task": "draw_special", "player": seat} for seat in range(len(teams)))
    return queue


def new_game_state(players: list[str], config: Config) -> State:
    teams = resolve_teams(config, len(players))
    return {
        "game": "dawgs",
        "players": list(players),
        "teams": teams,
        "map": {"columns": config.columns, "rows": config.rows},
        "round": 1,
        "turn_number": 1,
        "phase": "setup",
        "queue": initial_queue(teams, config.teams is None),
        "planes": [new_plane(config.start_speed) for _ in players],
        "deck": config.special_deck(),
        "discard": [],
        "events": [],
        "outcome": None,
    }


def side_counts(state: State) -> dict[str, int]:
    counts = dict.fromkeys(SIDES, 0)
    for plane in state["planes"]:
        if plane["side"] in counts:
            counts[plane["side"]] += 1
    return counts


def side_fits(state: State, team: Any, side: str) -> bool:
    """A team may take a side if it fits there and the teams still to choose fit too."""
    counts = side_counts(state)
    teams = state["teams"]
    size = teams.count(team)
    room = {s: data.START_ALTITUDES - counts[s] for s in SIDES}
    if size > room[side]:
        return False
    room[side] -= size
    unplaced = [
        teams.count(label)
        for label in team_order(teams)
        if label != team and state["planes"][teams.index(label)]["side"] is None
    ]
    # Some split of the remaining teams between the two sides must fit (at most 7 teams).
    for k in range(len(unplaced) + 1):
        for left in combinations(range(len(unplaced)), k):
            on_left = sum(unplaced[i] for i in left)
            if on_left <= room["left"] and sum(unplaced) - on_left <= room["right"]:
                return True
    return False


def choose_side(state: State, team: Any, side: str) -> None:
    for seat, label in enumerate(state["teams"]):
        if label == team:
            state["planes"][seat]["side"] = side
    state["events"].append(f"team of {state['players'][state['teams'].index(team)]} takes {side}")


def side_from_roll(state: State, player: int, roll: int) -> None:
    """Even: right side, odd: left side; a full side sends the plane to the other one."""
    side = "right" if roll % 2 == 0 else "left"
    if side_counts(state)[side] >= data.START_ALTITUDES:
        side = "left" if side == "right" else "right"
    state["planes"][player]["side"] = side
    state["events"].append(f"{state['players'][player]} rolls {roll}: starts on the {side}")


def altitude_taken(state: State, player: int, altitude: int) -> bool:
    side = state["planes"][player]["side"]
    return any(
        other["side"] == side and other["front"] is not None and other["front"][1] + 1 == altitude
        for i, other in enumerate(state["planes"])
        if i != player
    )


def place_from_roll(state: State, player: int, roll: int, config: Config) -> bool:
    """Place the plane at altitude ``roll`` on its side; False (reroll) if that spot is taken."""
    name = state["players"][player]
    if altitude_taken(state, player, roll):
        state["events"].append(f"{name} rolls {roll}: that spot is taken, roll again")
        return False
    plane = state["planes"][player]
    place_on_edge(plane, plane["side"], roll, config)
    state["events"].append(f"{name} starts at altitude {roll} on the {plane['side']}")
    return True


def refill_deck(state: State) -> None:
    """An empty special deck is rebuilt from the discards."""
    if not state["deck"] and state["discard"]:
        state["deck"] = sorted(state["discard"])
        state["discard"] = []


def draw(state: State, player: int, index: int) -> None:
    card = state["deck"].pop(index)
    state["planes"][player]["special"] = card
    state["events"].append(f"{state['players'][player]} draws a special ability card")
