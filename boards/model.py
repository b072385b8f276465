"""A printed board as data: zones in board millimetres, adjacency, target, markers.

Coordinates: x to the right, y down, origin at the top-left corner of the printed sheet.
Geometry is shapely 2; zones keep GeoJSON-style geometry in the board file.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
import shapely
from shapely.geometry import LineString, MultiPolygon, Point, Polygon
from shapely.ops import polylabel

Geometry = Polygon | MultiPolygon

#: Zone kinds that are not places on the playing map (a dart there is not a territory hit).
NON_TERRITORY_KINDS = frozenset({"target"})


@dataclass(frozen=True)
class Zone:
    """One aimable area of the board. ``parent`` is set for sub-zones (a red area in a hex)."""

    id: str
    name: str
    kind: str
    geometry: Geometry
    parent: str | None = None
    data: Mapping[str, Any] = field(default_factory=dict)

    @property
    def centroid(self) -> tuple[float, float]:
        """A point well inside the zone (for labels and aiming), not the bare centroid,
        which can fall outside a concave or split zone."""
        biggest = max(_parts(self.geometry), key=lambda p: p.area)
        inside = polylabel(biggest, tolerance=0.5)
        if not inside.within(self.geometry):
            inside = self.geometry.representative_point()
        return float(inside.x), float(inside.y)


@dataclass(frozen=True)
class Link:
    """An explicit connection between two zones (a Dart Wars light-blue sea link)."""

    a: str
    b: str
    kind: str
    path: LineString


@dataclass(frozen=True)
class Ring:
    radius_mm: float
    color: str
    name: str = ""


@dataclass(frozen=True)
class Target:
    """A combat target: concentric rings around a centre; the outermost ring is its edge."""

    center: tuple[float, float]
    rings: tuple[Ring, ...]

    @property
    def radius_mm(self) -> float:
        return max(r.radius_mm for r in self.rings)

    def distance_mm(self, x_mm: float, y_mm: float) -> float:
        return float(np.hypot(x_mm - self.center[0], y_mm - self.center[1]))

    def contains(self, x_mm: float, y_mm: float) -> bool:
        return self.distance_mm(x_mm, y_mm) <= self.radius_mm


@dataclass(frozen=True)
class Marker:
    """A printed ArUco marker: id and its four corners in the detector's order
    (top-left, top-right, bottom-right, bottom-left of the marker as printed)."""

    id: int
    corners: tuple[tuple[float, float], ...]

    @property
    def size_mm(self) -> float:
        (x0, y0), (x1, y1) = self.corners[0], self.corners[1]
        return float(np.hypot(x1 - x0, y1 - y0))


@dataclass(frozen=True)
class Location:
    """The answer of ``Board.locate``.

    ``zone`` is the zone that contains the point (or the only zone within reach), ``None``
    off the board. ``candidates`` are the zones within half the printed line width plus the
    measurement uncertainty; ``on_line`` is true when there are two or more of them, so the
    thrower must choose. ``subzones`` are the sub-zones (e.g. red areas) hit.
    """

    zone: str | None
    candidates: tuple[str, ...]
    on_line: bool
    subzones: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "zone": self.zone,
            "candidates": list(self.candidates),
            "on_line": self.on_line,
            "subzones": list(self.subzones),
        }


@dataclass(frozen=True)
class Board:
    """One printed board. Build it with ``boards.load`` (which validates) or directly."""

    id: str
    name: str
    width_mm: float
    height_mm: float
    zones: Mapping[str, Zone]
    line_width_mm: float = 1.0
    line_styles: Mapping[str, str] = field(default_factory=dict)
    links: tuple[Link, ...] = ()
    target: Target | None = None
    markers: tuple[Marker, ...] = ()
    marker_dictionary: str = "DICT_4X4_50"
    game: Mapping[str, Any] = field(default_factory=dict)
    description: str = ""
    #: Shared borders shorter than this are corners, not borders (diagonal water squares).
    min_border_mm: float = 3.0

    @property
    def segment_order(self) -> tuple[int, ...]:
        """A steel-tip dartboard's numbers clockwise from the top (its ``game.classic``
        settings); empty for any other board."""
        return tuple(self.game.get("classic", {}).get("segment_order", ()))

    # --- zones ------------------------------------------------------------------------
    @cached_property
    def top_zones(self) -> tuple[Zone, ...]:
        return tuple(z for z in self.zones.values() if z.parent is None)

    @cached_property
    def sub_zones(self) -> tuple[Zone, ...]:
        return tuple(z for z in self.zones.values() if z.parent is not None)

    def zone(self, zone_id: str) -> Zone:
        try:
            return self.zones[zone_id]
        except KeyError:
            raise KeyError(f"board {self.id!r} has no zone {zone_id!r}") from None

    def zones_of_kind(self, *kinds: str) -> tuple[Zone, ...]:
        return tuple(z for z in self.top_zones if z.kind in kinds)

    def children(self, zone_id: str) -> tuple[Zone, ...]:
        return tuple(z for z in self.sub_zones if z.parent == zone_id)

    # --- adjacency --------------------------------------------------------------------
    @cached_property
    def border_adjacency(self) -> Mapping[str, frozenset[str]]:
        """Zones that share a printed border of at least ``min_border_mm``.

        Measured on the borders thickened by the printed line width, so that traced boards
        whose neighbouring outlines do not meet exactly still connect, while squares that
        only touch at a corner (diagonal water squares) do not.
        """
        zones = [z for z in self.top_zones if z.kind not in NON_TERRITORY_KINDS]
        tol = max(self.line_width_mm / 2, 0.25)
        grown = [z.geometry.buffer(tol, quad_segs=2) for z in zones]
        tree = shapely.STRtree(grown)
        left, right = tree.query(grown, predicate="intersects")
        result: dict[str, set[str]] = {z.id: set() for z in zones}
        for i, j in zip(left.tolist(), right.tolist(), strict=True):
            if i >= j:
                continue
            overlap = grown[i].intersection(grown[j]).area
            # The overlap of two thickened borders is a strip 2*tol wide along the border.
            if overlap / (2 * tol) >= self.min_border_mm + 2 * tol:
                result[zones[i].id].add(zones[j].id)
                result[zones[j].id].add(zones[i].id)
        return {k: frozenset(v) for k, v in result.items()}

    @cached_property
    def adjacency(self) -> Mapping[str, frozenset[str]]:
        """Border adjacency plus the explicit links."""
        result = {k: set(v) for k, v in self.border_adjacency.items()}
        for link in self.links:
            result.setdefault(link.a, set()).add(link.b)
            result.setdefault(link.b, set()).add(link.a)
        return {k: frozenset(v) for k, v in result.items()}

    def neighbours(self, zone_id: str) -> frozenset[str]:
        self.zone(zone_id)
        return self.adjacency.get(zone_id, frozenset())

    def are_adjacent(self, a: str, b: str) -> bool:
        return b in self.adjacency.get(a, frozenset())

    def link_between(self, a: str, b: str) -> Link | None:
        for link in self.links:
            if {link.a, link.b} == {a, b}:
                return link
        return None

    # --- lookup -----------------------------------------------------------------------
    @cached_property
    def _top_index(self) -> tuple[shapely.STRtree, tuple[str, ...]]:
        zones = self.top_zones
        return shapely.STRtree([z.geometry for z in zones]), tuple(z.id for z in zones)

    @cached_property
    def _sub_index(self) -> tuple[shapely.STRtree, tuple[str, ...]]:
        zones = self.sub_zones
        return shapely.STRtree([z.geometry for z in zones]), tuple(z.id for z in zones)

    @property
    def half_line_mm(self) -> float:
        return self.line_width_mm / 2

    def locate(self, x_mm: float, y_mm: float, sigma_mm: float = 0.0) -> Location:
        """The zone at a point, or the candidates when the point is on a printed line."""
        return self.locate_many([(x_mm, y_mm)], sigma_mm)[0]

    def locate_many(
        self, points: Iterable[tuple[float, float]] | np.ndarray, sigma_mm: float | np.ndarray = 0.0
    ) -> list[Location]:
        """``locate`` for many points at once (one vectorised tree query)."""
        xy = np.asarray(points, dtype=float).reshape(-1, 2)
        count = len(xy)
        reach = self.half_line_mm + np.broadcast_to(np.asarray(sigma_mm, dtype=float), (count,))
        if np.any(reach < 0):
            raise ValueError("sigma_mm must not be negative")
        geoms = shapely.points(xy)
        tree, ids = self._top_index
        inside_point, inside_zone = tree.query(geoms, predicate="within")
        containing: dict[int, int] = dict(
            zip(inside_point.tolist(), inside_zone.tolist(), strict=True)
        )
        near_point, near_zone = tree.query(geoms, predicate="dwithin", distance=float(reach.max()))
        near: list[list[int]] = [[] for _ in range(count)]
        if len(near_point):
            dist = shapely.distance(geoms[near_point], np.asarray(tree.geometries)[near_zone])
            keep = dist <= reach[near_point] + 1e-9
            for p, z in zip(near_point[keep].tolist(), near_zone[keep].tolist(), strict=True):
                near[p].append(z)
        subs = self._subzones_at(geoms)
        results = []
        for i in range(count):
            candidate_ids = tuple(sorted(ids[z] for z in set(near[i])))
            zone_index = containing.get(i)
            if zone_index is not None:
                zone: str | None = ids[zone_index]
            elif len(candidate_ids) == 1:
                zone = candidate_ids[0]
            else:
                zone = None
            results.append(Location(zone, candidate_ids, len(candidate_ids) >= 2, subs[i]))
        return results

    def _subzones_at(self, geoms: np.ndarray) -> list[tuple[str, ...]]:
        found: list[list[str]] = [[] for _ in range(len(geoms))]
        tree, ids = self._sub_index
        if ids:
            # A dart on the printed edge of a sub-zone counts as inside it.
            p, z = tree.query(geoms, predicate="dwithin", distance=self.half_line_mm)
            for pi, zi in zip(p.tolist(), z.tolist(), strict=True):
                found[pi].append(ids[zi])
        return [tuple(sorted(f)) for f in found]

    def contains_point(self, x_mm: float, y_mm: float) -> bool:
        return bool(self.outline.covers(Point(x_mm, y_mm)))

    @cached_property
    def outline(self) -> Geometry:
        """The union of all top-level zones: the playable surface."""
        return shapely.union_all([z.geometry for z in self.top_zones])


def _parts(geometry: Geometry) -> list[Polygon]:
    return list(geometry.geoms) if isinstance(geometry, MultiPolygon) else [geometry]
