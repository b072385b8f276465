"""The optional rules, the round limit and the data options, one scenario each."""

from __future__ import annotations

import pytest

from rules.base import RulesError
from rules.dawgs import DawgsOfWar

CRUISE = ["1", "no_change"]


def leaver(h, game, **first):
    """P1 about to fly off the right edge at altitude 8; P2 far away."""
    return h.build(
        game,
        [
            {"front": h.at(20, 8), "heading": 0, "speed": 3, **first},
            {"front": h.at(10, 2), "heading": 6, "speed": 1},
        ],
    )


def test_defaults_follow_the_rulebook() -> None:
    game = DawgsOfWar()
    assert game.config.vuln_track == (5, 4, 3, 2)
    assert game.config.start_speed == 1
    assert (game.config.columns, game.config.rows) == (22, 16)
    for rule in (
        "damage_on_leaving",
        "world_not_round",
        "constant_altitude",
        "redraw_special",
        "delayed_respawn",
        "continuous_fire",
    ):
        assert game.options[rule] is False


def test_damage_on_leaving(h) -> None:
    game = DawgsOfWar({"damage_on_leaving": True})
    state = h.play(game, leaver(h, game), {0: CRUISE, 1: CRUISE})
    assert state["planes"][0]["damage"] == 3
    plain = DawgsOfWar()
    state = h.play(plain, leaver(h, plain), {0: CRUISE, 1: CRUISE})
    assert state["planes"][0]["damage"] is None


def test_world_is_not_round(h) -> None:
    game = DawgsOfWar({"world_not_round": True})
    state = h.play(game, leaver(h, game), {0: CRUISE, 1: CRUISE})
    state = h.roll(game, state, 2)
    plane = state["planes"][0]
    assert plane["front"] == h.at(20, 2)  # back in on the right edge, flying left
    assert plane["heading"] == 6


def test_constant_altitude_needs_no_roll(h) -> None:
    game = DawgsOfWar({"constant_altitude": True})
    state = h.play(game, leaver(h, game), {0: CRUISE, 1: CRUISE})
    assert game.prompt(state).kind == "choose_cards"
    assert state["planes"][0]["front"] == h.at(1, 8)
    assert state["planes"][0]["speed"] == 1


def test_redraw_special_on_respawn(h) -> None:
    game = DawgsOfWar({"redraw_special": True})
    state = leaver(h, game, special="immelmann")
    state = h.play(game, state, {0: CRUISE, 1: CRUISE})
    prompt = game.prompt(state)
    assert prompt.kind == "draw_special" and prompt.player == 0
    assert state["discard"] == ["immelmann"]
    state = game.apply(state, {"type": "draw_special", "player": 0, "card": "steady_aim"})
    assert state["planes"][0]["special"] == "steady_aim"
    assert game.prompt(state).data["purpose"] == "respawn_roll"
    state = h.roll(game, state, 3)
    assert state["planes"][0]["front"] == h.at(1, 3)


def test_delayed_respawn_skips_a_round_and_then_does_not_move(h) -> None:
    game = DawgsOfWar({"delayed_respawn": True})
    state = h.play(game, leaver(h, game), {0: CRUISE, 1: CRUISE})
    assert state["planes"][0]["status"] == "off_board"
    assert state["round"] == 2 and game.prompt(state).kind == "choose_cards"
    # Round 2: only P2 chooses; P1 comes back during this movement phase, standing still.
    assert game.prompt(state).data["waiting_for"] == [1]
    state = h.play(game, state, {1: CRUISE})
    prompt = game.prompt(state)
    assert (prompt.player, prompt.data["purpose"]) == (0, "respawn_roll")
    state = h.roll(game, state, 5)
    plane = state["planes"][0]
    assert plane["status"] == "flying" and plane["front"] == h.at(1, 5)


def chase(h, game, **shooter):
    """P1 three hexes behind P2 after moving: P2 in P1's cone every round."""
    return h.build(
        game,
        [
            {"front": h.at(3, 8), "heading": 0, "speed": 1, **shooter},
            {"front": h.at(6, 8), "heading": 0, "speed": 1},
            {"front": h.at(9, 3), "heading": 0, "speed": 1},
        ],
    )


def fire(game, state, h, target, value):
    state = game.apply(state, {"type": "fire", "player": 0, "target": target})
    return h.roll(game, state, value)


def test_continuous_fire_token(h) -> None:
    game = DawgsOfWar({"continuous_fire": True})
    state = h.play(game, chase(h, game), {0: CRUISE, 1: CRUISE, 2: CRUISE})
    state = fire(game, state, h, 1, 1)  # a miss leaves the token on P2
    assert state["planes"][0]["cf_on"] == 1
    state = h.play(game, state, {0: CRUISE, 1: CRUISE, 2: CRUISE})
    state = game.apply(state, {"type": "fire", "player": 0, "target": 1})
    assert game.prompt(state).data["bonus"] == 1
    state = h.roll(game, state, 3)  # 3 + 1 reaches VULN 4: a hit
    assert state["planes"][1]["damage"] == 3
    assert state["planes"][0]["cf_on"] == 1  # the token stays on its plane


