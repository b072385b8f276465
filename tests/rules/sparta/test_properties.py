"""Property tests over random positions and random legal games."""

from __future__ import annotations

import json
import random
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.base import RulesError
from rules.selfplay import play_one
from rules.sparta import Sparta
from rules.sparta.board import STEPS
from rules.sparta.captures import (
    any_trapped,
    capture_squares,
    line_squares,
    lines_text,
    trapped_after_move,
    trapped_squares,
)

seeds = st.integers(min_value=0, max_value=2**32)


@st.composite
def boards(draw, min_size=3, max_size=8):
    size = draw(st.integers(min_size, max_size))
    cells = draw(st.lists(st.sampled_from("...WHwh"), min_size=size * size, max_size=size * size))
    return size, "".join(cells)


def mirrored(board: str, size: int) -> str:
    """Left-right mirror image."""
    return "".join(board[r * size : (r + 1) * size][::-1] for r in range(size))


def transposed(board: str, size: int) -> str:
    return "".join(board[c * size + r] for r in range(size) for c in range(size))


@given(boards())
def test_the_two_whole_board_trap_finders_agree(case):
    size, board = case
    everywhere = trapped_squares(board, size)
    assert any_trapped(board, size) == bool(everywhere)


@given(boards())
def test_traps_do_not_depend_on_orientation(case):
    size, board = case
    found = set(trapped_squares(board, size))
    flip = {r * size + (size - 1 - c) for r, c in (divmod(i, size) for i in found)}
    assert set(trapped_squares(mirrored(board, size), size)) == flip
    turn = {c * size + r for r, c in (divmod(i, size) for i in found)}
    assert set(trapped_squares(transposed(board, size), size)) == turn


@given(boards(), st.integers(0, 63), st.sampled_from("WHwh"))
def test_looking_along_the_destination_lines_finds_every_new_trap(case, spot, letter):
    size, board = case
    # Start from a position without traps, as every position in a game is.
    cells = list(board)
    while (trapped := trapped_squares("".join(cells), size)) != []:
        for index in trapped:
            cells[index] = "."
    empty = [i for i, ch in enumerate(cells) if ch == "."]
    if not empty:
        return
    dest = empty[spot % len(empty)]
    cells[dest] = letter
    after = "".join(cells)
    assert trapped_after_move(after, size, dest) == trapped_squares(after, size)


@given(boards())
def test_the_line_text_shows_every_square_on_four_lines(case):
    size, board = case
    text, where = lines_text(board, size), line_squares(size)
    assert len(text) == len(where)
    for char, square in zip(text, where, strict=True):
        assert char == ("|" if square < 0 else board[square])
    counts = [0] * (size * size)
    for square in where:
        if square >= 0:
            counts[square] += 1
    assert counts == [4] * (size * size), "a row, a column and two diagonals each"


@given(boards(), st.sampled_from([0, 1]))
def test_capture_squares_are_exactly_the_empty_squares_that_capture(case, player):
    size, board = case
    cells = list(board)
    while (trapped := trapped_squares("".join(cells), size)) != []:
        for index in trapped:
            cells[index] = "."
    board = "".join(cells)
    letter = "W" if player == 0 else "w"
    expected = set()
    for square, char in enumerate(board):
        if char == ".":
            after = board[:square] + letter + board[square + 1 :]
            enemy = "wh" if player == 0 else "WH"
            if any(after[i] in enemy for i in trapped_after_move(after, size, square)):
                expected.add(square)
    assert capture_squares(board, size, player) == expected


@settings(max_examples=40)
@given(seeds)
def test_random_games_keep_every_invariant_and_finish(seed):
    rng = random.Random(seed)
    game, players = Sparta.random_setup(rng)
    state, actions, violations = play_one(game, players, rng)
    assert violations == []
    assert game.outcome(state) is not None
    assert state["turn_number"] == actions


def random_walk(rng: random.Random, state: dict, size: int) -> list[list[int]]:
    rows = state["board"]
    own = "WH" if state["to_move"] == 0 else "wh"
    starts = [[r, c] for r in range(size) for c in range(size) if rows[r][c] in own]
    path = [rng.choice(starts)]
    for _ in range(rng.randint(1, 4)):
        dr, dc = rng.choice(STEPS)
        path.append([path[-1][0] + dr, path[-1][1] + dc])
    return path


