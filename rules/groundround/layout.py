"""What the rules need to know about a Ground Round board: each hex's symbol and neighbours.

The symbols are read from the board's zone data (``zone.data["symbol"]``), never hard-coded,
so a table that edits the layout in its board file plays on its own layout. Red areas are
sub-zones whose ``parent`` is a Crossed Darts hex.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

from boards.model import Board
from rules.base import RulesError

FLAG = "flag"
DART = "dart"
CROSSED_DARTS = "crossed_darts"
TOWER = "tower"
PIN = "pin"
FIST = "fist"
FLAMING_FIST = "flaming_fist"
BLANK = "blank"

SYMBOLS = (FLAG, DART, CROSSED_DARTS, TOWER, PIN, FIST, FLAMING_FIST, BLANK)


@dataclass(frozen=True)
class Layout:
    """The static facts of one board, computed once per game object."""

    board_id: str
    hexes: tuple[str, ...]  # top-level zones, in board order
    symbol: Mapping[str, str]  # hex -> symbol
    neighbours: Mapping[str, frozenset[str]]  # hex -> adjacent hexes
    red_parent: Mapping[str, str]  # red-area sub-zone -> its Crossed Darts hex
    names: Mapping[str, str]  # zone id -> name shown to people

    @cached_property
    def capturable(self) -> tuple[str, ...]:
        """Hexes that carry a symbol (blank hexes can never be taken)."""
        return tuple(h for h in self.hexes if self.symbol[h] != BLANK)

    @cached_property
    def _by_symbol(self) -> Mapping[str, tuple[str, ...]]:
        return {s: tuple(h for h in self.hexes if self.symbol[h] == s) for s in SYMBOLS}

    def with_symbol(self, symbol: str) -> tuple[str, ...]:
        return self._by_symbol[symbol]

    @cached_property
    def flags(self) -> tuple[str, ...]:
        return self.with_symbol(FLAG)

    def hex_of(self, zone_id: str) -> str:
        """The hex a zone id stands for (a red area stands for its Crossed Darts hex)."""
        return self.red_parent.get(zone_id, zone_id)

    def describe(self, hex_id: str) -> str:
        return self.names.get(hex_id, hex_id)


def layout_from_board(board: Board) -> Layout:
    """Read and check the symbols of ``board``; errors name the zone and the fix."""
    hexes: list[str] = []
    symbol: dict[str, str] = {}
    for zone in board.top_zones:
        value = zone.data.get("symbol", BLANK)
        if value not in SYMBOLS:
            raise RulesError(
                "board",
                f"zone {zone.id!r} of board {board.id!r} has symbol {value!r}; "
                f"use one of {', '.join(SYMBOLS)} in its data.symbol",
            )
        hexes.append(zone.id)
        symbol[zone.id] = value
    flags = [h for h in hexes if symbol[h] == FLAG]
    if not flags:
        raise RulesError(
            "board",
            f"board {board.id!r} has no Flag hex, so nobody could win; "
            'give at least one zone data.symbol "flag"',
        )
    red_parent: dict[str, str] = {}
    for sub in board.sub_zones:
        if sub.parent in symbol and symbol[sub.parent] == CROSSED_DARTS:
            red_parent[sub.id] = sub.parent
    neighbours = {h: frozenset(n for n in board.neighbours(h) if n in symbol) for h in hexes}
    names = {z.id: z.name or z.id for z in board.zones.values()}
    return Layout(
        board_id=board.id,
        hexes=tuple(hexes),
        symbol=symbol,
        neighbours=neighbours,
        red_parent=red_parent,
        names=names,
    )
