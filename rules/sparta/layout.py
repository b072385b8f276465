"""The starting position: board size, pieces and cities, with the default and a text diagram.

The rulebook shows its setup only in a picture, so the squares are ours (see
docs/rules/sparta.md): each player's 8 warriors stand in a row on their own back rank
(files b-i), and the 8 cities stand in the two middle ranks, each player owning the 4 on the
rank nearer to them (files b, d, g, i). Heroes start beside the board, 8 per player.

A layout is the value of the ``layout`` option:
``{"size": 10, "warriors": [[...], [...]], "heroes": [[...], [...]], "cities": [[...], [...]]}``
where each inner list holds player 0's or player 1's squares (``[r, c]`` or ``"c3"``).

Diagrams (tests, docs, debugging) show one token per square, row 0 (the top) first:
``.`` empty, ``W``/``H`` a warrior/hero of player 0, ``w``/``h`` one of player 1; a digit
after the letter (or alone) marks a city and its owner: ``0`` an empty city of player 0,
``W1`` a warrior of player 0 standing on a city of player 1.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.base import RulesError
from rules.sparta.board import (
    EMPTY,
    LETTERS,
    MAX_SIZE,
    MIN_SIZE,
    PIECES,
    as_list,
    key,
    parse_square,
)
from rules.sparta.captures import trapped_squares

PLAYERS = (0, 1)
GROUPS = ("warriors", "heroes", "cities")


def default_layout() -> dict[str, Any]:
    files = (1, 3, 6, 8)
    return {
        "size": 10,
        "warriors": [[[9, c] for c in range(1, 9)], [[0, c] for c in range(1, 9)]],
        "heroes": [[], []],
        "cities": [[[5, c] for c in files], [[4, c] for c in files]],
    }


def normalise_layout(layout: Mapping[str, Any] | None) -> dict[str, Any]:
    """Check a layout option and return it with every square as an index.

    Refuses squares off the board, two pieces (or two cities) on one square, a board with no
    empty square, and pieces that already stand trapped (the first move would capture them,
    which no setup intends).
    """
    if layout is None:
        layout = default_layout()
    if not isinstance(layout, Mapping):
        raise RulesError("options.layout", "layout must be an object with size/warriors/cities")
    unknown = set(layout) - {"size", *GROUPS}
    if unknown:
        raise RulesError(
            "options.layout",
            f"layout has unknown field(s) {', '.join(sorted(unknown))}; "
            "known: size, warriors, heroes, cities",
        )
    size = layout.get("size", 10)
    if not isinstance(size, int) or isinstance(size, bool) or not MIN_SIZE <= size <= MAX_SIZE:
        raise RulesError(
            "options.layout", f"layout.size must be a whole number {MIN_SIZE}-{MAX_SIZE}"
        )
    result: dict[str, Any] = {"size": size}
    for group in GROUPS:
        value = layout.get(group, [[], []])
        if not isinstance(value, list | tuple) or len(value) != 2:
            raise RulesError(
                "options.layout",
                f"layout.{group} must be two lists of squares, player 0's then player 1's",
            )
        result[group] = []
        for player in PLAYERS:
            squares = value[player]
            if not isinstance(squares, list | tuple):
                raise RulesError(
                    "options.layout", f"layout.{group}[{player}] must be a list of squares"
                )
            try:
                indices = [parse_square(s, size, f"layout.{group}") for s in squares]
            except RulesError as exc:
                raise RulesError("options.layout", exc.message) from None
            result[group].append(indices)
    _refuse_doubles(result, size, "warriors", "heroes")
    _refuse_doubles(result, size, "cities")
    if len(board_of(result).replace(EMPTY, "")) == size * size:
        # Nobody could ever move; the game would pass back and forth for ever.
        raise RulesError("options.layout", "the layout fills every square: leave one empty")
    trapped = trapped_squares(board_of(result), size)
    if trapped:
        raise RulesError(
            "options.layout",
            f"the layout has trapped pieces on {[as_list(i, size) for i in trapped]}; "
            "move them so that no run of pieces is shut in by the other side",
        )
    return result


def _refuse_doubles(layout: Mapping[str, Any], size: int, *groups: str) -> None:
    seen: set[int] = set()
    for group in groups:
        for squares in layout[group]:
            for square in squares:
                if square in seen:
                    raise RulesError(
                        "options.layout",
                        f"square {as_list(square, size)} is used twice in the layout "
                        f"({' and '.join(groups)})",
                    )
                seen.add(square)


def board_of(layout: Mapping[str, Any]) -> str:
    """The pieces of a normalised layout as one string of letters (rows joined)."""
    size = layout["size"]
    cells = [EMPTY] * (size * size)
    for group, kind in (("warriors", "warrior"), ("heroes", "hero")):
        for player in PLAYERS:
            for square in layout[group][player]:
                cells[square] = LETTERS[(player, kind)]
    return "".join(cells)


def cities_of(layout: Mapping[str, Any]) -> dict[str, int]:
    """The cities of a normalised layout as the state keeps them: ``"r,c"`` -> owner."""
    size = layout["size"]
    return {key(square, size): p for p in PLAYERS for square in layout["cities"][p]}


def rows_of(board: str, size: int) -> list[str]:
    return [board[row * size : (row + 1) * size] for row in range(size)]


def layout_from_diagram(text: str) -> dict[str, Any]:
    """Turn a diagram (see the module doc) into a ``layout`` option value."""
    rows = [line.split() for line in text.strip().splitlines() if line.strip()]
    size = len(rows)
    layout: dict[str, Any] = {"size": size, **{g: [[], []] for g in GROUPS}}
    for row, tokens in enumerate(rows):
        if len(tokens) != size:
            raise RulesError(
                "diagram",
                f"diagram row {row} has {len(tokens)} squares; a {size}-row board needs {size}",
            )
        for col, token in enumerate(tokens):
            letter, city = token[0], token[1:]
            if letter.isdigit():
                letter, city = EMPTY, token
            if (letter != EMPTY and letter not in PIECES) or city not in ("", "0", "1"):
                raise RulesError(
                    "diagram",
                    f"unknown token {token!r} at row {row}, column {col}: "
                    "use . W H w h, optionally followed by a city owner 0 or 1",
                )
            if letter in PIECES:
                player, kind = PIECES[letter]
                layout["warriors" if kind == "warrior" else "heroes"][player].append([row, col])
            if city:
                layout["cities"][int(city)].append([row, col])
    return layout


def diagram(board: str, cities: Mapping[str, int], size: int) -> str:
    """The position as a diagram, the inverse of ``layout_from_diagram``."""
    lines = []
    for row in range(size):
        tokens = []
        for col in range(size):
            index = row * size + col
            letter = board[index]
            city = str(cities[key(index, size)]) if key(index, size) in cities else ""
            token = city if letter == EMPTY and city else letter + city
            tokens.append(token.ljust(2))
        lines.append(" ".join(tokens).rstrip())
    return "\n".join(lines)
