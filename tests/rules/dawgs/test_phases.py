"""One scenario per rulebook paragraph of a round, each from a hand-built position.

Default map: 22 columns x 16 rows; ``h.at(column, altitude)`` names a hex (altitude 1 is the
bottom row). Headings: 0 right, 3 up, 6 left, 9 down (counter-clockwise in 30-degree steps).
"""

from __future__ import annotations

import pytest

from rules.base import RulesError
from rules.dawgs import DawgsOfWar, combat, hexgrid
from rules.dawgs.planes import add_hits

LEVEL_RIGHT = {"heading": 0, "speed": 1}
LEVEL_LEFT = {"heading": 6, "speed": 1}


@pytest.fixture
def game() -> DawgsOfWar:
    return DawgsOfWar()


def two_far_apart(h, game, first=None, second=None):
    """P1 mid-map flying right, P2 far away flying left at another height (no shots)."""
    return h.build(
        game,
        [
            {"front": h.at(5, 8), **LEVEL_RIGHT, **(first or {})},
            {"front": h.at(16, 3), **LEVEL_LEFT, **(second or {})},
        ],
    )


# --- Phase 1: place cards -----------------------------------------------------------------
def test_cards_stay_hidden_until_everyone_has_chosen(h, game) -> None:
    state = two_far_apart(h, game)
    state = game.apply(
        state, {"type": "choose_cards", "player": 0, "cards": ["2", "counter_clockwise"]}
    )
    assert state["phase"] == "place"
    assert state["planes"][0]["revealed"] is None
    assert state["planes"][0]["heading"] == 0  # nothing turns before the reveal
    prompt = game.prompt(state)
    assert (prompt.kind, prompt.player, prompt.options) == ("choose_cards", None, ())
    assert prompt.data["waiting_for"] == [1]
    assert "P2" in prompt.text
    state = game.apply(state, {"type": "choose_cards", "player": 1, "cards": ["1", "no_change"]})
    assert [p["revealed"] for p in state["planes"]] == [
        ["2", "counter_clockwise"],
        ["1", "no_change"],
    ]
    assert all(p["chosen"] is None for p in state["planes"])


def test_pilots_may_choose_in_any_order(h, game) -> None:
    state = two_far_apart(h, game)
    state = h.play(game, state, {1: ["3", "clockwise"]})
    assert game.prompt(state).data["waiting_for"] == [0]
    state = h.play(game, state, {0: ["1", "no_change"]})
    assert state["round"] == 2
    assert [p["revealed"] for p in state["planes"]] == [["1", "no_change"], ["3", "clockwise"]]


@pytest.mark.parametrize(
    ("cards", "rule"),
    [
        (["1", "2"], "place-cards"),  # two number cards
        (["clockwise", "no_change"], "place-cards"),  # no number card
        (["1", "special"], "place-cards"),  # holds no special card
        (["1", "loop"], "place-cards"),  # not a control card
    ],
)
def test_a_number_card_and_one_other_card(h, game, cards, rule) -> None:
    state = two_far_apart(h, game)
    with pytest.raises(RulesError) as error:
        game.apply(state, {"type": "choose_cards", "player": 0, "cards": cards})
    assert error.value.rule == rule


def test_cannot_change_a_choice(h, game) -> None:
    state = h.play(game, two_far_apart(h, game), {0: ["1", "no_change"]})
    with pytest.raises(RulesError, match="already chosen"):
        h.play(game, state, {0: ["2", "clockwise"]})


# --- Phase 2a: change orientation ------------------------------------------------------------
@pytest.mark.parametrize(
    ("cards", "heading"),
    [
        (["2", "counter_clockwise"], 2),  # two clicks up: 60 degrees climb
        (["3", "clockwise"], 9),  # three clicks down: straight down
        (["1", "clockwise"], 11),  # edge -> vertex
        (["3", "no_change"], 0),  # the number card alone does not turn
    ],
)
def test_rotation_by_the_number_card(h, game, cards, heading) -> None:
    state = two_far_apart(h, game)
    state = h.play(game, state, {0: cards, 1: ["1", "no_change"]})
    assert state["planes"][0]["heading"] == heading


