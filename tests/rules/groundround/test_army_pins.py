"""Army Pins: one per Pin hex held; placing, defence effects, moving, losing them."""

from __future__ import annotations

import pytest

from rules.base import RulesError

# hex5 is a Pin hex touching hex1 (Flaming Fist), hex4 and hex6 (Flags), hex13, hex14
# (Crossed Darts) and hex15; hex16 is the second Pin hex.


def test_capturing_a_pin_hex_gives_an_army_pin_to_place_before_the_turn_ends(table):
    state = table.play(table.state(), table.hit(0, "hex5"))
    prompt = table.game.prompt(state)
    assert prompt.kind == "dart" and "place your Army Pin" in prompt.text
    assert {"type": "place_pin", "player": 0, "zone": "hex5"} in prompt.options
    state = table.play(state, table.act("miss", 0), table.act("miss", 0))
    prompt = table.game.prompt(state)
    assert (prompt.player, prompt.kind) == (0, "place_pin")
    assert "end_turn" not in table.kinds(state)
    with pytest.raises(RulesError) as error:
        table.play(state, table.act("end_turn", 0))
    assert error.value.rule == "pin-place"
    state = table.play(state, table.act("place_pin", 0, zone="hex5"))
    assert state["army_pins"][0] == ["hex5"]
    assert state["current"] == 1  # no move allowed in this turn, so the turn passes


def test_the_first_placement_may_come_between_darts(table):
    state = table.play(table.state(), table.hit(0, "hex5"), table.act("place_pin", 0, zone="hex5"))
    assert state["army_pins"][0] == ["hex5"]
    assert state["phase"] == "throw" and state["darts_left"] == 2


@pytest.mark.parametrize(
    ("owners", "pins", "zone", "rule"),
    [
        ({"hex5": 0}, {}, "hex6", "pin-place"),  # not Ann's hex
        ({"hex5": 0}, {}, "hex8", "pin-place"),  # a blank hex is nobody's
        ({"hex5": 0}, {}, "hex99", "unknown-zone"),
        ({"hex5": 0, "hex2": 0}, {0: ["hex5"]}, "hex2", "pin-place"),  # none in hand
    ],
)
def test_pins_go_only_on_your_own_hexes_and_only_when_you_have_one(table, owners, pins, zone, rule):
    state = table.state(owners=owners, pins=pins)
    with pytest.raises(RulesError) as error:
        table.play(state, table.act("place_pin", 0, zone=zone))
    assert error.value.rule == rule


def test_one_army_pin_per_hex(table):
    state = table.state(owners={"hex5": 0, "hex16": 0}, pins={0: ["hex5"]})
    with pytest.raises(RulesError, match="already has"):
        table.play(state, table.act("place_pin", 0, zone="hex5"))


def test_a_pin_defends_its_hex_and_friendly_or_free_neighbours_and_weakens_enemies(table):
    state = table.state(owners={"hex5": 0, "hex4": 0, "hex6": 1}, pins={0: ["hex5"]})
    defence = table.game.defence_of
    assert defence(state, "hex5") == 1  # the pinned hex
    assert defence(state, "hex4") == 2  # Ann's Flag next to it: 1 + 1
    assert defence(state, "hex6") == 0  # Bob's Flag next to it: 1 - 1
    assert defence(state, "hex14") == 1  # a free hex next to it
    assert defence(state, "hex12") == 0  # not next to the pin


def test_a_weakened_enemy_flag_falls_to_a_plain_dart(table):
    state = table.state(owners={"hex5": 0, "hex6": 1}, pins={0: ["hex5"]})
    state = table.play(state, table.hit(0, "hex6"))
    assert state["owners"]["hex6"] == 0


def test_pins_of_both_players_add_up(table):
    # The free Flaming Fist hex1 touches Ann's pin on hex5 and Bob's pin on hex2: +1 each.
    state = table.state(owners={"hex5": 0, "hex2": 1, "hex16": 1}, pins={0: ["hex5"], 1: ["hex2"]})
    assert table.game.defence_of(state, "hex1") == 2


def test_pins_move_before_the_first_dart(table):
    state = table.state(owners={"hex5": 0, "hex4": 0}, pins={0: ["hex5"]})
    assert "move_pin" in table.kinds(state)
    state = table.play(state, table.act("move_pin", 0, **{"from": "hex5", "to": "hex4"}))
    assert state["army_pins"][0] == ["hex4"]
    state = table.play(state, *[table.act("miss", 0)] * 3)
    assert state["current"] == 1  # moved before throwing: no second move after


def test_pins_do_not_move_between_darts(table):
    state = table.state(owners={"hex5": 0, "hex4": 0}, pins={0: ["hex5"]})
    state = table.play(state, table.act("miss", 0))
    assert "move_pin" not in table.kinds(state)
    with pytest.raises(RulesError) as error:
        table.play(state, table.act("move_pin", 0, **{"from": "hex5", "to": "hex4"}))
    assert error.value.rule == "pin-move"


