"""What the Dart Wars rules need from a board, computed once per board.

The rules work on zone ids and plain dicts (fast, no geometry): which zones are territories
(land, island, water), who borders whom (printed borders, water squares orthogonally only,
plus the light-blue sea links), which zones may be homelands, and the combat target.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from boards.model import Board

#: Zone kinds a troop magnet can stand on.
TERRITORY_KINDS = frozenset({"land", "island", "water"})
#: Territories that count as countries (extra magnet on the first visit); water does not.
COUNTRY_KINDS = frozenset({"land", "island"})

FARTHEST = math.inf


@dataclass
class MapInfo:
    board_id: str
    kinds: dict[str, str]
    neighbours: dict[str, frozenset[str]]
    homelands: tuple[str, ...]
    islands: frozenset[str]
    white: frozenset[str]
    target_center: tuple[float, float] | None
    target_radius: float
    target_zone: str | None
    _distances: dict[str, dict[str, int]] = field(default_factory=dict, repr=False)

    def is_territory(self, zone: str) -> bool:
        return zone in self.neighbours

    def is_country(self, zone: str) -> bool:
        return self.kinds.get(zone) in COUNTRY_KINDS

    def eligible_homelands(self, islands_allowed: bool) -> tuple[str, ...]:
        if islands_allowed:
            return self.homelands + tuple(sorted(self.islands - set(self.homelands)))
        return tuple(z for z in self.homelands if z not in self.islands)

    def target_distance(self, x_mm: float | None, y_mm: float | None) -> float:
        """Distance from the target centre in mm; a dart with no position, or outside the
        target, counts as the farthest possible (``math.inf``)."""
        if x_mm is None or y_mm is None or self.target_center is None:
            return FARTHEST
        d = math.hypot(x_mm - self.target_center[0], y_mm - self.target_center[1])
        return d if d <= self.target_radius else FARTHEST

    def distances_from(self, zone: str) -> Mapping[str, int]:
        """Moves needed from every territory to ``zone`` (breadth-first, cached)."""
        cached = self._distances.get(zone)
        if cached is None:
            cached = {zone: 0}
            queue = deque([zone])
            while queue:
                here = queue.popleft()
                for there in self.neighbours[here]:
                    if there not in cached:
                        cached[there] = cached[here] + 1
                        queue.append(there)
            self._distances[zone] = cached
        return cached


_CACHE: dict[int, tuple[Board, MapInfo]] = {}


def map_info(board: Board) -> MapInfo:
    """The rules' view of ``board`` (cached per board object)."""
    hit = _CACHE.get(id(board))
    if hit is not None and hit[0] is board:
        return hit[1]
    info = _build(board)
    _CACHE[id(board)] = (board, info)
    return info


def _build(board: Board) -> MapInfo:
    kinds = {z.id: z.kind for z in board.top_zones}
    territories = {z for z, k in kinds.items() if k in TERRITORY_KINDS}
    adjacency = board.adjacency
    neighbours = {
        z: frozenset(n for n in adjacency.get(z, ()) if n in territories and n != z)
        for z in sorted(territories)
    }
    meta: Mapping[str, Any] = board.game.get("dartwars", {}) if board.game else {}
    islands = frozenset(meta.get("islands") or (z for z in territories if kinds[z] == "island"))
    white = frozenset(
        meta.get("white_territories")
        or (z.id for z in board.top_zones if z.data.get("white") and z.id in territories)
    )
    listed = meta.get("homelands")
    if listed:
        homelands = tuple(z for z in listed if z in territories and kinds[z] != "water")
    else:
        homelands = tuple(sorted(z for z in territories if kinds[z] == "land" and z not in white))
    target_zones = [z.id for z in board.top_zones if z.kind == "target"]
    center = board.target.center if board.target else None
    radius = board.target.radius_mm if board.target else 0.0
    return MapInfo(
        board_id=board.id,
        kinds=kinds,
        neighbours=neighbours,
        homelands=homelands,
        islands=islands,
        white=white,
        target_center=center,
        target_radius=radius,
        target_zone=target_zones[0] if target_zones else None,
    )
