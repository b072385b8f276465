"""The special ability cards designed for Oche (rules/dawgs/data.py), one scenario each."""

from __future__ import annotations

import pytest

from rules.dawgs import DawgsOfWar, data

CRUISE = ["1", "no_change"]


@pytest.fixture
def game() -> DawgsOfWar:
    return DawgsOfWar()


def solo(h, game, card, **first):
    return h.build(
        game,
        [
            {"front": h.at(5, 8), "heading": 0, "speed": 1, "special": card, **first},
            {"front": h.at(16, 3), "heading": 6, "speed": 1},
        ],
    )


def test_the_deck_matches_the_box(game) -> None:
    # 12 specials + 8 players x 6 basic cards = the 60 control cards listed in the components.
    assert len(game.config.special_deck()) + 8 * 6 == 60
    assert all(card.text for card in data.SPECIAL_CARDS.values())


def test_afterburner_raises_speed_before_moving(h, game) -> None:
    state = h.play(game, solo(h, game, "afterburner"), {0: ["3", "special"], 1: CRUISE})
    plane = state["planes"][0]
    assert plane["front"] == h.at(8, 8)
    assert plane["revealed"] == ["3", "afterburner"]


def test_afterburner_never_slows(h, game) -> None:
    state = h.play(game, solo(h, game, "afterburner", speed=3), {0: ["1", "special"], 1: CRUISE})
    assert state["planes"][0]["front"] == h.at(8, 8)


def test_air_brake_lowers_speed(h, game) -> None:
    state = h.play(game, solo(h, game, "air_brake", speed=3), {0: ["2", "special"], 1: CRUISE})
    assert state["planes"][0]["front"] == h.at(6, 8)


def test_immelmann_reverses_the_plane(h, game) -> None:
    state = h.play(game, solo(h, game, "immelmann"), {0: ["2", "special"], 1: CRUISE})
    plane = state["planes"][0]
    assert plane["heading"] == 6 and plane["front"] == h.at(4, 8)


def test_half_roll_swaps_climb_for_dive(h, game) -> None:
    state = h.play(game, solo(h, game, "half_roll", heading=2), {0: ["2", "special"], 1: CRUISE})
    assert state["planes"][0]["heading"] == 10


def test_steady_aim_adds_one_to_the_fire_roll(h, game) -> None:
    state = h.build(
        game,
        [
            {"front": h.at(3, 8), "heading": 0, "speed": 1, "special": "steady_aim"},
            {"front": h.at(6, 8), "heading": 0, "speed": 1},
        ],
    )
    state = h.play(game, state, {0: ["1", "special"], 1: CRUISE})
    state = game.apply(state, {"type": "fire", "player": 0, "target": 1})
    assert game.prompt(state).data["bonus"] == 1
    state = h.roll(game, state, 3)
    assert state["planes"][1]["damage"] == 3


def test_armour_plating_stays_in_play_and_stops_one_hit(h, game) -> None:
    state = h.build(
        game,
        [
            {"front": h.at(3, 8), "heading": 0, "speed": 1},
            {"front": h.at(6, 8), "heading": 0, "speed": 1, "special": "armour_plating"},
        ],
    )
    state = h.play(game, state, {0: CRUISE, 1: ["1", "special"]})
    assert state["planes"][1]["in_play"] == "armour_plating"
    assert "armour_plating" not in game.hand(state, 1)  # stays on the table, not in hand
    state = game.apply(state, {"type": "fire", "player": 0, "target": 1})
    state = h.roll(game, state, 6)  # two hits, one absorbed
    assert state["planes"][1]["damage"] == 3
    assert state["planes"][1]["in_play"] is None
    assert state["discard"] == ["armour_plating"]
    # With the card gone, the special slot is no longer offered.
    assert all("special" not in a["cards"] for a in game.card_choices(state, 1))
