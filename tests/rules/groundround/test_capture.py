"""Capturing hexes: attack against defence, blank hexes, capturing from another player."""

from __future__ import annotations


def test_a_hit_on_a_free_symbol_hex_captures_it(table):
    state = table.play(table.state(), table.hit(0, "hex3"))  # Fist, defence 0, attack 1
    assert state["owners"]["hex3"] == 0
    assert state["last_throw"]["result"] == "captured"
    assert state["darts_left"] == 2


def test_a_plain_dart_cannot_take_a_free_flag(table):
    # Flag defence 1, attack 1: the attack must be greater, so it is not enough.
    state = table.play(table.state(), table.hit(0, "hex2"))
    assert state["owners"]["hex2"] is None
    assert state["last_throw"]["result"] == "repelled"
    assert state["last_throw"]["defence"] == 1


def test_blank_hexes_are_never_captured_even_with_unlimited_attack(table):
    state = table.state(flaming=True)
    state = table.play(state, table.hit(0, "hex8"))
    assert "hex8" not in state["owners"]
    assert state["last_throw"]["result"] == "blank"


def test_capturing_from_another_player_uses_the_same_comparison(table):
    state = table.state(owners={"hex7": 1})  # Bob's Dart hex, defence 0
    state = table.play(state, table.hit(0, "hex7"))
    assert state["owners"]["hex7"] == 0
    assert state["last_throw"]["previous_owner"] == 1


def test_an_enemy_flag_holds_against_attack_one_and_falls_to_attack_two(table):
    state = table.state(owners={"hex2": 1})
    state = table.play(state, table.hit(0, "hex2"))
    assert state["owners"]["hex2"] == 1
    state = table.state(owners={"hex2": 1, "hex12": 0})  # Ann holds a Fist: attack 2
    state = table.play(state, table.hit(0, "hex2"))
    assert state["owners"]["hex2"] == 0


def test_hitting_your_own_hex_changes_nothing(table):
    state = table.state(owners={"hex3": 0})
    after = table.play(state, table.hit(0, "hex3"))
    assert after["owners"] == state["owners"]
    assert after["last_throw"]["result"] == "held"


def test_apply_never_changes_its_input(table):
    state = table.state(owners={"hex7": 1})
    before = repr(state)
    table.play(state, table.hit(0, "hex7"))
    assert repr(state) == before
