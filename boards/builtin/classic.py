"""The standard steel-tip dartboard (WDF/PDC regulation dimensions), as zones in mm.

Zones: ``S1``..``S20`` (each single area, inner and outer part together), ``D1``..``D20``,
``T1``..``T20``, ``SB`` (outer bull, 25) and ``DB`` (bull, 50). Radii are measured to the
inside of the wires, as the regulations give them. The board also serves as the Dart Wars
combat target when players fight on a real dartboard.
"""

from __future__ import annotations

import math

from shapely.geometry import MultiPolygon, Point, Polygon

from boards.builtin.common import MARKER_ID_BASE, generator_main, margin_markers
from boards.model import Board, Ring, Target, Zone

SEGMENT_ORDER = (20, 1, 18, 4, 13, 6, 10, 15, 2, 17, 3, 19, 7, 16, 8, 11, 14, 9, 12, 5)
BULL_RADIUS = 6.35  # 12.7 mm across
OUTER_BULL_RADIUS = 15.9  # 31.8 mm across
TREBLE_INNER, TREBLE_OUTER = 99.0, 107.0
DOUBLE_INNER, DOUBLE_OUTER = 162.0, 170.0
BOARD_RADIUS = 225.5  # 451 mm playing surface with the number ring
WIRE_MM = 1.2
SHEET_MM = 560.0
ARC_STEPS = 12  # points per 18-degree arc


def _arc(radius: float, start_deg: float, end_deg: float) -> list[tuple[float, float]]:
    c = SHEET_MM / 2
    return [
        (c + radius * math.sin(math.radians(a)), c - radius * math.cos(math.radians(a)))
        for a in (start_deg + (end_deg - start_deg) * i / ARC_STEPS for i in range(ARC_STEPS + 1))
    ]


def _band(inner: float, outer: float, start_deg: float, end_deg: float) -> Polygon:
    return Polygon(_arc(outer, start_deg, end_deg) + _arc(inner, end_deg, start_deg))


def build() -> Board:
    c = SHEET_MM / 2
    zones: dict[str, Zone] = {}
    for index, number in enumerate(SEGMENT_ORDER):
        # Angles clockwise from straight up; segment 20 is centred on 0 degrees.
        start, end = index * 18 - 9, index * 18 + 9
        single = MultiPolygon(
            [
                _band(OUTER_BULL_RADIUS, TREBLE_INNER, start, end),
                _band(TREBLE_OUTER, DOUBLE_INNER, start, end),
            ]
        )
        for prefix, kind, geometry, multiplier in (
            ("D", "double", _band(DOUBLE_INNER, DOUBLE_OUTER, start, end), 2),
            ("T", "treble", _band(TREBLE_INNER, TREBLE_OUTER, start, end), 3),
            ("S", "single", single, 1),
        ):
            word = {"D": "Double", "T": "Treble", "S": "Single"}[prefix]
            zones[f"{prefix}{number}"] = Zone(
                id=f"{prefix}{number}",
                name=f"{word} {number}",
                kind=kind,
                geometry=geometry,
                data={"segment": number, "multiplier": multiplier, "score": number * multiplier},
            )
    bull = Point(c, c).buffer(BULL_RADIUS, quad_segs=32)
    outer_bull = Point(c, c).buffer(OUTER_BULL_RADIUS, quad_segs=32).difference(bull)
    zones["SB"] = Zone(
        "SB",
        "Outer bull",
        "outer_bull",
        outer_bull,
        data={"segment": 25, "multiplier": 1, "score": 25},
    )
    zones["DB"] = Zone(
        "DB", "Bullseye", "bull", bull, data={"segment": 25, "multiplier": 2, "score": 50}
    )
    rings = (
        Ring(BULL_RADIUS, "red", "bull"),
        Ring(OUTER_BULL_RADIUS, "green", "outer bull"),
        Ring(TREBLE_INNER, "black", "inner single"),
        Ring(TREBLE_OUTER, "red", "treble"),
        Ring(DOUBLE_INNER, "black", "outer single"),
        Ring(DOUBLE_OUTER, "red", "double"),
    )
    return Board(
        id="classic",
        name="Classic dartboard",
        description="Standard steel-tip dartboard, regulation dimensions.",
        width_mm=SHEET_MM,
        height_mm=SHEET_MM,
        zones=zones,
        line_width_mm=WIRE_MM,
        line_styles={"border": "wire"},
        target=Target((c, c), rings),
        markers=margin_markers(SHEET_MM, SHEET_MM, 40.0, 6.0, MARKER_ID_BASE["classic"]),
        game={"classic": {"segment_order": list(SEGMENT_ORDER), "board_radius_mm": BOARD_RADIUS}},
    )


if __name__ == "__main__":
    generator_main("classic", build)
