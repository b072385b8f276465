"""Secrets: nobody's view holds another player's unrevealed cards or special card."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dawgs import DawgsOfWar
from rules.selfplay import play_one

SPECIALS = ["afterburner", "immelmann", "steady_aim"]


def three_pilots(h, game):
    state = h.build(
        game,
        [
            {"front": h.at(3, 8), "heading": 0, "special": SPECIALS[0]},
            {"front": h.at(10, 4), "heading": 6, "special": SPECIALS[1]},
            {"front": h.at(15, 12), "heading": 6, "special": SPECIALS[2]},
        ],
    )
    # P2 and P3 have chosen (P3 plays its special); P1 is still thinking.
    return h.play(game, state, {1: ["3", "counter_clockwise"], 2: ["2", "special"]})


def test_no_view_holds_another_players_secret(h) -> None:
    game = DawgsOfWar()
    state = three_pilots(h, game)
    for viewer in (0, 1, 2, None):
        text = json.dumps(game.view(state, viewer))
        for other, special in enumerate(SPECIALS):
            assert (special in text) == (other == viewer), (viewer, special)
        seen = json.loads(text)
        for other, plane in enumerate(seen["planes"]):
            if other != viewer:
                assert plane["chosen"] is None
        assert [p["has_chosen"] for p in seen["planes"]] == [False, True, True]
    # Only P2 chose counter-clockwise; P1's own hand lists that card, so look at the others.
    spectator = json.dumps(game.view(state, None))
    assert "counter_clockwise" not in spectator
    own = game.view(state, 1)
    assert own["planes"][1]["chosen"] == ["3", "counter_clockwise"]
    assert own["display"]["hand"][-1] == "immelmann"


def test_the_prompt_never_names_a_special(h) -> None:
    game = DawgsOfWar()
    state = three_pilots(h, game)
    text = json.dumps(game.prompt(state).to_json())
    assert not any(special in text for special in SPECIALS)


def test_revealed_cards_are_public(h) -> None:
    game = DawgsOfWar()
    state = h.play(game, three_pilots(h, game), {0: ["1", "no_change"]})
    spectator = game.view(state, None)
    assert spectator["planes"][2]["revealed"] == ["2", "steady_aim"]


def test_the_view_draws_bodies_and_cones(h) -> None:
    game = DawgsOfWar()
    state = three_pilots(h, game)
    shown = game.view(state, None)["display"]["planes"][0]
    assert shown["body"] == [h.at(3, 8), h.at(2, 8)]
    assert h.at(4, 8) in shown["cone"] and shown["vuln"] == 4


def _blind_to_others(game, state, viewer):
    """Scramble every secret of the other players: the viewer's view must not change."""
    scrambled = json.loads(json.dumps(state))
    for index, plane in enumerate(scrambled["planes"]):
        if index == viewer:
            continue
        if plane["chosen"] is not None:
            plane["chosen"] = (
                ["3", "clockwise"]
                if plane["chosen"] != ["3", "clockwise"]
                else [
                    "1",
                    "no_change",
                ]
            )
        if plane["special"] is not None:
            plane["special"] = "x-secret"
    scrambled["deck"] = sorted(scrambled["deck"], reverse=True)
    return game.view(scrambled, viewer) == game.view(state, viewer)


@settings(max_examples=25)
@given(st.integers(0, 10_000))
def test_views_do_not_depend_on_other_players_secrets(seed: int) -> None:
    rng = random.Random(seed)
    game, players = DawgsOfWar.random_setup(rng)
    states = []
    play_one(game, players, rng, on_state=states.append)
    for state in states[:: max(1, len(states) // 10)]:
        for viewer in [None, *range(len(players))]:
            assert _blind_to_others(game, state, viewer)


def test_logged_actions_hide_other_pilots_cards() -> None:
    game = DawgsOfWar()
    chosen = {"type": "choose_cards", "player": 1, "cards": ["3", "special"]}
    drawn = {"type": "draw_special", "player": 1, "card": "immelmann"}
    assert game.action_view(chosen, 1) == chosen
    assert game.action_view(chosen, 0) == {"type": "choose_cards", "player": 1}
    assert game.action_view(chosen, None) == {"type": "choose_cards", "player": 1}
    assert game.action_view(drawn, 2) == {"type": "draw_special", "player": 1}
    roll = {"type": "roll", "value": 4}
    assert game.action_view(roll, None) == roll
