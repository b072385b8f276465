"""The built-in Dart Wars board: a stylised world map with water squares and a combat target.

Run ``python -m boards.builtin.dartwars`` to rewrite ``boards/data/dartwars.json``.

How the map is made (all deterministic):

1. The hand-typed outlines of ``world_outlines`` are projected with Miller's cylindrical
   projection onto the map area (x 80..920 mm, y 80..620 mm of a 1000 x 700 mm sheet; the
   margin holds the calibration markers). The map is cut at the Bering Strait, the Southern
   Ocean and Antarctica are squeezed into a strip along the bottom, and smooth lenses enlarge
   Europe and Mexico, whose countries would otherwise be too small to aim at from 2 m.
2. Each continent is split into territories: every territory owns a few seed points, and each
   piece of land goes to the territory of its nearest seed (Voronoi cells). Islands belong
   wholly to their territory.
3. The oceans are cut into a 14 x 9 grid of 60 mm water squares (columns A..N, rows 1..9).
   A square is what is left of its cell after land and the target; a piece of water too small
   or too narrow to aim at joins the neighbouring water zone with which it shares the longest
   border. Squares that touch only at a corner are not neighbours (the board's border
   adjacency ignores corner contacts), so troops at sea move orthogonally only.
4. Light-blue sea links join chosen coasts across narrow seas.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import shapely
import shapely.affinity
import shapely.prepared
from shapely.geometry import LineString, MultiPolygon, Point, Polygon, box
from shapely.ops import nearest_points

from boards.builtin.common import MARKER_ID_BASE, generator_main, margin_markers
from boards.builtin.world_outlines import BLACK_SEA, LANDMASSES, TERRITORIES, Island, Territory
from boards.model import Board, Link, Ring, Target, Zone

SHEET_MM = (1000.0, 700.0)
MAP_BOX_MM = (80.0, 80.0, 920.0, 620.0)
CELL_MM = 60.0
COLUMNS = 14
ROWS = 9
#: The left edge of the map runs through the Bering Strait.
WEST_LONGITUDE = -168.5
TOP_LATITUDE = 83.0
#: Lenses that enlarge crowded regions (Europe, Mexico and the Caribbean): centre (lon, lat),
#: extra magnification at the centre, and reach (mm). Each one is a smooth radial stretch
#: that leaves far-away land where it was.
LENSES: tuple[tuple[tuple[float, float], float, float], ...] = (
    ((12.0, 47.0), 1.1, 65.0),
    ((-96.0, 21.0), 0.6, 35.0),
)

LINE_WIDTH_MM = 1.2
#: Coordinates in the board file are rounded to this.
GRID_MM = 0.001
#: Territories narrower than this (inscribed circle diameter) are "small" islands.
MIN_ACROSS_MM = 25.0
#: Water pieces below these limits are merged into a neighbouring water zone.
MIN_WATER_FRACTION = 0.2
MIN_WATER_ACROSS_MM = 15.0
#: Land of different territories must keep at least this much water between them.
MIN_STRAIT_MM = 3.0
#: Zones sharing less border than this only touch (the board's own corner rule is 3 mm).
MIN_SHARED_BORDER_MM = 4.0

TARGET_CENTRE_MM = (210.0, 440.0)
TARGET_RADIUS_MM = 60.0
#: White margin printed around the target: no water square reaches into it.
TARGET_CLEARANCE_MM = 3.0
TARGET_RINGS = (
    (12.0, "red", "bull"),
    (24.0, "white", "ring 2"),
    (36.0, "red", "ring 3"),
    (48.0, "white", "ring 4"),
    (60.0, "red", "ring 5"),
)

#: Light-blue sea links between coasts across narrow seas: (territory, territory).
SEA_LINKS: tuple[tuple[str, str], ...] = (
    ("great_britain", "france"),
    ("ireland", "great_britain"),
    ("iceland", "greenland"),
    ("greenland", "arctic_islands"),
    ("cuba", "usa"),
    ("iberia", "north_africa"),
    ("japan", "china"),
    ("sri_lanka", "india"),
    ("madagascar", "southern_africa"),
    ("indonesia", "southeast_asia"),
    ("new_guinea", "australia"),
    ("new_zealand", "australia"),
)

_SCALE_MM_PER_RAD = (MAP_BOX_MM[2] - MAP_BOX_MM[0]) / (2 * math.pi)


def _miller(latitude: float) -> float:
    return 1.25 * math.log(math.tan(math.pi / 4 + 0.4 * math.radians(latitude)))


#: Latitudes north of the Southern Ocean are stretched to fill the map's height; Antarctica
#: is squeezed into a strip along the bottom edge.
SOUTHERN_OCEAN_LATITUDE = -57.0
SOUTHERN_OCEAN_Y_MM = 560.0
ANTARCTIC_SQUEEZE = 0.62
_NORTH_SCALE = (SOUTHERN_OCEAN_Y_MM - MAP_BOX_MM[1]) / (
    _miller(TOP_LATITUDE) - _miller(SOUTHERN_OCEAN_LATITUDE)
)


def _plain_projection(lon: float, lat: float) -> tuple[float, float]:
    if lon < WEST_LONGITUDE:
        lon += 360.0
    x = MAP_BOX_MM[0] + math.radians(lon - WEST_LONGITUDE) * _SCALE_MM_PER_RAD
    depth = _miller(TOP_LATITUDE) - _miller(max(-89.0, min(89.0, lat)))
    y = MAP_BOX_MM[1] + depth * _NORTH_SCALE
    if lat < SOUTHERN_OCEAN_LATITUDE:
        below = _miller(SOUTHERN_OCEAN_LATITUDE) - _miller(max(-89.0, lat))
        y = SOUTHERN_OCEAN_Y_MM + below * _NORTH_SCALE * ANTARCTIC_SQUEEZE
    return x, y


_LENSES_MM = tuple((_plain_projection(*centre), gain, sigma) for centre, gain, sigma in LENSES)


def project(lon: float, lat: float) -> tuple[float, float]:
    """Board millimetres of a (longitude, latitude), lenses included."""
    x, y = _plain_projection(lon, lat)
    for (cx, cy), gain, sigma in _LENSES_MM:
        dx, dy = x - cx, y - cy
        stretch = 1.0 + gain * math.exp(-(dx * dx + dy * dy) / (2 * sigma * sigma))
        x, y = cx + dx * stretch, cy + dy * stretch
    return x, y


def _ring(
    points: Iterable[tuple[float, float]], shift: tuple[float, float] = (0.0, 0.0)
) -> Polygon:
    polygon = Polygon([project(lon + shift[0], lat + shift[1]) for lon, lat in points])
    if not polygon.is_valid:
        raise ValueError(f"outline starting at {next(iter(points))} crosses itself")
    return polygon


def _island_polygon(island: Island) -> Polygon:
    polygon = _ring(island.outline, island.shift)
    if island.scale != 1.0:
        centre = polygon.centroid
        polygon = shapely.affinity.scale(polygon, island.scale, island.scale, origin=centre)
    return polygon


def _parts(geometry: shapely.Geometry) -> list[Polygon]:
    if geometry.is_empty:
        return []
    if isinstance(geometry, Polygon):
        return [geometry]
    return [g for g in getattr(geometry, "geoms", []) if isinstance(g, Polygon) and g.area > 0]


def _as_zone_geometry(parts: Sequence[Polygon]) -> Polygon | MultiPolygon:
    ordered = sorted(parts, key=lambda p: (-p.area, p.bounds))
    return ordered[0] if len(ordered) == 1 else MultiPolygon(ordered)


def across_mm(geometry: shapely.Geometry) -> float:
    """Diameter of the largest circle inside the biggest part: how wide a target it is."""
    biggest = max(_parts(geometry), key=lambda p: p.area)
    radius = shapely.maximum_inscribed_circle(biggest, tolerance=0.05).length
    return round(2.0 * radius, 2)


def _boxes_touch(a: shapely.Geometry, b: shapely.Geometry) -> bool:
    ax0, ay0, ax1, ay1 = a.bounds
    bx0, by0, bx1, by1 = b.bounds
    return ax0 <= bx1 + 0.1 and bx0 <= ax1 + 0.1 and ay0 <= by1 + 0.1 and by0 <= ay1 + 0.1


def _shared_border(a: shapely.Geometry, b: shapely.Geometry) -> float:
    """Length of a's outline that runs along b (robust to rounding in the cut)."""
    return float(a.boundary.intersection(b.buffer(0.01, quad_segs=2)).length)


