"""STARTING THE GAME: first player by a throw at the target, homelands by darts at the map."""

from __future__ import annotations

import pytest

from rules.base import RulesError
from rules.darts import dart_in_zone


def _order(game, state, *fractions):
    """Each contender in turn throws at ``fraction`` of the target radius (None: miss)."""
    from rules.dartwars.start import order_thrower

    for fraction in fractions:
        player = order_thrower(state)
        if fraction == "bounce-magnet":
            state = game.apply(state, {"type": "bounceout", "player": player, "cause": "magnet"})
            continue
        cx, cy = game.board.target.center
        if fraction is None:
            action = {"type": "miss", "player": player}
        else:
            r = fraction * game.board.target.radius_mm
            action = {
                "type": "dart",
                "player": player,
                "zone": "target",
                "x_mm": cx,
                "y_mm": cy + r,
            }
        state = game.apply(state, action)
    return state


def test_closest_to_the_centre_goes_first(table):
    game = table.game()
    state = game.new_state(["Ann", "Bob", "Cy"])
    assert game.prompt(state).kind == "throw_for_order"
    state = _order(game, state, 0.5, 0.1, 0.7)
    assert state["first_player"] == 1
    assert state["phase"] == "homeland"
    assert game.prompt(state).player == 1
    assert game.prompt(state).kind == "throw_homeland"


def test_tied_players_throw_again_the_others_wait(table):
    game = table.game()
    state = game.new_state(["Ann", "Bob", "Cy"])
    state = _order(game, state, 0.3, 0.9, 0.3)
    assert state["phase"] == "order"
    assert state["order"]["contenders"] == [0, 2]
    state = _order(game, state, 0.6, 0.2)
    assert state["first_player"] == 2


def test_a_dart_without_position_or_outside_the_target_counts_as_farthest(table):
    game = table.game()
    state = game.new_state(["Ann", "Bob"])
    no_position = {"type": "dart", "player": 0, "zone": "target"}
    state = game.apply(state, no_position)
    state = _order(game, state, 0.95)
    assert state["first_player"] == 1
    state = game.new_state(["Ann", "Bob"])
    state = _order(game, state, 1.5, 0.99)
    assert state["first_player"] == 1


def test_everybody_off_the_target_throws_again(table):
    game = table.game()
    state = game.new_state(["Ann", "Bob"])
    state = _order(game, state, None, 2.0)
    assert state["phase"] == "order"
    assert state["order"] == {"contenders": [0, 1], "throws": []}


def test_a_dart_that_fell_off_a_magnet_is_thrown_again(table):
    game = table.game()
    state = game.new_state(["Ann", "Bob"])
    state = _order(game, state, "bounce-magnet")
    assert game.prompt(state).player == 0
    assert state["order"]["throws"] == []


def _homeland_phase(table, players=3, **options):
    game = table.game(**options)
    state = game.new_state([f"P{i}" for i in range(players)])
    fractions = [0.9] * players
    fractions[0] = 0.1
    return game, _order(game, state, *fractions)


def test_hitting_a_free_homeland_takes_it_and_play_follows_the_order_obtained(table):
    game, state = _homeland_phase(table)
    state = game.apply(state, dart_in_zone(0, "a"))
    state = game.apply(state, {"type": "miss", "player": 1})
    state = game.apply(state, dart_in_zone(2, "e"))
    assert game.prompt(state).player == 1
    state = game.apply(state, dart_in_zone(1, "d"))
    assert state["phase"] == "play"
    assert state["homelands"] == ["a", "d", "e"]
    assert state["play_order"] == [0, 2, 1]
    assert game.prompt(state).player == 0
    assert [table.own(state, p, z) for p, z in ((0, "a"), (1, "d"), (2, "e"))] == [3, 3, 3]
    assert state["supply"] == [12, 12, 12]


@pytest.mark.parametrize("zone", ["w1", "g", "i", "target"])
def test_water_white_island_or_target_forfeits_the_throw(table, zone):
    game, state = _homeland_phase(table, players=2)
    state = game.apply(state, dart_in_zone(0, zone))
    assert state["homelands"] == [None, None]
    assert state["failures"] == [1, 0]
    assert game.prompt(state).player == 1


def test_islands_may_be_homelands_with_the_option(table):
    game, state = _homeland_phase(table, players=2, islands_as_homelands=True)
    state = game.apply(state, dart_in_zone(0, "i"))
    assert state["homelands"][0] == "i"


def test_a_homeland_already_taken_forfeits_the_throw(table):
    game, state = _homeland_phase(table, players=2)
    state = game.apply(state, dart_in_zone(0, "a"))
    state = game.apply(state, dart_in_zone(1, "a"))
    assert state["homelands"] == ["a", None]
    assert state["failures"] == [0, 1]


def test_after_four_failed_throws_the_next_player_throws_in_his_stead(table):
    game, state = _homeland_phase(table, players=3)
    state = game.apply(state, dart_in_zone(0, "a"))
    state = game.apply(state, dart_in_zone(1, "b"))
    for _ in range(4):
        prompt = game.prompt(state)
        assert prompt.player == 2 and prompt.data["for_player"] == 2
        state = game.apply(state, {"type": "miss", "player": 2})
    prompt = game.prompt(state)
    assert prompt.player == 0 and prompt.data["for_player"] == 2
    assert "stead" in prompt.text
    with pytest.raises(RulesError) as err:
        game.apply(state, dart_in_zone(2, "c"))
    assert err.value.rule == "not-your-turn"
    state = game.apply(state, {"type": "miss", "player": 0})
    state = game.apply(state, dart_in_zone(0, "h"))
    assert state["homelands"] == ["a", "b", "h"]
    assert state["play_order"] == [0, 1, 2]


def test_a_line_hit_during_the_homeland_throw_asks_the_thrower(table):
    game, state = _homeland_phase(table, players=2)
    line = {"type": "dart", "player": 0, "zone": None, "candidates": ["a", "w1"], "on_line": True}
    state = game.apply(state, line)
    prompt = game.prompt(state)
    assert prompt.kind == "choose_zone" and prompt.player == 0
    assert {o["zone"] for o in prompt.options} == {"a", "w1"}
    state = game.apply(state, {"type": "choose_zone", "player": 0, "zone": "a"})
    assert state["homelands"][0] == "a"
