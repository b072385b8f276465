"""Scenario builders for the Dart Wars tests: custom starting states on the practice map.

The practice map (``rules.dartwars.practice.SMALL_WORLD``)::

    a  a  b  b  w1 w2 e  e
    a  c  c  b  w3 w4 e  f
    d  c  c  g  w5 w6 f  f
    d  d  g  g  w7 i  h  h

Land a-h, g is a white territory, i an island, w1-w7 water squares; a light-blue sea link
joins b and e. The combat target sits to the right of the map.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from rules.base import Action, State
from rules.darts import dart_in_zone
from rules.dartwars import DartWars
from rules.dartwars.flow import start_turn
from rules.dartwars.practice import small_world
from rules.dartwars.state import add_magnet, initial_state

BOARD = small_world()


class Table:
    """Builds states and plays actions on the practice map."""

    board = BOARD

    def game(self, **options: Any) -> DartWars:
        return DartWars(BOARD, options)

    def state(
        self,
        game: DartWars,
        homelands: Iterable[str],
        magnets: Iterable[tuple[int, str]] = (),
        player: int = 0,
        masters: Mapping[int, int] | None = None,
        visited: Iterable[str] = (),
        supply: Mapping[int, int] | None = None,
    ) -> State:
        """A state in the play phase, at the start of ``player``'s turn.

        Only the listed magnets are on the map (no automatic start magnets).
        """
        homes = list(homelands)
        state = initial_state(BOARD.id, [f"P{i}" for i in range(len(homes))], 15)
        state["phase"] = "play"
        state["first_player"] = 0
        state["homelands"] = homes
        state["play_order"] = list(range(len(homes)))
        state["visited"] = dict.fromkeys(homes)
        for zone in visited:
            state["visited"][zone] = 0
        for owner, zone in magnets:
            add_magnet(state, owner, zone)
        for slave, master in (masters or {}).items():
            state["master"][slave] = master
        for owner, count in (supply or {}).items():
            moved = state["supply"][owner] - count
            state["supply"][owner] = count
            state["removed"][owner] += moved
        start_turn(state, player, game.options)
        state["turn_number"] = 1
        return state

    @staticmethod
    def darts(game: DartWars, state: State, *zones: str | None, stop: bool = False) -> State:
        player = state["turn"]["player"]
        for zone in zones:
            action = (
                {"type": "miss", "player": player} if zone is None else dart_in_zone(player, zone)
            )
            state = game.apply(state, action)
        if stop:
            state = game.apply(state, {"type": "stop", "player": player})
        return state

    @staticmethod
    def move(game: DartWars, state: State, origin: str, dest: str, **extra: Any) -> State:
        player = state["turn"]["player"]
        return game.apply(
            state, {"type": "move", "player": player, "from": origin, "to": dest, **extra}
        )

    @staticmethod
    def end_moves(game: DartWars, state: State) -> State:
        return game.apply(state, {"type": "end_moves", "player": state["turn"]["player"]})

    @staticmethod
    def target(game: DartWars, player: int, fraction: float | None) -> Action:
        """A dart at the target, ``fraction`` of its radius from the centre (None: a miss)."""
        if fraction is None:
            return {"type": "miss", "player": player}
        cx, cy = BOARD.target.center
        r = fraction * BOARD.target.radius_mm
        return {"type": "dart", "player": player, "zone": "target", "x_mm": cx + r, "y_mm": cy}

    def fight(
        self,
        game: DartWars,
        state: State,
        first: int,
        first_at: float | None,
        second_at: float | None,
    ) -> State:
        """Choose who throws first, then both throw (fractions of the target radius)."""
        attacker = state["turn"]["player"]
        state = game.apply(state, {"type": "first_thrower", "player": attacker, "thrower": first})
        throwers = state["turn"]["combat"]["throwers"]
        state = game.apply(state, self.target(game, throwers[0], first_at))
        return game.apply(state, self.target(game, throwers[1], second_at))

    @staticmethod
    def own(state: State, player: int, zone: str) -> int:
        return sum(1 for o, z in state["magnets"].values() if o == player and z == zone)


@pytest.fixture
def table() -> Table:
    return Table()
