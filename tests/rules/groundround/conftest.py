"""Helpers for the Ground Round tests: a table that builds states and throws darts.

Default board (boards/data/groundround.json), the hexes the scenarios use:
hex1 Flaming Fist (centre, touches hex2..hex7); hex2, hex4, hex6 Flags; hex3 Fist; hex5 Pin;
hex7 Dart; hex9 and hex14 Crossed Darts (red areas hex9-red, hex14-red); hex10 Tower (touches
hex3, hex9, hex11); hex12 Fist; hex16 Pin; hex18 Dart; hex8, 11, 13, 15, 17, 19 blank.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from rules.darts import dart_in_zone
from rules.groundround import GroundRound


class Table:
    """Builds scenario states and plays actions on them, checking invariants each step."""

    def __init__(self, game: GroundRound) -> None:
        self.game = game

    def state(
        self,
        players: Iterable[str] = ("Ann", "Bob"),
        owners: Mapping[str, int] | None = None,
        pins: Mapping[int, Iterable[str]] | None = None,
        current: int = 0,
        **fields: Any,
    ) -> dict[str, Any]:
        state = self.game.new_state(list(players))
        state["current"] = current
        for hex_id, player in (owners or {}).items():
            assert hex_id in state["owners"], f"{hex_id} is not a symbol hex"
            state["owners"][hex_id] = player
        for player, zones in (pins or {}).items():
            state["army_pins"][player] = sorted(zones)
        state.update(fields)
        assert self.game.check_invariants(state) == []
        return state

    def play(self, state: dict[str, Any], *actions: dict[str, Any]) -> dict[str, Any]:
        for action in actions:
            state = self.game.apply(state, action)
            assert self.game.check_invariants(state) == [], action
        return state

    @staticmethod
    def hit(player: int, zone: str, red: bool = False) -> dict[str, Any]:
        action = dart_in_zone(player, zone)
        if red:
            action["subzones"] = [f"{zone}-red"]
        return action

    @staticmethod
    def line(player: int, *zones: str) -> dict[str, Any]:
        return {**dart_in_zone(player, zones[0]), "candidates": list(zones), "on_line": True}

    @staticmethod
    def act(kind: str, player: int, **fields: Any) -> dict[str, Any]:
        return {"type": kind, "player": player, **fields}

    def throw(self, state: dict[str, Any], player: int, zone: str, red: bool = False):
        """A hit that is kept (answers the re-throw question with "keep" when asked)."""
        state = self.play(state, self.hit(player, zone, red))
        if state["phase"] == "rethrow":
            state = self.play(state, self.act("keep", player))
        return state

    def kinds(self, state: dict[str, Any]) -> set[str]:
        return {a["type"] for a in self.game.prompt(state).options}


@pytest.fixture
def game() -> GroundRound:
    return GroundRound()


@pytest.fixture
def table(game: GroundRound) -> Table:
    return Table(game)


@pytest.fixture
def make_table():
    """A table for a game with options (and optionally another board)."""

    def build(board=None, **options: Any) -> Table:
        return Table(GroundRound(board, options))

    return build
