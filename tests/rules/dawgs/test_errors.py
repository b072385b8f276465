"""Malformed and illegal actions: clear errors that name the field or rule, state untouched."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.base import ActionFormatError, RulesError
from rules.dawgs import DawgsOfWar


@pytest.fixture
def game() -> DawgsOfWar:
    return DawgsOfWar()


@pytest.mark.parametrize(
    ("action", "field"),
    [
        ({}, "type"),
        ({"type": "loop"}, "type"),
        ({"type": "roll"}, "value"),
        ({"type": "roll", "value": 7}, "value"),
        ({"type": "roll", "value": True}, "value"),
        ({"type": "roll", "value": "4"}, "value"),
        ({"type": "roll", "player": "Ann", "value": 4}, "player"),
        ({"type": "roll", "player": 9, "value": 4}, "player"),
    ],
)
def test_malformed_actions_name_the_field(game, action, field) -> None:
    state = game.new_state(["Ann", "Bob"])
    before = json.dumps(state)
    with pytest.raises(ActionFormatError) as error:
        game.apply(state, action)
    assert error.value.field == field
    assert json.dumps(state) == before


def test_wrong_player_or_wrong_kind_of_answer(game) -> None:
    state = game.new_state(["Ann", "Bob"])
    with pytest.raises(RulesError) as error:
        game.apply(state, {"type": "roll", "player": 1, "value": 3})
    assert error.value.rule == "turn"
    with pytest.raises(RulesError) as error:
        game.apply(state, {"type": "choose_cards", "player": 0, "cards": ["1", "no_change"]})
    assert error.value.rule == "phase"
    with pytest.raises(RulesError) as error:
        game.apply(state, {"type": "hold_fire", "player": 0})
    assert error.value.rule == "phase"


def test_card_choice_format(h, game) -> None:
    state = h.build(game, [{"front": h.at(3, 8)}, {"front": h.at(12, 3), "heading": 6}])
    with pytest.raises(ActionFormatError) as error:
        game.apply(state, {"type": "choose_cards", "player": 0, "cards": ["1"]})
    assert error.value.field == "cards"
    with pytest.raises(ActionFormatError):
        game.apply(state, {"type": "choose_cards", "player": 0, "cards": "1,no_change"})
    with pytest.raises(RulesError) as error:
        game.apply(state, {"type": "roll", "value": 3})
    assert error.value.rule == "phase"


def test_drawing_a_card_that_is_not_in_the_deck(h, game) -> None:
    state = game.new_state(["Ann", "Bob"])
    state = h.roll(game, state, 1, 1, 2, 1)
    with pytest.raises(RulesError) as error:
        game.apply(state, {"type": "draw_special", "player": 0, "card": "loop"})
    assert error.value.rule == "draw"
    with pytest.raises(ActionFormatError):
        game.apply(state, {"type": "draw_special", "player": 0, "index": 12})


def test_too_few_or_too_many_players(game) -> None:
    with pytest.raises(RulesError, match="2 to 8"):
        game.new_state(["Solo"])
    with pytest.raises(RulesError, match="2 to 8"):
        game.new_state([f"P{i}" for i in range(9)])


def test_descriptions_name_the_player_but_not_the_card(h, game) -> None:
    state = game.new_state(["Ann", "Bob"])
    assert game.describe_action(state, {"type": "roll", "value": 5}) == "Ann rolls 5"
    text = game.describe_action(state, {"type": "draw_special", "player": 0, "card": "afterburner"})
    assert "afterburner" not in text
    picked = game.describe_action(state, {"type": "draw_special", "player": 0, "index": 2})
    assert picked == "Ann draws a special ability card"  # no position: it would name the card
    cards = {"type": "choose_cards", "player": 1, "cards": ["3", "special"]}
    assert game.describe_action(state, cards) == "Bob chooses two cards"


junk = st.one_of(st.none(), st.booleans(), st.integers(-3, 12), st.text(max_size=12))
actions = st.fixed_dictionaries(
    {
        "type": st.sampled_from(
            ["choose_side", "roll", "draw_special", "choose_cards", "fire", "hold_fire", "x"]
        )
    },
    optional={
        "player": junk,
        "value": junk,
        "side": junk,
        "index": junk,
        "card": junk,
        "target": junk,
        "cards": st.one_of(junk, st.lists(junk, max_size=3)),
    },
)


@settings(max_examples=60)
@given(st.integers(0, 10_000), st.lists(actions, min_size=1, max_size=12))
def test_junk_actions_raise_rules_errors_and_leave_the_state_alone(seed, junk_actions) -> None:
    rng = random.Random(seed)
    game, players = DawgsOfWar.random_setup(rng)
    state = game.new_state(players)
    for _ in range(rng.randint(0, 40)):
        if game.outcome(state) is not None:
            break
        state = game.apply(state, game.random_action(state, rng))
    for action in junk_actions:
        before = json.dumps(state, sort_keys=True)
        try:
            after = game.apply(state, action)
        except RulesError:
            assert json.dumps(state, sort_keys=True) == before
            continue
        assert game.check_invariants(after) == []
        assert json.dumps(state, sort_keys=True) == before
