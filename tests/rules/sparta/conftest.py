"""Helpers for the Sparta tests: positions are drawn as diagrams (see rules/sparta/layout.py).

Squares in these tests are [row, column] with row 0 the top line of the diagram, so a
diagram can be read next to the moves that are played on it.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules.sparta import Sparta


class Table:
    """A tiny driver: build a game from a diagram, play moves, read the board back."""

    def game(self, diagram: str, **options: Any) -> Sparta:
        return Sparta.from_diagram(diagram, **options)

    def start(self, diagram: str, to_move: int = 0, **options: Any) -> tuple[Sparta, dict]:
        game = self.game(diagram, first_player=to_move, **options)
        state = game.new_state(["Ann", "Ben"])
        assert state["outcome"] is None, "a scenario must not start in a finished position"
        return game, state

    def move(self, game: Sparta, state: dict, *squares: tuple[int, int]) -> dict:
        action = {"type": "move", "player": state["to_move"], "path": [list(s) for s in squares]}
        return game.apply(state, action)

    def rows(self, game: Sparta, state: dict) -> list[list[str]]:
        return [line.split() for line in game.render(state).splitlines()]

    def expect(self, game: Sparta, state: dict, diagram: str) -> None:
        wanted = [line.split() for line in diagram.strip().splitlines()]
        assert self.rows(game, state) == wanted, "\n" + game.render(state)


@pytest.fixture
def table() -> Table:
    return Table()
