"""What a printed board shows, as a list of simple drawing primitives in board millimetres.

The scene is built once from the board data and drawn by each output format (SVG, PNG,
PDF), so every format shows the same thing. Fills are painted largest zone first, so a zone
with a hole never needs hole support from the output format: whatever sits in the hole is
painted after it.
"""

from __future__ import annotations

import colorsys
import hashlib
import math
from collections.abc import Iterator
from dataclasses import dataclass, field

import cv2
from shapely.geometry import MultiPolygon, Polygon

from boards.model import Board, Zone

Color = tuple[int, int, int]
Points = tuple[tuple[float, float], ...]

BLACK: Color = (0, 0, 0)
WHITE: Color = (255, 255, 255)
WATER: Color = (190, 223, 243)
LINK_BLUE: Color = (120, 190, 240)
GREY: Color = (110, 110, 110)
RED: Color = (206, 32, 41)
GREEN: Color = (0, 133, 63)
CREAM: Color = (244, 232, 196)
DART_BLACK: Color = (28, 28, 28)

COLOR_NAMES: dict[str, Color] = {
    "red": RED,
    "white": WHITE,
    "black": DART_BLACK,
    "green": GREEN,
    "cream": CREAM,
    "blue": (30, 90, 200),
}

CONTINENT_COLORS: dict[str, Color] = {
    "north_america": (238, 201, 134),
    "south_america": (178, 214, 140),
    "europe": (232, 170, 170),
    "africa": (240, 214, 120),
    "asia": (204, 187, 228),
    "oceania": (250, 180, 120),
    "antarctica": (250, 250, 250),
    "arctic": (250, 250, 250),
}

SYMBOL_COLORS: dict[str, Color] = {
    "flag": (255, 226, 120),
    "dart": (170, 210, 255),
    "crossed_darts": (200, 230, 255),
    "tower": (210, 200, 190),
    "pin": (200, 240, 200),
    "fist": (255, 200, 170),
    "flaming_fist": (255, 160, 110),
    "blank": (245, 245, 240),
}


@dataclass(frozen=True)
class Shape:
    """A filled and/or stroked polygon (exterior ring only; see the module note)."""

    points: Points
    fill: Color | None = None
    stroke: Color | None = None
    width_mm: float = 0.0
    dash_mm: tuple[float, float] | None = None


@dataclass(frozen=True)
class Line:
    points: Points
    color: Color
    width_mm: float
    dash_mm: tuple[float, float] | None = None


@dataclass(frozen=True)
class Circle:
    center: tuple[float, float]
    radius_mm: float
    fill: Color | None = None
    stroke: Color | None = None
    width_mm: float = 0.0


@dataclass(frozen=True)
class Text:
    position: tuple[float, float]  # centre of the text
    text: str
    size_mm: float  # cap height
    color: Color = BLACK
    bold: bool = False


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: Color


Primitive = Shape | Line | Circle | Text | Rect


@dataclass
class Scene:
    width_mm: float
    height_mm: float
    items: list[Primitive] = field(default_factory=list)

    def add(self, item: Primitive) -> None:
        self.items.append(item)


def _rings(geometry: Polygon | MultiPolygon) -> Iterator[tuple[Points, bool]]:
    """(ring points, is_exterior) for every ring of a polygon or multipolygon."""
    polygons = geometry.geoms if isinstance(geometry, MultiPolygon) else [geometry]
    for polygon in polygons:
        yield tuple(polygon.exterior.coords), True
        for interior in polygon.interiors:
            yield tuple(interior.coords), False


