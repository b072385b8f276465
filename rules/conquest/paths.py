"""The shapes a tumbling die may trace, and checking one traced path.

A move is a path of squares, its first square the die's start. It goes straight, or straight
and then straight again after one quarter turn to the left or right; every square but the
last must be empty (no jumping), the last may hold an enemy die (captured) but never one of
the mover's own. With at most one quarter turn a path can never come back to a square it has
already touched, but a typed path may try, so the check names that rule too.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from itertools import pairwise
from typing import Final

from rules.base import RulesError
from rules.conquest.board import COLUMNS, ROWS, Square, on_board, square_name
from rules.conquest.dice import PERPENDICULAR, STEPS

Path = tuple[Square, ...]


def _direction(a: Square, b: Square) -> str | None:
    for direction, (dc, dr) in STEPS.items():
        if (a[0] + dc, a[1] + dr) == b:
            return direction
    return None


def _rays() -> dict[tuple[Square, str], tuple[Square, ...]]:
    # For each square and direction, the squares from there to the board edge: the legal
    # path search then works on slices of these instead of stepping square by square.
    rays = {}
    for column in range(COLUMNS):
        for row in range(ROWS):
            for direction, (dc, dr) in STEPS.items():
                squares = []
                c, r = column + dc, row + dr
                while on_board(c, r):
                    squares.append((c, r))
                    c, r = c + dc, r + dr
                rays[(column, row), direction] = tuple(squares)
    return rays


_RAYS: Final = _rays()


def legal_paths(
    start: Square,
    distance: int,
    occupied: Mapping[Square, int],
    owner: int,
    directions: Collection[str],
) -> Iterator[tuple[Path, tuple[str, ...]]]:
    """Every legal path of exactly ``distance`` tumbles from ``start``, with its directions.

    ``occupied`` maps squares to the owner of the die on them; ``directions`` are the
    directions the die may tumble in (all four, or three when backward tumbles are off).
    Paths come in a fixed order: first direction N, E, S, W; for each, the turns after one
    square, then after two, ..., and the straight path last.
    """
    for first in STEPS:
        if first not in directions:
            continue
        ray = _RAYS[start, first]
        for done, corner in enumerate(ray[:distance], start=1):
            holder = occupied.get(corner)
            if done == distance:
                if holder != owner:
                    yield (start, *ray[:done]), (first,) * distance
                break
            if holder is not None:
                break  # a die in the way: no jumping over it, and no turning on it either
            rest = distance - done
            for second in PERPENDICULAR[first]:
                if second not in directions:
                    continue
                leg = _RAYS[corner, second][:rest]
                if len(leg) < rest or occupied.get(leg[-1]) == owner:
                    continue
                if any(square in occupied for square in leg[:-1]):
                    continue
                yield (start, *ray[:done], *leg), (first,) * done + (second,) * rest


def check_path(
    path: Sequence[Square],
    distance: int,
    occupied: Mapping[Square, int],
    owner: int,
    directions: Collection[str],
    distance_rule: str = "exact-distance",
) -> tuple[str, ...]:
    """The directions of a typed path, or a RulesError naming the first rule it breaks.

    Rules are checked in the order a referee would look at them: where the path goes
    (board edge, orthogonal steps, no square twice, one turn), how far (exact distance), which
    way (backward tumbles when they are off), then what is in the way and where it lands.
    """
    for square in path:
        if not on_board(*square):
            raise RulesError("board-edge", f"square {list(square)} is off the 9x8 board")
    steps: list[str] = []
    for a, b in pairwise(path):
        direction = _direction(a, b)
        if direction is None:
            raise RulesError(
                "orthogonal",
                f"a die tumbles one square at a time to a side neighbour; "
                f"{square_name(a)} to {square_name(b)} is not such a step",
            )
        steps.append(direction)
    if len(set(path)) != len(path):
        raise RulesError("no-revisit", "a die may not touch the same square twice in one move")
    turns = sum(1 for a, b in pairwise(steps) if a != b)
    if turns > 1:
        raise RulesError("one-turn", f"a move may turn left or right once at most ({turns} turns)")
    if len(steps) != distance:
        raise RulesError(
            distance_rule,
            f"this die must tumble exactly {distance} square{'s' * (distance != 1)}, "
            f"the path has {len(steps)}",
        )
    for direction in steps:
        if direction not in directions:
            raise RulesError(
                "no-backward", "backward tumbles are switched off (option backward_moves)"
            )
    for square in path[1:-1]:
        if square in occupied:
            raise RulesError(
                "no-jump", f"the die at {square_name(square)} is in the way: dice never jump"
            )
    if occupied.get(path[-1]) == owner:
        raise RulesError("no-own-capture", f"{square_name(path[-1])} holds one of your own dice")
    return tuple(steps)
