"""Turns (darts per turn, order, stopping), the win, and the optional turn limit."""

from __future__ import annotations

import pytest

from rules.base import Outcome, RulesError

PLAYERS = ("Ann", "Bob", "Cyd")


def test_three_darts_a_turn_in_seating_order_by_default(table):
    state = table.state(players=PLAYERS)
    order = []
    for _ in range(4):
        order.append(state["current"])
        state = table.play(state, *[table.act("miss", state["current"])] * 3)
    assert order == [0, 1, 2, 0]
    assert state["turn_number"] == 5


def test_anticlockwise_order_and_first_player_options(make_table):
    table = make_table(order="anticlockwise", first_player=1)
    state = table.game.new_state(list(PLAYERS))
    order = []
    for _ in range(3):
        order.append(state["current"])
        state = table.play(state, *[table.act("miss", state["current"])] * 3)
    assert order == [1, 0, 2]


def test_darts_per_turn_option(make_table):
    table = make_table(darts_per_turn=1)
    state = table.play(table.state(), table.act("miss", 0))
    assert state["current"] == 1
    assert "dart 1 of 1" in table.game.prompt(state).text


def test_stop_gives_up_the_rest_of_the_turn(table):
    state = table.play(table.state(), table.act("stop", 0))
    assert state["current"] == 1 and state["darts_left"] == 3


def test_holding_all_three_flags_wins_at_once(table):
    state = table.state(owners={"hex2": 0, "hex4": 0, "hex6": 1, "hex3": 0})
    state = table.play(state, table.hit(0, "hex6"))
    assert table.game.outcome(state) == Outcome((0,), "all-flags")
    prompt = table.game.prompt(state)
    assert prompt.player is None and prompt.kind == "game_over" and "Ann" in prompt.text
    assert list(table.game.legal_actions(state)) == []
    with pytest.raises(RulesError) as error:
        table.play(state, table.act("miss", 0))
    assert error.value.rule == "game-over"


def test_the_flags_must_be_held_at_the_same_time(table):
    # Ann held hex2 and hex4; Bob (two Fists) takes hex4, then Ann takes hex6: no win.
    state = table.state(
        owners={"hex2": 0, "hex4": 0, "hex6": 2, "hex3": 1, "hex12": 1},
        players=PLAYERS,
        current=1,
    )
    state = table.play(state, table.hit(1, "hex4"), *[table.act("miss", 1)] * 2)
    state = table.play(state, *[table.act("miss", 2)] * 3)
    state = table.play(state, table.hit(0, "hex1"), table.hit(0, "hex6"))
    assert state["owners"]["hex6"] == 0 and table.game.outcome(state) is None


def test_optional_turn_limit_ends_in_a_draw(make_table):
    table = make_table(max_turns=2)
    state = table.state()
    state = table.play(state, *[table.act("miss", 0)] * 3, *[table.act("miss", 1)] * 3)
    assert table.game.outcome(state) == Outcome((), "turn-limit", draw=True)
    assert "draw" in table.game.prompt(state).text


def test_no_turn_limit_by_default(game):
    assert game.options["max_turns"] is None