def zone_fill(zone: Zone) -> Color:
    """The printed colour of a zone, from its kind and data."""
    if zone.kind == "water":
        return WATER
    if zone.kind == "hex":
        return SYMBOL_COLORS.get(str(zone.data.get("symbol")), SYMBOL_COLORS["blank"])
    if zone.kind == "red_area":
        return RED
    if zone.kind in ("single", "double", "treble"):
        dark = int(zone.data.get("segment_index", _classic_index(zone))) % 2 == 0
        if zone.kind == "single":
            return DART_BLACK if dark else CREAM
        return RED if dark else GREEN
    if zone.kind == "outer_bull":
        return GREEN
    if zone.kind == "bull":
        return RED
    if zone.data.get("white"):
        return WHITE
    continent = zone.data.get("continent")
    if isinstance(continent, str) and continent in CONTINENT_COLORS:
        base = CONTINENT_COLORS[continent]
        return _vary(base, zone.id)
    return _vary((220, 210, 180), zone.id)


def _classic_index(zone: Zone) -> int:
    from boards.builtin.classic import SEGMENT_ORDER

    return SEGMENT_ORDER.index(int(zone.data.get("segment", 20)))


def _vary(base: Color, key: str) -> Color:
    """A stable small variation of a colour, so neighbouring territories stand apart."""
    digest = hashlib.sha256(key.encode()).digest()
    hue, light, sat = colorsys.rgb_to_hls(*(c / 255 for c in base))
    hue = (hue + (digest[0] / 255 - 0.5) * 0.08) % 1.0
    light = min(0.92, max(0.55, light + (digest[1] / 255 - 0.5) * 0.16))
    r, g, b = colorsys.hls_to_rgb(hue, light, sat)
    return (round(r * 255), round(g * 255), round(b * 255))


def _label_size(zone: Zone, text: str) -> float:
    """Cap height in mm that fits the zone's largest inscribed circle."""
    minx, miny, maxx, maxy = zone.geometry.bounds
    room = min(maxx - minx, maxy - miny)
    return max(2.0, min(7.0, room / max(len(text), 3) * 1.2, room / 5))


def build_scene(board: Board, labels: bool = True, markers: bool = True) -> Scene:
    """The printed board: zones, borders, links, target, labels, scale bar, markers."""
    scene = Scene(board.width_mm, board.height_mm)
    scene.add(Rect(0, 0, board.width_mm, board.height_mm, WHITE))
    is_classic = any(z.kind in ("single", "double", "treble") for z in board.top_zones)
    if is_classic:
        radius = float(board.game.get("classic", {}).get("board_radius_mm", 225.5))
        center = board.target.center if board.target else (board.width_mm / 2, board.height_mm / 2)
        scene.add(Circle(center, radius, fill=DART_BLACK))

    # Fills, biggest first (see the module note).
    for zone in sorted(
        board.zones.values(), key=lambda z: (z.parent is not None, -z.geometry.area)
    ):
        if zone.kind == "target":
            continue
        for ring, exterior in _rings(zone.geometry):
            if exterior:
                scene.add(Shape(ring, fill=zone_fill(zone)))

    for link in board.links:
        scene.add(Line(tuple(link.path.coords), LINK_BLUE, 7.0))

    _add_borders(scene, board, is_classic)
    if board.target is not None and not is_classic:
        _add_target(scene, board)
    if labels:
        _add_labels(scene, board, is_classic)
    if is_classic:
        _add_numbers(scene, board)
    if markers:
        _add_markers(scene, board)
    _add_scale_bar(scene, board)
    return scene


def _add_borders(scene: Scene, board: Board, is_classic: bool) -> None:
    width = board.line_width_mm
    if is_classic:
        color = (190, 190, 190)
        for zone in board.top_zones:
            for ring, _ in _rings(zone.geometry):
                scene.add(Shape(ring, stroke=color, width_mm=width))
        return
    dotted = (width * 1.5, width * 2.5)
    water_style = board.line_styles.get("water", "dotted")
    # Water first, dotted; land after, solid, so a coast is drawn solid.
    for zone in board.zones_of_kind("water"):
        for ring, _ in _rings(zone.geometry):
            dash = dotted if water_style == "dotted" else None
            scene.add(Shape(ring, stroke=GREY, width_mm=width * 0.8, dash_mm=dash))
    for zone in board.top_zones:
        if zone.kind in ("water", "target"):
            continue
        for ring, _ in _rings(zone.geometry):
            scene.add(Shape(ring, stroke=BLACK, width_mm=width))
    for zone in board.sub_zones:
        for ring, _ in _rings(zone.geometry):
            scene.add(Shape(ring, stroke=BLACK, width_mm=width))