# --- land ------------------------------------------------------------------------------------


def _split_continents(lake: Polygon, map_box: Polygon) -> dict[str, list[Polygon]]:
    """Territory id -> its land parts, before clean-up."""
    pieces: dict[str, list[Polygon]] = {t.id: [] for t in TERRITORIES}
    far = box(-2000, -2000, 3000, 3000)
    for name, outline in sorted(LANDMASSES.items()):
        land = _ring(outline).intersection(map_box).difference(lake)
        near_land = shapely.prepared.prep(land.buffer(5.0))
        seeds = [
            (t.id, project(*s))
            for t in TERRITORIES
            for s in t.seeds
            if near_land.contains(Point(project(*s)))
        ]
        if not seeds:
            raise ValueError(f"landmass {name} has no seed: give one territory a seed on it")
        owners = sorted({tid for tid, _ in seeds})
        if len(owners) == 1:
            pieces[owners[0]].extend(_parts(land))
            continue
        cells = shapely.voronoi_polygons(
            shapely.MultiPoint([p for _, p in seeds]), extend_to=far, ordered=True
        )
        claimed: dict[str, list[Polygon]] = {tid: [] for tid in owners}
        for (tid, _), cell in zip(seeds, cells.geoms, strict=True):
            claimed[tid].append(cell)
        for tid in owners:
            pieces[tid].extend(_parts(shapely.union_all(claimed[tid]).intersection(land)))
    return pieces


