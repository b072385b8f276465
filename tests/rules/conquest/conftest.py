"""A builder for custom Conquest positions, used by the scenario tests."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from rules.base import State
from rules.conquest import Conquest
from rules.conquest.board import square_name

#: One die of a custom position: (owner, square like "c4", top, front); top None is the key.
DieSpec = tuple[int, str, int | None, int | None]


def _square(name: str) -> list[int]:
    return ["abcdefghi".index(name[0]), int(name[1:]) - 1]


def build_position(
    game: Conquest, dice: Sequence[DieSpec], to_move: int = 0, **extra: Any
) -> State:
    """A state in play with exactly ``dice`` on the board.

    Ids follow the engine's scheme (owner digit + letter; the key is "<owner>e"); the dice a
    side is missing are listed as captured earlier, so the state is one a game can reach.
    """
    state = game.new_state(["Ann", "Bob"])
    letters = {0: list("abcdfghi"), 1: list("abcdfghi")}
    placed = []
    for owner, where, top, front in dice:
        is_key = top is None
        ident = f"{owner}e" if is_key else f"{owner}{letters[owner].pop(0)}"
        placed.append(
            {
                "id": ident,
                "owner": owner,
                "key": is_key,
                "at": _square(where),
                "top": top,
                "front": front,
            }
        )
    on_board = {d["id"] for d in placed}
    captured = []
    for owner in (0, 1):
        for letter in "abcdefghi":
            ident = f"{owner}{letter}"
            if ident not in on_board:
                is_key = letter == "e"
                captured.append(
                    {
                        "id": ident,
                        "owner": owner,
                        "key": is_key,
                        "at": [0, 0],
                        "top": None if is_key else 1,
                        "front": None if is_key else 2,
                        "by": f"{1 - owner}e",
                        "turn": 0,
                    }
                )
    state.update(dice=placed, captured=captured, phase="play", to_move=to_move, **extra)
    return state


@pytest.fixture
def position() -> Callable[..., State]:
    return build_position


def at(state: State, name: str) -> dict[str, Any] | None:
    """The die on square ``name`` (like "c4"), or None."""
    for die in state["dice"]:
        if square_name(die["at"]) == name:
            return die
    return None


@pytest.fixture
def die_at() -> Callable[[State, str], dict[str, Any] | None]:
    return at


def move(player: int, squares: str) -> dict[str, Any]:
    """A move action from square names: move(0, "a1 a2 b2")."""
    return {"type": "move", "player": player, "path": [_square(s) for s in squares.split()]}


@pytest.fixture
def mv() -> Callable[[int, str], dict[str, Any]]:
    return move