def test_pins_move_after_the_last_dart_then_the_turn_ends(table):
    state = table.state(owners={"hex5": 0, "hex4": 0}, pins={0: ["hex5"]})
    state = table.play(state, *[table.act("miss", 0)] * 3)
    prompt = table.game.prompt(state)
    assert (prompt.player, prompt.kind) == (0, "end_turn")
    state = table.play(state, table.act("move_pin", 0, **{"from": "hex5", "to": "hex4"}))
    assert state["army_pins"][0] == ["hex4"] and state["current"] == 1


def test_each_pin_moves_at_most_once_per_turn(table):
    state = table.state(owners={"hex5": 0, "hex4": 0, "hex2": 0}, pins={0: ["hex5"]})
    state = table.play(state, table.act("move_pin", 0, **{"from": "hex5", "to": "hex4"}))
    with pytest.raises(RulesError, match="already moved"):
        table.play(state, table.act("move_pin", 0, **{"from": "hex4", "to": "hex2"}))


def test_all_pins_may_move_in_the_same_window(table):
    state = table.state(
        owners={"hex5": 0, "hex16": 0, "hex4": 0, "hex2": 0}, pins={0: ["hex5", "hex16"]}
    )
    state = table.play(
        state,
        table.act("move_pin", 0, **{"from": "hex5", "to": "hex4"}),
        table.act("move_pin", 0, **{"from": "hex16", "to": "hex2"}),
    )
    assert state["army_pins"][0] == ["hex2", "hex4"]


def test_no_pin_moves_in_the_turn_a_pin_hex_is_captured(table):
    state = table.state(owners={"hex16": 0, "hex4": 0}, pins={0: ["hex16"]}, darts_left=1)
    state = table.play(state, table.hit(0, "hex5"))  # last dart captures the second Pin hex
    prompt = table.game.prompt(state)
    assert prompt.kind == "place_pin"
    assert "move_pin" not in table.kinds(state)
    state = table.play(state, table.act("place_pin", 0, zone="hex4"))
    assert state["current"] == 1


def test_losing_a_pin_hex_takes_the_only_army_pin_off_at_once(table):
    # Bob (attack 2 with the Fist hex3) takes Ann's Pin hex5, defended 1 by her pin on hex4.
    state = table.state(owners={"hex5": 0, "hex4": 0, "hex3": 1}, pins={0: ["hex4"]}, current=1)
    assert table.game.defence_of(state, "hex5") == 1
    state = table.play(state, table.hit(1, "hex5"))
    assert state["owners"]["hex5"] == 1
    assert state["army_pins"][0] == []
    assert state["last_throw"]["pin_removed"] == "hex4"


def test_the_owner_chooses_which_pin_to_lose_when_he_has_several(table):
    state = table.state(
        owners={"hex5": 0, "hex16": 0, "hex2": 0, "hex4": 0},
        pins={0: ["hex2", "hex4"]},
        current=1,
    )
    state = table.play(state, table.hit(1, "hex16"))
    prompt = table.game.prompt(state)
    assert (prompt.player, prompt.kind) == (0, "remove_pin")
    assert {o["zone"] for o in prompt.options} == {"hex2", "hex4"}
    with pytest.raises(RulesError) as error:
        table.play(state, table.act("miss", 1))
    assert error.value.rule == "turn-order"
    state = table.play(state, table.act("remove_pin", 0, zone="hex2"))
    assert state["army_pins"][0] == ["hex4"]
    assert table.game.prompt(state).player == 1 and state["phase"] == "throw"


def test_a_pin_on_a_captured_hex_goes_back_to_its_owners_hand(table):
    state = table.state(owners={"hex5": 0, "hex4": 0, "hex12": 1}, pins={0: ["hex4"]}, current=1)
    # hex4: Flag 1 + pin 1 = 2; Bob's attack 2 is not enough...
    state = table.play(state, table.hit(1, "hex4"))
    assert state["owners"]["hex4"] == 0
    # ...but with both Fists (attack 3) it falls and the pin leaves the board.
    state = table.state(
        owners={"hex5": 0, "hex4": 0, "hex12": 1, "hex3": 1}, pins={0: ["hex4"]}, current=1
    )
    state = table.play(state, table.hit(1, "hex4"), *[table.act("miss", 1)] * 2)
    assert state["army_pins"][0] == [] and state["current"] == 0
    prompt = table.game.prompt(state)
    assert "place your Army Pin" in prompt.text
    state = table.play(state, *[table.act("miss", 0)] * 3)
    assert table.game.prompt(state).kind == "place_pin"


def test_losing_a_pin_hex_while_a_pin_is_in_hand_leaves_the_board_alone(table):
    state = table.state(
        owners={"hex5": 0, "hex16": 0, "hex2": 0, "hex4": 0}, pins={0: ["hex2"]}, current=1
    )
    state = table.play(state, table.hit(1, "hex16"))
    assert state["army_pins"][0] == ["hex2"] and state["phase"] == "throw"


def test_pins_are_placed_only_in_your_own_turn(table):
    state = table.state(owners={"hex5": 0}, current=1)
    with pytest.raises(RulesError) as error:
        table.play(state, table.act("place_pin", 0, zone="hex5"))
    assert error.value.rule == "turn-order"
