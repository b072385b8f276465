"""GAME RULES / Attacks: forced attacks, last stronghold, multi-troop attacks and combats."""

from __future__ import annotations

import pytest

from rules.base import RulesError

HOMES = ("a", "h", "f")  # P0, P1, P2 (P2 only where a third player is needed)


def test_a_dart_in_an_enemy_zone_forces_an_attack(table):
    game = table.game()
    state = table.state(game, HOMES[:2], [(0, "b"), (0, "a"), (1, "c"), (1, "h")])
    state = table.darts(game, state, "c", stop=True)
    prompt = game.prompt(state)
    assert prompt.data["owed_attacks"] == ["c"]
    assert {"type": "end_moves", "player": 0} not in prompt.options
    with pytest.raises(RulesError) as err:
        table.end_moves(game, state)
    assert err.value.rule == "forced-attack"
    state = table.move(game, state, "b", "c")
    assert state["turn"]["stage"] == "combat"
    assert game.prompt(state).kind == "who_throws_first"


def test_no_attack_is_owed_when_no_magnet_can_reach(table):
    game = table.game()
    state = table.state(game, HOMES[:2], [(0, "a"), (0, "d"), (1, "e"), (1, "h")])
    state = table.darts(game, state, "e", stop=True)
    assert state["turn"]["player"] == 1  # nothing to do: the turn passed


def test_last_stronghold_need_not_leave_the_homeland(table):
    game = table.game()
    state = table.state(game, HOMES[:2], [(0, "a"), (1, "b"), (1, "h")])
    state = table.darts(game, state, "b", stop=True)
    assert game.prompt(state).data["owed_attacks"] == []
    state = table.end_moves(game, state)
    assert state["turn"]["player"] == 1 and table.own(state, 0, "a") == 1


def test_with_two_magnets_at_home_the_attack_is_owed(table):
    game = table.game()
    state = table.state(game, HOMES[:2], [(0, "a"), (0, "a"), (1, "b"), (1, "h")])
    state = table.darts(game, state, "b", stop=True)
    with pytest.raises(RulesError) as err:
        table.end_moves(game, state)
    assert err.value.rule == "forced-attack"


def test_the_last_stronghold_may_still_attack_if_it_wants(table):
    game = table.game()
    state = table.state(game, HOMES[:2], [(0, "a"), (1, "b"), (1, "h")])
    state = table.darts(game, state, "b", stop=True)
    state = table.move(game, state, "a", "b")
    assert state["turn"]["stage"] == "combat"


def test_magnets_sharing_a_zone_fight_again_only_after_a_new_dart_there(table):
    game = table.game()
    state = table.state(game, HOMES[:2], [(0, "c"), (1, "c"), (1, "h")])
    state = table.darts(game, state, "d", stop=True)
    state = table.end_moves(game, state)
    assert table.own(state, 0, "c") == 1 and table.own(state, 1, "c") == 1
    state = table.darts(game, state, None, None, None)  # P1's turn
    state = table.darts(game, state, "c", stop=True)
    with pytest.raises(RulesError):
        table.end_moves(game, state)
    state = table.move(game, state, "c", "c")
    assert state["turn"]["attacks"] == [] and state["turn"]["combat"]["zone"] == "c"


def test_one_magnet_may_choose_between_two_possible_attacks(table):
    game = table.game()
    state = table.state(game, HOMES[:2], [(0, "a"), (0, "b"), (1, "c"), (1, "w1"), (1, "h")])
    state = table.darts(game, state, "c", "w1", stop=True)
    assert set(game.prompt(state).data["owed_attacks"]) == {"c", "w1"}
    state = table.move(game, state, "b", "w1")
    # b's only magnet attacked; only the last stronghold in a still borders c: nothing owed.
    assert game.prompt(state).data["owed_attacks"] == []
    state = table.end_moves(game, state)
    assert state["turn"]["combat"]["zone"] == "w1"


def test_an_attacking_magnet_cannot_move_again(table):
    game = table.game()
    magnets = [(0, "a"), (0, "d"), (0, "w5"), (1, "c"), (1, "h")]
    state = table.state(game, HOMES[:2], magnets, visited=["g"])
    state = table.darts(game, state, "c", "g", stop=True)
    state = table.move(game, state, "d", "c")
    with pytest.raises(RulesError) as err:
        table.move(game, state, "c", "g")
    assert err.value.rule == "no-movable-magnet"


def _two_invaders(table, defenders):
    game = table.game()
    magnets = [(0, "a"), (0, "a"), (0, "d"), (1, "h")] + [(1, "c")] * defenders
    state = table.state(game, HOMES[:2], magnets, visited=["g"])
    state = table.darts(game, state, "c", "c", "g")
    return game, table.move(game, state, "a", "c")


