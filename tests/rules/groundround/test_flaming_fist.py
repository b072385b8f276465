"""The Flaming Fist: after a hit on it (held or captured), the next throw has no limit."""

from __future__ import annotations


def test_a_hit_on_your_flaming_fist_makes_the_next_dart_unlimited(table):
    state = table.state(owners={"hex1": 0})
    state = table.play(state, table.hit(0, "hex1"))
    assert state["flaming"] is True
    assert table.game.attack_of(state, 0) is None
    assert "unlimited attack" in table.game.prompt(state).text


def test_capturing_the_flaming_fist_with_the_hit_also_counts(table):
    state = table.play(table.state(), table.hit(0, "hex1"))
    assert state["owners"]["hex1"] == 0 and state["flaming"] is True


def test_a_failed_attack_on_an_enemy_flaming_fist_gives_nothing(table):
    # Bob's pin on hex2 defends his Flaming Fist hex1 (+1): Ann's attack 1 fails.
    state = table.state(owners={"hex1": 1, "hex2": 1, "hex5": 1}, pins={1: ["hex2"]})
    state = table.play(state, table.hit(0, "hex1"))
    assert state["owners"]["hex1"] == 1 and state["flaming"] is False


def test_unlimited_attack_takes_any_defence(table):
    # Bob's Flag hex4: 1 + his pin on hex5 (+1) + his pin on hex4 itself (+1) = 3.
    state = table.state(
        owners={"hex1": 0, "hex4": 1, "hex5": 1, "hex16": 1}, pins={1: ["hex4", "hex5"]}
    )
    assert table.game.defence_of(state, "hex4") == 3
    state = table.play(state, table.hit(0, "hex1"), table.hit(0, "hex4"))
    assert state["owners"]["hex4"] == 0
    assert state["army_pins"][1] == ["hex5"]  # the pin on hex4 went back to Bob's hand


def test_only_the_very_next_throw_is_unlimited(table):
    state = table.state(owners={"hex1": 0, "hex2": 1})
    state = table.play(state, table.hit(0, "hex1"), table.act("miss", 0))
    assert state["flaming"] is False
    state = table.play(state, table.hit(0, "hex2"))
    assert state["owners"]["hex2"] == 1  # attack 1 again against the Flag


def test_the_power_lapses_at_the_end_of_the_turn(table):
    state = table.state(owners={"hex1": 0}, darts_left=1)
    state = table.play(state, table.hit(0, "hex1"))
    assert state["current"] == 1 and state["flaming"] is False
    assert table.game.attack_of(state, 0) == 1


def test_flaming_fist_fist_tower_and_pin_together(table):
    # Ann holds the Flaming Fist and a Fist; Bob holds the Tower with his Fist hex3 beside
    # it and a pin on hex3: defence 0 + Tower 1 + pin 1 = 2, Ann's attack 2 fails, but after
    # a Flaming Fist hit both the Fist and then the Tower fall.
    state = table.state(
        owners={"hex1": 0, "hex12": 0, "hex10": 1, "hex3": 1, "hex5": 1}, pins={1: ["hex3"]}
    )
    assert table.game.defence_of(state, "hex3") == 2
    state = table.play(state, table.hit(0, "hex3"))
    assert state["owners"]["hex3"] == 1
    state = table.play(state, table.hit(0, "hex1"), table.hit(0, "hex3"))
    assert state["owners"]["hex3"] == 0 and state["army_pins"][1] == []
    assert table.game.attack_of(state, 0) == 3  # two Fists now
    # The Tower still needs unlimited attack: the turn is over, next turn try with Fists.
    state = table.play(
        state,
        *[table.act("miss", 1)] * 3,
        table.act("place_pin", 1, zone="hex5"),  # Bob re-places the pin he got back
        table.act("end_turn", 1),
        table.hit(0, "hex10"),
    )
    assert state["owners"]["hex10"] == 1
