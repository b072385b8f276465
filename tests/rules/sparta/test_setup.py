"""Setup: the default position, the options that change it, and bad options refused."""

from __future__ import annotations

import json

import pytest

from rules import get_game
from rules.base import RulesError
from rules.sparta import Sparta

DEFAULT = """
.  w  w  w  w  w  w  w  w  .
.  .  .  .  .  .  .  .  .  .
.  .  .  .  .  .  .  .  .  .
.  .  .  .  .  .  .  .  .  .
.  1  .  1  .  .  1  .  1  .
.  0  .  0  .  .  0  .  0  .
.  .  .  .  .  .  .  .  .  .
.  .  .  .  .  .  .  .  .  .
.  .  .  .  .  .  .  .  .  .
.  W  W  W  W  W  W  W  W  .
"""


def test_default_setup_has_a_row_of_8_warriors_each_and_8_cities_in_the_middle(table):
    game = get_game("sparta")
    state = game.new_state(["Ann", "Ben"])
    table.expect(game, state, DEFAULT)
    assert state["stock"] == [8, 8], "each player keeps 8 heroes beside the board"
    assert sorted(state["cities"].values()) == [0, 0, 0, 0, 1, 1, 1, 1]
    assert state["to_move"] == 0, "the first seat (the younger player) begins"
    assert state["turn_number"] == 0
    assert game.outcome(state) is None


def test_first_player_option_lets_the_second_seat_begin():
    state = Sparta({"first_player": 1}).new_state(["Ann", "Ben"])
    assert state["to_move"] == 1
    assert Sparta(None).prompt(state).player == 1


def test_layout_option_places_pieces_cities_and_heroes():
    layout = {
        "size": 6,
        "warriors": [["a1", [5, 1]], [[0, 0]]],
        "heroes": [[], ["f6", [0, 4]]],
        "cities": [[[3, 3]], ["c4"]],
    }
    game = Sparta({"layout": layout, "hero_stock": 2})
    state = game.new_state(["Ann", "Ben"])
    assert state["board"] == ["w...hh", "......", "......", "......", "......", "WW...."]
    assert state["cities"] == {"3,3": 0, "2,2": 1}
    assert state["stock"] == [2, 2]


def test_a_diagram_round_trips_through_render():
    diagram = """
    w  .  h1 .
    .  0  .  .
    .  .  W  .
    H0 .  .  w
    """
    game = Sparta.from_diagram(diagram)
    state = game.new_state(["Ann", "Ben"])
    assert game.render(state).split() == diagram.split()


@pytest.mark.parametrize(
    ("layout", "words"),
    [
        ({"size": 5, "warriors": [[[0, 0], [0, 0]], [[4, 4]]]}, "used twice"),
        ({"size": 5, "warriors": [[[0, 0]], [[4, 4]]], "cities": [[[1, 1]], [[1, 1]]]}, "twice"),
        ({"size": 5, "warriors": [[[5, 0]], [[4, 4]]]}, "off the 5x5 board"),
        ({"size": 5, "warriors": [["z9"], []]}, "off the 5x5 board"),
        ({"size": 5, "warriors": [[[0, 0], [0, 2]], [[0, 1]]]}, "trapped pieces on [[0, 1]]"),
        ({"size": 3, "warriors": [[[r, c] for r in range(3) for c in range(3)], []]}, "fills"),
        ({"size": 2}, "layout.size"),
        ({"size": 5, "kings": []}, "unknown field(s) kings"),
        ({"size": 5, "warriors": [[[0, 0]]]}, "two lists"),
        ("big", "must be an object"),
    ],
)
def test_bad_layouts_are_refused_with_the_reason(layout, words):
    with pytest.raises(RulesError) as error:
        Sparta({"layout": layout})
    assert error.value.rule == "options.layout"
    assert words in str(error.value)


@pytest.mark.parametrize(
    ("options", "rule"),
    [
        ({"hero_stock": -1}, "options.hero_stock"),
        ({"hero_stock": True}, "options.hero_stock"),
        ({"heroes_conquer": "yes"}, "options.heroes_conquer"),
        ({"first_player": 2}, "options.first_player"),
        ({"when_blocked": "cry"}, "options.when_blocked"),
        ({"quiet_move_limit": 0}, "options.quiet_move_limit"),
        ({"colour": "blue"}, "options"),
    ],
)
def test_bad_options_are_refused_naming_the_option(options, rule):
    with pytest.raises(RulesError) as error:
        Sparta(options)
    assert error.value.rule == rule


def test_sparta_takes_exactly_two_players():
    with pytest.raises(RulesError) as error:
        Sparta().new_state(["Ann", "Ben", "Cid"])
    assert error.value.rule == "players"


def test_a_fresh_state_is_plain_json():
    state = Sparta().new_state(["Ann", "Ben"])
    assert json.loads(json.dumps(state)) == state
