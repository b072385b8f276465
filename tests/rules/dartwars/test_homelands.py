"""Loss of a homeland, masters and slaves, and Ending the game."""

from __future__ import annotations

import pytest

from rules.base import RulesError
from rules.dartwars.state import top_master

HOMES = ("a", "h", "f", "d")


def test_beating_every_home_troop_conquers_the_homeland_and_wins_a_two_player_game(table):
    game = table.game()
    state = table.state(game, HOMES[:2], [(0, "a"), (0, "f"), (1, "h"), (1, "b")])
    state = table.darts(game, state, "h", stop=True)
    state = table.move(game, state, "f", "h")
    state = table.fight(game, state, 0, 0.1, 0.6)
    assert state["master"] == [None, 0]
    assert state["phase"] == "over"
    outcome = game.outcome(state)
    assert outcome.winners == (0,) and outcome.reason == "last-homeland"
    assert game.prompt(state).kind == "over" and game.prompt(state).player is None
    assert list(game.legal_actions(state)) == []
    with pytest.raises(RulesError) as err:
        game.apply(state, {"type": "stop", "player": 1})
    assert err.value.rule == "game-over"


def test_going_into_an_empty_homeland_conquers_it(table):
    game = table.game()
    magnets = [(0, "a"), (0, "i"), (1, "e"), (2, "f"), (2, "w1")]
    state = table.state(game, HOMES[:3], magnets)
    state = table.darts(game, state, "h", stop=True)
    supply = state["supply"][0]
    state = table.move(game, state, "i", "h")
    assert state["master"] == [None, 0, None]
    assert state["phase"] == "play"
    # A homeland was "visited" from the start: no extra magnet for going there.
    assert state["supply"][0] == supply and table.own(state, 0, "h") == 1
    assert any(e["event"] == "conquest" for e in state["events"])


def test_a_conquered_player_without_troops_is_pardoned_one_magnet(table):
    game = table.game()
    state = table.state(game, HOMES[:3], [(0, "a"), (0, "i"), (2, "f"), (2, "w1")])
    state = table.darts(game, state, "h", stop=True)
    state = table.move(game, state, "i", "h")
    assert table.own(state, 1, "h") == 1
    assert state["events"][-1]["pardoned"] is True


def test_no_pardon_with_the_option_off(table):
    game = table.game(pardon=False)
    state = table.state(game, HOMES[:3], [(0, "a"), (0, "i"), (2, "f")])
    state = table.darts(game, state, "h", stop=True)
    state = table.move(game, state, "i", "h")
    assert table.own(state, 1, "h") == 0 and state["master"][1] == 0


def test_master_and_slave_share_a_zone_without_fighting(table):
    game = table.game()
    magnets = [(0, "a"), (0, "b"), (1, "c"), (2, "f"), (2, "w7")]
    state = table.state(game, HOMES[:3], magnets, masters={1: 0}, visited=["c"])
    state = table.darts(game, state, "c", stop=True)
    assert game.prompt(state).data["owed_attacks"] == []
    with pytest.raises(RulesError) as err:
        table.move(game, state, "b", "c", attack=True)
    assert err.value.rule == "attack-needs-enemy"
    state = table.move(game, state, "b", "c")
    assert table.own(state, 0, "c") == 1 and table.own(state, 1, "c") == 1
    assert state["turn"]["attacks"] == []


def test_the_master_decides_who_defends_a_shared_zone(table):
    game = table.game()
    magnets = [(0, "a"), (0, "c"), (1, "c"), (2, "f"), (2, "g")]
    state = table.state(game, HOMES[:3], magnets, masters={1: 0}, player=2)
    state = table.darts(game, state, "c", stop=True)
    state = table.move(game, state, "g", "c")
    prompt = game.prompt(state)
    assert prompt.kind == "choose_defender" and prompt.player == 0
    assert {o["defender"] for o in prompt.options} == {0, 1}
    with pytest.raises(RulesError) as err:
        game.apply(state, {"type": "choose_defender", "player": 2, "defender": 1})
    assert err.value.rule == "not-your-turn"
    state = game.apply(state, {"type": "choose_defender", "player": 0, "defender": 1})
    assert state["turn"]["combat"]["defender_player"] == 1
    state = game.apply(state, {"type": "first_thrower", "player": 2, "thrower": 1})
    assert game.prompt(state).player == 1  # the slave throws for his own magnet


def test_a_slaves_slave_joins_the_new_masters_camp(table):
    game = table.game()
    magnets = [(0, "a"), (0, "i"), (1, "h"), (2, "e"), (3, "d"), (3, "c")]
    state = table.state(game, HOMES, magnets, masters={2: 1})
    # P0 conquers P1's homeland: P1 and his slave P2 both end up in P0's camp.
    state = _conquer(table, game, state, "i", "h")
    assert state["master"][1] == 0 and state["master"][2] == 1
    assert top_master(state, 2) == 0
    assert state["phase"] == "play"  # P3 is still free


