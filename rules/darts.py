"""Dart actions shared by the dart games (Dart Wars, Ground Round).

A dart reaches an engine the same way whether the camera saw it or a player typed it:

- ``{"type": "dart", "player": i, "zone": id|null, "candidates": [ids], "on_line": bool,
  "subzones": [ids], "x_mm": f|null, "y_mm": f|null, "sigma_mm": f}`` — a dart stuck in
  the board. ``zone``/``candidates``/``on_line``/``subzones`` are ``Board.locate``'s answer;
  the position is given when known (needed for throws at a combat target).
- ``{"type": "miss", "player": i}`` — a dart that stuck outside every zone (or was not
  thrown at all: the player passes the rest of the turn with ``stop``).
- ``{"type": "bounceout", "player": i, "cause": "magnet"|"dart"|"other"|null}`` — a dart that
  did not stick.
- ``{"type": "choose_zone", "player": i, "zone": id}`` — the thrower's choice after a line hit.

``dart_from_location`` builds a dart action from a ``Location``; ``read_dart`` validates one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from boards.model import Board, Location
from rules.base import Action, ActionFormatError, RulesError, require

DART_TYPES = ("dart", "miss", "bounceout")
BOUNCE_CAUSES = ("magnet", "dart", "other", None)


@dataclass(frozen=True)
class Dart:
    """A validated dart hit."""

    zone: str | None
    candidates: tuple[str, ...]
    on_line: bool
    subzones: tuple[str, ...]
    x_mm: float | None
    y_mm: float | None
    sigma_mm: float

    @property
    def needs_choice(self) -> bool:
        return self.on_line and len(self.candidates) >= 2

    @property
    def position(self) -> tuple[float, float] | None:
        if self.x_mm is None or self.y_mm is None:
            return None
        return (self.x_mm, self.y_mm)


def dart_from_location(
    player: int,
    location: Location,
    x_mm: float | None = None,
    y_mm: float | None = None,
    sigma_mm: float = 0.0,
) -> Action:
    """The dart action for a located hit."""
    return {
        "type": "dart",
        "player": player,
        "zone": location.zone,
        "candidates": list(location.candidates),
        "on_line": location.on_line,
        "subzones": list(location.subzones),
        "x_mm": None if x_mm is None else round(float(x_mm), 2),
        "y_mm": None if y_mm is None else round(float(y_mm), 2),
        "sigma_mm": round(float(sigma_mm), 2),
    }


def dart_at(board: Board, player: int, x_mm: float, y_mm: float, sigma_mm: float = 0.0) -> Action:
    """The dart action for a dart at a board position."""
    return dart_from_location(player, board.locate(x_mm, y_mm, sigma_mm), x_mm, y_mm, sigma_mm)


def dart_in_zone(player: int, zone_id: str) -> Action:
    """A dart typed on the tablet as "in this zone" (no position known)."""
    return {
        "type": "dart",
        "player": player,
        "zone": zone_id,
        "candidates": [zone_id],
        "on_line": False,
        "subzones": [],
        "x_mm": None,
        "y_mm": None,
        "sigma_mm": 0.0,
    }


def read_dart(action: Mapping[str, Any], board: Board) -> Dart:
    """Validate a ``dart`` action against the board; errors name the field."""
    zone = action.get("zone")
    if zone is not None and not isinstance(zone, str):
        raise ActionFormatError("zone", 'field "zone" must be a zone id or null')
    raw_candidates = action.get("candidates") or ([zone] if zone else [])
    raw_subzones = action.get("subzones") or []
    for name, value in (("candidates", raw_candidates), ("subzones", raw_subzones)):
        if not isinstance(value, list | tuple):
            raise ActionFormatError(name, f'field "{name}" must be a list of zone ids')
    candidates = tuple(raw_candidates)
    subzones = tuple(raw_subzones)
    for name, ids in (("candidates", candidates), ("subzones", subzones)):
        for zone_id in ids:
            if not isinstance(zone_id, str):
                raise ActionFormatError(name, f'field "{name}" must list zone ids')
            if zone_id not in board.zones:
                raise RulesError("unknown-zone", f"board {board.id!r} has no zone {zone_id!r}")
    if zone is not None and zone not in board.zones:
        raise RulesError("unknown-zone", f"board {board.id!r} has no zone {zone!r}")
    coords = []
    for name in ("x_mm", "y_mm"):
        value = action.get(name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
            raise ActionFormatError(name, f'field "{name}" must be a number or null')
        coords.append(None if value is None else float(value))
    sigma = action.get("sigma_mm", 0.0)
    if isinstance(sigma, bool) or not isinstance(sigma, int | float) or sigma < 0:
        raise ActionFormatError("sigma_mm", 'field "sigma_mm" must be a number >= 0')
    on_line = action.get("on_line", len(candidates) >= 2)
    if not isinstance(on_line, bool):
        raise ActionFormatError("on_line", 'field "on_line" must be true or false')
    return Dart(zone, candidates, on_line, subzones, coords[0], coords[1], float(sigma))


def read_bounce_cause(action: Mapping[str, Any]) -> str | None:
    cause = action.get("cause")
    if cause not in BOUNCE_CAUSES:
        raise ActionFormatError("cause", 'field "cause" must be "magnet", "dart", "other" or null')
    return cause


def read_player(action: Mapping[str, Any]) -> int:
    return require(action, "player", int)
