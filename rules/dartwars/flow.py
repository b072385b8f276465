"""Turn order: starting a turn, ending it, and who plays next.

Everybody keeps taking turns in the order the homelands were obtained, slaves included (they
play on with the magnets they have left, as allies of their master).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.base import State
from rules.dartwars.homelands import check_all_homelands, check_surrender, finish_if_over


def start_turn(state: State, player: int, options: Mapping[str, Any]) -> None:
    state["turn_number"] += 1
    state["turn"] = {
        "player": player,
        "stage": "darts",
        "thrown": 0,
        "hits": [],
        "used": [],
        "locked": {},
        "attacks": [],
        "fought": [],
        "combat": None,
    }
    check_all_homelands(state, player, options)


def next_player(state: State, player: int) -> int:
    order = state["play_order"]
    return order[(order.index(player) + 1) % len(order)]


def end_turn(state: State, options: Mapping[str, Any]) -> None:
    player = state["turn"]["player"]
    check_surrender(state, options)
    finish_if_over(state)
    if state["phase"] == "over":
        return
    start_turn(state, next_player(state, player), options)
