"""The invariant checker notices a corrupted state (so self-play would report it)."""

from __future__ import annotations

import copy

import pytest

from rules.selfplay import check_state
from rules.sparta import Sparta


def fresh():
    game = Sparta()
    state = game.new_state(["Ann", "Ben"])
    state = game.apply(state, game.parse_notation("b1-b2-b3", 0))
    return game, state


def test_a_sound_state_has_no_problems():
    game, state = fresh()
    assert game.check_invariants(state) == []
    assert check_state(game, state) == []


def put(state, row, col, letter):
    line = state["board"][row]
    state["board"][row] = line[:col] + letter + line[col + 1 :]


@pytest.mark.parametrize(
    ("corrupt", "words"),
    [
        (lambda s: put(s, 5, 5, "W"), "warriors do not add up"),
        (lambda s: put(s, 9, 2, "H"), "heroes do not add up"),
        (lambda s: s["stock"].__setitem__(0, 7), "stock"),
        (lambda s: (put(s, 5, 5, "w"), put(s, 5, 4, "W"), put(s, 5, 6, "W")), "trapped"),
        (lambda s: s["cities"].pop("5,1"), "city squares"),
        (lambda s: s["cities"].__setitem__("5,1", 3), "bad owner"),
        (lambda s: s["board"].pop(), "not 10x10"),
        (lambda s: put(s, 5, 5, "K"), "unknown letters"),
        (lambda s: s.__setitem__("to_move", 2), "bad player"),
        (lambda s: s.__setitem__("outcome", {"winners": [0], "reason": "last-piece"}), "outcome"),
    ],
)
def test_corruptions_are_reported(corrupt, words):
    game, state = fresh()
    broken = copy.deepcopy(state)
    corrupt(broken)
    problems = game.check_invariants(broken)
    assert any(words in p for p in problems), problems


def test_a_missing_end_is_reported():
    game = Sparta.from_diagram(
        """
        W  .  .  .
        .  .  .  .
        .  w  .  .
        W  .  .  w
        """
    )
    state = game.new_state(["Ann", "Ben"])
    assert game.outcome(state).reason == "few-pieces-tie"
    state["outcome"] = None
    assert any("end condition holds" in p for p in game.check_invariants(state))
