"""Where a piece can go: king steps over empty squares, changing direction at will.

A warrior takes up to 2 steps and a hero up to 3, each step to one of the 8 neighbouring
squares. Every square entered must be empty (an empty city counts as empty, whoever owns it);
the starting square is empty once the piece has left it, but the move may not end there.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import pairwise
from random import Random

from rules.base import RulesError
from rules.sparta.board import EMPTY, PIECES, as_list, neighbours

#: Steps a piece of each kind may take in one move.
REACH: dict[str, int] = {"warrior": 2, "hero": 3}
#: The same, by piece letter.
REACH_OF: dict[str, int] = {letter: REACH[kind] for letter, (_, kind) in PIECES.items()}


def _search(
    board: str, size: int, origin: int, steps: int, parent: dict[int, int]
) -> Iterator[int]:
    """Breadth-first search from ``origin`` (``parent`` holds it, mapped to -1) over empty
    squares: yields each square as it is reached and records in ``parent`` the square
    before it."""
    table = neighbours(size)
    frontier = [origin]
    for _ in range(steps):
        following = []
        for square in frontier:
            for nxt in table[square]:
                if board[nxt] == EMPTY and nxt not in parent:
                    parent[nxt] = square
                    following.append(nxt)
                    yield nxt
        if not following:
            return
        frontier = following


def _parents(board: str, size: int, origin: int, steps: int) -> dict[int, int]:
    """The whole search: each reached square -> the square before it."""
    parent: dict[int, int] = {origin: -1}
    for _square in _search(board, size, origin, steps, parent):
        pass
    return parent


def _path(parent: dict[int, int], dest: int) -> list[int]:
    path = [dest]
    back = parent[dest]
    while back >= 0:
        path.append(back)
        back = parent[back]
    path.reverse()
    return path


def reachable(board: str, size: int, origin: int, steps: int) -> dict[int, list[int]]:
    """Every square the piece on ``origin`` can end on -> one shortest path (origin first).

    Breadth-first, so destinations come nearest first and each path is as short as possible.
    """
    parent = _parents(board, size, origin, steps)
    return {square: _path(parent, square) for square in parent if square != origin}


def paths_to(
    board: str, size: int, origin: int, steps: int, targets: Iterable[int]
) -> dict[int, list[int]]:
    """Like ``reachable``, but only for the squares in ``targets``."""
    parent = _parents(board, size, origin, steps)
    return {t: _path(parent, t) for t in targets if t in parent and t != origin}


def iter_paths(board: str, size: int, origin: int, steps: int) -> Iterator[list[int]]:
    """The paths of ``reachable``, found lazily: the first costs one look at the neighbours."""
    parent: dict[int, int] = {origin: -1}
    for square in _search(board, size, origin, steps, parent):
        yield _path(parent, square)


def random_path(board: str, size: int, origin: int, steps: int, rng: Random) -> list[int] | None:
    """One destination of the piece on ``origin`` chosen uniformly, with its path; or None."""
    parent = _parents(board, size, origin, steps)
    if len(parent) == 1:
        return None
    dests = list(parent)[1:]
    return _path(parent, rng.choice(dests))


def can_move(board: str, size: int, origin: int) -> bool:
    """True when the piece on ``origin`` has at least one empty neighbour to step to."""
    return any(board[nxt] == EMPTY for nxt in neighbours(size)[origin])


def check_path(board: str, size: int, path: Sequence[int]) -> None:
    """Raise ``RulesError`` unless ``path`` (origin first) is a legal walk for its piece."""
    origin = path[0]
    if len(path) < 2:
        raise RulesError("move.length", "a move goes at least one square: give two squares or more")
    letter = board[origin]
    if len(path) - 1 > REACH_OF[letter]:
        raise RulesError(
            "move.length",
            f"a {PIECES[letter][1]} moves at most {REACH_OF[letter]} squares, "
            f"this path has {len(path) - 1} steps",
        )
    table = neighbours(size)
    for here, there in pairwise(path):
        if there not in table[here]:
            raise RulesError(
                "move.step",
                "each step goes to a neighbouring square (row, column or diagonal); "
                f"{as_list(here, size)} to {as_list(there, size)} is not one step",
            )
        if there != origin and board[there] != EMPTY:
            raise RulesError(
                "move.blocked",
                f"square {as_list(there, size)} is occupied: "
                "pieces move only over and onto empty squares",
            )
    if path[-1] == origin:
        raise RulesError("move.same-square", "a move may not end on the square it started from")
