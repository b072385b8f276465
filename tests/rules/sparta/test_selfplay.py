"""Self-play through the shared driver: every game ends, nothing is ever violated."""

from __future__ import annotations

import random

from rules.selfplay import selfplay
from rules.sparta import Sparta


def test_selfplay_finishes_every_game_without_violations():
    report = selfplay("sparta", 25, 7, Sparta.random_setup)
    assert report.violations == []
    assert report.finished == 25
    assert report.turns == report.actions > 0


def test_random_setup_varies_the_options_and_layouts():
    rng = random.Random(3)
    games = [Sparta.random_setup(rng)[0] for _ in range(60)]
    assert {g.options["heroes_conquer"] for g in games} == {True, False}
    assert {g.options["when_blocked"] for g in games} == {"pass", "lose"}
    assert {g.options["first_player"] for g in games} == {0, 1}
    assert len({g.size for g in games}) > 2
    assert any(g.options["layout"] is None for g in games)
    assert any(g.options["quiet_move_limit"] for g in games)


def test_random_action_is_legal_and_repeatable_from_a_seed():
    game = Sparta()
    state = game.new_state(["Ann", "Ben"])
    first = [game.random_action(state, random.Random(5)) for _ in range(3)]
    assert first[0] == first[1] == first[2]
    assert game.is_legal(state, first[0])