def test_rotation_is_about_the_front_hex(h, game) -> None:
    # Speed 0 would sink, so give speed 1 and follow the nose: it turns in place first,
    # then moves one increment along the new heading from the same front hex.
    state = two_far_apart(h, game)
    start = tuple(state["planes"][0]["front"])
    state = h.play(game, state, {0: ["2", "counter_clockwise"], 1: ["1", "no_change"]})
    assert tuple(state["planes"][0]["front"]) == hexgrid.add(start, (1, 1))


# --- Phase 2b: move ------------------------------------------------------------------------
@pytest.mark.parametrize("speed", [1, 2, 3])
def test_planes_move_forward_by_their_speed(h, game, speed) -> None:
    state = two_far_apart(h, game, first={"speed": speed})
    state = h.play(game, state, {0: ["1", "no_change"], 1: ["1", "no_change"]})
    assert state["planes"][0]["front"] == h.at(5 + speed, 8)
    assert state["planes"][1]["front"] == h.at(15, 3)


def test_speed_zero_sinks_one_increment(h, game) -> None:
    # Nose pointing up at speed 0: the plane drops one hex (down-left first, then
    # down-right on the next sink, so it falls straight), keeping its heading.
    state = two_far_apart(h, game, first={"speed": 0, "heading": 3})
    start = tuple(state["planes"][0]["front"])
    state = h.play(game, state, {0: ["1", "no_change"], 1: ["1", "no_change"]})
    plane = state["planes"][0]
    assert tuple(plane["front"]) == hexgrid.add(start, (-1, -1))
    assert plane["heading"] == 3
    assert plane["speed"] == 0  # climbing, so no levelling off


def test_planes_pass_through_each_other(h, game) -> None:
    # Head-on at the same altitude: both end where their speed takes them.
    state = h.build(
        game,
        [
            {"front": h.at(8, 8), "heading": 0, "speed": 3},
            {"front": h.at(10, 8), "heading": 6, "speed": 3},
        ],
    )
    state = h.play(game, state, {0: ["1", "no_change"], 1: ["1", "no_change"]})
    assert state["planes"][0]["front"] == h.at(11, 8)
    assert state["planes"][1]["front"] == h.at(7, 8)


def test_nose_into_the_ground_crashes(h, game) -> None:
    state = h.build(
        game,
        [
            {"front": h.at(5, 1), **LEVEL_RIGHT},
            {"front": h.at(16, 9), **LEVEL_LEFT},
            {"front": h.at(10, 12), **LEVEL_LEFT},
        ],
    )
    state = h.play(
        game, state, {0: ["2", "clockwise"], 1: ["1", "no_change"], 2: ["1", "no_change"]}
    )
    assert state["planes"][0]["status"] == "eliminated"
    assert state["planes"][0]["fate"] == "crashed"
    assert "P1 crashed" in state["events"]


def test_tail_in_the_ground_also_crashes(h, game) -> None:
    # On the bottom row, pitching up 30 degrees about the nose swings the tail into the
    # ground; flying on level for the first zig-zag step does not lift it in time.
    state = h.build(
        game,
        [
            {"front": h.at(5, 1), **LEVEL_RIGHT},
            {"front": h.at(16, 9), **LEVEL_LEFT},
            {"front": h.at(10, 12), **LEVEL_LEFT},
        ],
    )
    state = h.play(
        game, state, {0: ["1", "counter_clockwise"], 1: ["1", "no_change"], 2: ["1", "no_change"]}
    )
    assert state["planes"][0]["fate"] == "crashed"


def test_leaving_a_side_respawns_opposite_with_a_roll_and_speed_one(h, game) -> None:
    state = two_far_apart(h, game, first={"front": h.at(20, 8), "speed": 3})
    state = h.play(game, state, {0: ["1", "no_change"], 1: ["1", "no_change"]})
    prompt = game.prompt(state)
    assert (prompt.kind, prompt.player, prompt.data["purpose"]) == ("roll", 0, "respawn_roll")
    assert state["planes"][0]["status"] == "respawning"
    state = h.roll(game, state, 4)
    plane = state["planes"][0]
    assert plane["status"] == "flying"
    assert plane["front"] == h.at(1, 4)  # nose one column in, tail on the edge column
    assert plane["heading"] == 0 and plane["speed"] == 1


