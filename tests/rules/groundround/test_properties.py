"""Property tests over random legal games (Hypothesis picks the seeds)."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.base import action_from_text, action_to_text
from rules.groundround import GroundRound
from rules.selfplay import check_state, play_one, selfplay

seeds = st.integers(min_value=0, max_value=2**32 - 1)


@given(seeds)
def test_random_legal_games_finish_without_violations(seed):
    rng = random.Random(seed)
    game, players = GroundRound.random_setup(rng)
    state, _, violations = play_one(game, players, rng)
    assert violations == []
    outcome = game.outcome(state)
    assert outcome is not None and outcome.reason == "all-flags"
    (winner,) = outcome.winners
    assert all(state["owners"][f] == winner for f in game.layout.flags)


@settings(max_examples=15)
@given(seeds)
def test_every_listed_action_is_accepted_and_prompts_are_complete(seed):
    rng = random.Random(seed)
    game, players = GroundRound.random_setup(rng)
    state = game.new_state(players)
    for _ in range(120):
        if game.outcome(state) is not None:
            break
        prompt = game.prompt(state)
        assert prompt.player is not None
        assert state["players"][prompt.player] in prompt.text
        legal = list(game.legal_actions(state))
        texts = {action_to_text(a) for a in legal}
        for option in prompt.options:
            assert action_to_text(option) in texts
        for action in legal:
            assert action["player"] == prompt.player
            assert action["type"] in prompt.accepts
            assert game.check_invariants(game.apply(state, action)) == []
        state = game.apply(state, game.random_action(state, rng))


@settings(max_examples=30)
@given(seeds)
def test_games_replay_exactly_from_their_action_text_log(seed):
    rng = random.Random(seed)
    game, players = GroundRound.random_setup(rng)
    state = game.new_state(players)
    log = []
    while game.outcome(state) is None:
        action = game.random_action(state, rng)
        log.append(action_to_text(action))
        state = game.apply(state, action)
        assert json.loads(json.dumps(state)) == state
    replay = game.new_state(players)
    for text in log:
        replay = game.apply(replay, action_from_text(text))
    assert replay == state


@settings(max_examples=30)
@given(seeds)
def test_attack_and_defence_stay_in_range(seed):
    rng = random.Random(seed)
    game, players = GroundRound.random_setup(rng)

    def check(state):
        for hex_id in game.layout.capturable:
            assert game.defence_of(state, hex_id) >= 0
        for player in range(len(players)):
            fists = sum(1 for h in game.layout.with_symbol("fist") if state["owners"][h] == player)
            strength = game.attack_of(state, player)
            assert strength is None or strength == 1 + fists
        assert check_state(game, state) == []

    play_one(game, players, rng, on_state=check)


def test_selfplay_summary_is_clean():
    report = selfplay("groundround", 40, 7, GroundRound.random_setup)
    assert report.violations == []
    assert report.finished == 40
