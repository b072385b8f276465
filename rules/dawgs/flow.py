"""The round: runs the phases that need nobody's input and stops at the next prompt.

Phases in ``state["phase"]``: ``setup``, ``place`` (1: secret cards), ``move`` (2: reveal,
orientation, movement and the respawn rolls it causes), ``fire`` (3), ``breakup`` (5), and
``over``. Adjusting speed (4) and checking for victory (6) need no input, so they happen in
passing between ``fire`` and ``breakup`` and at the end of ``breakup``.

Work that waits for a player sits in ``state["queue"]`` (first task first): side choices,
rolls, special draws, target choices.
"""

from __future__ import annotations

from typing import Any

from rules.dawgs import combat, movement, setup
from rules.dawgs.config import Config
from rules.dawgs.planes import IN_GAME, flying

State = dict[str, Any]
#: Public events kept in the state for the table's log.
EVENT_HISTORY = 40


def undecided(state: State) -> list[int]:
    """Planes on the map whose pilot has not chosen cards yet this round."""
    return [i for i in flying(state) if state["planes"][i]["chosen"] is None]


def _auto_task(state: State, task: dict[str, Any], config: Config) -> bool:
    """Settle a queued task that needs no input; True if it was removed."""
    if task["task"] == "draw_special":
        setup.refill_deck(state)
        if not state["deck"]:
            state["events"].append("no special ability card is left to draw")
            state["queue"].pop(0)
            return True
    if task["task"] == "respawn_roll":
        altitude = state["planes"][task["player"]]["respawn"]["altitude"]
        if altitude is not None:  # constant altitude: no roll needed
            movement.respawn(state, task["player"], altitude, config)
            state["queue"].pop(0)
            return True
    return False


def victory(state: State, config: Config) -> dict[str, Any] | None:
    alive_teams = {
        state["teams"][i] for i, p in enumerate(state["planes"]) if p["status"] in IN_GAME
    }
    if not alive_teams:
        return {"winners": [], "reason": "no plane is left in the sky", "draw": True}
    if len(alive_teams) == 1:
        (team,) = alive_teams
        winners = [i for i, label in enumerate(state["teams"]) if label == team]
        solo = len(winners) == 1
        reason = "last plane in the sky" if solo else "last team in the sky"
        return {"winners": winners, "reason": reason, "draw": False}
    if config.round_limit and state["round"] >= config.round_limit:
        return {
            "winners": [],
            "reason": f"round limit of {config.round_limit} reached",
            "draw": True,
        }
    return None


def advance(state: State, config: Config) -> None:
    """Run automatic steps until some player must act or the game is over."""
    while True:
        if state["queue"]:
            if _auto_task(state, state["queue"][0], config):
                continue
            break
        phase = state["phase"]
        if phase == "setup":
            state["phase"] = "place"
        elif phase == "place":
            if undecided(state):
                break
            state["phase"] = "move"
            movement.reveal_and_move(state, config)
        elif phase == "move":
            state["phase"] = "fire"
            state["queue"] = combat.fire_queue(state, config)
        elif phase == "fire":
            for player in flying(state):
                combat.adjust_speed(state["planes"][player], config)
            state["phase"] = "breakup"
            state["queue"] = combat.breakup_queue(state)
        elif phase == "breakup":
            result = victory(state, config)
            if result is not None:
                state["phase"] = "over"
                state["outcome"] = result
                state["events"].append("game over: " + result["reason"])
                break
            state["round"] += 1
            state["turn_number"] = state["round"]
            state["phase"] = "place"
        else:
            break
    del state["events"][:-EVENT_HISTORY]