def test_two_invaders_against_one_defender_one_may_move_on(table):
    game, state = _two_invaders(table, defenders=1)
    state = table.move(game, state, "d", "c", attack=False)
    state = table.move(game, state, "c", "g")
    assert table.own(state, 0, "g") == 1
    assert len(state["turn"]["attacks"]) + (state["turn"]["combat"] is not None) == 1


def test_two_invaders_against_one_defender_may_attack_together(table):
    game, state = _two_invaders(table, defenders=1)
    state = table.move(game, state, "d", "c", attack=True)
    # The dart in g is left: no free magnet borders it, so the combats begin.
    assert game.prompt(state).kind == "order_attacks"
    state = game.apply(state, {"type": "next_attack", "player": 0, "attack": 0})
    state = table.fight(game, state, 0, 0.9, 0.1)  # the defender wins the first combat
    # The beaten attacker turned blue; the second attacker fights on.
    assert table.own(state, 1, "c") == 2 and table.own(state, 0, "c") == 1
    assert state["turn"]["combat"]["zone"] == "c"
    state = table.fight(game, state, 0, 0.1, 0.9)
    assert table.own(state, 1, "c") == 1 and table.own(state, 0, "c") == 2
    assert state["turn"]["player"] == 1


def test_two_invaders_against_two_defenders_must_both_fight_one_each(table):
    game, state = _two_invaders(table, defenders=2)
    with pytest.raises(RulesError) as err:
        table.move(game, state, "d", "c", attack=False)
    assert err.value.rule == "must-fight-each"
    state = table.move(game, state, "d", "c")
    state = game.apply(state, {"type": "next_attack", "player": 0, "attack": 0})
    first_defender = state["turn"]["combat"]["defender"]
    state = table.fight(game, state, 1, 0.1, 0.5)  # P1 throws first and wins
    assert state["turn"]["combat"]["defender"] != first_defender


def test_one_attacker_against_several_defenders_leaves_mixed_colours(table):
    game = table.game()
    state = table.state(game, HOMES[:2], [(0, "a"), (0, "b"), (1, "c"), (1, "c"), (1, "h")])
    state = table.darts(game, state, "c", stop=True)
    state = table.move(game, state, "b", "c")
    state = table.fight(game, state, 0, 0.1, 0.5)
    assert table.own(state, 0, "c") == 2 and table.own(state, 1, "c") == 1
    assert state["turn"]["player"] == 1


def test_the_attacker_orders_his_attacks(table):
    game = table.game()
    magnets = [(0, "a"), (0, "b"), (0, "d"), (1, "c"), (1, "e"), (1, "h")]
    state = table.state(game, HOMES[:2], magnets)
    state = table.darts(game, state, "c", "e", stop=True)
    state = table.move(game, state, "d", "c")
    state = table.move(game, state, "b", "e")
    prompt = game.prompt(state)
    assert prompt.kind == "order_attacks" and len(prompt.options) == 2
    zones = [zone for _m, zone in state["turn"]["attacks"]]
    state = game.apply(state, {"type": "next_attack", "player": 0, "attack": zones.index("e")})
    assert state["turn"]["combat"]["zone"] == "e"


def test_the_attacker_chooses_who_throws_first(table):
    game = table.game()
    state = table.state(game, HOMES[:2], [(0, "a"), (0, "b"), (1, "c"), (1, "h")])
    state = table.darts(game, state, "c", stop=True)
    state = table.move(game, state, "b", "c")
    prompt = game.prompt(state)
    assert prompt.player == 0
    assert {o["thrower"] for o in prompt.options} == {0, 1}
    state = game.apply(state, {"type": "first_thrower", "player": 0, "thrower": 1})
    assert game.prompt(state).kind == "combat_throw" and game.prompt(state).player == 1


@pytest.mark.parametrize(
    ("attacker_at", "defender_at", "attacker_wins"),
    [(0.1, 0.5, True), (0.7, 0.2, False), (0.99, None, True), (None, 0.9, False)],
)
def test_the_dart_closest_to_the_centre_wins(table, attacker_at, defender_at, attacker_wins):
    game = table.game()
    state = table.state(game, HOMES[:2], [(0, "a"), (0, "b"), (1, "c"), (1, "h")])
    state = table.darts(game, state, "c", stop=True)
    state = table.move(game, state, "b", "c")
    state = table.fight(game, state, 0, attacker_at, defender_at)
    winner = 0 if attacker_wins else 1
    assert [o for o, z in state["magnets"].values() if z == "c"] == [winner, winner]