def _add_target(scene: Scene, board: Board) -> None:
    target = board.target
    assert target is not None
    for ring in sorted(target.rings, key=lambda r: -r.radius_mm):
        fill = COLOR_NAMES.get(ring.color, RED)
        scene.add(Circle(target.center, ring.radius_mm, fill=fill, stroke=BLACK, width_mm=0.5))
    scene.add(Circle(target.center, 1.0, fill=BLACK))


def _add_labels(scene: Scene, board: Board, is_classic: bool) -> None:
    if is_classic:
        return
    for zone in board.top_zones:
        if zone.kind == "target":
            continue
        x, y = zone.centroid
        if zone.kind == "water":
            col, row = zone.data.get("col"), zone.data.get("row")
            text = zone.name if col is None else f"{chr(65 + int(row))}{int(col) + 1}"
            scene.add(Text((x, y), text, 2.5, (90, 130, 170)))
            continue
        if zone.kind == "hex":
            _add_symbol(scene, zone)
            scene.add(Text((x, y + 32), zone.name, 5.0, BLACK, bold=True))
            continue
        text = zone.name
        scene.add(Text((x, y), text, _label_size(zone, text), BLACK))


def _add_numbers(scene: Scene, board: Board) -> None:
    order = board.segment_order
    center = board.target.center if board.target else (board.width_mm / 2, board.height_mm / 2)
    for index, number in enumerate(order):
        angle = math.radians(index * 18)
        x = center[0] + 197 * math.sin(angle)
        y = center[1] - 197 * math.cos(angle)
        scene.add(Text((x, y), str(number), 14.0, WHITE, bold=True))


def _add_markers(scene: Scene, board: Board) -> None:
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, board.marker_dictionary))
    cells = dictionary.markerSize + 2  # the code plus its black border
    for marker in board.markers:
        bits = cv2.aruco.generateImageMarker(dictionary, marker.id, cells)
        (x0, y0), (x1, _), _, (_, y3) = marker.corners[:4]
        cell_w, cell_h = (x1 - x0) / cells, (y3 - y0) / cells
        for row in range(cells):
            for col in range(cells):
                if bits[row, col] < 128:
                    scene.add(Rect(x0 + col * cell_w, y0 + row * cell_h, cell_w, cell_h, BLACK))
        scene.add(Text((x0 + (x1 - x0) / 2, y3 + 3.0), f"{marker.id}", 2.0, GREY))


def _add_scale_bar(scene: Scene, board: Board) -> None:
    length = 100.0
    x0 = board.width_mm / 2 - 160
    y = board.height_mm - 8.0
    if board.markers:
        # keep clear of the bottom markers' quiet zone
        y = max(m.corners[0][1] for m in board.markers) - 6.0
        x0 = (
            min(m.corners[1][0] for m in board.markers if m.corners[0][1] > board.height_mm / 2)
            + 15
        )
    scene.add(Rect(x0, y, length / 2, 2.0, BLACK))
    scene.add(Rect(x0 + length / 2, y, length / 2, 2.0, GREY))
    scene.add(Text((x0 + length / 2, y + 5.0), "100 mm: print at 100% (no scaling)", 2.2, BLACK))
    scene.add(Text((x0 + length / 2, y - 4.0), f"Oche board: {board.name}", 2.6, BLACK, bold=True))


