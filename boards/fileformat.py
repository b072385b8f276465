"""Reading and writing board files (JSON, versioned) with errors that say where and how to fix.

Format, version 1::

    {"format": "oche-board", "version": 1, "id": "...", "name": "...",
     "sheet": {"width_mm": W, "height_mm": H},
     "line_width_mm": 1.2, "line_styles": {"border": "solid", "water": "dotted"},
     "zones": [{"id", "name", "kind", "geometry": GeoJSON Polygon|MultiPolygon,
                "parent": id|null, "data": {...}}],
     "links": [{"a", "b", "kind", "path": [[x, y], ...]}],
     "target": {"center": [x, y], "rings": [{"radius_mm", "color", "name"}]} | null,
     "markers": {"dictionary": "DICT_4X4_50", "items": [{"id", "corners": [[x, y] x4]}]},
     "game": {...}}
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import shapely
from shapely.geometry import LineString, MultiPolygon, Polygon, mapping, shape
from shapely.validation import explain_validity

from boards.model import Board, Link, Marker, Ring, Target, Zone
from oche.errors import UserError
from oche.files import write_atomic

FORMAT = "oche-board"
VERSION = 1
MARKER_DICTIONARIES = ("DICT_4X4_50", "DICT_4X4_100", "DICT_5X5_100", "DICT_6X6_250")


class BoardFileError(UserError):
    """A board file is wrong. The message names the file, the JSON path and the fix."""

    def __init__(self, source: str, path: str, problem: str, fix: str) -> None:
        super().__init__(f"{source}: at {path}: {problem}. Fix: {fix}")
        self.source = source
        self.json_path = path
        self.problem = problem
        self.fix = fix


class _Reader:
    """Walks a parsed board file, raising BoardFileError with the JSON path on any problem."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, path: str, problem: str, fix: str) -> BoardFileError:
        return BoardFileError(self.source, path, problem, fix)

    def get(
        self,
        obj: Mapping[str, Any],
        path: str,
        key: str,
        kind: type | tuple[type, ...],
        default: Any = ...,
    ) -> Any:
        if key not in obj:
            if default is not ...:
                return default
            raise self.fail(f"{path}.{key}", "missing", f'add "{key}"')
        value = obj[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        numeric = float in kinds and isinstance(value, int) and not isinstance(value, bool)
        if not numeric and (not isinstance(value, kinds) or isinstance(value, bool)):
            if bool in kinds and isinstance(value, bool):
                return value
            want = " or ".join(_type_name(k) for k in kinds)
            raise self.fail(
                f"{path}.{key}", f"expected {want}, found {_type_name(type(value))}", f"use {want}"
            )
        return float(value) if numeric else value

    def point(self, value: Any, path: str) -> tuple[float, float]:
        if (
            not isinstance(value, list)
            or len(value) != 2
            or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
        ):
            raise self.fail(path, f"expected a point [x_mm, y_mm], found {value!r}", "use [x, y]")
        return float(value[0]), float(value[1])


def _type_name(kind: type) -> str:
    return {
        dict: "an object",
        list: "a list",
        str: "a string",
        float: "a number",
        int: "an integer",
        bool: "true/false",
    }.get(kind, kind.__name__)


def board_from_json(data: Any, source: str = "<board>") -> Board:
    """Validate a parsed board file and build the Board."""
    r = _Reader(source)
    if not isinstance(data, dict):
        raise r.fail("$", "the file is not a JSON object", "start the file with {")
    if data.get("format") != FORMAT:
        raise r.fail("$.format", f"expected {FORMAT!r}", f'add "format": "{FORMAT}"')
    version = r.get(data, "$", "version", int)
    if version != VERSION:
        raise r.fail(
            "$.version",
            f"version {version} is not supported (this Oche reads version {VERSION})",
            "export the board again with this version of Oche",
        )
    board_id = r.get(data, "$", "id", str)
    if not board_id or not all(c.isalnum() or c in "-_" for c in board_id):
        raise r.fail("$.id", f"{board_id!r} is not a valid id", "use letters, digits, - and _")
    sheet = r.get(data, "$", "sheet", dict)
    width = r.get(sheet, "$.sheet", "width_mm", float)
    height = r.get(sheet, "$.sheet", "height_mm", float)
    if width <= 0 or height <= 0:
        raise r.fail("$.sheet", "the sheet size must be positive", "give the size in millimetres")
    line_width = r.get(data, "$", "line_width_mm", float, 1.0)
    if not 0 <= line_width <= 20:
        raise r.fail("$.line_width_mm", f"{line_width} mm is not plausible", "use 0 to 20 mm")

    zones = _read_zones(r, r.get(data, "$", "zones", list), width, height)
    links = _read_links(r, r.get(data, "$", "links", list, []), zones)
    target = _read_target(r, data.get("target"))
    marker_spec = r.get(data, "$", "markers", dict, {"dictionary": "DICT_4X4_50", "items": []})
    dictionary = r.get(marker_spec, "$.markers", "dictionary", str, "DICT_4X4_50")
    if dictionary not in MARKER_DICTIONARIES:
        raise r.fail(
            "$.markers.dictionary",
            f"unknown ArUco dictionary {dictionary!r}",
            f"use one of {', '.join(MARKER_DICTIONARIES)}",
        )
    markers = _read_markers(r, r.get(marker_spec, "$.markers", "items", list, []))
    line_styles = r.get(data, "$", "line_styles", dict, {})
    game = r.get(data, "$", "game", dict, {})
    return Board(
        id=board_id,
        name=r.get(data, "$", "name", str, board_id),
        description=r.get(data, "$", "description", str, ""),
        width_mm=width,
        height_mm=height,
        zones=zones,
        line_width_mm=line_width,
        line_styles=line_styles,
        links=links,
        target=target,
        markers=markers,
        marker_dictionary=dictionary,
        game=game,
    )


def _read_zones(r: _Reader, items: list, width: float, height: float) -> dict[str, Zone]:
    if not items:
        raise r.fail("$.zones", "the board has no zones", "add at least one zone")
    zones: dict[str, Zone] = {}
    for index, item in enumerate(items):
        path = f"$.zones[{index}]"
        if not isinstance(item, dict):
            raise r.fail(path, "a zone must be an object", 'use {"id": ..., "geometry": ...}')
        zone_id = r.get(item, path, "id", str)
        if zone_id in zones:
            raise r.fail(
                f"{path}.id", f"duplicate zone id {zone_id!r}", "give each zone its own id"
            )
        geometry = _read_geometry(r, r.get(item, path, "geometry", dict), f"{path}.geometry")
        minx, miny, maxx, maxy = geometry.bounds
        slack = 1.0
        if minx < -slack or miny < -slack or maxx > width + slack or maxy > height + slack:
            raise r.fail(
                f"{path}.geometry",
                f"zone {zone_id!r} reaches outside the {width:g} x {height:g} mm sheet",
                "check the coordinates are millimetres from the sheet's top-left corner",
            )
        zones[zone_id] = Zone(
            id=zone_id,
            name=r.get(item, path, "name", str, zone_id),
            kind=r.get(item, path, "kind", str, "zone"),
            geometry=geometry,
            parent=r.get(item, path, "parent", (str, type(None)), None),
            data=r.get(item, path, "data", dict, {}),
        )
    for index, zone in enumerate(zones.values()):
        if zone.parent is not None and zone.parent not in zones:
            raise r.fail(
                f"$.zones[{index}].parent",
                f"parent zone {zone.parent!r} does not exist",
                "name an existing zone id, or use null",
            )
    _check_overlaps(r, zones)
    return zones


def _check_overlaps(r: _Reader, zones: Mapping[str, Zone]) -> None:
    top = [z for z in zones.values() if z.parent is None]
    tree = shapely.STRtree([z.geometry for z in top])
    left, right = tree.query([z.geometry for z in top], predicate="intersects")
    for i, j in zip(left.tolist(), right.tolist(), strict=True):
        if i < j:
            area = top[i].geometry.intersection(top[j].geometry).area
            # Traced boards never meet exactly; only a real overlap is an error.
            if area > 1.0:
                ids = list(zones)
                raise r.fail(
                    f"$.zones[{ids.index(top[j].id)}].geometry",
                    f"zones {top[i].id!r} and {top[j].id!r} overlap by {area:.1f} mm²",
                    "make neighbouring zones share their border instead of overlapping",
                )


def _read_geometry(r: _Reader, spec: dict, path: str) -> Polygon | MultiPolygon:
    kind = spec.get("type")
    if kind not in ("Polygon", "MultiPolygon"):
        raise r.fail(
            f"{path}.type", f"{kind!r} is not a polygon", 'use "Polygon" or "MultiPolygon"'
        )
    try:
        geometry = shape(spec)
    except (ValueError, TypeError, IndexError, AttributeError) as exc:
        raise r.fail(
            f"{path}.coordinates", f"not valid GeoJSON coordinates ({exc})", "use [[[x, y], ...]]"
        ) from None
    if not geometry.is_valid:
        raise r.fail(
            path,
            f"the polygon is invalid ({explain_validity(geometry)})",
            "remove self-intersections (e.g. Inkscape: Path > Union)",
        )
    if geometry.is_empty or geometry.area <= 0:
        raise r.fail(path, "the polygon has no area", "give at least three distinct corners")
    return geometry


def _read_links(r: _Reader, items: list, zones: Mapping[str, Zone]) -> tuple[Link, ...]:
    links = []
    for index, item in enumerate(items):
        path = f"$.links[{index}]"
        if not isinstance(item, dict):
            raise r.fail(path, "a link must be an object", 'use {"a": id, "b": id}')
        ends = []
        for key in ("a", "b"):
            zone_id = r.get(item, path, key, str)
            if zone_id not in zones:
                raise r.fail(f"{path}.{key}", f"no zone {zone_id!r}", "name an existing zone id")
            ends.append(zone_id)
        raw_path = r.get(item, path, "path", list, [])
        points = [r.point(p, f"{path}.path[{i}]") for i, p in enumerate(raw_path)]
        if len(points) < 2:
            points = [zones[ends[0]].centroid, zones[ends[1]].centroid]
        links.append(
            Link(ends[0], ends[1], r.get(item, path, "kind", str, "link"), LineString(points))
        )
    return tuple(links)


def _read_target(r: _Reader, spec: Any) -> Target | None:
    if spec is None:
        return None
    if not isinstance(spec, dict):
        raise r.fail("$.target", "the target must be an object or null", "see the format doc")
    center = r.point(r.get(spec, "$.target", "center", list), "$.target.center")
    rings = []
    for index, item in enumerate(r.get(spec, "$.target", "rings", list)):
        path = f"$.target.rings[{index}]"
        radius = r.get(item, path, "radius_mm", float)
        if radius <= 0:
            raise r.fail(f"{path}.radius_mm", "a ring radius must be positive", "use millimetres")
        rings.append(
            Ring(radius, r.get(item, path, "color", str, "red"), r.get(item, path, "name", str, ""))
        )
    if not rings:
        raise r.fail("$.target.rings", "the target has no rings", "add at least one ring")
    return Target(center, tuple(rings))


def _read_markers(r: _Reader, items: list) -> tuple[Marker, ...]:
    markers: list[Marker] = []
    seen: set[int] = set()
    for index, item in enumerate(items):
        path = f"$.markers.items[{index}]"
        marker_id = r.get(item, path, "id", int)
        if marker_id in seen:
            raise r.fail(
                f"{path}.id", f"duplicate marker id {marker_id}", "give each marker its own id"
            )
        seen.add(marker_id)
        corners = r.get(item, path, "corners", list)
        if len(corners) != 4:
            raise r.fail(f"{path}.corners", "a marker has 4 corners", "list TL, TR, BR, BL")
        markers.append(
            Marker(
                marker_id, tuple(r.point(c, f"{path}.corners[{i}]") for i, c in enumerate(corners))
            )
        )
    return tuple(markers)


def board_to_json(board: Board) -> dict[str, Any]:
    """The board as a version-1 board file (rounded to 1/1000 mm)."""

    def geo(geometry: Polygon | MultiPolygon) -> dict[str, Any]:
        return _round(mapping(geometry))

    return {
        "format": FORMAT,
        "version": VERSION,
        "id": board.id,
        "name": board.name,
        "description": board.description,
        "sheet": {"width_mm": board.width_mm, "height_mm": board.height_mm},
        "line_width_mm": board.line_width_mm,
        "line_styles": dict(board.line_styles),
        "zones": [
            {
                "id": z.id,
                "name": z.name,
                "kind": z.kind,
                "parent": z.parent,
                "data": dict(z.data),
                "geometry": geo(z.geometry),
            }
            for z in board.zones.values()
        ],
        "links": [
            {"a": k.a, "b": k.b, "kind": k.kind, "path": _round([list(c) for c in k.path.coords])}
            for k in board.links
        ],
        "target": None
        if board.target is None
        else {
            "center": list(board.target.center),
            "rings": [
                {"radius_mm": g.radius_mm, "color": g.color, "name": g.name}
                for g in board.target.rings
            ],
        },
        "markers": {
            "dictionary": board.marker_dictionary,
            "items": [{"id": m.id, "corners": [list(c) for c in m.corners]} for m in board.markers],
        },
        "game": dict(board.game),
    }


def _round(value: Any) -> Any:
    """Round coordinates to micrometres and turn tuples into lists, for stable files."""
    if isinstance(value, float):
        return round(value, 3)
    if isinstance(value, list | tuple):
        return [_round(v) for v in value]
    if isinstance(value, dict):
        return {k: _round(v) for k, v in value.items()}
    return value


def load_file(path: str | Path) -> Board:
    """Load and validate a board file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(f"{path}: no such board file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{path}: cannot read the board file ({exc})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BoardFileError(
            str(path),
            f"line {exc.lineno} column {exc.colno}",
            f"invalid JSON ({exc.msg})",
            "fix the JSON syntax (a JSON validator shows the exact spot)",
        ) from None
    return board_from_json(data, str(path))


def save_file(board: Board, path: str | Path) -> None:
    """Write a board file (atomically: a failed write never leaves half a file)."""
    write_atomic(path, json.dumps(board_to_json(board), indent=1) + "\n")
