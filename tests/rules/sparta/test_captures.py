"""Captures: pieces shut in between two enemy pieces along a row, a column or either
diagonal, with no empty square between, are removed; every trapped run on the board goes at
once, whichever side it belongs to."""

from __future__ import annotations

import pytest

# Two far-away pieces a side keep the scenarios clear of the few-pieces end condition.
FAR = """
.  .  .  .  .  .  .
.  .  .  .  .  .  .
.  .  .  .  .  .  .
.  .  .  .  .  .  .
.  .  .  .  .  .  .
.  .  .  .  .  .  .
W  W  .  .  .  w  w
"""


def board(*pieces: tuple[str, int, int]) -> str:
    """FAR with extra pieces: ("W", row, col), ..."""
    rows = [line.split() for line in FAR.strip().splitlines()]
    for letter, row, col in pieces:
        rows[row][col] = letter
    return "\n".join("  ".join(r) for r in rows)


# name: (pieces added to FAR, the yellow piece's start, where it stops, the squares captured)
GEOMETRIES = {
    "row, arriving from the left": (
        [("W", 2, 0), ("w", 2, 2), ("W", 2, 3)],
        (2, 0),
        (2, 1),
        [(2, 2)],
    ),
    "row, arriving from the right": (
        [("W", 2, 5), ("w", 2, 2), ("W", 2, 1)],
        (2, 5),
        (2, 3),
        [(2, 2)],
    ),
    "column, arriving from above": (
        [("W", 0, 3), ("w", 2, 3), ("W", 3, 3)],
        (0, 3),
        (1, 3),
        [(2, 3)],
    ),
    "column, arriving from below": (
        [("W", 5, 3), ("w", 2, 3), ("W", 1, 3)],
        (5, 3),
        (3, 3),
        [(2, 3)],
    ),
    "diagonal, arriving at the upper-left end": (
        [("W", 0, 0), ("w", 2, 2), ("W", 3, 3)],
        (0, 0),
        (1, 1),
        [(2, 2)],
    ),
    "diagonal, arriving at the lower-right end": (
        [("W", 5, 5), ("w", 2, 2), ("W", 1, 1)],
        (5, 5),
        (3, 3),
        [(2, 2)],
    ),
    "anti-diagonal, arriving at the upper-right end": (
        [("W", 0, 5), ("w", 2, 3), ("W", 3, 2)],
        (0, 5),
        (1, 4),
        [(2, 3)],
    ),
    "anti-diagonal, arriving at the lower-left end": (
        [("W", 5, 0), ("w", 2, 3), ("W", 1, 4)],
        (5, 0),
        (3, 2),
        [(2, 3)],
    ),
    "a run of two along a row": (
        [("W", 2, 0), ("w", 2, 2), ("h", 2, 3), ("W", 2, 4)],
        (2, 0),
        (2, 1),
        [(2, 2), (2, 3)],
    ),
    "a run of three along a diagonal, shut by a hero": (
        [("W", 0, 0), ("w", 1, 2), ("w", 2, 3), ("w", 3, 4), ("H", 4, 5)],
        (0, 0),
        (0, 1),
        [(1, 2), (2, 3), (3, 4)],
    ),
}


@pytest.mark.parametrize("name", list(GEOMETRIES))
def test_every_capture_geometry(table, name):
    pieces, start, end, taken = GEOMETRIES[name]
    game, state = table.start(board(*pieces))
    after = game.apply(state, game.move_action(state, list(start), list(end)))
    for row, col in taken:
        assert after["board"][row][col] == ".", f"{(row, col)} should be captured"
    assert [tuple(c["square"]) for c in after["last"]["captured"]] == sorted(taken)
    assert all(c["player"] == 1 for c in after["last"]["captured"])
    lost = after["lost"][1]
    assert lost["warrior"] + lost["hero"] == len(taken)
    assert after["board"][end[0]][end[1]] != ".", "the capturing piece stays"


def test_no_capture_across_an_empty_square(table):
    game, state = table.start(board(("W", 2, 0), ("w", 2, 2), ("W", 2, 4)))
    after = table.move(game, state, (2, 0), (2, 1))
    assert after["board"][2][2] == "w", "(2,3) is empty, so the warrior is not shut in"
    assert after["last"]["captured"] == []


def test_no_capture_against_the_edge_of_the_board(table):
    game, state = table.start(board(("w", 2, 0), ("W", 2, 2)))
    after = table.move(game, state, (2, 2), (2, 1))
    assert after["board"][2][0] == "w"
    assert after["last"]["captured"] == []


