"""GeoJSON export and GeoJSON/SVG import, so users can trace their own printed board.

GeoJSON here is in board millimetres (x right, y down), not longitude/latitude: set QGIS to a
plain projected CRS. The FeatureCollection carries the board's settings in a foreign member
``"oche"`` so that export -> import round-trips the whole board; a file without it (traced
from scratch) gets defaults and ids from the features.

SVG: every closed shape becomes a zone. Its id is the element's ``id`` (Inkscape: Object
Properties), its name the Inkscape label or ``<title>``, its kind the ``data-kind``
attribute (``land``, ``island``, ``water`` ...; default ``land``). Set the document size in
millimetres so coordinates are millimetres.
"""

from __future__ import annotations

import json
import re
from html import escape
from pathlib import Path
from typing import Any

import numpy as np
from shapely.geometry import LineString, MultiPolygon, Polygon, mapping, shape
from shapely.ops import unary_union
from shapely.validation import make_valid

from boards.fileformat import BoardFileError, _round, board_from_json, board_to_json
from boards.model import Board
from oche.errors import UserError


def to_geojson(board: Board) -> dict[str, Any]:
    """A FeatureCollection in board mm; zones have properties id, name, kind, parent, data."""
    data = board_to_json(board)
    features: list[dict[str, Any]] = [
        {
            "type": "Feature",
            "id": zone["id"],
            "geometry": zone["geometry"],
            "properties": {
                "id": zone["id"],
                "name": zone["name"],
                "kind": zone["kind"],
                "parent": zone["parent"],
                "data": zone["data"],
            },
        }
        for zone in data["zones"]
    ]
    for index, link in enumerate(data["links"]):
        features.append(
            {
                "type": "Feature",
                "id": f"link-{index}",
                "geometry": {"type": "LineString", "coordinates": link["path"]},
                "properties": {
                    "id": f"link-{index}",
                    "name": f"{link['a']} - {link['b']}",
                    "kind": f"link:{link['kind']}",
                    "a": link["a"],
                    "b": link["b"],
                },
            }
        )
    settings = {k: v for k, v in data.items() if k not in ("zones", "links")}
    return {"type": "FeatureCollection", "oche": settings, "features": features}


def from_geojson(collection: Any, source: str, fallback_id: str) -> Board:
    """Build a board from a GeoJSON FeatureCollection (exported or traced)."""
    if not isinstance(collection, dict) or collection.get("type") != "FeatureCollection":
        raise BoardFileError(
            source, "$.type", "not a GeoJSON FeatureCollection", 'use "type": "FeatureCollection"'
        )
    features = collection.get("features")
    if not isinstance(features, list) or not features:
        raise BoardFileError(
            source, "$.features", "no features", "add the zones as Polygon features"
        )
    zones, links = [], []
    for index, feature in enumerate(features):
        path = f"$.features[{index}]"
        if not isinstance(feature, dict) or not isinstance(feature.get("geometry"), dict):
            raise BoardFileError(
                source, path, "a feature without geometry", "give every feature a geometry"
            )
        props = feature.get("properties") or {}
        geometry = feature["geometry"]
        if geometry.get("type") == "LineString" and "a" in props and "b" in props:
            kind = str(props.get("kind", "link:link")).removeprefix("link:")
            links.append(
                {
                    "a": props["a"],
                    "b": props["b"],
                    "kind": kind,
                    "path": geometry.get("coordinates", []),
                }
            )
            continue
        if geometry.get("type") not in ("Polygon", "MultiPolygon"):
            raise BoardFileError(
                source,
                f"{path}.geometry.type",
                f"{geometry.get('type')!r} is not a zone",
                "use Polygon features",
            )
        zone_id = props.get("id", feature.get("id", f"zone{index + 1}"))
        zones.append(
            {
                "id": str(zone_id),
                "name": str(props.get("name", zone_id)),
                "kind": str(props.get("kind", "land")),
                "parent": props.get("parent"),
                "data": props.get("data") or {},
                "geometry": geometry,
            }
        )
    settings = collection.get("oche")
    if not isinstance(settings, dict):
        settings = _default_settings(zones, fallback_id)
    return board_from_json({**settings, "zones": zones, "links": links}, source)


def _default_settings(zones: list[dict[str, Any]], board_id: str) -> dict[str, Any]:
    """Settings for a board traced from scratch: the sheet is the zones' extent plus a margin."""
    extent = unary_union([shape(z["geometry"]) for z in zones]).bounds
    margin = 20.0
    return {
        "format": "oche-board",
        "version": 1,
        "id": board_id,
        "name": board_id.replace("_", " ").title(),
        "sheet": {
            "width_mm": round(extent[2] + margin, 1),
            "height_mm": round(extent[3] + margin, 1),
        },
        "line_width_mm": 1.0,
    }


INKSCAPE_LABEL = "{http://www.inkscape.org/namespaces/inkscape}label"


