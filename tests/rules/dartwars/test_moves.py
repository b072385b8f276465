"""GAME RULES / Actions / Moves, extra magnets, and the darts of a turn."""

from __future__ import annotations

import pytest

from rules.base import RulesError
from rules.darts import dart_in_zone

# P0's homeland a, P1's homeland h (far away on the practice map).
HOMES = ("a", "h")


def _start(table, magnets, **kwargs):
    game = table.game(**{k: kwargs.pop(k) for k in list(kwargs) if k in game_options})
    return game, table.state(game, HOMES, magnets, **kwargs)


game_options = ("darts_per_turn", "homeland_limit", "lost_magnets_return")


def test_a_turn_is_three_darts_then_the_moves(table):
    game, state = _start(table, [(0, "a"), (1, "h")])
    state = table.darts(game, state, "c", "w1")
    assert game.prompt(state).kind == "dart"
    assert game.prompt(state).data["darts_left"] == 1
    state = table.darts(game, state, "b")
    prompt = game.prompt(state)
    assert prompt.kind == "move" and prompt.player == 0
    assert prompt.data["hits"] == {"b": 1, "c": 1, "w1": 1}


def test_the_player_may_stop_before_three_darts(table):
    game, state = _start(table, [(0, "a"), (1, "h")])
    state = table.darts(game, state, "b", stop=True)
    assert game.prompt(state).kind == "move"
    assert state["turn"]["thrown"] == 1


@pytest.mark.parametrize(
    ("origin", "dest"),
    [("a", "b"), ("w1", "w3"), ("b", "w1"), ("w1", "b"), ("b", "e"), ("e", "b")],
)
def test_moves_between_bordering_zones_water_squares_and_along_sea_links(table, origin, dest):
    game, state = _start(table, [(0, origin), (1, "h")], visited=[dest])
    state = table.darts(game, state, dest, stop=True)
    state = table.move(game, state, origin, dest)
    assert table.own(state, 0, dest) == 1


@pytest.mark.parametrize(
    ("origin", "dest", "other"), [("w1", "w4", "w2"), ("a", "g", "c"), ("c", "e", "b")]
)
def test_no_diagonal_water_move_and_no_move_to_a_far_zone(table, origin, dest, other):
    # ``other`` borders ``dest``, so the turn waits for moves.
    game, state = _start(table, [(0, origin), (0, other), (1, "h")], visited=[dest])
    state = table.darts(game, state, dest, stop=True)
    with pytest.raises(RulesError) as err:
        table.move(game, state, origin, dest)
    assert err.value.rule == "adjacent-only"


def test_a_magnet_moves_only_into_a_zone_a_dart_hit(table):
    game, state = _start(table, [(0, "a"), (1, "h")])
    state = table.darts(game, state, "c", stop=True)
    with pytest.raises(RulesError) as err:
        table.move(game, state, "a", "b")
    assert err.value.rule == "move-needs-hit"


def test_a_dart_in_a_free_zone_never_forces_a_move(table):
    game, state = _start(table, [(0, "a"), (1, "h")])
    state = table.darts(game, state, "b", "c", "d")
    state = table.end_moves(game, state)
    assert state["turn"]["player"] == 1
    assert table.own(state, 0, "a") == 1


def test_first_visit_of_a_country_wins_one_magnet_once_ever(table):
    game, state = _start(table, [(0, "a"), (1, "h"), (1, "f")], player=1)
    state = table.darts(game, state, "e", stop=True)
    state = table.move(game, state, "f", "e")
    assert table.own(state, 1, "e") == 2
    assert state["visited"]["e"] == 1
    assert state["supply"][1] == 12
    # P0 reaches e later by the sea link: no magnet for him.
    state = table.darts(game, state, "b", stop=True)
    state = table.move(game, state, "a", "b")
    assert table.own(state, 0, "b") == 2
    state = table.darts(game, state, None, None, None)  # P1 throws nothing useful
    state = table.darts(game, state, "e", stop=True)
    before = state["supply"][0]
    state = table.move(game, state, "b", "e", attack=True)
    assert state["supply"][0] == before
    assert state["visited"]["e"] == 1


def test_islands_and_white_zones_count_as_countries_water_does_not(table):
    game, state = _start(table, [(0, "w7"), (0, "w5"), (0, "w6"), (1, "h")])
    state = table.darts(game, state, "i", "g", "w5")
    state = table.move(game, state, "w7", "i")
    state = table.move(game, state, "w5", "g")
    state = table.move(game, state, "w6", "w5")
    assert table.own(state, 0, "i") == 2 and table.own(state, 0, "g") == 2
    assert "w5" not in state["visited"]


def test_no_extra_magnet_in_water(table):
    game, state = _start(table, [(0, "b"), (1, "h")])
    state = table.darts(game, state, "w1", stop=True)
    state = table.move(game, state, "b", "w1")
    assert table.own(state, 0, "w1") == 1
    assert state["supply"][0] == 14


def test_the_magnet_that_won_a_magnet_and_the_new_magnet_stay_put(table):
    game, state = _start(table, [(0, "a"), (0, "c"), (1, "h")], visited=["d"])
    state = table.darts(game, state, "b", "w1", "d")
    state = table.move(game, state, "a", "b")
    assert sorted(state["turn"]["locked"].values()) == ["bonus", "new"]
    assert table.own(state, 0, "b") == 2
    with pytest.raises(RulesError) as err:
        table.move(game, state, "b", "w1")
    assert err.value.rule == "no-movable-magnet"
    state = table.move(game, state, "c", "d")
    # Nothing can use the dart in w1 any more: the turn goes on to the next player.
    assert state["turn"]["player"] == 1


