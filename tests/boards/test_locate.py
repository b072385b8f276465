"""Zone lookup: points inside, on borders, at corners, off the board; batches agree."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from shapely.geometry import Point

import boards
from boards.builtin.groundround import HEX_RADIUS_MM, hex_center

GROUND = boards.load("groundround")
CLASSIC = boards.load("classic")
ORIGIN = (GROUND.width_mm / 2, GROUND.height_mm / 2)


def _hex_zone_at(q: int, r: int) -> str:
    for zone in GROUND.top_zones:
        if (zone.data["q"], zone.data["r"]) == (q, r):
            return zone.id
    raise AssertionError((q, r))


@pytest.mark.parametrize("board", [GROUND, CLASSIC], ids=["groundround", "classic"])
@given(data=st.data())
def test_point_well_inside_a_zone_maps_to_exactly_that_zone(
    board: boards.Board, data: st.DataObject
) -> None:
    zone = data.draw(st.sampled_from(board.top_zones))
    # A random point of the zone at least a line width plus 0.2 mm away from its border.
    inner = zone.geometry.buffer(-(board.half_line_mm + 0.2))
    if inner.is_empty:
        return
    minx, miny, maxx, maxy = inner.bounds
    x = data.draw(st.floats(minx, maxx))
    y = data.draw(st.floats(miny, maxy))
    if not inner.contains(Point(x, y)):
        return
    location = board.locate(x, y)
    assert location.zone == zone.id
    assert location.candidates == (zone.id,)
    assert not location.on_line


@given(
    index=st.integers(0, 200),
    t=st.floats(0.05, 0.95),
    offset=st.floats(-0.7, 0.7),
)
def test_point_on_a_shared_border_gives_both_zones(index: int, t: float, offset: float) -> None:
    pairs = sorted({tuple(sorted((a, b))) for a, ns in GROUND.adjacency.items() for b in ns})
    a, b = pairs[index % len(pairs)]
    border = GROUND.zone(a).geometry.boundary.intersection(GROUND.zone(b).geometry.boundary)
    point = border.interpolate(t, normalized=True)
    # Move across the border by less than half the printed line (0.75 mm).
    ca, cb = GROUND.zone(a).centroid, GROUND.zone(b).centroid
    direction = np.subtract(cb, ca) / np.linalg.norm(np.subtract(cb, ca))
    x, y = point.x + direction[0] * offset, point.y + direction[1] * offset
    location = GROUND.locate(x, y)
    assert location.on_line
    assert set(location.candidates) >= {a, b}


def test_corner_where_three_hexes_meet_gives_three() -> None:
    cx, cy = hex_center(0, 0, ORIGIN)
    corner = (
        cx + HEX_RADIUS_MM * math.cos(math.radians(60)),
        cy + HEX_RADIUS_MM * math.sin(math.radians(60)),
    )
    location = GROUND.locate(*corner)
    assert location.on_line
    assert set(location.candidates) == {_hex_zone_at(0, 0), _hex_zone_at(0, 1), _hex_zone_at(1, 0)}


def test_uncertainty_widens_the_line() -> None:
    cx, cy = hex_center(0, 0, ORIGIN)
    # Flat-topped: the right corner is at cx + R; 4 mm left of it the borders are 3.5 mm away.
    x, y = cx + HEX_RADIUS_MM - 4.0, cy
    sharp = GROUND.locate(x, y, sigma_mm=0.0)
    blurred = GROUND.locate(x, y, sigma_mm=3.0)
    assert not sharp.on_line
    assert blurred.on_line and sharp.zone in blurred.candidates


def test_off_the_board_is_none() -> None:
    location = GROUND.locate(2.0, 2.0)
    assert location.zone is None and location.candidates == () and not location.on_line


def test_red_area_of_crossed_darts_is_reported_as_subzone() -> None:
    red = next(z for z in GROUND.sub_zones if z.kind == "red_area")
    location = GROUND.locate(*red.centroid)
    assert location.zone == red.parent
    assert location.subzones == (red.id,)


def test_classic_scores_where_a_player_expects() -> None:
    cx, cy = CLASSIC.target.center
    assert CLASSIC.locate(cx, cy - 103).zone == "T20"  # treble 20 straight up
    assert CLASSIC.locate(cx, cy + 166).zone == "D3"  # double 3 straight down
    assert CLASSIC.locate(cx + 50, cy).zone == "S6"  # single 6 to the right
    assert CLASSIC.locate(cx, cy).zone == "DB"
    assert CLASSIC.locate(cx + 10, cy).zone == "SB"
    assert CLASSIC.locate(cx, cy - 200).zone is None  # the number ring scores nothing


@given(
    st.lists(st.tuples(st.floats(-50, 700), st.floats(-50, 700)), min_size=1, max_size=40),
    st.floats(0, 5),
)
def test_batch_lookup_agrees_with_single_lookups(
    points: list[tuple[float, float]], sigma: float
) -> None:
    batch = GROUND.locate_many(points, sigma)
    assert batch == [GROUND.locate(x, y, sigma) for x, y in points]


@pytest.mark.parametrize("name", boards.BUILTIN)
def test_adjacency_is_symmetric_and_irreflexive(name: str) -> None:
    board = boards.load(name)
    for zone, neighbours in board.adjacency.items():
        assert zone not in neighbours
        for other in neighbours:
            assert zone in board.adjacency[other]


def test_hex_adjacency_is_the_hex_grid() -> None:
    for zone in GROUND.top_zones:
        q, r = zone.data["q"], zone.data["r"]
        expected = {
            _hex_zone_at(q + dq, r + dr)
            for dq, dr in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
            if max(abs(q + dq), abs(r + dr), abs(q + dq + r + dr)) <= 2
        }
        assert GROUND.neighbours(zone.id) == expected


def test_negative_sigma_is_refused() -> None:
    with pytest.raises(ValueError, match="sigma"):
        GROUND.locate(300, 300, sigma_mm=-1)
