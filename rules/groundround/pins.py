"""Army Pins: how many a player has, where they may stand, and when they may move.

A player gets one Army Pin per Pin hex he holds. Pins he is owed but has not put on the
board are "in hand"; he places them on his own turn, and must before the turn ends. An Army
Pin stands on one of its owner's hexes, at most one Army Pin per hex.

Moving: once per turn a player may rearrange his Army Pins, either before his first dart
("before" window) or after his last one ("after" window), each pin at most once, and not at
all in a turn in which he captured a Pin hex ("barred"). The window record lives in
``state["pin_moves"] = {"window": None | "before" | "after" | "barred", "moved": [hex]}``,
where ``moved`` lists the hexes that pins moved this turn arrived on.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from rules.groundround.layout import PIN, Layout
from rules.groundround.strength import held

State = Mapping[str, Any]

BEFORE = "before"
AFTER = "after"
BARRED = "barred"


def entitled(layout: Layout, state: State, player: int) -> int:
    """Army Pins a player is owed: one per Pin hex he holds."""
    return len(held(layout, state, player, PIN))


def in_hand(layout: Layout, state: State, player: int) -> int:
    return max(0, entitled(layout, state, player) - len(state["army_pins"][player]))


def excess(layout: Layout, state: State, player: int) -> int:
    """Army Pins on the board beyond what the player is owed (after losing a Pin hex)."""
    return max(0, len(state["army_pins"][player]) - entitled(layout, state, player))


def free_hexes(layout: Layout, state: State, player: int) -> list[str]:
    """The player's hexes with no Army Pin on them: where he may put one."""
    owners = state["owners"]
    taken = set(state["army_pins"][player])
    return [h for h in layout.capturable if owners.get(h) == player and h not in taken]


def move_window_refusal(state: State, window: str) -> str | None:
    """Why moving pins in ``window`` is not allowed now, or ``None`` when it is."""
    current = state["pin_moves"]["window"]
    if current == BARRED:
        return "Army Pins cannot move in the turn a Pin hex was captured"
    if current is not None and current != window:
        return f"the Army Pins were already moved this turn ({current} throwing)"
    return None


def movable_pins(state: State, player: int) -> list[str]:
    moved = set(state["pin_moves"]["moved"])
    return [p for p in state["army_pins"][player] if p not in moved]


def pin_moves(layout: Layout, state: State, player: int, window: str) -> Iterator[tuple[str, str]]:
    """Every (from, to) move the player may make in ``window``."""
    if move_window_refusal(state, window) is not None:
        return
    targets = free_hexes(layout, state, player)
    for source in movable_pins(state, player):
        for target in targets:
            yield source, target


def can_move(layout: Layout, state: State, player: int, window: str) -> bool:
    return next(pin_moves(layout, state, player, window), None) is not None
