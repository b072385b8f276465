"""Prompts always name who acts and what the game waits for; log lines read well."""

from __future__ import annotations

import json


def test_the_dart_prompt_names_the_thrower_dart_number_and_attack(table):
    prompt = table.game.prompt(table.state(owners={"hex3": 0}))
    assert prompt.player == 0 and prompt.kind == "dart"
    assert prompt.text.startswith("Ann: throw dart 1 of 3 (attack 2)")
    assert set(prompt.accepts) >= {"dart", "miss", "bounceout"}
    assert prompt.data["attack"] == 2 and prompt.data["darts_left"] == 3
    assert prompt.data["defence"]["hex2"] == 1
    json.dumps(prompt.to_json())


def test_the_dart_prompt_mentions_a_pin_move_before_throwing(table):
    state = table.state(owners={"hex5": 0, "hex4": 0}, pins={0: ["hex5"]})
    assert "move your Army Pins before throwing" in table.game.prompt(state).text


def test_the_rethrow_prompt_says_what_keeping_would_do(table):
    state = table.state(owners={"hex7": 0, "hex1": 0, "hex2": 1})
    state = table.play(state, table.hit(0, "hex2"))
    assert "Flag 1 holds (defence 1" in table.game.prompt(state).text
    state = table.play(state, table.act("rethrow", 0), table.hit(0, "hex1"))
    assert "unlimited attack" in table.game.prompt(state).text
    state = table.state(owners={"hex7": 0})
    state = table.play(state, table.hit(0, "hex9", red=True))
    assert "2 extra darts" in table.game.prompt(state).text


def test_the_remove_pin_prompt_goes_to_the_loser(table):
    state = table.state(
        owners={"hex5": 0, "hex16": 0, "hex2": 0, "hex4": 0}, pins={0: ["hex2", "hex4"]}, current=1
    )
    state = table.play(state, table.hit(1, "hex16"))
    prompt = table.game.prompt(state)
    assert prompt.text.startswith("Ann: you lost a Pin hex")
    assert "Flag 1" in prompt.text and "Flag 2" in prompt.text


def test_log_lines(table):
    state = table.state()
    describe = table.game.describe_action
    assert describe(state, table.hit(0, "hex9", red=True)) == "Ann hits Crossed Darts 1 (red area)"
    assert describe(state, table.line(1, "hex1", "hex3")).startswith("Bob's dart sits on the line")
    assert describe(state, table.act("rethrow", 0)) == "Ann cancels the throw with a Dart re-throw"
    move = table.act("move_pin", 0, **{"from": "hex5", "to": "hex4"})
    assert describe(state, move) == "Ann moves an Army Pin from Pin 1 to Flag 2"
