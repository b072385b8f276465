"""Setup: hands, sides, starting altitudes, special cards."""

from __future__ import annotations

import pytest

from rules.base import RulesError
from rules.dawgs import DawgsOfWar


def test_a_fresh_game_asks_for_the_side_roll_first() -> None:
    game = DawgsOfWar()
    state = game.new_state(["Ann", "Bob", "Cy"])
    prompt = game.prompt(state)
    assert (prompt.kind, prompt.player, prompt.data["purpose"]) == ("roll", 0, "side_roll")
    assert all(p["speed"] == 1 and p["damage"] is None for p in state["planes"])


def test_parity_decides_the_side_and_the_plane_faces_across(h) -> None:
    game = DawgsOfWar()
    state = game.new_state(["Ann", "Bob"])
    state = h.roll(game, state, 4, 3)  # Ann: even -> right, altitude 3
    state = h.roll(game, state, 5, 3)  # Bob: odd -> left, altitude 3 (other side: no clash)
    ann, bob = state["planes"]
    assert (ann["side"], ann["front"], ann["heading"]) == ("right", h.at(20, 3), 6)
    assert (bob["side"], bob["front"], bob["heading"]) == ("left", h.at(1, 3), 0)
    assert game.prompt(state).kind == "draw_special"


def test_same_spot_rerolls(h) -> None:
    game = DawgsOfWar()
    state = game.new_state(["Ann", "Bob"])
    state = h.roll(game, state, 1, 2, 3, 2)  # both left; Bob's 2 is taken
    prompt = game.prompt(state)
    assert (prompt.player, prompt.data["purpose"]) == (1, "altitude_roll")
    assert any("taken" in event for event in state["events"])
    state = h.roll(game, state, 6)
    assert state["planes"][1]["front"] == h.at(1, 6)


def test_a_full_side_sends_the_next_plane_across(h) -> None:
    game = DawgsOfWar()
    state = game.new_state([f"P{i}" for i in range(7)])
    for altitude in range(1, 7):
        state = h.roll(game, state, 1, altitude)
    state = h.roll(game, state, 1)  # odd again, but the left side holds six planes
    assert state["planes"][6]["side"] == "right"


def test_each_player_draws_one_special_card(h) -> None:
    game = DawgsOfWar()
    state = game.new_state(["Ann", "Bob"])
    state = h.roll(game, state, 1, 1, 2, 1)
    prompt = game.prompt(state)
    assert prompt.kind == "draw_special" and len(prompt.options) == 12
    state = game.apply(state, {"type": "draw_special", "player": 0, "index": 0})
    state = game.apply(state, {"type": "draw_special", "player": 1, "card": "steady_aim"})
    assert state["planes"][0]["special"] == "afterburner"  # the deck is sorted by id
    assert state["planes"][1]["special"] == "steady_aim"
    assert len(state["deck"]) == 10
    assert game.prompt(state).kind == "choose_cards"
    assert sorted(game.hand(state, 0)) == sorted(
        ["1", "2", "3", "clockwise", "counter_clockwise", "no_change", "afterburner"]
    )


def test_teams_choose_a_side_together(h) -> None:
    game = DawgsOfWar({"teams": ["a", "b", "a", "b"]})
    state = game.new_state(["A1", "B1", "A2", "B2"])
    prompt = game.prompt(state)
    assert (prompt.kind, prompt.player) == ("choose_side", 0)
    state = game.apply(state, {"type": "choose_side", "player": 0, "side": "right"})
    assert [p["side"] for p in state["planes"]] == ["right", None, "right", None]
    state = game.apply(state, {"type": "choose_side", "player": 1, "side": "left"})
    assert [p["side"] for p in state["planes"]] == ["right", "left", "right", "left"]
    assert game.prompt(state).data["purpose"] == "altitude_roll"


def test_a_side_choice_must_leave_room_for_the_other_teams() -> None:
    # Teams of 1, 1 and 6: once the first single plane is left, the second must join it,
    # or the six-plane team could not fit on either side.
    game = DawgsOfWar({"teams": ["x", "y", "z", "z", "z", "z", "z", "z"]})
    state = game.new_state([f"P{i}" for i in range(8)])
    state = game.apply(state, {"type": "choose_side", "player": 0, "side": "left"})
    options = game.prompt(state).options
    assert options == ({"type": "choose_side", "player": 1, "side": "left"},)
    with pytest.raises(RulesError) as error:
        game.apply(state, {"type": "choose_side", "player": 1, "side": "right"})
    assert error.value.rule == "setup-side"