def _conquer(table, game, state, origin, home):
    """Bring a magnet from ``origin`` into ``home`` this turn and win the fight there."""
    player = state["turn"]["player"]
    state = table.darts(game, state, home, stop=True)
    state = table.move(game, state, origin, home)
    while state["phase"] == "play" and state["turn"]["player"] == player:
        state = table.fight(game, state, player, 0.1, 0.8)
    return state


def test_when_a_master_falls_he_and_his_slaves_serve_the_new_master(table):
    game = table.game()
    magnets = [(0, "a"), (0, "w6"), (1, "c"), (2, "f"), (1, "h")]
    state = table.state(game, HOMES[:3], magnets, masters={1: 2}, player=0)
    # P0 (free) takes P2's homeland f: P2 and P2's slave P1 now serve P0: P0 wins.
    state = _conquer(table, game, state, "w6", "f")
    assert state["master"] == [None, 2, 0]
    assert game.outcome(state).winners == (0,)


def test_a_slave_never_frees_himself(table):
    game = table.game()
    magnets = [(0, "a"), (0, "h"), (1, "i"), (2, "f"), (2, "e")]
    state = table.state(game, HOMES[:3], magnets, masters={1: 0}, player=1)
    # The slave walks back into his homeland held by his master: no fight, still a slave.
    state = table.darts(game, state, "h", stop=True)
    assert game.prompt(state).data["owed_attacks"] == []
    state = table.move(game, state, "i", "h")
    assert state["master"][1] == 0
    assert all(e["event"] != "conquest" for e in state["events"])


def test_another_player_taking_a_slaves_homeland_becomes_his_master(table):
    game = table.game()
    magnets = [(0, "a"), (0, "d"), (0, "h"), (1, "b"), (2, "f"), (2, "i")]
    state = table.state(game, HOMES[:3], magnets, masters={1: 0}, player=2)
    state = table.darts(game, state, "h", stop=True)
    state = table.move(game, state, "i", "h")
    state = table.fight(game, state, 2, 0.1, 0.7)
    assert state["master"][1] == 2
    assert state["phase"] == "play"  # P0 and P2 are still free


def test_a_defender_who_wins_in_the_attackers_last_home_spot_conquers_it(table):
    game = table.game()
    magnets = [(0, "a"), (1, "a"), (1, "h"), (2, "f"), (2, "w7")]
    state = table.state(game, HOMES[:3], magnets)
    state = table.darts(game, state, "a", stop=True)
    state = table.move(game, state, "a", "a")
    state = table.fight(game, state, 0, 0.9, 0.1)
    assert state["master"][0] == 1
    assert table.own(state, 0, "a") == 1  # pardoned


def test_a_homeland_left_with_an_enemy_inside_falls_at_his_next_turn(table):
    game = table.game()
    magnets = [(0, "a"), (0, "h"), (1, "h"), (2, "f"), (2, "w7")]
    state = table.state(game, HOMES[:3], magnets, player=1)
    state = table.darts(game, state, "i", stop=True)
    state = table.move(game, state, "h", "i")  # P1 walks out, leaving P0's magnet inside
    assert state["master"][1] is None
    assert state["turn"]["player"] == 2
    state = table.darts(game, state, None, None, None)  # P2's turn ends: P0's turn begins
    assert state["turn"]["player"] == 0
    assert state["master"][1] == 0


def test_the_lone_player_with_every_troop_at_home_surrenders(table):
    game = table.game()
    magnets = [(0, "a"), (0, "b"), (1, "c"), (2, "f"), (2, "f")]
    state = table.state(game, HOMES[:3], magnets, masters={1: 0}, player=1)
    state = table.darts(game, state, None, None, None)
    assert state["phase"] == "over"
    assert state["master"][2] == 0
    assert game.outcome(state).winners == (0,) and game.outcome(state).reason == "surrender"


def test_no_surrender_while_he_has_troops_outside_or_with_the_option_off(table):
    magnets = [(0, "a"), (0, "b"), (1, "c"), (2, "f"), (2, "e")]
    game = table.game()
    state = table.state(game, HOMES[:3], magnets, masters={1: 0}, player=1)
    state = table.darts(game, state, None, None, None)
    assert state["phase"] == "play"
    game = table.game(surrender_rule=False)
    magnets[-1] = (2, "f")
    state = table.state(game, HOMES[:3], magnets, masters={1: 0}, player=1)
    state = table.darts(game, state, None, None, None)
    assert state["phase"] == "play"


def test_two_players_each_alone_at_home_do_not_surrender(table):
    game = table.game()
    state = table.state(game, HOMES[:2], [(0, "a"), (1, "h")])
    state = table.darts(game, state, None, None, None)
    assert state["phase"] == "play"


def test_a_slave_keeps_playing_with_his_magnets(table):
    game = table.game()
    magnets = [(0, "a"), (1, "b"), (2, "f"), (2, "w7")]
    state = table.state(game, HOMES[:3], magnets, masters={1: 0}, player=1, visited=["c"])
    state = table.darts(game, state, "c", stop=True)
    state = table.move(game, state, "b", "c")
    assert table.own(state, 1, "c") == 1
