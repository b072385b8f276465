"""Cities: a warrior stopping in its own city becomes a hero, one stopping in the other
side's city conquers it; the city effect comes before captures; a warrior already standing in
its own city may be promoted instead of moving."""

from __future__ import annotations

import pytest

from rules.base import RulesError

CITIES = """
w  .  .  .  .  w
.  .  .  .  .  .
.  1  .  1  0  .
.  .  .  .  .  .
.  W  .  .  W  .
H  .  .  .  .  w
"""


def test_a_warrior_stopping_in_its_own_city_becomes_a_hero(table):
    game, state = table.start(CITIES)
    after = table.move(game, state, (4, 4), (3, 4), (2, 4))
    assert after["board"][2][4] == "H"
    assert after["stock"] == [7, 8], "the hero comes from the stock beside the board"
    assert after["promotions"] == [1, 0]
    assert after["cities"]["2,4"] == 0
    assert after["last"]["promoted"] == [2, 4]


def test_a_warrior_stopping_in_the_other_sides_city_conquers_it_and_stays_a_warrior(table):
    game, state = table.start(CITIES)
    after = table.move(game, state, (4, 1), (3, 1), (2, 1))
    assert after["cities"]["2,1"] == 0, "the city tile is turned to the conqueror's colour"
    assert after["board"][2][1] == "W", "conquering does not make a hero"
    assert after["stock"] == [8, 8]
    assert after["last"]["conquered"] == [2, 1]


def test_by_default_a_hero_does_not_conquer(table):
    game, state = table.start(CITIES)
    after = table.move(game, state, (5, 0), (4, 0), (3, 0), (2, 1))
    assert after["cities"]["2,1"] == 1
    assert after["last"]["conquered"] is None


def test_with_heroes_conquer_a_hero_conquers_too(table):
    game, state = table.start(CITIES, heroes_conquer=True)
    after = table.move(game, state, (5, 0), (4, 0), (3, 0), (2, 1))
    assert after["cities"]["2,1"] == 0
    assert after["board"][2][1] == "H"


def test_a_hero_in_its_own_city_stays_a_hero_and_takes_no_stock(table):
    game, state = table.start(CITIES.replace("H  .  .  .  .  w", ".  .  .  .  H  w"))
    after = table.move(game, state, (5, 4), (4, 3), (3, 4), (2, 4))
    assert after["board"][2][4] == "H"
    assert after["stock"] == [8, 8]
    assert after["last"]["promoted"] is None


def test_passing_over_a_city_has_no_effect(table):
    crossing = """
    w  .  .  .  .  w
    .  .  .  .  .  .
    .  1  .  .  0  .
    .  .  W  .  .  .
    .  .  .  .  .  .
    H  .  .  .  .  w
    """
    game, state = table.start(crossing)
    after = table.move(game, state, (3, 2), (2, 1), (1, 0))
    assert after["cities"]["2,1"] == 1, "only the square where the move ends counts"
    assert after["board"][1][0] == "W"
    after = table.move(game, after, (0, 5), (1, 5))
    after = table.move(game, after, (5, 0), (4, 1), (3, 2), (2, 2))
    assert after["board"][2][2] == "H"
    assert after["cities"]["2,1"] == 1


def test_with_an_empty_stock_a_warrior_in_its_own_city_stays_a_warrior(table):
    game, state = table.start(CITIES, hero_stock=0)
    after = table.move(game, state, (4, 4), (3, 4), (2, 4))
    assert after["board"][2][4] == "W"
    assert after["stock"] == [0, 0]
    after = table.move(game, after, (0, 0), (1, 0))
    assert not any(a["type"] == "promote" for a in game.legal_actions(after))
    with pytest.raises(RulesError) as error:
        game.apply(after, {"type": "promote", "player": 0, "square": [2, 4]})
    assert error.value.rule == "promote.stock"


def test_a_warrior_that_conquered_may_be_promoted_next_turn_instead_of_moving(table):
    game, state = table.start(CITIES)
    state = table.move(game, state, (4, 1), (3, 1), (2, 1))  # conquers: now its own city
    state = table.move(game, state, (0, 5), (1, 5))
    promote = {"type": "promote", "player": 0, "square": [2, 1]}
    assert promote in game.prompt(state).options
    assert promote in list(game.legal_actions(state))
    after = game.apply(state, promote)
    assert after["board"][2][1] == "H"
    assert after["stock"] == [7, 8]
    assert after["to_move"] == 1, "promoting is the whole turn"
    # Moving it instead is allowed too: the promotion is a choice.
    assert game.is_legal(state, {"type": "move", "player": 0, "path": [[2, 1], [3, 1]]})


@pytest.mark.parametrize(
    ("diagram", "square"),
    [
        (CITIES.replace(".  1  .  1  0  .", ".  W1 .  1  0  ."), [2, 1]),  # the other side's city
        (CITIES.replace(".  1  .  1  0  .", ".  1  .  1  H0 ."), [2, 4]),  # a hero
        (CITIES, [4, 1]),  # not in a city
        (CITIES, [2, 4]),  # an empty city
        (CITIES.replace(".  1  .  1  0  .", ".  1  .  1  w0 ."), [2, 4]),  # not yours
    ],
)
def test_only_own_warriors_in_own_cities_may_be_promoted(table, diagram, square):
    game, state = table.start(diagram)
    with pytest.raises(RulesError) as error:
        game.apply(state, {"type": "promote", "player": 0, "square": square})
    assert error.value.rule == "promote.square"


TRAPS_ON_CITIES = """
w  .  .  .  .  w
.  .  .  .  w  .
w  1  w  .  0  .
.  .  .  .  .  .
.  W  .  .  .  W
H  .  .  1  .  .
"""


def test_the_city_effect_comes_first_a_conqueror_then_captured_keeps_the_city_turned(table):
    game, state = table.start(TRAPS_ON_CITIES)
    after = table.move(game, state, (4, 1), (3, 1), (2, 1))
    assert after["cities"]["2,1"] == 0, "the conquest happened before the capture"
    assert after["board"][2][1] == ".", "the conqueror stood between two enemies and is captured"
    assert after["last"]["captured"] == [{"square": [2, 1], "player": 0, "kind": "warrior"}]


def test_a_warrior_promoted_then_captured_is_lost_as_a_hero(table):
    game, state = table.start(
        TRAPS_ON_CITIES.replace(".  .  .  .  .  .\n.  W", ".  .  .  .  w  .\n.  W")
    )
    after = table.move(game, state, (4, 5), (3, 5), (2, 4))
    # The new hero stands between the warriors on (1,4) and (3,4).
    assert after["board"][2][4] == "."
    assert after["stock"] == [7, 8], "the promotion happened first"
    assert after["lost"][0] == {"warrior": 0, "hero": 1}
    assert after["last"]["promoted"] == [2, 4]
    assert after["last"]["captured"] == [{"square": [2, 4], "player": 0, "kind": "hero"}]


def test_a_conquered_city_can_be_won_back(table):
    game, state = table.start(CITIES)
    state = table.move(game, state, (4, 1), (3, 1), (2, 1))
    assert state["cities"]["2,1"] == 0
    state = table.move(game, state, (0, 0), (1, 0))
    state = table.move(game, state, (2, 1), (3, 2))  # the conqueror walks on
    state = table.move(game, state, (1, 0), (2, 1))
    assert state["cities"]["2,1"] == 1, "a red warrior ending there turns it back"
    assert state["board"][2][1] == "w", "in its own city again: no promotion for a reconquest"
