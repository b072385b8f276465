"""Hex geometry against hand-drawn cases: cones of fire, tails, rotation, zig-zag steps.

Coordinates are doubled-width ``(x, y)``: x counts half hexes, y rows up from the ground.
In the drawings each row is shifted half a hex from the next, as on the printed map; F is
the plane's front hex, X a hex of the cone, ``.`` a hex outside it.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dawgs import hexgrid

F = (0, 0)


def rotate60(h: hexgrid.Hex) -> hexgrid.Hex:
    """Turn a hex 60 degrees counter-clockwise about the origin (via real coordinates)."""
    x, y = hexgrid.centre(h)
    c, s = math.cos(math.pi / 3), math.sin(math.pi / 3)
    rx, ry = x * c - y * s, x * s + y * c
    return (round(rx * 2), round(ry / (math.sqrt(3) / 2)))


def test_cone_towards_an_edge_drawn_by_hand() -> None:
    # Flying level to the right (heading 0): one hex, then the 30-degree rays open it.
    #
    #   row +1      (1,1)  (3,1)  (5,1)  (7,1)
    #                 .      X      X      .
    #   row  0  (0,0)  (2,0)  (4,0)  (6,0)  (8,0)
    #             F      X      X      X      .
    #   row -1      (1,-1) (3,-1) (5,-1) (7,-1)
    #                 .      X      X      .
    expected = {(2, 0), (4, 0), (6, 0), (3, 1), (5, 1), (3, -1), (5, -1)}
    assert set(hexgrid.cone(F, hexgrid.RIGHT)) == expected


def test_cone_towards_a_vertex_drawn_by_hand() -> None:
    # Climbing at 30 degrees (heading 1): the cone lies between the 0- and 60-degree rays.
    #
    #   row +3                    (3,3)
    #                               X
    #   row +2               (2,2)  (4,2)
    #                          X      X
    #   row +1  (-1,1)  (1,1)  (3,1)  (5,1)
    #              .      X      X      X
    #   row  0       (0,0)  (2,0)  (4,0)  (6,0)
    #                  F      X      X      X
    expected = {(2, 0), (4, 0), (6, 0), (1, 1), (3, 1), (5, 1), (2, 2), (4, 2), (3, 3)}
    assert set(hexgrid.cone(F, 1)) == expected


def test_cone_straight_up_drawn_by_hand() -> None:
    # Nose straight up (heading 3, a vertex): symmetric about the vertical.
    #
    #   row +3  (-3,3) (-1,3)  (1,3)  (3,3)
    #              X      X      X      X
    #   row +2      (-2,2)  (0,2)  (2,2)
    #                  X      X      X
    #   row +1         (-1,1)  (1,1)
    #                     X      X
    #   row  0            (0,0)
    #                       F
    expected = {(-1, 1), (1, 1), (-2, 2), (0, 2), (2, 2), (-3, 3), (-1, 3), (1, 3), (3, 3)}
    assert set(hexgrid.cone(F, hexgrid.UP)) == expected


def test_cone_range_is_data() -> None:
    assert set(hexgrid.cone(F, hexgrid.RIGHT, reach=1)) == {(2, 0)}
    assert len(set(hexgrid.cone(F, hexgrid.RIGHT, reach=4))) > 7


@pytest.mark.parametrize(
    ("heading", "back"),
    [
        (0, (-2, 0)),  # level right: tail straight behind
        (6, (2, 0)),  # level left
        (2, (-1, -1)),  # 60 degrees up: behind across an edge
        # Vertex headings: the tail lies between two hexes and drops into the lower one.
        (1, (-1, -1)),  # 30 up-right: tail between (-2,0) and (-1,-1) -> (-1,-1)
        (11, (-2, 0)),  # 30 down-right: tail between (-1,1) and (-2,0) -> (-2,0)
        (5, (1, -1)),  # 30 up-left: between (2,0) and (1,-1) -> (1,-1)
        # Straight up or down: both candidates are level; the left one is taken.
        (3, (-1, -1)),
        (9, (-1, 1)),
    ],
)
def test_tail_hex(heading: int, back: hexgrid.Hex) -> None:
    assert hexgrid.back_hex(F, heading) == back


def test_rotation_turns_about_the_front_hex() -> None:
    # Level right, then 3 counter-clockwise: nose up, nose stays in F, tail swings under.
    #
    #   before:  [tail (-2,0)] [F (0,0)] ->         after:      ^ F (0,0)
    #                                                          (-1,-1) tail
    heading = hexgrid.rotate(hexgrid.RIGHT, 3)
    assert heading == hexgrid.UP
    assert hexgrid.body(F, heading) == ((0, 0), (-1, -1))
    assert hexgrid.rotate(hexgrid.RIGHT, -1) == 11  # one clockwise click dips the nose
    assert hexgrid.rotate(11, 2) == 1


def test_vertex_flight_zig_zags_along_the_true_line() -> None:
    # Heading 1 from F: (2,0), then (3,1) -- after two increments the plane is exactly on
    # the 30-degree line, at the hex across the vertex.
    front, zig = F, 0
    path = []
    for _ in range(4):
        front, zig = hexgrid.step(front, 1, zig)
        path.append(front)
    assert path == [(2, 0), (3, 1), (5, 1), (6, 2)]
    assert hexgrid.step(F, hexgrid.RIGHT, 0) == ((2, 0), 0)


def test_columns_and_altitude() -> None:
    # Odd rows are shifted half a hex right, like the printed map.
    assert hexgrid.from_column(0, 0) == (0, 0)
    assert hexgrid.from_column(0, 1) == (1, 1)
    assert hexgrid.from_column(3, 1) == (7, 1)
    assert hexgrid.column_of((7, 1)) == 3
    assert hexgrid.altitude_of((7, 1)) == 2


headings = st.integers(0, 11)
hexes = st.tuples(st.integers(-20, 20), st.integers(-20, 20)).filter(hexgrid.is_hex)


@given(headings)
def test_cones_turn_with_the_heading(heading: int) -> None:
    """The grid is symmetric under 60-degree turns; so are the cones."""
    turned = {rotate60(h) for h in hexgrid.cone(F, heading)}
    assert turned == set(hexgrid.cone(F, hexgrid.rotate(heading, 2)))


@given(headings)
def test_cones_mirror_left_and_right(heading: int) -> None:
    mirrored = {(-x, y) for x, y in hexgrid.cone(F, heading)}
    assert mirrored == set(hexgrid.cone(F, (6 - heading) % 12))


@given(headings, hexes)
def test_cone_size_reach_and_translation(heading: int, front: hexgrid.Hex) -> None:
    cone = set(hexgrid.cone(front, heading))
    assert len(cone) == (9 if hexgrid.is_vertex(heading) else 7)
    assert all(1 <= hexgrid.distance(front, h) <= 3 for h in cone)
    moved = {(x - front[0], y - front[1]) for x, y in cone}
    assert moved == set(hexgrid.cone(F, heading))


@given(headings, hexes, st.integers(0, 1))
def test_tail_and_steps_are_neighbours(heading: int, front: hexgrid.Hex, zig: int) -> None:
    assert hexgrid.distance(front, hexgrid.back_hex(front, heading)) == 1
    nxt, _ = hexgrid.step(front, heading, zig)
    assert hexgrid.distance(front, nxt) == 1
    assert hexgrid.is_hex(nxt)


@given(headings, st.integers(-12, 12))
def test_rotation_round_trip_and_twelve_headings(heading: int, steps: int) -> None:
    assert hexgrid.rotate(hexgrid.rotate(heading, steps), -steps) == heading
    assert hexgrid.rotate(heading, 12) == heading
    # one click alternates between edge and vertex headings
    assert hexgrid.is_vertex(hexgrid.rotate(heading, 1)) != hexgrid.is_vertex(heading)