def test_leaving_the_left_side_enters_on_the_right_facing_left(h, game) -> None:
    state = two_far_apart(h, game, second={"front": h.at(1, 3), "speed": 2})
    state = h.play(game, state, {0: ["1", "no_change"], 1: ["1", "no_change"]})
    state = h.roll(game, state, 6)
    plane = state["planes"][1]
    assert plane["front"] == h.at(20, 6) and plane["heading"] == 6


def test_the_top_edge_stops_the_plane_at_speed_zero(h, game) -> None:
    # Climbing at 60 degrees from altitude 15 at speed 3: one increment reaches the top row,
    # the next would leave the map, so the plane stops there with speed 0.
    state = two_far_apart(h, game, first={"front": h.at(5, 15), "heading": 2, "speed": 3})
    state = h.play(game, state, {0: ["1", "no_change"], 1: ["1", "no_change"]})
    plane = state["planes"][0]
    assert hexgrid.altitude_of(tuple(plane["front"])) == 16
    assert plane["speed"] == 0
    assert any("stalls" in event for event in state["events"])


# --- Phase 3: fire --------------------------------------------------------------------------
def tail_chase(h, game, target_speed=1, **extra):
    """P1 behind P2 at the same height, both flying right: after moving, P2 is in P1's cone."""
    return h.build(
        game,
        [
            {"front": h.at(5, 8), "heading": 0, "speed": 1},
            {"front": h.at(8, 8), "heading": 0, "speed": target_speed},
        ],
        **extra,
    )


def test_an_enemy_in_the_cone_may_be_fired_on(h, game) -> None:
    state = h.play(game, tail_chase(h, game), {0: ["1", "no_change"], 1: ["1", "no_change"]})
    prompt = game.prompt(state)
    assert prompt.kind == "choose_target" and prompt.player == 0
    assert {"type": "fire", "player": 0, "target": 1} in prompt.options
    assert {"type": "hold_fire", "player": 0} in prompt.options


@pytest.mark.parametrize(("speed", "vuln"), [(0, 5), (1, 4), (2, 3), (3, 2)])
def test_vuln_follows_the_target_speed(h, game, speed, vuln) -> None:
    # Target far enough ahead that at any speed it stays within 3 hexes of the shooter.
    state = h.build(
        game,
        [
            {"front": h.at(5, 8), "heading": 0, "speed": 1},
            {"front": h.at(7 - speed, 8), "heading": 0, "speed": speed},
        ],
    )
    if speed == 0:
        state["planes"][1]["heading"] = 9  # nose down at speed 0: sinks into the cone
        state["planes"][1]["front"] = h.at(9, 9)
    state = h.play(game, state, {0: ["1", "no_change"], 1: ["1", "no_change"]})
    state = game.apply(state, {"type": "fire", "player": 0, "target": 1})
    prompt = game.prompt(state)
    assert prompt.data["needed"] == vuln


@pytest.mark.parametrize(
    ("roll", "hits", "damage"), [(3, 0, None), (4, 1, 3), (5, 1, 3), (6, 2, 2)]
)
def test_one_hit_at_the_vuln_two_hits_two_above(h, game, roll, hits, damage) -> None:
    state = h.play(game, tail_chase(h, game), {0: ["1", "no_change"], 1: ["1", "no_change"]})
    state = game.apply(state, {"type": "fire", "player": 0, "target": 1})
    state = h.roll(game, state, roll)
    assert state["planes"][1]["damage"] == damage
    assert any(f"{hits} hit(s)" in event for event in state["events"])


def test_only_one_shot_per_round(h, game) -> None:
    state = h.play(game, tail_chase(h, game), {0: ["1", "no_change"], 1: ["1", "no_change"]})
    state = game.apply(state, {"type": "fire", "player": 0, "target": 1})
    state = h.roll(game, state, 1)
    # the fire phase is over: the next round asks for cards again
    assert game.prompt(state).kind == "choose_cards"
    with pytest.raises(RulesError):
        game.apply(state, {"type": "fire", "player": 0, "target": 1})


