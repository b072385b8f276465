"""Homelands, masters and slaves, surrender and the end of the game.

- A homeland is conquered by a player who is not of its owner's camp when one of his magnets
  stands on it and no magnet of the owner's camp is left there (all defenders beaten, or it
  was empty when he arrived). The owner becomes the conqueror's slave (``master[owner]``).
  This holds for a slave's homeland too: its conqueror becomes the slave's new master.
- Camps: a player, his slaves, their slaves... A slave's slaves serve his master too, so a
  conquered master brings his whole camp along. Players of one camp never fight.
- A conquered player with no magnet left on the map is pardoned one magnet, put on his
  (lost) homeland.
- The game ends when one free player is left: he kept his homeland, he is the winner.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.base import State
from rules.dartwars.state import (
    add_magnet,
    allied,
    camp,
    event,
    free_players,
    homeland_owner,
    magnets_in,
    magnets_of,
    name,
)


def check_conquest(state: State, zone: str, actor: int, options: Mapping[str, Any]) -> bool:
    """Conquer the homeland ``zone`` for ``actor`` if he now holds it; True when it happened."""
    owner = homeland_owner(state, zone)
    if owner is None or allied(state, actor, owner):
        return False
    present = [o for _m, o in magnets_in(state, zone)]
    if actor not in present or any(allied(state, o, owner) for o in present):
        return False
    conquer(state, owner, actor, options)
    return True


def check_all_homelands(state: State, actor: int, options: Mapping[str, Any]) -> None:
    """Turn-start check: a homeland its owner's camp left while ``actor``'s magnet stood in it."""
    for zone in state["homelands"]:
        if zone is not None and state["phase"] != "over":
            check_conquest(state, zone, actor, options)


def conquer(state: State, owner: int, conqueror: int, options: Mapping[str, Any]) -> None:
    previous = state["master"][owner]
    state["master"][owner] = conqueror
    pardoned = False
    if options["pardon"] and not magnets_of(state, owner):
        _pardon(state, owner)
        pardoned = True
    event(
        state,
        "conquest",
        f"{name(state, conqueror)} conquers the homeland of {name(state, owner)}",
        zone=state["homelands"][owner],
        slave=owner,
        master=conqueror,
        previous_master=previous,
        pardoned=pardoned,
    )
    finish_if_over(state)


def _pardon(state: State, owner: int) -> None:
    """The conqueror spares one magnet of the beaten player's colour, on his lost homeland."""
    if state["supply"][owner] <= 0 and state["removed"][owner] > 0:
        state["removed"][owner] -= 1
        state["supply"][owner] += 1
    if state["supply"][owner] > 0:
        add_magnet(state, owner, state["homelands"][owner])


def check_surrender(state: State, options: Mapping[str, Any]) -> bool:
    """The lone player: only two free players are left, one of them has no slave (he stands
    alone against everybody else) and every magnet he has stands on his homeland: he
    surrenders to the other free player, who wins."""
    if not options["surrender_rule"] or state["phase"] == "over":
        return False
    free = free_players(state)
    if len(free) != 2 or len(state["players"]) < 3:
        return False
    for lone, other in (free, free[::-1]):
        if len(camp(state, lone)) != 1:
            continue
        home = state["homelands"][lone]
        if all(zone == home for owner, zone in state["magnets"].values() if owner == lone):
            state["master"][lone] = other
            event(
                state,
                "surrender",
                f"{name(state, lone)} stands alone with every troop at home "
                f"and surrenders to {name(state, other)}",
                slave=lone,
                master=other,
            )
            finish_if_over(state, reason="surrender")
            return True
    return False


def finish_if_over(state: State, reason: str = "last-homeland") -> None:
    free = free_players(state)
    if len(free) == 1 and state["phase"] != "over":
        state["phase"] = "over"
        state["turn"] = None
        state["pending"] = None
        state["result"] = {"winners": free, "reason": reason, "draw": False}