@pytest.mark.parametrize(("a", "b"), [(None, None), (1.2, 2.0), (0.4, 0.4)])
def test_both_off_the_target_or_a_tie_throw_again(table, a, b):
    game = table.game()
    state = table.state(game, HOMES[:2], [(0, "a"), (0, "b"), (1, "c"), (1, "h")])
    state = table.darts(game, state, "c", stop=True)
    state = table.move(game, state, "b", "c")
    state = table.fight(game, state, 0, a, b)
    assert game.prompt(state).kind == "combat_throw"
    assert state["turn"]["combat"]["throws"] == []
    assert game.prompt(state).player == 0


def test_outside_homelands_the_loser_changes_colour(table):
    game = table.game()
    state = table.state(game, HOMES[:2], [(0, "a"), (0, "b"), (1, "c"), (1, "h")])
    state = table.darts(game, state, "c", stop=True)
    state = table.move(game, state, "b", "c")
    supplies = list(state["supply"])
    state = table.fight(game, state, 0, 0.1, 0.5)
    assert table.own(state, 0, "c") == 2 and table.own(state, 1, "c") == 0
    assert state["supply"] == [supplies[0] - 1, supplies[1] + 1]


def test_without_return_the_surrendered_magnet_leaves_the_game(table):
    game = table.game(lost_magnets_return=False)
    state = table.state(game, HOMES[:2], [(0, "a"), (0, "b"), (1, "c"), (1, "h")])
    state = table.darts(game, state, "c", stop=True)
    state = table.move(game, state, "b", "c")
    supply = state["supply"][1]
    state = table.fight(game, state, 0, 0.1, 0.5)
    assert state["removed"][1] == 1 and state["supply"][1] == supply


def test_with_the_winners_supply_empty_the_loser_is_only_removed(table):
    game = table.game()
    state = table.state(game, HOMES[:2], [(0, "a"), (0, "b"), (1, "c"), (1, "h")], supply={0: 0})
    state = table.darts(game, state, "c", stop=True)
    state = table.move(game, state, "b", "c")
    state = table.fight(game, state, 0, 0.1, 0.5)
    assert table.own(state, 0, "c") == 1 and table.own(state, 1, "c") == 0
    assert state["events"][0]["result"] == "removed_no_supply"


def test_in_the_defenders_homeland_the_loser_is_removed(table):
    game = table.game()
    magnets = [(0, "a"), (0, "f"), (1, "h"), (1, "h")]
    state = table.state(game, HOMES[:2], magnets)
    state = table.darts(game, state, "h", stop=True)
    state = table.move(game, state, "f", "h")
    state = table.fight(game, state, 0, 0.1, 0.5)
    assert table.own(state, 0, "h") == 1 and table.own(state, 1, "h") == 1
    assert state["supply"][0] == 13  # no colour change in a homeland


def test_in_the_attackers_homeland_the_loser_is_removed(table):
    game = table.game()
    state = table.state(game, HOMES[:2], [(0, "a"), (0, "a"), (1, "a"), (1, "h")])
    state = table.darts(game, state, "a", stop=True)
    state = table.move(game, state, "a", "a")
    state = table.fight(game, state, 0, 0.5, 0.1)
    assert table.own(state, 0, "a") == 1 and table.own(state, 1, "a") == 1


def test_the_attacker_chooses_which_colour_he_attacks(table):
    game = table.game()
    magnets = [(0, "a"), (0, "b"), (1, "c"), (2, "c"), (1, "h"), (2, "f")]
    state = table.state(game, HOMES, magnets)
    state = table.darts(game, state, "c", stop=True)
    state = table.move(game, state, "b", "c")
    prompt = game.prompt(state)
    assert prompt.kind == "choose_target" and prompt.player == 0
    assert {o["camp"] for o in prompt.options} == {1, 2}
    state = game.apply(state, {"type": "choose_target", "player": 0, "camp": 2})
    assert state["turn"]["combat"]["defender_player"] == 2


def test_walking_the_only_possible_attacker_away_is_refused(table):
    game = table.game()
    magnets = [(0, "a"), (0, "a"), (0, "b"), (1, "c"), (1, "h")]
    state = table.state(game, HOMES[:2], magnets, visited=["w1"])
    state = table.darts(game, state, "c", "w1", stop=True)
    # b's magnet could attack c, but a's two magnets can too: b may walk away.
    state = table.move(game, state, "b", "w1")
    assert game.prompt(state).data["owed_attacks"] == ["c"]
    magnets = [(0, "a"), (0, "b"), (1, "c"), (1, "h")]
    state = table.state(game, HOMES[:2], magnets)
    state = table.darts(game, state, "c", "w1", "e", stop=False)
    for dest in ("w1", "e"):  # water, or a new country that would lock it: both dodge
        with pytest.raises(RulesError) as err:
            table.move(game, state, "b", dest)
        assert err.value.rule == "forced-attack"
    assert {m["to"] for m in game.legal_actions(state) if m["type"] == "move"} == {"c"}
