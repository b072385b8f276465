"""The end: all cities to one player; one player down to a single piece; both players down
to one or two pieces (cities decide, or a tie). Plus the defaults for a blocked player and
the optional quiet-move draw."""

from __future__ import annotations

import pytest

from rules.base import Outcome, RulesError
from rules.sparta import board_outcome

LAST_CITY = """
w  .  .  .  .  .  w
.  .  .  .  .  .  .
.  .  .  .  .  .  .
.  1  .  .  .  0  .
.  W  .  .  .  .  .
.  .  .  .  .  .  .
W  .  .  .  .  .  w
"""


def test_owning_every_city_wins_at_once(table):
    game, state = table.start(LAST_CITY)
    after = table.move(game, state, (4, 1), (3, 1))
    assert game.outcome(after) == Outcome((0,), "all-cities")
    assert after["outcome"] == {"winners": [0], "reason": "all-cities", "draw": False}
    prompt = game.prompt(after)
    assert prompt.player is None
    assert prompt.kind == "game_over"
    assert "Ann wins" in prompt.text
    assert list(game.legal_actions(after)) == []
    with pytest.raises(RulesError) as error:
        table.move(game, after, (0, 0), (1, 0))
    assert error.value.rule == "game-over"


DOWN_TO_ONE = """
.  .  .  .  .  .  .
.  .  .  .  .  .  .
.  .  W  w  .  W  .
.  .  .  .  .  .  .
.  .  .  .  .  .  .
.  .  .  .  .  .  .
W  .  .  .  .  .  w
"""


def test_a_player_left_with_one_piece_loses(table):
    game, state = table.start(DOWN_TO_ONE)  # yellow 3 against red 2: not over yet
    after = table.move(game, state, (2, 5), (2, 4))
    assert after["board"][2][3] == "."
    assert game.outcome(after) == Outcome((0,), "last-piece")
    assert "Ann wins" in game.prompt(after).text


def test_a_player_left_with_no_piece_loses(table):
    two_lines = """
    .  .  .  .  .  .  .
    .  .  .  .  .  .  .
    .  W  w  .  w  W  .
    .  .  .  .  .  .  .
    .  .  .  W  .  .  .
    .  .  .  .  .  .  .
    W  .  .  .  .  .  .
    """
    game = table.game(two_lines)
    state = game.new_state(["Ann", "Ben"])
    # 4 yellow pieces against 2 red ones: not yet an end (yellow has more than two).
    assert state["outcome"] is None
    after = table.move(game, state, (4, 3), (3, 3), (2, 3))
    # Row 2 became W w W w W: both red warriors and the yellow one between them are taken.
    assert after["board"][2] == ".W...W."
    assert game.outcome(after) == Outcome((0,), "last-piece")


def test_with_both_sides_at_one_or_two_pieces_more_cities_wins(table):
    # Yellow 3 v red 3; the move costs yellow one piece and red two: 2 against 1. Red has one
    # piece left, yet both sides are at one or two pieces, so the cities decide: red has more.
    few = """
    .  .  .  .  .  .  .
    1  .  .  .  .  .  1
    .  .  .  .  .  .  .
    W  w  .  w  W  .  0
    .  .  .  .  .  .  .
    .  .  W  .  .  .  .
    .  .  .  .  .  .  w
    """
    game, state = table.start(few)
    after = table.move(game, state, (5, 2), (4, 2), (3, 2))
    assert after["board"][3] == "W...W.."
    assert game.outcome(after) == Outcome((1,), "few-pieces-cities")
    assert "Ben wins" in game.prompt(after).text


def test_with_both_sides_at_one_or_two_pieces_equal_cities_is_a_tie(table):
    few = """
    .  .  .  .  .  .  .
    1  .  .  .  .  .  .
    .  .  .  .  .  .  .
    W  w  .  w  W  .  0
    .  .  .  .  .  .  .
    .  .  W  .  .  .  .
    .  .  .  .  .  .  w
    """
    game, state = table.start(few)
    after = table.move(game, state, (5, 2), (4, 2), (3, 2))
    result = game.outcome(after)
    assert result == Outcome((0, 1), "few-pieces-tie", draw=True)
    assert "tie" in game.prompt(after).text


def test_owning_every_city_beats_being_down_to_one_piece(table):
    # Yellow's warrior conquers the last red city and is captured there in the same move:
    # yellow keeps one piece but owns every city, and the city condition comes first.
    last = """
    w  .  .  .  .  .  .
    .  .  .  .  .  .  .
    w  1  w  .  .  0  .
    .  .  .  .  .  .  .
    .  W  .  .  .  .  .
    .  .  .  .  .  .  .
    W  .  .  .  .  .  w
    """
    game, state = table.start(last)
    after = table.move(game, state, (4, 1), (3, 1), (2, 1))
    assert after["board"][2][1] == "."
    assert game.outcome(after) == Outcome((0,), "all-cities")