def test_no_shot_at_a_plane_outside_the_cone_or_a_team_mate(h, game) -> None:
    state = h.build(
        game,
        [
            {"front": h.at(5, 8), "heading": 0, "speed": 1},
            {"front": h.at(8, 8), "heading": 0, "speed": 1},
            {"front": h.at(9, 2), "heading": 0, "speed": 1},
        ],
        teams=["red", "red", "blue"],
    )
    state = h.play(
        game, state, {0: ["1", "no_change"], 1: ["1", "no_change"], 2: ["1", "no_change"]}
    )
    assert game.prompt(state).kind == "choose_cards"  # nobody had a target: no fire prompt
    assert state["round"] == 2


def test_firing_out_of_turn_or_at_an_unseen_plane_is_refused(h, game) -> None:
    state = h.play(game, tail_chase(h, game), {0: ["1", "no_change"], 1: ["1", "no_change"]})
    with pytest.raises(RulesError) as error:
        game.apply(state, {"type": "fire", "player": 1, "target": 0})
    assert error.value.rule == "turn"
    with pytest.raises(RulesError) as error:
        game.apply(state, {"type": "fire", "player": 0, "target": 0})
    assert error.value.rule == "fire-target"


def test_damage_token_starts_right_and_moves_left() -> None:
    game = DawgsOfWar()
    plane = {"damage": None}
    track = []
    for _ in range(5):
        add_hits(plane, 1, game.config)
        track.append(plane["damage"])
    assert track == [3, 2, 1, 0, 0]


# --- Phase 4: adjust speed ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("heading", "altitude", "speed", "after"),
    [
        (9, 8, 1, 2),  # straight down: faster
        (8, 8, 1, 2),  # two clicks down: faster
        (11, 8, 1, 1),  # one click down: no change
        (9, 8, 3, 3),  # never above 3
        (2, 8, 2, 1),  # two clicks up: slower
        (3, 8, 0, 0),  # never below 0, and no levelling off while climbing
        (0, 14, 2, 1),  # low atmosphere: the top three rows slow a plane
        (0, 13, 2, 2),  # row 13 of 16 is below the thin air
        (9, 13, 1, 1),  # nose down at 13, tail at 14: +1 diving, -1 thin air
        (0, 15, 1, 1),  # thin air takes it to 0, then levelling off brings it to 1
        (9, 8, 0, 1),  # diving from 0: back to 1
    ],
)
def test_adjust_speed(heading, altitude, speed, after, h) -> None:
    game = DawgsOfWar()
    plane = {"front": h.at(5, altitude), "heading": heading, "speed": speed}
    combat.adjust_speed(plane, game.config)
    assert plane["speed"] == after


# --- Phase 5: breakup ---------------------------------------------------------------------
def test_breakup_example_from_the_rulebook(h, game) -> None:
    # Damage token on the speed-1 space, flying at 3: +2 to the die, VULN 4 needed,
    # so a natural 2 breaks the plane up and a natural 1 does not.
    for natural, broke in ((1, False), (2, True)):
        state = two_far_apart(h, game, first={"speed": 3, "damage": 1})
        state = h.play(game, state, {0: ["1", "no_change"], 1: ["1", "no_change"]})
        prompt = game.prompt(state)
        assert prompt.data == {"purpose": "breakup_roll", "bonus": 2, "needed": 4}
        state = h.roll(game, state, natural)
        assert (state["planes"][0]["status"] == "eliminated") == broke


def test_no_breakup_roll_below_the_damage_token(h, game) -> None:
    state = two_far_apart(h, game, first={"speed": 2, "damage": 3})
    state = h.play(game, state, {0: ["1", "no_change"], 1: ["1", "no_change"]})
    assert game.prompt(state).kind == "choose_cards"


