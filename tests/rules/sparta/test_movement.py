"""Movement: warriors 1-2 squares, heroes 1-3, any of 8 directions, turning on the way,
only over and onto empty squares, never back to the starting square."""

from __future__ import annotations

import pytest

from rules.base import ActionFormatError, RulesError

OPEN = """
w . . w . . w
. . . . . . .
. . . . . . .
. . . W . . .
. . . . . . .
. . . . . . .
W . . . . . W
"""

OPEN_HERO = OPEN.replace(". . . W . . .", ". . . H . . .")


def reach_set(game, state, square):
    return {tuple(d["to"]) for d in game.destinations(state, list(square))}


def king_ring(center, radius, size=7):
    r0, c0 = center
    return {
        (r, c)
        for r in range(size)
        for c in range(size)
        if max(abs(r - r0), abs(c - c0)) <= radius and (r, c) != center
    }


def test_a_warrior_reaches_every_square_within_two_king_steps(table):
    game, state = table.start(OPEN)
    assert reach_set(game, state, (3, 3)) == king_ring((3, 3), 2)
    assert len(king_ring((3, 3), 2)) == 24


def test_a_hero_reaches_every_empty_square_within_three_king_steps(table):
    game, state = table.start(OPEN_HERO)
    occupied = {(0, 0), (0, 3), (0, 6), (6, 0), (6, 6)}
    assert reach_set(game, state, (3, 3)) == king_ring((3, 3), 3) - occupied


@pytest.mark.parametrize(
    "path",
    [
        [(3, 3), (2, 3)],  # one step along a column
        [(3, 3), (4, 4)],  # one diagonal step
        [(3, 3), (3, 4), (3, 5)],  # straight along the row
        [(3, 3), (2, 3), (2, 4)],  # turning once
        [(3, 3), (2, 2), (3, 1)],  # turning from one diagonal to the other
    ],
)
def test_warrior_moves_up_to_two_squares_and_may_turn(table, path):
    game, state = table.start(OPEN)
    after = table.move(game, state, *path)
    assert after["board"][path[-1][0]][path[-1][1]] == "W"
    assert after["board"][3][3] == "."
    assert after["to_move"] == 1
    assert after["turn_number"] == 1


def test_a_hero_may_turn_more_than_once(table):
    game, state = table.start(OPEN_HERO)
    after = table.move(game, state, (3, 3), (2, 3), (2, 4), (3, 5))
    assert after["board"][3][5] == "H"
    assert after["last"]["path"] == [[3, 3], [2, 3], [2, 4], [3, 5]]


@pytest.mark.parametrize(
    ("diagram", "path", "rule"),
    [
        (OPEN, [(3, 3), (2, 3), (1, 3), (1, 2)], "move.length"),
        (OPEN_HERO, [(3, 3), (2, 3), (1, 3), (1, 2), (1, 1)], "move.length"),
        (OPEN, [(3, 3), (1, 3)], "move.step"),
        (OPEN, [(3, 3), (3, 3)], "move.step"),
        (OPEN, [(3, 3)], "move.length"),
        (OPEN, [(3, 3), (2, 3), (3, 3)], "move.same-square"),
        (OPEN_HERO, [(3, 3), (2, 3), (2, 4), (3, 3)], "move.same-square"),
        (OPEN, [(4, 4), (3, 4)], "move.piece"),
        (OPEN, [(0, 0), (1, 0)], "move.piece"),
    ],
)
def test_illegal_walks_are_refused_with_the_rule(table, diagram, path, rule):
    game, state = table.start(diagram)
    with pytest.raises(RulesError) as error:
        table.move(game, state, *path)
    assert error.value.rule == rule
    assert not game.is_legal(state, {"type": "move", "player": 0, "path": path})


WALLED = """
w . . . . . w
. . . . . . .
. . W w w . .
. . . W . . .
. . . . . . .
. . . . . . .
W . . . . . w
"""


@pytest.mark.parametrize(
    "path",
    [
        [(3, 3), (2, 3), (1, 3)],  # over an enemy piece
        [(3, 3), (2, 2), (1, 2)],  # over an own piece
        [(3, 3), (2, 2)],  # onto an own piece
        [(3, 3), (3, 4), (2, 4)],  # onto an enemy piece
    ],
)
def test_pieces_never_pass_over_or_stop_on_any_piece(table, path):
    game, state = table.start(WALLED)
    with pytest.raises(RulesError) as error:
        table.move(game, state, *path)
    assert error.value.rule == "move.blocked"


