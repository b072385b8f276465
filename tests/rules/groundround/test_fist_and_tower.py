"""Fists raise the attack; the Tower defends its owner's neighbouring hexes and itself."""

from __future__ import annotations

import pytest


def test_each_fist_held_adds_one_attack(table):
    game = table.game
    assert game.attack_of(table.state(), 0) == 1
    assert game.attack_of(table.state(owners={"hex3": 0}), 0) == 2
    assert game.attack_of(table.state(owners={"hex3": 0, "hex12": 0}), 0) == 3


def test_losing_a_fist_lowers_the_attack_at_once(table):
    state = table.state(owners={"hex3": 1, "hex12": 1, "hex7": 0}, current=0)
    assert table.game.attack_of(state, 1) == 3
    state = table.throw(state, 0, "hex3")  # Ann takes one of Bob's Fists
    assert table.game.attack_of(state, 1) == 2


def test_tower_gives_its_owner_plus_one_on_hexes_next_to_it(table):
    # hex10 Tower touches hex3 (Fist) and hex9 (Crossed Darts).
    state = table.state(owners={"hex10": 1, "hex3": 1})
    assert table.game.defence_of(state, "hex3") == 1
    state = table.play(state, table.hit(0, "hex3"))
    assert state["owners"]["hex3"] == 1  # attack 1 is not greater than defence 1


def test_tower_does_not_defend_other_players_or_free_hexes_by_default(table):
    state = table.state(owners={"hex10": 1, "hex3": 0})
    assert table.game.defence_of(state, "hex3") == 0
    assert table.game.defence_of(state, "hex9") == 0


def test_option_tower_defends_all_gives_every_neighbour_plus_one(make_table):
    table = make_table(tower_defends="all")
    state = table.state(owners={"hex10": 1, "hex3": 0})
    assert table.game.defence_of(state, "hex3") == 1
    assert table.game.defence_of(state, "hex9") == 1


def test_a_free_tower_defends_nothing_and_is_captured_like_any_hex(table):
    state = table.state(owners={"hex3": 1})
    assert table.game.defence_of(state, "hex3") == 0
    state = table.play(state, table.hit(0, "hex10"))
    assert state["owners"]["hex10"] == 0


@pytest.mark.parametrize("fists", [(), ("hex3",), ("hex3", "hex12")])
def test_a_held_tower_resists_any_ordinary_attack(table, fists):
    state = table.state(owners={"hex10": 1, **dict.fromkeys(fists, 0)})
    state = table.play(state, table.hit(0, "hex10"))
    assert state["owners"]["hex10"] == 1
    assert state["last_throw"]["result"] == "tower-protected"


def test_the_flaming_fist_takes_a_held_tower(table):
    state = table.state(owners={"hex10": 1, "hex1": 0})
    state = table.play(state, table.hit(0, "hex1"), table.hit(0, "hex10"))
    assert state["owners"]["hex10"] == 0
    assert state["last_throw"]["attack"] is None


def test_tower_and_fist_combined(table):
    # Bob's Fist hex3 next to his Tower: defence 1. Ann with one Fist (attack 2) takes it,
    # after which Bob's attack drops and Ann's rises.
    state = table.state(owners={"hex10": 1, "hex3": 1, "hex12": 0})
    assert table.game.defence_of(state, "hex3") == 1
    state = table.play(state, table.hit(0, "hex3"))
    assert state["owners"]["hex3"] == 0
    assert table.game.attack_of(state, 0) == 3
    assert table.game.attack_of(state, 1) == 1