def _add_symbol(scene: Scene, zone: Zone) -> None:
    """Simple vector icons for the Ground Round symbols."""
    symbol = str(zone.data.get("symbol", "blank"))
    cx, cy = zone.centroid
    cy -= 6
    ink = (40, 40, 40)
    if symbol == "flag":
        scene.add(Line(((cx - 12, cy + 22), (cx - 12, cy - 22)), ink, 2.5))
        scene.add(Shape(((cx - 12, cy - 22), (cx + 18, cy - 12), (cx - 12, cy - 2)), fill=RED))
    elif symbol in ("dart", "crossed_darts"):
        angles = (-35.0, 35.0) if symbol == "crossed_darts" else (0.0,)
        for angle in angles:
            _add_dart_icon(scene, (cx, cy), math.radians(angle), ink)
    elif symbol == "tower":
        outline = (
            (cx - 14, cy + 22), (cx - 14, cy - 14), (cx - 18, cy - 14), (cx - 18, cy - 24),
            (cx - 10, cy - 24), (cx - 10, cy - 18), (cx - 3, cy - 18), (cx - 3, cy - 24),
            (cx + 3, cy - 24), (cx + 3, cy - 18), (cx + 10, cy - 18), (cx + 10, cy - 24),
            (cx + 18, cy - 24), (cx + 18, cy - 14), (cx + 14, cy - 14), (cx + 14, cy + 22),
        )  # fmt: skip
        scene.add(Shape(outline, fill=(120, 110, 100), stroke=ink, width_mm=1.0))
    elif symbol == "pin":
        scene.add(Circle((cx, cy - 10), 10, fill=(40, 150, 60), stroke=ink, width_mm=1.0))
        scene.add(Shape(((cx - 8, cy - 4), (cx + 8, cy - 4), (cx, cy + 22)), fill=(40, 150, 60)))
        scene.add(Circle((cx, cy - 10), 4, fill=WHITE))
    elif symbol in ("fist", "flaming_fist"):
        if symbol == "flaming_fist":
            flame = (
                (cx - 16, cy + 8), (cx - 20, cy - 14), (cx - 10, cy - 6), (cx - 6, cy - 26),
                (cx + 2, cy - 10), (cx + 10, cy - 28), (cx + 14, cy - 8), (cx + 22, cy - 16),
                (cx + 18, cy + 8),
            )  # fmt: skip
            scene.add(Shape(flame, fill=(240, 110, 30)))
        scene.add(
            Shape(
                _rounded_box(cx, cy + 6, 30, 22, 6), fill=(230, 180, 140), stroke=ink, width_mm=1.2
            )
        )
        for k in range(1, 4):
            x = cx - 15 + k * 7.5
            scene.add(Line(((x, cy - 5), (x, cy + 3)), ink, 1.0))
        scene.add(Line(((cx - 15, cy + 3), (cx + 15, cy + 3)), ink, 1.0))


def _add_dart_icon(scene: Scene, center: tuple[float, float], angle: float, ink: Color) -> None:
    dx, dy = math.sin(angle), -math.cos(angle)
    tip = (center[0] + dx * 26, center[1] + dy * 26)
    tail = (center[0] - dx * 24, center[1] - dy * 24)
    scene.add(Line((tail, tip), ink, 2.2))
    px, py = -dy, dx
    for side in (-1, 1):
        flight = (
            tail,
            (tail[0] + dx * 12 + side * px * 8, tail[1] + dy * 12 + side * py * 8),
            (tail[0] + dx * 14, tail[1] + dy * 14),
        )
        scene.add(Shape(flight, fill=(30, 90, 200)))


def _rounded_box(cx: float, cy: float, w: float, h: float, r: float) -> Points:
    box = Polygon(
        [
            (cx - w / 2, cy - h / 2),
            (cx + w / 2, cy - h / 2),
            (cx + w / 2, cy + h / 2),
            (cx - w / 2, cy + h / 2),
        ]
    )
    shrunk = box.buffer(-r).buffer(r, quad_segs=4)
    return tuple(shrunk.exterior.coords)