# --- Phase 6: victory -------------------------------------------------------------------------
def test_last_plane_in_the_sky_wins(h, game) -> None:
    state = two_far_apart(h, game, first={"speed": 3, "damage": 0})
    state = h.play(game, state, {0: ["1", "no_change"], 1: ["1", "no_change"]})
    state = h.roll(game, state, 6)
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winners == (1,) and not outcome.draw
    assert game.prompt(state).kind == "game_over"
    with pytest.raises(RulesError) as error:
        h.play(game, state, {1: ["1", "no_change"]})
    assert error.value.rule == "game-over"


def test_the_last_team_wins_together(h, game) -> None:
    state = h.build(
        game,
        [
            {"front": h.at(5, 1), **LEVEL_RIGHT},
            {"front": h.at(5, 9), **LEVEL_RIGHT},
            {"front": h.at(16, 12), **LEVEL_LEFT},
        ],
        teams=["red", "blue", "blue"],
    )
    state = h.play(
        game, state, {0: ["3", "clockwise"], 1: ["3", "clockwise"], 2: ["1", "no_change"]}
    )
    # P1 dives into the ground; P2 (blue) survives its dive; blue is alone in the sky.
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winners == (1, 2)


def test_nobody_wins_when_no_plane_is_left(h, game) -> None:
    state = h.build(
        game, [{"front": h.at(5, 1), **LEVEL_RIGHT}, {"front": h.at(9, 1), **LEVEL_RIGHT}]
    )
    state = h.play(game, state, {0: ["3", "clockwise"], 1: ["3", "clockwise"]})
    outcome = game.outcome(state)
    assert outcome is not None and outcome.draw and outcome.winners == ()


def test_cards_return_to_hand_each_round(h, game) -> None:
    state = two_far_apart(h, game, first={"special": "steady_aim"})
    state = h.play(game, state, {0: ["2", "special"], 1: ["1", "no_change"]})
    assert state["round"] == 2
    assert "steady_aim" in game.hand(state, 0)
    choices = list(game.card_choices(state, 0))
    assert {"type": "choose_cards", "player": 0, "cards": ["2", "special"]} in choices


def test_diving_into_a_bottom_corner_crashes_instead_of_leaving(h, game) -> None:
    # Bottom-left hex, nose down-left: the next hex is both below the ground and past the
    # left edge. The ground wins: the plane crashes and does not respawn.
    state = h.build(
        game,
        [
            {"front": h.at(0, 1), "heading": 8, "speed": 1},
            {"front": h.at(16, 9), **LEVEL_LEFT},
            {"front": h.at(10, 12), **LEVEL_LEFT},
        ],
    )
    state = h.play(
        game, state, {0: ["1", "no_change"], 1: ["1", "no_change"], 2: ["1", "no_change"]}
    )
    assert state["planes"][0]["fate"] == "crashed"


def test_the_phases_run_in_book_order(h, game) -> None:
    # One round that needs every kind of input: P1 flies off the right edge (respawn roll,
    # phase 2), P2 has P3 in its cone (fire, phase 3), P3 is damaged at speed 1 (breakup
    # roll, phase 5); then round 2 starts with card choices (phase 1).
    state = h.build(
        game,
        [
            {"front": h.at(20, 12), "heading": 0, "speed": 3},
            {"front": h.at(3, 8), "heading": 0, "speed": 1},
            {"front": h.at(6, 8), "heading": 0, "speed": 1, "damage": 1},
        ],
    )
    seen = []
    state = h.play(
        game, state, {0: ["1", "no_change"], 1: ["1", "no_change"], 2: ["1", "no_change"]}
    )
    seen.append((state["phase"], game.prompt(state).kind))
    state = h.roll(game, state, 2)
    seen.append((state["phase"], game.prompt(state).kind))
    state = game.apply(state, {"type": "fire", "player": 1, "target": 2})
    seen.append((state["phase"], game.prompt(state).kind))
    state = h.roll(game, state, 1)
    seen.append((state["phase"], game.prompt(state).kind))
    state = h.roll(game, state, 1)
    seen.append((state["phase"], game.prompt(state).kind))
    assert seen == [
        ("move", "roll"),
        ("fire", "choose_target"),
        ("fire", "roll"),
        ("breakup", "roll"),
        ("place", "choose_cards"),
    ]
    assert state["round"] == 2 and state["turn_number"] == 2