@pytest.mark.parametrize(
    ("counts", "cities", "expected"),
    [
        ((3, 3), (2, 2), None),
        ((3, 2), (2, 2), None),
        ((2, 2), (3, 1), Outcome((0,), "few-pieces-cities")),
        ((1, 2), (1, 3), Outcome((1,), "few-pieces-cities")),
        ((1, 1), (2, 2), Outcome((0, 1), "few-pieces-tie", draw=True)),
        ((1, 5), (2, 2), Outcome((1,), "last-piece")),
        ((5, 0), (2, 2), Outcome((0,), "last-piece")),
        ((0, 2), (2, 2), Outcome((1,), "last-piece")),
        ((0, 1), (1, 3), Outcome((1,), "few-pieces-cities")),
        ((0, 0), (2, 2), Outcome((0, 1), "few-pieces-tie", draw=True)),
        ((1, 6), (4, 0), Outcome((0,), "all-cities")),
        ((6, 6), (0, 4), Outcome((1,), "all-cities")),
    ],
)
def test_end_condition_precedence(counts, cities, expected):
    board = "W" * counts[0] + "w" * counts[1]
    city_map = {f"0,{i}": 0 for i in range(cities[0])}
    city_map.update({f"1,{i}": 1 for i in range(cities[1])})
    assert board_outcome(board, city_map) == expected


def test_with_no_cities_at_all_only_the_piece_conditions_apply():
    assert board_outcome("WWWwww", {}) is None
    assert board_outcome("WWWw", {}) == Outcome((0,), "last-piece")


BOXED = """
w  w  W  .  .  .  .
W  W  W  .  .  .  .
.  .  .  .  .  .  .
.  .  .  .  .  .  .
.  .  .  .  .  .  W
.  .  .  .  .  W  .
.  .  .  .  .  W  w
"""


def test_a_blocked_player_passes_by_default(table):
    game, state = table.start(BOXED)
    state = table.move(game, state, (4, 6), (5, 6))
    assert state["outcome"] is None
    assert list(game.legal_actions(state)) == [{"type": "pass", "player": 1}]
    prompt = game.prompt(state)
    assert prompt.options == ({"type": "pass", "player": 1},)
    assert "must pass" in prompt.text
    after = game.apply(state, {"type": "pass", "player": 1})
    assert after["to_move"] == 0
    assert after["last"]["type"] == "pass"
    with pytest.raises(RulesError) as error:
        game.apply(after, {"type": "pass", "player": 0})
    assert error.value.rule == "pass.not-blocked"


def test_a_warrior_that_may_be_promoted_is_not_blocked(table):
    game, state = table.start(BOXED.replace("w  w  W", "w1 w  W").replace(".  W  w", "0  W  w"))
    state = table.move(game, state, (4, 6), (5, 6))
    assert list(game.legal_actions(state)) == [{"type": "promote", "player": 1, "square": [0, 0]}]


def test_with_when_blocked_lose_blocking_the_opponent_wins(table):
    game, state = table.start(BOXED, when_blocked="lose")
    after = table.move(game, state, (4, 6), (5, 6))
    assert game.outcome(after) == Outcome((0,), "blocked")
    with pytest.raises(RulesError):
        game.apply(after, {"type": "pass", "player": 1})


QUIET = """
w  .  .  .  .  .  w
.  .  .  .  .  .  .
.  .  .  .  .  .  .
.  1  1  .  .  0  .
.  W  .  .  .  .  .
.  .  .  .  .  .  .
W  .  .  .  .  .  w
"""


def test_quiet_move_limit_draws_after_that_many_uneventful_actions(table):
    game, state = table.start(QUIET, quiet_move_limit=3)
    state = table.move(game, state, (6, 0), (5, 0))
    state = table.move(game, state, (0, 0), (1, 0))
    assert state["quiet_moves"] == 2
    state = table.move(game, state, (5, 0), (6, 0))
    assert game.outcome(state) == Outcome((0, 1), "quiet-move-limit", draw=True)


def test_a_conquest_resets_the_quiet_count(table):
    game, state = table.start(QUIET, quiet_move_limit=3)
    state = table.move(game, state, (6, 0), (5, 0))
    state = table.move(game, state, (0, 0), (1, 0))
    state = table.move(game, state, (4, 1), (3, 1))
    assert state["quiet_moves"] == 0
    assert state["outcome"] is None


def test_without_the_option_there_is_no_quiet_draw(table):
    game, state = table.start(QUIET)
    shuffles = [((6, 0), (5, 0)), ((0, 0), (1, 0)), ((5, 0), (6, 0)), ((1, 0), (0, 0))]
    for turn in range(40):
        state = table.move(game, state, *shuffles[turn % 4])
    assert state["quiet_moves"] == 40
    assert state["outcome"] is None
