"""The Conquest board: 9 columns by 8 rows, square names, and the two starting rows.

Squares are ``(column, row)`` with column 0..8 from west to east and row 0..7 from player 0's
edge (south) to player 1's edge (north). People read them like chess squares: columns a..i,
rows 1..8, so player 0's key starts on e1 and player 1's on e8.
"""

from __future__ import annotations

from typing import Final

COLUMNS: Final = 9
ROWS: Final = 8
KEY_COLUMN: Final = 4

Square = tuple[int, int]

#: Top faces of a home row from the owner's left to right; ``None`` marks the key die.
START_ROWS: Final[dict[str, tuple[int | None, ...]]] = {
    "standard": (5, 1, 2, 6, None, 6, 2, 1, 5),
    # An older printing lists 5 1 6 2 1 2 6 1 5: its middle die (shown with 1 up) is the key.
    "older": (5, 1, 6, 2, None, 2, 6, 1, 5),
}
#: The face turned towards the opponent at the start (the 4s face inwards, the 3s outwards).
INWARD_FACE: Final = 4


def on_board(column: int, row: int) -> bool:
    return 0 <= column < COLUMNS and 0 <= row < ROWS


def home_row(player: int) -> int:
    return 0 if player == 0 else ROWS - 1


def key_square(player: int) -> Square:
    """The square marked for ``player``'s key (where that key starts)."""
    return (KEY_COLUMN, home_row(player))


def square_name(square: Square | list[int]) -> str:
    column, row = square
    return f"{'abcdefghi'[column]}{row + 1}"


def parse_square(name: str) -> Square:
    """``"e4"`` -> ``(4, 3)``; raises ValueError naming the expected form."""
    text = name.strip().lower()
    if len(text) >= 2 and text[0] in "abcdefghi" and text[1:].isdigit():
        column, row = "abcdefghi".index(text[0]), int(text[1:]) - 1
        if on_board(column, row):
            return (column, row)
    raise ValueError(f"square {name!r} is not on the board (columns a-i, rows 1-8, like e4)")


def start_front(player: int) -> int:
    """The south face of ``player``'s dice at the start.

    Player 0 sits on the south edge, so the 4 faces north (inwards) and 3 faces south; player
    1 sits on the north edge, so the 4 itself faces south.
    """
    return 7 - INWARD_FACE if player == 0 else INWARD_FACE


def start_columns(player: int, layout: str) -> list[tuple[int, int | None]]:
    """(column, top face or None for the key) of ``player``'s home row.

    The row is read from the owner's left: player 1 faces south, so the owner's left is the
    east end. Both printed rows are symmetric, so this only matters for custom rows.
    """
    tops = START_ROWS[layout]
    columns = range(COLUMNS) if player == 0 else range(COLUMNS - 1, -1, -1)
    return list(zip(columns, tops, strict=True))