def _tidy(
    pieces: dict[str, list[Polygon]], islands: dict[str, list[Polygon]]
) -> dict[str, Polygon | MultiPolygon]:
    """Give each stray bit of continent (a Voronoi cell that reached across a strait or
    around a bay) to the neighbour that shares the longest border with it."""
    mains: dict[str, list[Polygon]] = {}
    strays: list[Polygon] = []
    for tid in sorted(pieces):
        parts = sorted(pieces[tid], key=lambda p: (-p.area, p.bounds))
        mains[tid] = parts[:1]
        strays.extend(parts[1:])
    while strays:
        progress = False
        for stray in list(strays):
            best = max(
                (
                    (_shared_border(stray, shapely.union_all(parts)), tid)
                    for tid, parts in mains.items()
                    if parts
                ),
                default=(0.0, ""),
            )
            if best[0] > 0.5:
                mains[best[1]].append(stray)
                strays.remove(stray)
                progress = True
        if not progress:
            # A crumb cut off by a strait: it goes to the nearest territory.
            stray = strays.pop(0)
            nearest = min(
                (shapely.union_all(parts).distance(stray), tid)
                for tid, parts in mains.items()
                if parts
            )
            mains[nearest[1]].append(stray)
    result = {}
    for t in TERRITORIES:
        parts = [*mains.get(t.id, []), *islands.get(t.id, [])]
        if not parts:
            raise ValueError(f"territory {t.id} has no land: check its seeds")
        merged = shapely.union_all(parts)
        result[t.id] = _as_zone_geometry(_parts(merged))
    return result


def _lake() -> Polygon:
    return _ring(BLACK_SEA)