def test_continuous_fire_token_moves_when_firing_elsewhere(h) -> None:
    game = DawgsOfWar({"continuous_fire": True})
    state = chase(h, game, cf_on=2)
    state = h.play(game, state, {0: CRUISE, 1: CRUISE, 2: CRUISE})
    state = fire(game, state, h, 1, 6)  # a hit on another plane: token removed, not placed
    assert state["planes"][0]["cf_on"] is None


def test_without_continuous_fire_no_token_is_placed(h) -> None:
    game = DawgsOfWar()
    state = h.play(game, chase(h, game), {0: CRUISE, 1: CRUISE, 2: CRUISE})
    state = fire(game, state, h, 1, 1)
    assert state["planes"][0]["cf_on"] is None


def test_round_limit_ends_in_a_draw(h) -> None:
    game = DawgsOfWar({"round_limit": 1})
    state = h.build(
        game,
        [{"front": h.at(5, 8), "heading": 0, "speed": 1}, {"front": h.at(15, 3), "heading": 6}],
    )
    state = h.play(game, state, {0: CRUISE, 1: CRUISE})
    outcome = game.outcome(state)
    assert outcome is not None and outcome.draw and "round limit" in outcome.reason


def test_no_round_limit(h) -> None:
    game = DawgsOfWar({"round_limit": 0})
    state = h.build(
        game,
        [{"front": h.at(5, 8), "heading": 0, "speed": 1}, {"front": h.at(15, 3), "heading": 6}],
    )
    state["round"] = state["turn_number"] = 500
    state = h.play(game, state, {0: CRUISE, 1: CRUISE})
    assert game.outcome(state) is None and state["round"] == 501


def test_the_track_is_data(h) -> None:
    game = DawgsOfWar({"vuln_track": [6, 5, 4, 3, 2], "start_speed": 2})
    assert game.config.max_speed == 4
    state = h.build(
        game,
        [
            {"front": h.at(3, 8), "heading": 0, "speed": 2},
            {"front": h.at(5, 8), "heading": 0, "speed": 4},
        ],
    )
    state = h.play(game, state, {0: CRUISE, 1: CRUISE})
    state = game.apply(state, {"type": "fire", "player": 0, "target": 1})
    assert game.prompt(state).data["needed"] == 2
    state = h.roll(game, state, 2)
    assert state["planes"][1]["damage"] == 4  # first hit: rightmost space of a 5-space track


def test_map_size_is_data(h) -> None:
    game = DawgsOfWar({"map_columns": 8, "map_rows": 9})
    state = h.build(
        game,
        [{"front": h.at(6, 8), "heading": 0, "speed": 2}, {"front": h.at(2, 2), "heading": 6}],
    )
    state = h.play(game, state, {0: CRUISE, 1: CRUISE})
    assert game.prompt(state).data["purpose"] == "respawn_roll"


def test_no_special_cards(h) -> None:
    game = DawgsOfWar({"special_cards": {}})
    state = game.new_state(["A", "B"])
    kinds = set()
    for value in (1, 1, 1, 1, 2):  # both start left; the second rolls altitude 1 again, then 2
        kinds.add(game.prompt(state).kind)
        state = h.roll(game, state, value)
    assert game.prompt(state).kind == "choose_cards"
    assert "draw_special" not in kinds
    assert all(p["special"] is None for p in state["planes"])


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"map_columns": 2}, "map_columns"),
        ({"map_rows": 5}, "map_rows"),
        ({"vuln_track": [5]}, "vuln_track"),
        ({"start_speed": 4}, "start_speed"),
        ({"special_cards": {"loop": 2}}, "unknown special card"),
        ({"special_cards": {"afterburner": 9}}, "copies"),
        ({"continuous_fire": "yes"}, "continuous_fire"),
        ({"teams": "ab"}, "teams"),
        ({"laser_guns": True}, "no option laser_guns"),
    ],
)
def test_bad_options_are_named(options, words) -> None:
    with pytest.raises(RulesError, match=words):
        DawgsOfWar(options)


@pytest.mark.parametrize(
    ("teams", "players", "words"),
    [
        ([0, 1], 3, "lists 2 seats"),
        ([0, 0, 0], 3, "two different teams"),
        ([0] * 7 + [1], 8, "at most 6"),
    ],
)
def test_bad_teams_are_named(teams, players, words) -> None:
    with pytest.raises(RulesError, match=words):
        DawgsOfWar({"teams": teams}).new_state([f"P{i}" for i in range(players)])


def test_a_plane_waiting_to_respawn_is_out_of_the_fight(h) -> None:
    # P2, badly damaged, flies off the right edge with delayed respawn. It would have been in
    # P1's cone and would need a breakup roll (token on speed 0); off the board it gets
    # neither, chooses no cards next round, and still keeps the game going.
    game = DawgsOfWar({"delayed_respawn": True})
    state = h.build(
        game,
        [
            {"front": h.at(17, 8), "heading": 0, "speed": 1},
            {"front": h.at(20, 8), "heading": 0, "speed": 3, "damage": 0},
            {"front": h.at(5, 2), "heading": 6, "speed": 1},
        ],
    )
    state = h.play(game, state, {0: CRUISE, 1: CRUISE, 2: CRUISE})
    assert state["planes"][1]["status"] == "off_board"
    prompt = game.prompt(state)
    assert (prompt.kind, prompt.data["waiting_for"]) == ("choose_cards", [0, 2])
    assert state["round"] == 2 and game.outcome(state) is None
