"""Every move shape: straight, one turn either way, exact distance, blocking, no square
twice, orthogonal steps only, the key's single step, captures on the last square only, and
the backward-tumble option. Positions are built by hand; player 0 moves north (up the rows)."""

from __future__ import annotations

import pytest

from rules.base import RulesError
from rules.conquest import Conquest
from rules.conquest.board import square_name

GAME = Conquest()
# The two keys, parked out of the way on squares that are not key squares.
KEYS = [(0, "a1", None, None), (1, "i8", None, None)]


def names(entries) -> set[str]:
    return {square_name(e["to"]) for e in entries}


def rule_of(game, state, action) -> str:
    with pytest.raises(RulesError) as caught:
        game.apply(state, action)
    return caught.value.rule


def test_a_two_goes_two_squares_straight_or_turns_once(position) -> None:
    state = position(GAME, [*KEYS, (0, "e4", 2, 1)])
    entries = GAME.destinations(state, [4, 3])
    # Straight two in each direction, and one square then one to either side: the four
    # diagonal neighbours, each reached two ways (turn after the first square either way).
    assert names(entries) == {"e6", "e2", "g4", "c4", "f5", "d5", "f3", "d3"}
    assert len(entries) == 12
    assert all(len(e["path"]) == 3 for e in entries)


def test_the_two_ways_to_a_square_can_leave_different_faces_up(position) -> None:
    # Right-handed die, 2 up and 1 south: 6 north, 5 down; face 3 = (1) x (2) = (-y) x z = -x,
    # so 3 west and 4 east.
    #   via e5 (north, then east): N gives (1 up, 5 south); the west face is still 3 and an
    #     east tumble brings it up -> 3 up, 5 south.
    #   via f4 (east, then north): E brings west 3 up -> (3, 1); N brings south 1 up and the
    #     bottom 4 south -> 1 up, 4 south.
    state = position(GAME, [*KEYS, (0, "e4", 2, 1)])
    ways = {
        tuple(square_name(s) for s in e["path"]): (e["top"], e["front"])
        for e in GAME.destinations(state, [4, 3])
        if square_name(e["to"]) == "f5"
    }
    assert ways == {("e4", "e5", "f5"): (3, 5), ("e4", "f4", "f5"): (1, 4)}


def test_applying_a_destination_gives_the_faces_it_promised(position, die_at) -> None:
    state = position(GAME, [*KEYS, (0, "e4", 2, 1)])
    for entry in GAME.destinations(state, [4, 3]):
        after = GAME.apply(state, entry["action"])
        moved = die_at(after, square_name(entry["to"]))
        assert (moved["top"], moved["front"]) == (entry["top"], entry["front"])
        assert after["last_move"]["path"] == entry["path"]


def test_straight_north_three_tumbles(position, mv, die_at) -> None:
    # (top, front) going north: (t, f) -> (f, 7 - t): (3,2) -> (2,4) -> (4,5) -> (5,3).
    state = position(GAME, [*KEYS, (0, "c2", 3, 2)])
    after = GAME.apply(state, mv(0, "c2 c3 c4 c5"))
    assert die_at(after, "c2") is None
    assert (die_at(after, "c5")["top"], die_at(after, "c5")["front"]) == (5, 3)


@pytest.mark.parametrize(
    "path",
    [
        "e2 e3 e4 f4 g4",  # north, then a right turn (east) for player 0
        "e2 e3 e4 d4 c4",  # north, then a left turn
        "e2 f2 g2 g3 g4",  # east, then a left turn north
        "e2 d2 c2 c3 c4",  # west, then a right turn north
        "e2 e3 f3 g3 h3",  # the turn after the first square
        "e2 e3 e4 e5 f5",  # the turn before the last square
        "e2 e3 e4 e5 e6",  # no turn at all
    ],
)
def test_one_quarter_turn_left_or_right_is_allowed(position, mv, path) -> None:
    state = position(GAME, [*KEYS, (0, "e2", 4, 1)])
    assert GAME.is_legal(state, mv(0, path))
    assert path.split()[-1] in names(GAME.destinations(state, [4, 1]))


def test_two_turns_are_refused(position, mv) -> None:
    state = position(GAME, [*KEYS, (0, "e2", 4, 1)])
    assert rule_of(GAME, state, mv(0, "e2 e3 f3 f4 g4")) == "one-turn"  # N, E, N, E
    assert rule_of(GAME, state, mv(0, "e2 e3 f3 f4 f5")) == "one-turn"  # N, E, N, N


def test_no_square_twice_in_one_move(position, mv) -> None:
    state = position(GAME, [*KEYS, (0, "e4", 2, 1), (0, "c4", 4, 1)])
    # Straight back: two squares, but it lands where it started.
    assert rule_of(GAME, state, mv(0, "e4 e5 e4")) == "no-revisit"
    # Round a block and back to the start square.
    assert rule_of(GAME, state, mv(0, "c4 c5 d5 d4 c4")) == "no-revisit"


def test_the_move_is_exactly_the_top_face(position, mv) -> None:
    state = position(GAME, [*KEYS, (0, "e4", 3, 1)])
    assert rule_of(GAME, state, mv(0, "e4 e5 e6")) == "exact-distance"
    assert rule_of(GAME, state, mv(0, "e4 e5 e6 e7 e8")) == "exact-distance"
    assert GAME.is_legal(state, mv(0, "e4 e5 e6 e7"))


def test_diagonal_steps_and_leaps_are_refused(position, mv) -> None:
    state = position(GAME, [*KEYS, (0, "e4", 2, 1)])
    assert rule_of(GAME, state, mv(0, "e4 f5 g6")) == "orthogonal"
    assert rule_of(GAME, state, mv(0, "e4 e6 e7")) == "orthogonal"


