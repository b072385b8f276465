"""Die orientation: hand-worked tumbles and properties of the orientation model.

Frame used in the comments: up = z, north = y (towards player 1), east = x. A die is
right-handed when face 3 points along (direction of 1) x (direction of 2), i.e. the faces
1, 2, 3 run counterclockwise round their corner; equivalently face 1 = (2) x (3) and
face 2 = (3) x (1). Cross products: x*y = z, y*z = x, z*x = y (and swapped = negated).

One tumble moves four faces round the axis of the edge the die tips over:
  north: top -> north side, south side -> top, bottom -> south side
  south: top -> south side, north side -> top
  east:  top -> east side,  west side -> top (front, the south face, stays)
  west:  top -> west side,  east side -> top (front stays)
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.conquest.dice import faces, is_orientation, tumble, tumble_along

# --- hand-worked tumbles ------------------------------------------------------------------
# Each case: handedness, (top, front) before, {direction: (top, front) after}.
HAND_WORKED = [
    # Right-handed, 1 up, 2 south: 3 = up x south = z x (-y) = x, so 3 east, 4 west,
    # 5 north (opposite 2), 6 bottom.
    #   N: south 2 comes up, bottom 6 turns south      -> (2, 6)
    #   S: north 5 comes up, top 1 turns south          -> (5, 1)
    #   E: west 4 comes up, south stays 2               -> (4, 2)
    #   W: east 3 comes up, south stays 2               -> (3, 2)
    ("right", (1, 2), {"N": (2, 6), "S": (5, 1), "E": (4, 2), "W": (3, 2)}),
    # Right-handed, 5 up, 3 south (player 0's outer dice at the start): 2 bottom (-z),
    # 4 north. Face 1 = (2) x (3) = (-z) x (-y) = z x y = -x: 1 faces west, 6 east.
    #   N: 3 comes up, bottom 2 turns south             -> (3, 2)
    #   S: north 4 comes up, top 5 turns south          -> (4, 5)
    #   E: west 1 comes up                              -> (1, 3)
    #   W: east 6 comes up                              -> (6, 3)
    ("right", (5, 3), {"N": (3, 2), "S": (4, 5), "E": (1, 3), "W": (6, 3)}),
    # Right-handed, 2 up, 4 south (player 1's 2-dice at the start): 3 north (+y), 5 bottom.
    # Face 1 = (2) x (3) = z x y = -x: 1 west, 6 east.
    #   N: 4 comes up, bottom 5 turns south             -> (4, 5)
    #   S: north 3 comes up, top 2 turns south          -> (3, 2)
    #   E: west 1 comes up                              -> (1, 4)
    #   W: east 6 comes up                              -> (6, 4)
    ("right", (2, 4), {"N": (4, 5), "S": (3, 2), "E": (1, 4), "W": (6, 4)}),
    # Right-handed, 6 up, 3 south (player 0's 6-dice at the start): 1 bottom (-z), 4 north.
    # Face 2 = (3) x (1) = (-y) x (-z) = y x z = x: 2 east, 5 west.
    #   N: 3 comes up, bottom 1 turns south             -> (3, 1)
    #   S: north 4 comes up, top 6 turns south          -> (4, 6)
    #   E: west 5 comes up                              -> (5, 3)
    #   W: east 2 comes up                              -> (2, 3)
    ("right", (6, 3), {"N": (3, 1), "S": (4, 6), "E": (5, 3), "W": (2, 3)}),
    # Left-handed (mirror image), 1 up, 2 south: 3 now faces west, 4 east, 5 north.
    #   N, S as for the right-handed die; E: west 3 comes up; W: east 4 comes up.
    ("left", (1, 2), {"N": (2, 6), "S": (5, 1), "E": (3, 2), "W": (4, 2)}),
    # Left-handed, 5 up, 3 south: the mirror of the second case, 1 east and 6 west.
    ("left", (5, 3), {"N": (3, 2), "S": (4, 5), "E": (6, 3), "W": (1, 3)}),
]


@pytest.mark.parametrize(
    ("hand", "before", "direction", "after"),
    [
        (hand, before, direction, after)
        for hand, before, table in HAND_WORKED
        for direction, after in table.items()
    ],
)
def test_one_tumble_matches_the_hand_worked_result(hand, before, direction, after) -> None:
    assert tumble(*before, direction, hand) == after


def test_all_six_faces_of_a_hand_worked_die() -> None:
    # Right-handed, 1 up and 2 south: 3 east (see HAND_WORKED), so 4 west, 5 north, 6 down.
    assert faces(1, 2) == {"top": 1, "bottom": 6, "north": 5, "south": 2, "east": 3, "west": 4}
    assert faces(1, 2, "left")["east"] == 4


def test_a_straight_run_of_five_north_from_the_starting_five() -> None:
    # (top, front) going north: (t, f) -> (f, 7 - t).
    # (5,3) -> (3,2) -> (2,4) -> (4,5) -> (5,3) -> (3,2): after five tumbles 3 is up.
    assert tumble_along(5, 3, "NNNNN") == (3, 2)


def test_a_turning_path_tracks_both_legs() -> None:
    # Right-handed (1,2) has 3 east and 4 west. North first: (2, 6). A north tumble turns
    # the die about its east-west axis, so 3 still faces east and 4 west; the east tumble
    # then brings the west face 4 up and leaves the south face 6 where it is: (4, 6).
    assert tumble_along(1, 2, "NE") == (4, 6)


def test_bad_input_names_the_problem() -> None:
    with pytest.raises(ValueError, match="not a die orientation"):
        tumble(1, 6, "N")
    with pytest.raises(ValueError, match="unknown direction"):
        tumble(1, 2, "NE")
    with pytest.raises(ValueError, match="handedness"):
        tumble(1, 2, "N", "ambidextrous")
    with pytest.raises(ValueError, match="adjacent faces"):
        faces(3, 4)


# --- an independent model: face -> outward unit vector, turned by rotation matrices --------
def _vector_die(top: int, front: int, hand: str) -> dict[int, tuple[int, int, int]]:
    full = faces(top, front, hand)
    unit = {
        "top": (0, 0, 1),
        "bottom": (0, 0, -1),
        "north": (0, 1, 0),
        "south": (0, -1, 0),
        "east": (1, 0, 0),
        "west": (-1, 0, 0),
    }
    return {face: unit[side] for side, face in full.items()}


_ROTATE = {
    # Tumbling north turns about the x axis taking up (z) to north (y): (x, y, z) -> (x, z, -y).
    "N": lambda v: (v[0], v[2], -v[1]),
    "S": lambda v: (v[0], -v[2], v[1]),
    # Tumbling east turns about the y axis taking up (z) to east (x): (x, y, z) -> (z, y, -x).
    "E": lambda v: (v[2], v[1], -v[0]),
    "W": lambda v: (-v[2], v[1], v[0]),
}


def _det(a, b, c) -> int:
    return (
        a[0] * (b[1] * c[2] - b[2] * c[1])
        - a[1] * (b[0] * c[2] - b[2] * c[0])
        + a[2] * (b[0] * c[1] - b[1] * c[0])
    )


ORIENTATIONS = [(t, f) for t, f in itertools.permutations(range(1, 7), 2) if t + f != 7]
orientations = st.sampled_from(ORIENTATIONS)
hands = st.sampled_from(["right", "left"])
walks = st.lists(st.sampled_from("NESW"), max_size=12)


def test_there_are_24_orientations_all_reachable_by_tumbling() -> None:
    assert len(ORIENTATIONS) == 24
    for hand in ("right", "left"):
        seen = {(1, 2)}
        todo = [(1, 2)]
        while todo:
            here = todo.pop()
            for direction in "NESW":
                nxt = tumble(*here, direction, hand)
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        assert seen == set(ORIENTATIONS)


@given(orientations, hands)
def test_every_orientation_has_the_right_handedness(start, hand) -> None:
    vectors = _vector_die(*start, hand)
    sign = 1 if hand == "right" else -1
    assert _det(vectors[1], vectors[2], vectors[3]) == sign
    for face in range(1, 7):  # opposite faces sum to 7
        assert vectors[7 - face] == tuple(-x for x in vectors[face])


@given(orientations, hands, walks)
def test_tumbles_agree_with_rotating_the_die(start, hand, walk) -> None:
    vectors = _vector_die(*start, hand)
    for direction in walk:
        vectors = {face: _ROTATE[direction](v) for face, v in vectors.items()}
    top = next(face for face, v in vectors.items() if v == (0, 0, 1))
    front = next(face for face, v in vectors.items() if v == (0, -1, 0))
    assert tumble_along(*start, walk, hand) == (top, front)


@given(orientations, hands, walks)
def test_faces_stay_a_valid_die_after_any_walk(start, hand, walk) -> None:
    top, front = tumble_along(*start, walk, hand)
    assert is_orientation(top, front)
    vectors = _vector_die(top, front, hand)
    assert _det(vectors[1], vectors[2], vectors[3]) == (1 if hand == "right" else -1)


@given(orientations, hands, walks)
def test_retracing_a_walk_backwards_restores_the_orientation(start, hand, walk) -> None:
    back = {"N": "S", "S": "N", "E": "W", "W": "E"}
    there = tumble_along(*start, walk, hand)
    assert tumble_along(*there, [back[d] for d in reversed(walk)], hand) == start


@given(orientations, hands, st.sampled_from("NESW"))
def test_four_tumbles_one_way_come_full_circle(start, hand, direction) -> None:
    assert tumble_along(*start, direction * 4, hand) == start
    assert tumble_along(*start, direction * 2, hand) != start  # half a turn shows another face


@given(orientations, st.sampled_from("NESW"))
def test_mirror_dice_differ_only_after_an_east_or_west_tumble(start, direction) -> None:
    # Top and front of a right- and a left-handed die evolve identically: handedness only
    # decides which of the remaining pair faces east, which matters after an E/W tumble.
    right = tumble(*start, direction, "right")
    left = tumble(*start, direction, "left")
    if direction in "NS":
        assert right == left
    else:
        assert right[1] == left[1] and right[0] + left[0] == 7