def build_land() -> dict[str, Polygon | MultiPolygon]:
    """Territory id -> geometry in board mm."""
    map_box = box(*MAP_BOX_MM)
    lake = _lake()
    pieces = _split_continents(lake, map_box)
    islands: dict[str, list[Polygon]] = {}
    for t in TERRITORIES:
        for island in t.islands:
            polygon = _island_polygon(island).intersection(map_box)
            islands.setdefault(t.id, []).extend(_parts(polygon))
    land = _tidy(pieces, islands)
    _check_straits(land, islands)
    return land


def _check_straits(
    land: dict[str, Polygon | MultiPolygon], islands: dict[str, list[Polygon]]
) -> None:
    """Islands keep clear water around them, so that a dart on the coast of one never
    counts as a line hit on another territory and islands border only the sea."""
    problems = []
    for tid, parts in sorted(islands.items()):
        for part in parts:
            for other, geometry in sorted(land.items()):
                gap = part.distance(geometry)
                if other != tid and gap < MIN_STRAIT_MM:
                    problems.append(f"an island of {tid} is {gap:.1f} mm from {other}")
    if problems:
        raise ValueError("; ".join(problems) + ": shift or shrink the islands")


# --- water ------------------------------------------------------------------------------------


def _column_letter(col: int) -> str:
    return chr(ord("A") + col)


