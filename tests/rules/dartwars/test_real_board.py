"""Integration with the built-in ``dartwars`` world map."""

from __future__ import annotations

import random

import boards
from rules import get_game
from rules.darts import dart_at
from rules.dartwars import DartWars
from rules.selfplay import check_state, play_one

BOARD = boards.load("dartwars")


def test_the_registry_builds_the_engine_on_the_world_map():
    game = get_game("dartwars")
    assert isinstance(game, DartWars)
    assert game.board.id == "dartwars"
    assert game.new_state(["Ann", "Bob"])["board"] == "dartwars"


def test_the_world_map_gives_the_rules_what_they_need():
    info = DartWars().info
    assert all(info.neighbours[z] for z in info.neighbours)  # nobody is stranded
    eligible = info.eligible_homelands(islands_allowed=False)
    assert len(eligible) >= 5
    assert not set(eligible) & info.islands
    assert set(info.eligible_homelands(islands_allowed=True)) >= info.islands
    for link in BOARD.links:
        assert link.b in info.neighbours[link.a]


def test_darts_located_on_the_printed_map_drive_the_start():
    game = DartWars()
    state = game.new_state(["Ann", "Bob"])
    cx, cy = BOARD.target.center
    state = game.apply(state, dart_at(BOARD, 0, cx + 30, cy))
    state = game.apply(state, dart_at(BOARD, 1, cx, cy + 5))
    assert state["first_player"] == 1
    home = game.info.eligible_homelands(False)[0]
    x, y = BOARD.zone(home).centroid
    state = game.apply(state, dart_at(BOARD, 1, x, y))
    assert state["homelands"][1] == home


def test_random_games_on_the_world_map_finish_cleanly():
    for seed in range(6):
        rng = random.Random(seed)
        game, players = DartWars.random_setup(rng)
        state, _actions, violations = play_one(game, players, rng)
        assert violations == []
        assert len(game.outcome(state).winners) == 1


def test_uniformly_random_legal_actions_on_the_world_map_are_accepted():
    game = DartWars(options={"islands_as_homelands": True})
    rng = random.Random(3)
    state = game.new_state(["A", "B", "C", "D", "E"])
    for _ in range(400):
        if game.outcome(state) is not None:
            break
        state = game.apply(state, rng.choice(list(game.legal_actions(state))))
        assert check_state(game, state) == []
