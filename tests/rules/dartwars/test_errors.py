"""Bad actions: errors name the rule or the field, and never change the state."""

from __future__ import annotations

import dataclasses
import json

import pytest

from rules.base import ActionFormatError, RulesError, action_from_text, action_to_text
from rules.darts import dart_in_zone
from rules.dartwars import DartWars
from rules.dartwars.practice import grid_board

HOMES = ("a", "h")


@pytest.fixture
def moving(table):
    game = table.game()
    state = table.state(game, HOMES, [(0, "a"), (0, "b"), (1, "c"), (1, "h")], visited=["w1"])
    return game, table.darts(game, state, "w1", "c", stop=True)


def _refused(game, state, action, rule):
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(RulesError) as err:
        game.apply(state, action)
    assert err.value.rule == rule, err.value
    assert json.dumps(state, sort_keys=True) == before
    return err.value


def test_a_state_from_another_board_is_refused(moving):
    game, state = moving
    _refused(game, {**state, "board": "dartwars"}, {"type": "end_moves", "player": 0}, "board")


def test_wrong_player_is_refused_and_named(moving):
    game, state = moving
    err = _refused(game, state, {"type": "end_moves", "player": 1}, "not-your-turn")
    assert "P0" in err.message


@pytest.mark.parametrize(
    ("action", "rule"),
    [
        ({"type": "move", "player": 0, "from": "a", "to": "w1"}, "adjacent-only"),
        ({"type": "move", "player": 0, "from": "b", "to": "d"}, "move-needs-hit"),
        ({"type": "move", "player": 0, "from": "b", "to": "atlantis"}, "unknown-zone"),
        ({"type": "move", "player": 0, "from": "b", "to": "target"}, "territory-only"),
        ({"type": "move", "player": 0, "from": "e", "to": "w1"}, "adjacent-only"),
        ({"type": "move", "player": 0, "from": "w3", "to": "w1"}, "no-movable-magnet"),
        (
            {"type": "move", "player": 0, "from": "b", "to": "w1", "attack": True},
            "attack-needs-enemy",
        ),
        ({"type": "end_moves", "player": 0}, "forced-attack"),
        ({"type": "stop", "player": 0}, "moves-stage"),
        ({"type": "choose_zone", "player": 0, "zone": "b"}, "no-question"),
    ],
)
def test_illegal_actions_name_the_rule(moving, action, rule):
    game, state = moving
    _refused(game, state, action, rule)


@pytest.mark.parametrize(
    ("action", "field"),
    [
        ({"type": "move", "player": 0, "from": "b"}, "to"),
        ({"type": "move", "player": "0", "from": "b", "to": "w1"}, "player"),
        ({"type": "move", "player": 7, "from": "b", "to": "w1"}, "player"),
        ({"type": "move", "player": 0, "from": "b", "to": "w1", "attack": "yes"}, "attack"),
        ({"type": "dart_fell", "player": 0, "dart": 5}, "dart"),
        ({"player": 0}, "type"),
    ],
)
def test_malformed_actions_name_the_field(moving, action, field):
    game, state = moving
    err = _refused(game, state, action, f"action.{field}")
    assert isinstance(err, ActionFormatError) and err.field == field


def test_an_unknown_zone_in_a_dart_is_refused(table):
    game = table.game()
    state = table.state(game, HOMES, [(0, "a"), (1, "h")])
    _refused(game, state, dart_in_zone(0, "atlantis"), "unknown-zone")
    _refused(game, state, {"type": "bounceout", "player": 0, "cause": "wind"}, "action.cause")
    _refused(game, state, {"type": "move", "player": 0, "from": "a", "to": "b"}, "expects-dart")


def test_combat_steps_refuse_the_wrong_answer(table):
    game = table.game()
    state = table.state(game, HOMES, [(0, "a"), (0, "b"), (1, "c"), (1, "h")])
    state = table.darts(game, state, "c", stop=True)
    state = table.move(game, state, "b", "c")
    _refused(
        game, state, {"type": "first_thrower", "player": 0, "thrower": 3}, "attacker-chooses-first"
    )
    _refused(game, state, {"type": "next_attack", "player": 0, "attack": 0}, "combat-step")
    _refused(game, state, {"type": "end_moves", "player": 0}, "combat-step")


def test_malformed_json_text_is_a_format_error():
    with pytest.raises(ActionFormatError) as err:
        action_from_text('{"type": "dart", ')
    assert err.value.field == "text"
    with pytest.raises(ActionFormatError):
        action_from_text("[1, 2]")


def test_every_legal_action_survives_its_text_round_trip(moving):
    game, state = moving
    for action in game.legal_actions(state):
        assert action_from_text(action_to_text(action)) == action


def test_bad_options_and_player_counts_are_refused(table):
    with pytest.raises(RulesError) as err:
        table.game(islands="yes")
    assert err.value.rule == "options"
    with pytest.raises(RulesError) as err:
        table.game(darts_per_turn=0)
    assert err.value.rule == "options"
    with pytest.raises(RulesError) as err:
        table.game().new_state(["solo"])
    assert err.value.rule == "players"


def test_a_board_without_target_or_homelands_is_refused():
    board = grid_board(["a b c d e f"])
    bare = dataclasses.replace(board, target=None)
    with pytest.raises(RulesError) as err:
        DartWars(bare)
    assert err.value.rule == "board-target"
    with pytest.raises(RulesError) as err:
        DartWars(grid_board(["a b w1"]))
    assert err.value.rule == "board-homelands"
