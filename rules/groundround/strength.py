"""Attack and defence, always worked out from the state (they are never stored).

- A dart's attack is 1 plus one per Fist hex its thrower holds; after a Flaming Fist hit it
  is unlimited for the next throw (``None`` stands for unlimited).
- A hex's defence is 0 (a Flag 1), plus 1 when a Tower's owner holds both the Tower and a
  hex next to it (option ``tower_defends`` = "own"; "all" gives every neighbour of a held
  Tower +1), plus 1 for an Army Pin on the hex, plus 1 for each Army Pin next to it when the
  hex is the pin owner's or nobody's, minus 1 for each Army Pin next to it when the hex
  belongs to somebody else. Defence never drops below 0.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.groundround.layout import FIST, FLAG, TOWER, Layout

State = Mapping[str, Any]

TOWER_DEFENDS = ("own", "all")


def owner(state: State, hex_id: str) -> int | None:
    return state["owners"].get(hex_id)


def held(layout: Layout, state: State, player: int, symbol: str) -> list[str]:
    """The hexes with ``symbol`` that ``player`` holds."""
    owners = state["owners"]
    return [h for h in layout.with_symbol(symbol) if owners.get(h) == player]


def attack(layout: Layout, state: State, player: int) -> int | None:
    """The attack of ``player``'s next dart; ``None`` means unlimited (Flaming Fist)."""
    if state.get("flaming") and state.get("current") == player:
        return None
    return 1 + len(held(layout, state, player, FIST))


def defence_parts(
    layout: Layout, state: State, hex_id: str, tower_defends: str = "own"
) -> list[tuple[str, int]]:
    """Every contribution to a hex's defence, as (reason, amount), for prompts and tests."""
    owners = state["owners"]
    hex_owner = owners.get(hex_id)
    parts: list[tuple[str, int]] = []
    if layout.symbol[hex_id] == FLAG:
        parts.append(("flag", 1))
    for tower in layout.neighbours[hex_id]:
        if layout.symbol[tower] != TOWER:
            continue
        tower_owner = owners.get(tower)
        if tower_owner is None:
            continue
        if tower_defends == "all" or hex_owner == tower_owner:
            parts.append((f"tower:{tower}", 1))
    for pin_owner, pins in enumerate(state["army_pins"]):
        for pin in pins:
            if pin == hex_id:
                parts.append((f"pin:{pin}", 1))
            elif pin in layout.neighbours[hex_id]:
                enemy = hex_owner is not None and hex_owner != pin_owner
                parts.append((f"pin:{pin}", -1 if enemy else 1))
    return parts


def defence(layout: Layout, state: State, hex_id: str, tower_defends: str = "own") -> int:
    return max(0, sum(amount for _, amount in defence_parts(layout, state, hex_id, tower_defends)))


def beats(attack_value: int | None, defence_value: int) -> bool:
    """Whether an attack is strong enough: greater than the defence (unlimited always is)."""
    return attack_value is None or attack_value > defence_value
