"""Properties of random legal games on the practice map (Hypothesis picks seeds and setups)."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.base import action_from_text, action_to_text
from rules.dartwars import DartWars
from rules.dartwars.practice import small_world
from rules.dartwars.state import fast_copy, free_players
from rules.selfplay import check_state, play_one

BOARD = small_world()
PER_COLOUR = 15

setups = st.fixed_dictionaries(
    {
        "players": st.integers(2, 5),
        "seed": st.integers(0, 2**32),
        "islands_as_homelands": st.booleans(),
        "lost_magnets_return": st.booleans(),
        "surrender_rule": st.booleans(),
        "pardon": st.booleans(),
    }
)


def _game(setup):
    options = {k: v for k, v in setup.items() if k not in ("players", "seed")}
    return DartWars(BOARD, options), [f"P{i}" for i in range(setup["players"])]


def _sound(game, state):
    count = len(state["players"])
    on_board = [0] * count
    for owner, _zone in state["magnets"].values():
        on_board[owner] += 1
    for p in range(count):
        assert on_board[p] + state["supply"][p] + state["removed"][p] == PER_COLOUR
        home = state["homelands"][p]
        if home is not None:
            own = sum(1 for o, z in state["magnets"].values() if o == p and z == home)
            assert own <= game.options["homeland_limit"]
    assert json.loads(json.dumps(state)) == state
    if game.outcome(state) is None:
        prompt = game.prompt(state)
        assert prompt.player == game.whose_move(state)
        assert state["players"][prompt.player] in prompt.text
        first = next(iter(game.legal_actions(state)))
        assert first["player"] == prompt.player


@given(setups)
def test_random_games_end_with_one_winner_and_keep_every_invariant(setup):
    game, players = _game(setup)
    rng = random.Random(setup["seed"])
    state, _actions, violations = play_one(game, players, rng, on_state=lambda s: _sound(game, s))
    assert violations == []
    outcome = game.outcome(state)
    assert outcome is not None and len(outcome.winners) == 1
    assert list(outcome.winners) == free_players(state)
    assert state["homelands"][outcome.winners[0]] is not None


@settings(max_examples=15)
@given(setups)
def test_prompt_options_are_legal_and_round_trip(setup):
    game, players = _game(setup)
    rng = random.Random(setup["seed"])
    seen = []

    def look(state):
        if len(seen) < 120 and game.outcome(state) is None:
            seen.append(state)

    play_one(game, players, rng, on_state=look)
    for state in seen:
        for option in game.prompt(state).options:
            assert game.is_legal(state, option), option
            assert action_from_text(action_to_text(option)) == option


@settings(max_examples=20)
@given(setups)
def test_any_legal_action_keeps_the_state_sound(setup):
    """Uniformly random choices among legal_actions (not the steered random player)."""
    game, players = _game(setup)
    rng = random.Random(setup["seed"])
    state = game.new_state(players)
    for _ in range(300):
        if game.outcome(state) is not None:
            break
        action = rng.choice(list(game.legal_actions(state)))
        state = game.apply(state, action)
        assert check_state(game, state) == []
        _sound(game, state)


def test_the_engine_copy_is_deep_and_faithful():
    game = DartWars(BOARD)
    rng = random.Random(7)
    states = []
    play_one(game, ["A", "B", "C"], rng, on_state=states.append)
    for state in states[::5]:
        copy = fast_copy(state)
        assert copy == state
        frozen = json.dumps(state, sort_keys=True)
        for magnet in copy["magnets"].values():
            magnet[1] = "moved"
        if copy["turn"] is not None:
            copy["turn"]["hits"].append("x")
            copy["turn"]["locked"]["x"] = "new"
        copy["order"]["throws"].append(1.0)
        copy["supply"][0] = -1
        assert json.dumps(state, sort_keys=True) == frozen
