"""Validated game options, resolved once per game into a small immutable ``Config``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.base import RulesError
from rules.dawgs import data


@dataclass(frozen=True)
class Config:
    columns: int
    rows: int
    vuln_track: tuple[int, ...]
    start_speed: int
    fire_range: int
    special_cards: tuple[tuple[str, int], ...]
    round_limit: int
    teams: tuple[Any, ...] | None
    damage_on_leaving: bool
    world_not_round: bool
    constant_altitude: bool
    redraw_special: bool
    delayed_respawn: bool
    continuous_fire: bool

    @property
    def max_speed(self) -> int:
        return len(self.vuln_track) - 1

    def vuln(self, speed: int) -> int:
        return self.vuln_track[speed]

    def special_deck(self) -> list[str]:
        """The shuffled-away special deck as a sorted list (draws pick by index)."""
        return sorted(card for card, copies in self.special_cards for _ in range(copies))


def _int(options: Mapping[str, Any], name: str, low: int, high: int) -> int:
    value = options[name]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RulesError("options", f"option {name} must be an integer from {low} to {high}")
    return value


def _flag(options: Mapping[str, Any], name: str) -> bool:
    value = options[name]
    if not isinstance(value, bool):
        raise RulesError("options", f"option {name} must be true or false, got {value!r}")
    return value


def _teams(value: Any) -> tuple[Any, ...] | None:
    if value is None:
        return None
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise RulesError("options", "option teams must be a list with one team label per seat")
    for label in value:
        if isinstance(label, bool) or not isinstance(label, int | str):
            raise RulesError("options", f"team label {label!r} must be an integer or a string")
    return tuple(value)


def _track(value: Any) -> tuple[int, ...]:
    if (
        not isinstance(value, Sequence)
        or isinstance(value, str)
        or len(value) < 2
        or any(isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 12 for v in value)
    ):
        raise RulesError(
            "options",
            "option vuln_track must list the VULN (1-12) of each speed from 0 up, "
            "e.g. [5, 4, 3, 2]",
        )
    return tuple(value)


def _specials(value: Any) -> tuple[tuple[str, int], ...]:
    if not isinstance(value, Mapping):
        raise RulesError("options", "option special_cards maps a card id to its number of copies")
    for card, copies in value.items():
        if card not in data.SPECIAL_CARDS:
            known = ", ".join(data.SPECIAL_CARDS)
            raise RulesError("options", f"unknown special card {card!r} (known: {known})")
        if isinstance(copies, bool) or not isinstance(copies, int) or not 0 <= copies <= 8:
            raise RulesError("options", f"special card {card} needs 0 to 8 copies")
    return tuple(sorted(value.items()))


def build_config(options: Mapping[str, Any]) -> Config:
    """Check every option and name the bad one with the fix."""
    track = _track(options["vuln_track"])
    return Config(
        columns=_int(options, "map_columns", 4, 60),
        rows=_int(options, "map_rows", data.START_ALTITUDES + 1, 60),
        vuln_track=track,
        start_speed=_int(options, "start_speed", 0, len(track) - 1),
        fire_range=_int(options, "fire_range", 1, 10),
        special_cards=_specials(options["special_cards"]),
        round_limit=_int(options, "round_limit", 0, 100_000),
        teams=_teams(options["teams"]),
        **{name: _flag(options, name) for name in data.OPTIONAL_RULES},
    )
