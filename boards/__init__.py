"""Boards as data: zones in millimetres, adjacency, lookup with line hits, printing.

``load("dartwars")`` gives a built-in board; ``load("my_map.json")`` a user's board file.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from boards.fileformat import BoardFileError, board_from_json, board_to_json, load_file, save_file
from boards.model import Board, Link, Location, Marker, Ring, Target, Zone
from oche.errors import UserError

DATA_DIR = Path(__file__).parent / "data"
BUILTIN: tuple[str, ...] = ("dartwars", "groundround", "classic")


def builtin_path(name: str) -> Path:
    return DATA_DIR / f"{name}.json"


@lru_cache(maxsize=32)
def _load_cached(key: str) -> Board:
    if key in BUILTIN:
        return load_file(builtin_path(key))
    path = Path(key)
    if path.suffix.lower() == ".json" or path.exists():
        return load_file(path)
    raise UserError(
        f"unknown board {key!r}: use one of {', '.join(BUILTIN)} "
        "or the path of a board file (.json)"
    )


def load(name_or_path: str | Path) -> Board:
    """A built-in board by id, or a board file by path (validated, cached)."""
    key = str(name_or_path)
    if key not in BUILTIN:
        path = Path(key)
        if path.exists():
            key = str(path.resolve())
    return _load_cached(key)


__all__ = [
    "BUILTIN",
    "Board",
    "BoardFileError",
    "Link",
    "Location",
    "Marker",
    "Ring",
    "Target",
    "Zone",
    "board_from_json",
    "board_to_json",
    "builtin_path",
    "load",
    "load_file",
    "save_file",
]
