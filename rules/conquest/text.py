"""Human lines for the game log and the end of the game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.conquest.board import Square, square_name

REASONS = {
    "key-captured": "captured the enemy key",
    "key-square": "reached the enemy key square",
    "no-legal-move": "left the opponent without a legal move",
    "quiet-move-limit": "draw: too many moves without a capture",
    "both-blocked": "draw: neither player can move",
}


def result_text(names: Sequence[str], result: Mapping[str, Any]) -> str:
    text = REASONS.get(result["reason"], result["reason"])
    if result["draw"]:
        return text[0].upper() + text[1:] + "."
    return f"{names[result['winners'][0]]} wins: {text}."


def legs(directions: Sequence[str]) -> str:
    """``("N", "N", "E")`` -> ``"N2 E1"``."""
    runs: list[list[Any]] = []
    for direction in directions:
        if runs and runs[-1][0] == direction:
            runs[-1][1] += 1
        else:
            runs.append([direction, 1])
    return " ".join(f"{d}{n}" for d, n in runs)


def move_text(
    names: Sequence[str],
    die: Mapping[str, Any],
    path: Sequence[Square],
    directions: Sequence[str],
    top_after: int | None,
    victim: Mapping[str, Any] | None,
) -> str:
    """E.g. "Ann tumbles the 2 from c3 N1 E1 to d4 (3 up), taking Bob's 6"."""
    label = "key" if die["key"] else str(die["top"])
    text = (
        f"{names[die['owner']]} tumbles the {label} from {square_name(path[0])} "
        f"{legs(directions)} to {square_name(path[-1])}"
    )
    if top_after is not None:
        text += f" ({top_after} up)"
    if victim is not None:
        taken = "key" if victim["key"] else str(victim["top"])
        text += f", taking {names[victim['owner']]}'s {taken}"
    return text
