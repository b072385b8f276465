"""Dart hexes: each one held lets its owner cancel one throw per turn and throw again."""

from __future__ import annotations

import pytest

from rules.base import RulesError


def test_without_a_dart_hex_throws_count_at_once(table):
    state = table.play(table.state(), table.hit(0, "hex3"))
    assert state["phase"] == "throw" and state["owners"]["hex3"] == 0


def test_a_dart_hex_holder_is_asked_to_keep_or_cancel_each_throw(table):
    state = table.play(table.state(owners={"hex7": 0}), table.hit(0, "hex3"))
    prompt = table.game.prompt(state)
    assert (prompt.player, prompt.kind) == (0, "rethrow")
    assert "Fist 1 is captured" in prompt.text and "1 left" in prompt.text
    assert table.kinds(state) == {"keep", "rethrow"}
    assert state["owners"]["hex3"] is None  # nothing happens until the throw is kept


def test_a_cancelled_throw_changes_nothing_and_costs_no_dart(table):
    state = table.state(owners={"hex7": 0})
    state = table.play(state, table.hit(0, "hex3"), table.act("rethrow", 0))
    assert state["owners"]["hex3"] is None
    assert state["darts_left"] == 3 and state["rethrows_used"] == 1
    assert state["phase"] == "throw"


def test_one_dart_hex_gives_one_rethrow_per_turn(table):
    state = table.state(owners={"hex7": 0})
    state = table.play(state, table.hit(0, "hex3"), table.act("rethrow", 0))
    state = table.play(state, table.hit(0, "hex8"))
    assert state["phase"] == "throw" and state["darts_left"] == 2  # not asked again
    with pytest.raises(RulesError) as error:
        table.play(state, table.act("rethrow", 0))
    assert error.value.rule == "phase"


def test_two_dart_hexes_give_two_rethrows(table):
    state = table.state(owners={"hex7": 0, "hex18": 0})
    state = table.play(
        state,
        table.hit(0, "hex3"),
        table.act("rethrow", 0),
        table.hit(0, "hex8"),
        table.act("rethrow", 0),
        table.hit(0, "hex12"),
    )
    assert state["owners"]["hex12"] == 0 and state["rethrows_used"] == 2


def test_rethrows_come_back_every_turn(table):
    state = table.state(owners={"hex7": 0}, darts_left=1)
    state = table.play(state, table.hit(0, "hex3"), table.act("rethrow", 0))
    state = table.play(state, table.act("miss", 0))
    state = table.play(state, *[table.act("miss", 1)] * 3, table.hit(0, "hex3"))
    assert state["phase"] == "rethrow"


def test_a_dart_hex_captured_this_turn_counts_at_once(table):
    state = table.play(table.state(), table.hit(0, "hex7"), table.hit(0, "hex3"))
    assert state["phase"] == "rethrow"


def test_a_cancelled_flaming_throw_keeps_the_power_for_the_new_throw(table):
    state = table.state(owners={"hex7": 0, "hex1": 0, "hex10": 1})
    state = table.play(state, table.hit(0, "hex1"), table.act("keep", 0))
    state = table.play(state, table.hit(0, "hex8"), table.act("rethrow", 0))
    assert state["flaming"] is True
    state = table.play(state, table.hit(0, "hex10"))
    assert state["owners"]["hex10"] == 0


def test_misses_may_be_cancelled_by_default(table):
    state = table.play(table.state(owners={"hex7": 0}), table.act("bounceout", 0))
    assert state["phase"] == "rethrow"
    assert "bounced out" in table.game.prompt(state).text


def test_option_rethrow_misses_false_keeps_misses(make_table):
    table = make_table(rethrow_misses=False)
    state = table.play(table.state(owners={"hex7": 0}), table.act("miss", 0))
    assert state["phase"] == "throw" and state["darts_left"] == 2
