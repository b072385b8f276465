"""The built-in Dart Wars world map: what a player aiming darts at the printed poster relies on."""

from __future__ import annotations

import json
import math
from collections import deque
from itertools import combinations, pairwise

import pytest
import shapely
from shapely.geometry import Point, box

import boards
from boards.builtin import dartwars
from boards.fileformat import board_to_json
from boards.model import Board

#: The printed map (the sheet margin around it holds the calibration markers).
MAP_AREA = box(79.99, 79.99, 920.01, 620.01)
TERRITORY_KINDS = ("land", "island")


@pytest.fixture(scope="module")
def board() -> Board:
    return boards.load("dartwars")


def territories(board: Board):
    return board.zones_of_kind(*TERRITORY_KINDS)


def water_squares(board: Board):
    return [z for z in board.zones_of_kind("water") if "col" in z.data]


def cells_of(zone) -> set[tuple[int, int]]:
    merged = {(c, r) for c, r in zone.data.get("merged_cells", [])}
    return {(zone.data["col"], zone.data["row"])} | merged


def test_committed_file_is_what_the_generator_makes():
    committed = json.loads(boards.builtin_path("dartwars").read_text(encoding="utf-8"))
    assert board_to_json(dartwars.build()) == committed


def test_about_forty_territories_with_islands_and_white_territories(board):
    lands = territories(board)
    assert 36 <= len(lands) <= 45
    ids = {z.id for z in lands}
    for expected in ("russia", "canada", "usa", "brazil", "china", "australia"):
        assert board.zone(expected).kind == "land"
    for island in ("greenland", "iceland", "great_britain", "japan", "madagascar", "sri_lanka"):
        assert board.zone(island).kind == "island"
    game = board.game["dartwars"]
    assert set(game["islands"]) == {z.id for z in lands if z.kind == "island"}
    assert len(game["islands"]) >= 8
    assert game["white_territories"] and set(game["white_territories"]) <= ids
    for white in game["white_territories"]:
        assert board.zone(white).kind == "land" and board.zone(white).data["white"] is True
    for zone in lands:
        assert zone.id.isidentifier() and zone.id == zone.id.lower()
        assert zone.data["continent"]


def test_homelands_are_big_land_territories_never_islands_or_white(board):
    game = board.game["dartwars"]
    homelands = set(game["homelands"])
    assert homelands
    assert not homelands & set(game["islands"])
    assert not homelands & set(game["white_territories"])
    for zone_id in homelands:
        assert board.zone(zone_id).kind == "land"
        assert dartwars.across_mm(board.zone(zone_id).geometry) >= dartwars.MIN_ACROSS_MM


def test_every_territory_is_big_enough_to_aim_at_unless_marked_small(board):
    sizes = {z.id: dartwars.across_mm(z.geometry) for z in territories(board)}
    for zone in territories(board):
        if zone.data.get("small"):
            assert zone.kind == "island", f"{zone.id} is small but not an island"
            assert sizes[zone.id] >= 8.0, f"{zone.id} is too small even for a small island"
        else:
            assert sizes[zone.id] >= 25.0, f"{zone.id} is only {sizes[zone.id]:.1f} mm across"
    assert any(z.data.get("small") for z in territories(board))
    assert any(z.kind == "island" and not z.data.get("small") for z in territories(board))


def test_water_squares_are_named_after_their_grid_cell(board):
    squares = water_squares(board)
    assert len(squares) >= 60
    for zone in squares:
        col, row = zone.data["col"], zone.data["row"]
        assert zone.id == f"sea_{col}_{row}"
        assert zone.name == f"Sea {chr(ord('A') + col)}{row + 1}"
        cell = box(
            80 + col * dartwars.CELL_MM,
            80 + row * dartwars.CELL_MM,
            80 + (col + 1) * dartwars.CELL_MM,
            80 + (row + 1) * dartwars.CELL_MM,
        )
        # The square's own cell holds most of it; merged slivers add little.
        assert zone.geometry.intersection(cell).area > 0.5 * zone.geometry.area


def test_every_water_zone_is_big_enough_to_aim_at(board):
    for zone in board.zones_of_kind("water"):
        assert dartwars.across_mm(zone.geometry) >= dartwars.MIN_WATER_ACROSS_MM, zone.id