def test_a_magnet_that_moved_to_a_known_country_or_water_moves_again(table):
    game, state = _start(table, [(0, "a"), (1, "h")], visited=["b"])
    state = table.darts(game, state, "b", "w1", "w2")
    state = table.move(game, state, "a", "b")
    state = table.move(game, state, "b", "w1")
    state = table.move(game, state, "w1", "w2")
    assert table.own(state, 0, "w2") == 1


def test_first_magnet_wins_the_new_country_a_second_goes_on(table):
    game, state = _start(table, [(0, "a"), (0, "a"), (1, "h")])
    state = table.darts(game, state, "b", "b", "w1")
    state = table.move(game, state, "a", "b")
    state = table.move(game, state, "a", "b")
    state = table.move(game, state, "b", "w1")
    assert table.own(state, 0, "b") == 2 and table.own(state, 0, "w1") == 1


def test_with_an_empty_supply_no_magnet_is_won_and_the_country_stays_new(table):
    game, state = _start(table, [(0, "a"), (1, "h")], supply={0: 0})
    state = table.darts(game, state, "b", "w1", stop=True)
    state = table.move(game, state, "a", "b")
    assert table.own(state, 0, "b") == 1 and "b" not in state["visited"]
    state = table.move(game, state, "b", "w1")  # it won nothing, so it may go on
    assert table.own(state, 0, "w1") == 1


def test_leaving_a_country_changes_nothing(table):
    game, state = _start(table, [(0, "b"), (1, "h")], visited=["b"])
    state = table.darts(game, state, "w1", stop=True)
    state = table.move(game, state, "b", "w1")
    assert state["visited"]["b"] == 0
    assert table.own(state, 0, "b") == 0


def test_at_most_four_own_magnets_on_the_homeland(table):
    game, state = _start(table, [(0, "a")] * 4 + [(0, "c"), (1, "h")], visited=["b"])
    state = table.darts(game, state, "a", "b", stop=True)
    with pytest.raises(RulesError) as err:
        table.move(game, state, "c", "a")
    assert err.value.rule == "homeland-limit"
    assert not any(m.get("to") == "a" for m in game.legal_actions(state) if m["type"] == "move")


def test_a_dart_that_fell_off_a_magnet_is_thrown_again_not_one_that_hit_a_dart(table):
    game, state = _start(table, [(0, "a"), (1, "h")])
    state = game.apply(state, {"type": "bounceout", "player": 0, "cause": "magnet"})
    assert state["turn"]["thrown"] == 0
    state = game.apply(state, {"type": "bounceout", "player": 0, "cause": "dart"})
    assert state["turn"]["thrown"] == 1 and state["turn"]["hits"] == []


def test_a_bounce_out_without_cause_asks_why(table):
    game, state = _start(table, [(0, "a"), (1, "h")])
    state = game.apply(state, {"type": "bounceout", "player": 0})
    prompt = game.prompt(state)
    assert prompt.kind == "bounce_cause" and prompt.player == 0
    state = game.apply(state, {"type": "bounce_cause", "player": 0, "cause": "magnet"})
    assert state["turn"]["thrown"] == 0
    assert game.prompt(state).kind == "dart"


def test_only_darts_still_stuck_count(table):
    game, state = _start(table, [(0, "a"), (1, "h")])
    state = table.darts(game, state, "b", "c")
    state = game.apply(state, {"type": "dart_fell", "player": 0, "dart": 0})
    assert state["turn"]["hits"] == ["c"]
    state = table.darts(game, state, "d")
    assert game.prompt(state).data["hits"] == {"c": 1, "d": 1}


def test_a_line_hit_is_the_throwers_choice(table):
    game, state = _start(table, [(0, "a"), (1, "h")])
    line = {"type": "dart", "player": 0, "zone": "b", "candidates": ["b", "c"], "on_line": True}
    state = game.apply(state, line)
    assert game.prompt(state).kind == "choose_zone"
    with pytest.raises(RulesError) as err:
        game.apply(state, {"type": "choose_zone", "player": 0, "zone": "d"})
    assert err.value.rule == "line-hit"
    state = game.apply(state, {"type": "choose_zone", "player": 0, "zone": "c"})
    assert state["turn"]["hits"] == ["c"]


def test_a_dart_in_the_target_or_off_the_map_moves_nothing(table):
    game, state = _start(table, [(0, "a"), (1, "h")])
    state = game.apply(state, dart_in_zone(0, "target"))
    state = game.apply(state, {"type": "dart", "player": 0, "zone": None, "candidates": []})
    assert state["turn"]["hits"] == [] and state["turn"]["thrown"] == 2


def test_a_fallen_dart_cannot_be_struck_off_once_moves_began(table):
    game, state = _start(table, [(0, "a"), (0, "d"), (1, "h")], visited=["b", "c"])
    state = table.darts(game, state, "b", "c", stop=True)
    state = table.move(game, state, "a", "b")
    with pytest.raises(RulesError) as err:
        game.apply(state, {"type": "dart_fell", "player": 0, "dart": 1})
    assert err.value.rule == "dart-fell"


def test_a_player_without_magnets_still_takes_his_turns(table):
    game = table.game()
    state = table.state(game, HOMES, [(1, "h"), (1, "e")], player=1)
    state = table.darts(game, state, "f", stop=True)
    state = table.end_moves(game, state)
    prompt = game.prompt(state)
    assert prompt.kind == "dart" and prompt.player == 0
    state = table.darts(game, state, "b", "c", "d")  # nothing to move: the turn passes
    assert state["turn"]["player"] == 1
