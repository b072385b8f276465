"""Property tests over random legal games, and the JSON / text round trips."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import action_from_text, action_to_text, get_game
from rules.dawgs import DawgsOfWar, hexgrid
from rules.selfplay import check_state, play_one, selfplay

seeds = st.integers(0, 100_000)


def test_registry_builds_the_engine() -> None:
    game = get_game("dawgs")
    assert isinstance(game, DawgsOfWar)
    assert (game.min_players, game.max_players) == (2, 8)


@settings(max_examples=60)
@given(seeds)
def test_random_games_finish_without_violations(seed: int) -> None:
    rng = random.Random(seed)
    game, players = DawgsOfWar.random_setup(rng)
    state, actions, violations = play_one(game, players, rng)
    assert violations == []
    assert game.outcome(state) is not None
    assert actions > 0


@settings(max_examples=40)
@given(seeds)
def test_a_game_replays_exactly_from_its_action_log(seed: int) -> None:
    rng = random.Random(seed)
    game, players = DawgsOfWar.random_setup(rng)
    state = game.new_state(players)
    log = []
    while game.outcome(state) is None:
        action = game.random_action(state, rng)
        log.append(action_to_text(action))
        state = game.apply(state, action)
    replay = DawgsOfWar(game.options).new_state(players)
    for text in log:
        replay = game.apply(replay, action_from_text(text))
    assert replay == state


@settings(max_examples=40)
@given(seeds)
def test_every_state_keeps_the_physical_rules(seed: int) -> None:
    """On the map, no plane sits in the ground; speed and damage stay on the track; an
    eliminated plane never comes back; the round only grows."""
    rng = random.Random(seed)
    game, players = DawgsOfWar.random_setup(rng)
    seen: list[dict] = []
    play_one(game, players, rng, on_state=seen.append)
    gone: set[int] = set()
    last_round = 1
    for state in seen:
        assert state["round"] >= last_round
        last_round = state["round"]
        for index, plane in enumerate(state["planes"]):
            if index in gone:
                assert plane["status"] == "eliminated"
            if plane["status"] == "eliminated":
                gone.add(index)
            if plane["status"] == "flying":
                front = (plane["front"][0], plane["front"][1])
                assert hexgrid.altitude_of(front) >= 1
                assert 0 <= hexgrid.column_of(front) < game.config.columns


@settings(max_examples=30)
@given(seeds)
def test_legal_actions_are_legal_and_prompts_match(seed: int) -> None:
    rng = random.Random(seed)
    game, players = DawgsOfWar.random_setup(rng)
    state = game.new_state(players)
    for _ in range(60):
        if game.outcome(state) is not None:
            break
        prompt = game.prompt(state)
        legal = list(game.legal_actions(state))
        assert all(option in legal for option in prompt.options)
        assert all(game.is_legal(state, action) for action in legal[:20])
        assert check_state(game, state) == []
        state = game.apply(state, rng.choice(legal))
    assert json.loads(json.dumps(state)) == state


def test_selfplay_smoke() -> None:
    report = selfplay("dawgs", 40, 7, DawgsOfWar.random_setup)
    assert report.violations == []
    assert report.finished == 40
