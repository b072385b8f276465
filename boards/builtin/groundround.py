"""The Ground Round board: 19 flat-topped hexagons (a hexagonal grid of radius 2).

Default symbol layout (the rulebook gives none; NOTES.md asks for a fair one). Every player
throws at the same board from the same spot, so fairness is about spreading the power:
- the Flaming Fist sits in the centre, where every player aims most easily;
- the three Flags sit on alternate hexes of the inner ring, 120 degrees apart, none next to
  another Flag, and none next to the Tower, so no Flag starts out doubly defended;
- the other three inner-ring hexes hold one Fist, one Pin and one Dart;
- the outer ring holds the Tower, two Crossed Darts, a second Fist, Pin and Dart, and six
  blanks spread between them.
The layout is data in ``boards/data/groundround.json`` (zone ``data.symbol``), editable there.
"""

from __future__ import annotations

import math

from shapely.geometry import Point, Polygon

from boards.builtin.common import MARKER_ID_BASE, generator_main, margin_markers
from boards.model import Board, Zone

HEX_RADIUS_MM = 60.0  # centre to corner; 104 mm across flats
RED_AREA_RADIUS_MM = 18.0
SHEET_MM = (620.0, 660.0)

SYMBOLS = ("flag", "dart", "crossed_darts", "tower", "pin", "fist", "flaming_fist", "blank")
SYMBOL_NAMES = {
    "flag": "Flag",
    "dart": "Dart",
    "crossed_darts": "Crossed Darts",
    "tower": "Tower",
    "pin": "Pin",
    "fist": "Fist",
    "flaming_fist": "Flaming Fist",
    "blank": "Blank",
}

# Axial directions of a flat-topped hex grid, starting north and going clockwise.
DIRECTIONS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))

INNER_RING = ("flag", "fist", "flag", "pin", "flag", "dart")
OUTER_RING = (
    # corner, edge, corner, edge, ... clockwise from north (corner = 2 steps along a direction)
    "blank",
    "crossed_darts",
    "tower",
    "blank",
    "fist",
    "blank",
    "crossed_darts",
    "blank",
    "pin",
    "blank",
    "dart",
    "blank",
)


def ring(radius: int) -> list[tuple[int, int]]:
    """Axial coordinates of one ring, clockwise from north."""
    if radius == 0:
        return [(0, 0)]
    q, r = DIRECTIONS[0][0] * radius, DIRECTIONS[0][1] * radius
    cells = []
    for side in range(6):
        dq, dr = DIRECTIONS[(side + 2) % 6]
        for _ in range(radius):
            cells.append((q, r))
            q, r = q + dq, r + dr
    return cells


def hex_center(q: int, r: int, origin: tuple[float, float]) -> tuple[float, float]:
    return (
        origin[0] + HEX_RADIUS_MM * 1.5 * q,
        origin[1] + HEX_RADIUS_MM * math.sqrt(3) * (r + q / 2),
    )


def hex_polygon(center: tuple[float, float]) -> Polygon:
    cx, cy = center
    return Polygon(
        [
            (
                cx + HEX_RADIUS_MM * math.cos(math.radians(60 * k)),
                cy + HEX_RADIUS_MM * math.sin(math.radians(60 * k)),
            )
            for k in range(6)
        ]
    )


def build() -> Board:
    width, height = SHEET_MM
    origin = (width / 2, height / 2)
    cells = ring(0) + ring(1) + ring(2)
    symbols = ("flaming_fist", *INNER_RING, *OUTER_RING)
    zones: dict[str, Zone] = {}
    counts: dict[str, int] = {}
    for number, ((q, r), symbol) in enumerate(zip(cells, symbols, strict=True), start=1):
        counts[symbol] = counts.get(symbol, 0) + 1
        zone_id = f"hex{number}"
        center = hex_center(q, r, origin)
        zones[zone_id] = Zone(
            id=zone_id,
            name=f"{SYMBOL_NAMES[symbol]} {counts[symbol]}"
            if symbol != "flaming_fist"
            else "Flaming Fist",
            kind="hex",
            geometry=hex_polygon(center),
            data={"symbol": symbol, "q": q, "r": r},
        )
        if symbol == "crossed_darts":
            red_id = f"{zone_id}-red"
            red_center = (center[0], center[1] - 6.0)  # under the crossed darts icon
            zones[red_id] = Zone(
                id=red_id,
                name=f"{zones[zone_id].name}: red area",
                kind="red_area",
                geometry=Point(red_center).buffer(RED_AREA_RADIUS_MM, quad_segs=16),
                parent=zone_id,
            )
    return Board(
        id="groundround",
        name="Ground Round",
        description="19 hexagons for Ground Round (2-3 players); symbols editable in zone data.",
        width_mm=width,
        height_mm=height,
        zones=zones,
        line_width_mm=1.5,
        line_styles={"border": "solid"},
        markers=margin_markers(width, height, 40.0, 10.0, MARKER_ID_BASE["groundround"]),
        game={"groundround": {"symbols": list(SYMBOLS)}},
    )


if __name__ == "__main__":
    generator_main("groundround", build)
