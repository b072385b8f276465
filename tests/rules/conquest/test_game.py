"""The game around the moves: set-up, who starts, turns, both ways to win, players who
cannot move, the quiet-move draw, options, errors, text round trips and random games."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import action_from_text, action_to_text, get_game
from rules.base import ActionFormatError, RulesError
from rules.conquest import Conquest
from rules.conquest.board import key_square, square_name
from rules.conquest.dice import faces, tumble_along
from rules.selfplay import check_state, play_one, selfplay

GAME = Conquest({"first_player": 0})


def rule_of(game, state, action) -> str:
    with pytest.raises(RulesError) as caught:
        game.apply(state, action)
    return caught.value.rule


# --- set-up ---------------------------------------------------------------------------------
def test_standard_home_rows_with_fours_inwards_and_threes_outwards() -> None:
    state = GAME.new_state(["Ann", "Bob"])
    for player, row in ((0, 0), (1, 7)):
        dice = sorted((d for d in state["dice"] if d["owner"] == player), key=lambda d: d["at"])
        assert [d["at"][1] for d in dice] == [row] * 9
        assert ["K" if d["key"] else d["top"] for d in dice] == [5, 1, 2, 6, "K", 6, 2, 1, 5]
        inward, outward = ("north", "south") if player == 0 else ("south", "north")
        for die in dice:
            if not die["key"]:
                all_faces = faces(die["top"], die["front"])
                assert all_faces[inward] == 4 and all_faces[outward] == 3
    assert GAME.check_invariants(state) == []


def test_each_key_starts_on_its_own_key_square() -> None:
    state = GAME.new_state(["Ann", "Bob"])
    keys = {d["owner"]: tuple(d["at"]) for d in state["dice"] if d["key"]}
    assert keys == {0: key_square(0), 1: key_square(1)}
    assert [square_name(key_square(p)) for p in (0, 1)] == ["e1", "e8"]


def test_the_older_home_row_is_an_option() -> None:
    state = Conquest({"start_row": "older"}).new_state(["Ann", "Bob"])
    row = sorted((d for d in state["dice"] if d["owner"] == 0), key=lambda d: d["at"])
    assert ["K" if d["key"] else d["top"] for d in row] == [5, 1, 6, 2, "K", 2, 6, 1, 5]


def test_the_table_enters_who_starts_by_default() -> None:
    game = Conquest()
    state = game.new_state(["Ann", "Bob"])
    prompt = game.prompt(state)
    assert (prompt.kind, prompt.player) == ("choose_first", None)
    assert list(prompt.options) == [
        {"type": "first", "starter": 0},
        {"type": "first", "starter": 1},
    ]
    assert rule_of(game, state, {"type": "move", "player": 0, "path": [[4, 0], [4, 1]]}) == (
        "first-player"
    )
    after = game.apply(state, {"type": "first", "starter": 1})
    assert (after["to_move"], game.prompt(after).player) == (1, 1)
    assert rule_of(game, after, {"type": "first", "starter": 0}) == "first-player"


def test_players_alternate_moving_one_die_each() -> None:
    state = GAME.new_state(["Ann", "Bob"])
    prompt = GAME.prompt(state)
    assert (prompt.kind, prompt.player) == ("move", 0)
    assert len(prompt.data["movable"]) == 9
    state = GAME.apply(state, {"type": "move", "player": 0, "path": [[4, 0], [4, 1]]})
    assert state["to_move"] == 1 and state["turn_number"] == 1
    assert rule_of(GAME, state, {"type": "move", "player": 0, "path": [[4, 1], [4, 2]]}) == (
        "turn-order"
    )


# --- winning ------------------------------------------------------------------------------
def test_capturing_the_enemy_key_wins(position, mv) -> None:
    state = position(GAME, [(0, "a1", None, None), (1, "c5", None, None), (0, "c3", 2, 1)])
    after = GAME.apply(state, mv(0, "c3 c4 c5"))
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == (0,) and outcome.reason == "key-captured"
    assert GAME.prompt(after).kind == "game_over" and GAME.prompt(after).player is None
    assert "Ann wins" in GAME.prompt(after).text
    assert list(GAME.legal_actions(after)) == []
    assert rule_of(GAME, after, mv(0, "a1 a2")) == "game-over"
    assert check_state(GAME, after) == []


def test_a_key_may_take_the_enemy_key(position, mv) -> None:
    state = position(GAME, [(0, "d4", None, None), (1, "d5", None, None)], to_move=1)
    after = GAME.apply(state, mv(1, "d5 d4"))
    assert GAME.outcome(after).winners == (1,)


def test_own_key_onto_the_enemy_key_square_wins(position, mv) -> None:
    state = position(GAME, [(0, "e7", None, None), (1, "a5", None, None)])
    after = GAME.apply(state, mv(0, "e7 e8"))
    assert GAME.outcome(after).winners == (0,)
    assert GAME.outcome(after).reason == "key-square"


def test_key_square_win_also_when_an_enemy_die_stood_there(position, mv) -> None:
    # Player 1's key next to player 0's key square e1, where an ordinary die of player 0 waits.
    state = position(GAME, [(1, "e2", None, None), (0, "a5", None, None), (0, "e1", 3, 1)], 1)
    after = GAME.apply(state, mv(1, "e2 e1"))
    assert GAME.outcome(after).winners == (1,)
    assert after["captured"][-1]["owner"] == 0


def test_an_ordinary_die_on_the_enemy_key_square_does_not_win(position, mv) -> None:
    state = position(GAME, [(0, "a1", None, None), (1, "a8", None, None), (0, "e6", 2, 1)])
    after = GAME.apply(state, mv(0, "e6 e7 e8"))
    assert GAME.outcome(after) is None and after["to_move"] == 1


def test_own_key_square_is_no_goal(position, mv) -> None:
    state = position(GAME, [(0, "e2", None, None), (1, "a8", None, None)])
    assert GAME.outcome(GAME.apply(state, mv(0, "e2 e1"))) is None


# --- a player who cannot move ---------------------------------------------------------------
# Player 1: key in the corner i8 behind two 2s on h8 and i7; player 0's dice on g8, h7 and
# i6 stand in the way of every two-square path, and the key cannot step onto its own dice.
BLOCKED = [
    (1, "i8", None, None),
    (1, "h8", 2, 1),
    (1, "i7", 2, 1),
    (0, "a1", None, None),
    (0, "g8", 5, 1),
    (0, "h7", 6, 2),
    (0, "i6", 5, 1),
]


def test_a_player_without_a_legal_move_passes_by_default(position, mv) -> None:
    state = position(GAME, BLOCKED)
    state = GAME.apply(state, mv(0, "a1 a2"))
    prompt = GAME.prompt(state)
    assert (prompt.kind, prompt.player) == ("pass", 1)
    assert list(GAME.legal_actions(state)) == [{"type": "pass", "player": 1}]
    state = GAME.apply(state, {"type": "pass", "player": 1})
    assert state["to_move"] == 0 and GAME.outcome(state) is None
    assert rule_of(GAME, state, {"type": "pass", "player": 0}) == "no-pass"


def test_passes_in_a_row_from_both_players_draw(position) -> None:
    # Player 1 cannot move; the pass counter says player 0 passed just before.
    state = position(GAME, BLOCKED, to_move=1, passes=1)
    after = GAME.apply(state, {"type": "pass", "player": 1})
    assert GAME.outcome(after).draw and GAME.outcome(after).reason == "both-blocked"


def test_option_no_legal_move_loses(position, mv) -> None:
    game = Conquest({"no_move": "lose"})
    state = game.apply(position(game, BLOCKED), mv(0, "a1 a2"))
    outcome = game.outcome(state)
    assert outcome.winners == (0,) and outcome.reason == "no-legal-move"


# --- the quiet-move draw ----------------------------------------------------------------------
def test_draw_after_the_quiet_move_limit(position, mv) -> None:
    game = Conquest({"quiet_move_limit": 3})
    state = position(game, [(0, "a1", None, None), (1, "i8", None, None), (0, "c3", 2, 1)])
    state = game.apply(state, mv(0, "a1 a2"))
    state = game.apply(state, mv(1, "i8 i7"))
    assert game.outcome(state) is None and state["quiet_moves"] == 2
    state = game.apply(state, mv(0, "a2 a3"))
    assert game.outcome(state).draw and game.outcome(state).reason == "quiet-move-limit"


def test_a_capture_resets_the_quiet_count(position, mv) -> None:
    game = Conquest({"quiet_move_limit": 3})
    dice = [(0, "a1", None, None), (1, "i8", None, None), (0, "c3", 2, 1), (1, "c5", 1, 2)]
    state = position(game, dice, quiet_moves=2)
    state = game.apply(state, mv(0, "c3 c4 c5"))
    assert state["quiet_moves"] == 0 and game.outcome(state) is None


def test_the_quiet_limit_can_be_switched_off() -> None:
    game = Conquest({"quiet_move_limit": None, "first_player": 0})
    state = game.new_state(["A", "B"]) | {"quiet_moves": 10_000}
    state = game.apply(state, {"type": "move", "player": 0, "path": [[4, 0], [4, 1]]})
    assert game.outcome(state) is None


# --- options and errors ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "word"),
    [
        ({"start_row": "newest"}, "start_row"),
        ({"handedness": "both"}, "handedness"),
        ({"first_player": 2}, "first_player"),
        ({"first_player": True}, "first_player"),
        ({"backward_moves": "yes"}, "backward_moves"),
        ({"no_move": "draw"}, "no_move"),
        ({"quiet_move_limit": 0}, "quiet_move_limit"),
        ({"colour": "red"}, "no option colour"),
    ],
)
def test_bad_options_are_named(options, word) -> None:
    with pytest.raises(RulesError, match=word):
        Conquest(options)


def test_exactly_two_players() -> None:
    with pytest.raises(RulesError, match="exactly 2"):
        GAME.new_state(["A", "B", "C"])


@pytest.mark.parametrize(
    ("action", "field"),
    [
        ({"type": "move", "player": 0}, "path"),
        ({"type": "move", "path": [[4, 0], [4, 1]]}, "player"),
        ({"type": "move", "player": "0", "path": [[4, 0], [4, 1]]}, "player"),
        ({"type": "move", "player": 0, "path": [[4, 0]]}, "path"),
        ({"type": "move", "player": 0, "path": [[4, 0], [4]]}, "path[1]"),
        ({"type": "move", "player": 0, "path": [[4, 0], [4, True]]}, "path[1]"),
        ({"type": "move", "player": 0, "path": "e1 e2"}, "path"),
        ({"type": "jump", "player": 0}, "type"),
        ({"player": 0}, "type"),
    ],
)
def test_malformed_actions_name_the_field(action, field) -> None:
    state = GAME.new_state(["Ann", "Bob"])
    with pytest.raises(ActionFormatError) as caught:
        GAME.apply(state, action)
    assert caught.value.field == field
    assert not GAME.is_legal(state, action)


def test_a_refused_action_leaves_the_state_alone(position, mv) -> None:
    state = position(GAME, [(0, "a1", None, None), (1, "i8", None, None), (0, "c3", 2, 1)])
    before = json.dumps(state, sort_keys=True)
    for bad in (mv(0, "c3 c4"), mv(0, "c3 d4 e5"), mv(1, "i8 i7"), {"type": "pass", "player": 0}):
        assert not GAME.is_legal(state, bad)
        with pytest.raises(RulesError):
            GAME.apply(state, bad)
    assert json.dumps(state, sort_keys=True) == before


def test_registry_and_text_round_trip() -> None:
    game = get_game("conquest", options={"first_player": 0})
    state = game.new_state(["Ann", "Bob"])
    action = next(game.legal_actions(state))
    text = action_to_text(action)
    assert text.startswith('{"path":[[') and action_from_text(text) == action
    assert game.is_legal(state, action_from_text(text))


def test_log_lines_say_what_happened(position, mv) -> None:
    state = position(
        GAME, [(0, "a1", None, None), (1, "i8", None, None), (0, "c3", 2, 1), (1, "d4", 6, 2)]
    )
    line = GAME.describe_action(state, mv(0, "c3 c4 d4"))
    # Right-handed, 2 up and 1 south: 3 faces west (see test_moves). North: (1 up, 5 south),
    # 3 still west; the east tumble brings it up.
    assert line == "Ann tumbles the 2 from c3 N1 E1 to d4 (3 up), taking Bob's 6"
    assert GAME.describe_action(state, mv(0, "a1 b1")) == "Ann tumbles the key from a1 E1 to b1"
    assert (
        GAME.describe_action(state, {"type": "pass", "player": 1}) == "Bob cannot move and passes"
    )


def test_invariants_catch_a_broken_state(position) -> None:
    state = position(GAME, [(0, "a1", None, None), (1, "i8", None, None), (0, "c3", 2, 1)])
    assert GAME.check_invariants(state) == []
    broken = json.loads(json.dumps(state))
    broken["dice"][2]["top"] = 5  # 5 and 2 are opposite faces: never up and south at once
    broken["dice"][2]["front"] = 2
    assert any("impossible faces" in p for p in GAME.check_invariants(broken))
    broken = json.loads(json.dumps(state))
    broken["dice"][2]["at"] = [0, 0]
    assert any("share a1" in p for p in GAME.check_invariants(broken))
    broken = json.loads(json.dumps(state))
    broken["dice"].pop(1)
    assert any("keys on board" in p for p in GAME.check_invariants(broken))


# --- random games ---------------------------------------------------------------------------
@given(st.integers(0, 2**32 - 1))
def test_random_games_keep_every_invariant(seed) -> None:
    rng = random.Random(seed)
    game, players = Conquest.random_setup(rng)
    state, actions, violations = play_one(game, players, rng)
    assert violations == []
    assert game.outcome(state) is not None and actions > 0


@given(st.integers(0, 2**32 - 1), st.integers(0, 60))
def test_legal_actions_destinations_and_is_legal_agree(seed, plies) -> None:
    rng = random.Random(seed)
    game, players = Conquest.random_setup(rng)
    state = game.new_state(players)
    for _ in range(plies):
        if game.outcome(state) is not None:
            break
        state = game.apply(state, game.random_action(state, rng))
    legal = list(game.legal_actions(state))
    assert all(game.is_legal(state, a) for a in legal)
    if state["phase"] == "play":
        offered = [
            e["action"]
            for d in state["dice"]
            if d["owner"] == state["to_move"]
            for e in game.destinations(state, d["at"])
        ]
        moves = [a for a in legal if a["type"] == "move"]
        assert sorted(map(action_to_text, offered)) == sorted(map(action_to_text, moves))
        # A legal move cut one square short is refused (the distance is exact).
        for action in moves[:10]:
            shorter = action | {"path": action["path"][:-1]}
            if len(shorter["path"]) >= 2:
                assert not game.is_legal(state, shorter)


def test_selfplay_summary_is_clean() -> None:
    report = selfplay("conquest", 40, 7, Conquest.random_setup)
    assert report.violations == [] and report.finished == 40


def test_left_handed_dice_change_what_an_east_tumble_shows(position, mv, die_at) -> None:
    # 1 up, 2 south: a right-handed die has 4 west (3 east), a left-handed one 3 west; an
    # east tumble brings the west face up.
    dice = [(0, "a1", None, None), (1, "i8", None, None), (0, "c3", 1, 2)]
    for hand, top in (("right", 4), ("left", 3)):
        game = Conquest({"handedness": hand})
        after = game.apply(position(game, dice), mv(0, "c3 d3"))
        assert die_at(after, "d3")["top"] == top
        assert game.die_faces(die_at(after, "d3"))["top"] == top


def test_die_faces_give_all_six_sides_for_drawing() -> None:
    state = GAME.new_state(["Ann", "Bob"])
    first = state["dice"][0]  # player 0's 5 on a1: 4 inwards (north), 3 towards Ann (south)
    assert GAME.die_faces(first) == {
        "top": 5,
        "bottom": 2,
        "north": 4,
        "south": 3,
        "east": 6,  # see the hand-worked (5, 3) case in test_dice
        "west": 1,
    }
    key = next(d for d in state["dice"] if d["key"])
    assert GAME.die_faces(key) is None


def test_the_prompt_lists_only_dice_that_can_move(position) -> None:
    # Player 1's corner dice (BLOCKED) cannot move; a fourth die of theirs on b5 can.
    state = position(GAME, [*BLOCKED, (1, "b5", 1, 2)], to_move=1)
    prompt = GAME.prompt(state)
    assert prompt.kind == "move" and prompt.player == 1
    assert [square_name(s) for s in prompt.data["movable"]] == ["b5"]
    assert prompt.accepts == ("move",) and prompt.data["key_squares"] == [[4, 0], [4, 7]]


def _random_position(seed: int, plies: int):
    rng = random.Random(seed)
    game, players = Conquest.random_setup(rng)
    state = game.new_state(players)
    for _ in range(plies):
        if game.outcome(state) is not None:
            break
        state = game.apply(state, game.random_action(state, rng))
    return game, state, rng


@given(st.integers(0, 2**32 - 1), st.integers(0, 80))
def test_every_generated_move_obeys_the_movement_rules(seed, plies) -> None:
    # The rules restated independently of the engine's path search.
    game, state, _ = _random_position(seed, plies)
    if state["phase"] != "play":
        return
    occupied = {tuple(d["at"]): d for d in state["dice"]}
    for action in game.legal_actions(state):
        if action["type"] != "move":
            continue
        path = [tuple(s) for s in action["path"]]
        die = occupied[path[0]]
        assert die["owner"] == state["to_move"]
        assert len(path) - 1 == (1 if die["key"] else die["top"])
        steps = [(b[0] - a[0], b[1] - a[1]) for a, b in itertools.pairwise(path)]
        assert all(abs(dx) + abs(dy) == 1 for dx, dy in steps)  # orthogonal, one square
        assert sum(1 for a, b in itertools.pairwise(steps) if a != b) <= 1
        assert len(set(path)) == len(path)
        assert all(0 <= c < 9 and 0 <= r < 8 for c, r in path)
        assert not any(s in occupied for s in path[1:-1])  # nothing jumped
        last = occupied.get(path[-1])
        assert last is None or last["owner"] != die["owner"]


@given(st.integers(0, 2**32 - 1), st.integers(0, 80))
def test_tumbling_a_move_back_restores_the_faces(seed, plies) -> None:
    game, state, rng = _random_position(seed, plies)
    if state["phase"] != "play" or not game.has_legal_move(state):
        return
    action = game.random_action(state, rng)
    before = next(d for d in state["dice"] if d["at"] == action["path"][0])
    after_state = game.apply(state, action)
    after = next(d for d in after_state["dice"] if d["at"] == action["path"][-1])
    back = {(0, 1): "S", (0, -1): "N", (1, 0): "W", (-1, 0): "E"}
    reverse = [back[(b[0] - a[0], b[1] - a[1])] for a, b in itertools.pairwise(action["path"])][
        ::-1
    ]
    if before["key"]:
        assert after["top"] is None
    else:
        restored = tumble_along(after["top"], after["front"], reverse, game.handedness)
        assert restored == (before["top"], before["front"])
