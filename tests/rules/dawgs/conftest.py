"""Builders for custom Dawgs of War positions, used by the scenario tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from rules.base import State
from rules.dawgs import DawgsOfWar
from rules.dawgs.hexgrid import from_column
from rules.dawgs.planes import new_plane


def at(column: int, altitude: int) -> list[int]:
    """Doubled coordinates of the hex in printed ``column`` at ``altitude`` (1 = bottom row)."""
    return list(from_column(column, altitude - 1))


def build_state(
    game: DawgsOfWar, planes: Sequence[Mapping[str, Any]], teams: Sequence[Any] | None = None
) -> State:
    """A state at the start of round 1 (Place Cards) with exactly these planes flying.

    Each spec gives ``front`` (doubled coordinates, see ``at``) and any other plane field.
    Specials named in the specs are taken out of the deck so the card count stays whole.
    """
    names = [f"P{i + 1}" for i in range(len(planes))]
    state = game.new_state(names)
    state["teams"] = list(teams) if teams is not None else list(range(len(planes)))
    state.update(phase="place", queue=[], round=1, turn_number=1, events=[], discard=[])
    deck = game.config.special_deck()
    state["planes"] = []
    for spec in planes:
        plane = new_plane(game.config.start_speed)
        plane.update(status="flying", side="left")
        plane.update(spec)
        for card in (plane["special"], plane["in_play"]):
            if card:
                deck.remove(card)
        state["planes"].append(plane)
    state["deck"] = deck
    assert game.check_invariants(state) == []
    return state


def play_cards(game: DawgsOfWar, state: State, cards: Mapping[int, Sequence[str]]) -> State:
    """Every pilot in ``cards`` chooses that pair (in seat order)."""
    for player in sorted(cards):
        state = game.apply(
            state, {"type": "choose_cards", "player": player, "cards": list(cards[player])}
        )
    return state


def roll(game: DawgsOfWar, state: State, *values: int) -> State:
    for value in values:
        state = game.apply(state, {"type": "roll", "value": value})
    return state


class Helpers:
    build = staticmethod(build_state)
    play = staticmethod(play_cards)
    roll = staticmethod(roll)
    at = staticmethod(at)


@pytest.fixture
def h() -> type[Helpers]:
    """The position builders, as ``h.build``, ``h.play``, ``h.roll`` and ``h.at``."""
    return Helpers
