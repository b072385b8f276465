"""What the tablet sees: prompts with the destinations to highlight, log lines, the text
notation and the JSON round trip."""

from __future__ import annotations

import json

import pytest

from rules import action_from_text, action_to_text, get_game
from rules.base import ActionFormatError
from rules.sparta import Sparta


def test_the_prompt_says_who_moves_and_lists_destinations_per_piece():
    game = get_game("sparta")
    state = game.new_state(["Ann", "Ben"])
    prompt = game.prompt(state)
    assert prompt.player == 0
    assert prompt.kind == "move"
    assert "Ann (yellow)" in prompt.text
    assert prompt.accepts == ("move",)
    assert prompt.options == ()
    destinations = prompt.data["destinations"]
    assert sorted(destinations) == [f"9,{c}" for c in range(1, 9)]
    for origin, targets in destinations.items():
        square = [int(x) for x in origin.split(",")]
        assert targets == [d["to"] for d in game.destinations(state, square)]
    # The b1 warrior reaches a1 and files a-d of the two ranks above: 9 squares.
    assert len(destinations["9,1"]) == 9
    assert json.loads(json.dumps(prompt.to_json())) == prompt.to_json()


def test_every_path_in_the_prompt_is_a_legal_move():
    game = Sparta()
    state = game.new_state(["Ann", "Ben"])
    paths = game.prompt(state).data["paths"]
    for origin, by_end in paths.items():
        for end, path in by_end.items():
            assert path[0] == [int(x) for x in origin.split(",")]
            assert path[-1] == [int(x) for x in end.split(",")]
            assert game.is_legal(state, {"type": "move", "player": 0, "path": path})


def test_after_a_move_the_other_player_is_prompted_and_sees_the_last_move():
    game = Sparta()
    state = game.new_state(["Ann", "Ben"])
    state = game.apply(state, game.parse_notation("b1-b2-b3", 0))
    prompt = game.prompt(state)
    assert prompt.player == 1
    assert "Ben (red)" in prompt.text
    assert prompt.data["last"]["path"] == [[9, 1], [8, 1], [7, 1]]


def test_a_promotion_is_offered_as_a_button(table):
    game, state = table.start(
        """
        w  .  .  .  w
        .  W0 .  .  .
        .  .  .  .  .
        .  .  .  .  1
        W  .  .  W  w
        """
    )
    prompt = game.prompt(state)
    assert prompt.options == ({"type": "promote", "player": 0, "square": [1, 1]},)
    assert prompt.accepts == ("move", "promote")
    assert prompt.data["promotable"] == [[1, 1]]
    assert "promote" in prompt.text


def test_log_lines_tell_the_move_and_its_effects(table):
    game, state = table.start(
        """
        .  .  .  .  .  .  .
        .  .  .  .  .  .  .
        W  .  w1 W  .  .  0
        .  .  .  .  .  .  .
        .  .  .  .  .  .  .
        .  .  .  .  .  .  .
        W  W  .  .  .  w  w
        """
    )
    line = game.describe_action(state, game.move_action(state, [2, 0], [2, 1]))
    assert line == "Ann (yellow) moves a warrior a5-b5; captures red warrior on c5"
    conquest = game.describe_action(state, game.move_action(state, [6, 1], [5, 2]))
    assert "moves a warrior b1-c2" in conquest
    state = table.move(game, state, (2, 3), (1, 2))
    assert game.describe_action(state, {"type": "move", "player": 1, "path": [[2, 2], [2, 1]]})


def test_log_lines_for_promotions_conquests_and_passes(table):
    game, state = table.start(
        """
        w  .  .  .  w
        .  W0 .  .  .
        .  .  .  .  .
        .  1  .  .  1
        W  .  .  W  w
        """
    )
    text = game.describe_action(state, {"type": "promote", "player": 0, "square": [1, 1]})
    assert text == "Ann (yellow) promotes the warrior on b4 to a hero"
    text = game.describe_action(state, game.move_action(state, [4, 0], [3, 1]))
    assert text == "Ann (yellow) moves a warrior a1-b2; conquers the city on b2"
    text = game.describe_action(state, game.move_action(state, [1, 1], [1, 2]))
    assert text == "Ann (yellow) moves a warrior b4-c4"


def test_notation_round_trips():
    game = Sparta()
    state = game.new_state(["Ann", "Ben"])
    for action in list(game.legal_actions(state))[:40]:
        text = game.notation(action)
        assert game.parse_notation(text, 0) == action
        assert action_from_text(action_to_text(action)) == action
    promote = {"type": "promote", "player": 1, "square": [4, 3]}
    assert game.notation(promote) == "promote d6"
    assert game.parse_notation("promote d6", 1) == promote
    assert game.parse_notation(" PASS ", 0) == {"type": "pass", "player": 0}


@pytest.mark.parametrize("text", ["", "b1", "jump b1", "b1-k9", "promote", "b1 - b2"])
def test_bad_notation_is_refused(text):
    with pytest.raises(ActionFormatError):
        Sparta().parse_notation(text, 0)


def test_the_state_survives_json_and_view_hides_nothing():
    game = Sparta()
    state = game.new_state(["Ann", "Ben"])
    for text in ("b1-b2-b3", "c10-c9-c8", "b3-b4-b5"):
        state = game.apply(state, game.parse_notation(text, state["to_move"]))
    assert state["board"][5][1] == "H", "b5 is a yellow city: the warrior became a hero"
    again = json.loads(json.dumps(state))
    assert again == state
    assert game.view(state, 1) == state
    assert game.prompt(again) == game.prompt(state)


def test_registry_finds_the_engine():
    game = get_game("sparta", options={"heroes_conquer": True})
    assert isinstance(game, Sparta)
    assert game.title == "Sparta"
    assert (game.min_players, game.max_players) == (2, 2)