def test_water_squares_connect_orthogonally_never_diagonally(board):
    squares = {z.id: z for z in water_squares(board)}
    checked = 0
    for a, b in combinations(sorted(squares), 2):
        if b not in board.border_adjacency[a]:
            continue
        steps = {
            abs(ca - cb) + abs(ra - rb)
            for ca, ra in cells_of(squares[a])
            for cb, rb in cells_of(squares[b])
        }
        assert 1 in steps, f"{a} and {b} are neighbours but not side by side"
        checked += 1
    assert checked > 100


def test_squares_meeting_only_at_a_corner_are_not_neighbours(board):
    squares = {(z.data["col"], z.data["row"]): z for z in water_squares(board)}
    corner_pairs = 0
    for (col, row), zone in squares.items():
        diagonal = squares.get((col + 1, row + 1))
        if diagonal is None or zone.geometry.distance(diagonal.geometry) > 1e-6:
            continue
        if cells_of(zone) & {(col + 1, row), (col, row + 1)} or cells_of(diagonal) & {
            (col + 1, row),
            (col, row + 1),
        }:
            continue
        corner_pairs += 1
        assert diagonal.id not in board.border_adjacency[zone.id]
    assert corner_pairs > 20


def test_adjacency_is_symmetric_and_connects_the_whole_map(board):
    adjacency = board.adjacency
    for zone_id, neighbours in adjacency.items():
        for other in neighbours:
            assert zone_id in adjacency[other]
    start = "russia"
    seen = {start}
    queue = deque([start])
    while queue:
        for other in adjacency[queue.popleft()]:
            if other not in seen:
                seen.add(other)
                queue.append(other)
    playable = {z.id for z in board.top_zones if z.kind != "target"}
    assert seen == playable


def test_islands_border_only_water(board):
    kinds = {z.id: z.kind for z in board.top_zones}
    for zone in territories(board):
        neighbours = board.border_adjacency[zone.id]
        if zone.kind == "island":
            assert any(kinds[n] == "water" for n in neighbours), zone.id
            assert not any(kinds[n] in TERRITORY_KINDS for n in neighbours), zone.id


def test_sea_links_join_two_coasts_across_water(board):
    assert 8 <= len(board.links) <= 12
    pairs = {frozenset((link.a, link.b)) for link in board.links}
    assert frozenset(("great_britain", "france")) in pairs
    assert frozenset(("sri_lanka", "india")) in pairs
    for link in board.links:
        a, b = board.zone(link.a), board.zone(link.b)
        assert a.kind in TERRITORY_KINDS and b.kind in TERRITORY_KINDS
        assert link.kind == "sea"
        assert b.id not in board.border_adjacency[a.id], "a link is only for lands apart"
        start, end = Point(link.path.coords[0]), Point(link.path.coords[-1])
        assert a.geometry.distance(start) < 0.01 and b.geometry.distance(end) < 0.01
        assert board.are_adjacent(a.id, b.id)


def test_target_sits_alone_in_the_ocean(board):
    target = board.target
    assert target is not None
    zone = board.zone("target")
    assert zone.kind == "target"
    assert len(zone.geometry.exterior.coords) >= 65
    assert target.radius_mm == pytest.approx(60.0)
    assert Point(target.center).distance(zone.geometry.centroid) < 0.01
    colours = [ring.color for ring in sorted(target.rings, key=lambda r: r.radius_mm)]
    assert 5 <= len(colours) <= 6 and set(colours) == {"red", "white"}
    assert all(x != y for x, y in pairwise(colours))
    for other in board.top_zones:
        if other.id != "target":
            assert other.geometry.intersection(zone.geometry).area < 1e-6, other.id
    # Nothing but the target itself within its printed white margin.
    margin = Point(target.center).buffer(target.radius_mm + 2.0)
    assert [z.id for z in board.top_zones if z.geometry.intersects(margin)] == ["target"]
    assert board.locate(*target.center).zone == "target"


def test_zones_do_not_overlap_and_stay_inside_the_map(board):
    zones = board.top_zones
    tree = shapely.STRtree([z.geometry for z in zones])
    left, right = tree.query([z.geometry for z in zones], predicate="intersects")
    for i, j in zip(left.tolist(), right.tolist(), strict=True):
        if i < j:
            overlap = zones[i].geometry.intersection(zones[j].geometry).area
            # Vertices rounded to 1/1000 mm leave hairline slivers along shared borders.
            assert overlap < 0.1, (zones[i].id, zones[j].id, overlap)
    for zone in zones:
        assert MAP_AREA.contains(zone.geometry), zone.id


