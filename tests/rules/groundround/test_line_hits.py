"""Darts on a printed line: the thrower picks one of the two or three touching hexes."""

from __future__ import annotations

import pytest

from rules.base import RulesError
from rules.darts import dart_at


def test_a_dart_on_the_border_of_two_hexes_asks_the_thrower(table):
    # Halfway between the centres of hex1 (310, 330) and hex3 (400, 278.04): on their border.
    dart = dart_at(table.game.board, 0, 355.0, 304.02)
    state = table.play(table.state(), dart)
    prompt = table.game.prompt(state)
    assert (prompt.player, prompt.kind) == (0, "choose_zone")
    assert {o["zone"] for o in prompt.options} == {"hex1", "hex3"}
    assert "Flaming Fist" in prompt.text and "Fist 1" in prompt.text
    state = table.play(state, table.act("choose_zone", 0, zone="hex3"))
    assert state["owners"]["hex3"] == 0 and state["owners"]["hex1"] is None
    assert state["darts_left"] == 2


def test_a_dart_on_a_corner_offers_three_hexes(table):
    dart = dart_at(table.game.board, 0, 340.0, 278.038)  # corner of hex1, hex2, hex3
    state = table.play(table.state(), dart)
    assert {o["zone"] for o in table.game.prompt(state).options} == {"hex1", "hex2", "hex3"}


def test_the_choice_must_be_one_of_the_touching_hexes(table):
    state = table.play(table.state(), table.line(0, "hex1", "hex3"))
    with pytest.raises(RulesError) as error:
        table.play(state, table.act("choose_zone", 0, zone="hex12"))
    assert error.value.rule == "line-hit"
    with pytest.raises(RulesError) as error:
        table.play(state, table.act("miss", 0))
    assert error.value.rule == "phase"


def test_a_red_area_counts_only_if_its_hex_is_chosen(table):
    dart = {**table.line(0, "hex9", "hex10"), "subzones": ["hex9-red"]}
    state = table.play(table.state(), dart, table.act("choose_zone", 0, zone="hex10"))
    assert state["owners"]["hex10"] == 0 and state["extra_darts"] == 0
    state = table.play(table.state(), dart, table.act("choose_zone", 0, zone="hex9"))
    assert state["owners"]["hex9"] == 0 and state["extra_darts"] == 2


def test_the_choice_comes_before_the_rethrow_question(table):
    state = table.state(owners={"hex7": 0})
    state = table.play(state, table.line(0, "hex1", "hex3"))
    state = table.play(state, table.act("choose_zone", 0, zone="hex1"))
    assert state["phase"] == "rethrow"
    assert "Flaming Fist is captured" in table.game.prompt(state).text


def test_misses_and_bounce_outs_use_up_the_dart(table):
    state = table.play(table.state(), table.act("miss", 0), table.act("bounceout", 0))
    assert state["darts_left"] == 1
    assert state["last_throw"]["result"] == "bounceout"


def test_a_dart_outside_every_hex_is_a_miss(table):
    dart = dart_at(table.game.board, 0, 5.0, 5.0)
    state = table.play(table.state(), dart)
    assert state["darts_left"] == 2 and state["last_throw"]["kind"] == "miss"