def test_a_wall_stops_a_warrior_but_a_hero_walks_round_it(table):
    game, state = table.start(WALLED)
    assert (1, 4) not in reach_set(game, state, (3, 3))
    game, state = table.start(WALLED.replace(". . . W . . .", ". . . H . . ."))
    assert (1, 4) in reach_set(game, state, (3, 3))
    path = next(d["path"] for d in game.destinations(state, [3, 3]) if d["to"] == [1, 4])
    assert len(path) == 4, "round the wall takes all three steps"
    assert table.move(game, state, *path)["board"][1][4] == "H"


def test_a_hero_may_cross_its_own_starting_square(table):
    game, state = table.start(OPEN_HERO)
    after = table.move(game, state, (3, 3), (2, 3), (3, 3), (4, 3))
    assert after["board"][4][3] == "H"


def test_a_piece_may_step_diagonally_between_two_pieces(table):
    squeeze = """
    w . . . . . w
    . . w . . . .
    . . W w . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
    W . . . . . W
    """
    game, state = table.start(squeeze)
    after = table.move(game, state, (2, 2), (1, 3))
    assert after["board"][1][3] == "W", "(1,2) and (2,3) do not block the diagonal step"


def test_pieces_surrounded_on_all_sides_have_no_destinations(table):
    boxed = """
    W w . . .
    w w . . .
    . . . . .
    . . . . W
    . . . . W
    """
    game, state = table.start(boxed)
    assert game.destinations(state, [0, 0]) == []
    assert game.destinations(state, [2, 2]) == [], "an empty square has no destinations"


def test_only_the_player_to_move_may_move(table):
    game, state = table.start(OPEN)
    with pytest.raises(RulesError) as error:
        game.apply(state, {"type": "move", "player": 1, "path": [[0, 0], [1, 0]]})
    assert error.value.rule == "turn"
    assert "Ann" in error.value.message


@pytest.mark.parametrize(
    ("action", "field"),
    [
        ({"type": "move", "player": 0}, "path"),
        ({"type": "move", "player": 0, "path": []}, "path"),
        ({"type": "move", "player": 0, "path": [[3, 3], [9, 9]]}, "path"),
        ({"type": "move", "player": 0, "path": [[3, 3], "??"]}, "path"),
        ({"type": "move", "player": 0, "path": [[3, 3], [2, True]]}, "path"),
        ({"type": "move", "player": 0, "path": "d4-d5"}, "path"),
        ({"type": "move", "path": [[3, 3], [2, 3]]}, "player"),
        ({"type": "move", "player": 7, "path": [[3, 3], [2, 3]]}, "player"),
        ({"type": "jump", "player": 0}, "type"),
        ({"player": 0}, "type"),
    ],
)
def test_malformed_actions_name_the_field(table, action, field):
    game, state = table.start(OPEN)
    with pytest.raises(ActionFormatError) as error:
        game.apply(state, action)
    assert error.value.field == field


def test_squares_may_also_be_named_algebraically(table):
    game, state = table.start(OPEN)
    # On the 7x7 board row 3 is rank 4: d4 is [3, 3].
    after = game.apply(state, {"type": "move", "player": 0, "path": ["d4", "e5"]})
    assert after["board"][2][4] == "W"


def test_legal_actions_give_one_move_per_destination_and_all_are_legal(table):
    game, state = table.start(OPEN)
    moves = list(game.legal_actions(state))
    ends = [(tuple(m["path"][0]), tuple(m["path"][-1])) for m in moves]
    assert len(ends) == len(set(ends))
    expected = sum(len(game.destinations(state, p)) for p in ([3, 3], [6, 0], [6, 6]))
    assert len(moves) == expected
    assert all(game.is_legal(state, m) for m in moves)
    assert all(len(m["path"]) <= 3 for m in moves), "representative paths are shortest"


def test_move_action_finds_a_path_for_a_tapped_start_and_end(table):
    game, state = table.start(WALLED.replace(". . . W . . .", ". . . H . . ."))
    action = game.move_action(state, [3, 3], [1, 4])
    assert action["path"][0] == [3, 3]
    assert action["path"][-1] == [1, 4]
    assert game.is_legal(state, action)
    with pytest.raises(RulesError) as error:
        game.move_action(state, [3, 3], [0, 3])
    assert error.value.rule == "move.unreachable"
    with pytest.raises(RulesError) as error:
        game.move_action(state, [2, 3], [1, 3])
    assert error.value.rule == "move.piece"


def test_an_illegal_action_leaves_the_state_untouched(table):
    game, state = table.start(OPEN)
    before = repr(state)
    with pytest.raises(RulesError):
        table.move(game, state, (3, 3), (0, 3))
    table.move(game, state, (3, 3), (2, 3))
    assert repr(state) == before