def test_a_path_off_the_board_is_refused(position) -> None:
    state = position(GAME, [*KEYS, (0, "b3", 2, 1)])
    off = {"type": "move", "player": 0, "path": [[1, 2], [0, 2], [-1, 2]]}
    assert rule_of(GAME, state, off) == "board-edge"
    # Two squares west would leave the board; every other shape stays on it.
    assert names(GAME.destinations(state, [1, 2])) == {"b5", "b1", "d3", "c4", "a4", "c2", "a2"}


def test_no_jumping_over_any_die(position, mv) -> None:
    # An enemy die on e5 and an own die on f4 wall off two of the four directions.
    state = position(GAME, [*KEYS, (0, "e4", 3, 1), (1, "e5", 2, 1), (0, "f4", 5, 1)])
    assert rule_of(GAME, state, mv(0, "e4 e5 e6 e7")) == "no-jump"
    assert rule_of(GAME, state, mv(0, "e4 f4 g4 h4")) == "no-jump"
    to = names(GAME.destinations(state, [4, 3]))
    # Every path to these squares crosses e5 or f4.
    assert not to & {"e7", "h4", "f6", "g5"}
    # Going round them is fine: d6 by west then north, g3 by south then east.
    assert {"d6", "g3"} <= to


def test_capture_only_on_the_last_square(position, mv, die_at) -> None:
    state = position(GAME, [*KEYS, (0, "e4", 3, 1), (1, "e7", 2, 1), (1, "c4", 2, 1)])
    after = GAME.apply(state, mv(0, "e4 e5 e6 e7"))
    assert die_at(after, "e7")["owner"] == 0
    assert [d["id"] for d in after["captured"] if d["owner"] == 1][-1] == after["last_move"][
        "captured"
    ]
    assert after["captured"][-1]["by"] == die_at(after, "e7")["id"]
    # Passing over an enemy is a jump, not a capture.
    assert rule_of(GAME, state, mv(0, "e4 d4 c4 b4")) == "no-jump"


def test_never_onto_an_own_die(position, mv) -> None:
    state = position(GAME, [*KEYS, (0, "e4", 3, 1), (0, "e7", 2, 1)])
    assert rule_of(GAME, state, mv(0, "e4 e5 e6 e7")) == "no-own-capture"
    assert "e7" not in names(GAME.destinations(state, [4, 3]))


def test_the_key_steps_one_square_in_any_direction(position, mv, die_at) -> None:
    state = position(GAME, [(0, "c3", None, None), (1, "i8", None, None), (1, "c2", 4, 1)])
    entries = GAME.destinations(state, [2, 2])
    assert names(entries) == {"c4", "c2", "b3", "d3"}
    assert all(e["top"] is None and e["front"] is None for e in entries)
    assert rule_of(GAME, state, mv(0, "c3 c4 c5")) == "key-one-square"
    assert rule_of(GAME, state, mv(0, "c3 d4")) == "orthogonal"
    after = GAME.apply(state, mv(0, "c3 c2"))  # the key may capture too
    assert die_at(after, "c2")["key"] and after["captured"][-1]["owner"] == 1


def test_only_the_mover_s_dice_move(position, mv) -> None:
    state = position(GAME, [*KEYS, (0, "e4", 2, 1), (1, "c6", 2, 1)])
    assert rule_of(GAME, state, mv(0, "c6 c5 c4")) == "own-die"
    assert rule_of(GAME, state, mv(0, "d4 d5 d6")) == "own-die"
    assert rule_of(GAME, state, mv(1, "c6 c5 c4")) == "turn-order"
    assert GAME.destinations(state, [2, 5]) == []
    assert names(GAME.destinations(state, [2, 5], any_owner=True)) >= {"c4", "c8", "e6", "a6"}
    assert GAME.destinations(state, [3, 3]) == []  # empty square


def test_backward_tumbles_can_be_switched_off(position, mv) -> None:
    game = Conquest({"backward_moves": False})
    state = position(game, [*KEYS, (0, "e4", 2, 1), (1, "e6", 2, 1), (0, "c3", None, None)])
    # Player 0's backward is south: nothing that tumbles south, not even on the second leg.
    assert names(game.destinations(state, [4, 3])) == {"e6", "g4", "c4", "f5", "d5"}
    assert rule_of(game, state, mv(0, "e4 e3 e2")) == "no-backward"
    assert rule_of(game, state, mv(0, "e4 f4 f3")) == "no-backward"
    # The key keeps all four directions (its paragraph says any direction).
    assert "c2" in names(game.destinations(state, [2, 2]))
    # Player 1's backward is north.
    state = dict(state, to_move=1)
    assert names(game.destinations(state, [4, 5])) == {"e4", "g6", "c6", "f5", "d5"}
    # With the default, backward is allowed.
    assert GAME.is_legal(state | {"to_move": 0}, mv(0, "e4 e3 e2"))


def test_destinations_take_a_square_name_too(position) -> None:
    state = position(GAME, [*KEYS, (0, "e4", 2, 1)])
    assert GAME.destinations(state, "e4") == GAME.destinations(state, [4, 3])
    with pytest.raises(RulesError, match="columns a-i"):
        GAME.destinations(state, "z9")
    with pytest.raises(RulesError, match=r"\[column, row\]"):
        GAME.destinations(state, [4])


def test_paths_are_columns_and_rows_only(position, mv) -> None:
    # One spelling per move keeps the text round trip canonical.
    state = position(GAME, [*KEYS, (0, "e4", 2, 1)])
    assert not GAME.is_legal(state, {"type": "move", "player": 0, "path": ["e4", "e5", "e6"]})
    assert GAME.is_legal(state, mv(0, "e4 e5 e6"))