def test_an_empty_city_does_not_shut_anyone_in(table):
    diagram = """
    .  .  .  .  .  .  .
    .  .  .  .  .  .  .
    .  .  .  .  .  .  .
    W  .  w  0  .  .  1
    .  .  .  .  .  .  .
    .  .  .  .  .  .  .
    W  W  .  .  .  w  w
    """
    game, state = table.start(diagram)
    after = table.move(game, state, (3, 0), (3, 1))
    assert after["board"][3][2] == "w", "the empty city on (3,3) counts as an empty square"


def test_heroes_and_warriors_capture_and_are_captured_alike(table):
    game, state = table.start(board(("H", 0, 3), ("h", 2, 3), ("W", 3, 3)))
    after = table.move(game, state, (0, 3), (1, 3))
    assert after["last"]["captured"] == [{"square": [2, 3], "player": 1, "kind": "hero"}]
    assert after["lost"][1] == {"warrior": 0, "hero": 1}


def test_several_lines_are_captured_at_once(table):
    # The warrior stopping on (3,3) shuts in along a row, a column and both diagonals.
    pieces = [
        ("w", 3, 4),
        ("W", 3, 5),
        ("w", 2, 3),
        ("W", 1, 3),
        ("w", 2, 2),
        ("W", 1, 1),
        ("w", 4, 2),
        ("W", 5, 1),
        ("W", 5, 3),
    ]
    game, state = table.start(board(*pieces))
    after = table.move(game, state, (5, 3), (4, 3), (3, 3))
    assert [tuple(c["square"]) for c in after["last"]["captured"]] == [
        (2, 2),
        (2, 3),
        (3, 4),
        (4, 2),
    ]
    assert after["board"][3][3] == "W"


def test_both_sides_lose_pieces_in_one_row(table):
    # Row 3 becomes W w W w W: yellow shuts in both red warriors, and the two red warriors
    # shut in the yellow one between them; all three are captured together.
    game, state = table.start(
        board(("W", 3, 0), ("w", 3, 1), ("w", 3, 3), ("W", 3, 4), ("W", 5, 2))
    )
    after = table.move(game, state, (5, 2), (4, 2), (3, 2))
    captured = sorted((tuple(c["square"]), c["player"]) for c in after["last"]["captured"])
    assert captured == [((3, 1), 1), ((3, 2), 0), ((3, 3), 1)]
    assert after["board"][3] == "W...W.."
    assert after["lost"] == [{"warrior": 1, "hero": 0}, {"warrior": 2, "hero": 0}]


def test_both_sides_lose_pieces_on_different_lines(table):
    # The mover shuts in a red warrior along the row but stops between two red pieces on the
    # column: every trapped piece goes, the mover's own included.
    pieces = [("W", 3, 1), ("w", 3, 2), ("w", 2, 3), ("h", 4, 3), ("W", 3, 5)]
    game, state = table.start(board(*pieces))
    after = table.move(game, state, (3, 5), (3, 4), (3, 3))
    captured = sorted((tuple(c["square"]), c["player"]) for c in after["last"]["captured"])
    assert captured == [((3, 2), 1), ((3, 3), 0)]


def test_a_piece_moving_between_two_enemies_is_captured(table):
    game, state = table.start(board(("w", 2, 1), ("w", 2, 3), ("W", 4, 2)))
    after = table.move(game, state, (4, 2), (3, 2), (2, 2))
    assert after["board"][2][2] == "."
    assert after["last"]["captured"] == [{"square": [2, 2], "player": 0, "kind": "warrior"}]
    assert after["lost"][0]["warrior"] == 1


def test_a_capture_leaves_the_city_under_the_piece_with_its_owner(table):
    diagram = """
    .  .  .  .  .  .  .
    .  .  .  .  .  .  .
    W  .  w1 W  .  .  0
    .  .  .  .  .  .  .
    .  .  .  .  .  .  .
    .  .  .  .  .  .  .
    W  W  .  .  .  w  w
    """
    game, state = table.start(diagram)
    after = table.move(game, state, (2, 0), (2, 1))
    assert after["board"][2][2] == "."
    assert after["cities"]["2,2"] == 1, "the city keeps its owner when its occupant is captured"


def test_the_opponent_captures_the_same_way(table):
    game, state = table.start(board(("w", 0, 3), ("W", 2, 3), ("w", 3, 3)), to_move=1)
    after = table.move(game, state, (0, 3), (1, 3))
    assert after["last"]["captured"] == [{"square": [2, 3], "player": 0, "kind": "warrior"}]
