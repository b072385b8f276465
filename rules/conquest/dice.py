"""A die's orientation on the board and how one tumble changes it.

The board frame: north is towards the last row (player 1's edge), south towards row 0 (player
0's edge), east towards the last column. A die's orientation is fully known from two faces,
the one on top and the one turned south (called ``front``: it faces player 0 and the bottom
of the usual drawing); opposite faces sum to 7 and the handedness gives the rest.

Handedness: on a ``"right"``-handed die (the usual Western die) the faces 1, 2 and 3 run
counterclockwise round the corner they share, so with 1 on top and 2 turned south, 3 faces
east. A ``"left"``-handed die is its mirror image (4 faces east in that position).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

#: Tumble directions and the (column, row) step each one makes.
STEPS: Final[dict[str, tuple[int, int]]] = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
#: The two turns a path may make from each direction.
PERPENDICULAR: Final[dict[str, tuple[str, str]]] = {
    "N": ("E", "W"),
    "S": ("E", "W"),
    "E": ("N", "S"),
    "W": ("N", "S"),
}
OPPOSITE: Final[dict[str, str]] = {"N": "S", "S": "N", "E": "W", "W": "E"}
HANDEDNESS: Final[tuple[str, ...]] = ("right", "left")

#: Slots of a full orientation tuple.
UP, DOWN, NORTH, SOUTH, EAST, WEST = range(6)
FACE_NAMES: Final[tuple[str, ...]] = ("top", "bottom", "north", "south", "east", "west")

Faces = tuple[int, int, int, int, int, int]


def _tumbled(faces: Faces, direction: str) -> Faces:
    """The full orientation after tipping the die over its edge on ``direction``'s side."""
    up, down, north, south, east, west = faces
    if direction == "N":  # the top turns to face north, the south face comes up
        return (south, north, up, down, east, west)
    if direction == "S":
        return (north, south, down, up, east, west)
    if direction == "E":  # the top turns to face east, the west face comes up
        return (west, east, north, south, up, down)
    if direction == "W":
        return (east, west, north, south, down, up)
    raise ValueError(f"unknown direction {direction!r}; use one of N, E, S, W")


def _all_orientations(handedness: str) -> dict[tuple[int, int], Faces]:
    # Start from 1 up, 2 south and 3 east (right) or west (left), then reach the other 23
    # orientations by tumbling, so that every tabled orientation is physically reachable.
    east = 3 if handedness == "right" else 4
    start: Faces = (1, 6, 5, 2, east, 7 - east)
    seen = {(start[UP], start[SOUTH]): start}
    todo = [start]
    while todo:
        faces = todo.pop()
        for direction in STEPS:
            nxt = _tumbled(faces, direction)
            key = (nxt[UP], nxt[SOUTH])
            if key not in seen:
                seen[key] = nxt
                todo.append(nxt)
    return seen


_ORIENTATIONS: Final[dict[str, dict[tuple[int, int], Faces]]] = {
    hand: _all_orientations(hand) for hand in HANDEDNESS
}
#: (handedness, top, front, direction) -> (top, front) after one tumble.
_TUMBLE: Final[dict[tuple[str, int, int, str], tuple[int, int]]] = {
    (hand, top, front, direction): (nxt[UP], nxt[SOUTH])
    for hand, table in _ORIENTATIONS.items()
    for (top, front), faces in table.items()
    for direction in STEPS
    for nxt in [_tumbled(faces, direction)]
}


def check_handedness(handedness: str) -> str:
    if handedness not in HANDEDNESS:
        raise ValueError(f"handedness must be one of {', '.join(HANDEDNESS)}, got {handedness!r}")
    return handedness


def is_orientation(top: object, front: object) -> bool:
    """True when ``top`` and ``front`` can be the top and south faces of one die."""
    return (
        isinstance(top, int)
        and isinstance(front, int)
        and not isinstance(top, bool)
        and not isinstance(front, bool)
        and 1 <= top <= 6
        and 1 <= front <= 6
        and top != front
        and top + front != 7
    )


def faces(top: int, front: int, handedness: str = "right") -> dict[str, int]:
    """All six faces by side (``top``, ``bottom``, ``north``, ``south``, ``east``, ``west``)."""
    try:
        full = _ORIENTATIONS[check_handedness(handedness)][(top, front)]
    except KeyError:
        raise ValueError(
            f"top {top} and front {front} are not two adjacent faces of a die "
            "(they must differ and not sum to 7)"
        ) from None
    return dict(zip(FACE_NAMES, full, strict=True))


def tumble(top: int, front: int, direction: str, handedness: str = "right") -> tuple[int, int]:
    """(top, front) after one tumble towards ``direction`` (N, E, S or W)."""
    try:
        return _TUMBLE[(handedness, top, front, direction)]
    except KeyError:
        check_handedness(handedness)
        if direction not in STEPS:
            raise ValueError(f"unknown direction {direction!r}; use one of N, E, S, W") from None
        raise ValueError(f"top {top} and front {front} are not a die orientation") from None


def tumble_along(
    top: int, front: int, directions: Iterable[str], handedness: str = "right"
) -> tuple[int, int]:
    """(top, front) after tumbling through ``directions`` in order."""
    for direction in directions:
        top, front = tumble(top, front, direction, handedness)
    return top, front
