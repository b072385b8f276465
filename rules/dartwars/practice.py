"""Small Dart Wars maps drawn as text grids: for scenario tests, docs and quick trials.

A map is a list of rows of zone ids separated by spaces; cells with the same id merge into one
zone. Each cell is a square of ``cell_mm``, so adjacency comes from the geometry exactly as on
the printed board (cells that only touch at a corner are not neighbours). A combat target is
added to the right of the grid.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import shapely
from shapely.geometry import LineString, Point, box

from boards.model import Board, Link, Ring, Target, Zone

TARGET_ZONE = "target"


def grid_board(
    rows: Sequence[str],
    kinds: Mapping[str, str] | None = None,
    links: Iterable[tuple[str, str]] = (),
    homelands: Iterable[str] | None = None,
    white: Iterable[str] = (),
    cell_mm: float = 100.0,
    board_id: str = "practice",
) -> Board:
    """Build a board from a text grid.

    ``kinds`` maps zone ids to "land", "island" or "water"; ids starting with "w" default to
    water, the others to land. ``homelands`` lists the zones eligible as homelands (default:
    every land zone that is not white). ``links`` are light-blue sea links between two zones.
    """
    kinds = dict(kinds or {})
    white_ids = set(white)
    cells: dict[str, list] = {}
    grid = [row.split() for row in rows]
    for r, row in enumerate(grid):
        for c, zone_id in enumerate(row):
            if zone_id == ".":
                continue
            x, y = c * cell_mm, r * cell_mm
            cells.setdefault(zone_id, []).append(box(x, y, x + cell_mm, y + cell_mm))
    zones: dict[str, Zone] = {}
    for zone_id, parts in cells.items():
        kind = kinds.get(zone_id, "water" if zone_id.startswith("w") else "land")
        data = {"white": True} if zone_id in white_ids else {}
        geometry = shapely.union_all(parts)
        zones[zone_id] = Zone(zone_id, zone_id.upper(), kind, geometry, data=data)
    width = max(len(row) for row in grid) * cell_mm
    height = len(grid) * cell_mm
    radius = cell_mm * 0.45
    center = (width + cell_mm, cell_mm / 2)
    zones[TARGET_ZONE] = Zone(TARGET_ZONE, "Target", "target", Point(center).buffer(radius, 64))
    target = Target(
        center,
        (
            Ring(radius * 0.2, "red", "bull"),
            Ring(radius * 0.6, "white", "inner"),
            Ring(radius, "red", "outer"),
        ),
    )
    link_list = tuple(
        Link(a, b, "sea", LineString([zones[a].centroid, zones[b].centroid])) for a, b in links
    )
    lands = [z.id for z in zones.values() if z.kind == "land" and z.id not in white_ids]
    islands = [z.id for z in zones.values() if z.kind == "island"]
    game = {
        "dartwars": {
            "homelands": sorted(homelands) if homelands is not None else sorted(lands),
            "islands": sorted(islands),
            "white_territories": sorted(white_ids),
        }
    }
    return Board(
        id=board_id,
        name="Dart Wars practice map",
        width_mm=width + 2 * cell_mm,
        height_mm=height,
        zones=zones,
        line_width_mm=1.0,
        links=link_list,
        target=target,
        game=game,
    )


#: A small world: two continents joined by water and a sea link, an island, a white territory.
SMALL_WORLD = (
    "a  a  b  b  w1 w2 e  e",
    "a  c  c  b  w3 w4 e  f",
    "d  c  c  g  w5 w6 f  f",
    "d  d  g  g  w7 i  h  h",
)


def small_world(**kwargs) -> Board:
    """The practice map used by the tests and the docs' examples."""
    options = {
        "kinds": {"i": "island"},
        "links": [("b", "e")],
        "white": ["g"],
        **kwargs,
    }
    return grid_board(SMALL_WORLD, **options)