def build_water(
    land_union: shapely.Geometry, lake: Polygon, target_disc: Polygon
) -> tuple[list[Zone], list[Polygon]]:
    """The water squares and the Black Sea, plus the pieces of water that reach no square
    (bays closed off at this scale), which the caller gives back to the land."""
    x0, y0 = MAP_BOX_MM[0], MAP_BOX_MM[1]
    cell_area = CELL_MM * CELL_MM
    mains: dict[tuple[int, int], shapely.Geometry] = {}
    fragments: list[tuple[tuple[int, int], Polygon]] = []
    dry = shapely.union_all([land_union, lake, target_disc])
    for row in range(ROWS):
        for col in range(COLUMNS):
            cell = box(
                x0 + col * CELL_MM,
                y0 + row * CELL_MM,
                x0 + (col + 1) * CELL_MM,
                y0 + (row + 1) * CELL_MM,
            )
            water = sorted(_parts(cell.difference(dry)), key=lambda p: (-p.area, p.bounds))
            aimable = [
                p
                for p in water
                if p.area >= MIN_WATER_FRACTION * cell_area and across_mm(p) >= MIN_WATER_ACROSS_MM
            ]
            if aimable:
                mains[(col, row)] = aimable[0]
                water.remove(aimable[0])
            fragments.extend(((col, row), p) for p in water)
    members: dict[tuple[int, int], list[tuple[int, int]]] = {k: [k] for k in mains}
    pending = list(fragments)
    progress = True
    while pending and progress:
        progress = False
        for item in list(pending):
            cell_key, piece = item
            border, key = max(
                (
                    (_shared_border(piece, geom), k)
                    for k, geom in sorted(mains.items())
                    if _boxes_touch(piece, geom)
                ),
                default=(0.0, (0, 0)),
            )
            if border >= MIN_SHARED_BORDER_MM:
                mains[key] = shapely.union_all([mains[key], piece])
                if cell_key not in members[key]:
                    members[key].append(cell_key)
                pending.remove(item)
                progress = True
    zones = []
    for (col, row), geometry in sorted(mains.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        data: dict[str, object] = {"col": col, "row": row}
        others = sorted(k for k in members[(col, row)] if k != (col, row))
        if others:
            data["merged_cells"] = [[c, r] for c, r in others]
        zones.append(
            Zone(
                id=f"sea_{col}_{row}",
                name=f"Sea {_column_letter(col)}{row + 1}",
                kind="water",
                geometry=_as_zone_geometry(_parts(geometry)),
                data=data,
            )
        )
    zones.append(
        Zone(id="black_sea", name="Black Sea", kind="water", geometry=lake, data={"lake": True})
    )
    return zones, [p for _, p in pending]


def _fill_bays(land: dict[str, Polygon | MultiPolygon], bays: list[Polygon]) -> None:
    """Closed-off water becomes part of the territory around it."""
    for bay in bays:
        border, tid = max((_shared_border(bay, g), t) for t, g in sorted(land.items()))
        if border <= 0:
            raise ValueError(f"water near {bay.centroid} touches nothing: widen a strait")
        land[tid] = _as_zone_geometry(_parts(shapely.union_all([land[tid], bay])))


# --- the board ----------------------------------------------------------------------------------


def _territory_zone(territory: Territory, geometry: Polygon | MultiPolygon) -> Zone:
    data: dict[str, object] = {
        "continent": territory.continent,
        "countries": list(territory.countries),
    }
    if territory.white:
        data["white"] = True
    size = across_mm(geometry)
    if size < MIN_ACROSS_MM:
        if territory.kind != "island":
            raise ValueError(
                f"territory {territory.id} is only {size:.1f} mm across: give it more land"
            )
        data["small"] = True
    kind = "land" if territory.white else territory.kind
    return Zone(id=territory.id, name=territory.name, kind=kind, geometry=geometry, data=data)


def _snapped(zone: Zone) -> Zone:
    """The zone on the file's 1/1000 mm grid, so that the file holds exactly this geometry
    (rounding a vertex later could make a ring cross itself)."""
    geometry = shapely.set_precision(zone.geometry, GRID_MM)
    if not geometry.is_valid or geometry.is_empty:
        raise ValueError(f"zone {zone.id} does not survive rounding to {GRID_MM} mm")
    return Zone(
        zone.id, zone.name, zone.kind, _as_zone_geometry(_parts(geometry)), zone.parent, zone.data
    )


def _link(a: Zone, b: Zone) -> Link:
    pa, pb = nearest_points(a.geometry, b.geometry)
    return Link(a.id, b.id, "sea", LineString([(pa.x, pa.y), (pb.x, pb.y)]))


def _target() -> tuple[Zone, Target]:
    rings = tuple(Ring(radius, color, name) for radius, color, name in TARGET_RINGS)
    disc = Point(TARGET_CENTRE_MM).buffer(TARGET_RADIUS_MM, quad_segs=32)
    zone = Zone(id="target", name="Combat target", kind="target", geometry=disc, data={})
    return zone, Target(TARGET_CENTRE_MM, rings)


def build() -> Board:
    """The Dart Wars world map."""
    land = build_land()
    target_zone, target = _target()
    clearance = Point(TARGET_CENTRE_MM).buffer(TARGET_RADIUS_MM + TARGET_CLEARANCE_MM, quad_segs=32)
    water, bays = build_water(shapely.union_all(list(land.values())), _lake(), clearance)
    _fill_bays(land, bays)
    territories = [_territory_zone(t, land[t.id]) for t in sorted(TERRITORIES, key=lambda t: t.id)]
    zones = {z.id: _snapped(z) for z in [*territories, *water, target_zone]}
    links = tuple(_link(zones[a], zones[b]) for a, b in SEA_LINKS)
    by_kind = {
        "homelands": [z.id for z in territories if z.kind == "land" and not z.data.get("white")],
        "islands": [z.id for z in territories if z.kind == "island"],
        "white_territories": [z.id for z in territories if z.data.get("white")],
    }
    return Board(
        id="dartwars",
        name="Dart Wars world map",
        description=(
            "An original stylised world map for Dart Wars: land territories, islands and white "
            "territories, the oceans cut into water squares, light-blue sea links and a "
            "red-and-white combat target."
        ),
        width_mm=SHEET_MM[0],
        height_mm=SHEET_MM[1],
        zones=zones,
        line_width_mm=LINE_WIDTH_MM,
        line_styles={"border": "solid", "coast": "solid", "water": "dotted", "link": "lightblue"},
        links=links,
        target=target,
        markers=margin_markers(
            SHEET_MM[0], SHEET_MM[1], size_mm=50, inset_mm=12, first_id=MARKER_ID_BASE["dartwars"]
        ),
        game={"dartwars": by_kind},
    )


if __name__ == "__main__":
    generator_main("dartwars", build)
