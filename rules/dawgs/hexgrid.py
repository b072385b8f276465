"""Hex geometry of the side-view Dawgs of War map.

The map is seen from the side: the ground runs along the bottom edge and "up" is altitude.
Hexes are pointy-topped and laid out in horizontal rows, so a plane flying level crosses a
hex edge at every increment and each row is one altitude band.

Coordinates are *doubled-width* pairs ``(x, y)``: ``y`` is the row counted from the bottom
(row 0 touches the ground, so altitude = ``y + 1``) and ``x`` counts half hexes, so that a row
``y`` holds the hexes with ``x`` of the same parity as ``y``. Neighbours differ by
``(+-2, 0)`` or ``(+-1, +-1)``; the centre of ``(x, y)`` lies at ``(x / 2, y * sqrt(3) / 2)``
in units of one hex width.

Twelve headings, numbered counter-clockwise from "right" in 30-degree steps: even numbers
point at a hex edge, odd numbers at a hex corner (vertex).

::

            3 (up)
       5    4   2    1          0 = level, flying right
     6        *        0        6 = level, flying left
       7    8   10   11         9 = straight down
            9
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from functools import cache

Hex = tuple[int, int]

#: Number of headings; rotating by 1 moves between an edge and a vertex.
HEADINGS = 12
RIGHT, UP, LEFT, DOWN = 0, 3, 6, 9

#: One step towards each heading. Even headings: the neighbour across that edge. Odd
#: headings (vertices): the hex across that vertex, used for geometry (cones), not for moving.
DIRECTION_VECTORS: tuple[Hex, ...] = (
    (2, 0),
    (3, 1),
    (1, 1),
    (0, 2),
    (-1, 1),
    (-3, 1),
    (-2, 0),
    (-3, -1),
    (-1, -1),
    (0, -2),
    (1, -1),
    (3, -1),
)

#: Pitch of each heading in 30-degree steps: positive climbs, negative dives, 0 is level.
ELEVATION: tuple[int, ...] = (0, 1, 2, 3, 2, 1, 0, -1, -2, -3, -2, -1)

_SQRT3_2 = math.sqrt(3) / 2
#: Half of the 60-degree cone, with a tolerance so that hexes on the edge rays count.
_COS_HALF_CONE = math.cos(math.radians(30)) - 1e-9


def add(a: Hex, b: Hex) -> Hex:
    return (a[0] + b[0], a[1] + b[1])


def is_hex(h: Hex) -> bool:
    """Doubled coordinates need x and y of the same parity."""
    return (h[0] - h[1]) % 2 == 0


def from_column(column: int, row: int) -> Hex:
    """The hex in printed column ``column`` (0 = leftmost) of row ``row`` (0 = bottom)."""
    return (2 * column + (row & 1), row)


def column_of(h: Hex) -> int:
    return (h[0] - (h[1] & 1)) // 2


def altitude_of(h: Hex) -> int:
    """1 for the bottom row; 0 or less means the ground."""
    return h[1] + 1


def distance(a: Hex, b: Hex) -> int:
    """Hex steps between two hexes."""
    dx = abs(a[0] - b[0])
    dy = abs(a[1] - b[1])
    return dy + max(0, (dx - dy) // 2)


def centre(h: Hex) -> tuple[float, float]:
    """Centre of a hex in hex widths, y up."""
    return (h[0] / 2, h[1] * _SQRT3_2)


def rotate(heading: int, steps: int) -> int:
    """Positive steps turn counter-clockwise (nose up when flying right)."""
    return (heading + steps) % HEADINGS


def is_vertex(heading: int) -> bool:
    return heading % 2 == 1


def mirror_vertical(heading: int) -> int:
    """Swap climb and dive, keeping the horizontal sense (a half roll)."""
    return (-heading) % HEADINGS


def back_hex(front: Hex, heading: int) -> Hex:
    """The hex under the tail of a plane whose nose is in ``front``.

    Pointing at an edge, the tail lies in the neighbour straight behind. Pointing at a
    vertex, the tail lies on the edge shared by two neighbours; we put it in the lower of
    them (the tail hangs towards the ground) and, when both are level (the plane points
    straight up or down), in the left one.
    """
    behind = (heading + 6) % HEADINGS
    if not is_vertex(behind):
        return add(front, DIRECTION_VECTORS[behind])
    flanks = [
        add(front, DIRECTION_VECTORS[(behind - 1) % HEADINGS]),
        add(front, DIRECTION_VECTORS[(behind + 1) % HEADINGS]),
    ]
    return min(flanks, key=lambda h: (h[1], h[0]))


def body(front: Hex, heading: int) -> tuple[Hex, Hex]:
    """The two hexes a plane counter covers: (front, back)."""
    return (front, back_hex(front, heading))


def step(front: Hex, heading: int, zig: int) -> tuple[Hex, int]:
    """Move one increment; returns the new front hex and the new zig bit.

    Every increment is one hex. Towards an edge the plane crosses it. Towards a vertex it
    alternates between the two hexes beside that vertex (``zig`` says which comes next),
    so that a long flight follows the true 30-degree line instead of drifting.
    """
    if not is_vertex(heading):
        return add(front, DIRECTION_VECTORS[heading]), zig
    side = heading - 1 if zig == 0 else heading + 1
    return add(front, DIRECTION_VECTORS[side % HEADINGS]), 1 - zig


def in_cone(front: Hex, heading: int, target: Hex, reach: int = 3) -> bool:
    """Whether ``target`` lies in the 60-degree cone of fire of a plane.

    The cone starts at the plane's front hex, spans 30 degrees either side of the heading
    (hexes whose centres lie on the two edge rays count) and reaches ``reach`` hexes.
    """
    steps = distance(front, target)
    if steps < 1 or steps > reach:
        return False
    fx, fy = centre(front)
    tx, ty = centre(target)
    vx, vy = tx - fx, ty - fy
    angle = math.radians(30 * heading)
    along = vx * math.cos(angle) + vy * math.sin(angle)
    return along >= _COS_HALF_CONE * math.hypot(vx, vy)


def cone(front: Hex, heading: int, reach: int = 3) -> Iterator[Hex]:
    """All hexes of the cone of fire (not clipped to the map), bottom row first."""
    fx, fy = front
    for dx, dy in _cone_offsets(heading, reach):
        yield (fx + dx, fy + dy)


@cache
def _cone_offsets(heading: int, reach: int) -> tuple[Hex, ...]:
    return tuple(
        (dx, dy)
        for dy in range(-reach, reach + 1)
        for dx in range(-2 * reach, 2 * reach + 1)
        if is_hex((dx, dy)) and in_cone((0, 0), heading, (dx, dy), reach)
    )