def test_map_leaves_the_markers_and_their_quiet_zone_clear(board):
    assert len(board.markers) == 8
    outline = board.outline
    for marker in board.markers:
        square = shapely.Polygon(marker.corners).buffer(10.0)
        assert not square.intersects(outline), marker.id


def test_the_oceans_and_lands_cover_the_map_area(board):
    # Everything in the map area is a zone except the white margin printed around the target.
    outer = board.target.radius_mm + dartwars.TARGET_CLEARANCE_MM
    margin = math.pi * (outer**2 - board.target.radius_mm**2)
    map_area = (920 - 80) * (620 - 80)
    assert board.outline.area == pytest.approx(map_area - margin, rel=1e-4)


PLACES = {
    "paris": ((2.35, 48.85), "france"),
    "brussels": ((4.35, 50.85), "france"),
    "madrid": ((-3.7, 40.4), "iberia"),
    "rome": ((12.5, 41.9), "italy"),
    "vienna": ((16.4, 48.2), "italy"),
    "berlin": ((13.4, 52.5), "central_europe"),
    "warsaw": ((21.0, 52.2), "central_europe"),
    "kyiv": ((30.5, 50.45), "eastern_europe"),
    "belgrade": ((20.5, 44.8), "balkans"),
    "athens": ((23.7, 38.0), "balkans"),
    "oslo": ((10.75, 59.9), "scandinavia"),
    "birmingham": ((-1.9, 52.5), "great_britain"),
    "moscow": ((37.6, 55.75), "russia"),
    "yakutsk": ((129.7, 62.0), "russia"),
    "ankara": ((32.9, 39.9), "turkey"),
    "tbilisi": ((44.8, 41.7), "turkey"),
    "riyadh": ((46.7, 24.7), "middle_east"),
    "baghdad": ((44.4, 33.3), "middle_east"),
    "tehran": ((51.4, 35.7), "iran_pakistan"),
    "kabul": ((69.2, 34.5), "iran_pakistan"),
    "tashkent": ((69.3, 41.3), "central_asia"),
    "delhi": ((77.2, 28.6), "india"),
    "beijing": ((116.4, 39.9), "china"),
    "seoul": ((127.0, 37.5), "china"),
    "ulaanbaatar": ((106.9, 47.9), "mongolia"),
    "hanoi": ((105.8, 21.0), "southeast_asia"),
    "tokyo": ((139.7, 35.7), "japan"),
    "cairo": ((31.2, 30.0), "egypt_sudan"),
    "khartoum": ((32.5, 15.6), "egypt_sudan"),
    "algiers": ((3.0, 36.7), "north_africa"),
    "kano": ((8.5, 12.0), "west_africa"),
    "kinshasa": ((15.3, -4.3), "central_africa"),
    "nairobi": ((36.8, -1.3), "east_africa"),
    "addis_ababa": ((38.7, 9.0), "east_africa"),
    "johannesburg": ((28.0, -26.2), "southern_africa"),
    "antananarivo": ((47.5, -18.9), "madagascar"),
    "fairbanks": ((-147.7, 64.8), "alaska"),
    "edmonton": ((-113.5, 53.5), "canada"),
    "montreal": ((-73.6, 45.5), "canada"),
    "chicago": ((-87.6, 41.9), "usa"),
    "los_angeles": ((-118.2, 34.1), "usa"),
    "mexico_city": ((-99.1, 19.4), "mexico"),
    "bogota": ((-74.1, 4.7), "colombia_venezuela"),
    "la_paz": ((-68.1, -16.5), "peru_bolivia"),
    "brasilia": ((-47.9, -15.8), "brazil"),
    "santiago": ((-70.7, -33.4), "argentina_chile"),
    "alice_springs": ((133.9, -23.7), "australia"),
    "central_greenland": ((-42.0, 72.0), "greenland"),
    "central_borneo": ((114.0, 1.0), "indonesia"),
    "mid_atlantic": ((-30.0, 35.0), None),
}


@pytest.mark.parametrize("place", sorted(PLACES))
def test_a_dart_on_a_city_lands_in_its_territory(board, place):
    (lon, lat), expected = PLACES[place]
    found = board.locate(*dartwars.project(lon, lat)).zone
    if expected is None:
        assert found.startswith("sea_")
    else:
        assert found == expected
