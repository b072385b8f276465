"""Rules engines, one module per game, pure Python with no I/O.

``get_game(name, **kwargs)`` builds a game by its registry id; engines are imported lazily
so that one broken or slow import does not affect the others.
"""

from __future__ import annotations

import importlib
from typing import Any

from rules.base import (
    Action,
    ActionFormatError,
    Game,
    Outcome,
    Prompt,
    RulesError,
    State,
    action_from_text,
    action_to_text,
)

#: registry id -> "module:Class"
GAMES: dict[str, str] = {
    "dartwars": "rules.dartwars:DartWars",
    "groundround": "rules.groundround:GroundRound",
    "sparta": "rules.sparta:Sparta",
    "conquest": "rules.conquest:Conquest",
    "dawgs": "rules.dawgs:DawgsOfWar",
}


def game_class(name: str) -> type[Game]:
    """The engine class registered as ``name``; raises KeyError with the known names."""
    try:
        target = GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known games: {', '.join(GAMES)}") from None
    module_name, _, class_name = target.partition(":")
    return getattr(importlib.import_module(module_name), class_name)


def get_game(name: str, **kwargs: Any) -> Game:
    """Build the engine registered as ``name`` (kwargs go to its constructor)."""
    return game_class(name)(**kwargs)


__all__ = [
    "GAMES",
    "Action",
    "ActionFormatError",
    "Game",
    "Outcome",
    "Prompt",
    "RulesError",
    "State",
    "action_from_text",
    "action_to_text",
    "game_class",
    "get_game",
]
