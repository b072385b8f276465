"""Custodian captures: which pieces are shut in between enemy pieces.

A *run* is an unbroken line of one player's pieces along a row, a column or a diagonal. The
run is trapped when the squares just beyond both of its ends hold pieces of the other player.
The whole board is judged at once, after the move and its city effect, so every trapped run
on every line goes, whoever owns it (the moving piece included), before anything is removed.

Two implementations that must agree: ``trapped_squares`` scans the whole board (the
invariant check uses it: no trapped piece may ever stay on the board), ``trapped_after_move``
looks only along the four lines through the square a piece just stopped on. That is enough
because the board had no trapped piece before the move, leaving a square cannot shut anyone
in, and a promotion or a conquest changes no piece's side: every new trap lies on a line
through the destination. On such a line take the unbroken stretch of pieces around the
destination; its runs alternate sides, so every run but the first and the last is trapped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from rules.sparta.board import EMPTY, OWNER, line_rays

#: letter -> the player it belongs to, -1 for an empty square.
SIDE = {EMPTY: -1, **OWNER}

_PIECE = re.compile("[^.]")


def trapped_squares(board: str, size: int) -> list[int]:
    """Indices of every trapped piece on ``board`` (rows joined), in board order."""
    rays = line_rays(size)
    trapped: set[int] = set()
    for found in _PIECE.finditer(board):
        start = found.start()
        owner = SIDE[board[start]]
        enemy = 1 - owner
        for line, (behind, ahead) in enumerate(rays[start]):
            # Only the first piece of a run starts the walk: the square behind it is an enemy.
            if behind < 0 or SIDE[board[behind]] != enemy:
                continue
            run = [start]
            while ahead >= 0 and SIDE[board[ahead]] == owner:
                run.append(ahead)
                ahead = rays[ahead][line][1]
            if ahead >= 0 and SIDE[board[ahead]] == enemy:
                trapped.update(run)
    return sorted(trapped)


def trapped_after_move(board: str, size: int, dest: int) -> list[int]:
    """Indices of the pieces trapped by a piece stopping on ``dest``, in board order."""
    rays = line_rays(size)
    trapped: set[int] = set()
    for line in range(4):
        first = dest
        while (behind := rays[first][line][0]) >= 0 and board[behind] != EMPTY:
            first = behind
        stretch = [first]
        while (ahead := rays[stretch[-1]][line][1]) >= 0 and board[ahead] != EMPTY:
            stretch.append(ahead)
        if len(stretch) < 3:
            continue
        sides = [SIDE[board[i]] for i in stretch]
        # Drop the first and the last run; what lies between is shut in on both sides.
        start = 1
        while start < len(stretch) and sides[start] == sides[0]:
            start += 1
        end = len(stretch) - 2
        while end >= 0 and sides[end] == sides[-1]:
            end -= 1
        trapped.update(stretch[start : end + 1])
    return sorted(trapped)


#: A run of one side's letters with the other side's letters right at both of its ends.
_TRAP = re.compile("[wh][WH]+[wh]|[WH][wh]+[WH]")
#: Per mover: an enemy run with the mover's piece at one end and an empty square at the other.
_OPEN_RUN = (
    (re.compile(r"[WH][wh]+\."), re.compile(r"\.[wh]+[WH]")),
    (re.compile(r"[wh][WH]+\."), re.compile(r"\.[WH]+[wh]")),
)


def _lines(padded: Sequence[Any], size: int) -> list[Sequence[Any]]:
    """Rows, columns and both diagonals of a board padded with one separator per row.

    Each row has a separator appended, which makes it one cell wider; in the padded board
    stepping by width, width+1 and width-1 walks columns and both diagonals, and a walk that
    falls off a row lands on a separator, which breaks the line as the edge does.
    """
    width = size + 1
    lines = [padded]
    for step in (width, width + 1, width - 1):
        lines.extend(padded[start::step] for start in range(step))
    return lines


def lines_text(board: str, size: int) -> str:
    """Every line of the board as one string, lines separated by ``|``."""
    padded = "|".join([board[i : i + size] for i in range(0, size * size, size)]) + "|"
    return "|".join(_lines(padded, size))


@lru_cache(maxsize=32)
def line_squares(size: int) -> tuple[int, ...]:
    """For each character of ``lines_text``: the board index it shows, or -1 for a ``|``."""
    padded: list[int] = []
    for row in range(size):
        padded.extend(range(row * size, (row + 1) * size))
        padded.append(-1)
    joined: list[int] = []
    for line in _lines(padded, size):
        joined.extend(line)
        joined.append(-1)
    return tuple(joined[:-1])


def any_trapped(board: str, size: int) -> bool:
    """Whether any piece stands trapped: a string-based check the invariants use."""
    return _TRAP.search(lines_text(board, size)) is not None


def capture_squares(board: str, size: int, player: int) -> set[int]:
    """Empty squares where a piece of ``player`` would shut in at least one enemy piece
    (against one of the player's pieces already standing; a rough guide for random play)."""
    text = lines_text(board, size)
    where = line_squares(size)
    own_left, own_right = _OPEN_RUN[player]
    found = {where[m.end() - 1] for m in own_left.finditer(text)}
    found.update(where[m.start()] for m in own_right.finditer(text))
    return found
