"""Squares of the square Sparta board, pieces as letters, and square names.

The state keeps the board as rows of letters, row 0 (the top) first: ``.`` an empty square,
``W``/``H`` a warrior/hero of player 0, ``w``/``h`` a warrior/hero of player 1 (cities are kept
apart, see the engine). Inside the engine a square is an *index* ``row * size + column`` into
the rows joined into one string; actions carry squares as ``[row, column]``; prompt data keys
squares as ``"row,column"``; people read algebraic names: file letters ``a``.. from the left,
rank numbers ``1``.. from the bottom, so on the 10x10 board ``a1`` is row 9, column 0.
Player 0 sits at the bottom (rank 1), player 1 at the top.

Neighbour and ray tables are built once per board size, so move generation never parses.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from rules.base import ActionFormatError

MIN_SIZE = 3
MAX_SIZE = 26
EMPTY = "."

#: piece letter -> (player, kind), and back.
PIECES: dict[str, tuple[int, str]] = {
    "W": (0, "warrior"),
    "H": (0, "hero"),
    "w": (1, "warrior"),
    "h": (1, "hero"),
}
LETTERS: dict[tuple[int, str], str] = {piece: letter for letter, piece in PIECES.items()}
OWNER: dict[str, int] = {letter: piece[0] for letter, piece in PIECES.items()}

#: The eight king steps: along rows, columns and both diagonals.
STEPS: tuple[tuple[int, int], ...] = (
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
)

#: One direction per line through a square (a line runs both ways).
LINE_DIRECTIONS: tuple[tuple[int, int], ...] = ((0, 1), (1, 0), (1, 1), (1, -1))

_ALGEBRAIC = re.compile(r"^([a-z])([1-9][0-9]?)$")


def as_list(index: int, size: int) -> list[int]:
    return [index // size, index % size]


def key(index: int, size: int) -> str:
    return f"{index // size},{index % size}"


def algebraic(index: int, size: int) -> str:
    """Index of row 9, column 0 -> ``"a1"`` on a 10x10 board."""
    return f"{chr(ord('a') + index % size)}{size - index // size}"


def parse_square(value: Any, size: int, field: str = "square") -> int:
    """A square given as ``[r, c]`` or an algebraic name -> its index; errors name ``field``."""
    if isinstance(value, str):
        match = _ALGEBRAIC.match(value.strip().lower())
        if not match:
            raise ActionFormatError(
                field, f"{value!r} is not a square name: use a file letter and a rank, e.g. 'c3'"
            )
        row, col = size - int(match.group(2)), ord(match.group(1)) - ord("a")
    elif (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        row, col = value
    else:
        raise ActionFormatError(
            field, f"a square is [row, column] or a name like 'c3', got {value!r}"
        )
    if not (0 <= row < size and 0 <= col < size):
        raise ActionFormatError(
            field, f"{value!r} is off the {size}x{size} board (rows and columns 0-{size - 1})"
        )
    return row * size + col


@lru_cache(maxsize=32)
def neighbours(size: int) -> tuple[tuple[int, ...], ...]:
    """Every square's king neighbours, by index."""
    return tuple(
        tuple(
            (row + dr) * size + col + dc
            for dr, dc in STEPS
            if 0 <= row + dr < size and 0 <= col + dc < size
        )
        for row in range(size)
        for col in range(size)
    )


@lru_cache(maxsize=32)
def line_rays(size: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per square, per line direction: (index one step back, index one step ahead), -1 off board."""

    def step(row: int, col: int, dr: int, dc: int) -> int:
        row, col = row + dr, col + dc
        return row * size + col if 0 <= row < size and 0 <= col < size else -1

    return tuple(
        tuple((step(row, col, -dr, -dc), step(row, col, dr, dc)) for dr, dc in LINE_DIRECTIONS)
        for row in range(size)
        for col in range(size)
    )
