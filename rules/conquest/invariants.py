"""What must hold in every Conquest state (self-play and the property tests check it)."""

from __future__ import annotations

from rules.base import State
from rules.conquest.board import Square, key_square, on_board, square_name
from rules.conquest.dice import is_orientation

DICE_PER_GAME = 18  # 8 ordinary dice and 1 key for each of the two players


def state_problems(state: State, quiet_move_limit: int | None) -> list[str]:
    """Descriptions of everything wrong with ``state`` (empty when it is sound)."""
    problems: list[str] = []
    seen: set[Square] = set()
    keys_on_board = [0, 0]
    for die in state["dice"]:
        where = (die["at"][0], die["at"][1])
        name = die["id"]
        if not on_board(*where):
            problems.append(f"die {name} is off the board at {die['at']}")
        if where in seen:
            problems.append(f"two dice share {square_name(where)}")
        seen.add(where)
        if die["key"]:
            keys_on_board[die["owner"]] += 1
            if die["top"] is not None or die["front"] is not None:
                problems.append(f"key {name} carries faces")
        elif not is_orientation(die["top"], die["front"]):
            problems.append(f"die {name} has impossible faces {die['top']}/{die['front']}")
    ids: set[str] = set()
    for die in state["dice"] + state["captured"]:
        if die["id"] in ids:
            problems.append(f"die id {die['id']} appears twice")
        ids.add(die["id"])
    if len(ids) != DICE_PER_GAME:
        problems.append(f"{len(ids)} dice on the board and captured, expected {DICE_PER_GAME}")
    for victim in state["captured"]:
        if victim["by"][0] == str(victim["owner"]):
            problems.append(f"die {victim['id']} was captured by its own side")
    over = state["phase"] == "over"
    if over != (state["result"] is not None):
        problems.append("phase and result disagree about the end of the game")
    if not over:
        if keys_on_board != [1, 1]:
            problems.append(f"keys on board {keys_on_board} while the game goes on")
        for die in state["dice"]:
            if die["key"] and tuple(die["at"]) == key_square(1 - die["owner"]):
                problems.append(f"key {die['id']} stands on the enemy key square unscored")
        if quiet_move_limit is not None and state["quiet_moves"] >= quiet_move_limit:
            problems.append("quiet move limit reached but the game goes on")
        if state["phase"] == "play" and state["to_move"] not in (0, 1):
            problems.append(f"to_move is {state['to_move']!r} during play")
    return problems