def from_svg(path: Path, fallback_id: str) -> Board:
    """Build a board from an SVG drawing: every closed shape is a zone."""
    import svgelements

    try:
        svg = svgelements.SVG.parse(str(path), ppi=25.4)  # one user unit per mm at 25.4 ppi
    except Exception as exc:  # svgelements raises plain XML and value errors
        raise UserError(f"{path}: not a readable SVG file ({exc})") from None
    zones = []
    used: set[str] = set()
    for element in svg.elements():
        if not isinstance(element, svgelements.Shape) or isinstance(
            element, svgelements.SimpleLine
        ):
            continue
        polygon = _shape_polygon(svgelements.Path(element))
        if polygon is None:
            continue
        values = element.values
        label = values.get(INKSCAPE_LABEL) or values.get("inkscape:label")
        zone_id = _unique(_slug(str(element.id or label or "zone")), used)
        name = label or values.get("title") or element.id or zone_id
        zones.append(
            {
                "id": zone_id,
                "name": str(name),
                "kind": str(values.get("data-kind", "land")),
                "parent": values.get("data-parent"),
                "data": {},
                "geometry": _round(mapping(polygon)),
            }
        )
    if not zones:
        raise UserError(f"{path}: no closed shapes found; draw each zone as a closed path")
    settings = _default_settings(zones, fallback_id)
    if svg.width and svg.height:
        settings["sheet"] = {
            "width_mm": round(float(svg.width), 1),
            "height_mm": round(float(svg.height), 1),
        }
    return board_from_json({**settings, "zones": zones}, str(path))


def _shape_polygon(path: Any) -> Polygon | MultiPolygon | None:
    rings = []
    for sub in path.as_subpaths():
        sub_path = type(path)(sub)
        length = sub_path.length(error=1e-3)
        if not length:
            continue
        count = max(8, min(2000, int(length / 1.0)))  # a point every millimetre
        points = [(float(x), float(y)) for x, y in sub_path.npoint(np.linspace(0, 1, count + 1))]
        if len(points) >= 3 and LineString(points).is_ring is False:
            points.append(points[0])
        if len(points) >= 4:
            rings.append(Polygon(points))
    if not rings:
        return None
    # Even-odd filling, as drawing programs do: a ring inside another is a hole.
    geometry = make_valid(rings[0])
    for ring in rings[1:]:
        geometry = geometry.symmetric_difference(make_valid(ring))
    polygons = [
        g for g in getattr(geometry, "geoms", [geometry]) if isinstance(g, Polygon) and g.area > 1
    ]
    if not polygons:
        return None
    return polygons[0] if len(polygons) == 1 else MultiPolygon(polygons)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9_-]+", "_", text.lower()).strip("_") or "zone"


def _unique(base: str, used: set[str]) -> str:
    candidate, n = base, 2
    while candidate in used:
        candidate, n = f"{base}_{n}", n + 1
    used.add(candidate)
    return candidate


def import_board(path: Path) -> Board:
    """A board from a GeoJSON or SVG file."""
    suffix = path.suffix.lower()
    fallback_id = _slug(path.stem)
    if not path.exists():
        raise UserError(f"{path}: no such file")
    if suffix in (".geojson", ".json"):
        try:
            collection = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise BoardFileError(
                str(path),
                f"line {exc.lineno} column {exc.colno}",
                f"invalid JSON ({exc.msg})",
                "fix the JSON syntax",
            ) from None
        return from_geojson(collection, str(path), fallback_id)
    if suffix == ".svg":
        return from_svg(path, fallback_id)
    raise UserError(
        f"{path}: cannot import {suffix or 'a file without extension'}: use .geojson or .svg"
    )


def to_svg(board: Board) -> str:
    """The zones alone as an SVG drawing for tracing tools, readable by ``from_svg``."""
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<svg xmlns="http://www.w3.org/2000/svg" '
        'xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" '
        f'width="{board.width_mm:g}mm" height="{board.height_mm:g}mm" '
        f'viewBox="0 0 {board.width_mm:g} {board.height_mm:g}">',
    ]
    for zone in board.zones.values():
        polygons = getattr(zone.geometry, "geoms", [zone.geometry])
        d = " ".join(
            "M" + " ".join(f"{x:.3f},{y:.3f}" for x, y in ring.coords) + " Z"
            for polygon in polygons
            for ring in (polygon.exterior, *polygon.interiors)
        )
        parent = f' data-parent="{escape(zone.parent)}"' if zone.parent else ""
        lines.append(
            f'<path id="{escape(zone.id)}" inkscape:label="{escape(zone.name)}" '
            f'data-kind="{escape(zone.kind)}"{parent} fill-rule="evenodd" '
            f'fill="#ddd" stroke="#000" stroke-width="0.5" d="{d}"/>'
        )
    lines.append("</svg>")
    return "\n".join(lines) + "\n"
