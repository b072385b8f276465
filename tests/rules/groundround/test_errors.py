"""Clear errors for illegal or malformed actions, bad options, bad boards; state untouched."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

import boards
from rules.base import ActionFormatError, RulesError
from rules.groundround import GroundRound


@pytest.mark.parametrize(
    ("action", "rule", "words"),
    [
        ({"type": "miss", "player": 1}, "turn-order", "Ann must act now"),
        ({"type": "miss", "player": 7}, "player", "no player 7"),
        ({"type": "dart", "player": 0, "zone": "hex42"}, "unknown-zone", "no zone 'hex42'"),
        ({"type": "dart", "player": 0, "zone": 3}, "action.zone", "zone id"),
        ({"type": "dart", "player": 0, "candidates": ["x"]}, "unknown-zone", "'x'"),
        ({"type": "miss"}, "action.player", 'needs the field "player"'),
        ({"type": "miss", "player": "0"}, "action.player", "must be int"),
        ({"type": "miss", "player": True}, "action.player", "boolean"),
        ({"type": "fly", "player": 0}, "action.type", "unknown action type"),
        ({"player": 0}, "action.type", "type"),
        ({"type": "bounceout", "player": 0, "cause": "wind"}, "action.cause", "cause"),
        ({"type": "keep", "player": 0}, "phase", "waits for"),
        ({"type": "end_turn", "player": 0}, "phase", "waits for"),
        ({"type": "remove_pin", "player": 0, "zone": "hex5"}, "phase", "waits for"),
        ({"type": "move_pin", "player": 0, "from": "hex5"}, "action.to", '"to"'),
    ],
)
def test_bad_actions_are_refused_with_a_rule_and_a_hint(table, action, rule, words):
    state = table.state()
    before = repr(state)
    with pytest.raises(RulesError) as error:
        table.game.apply(state, action)
    assert error.value.rule == rule
    assert words in str(error.value)
    assert repr(state) == before
    assert not table.game.is_legal(state, action)


def test_malformed_actions_are_format_errors(table):
    with pytest.raises(ActionFormatError):
        table.game.apply(table.state(), {"type": "miss"})
    with pytest.raises(ActionFormatError):
        table.game.apply(table.state(), ["miss"])


@pytest.mark.parametrize(
    "options",
    [
        {"darts_per_turn": 0},
        {"darts_per_turn": "3"},
        {"order": "sideways"},
        {"tower_defends": "nobody"},
        {"rethrow_misses": "yes"},
        {"first_player": -1},
        {"max_turns": 0},
        {"colour": "red"},
    ],
)
def test_bad_options_are_refused(options):
    with pytest.raises(RulesError) as error:
        GroundRound(options=options)
    assert error.value.rule == "options"


def test_player_counts_and_first_player_checked(game, make_table):
    with pytest.raises(RulesError, match="2 or 3 players"):
        game.new_state(["Ann"])
    with pytest.raises(RulesError, match="2 or 3 players"):
        game.new_state(["A", "B", "C", "D"])
    with pytest.raises(RulesError, match="first_player"):
        make_table(first_player=2).game.new_state(["Ann", "Bob"])


def _board_with(symbols: dict[str, str]) -> boards.Board:
    board = boards.load("groundround")
    zones = dict(board.zones)
    for zone_id, symbol in symbols.items():
        zones[zone_id] = dataclasses.replace(zones[zone_id], data={"symbol": symbol})
    return dataclasses.replace(board, zones=zones)


def test_a_board_with_an_unknown_symbol_is_refused():
    with pytest.raises(RulesError, match=r"hex3.*use one of"):
        GroundRound(_board_with({"hex3": "dragon"}))


def test_a_board_without_flags_is_refused():
    with pytest.raises(RulesError, match="no Flag"):
        GroundRound(_board_with({"hex2": "blank", "hex4": "blank", "hex6": "blank"}))


def test_a_state_for_another_board_is_refused(table):
    state = table.state()
    state["board"] = "dartwars"
    with pytest.raises(RulesError) as error:
        table.game.apply(state, {"type": "miss", "player": 0})
    assert error.value.rule == "board"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.sampled_from(["hex1", "hex9-red", "x"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=6,
)
fields = st.sampled_from(
    ["player", "zone", "candidates", "subzones", "on_line", "from", "to", "cause", "x_mm"]
)


@given(
    st.sampled_from(
        [
            "dart",
            "miss",
            "bounceout",
            "choose_zone",
            "keep",
            "rethrow",
            "place_pin",
            "move_pin",
            "remove_pin",
            "stop",
            "end_turn",
            "nonsense",
        ]
    ),
    st.dictionaries(fields, json_values, max_size=5),
)
def test_garbage_actions_fail_cleanly_and_leave_the_state_alone(kind, extra):
    game = GroundRound()
    state = game.new_state(["Ann", "Bob"])
    state["owners"].update({"hex5": 0, "hex7": 0})
    before = repr(state)
    try:
        after = game.apply(state, {"type": kind, **extra})
    except RulesError:
        pass
    else:
        assert game.check_invariants(after) == []
    assert repr(state) == before