def oracle(state: dict, size: int, path: list[list[int]]) -> bool:
    """The movement rule written out plainly, to check the engine against."""
    rows = state["board"]
    start = path[0]
    reach = 2 if rows[start[0]][start[1]] in "Ww" else 3
    if not 1 <= len(path) - 1 <= reach or path[-1] == start:
        return False
    for (r1, c1), (r2, c2) in pairwise(path):
        if max(abs(r1 - r2), abs(c1 - c2)) != 1:
            return False
        if not (0 <= r2 < size and 0 <= c2 < size):
            return False
        if [r2, c2] != start and rows[r2][c2] != ".":
            return False
    return True


@settings(max_examples=40)
@given(seeds)
def test_any_walk_is_legal_exactly_when_the_movement_rule_allows_it(seed):
    rng = random.Random(seed)
    game = Sparta()
    state = game.new_state(["Ann", "Ben"])
    for _ in range(rng.randint(0, 60)):
        if game.outcome(state) is not None:
            break
        state = game.apply(state, game.random_action(state, rng))
    if game.outcome(state) is not None:
        return
    for _ in range(30):
        path = random_walk(rng, state, game.size)
        action = {"type": "move", "player": state["to_move"], "path": path}
        expected = oracle(state, game.size, path)
        assert game.is_legal(state, action) == expected, (path, game.render(state))
        if expected:
            ends = {tuple(d["to"]) for d in game.destinations(state, path[0])}
            assert tuple(path[-1]) in ends


@settings(max_examples=30)
@given(seeds)
def test_legal_actions_prompt_and_apply_agree_along_a_random_game(seed):
    rng = random.Random(seed)
    game, players = Sparta.random_setup(rng)
    state = game.new_state(players)
    for _ in range(40):
        if game.outcome(state) is not None:
            break
        actions = list(game.legal_actions(state))
        assert actions, "an unfinished game always has a legal action"
        assert all(game.is_legal(state, a) for a in actions)
        prompt = game.prompt(state)
        moves = {
            (origin, tuple(end))
            for origin, ends in prompt.data["destinations"].items()
            for end in ends
        }
        listed = {
            (f"{a['path'][0][0]},{a['path'][0][1]}", tuple(a["path"][-1]))
            for a in actions
            if a["type"] == "move"
        }
        assert moves == listed
        assert [a for a in actions if a["type"] != "move"] == list(prompt.options)
        action = rng.choice(actions)
        before = json.dumps(state, sort_keys=True)
        after = game.apply(state, action)
        assert json.dumps(state, sort_keys=True) == before, "apply is pure"
        assert after["turn_number"] == state["turn_number"] + 1
        pieces_before = sum(row.count(".") for row in state["board"])
        pieces_after = sum(row.count(".") for row in after["board"])
        assert pieces_after >= pieces_before, "pieces never come back to the board"
        state = after


@settings(max_examples=20)
@given(seeds)
def test_a_game_replays_exactly_from_its_action_log(seed):
    rng = random.Random(seed)
    game, players = Sparta.random_setup(rng)
    log = []

    state = game.new_state(players)
    while game.outcome(state) is None and len(log) < 300:
        action = game.random_action(state, rng)
        log.append(json.loads(json.dumps(action)))
        state = game.apply(state, action)
    replayed = game.new_state(players)
    for action in log:
        replayed = game.apply(replayed, action)
    assert replayed == state


@settings(max_examples=30)
@given(seeds, st.integers(0, 3))
def test_actions_of_the_wrong_player_or_after_the_end_are_refused(seed, extra):
    rng = random.Random(seed)
    game = Sparta()
    state = game.new_state(["Ann", "Ben"])
    for _ in range(extra * 10):
        state = game.apply(state, game.random_action(state, rng))
    action = dict(game.random_action(state, rng), player=1 - state["to_move"])
    try:
        game.apply(state, action)
    except RulesError as error:
        assert error.rule == "turn"
    else:
        raise AssertionError("a move by the player not on turn was accepted")
