"""Crossed Darts: a red-area hit on a held (or just captured) Crossed Darts hex gives
1 + (Crossed Darts hexes held) extra darts, thrown at once, once per turn."""

from __future__ import annotations


def test_capturing_with_a_red_hit_gives_two_extra_darts(table):
    state = table.play(table.state(), table.hit(0, "hex9", red=True))
    assert state["owners"]["hex9"] == 0
    assert state["extra_darts"] == 2 and state["darts_left"] == 2
    assert state["last_throw"]["extra_darts"] == 2
    assert "extra dart" in table.game.prompt(state).text


def test_holding_one_and_capturing_another_gives_three(table):
    state = table.state(owners={"hex14": 0})
    state = table.play(state, table.hit(0, "hex9", red=True))
    assert state["extra_darts"] == 3


def test_a_red_hit_on_a_crossed_darts_hex_already_held_counts(table):
    state = table.state(owners={"hex9": 0})
    state = table.play(state, table.hit(0, "hex9", red=True))
    assert state["extra_darts"] == 2


def test_one_captured_earlier_in_the_turn_counts_too(table):
    state = table.play(table.state(), table.hit(0, "hex14"), table.hit(0, "hex9", red=True))
    assert state["extra_darts"] == 3


def test_a_hit_outside_the_red_area_gives_no_extra_darts(table):
    state = table.play(table.state(), table.hit(0, "hex9"))
    assert state["owners"]["hex9"] == 0 and state["extra_darts"] == 0


def test_no_extra_darts_when_the_enemy_hex_holds(table):
    # Bob's Crossed Darts hex9 sits next to his Tower hex10: defence 1 against attack 1.
    state = table.state(owners={"hex9": 1, "hex10": 1})
    state = table.play(state, table.hit(0, "hex9", red=True))
    assert state["owners"]["hex9"] == 1 and state["extra_darts"] == 0


def test_extra_darts_come_once_per_turn(table):
    state = table.play(
        table.state(),
        table.hit(0, "hex9", red=True),
        table.hit(0, "hex14", red=True),
    )
    assert state["owners"]["hex14"] == 0
    assert state["extra_darts"] == 1  # two extras, one used; the second red hit adds none


def test_extra_darts_are_thrown_first_and_before_the_turn_passes(table):
    state = table.play(table.state(), table.hit(0, "hex9", red=True))
    state = table.play(state, *[table.act("miss", 0)] * 2)
    assert (state["extra_darts"], state["darts_left"]) == (0, 2)
    assert "dart 2 of 3" in table.game.prompt(state).text
    state = table.play(state, table.act("miss", 0))
    assert state["current"] == 0
    state = table.play(state, table.act("miss", 0))
    assert state["current"] == 1


def test_a_red_hit_named_by_its_sub_zone_counts(table):
    dart = table.hit(0, "hex9")
    dart["zone"] = "hex9-red"
    dart["candidates"] = ["hex9"]
    state = table.play(table.state(), dart)
    assert state["owners"]["hex9"] == 0 and state["extra_darts"] == 2
