"""Reading a thrown dart, the same way in every part of the game.

A dart at the map gives a zone, nothing (it stuck outside the territories), "again" (it fell
after hitting a troop magnet: the thrower throws again) or a question to the thrower (which
zone, when it sits on a printed line; why it fell, when the table did not say). A dart at the
combat target gives a distance from the centre in mm.
"""

from __future__ import annotations

from dataclasses import dataclass

from boards.model import Board
from rules.base import Action, ActionFormatError, RulesError, State
from rules.darts import read_bounce_cause, read_dart
from rules.dartwars.mapinfo import FARTHEST, MapInfo

THROW_TYPES = ("dart", "miss", "bounceout")


@dataclass(frozen=True)
class MapHit:
    """``zone`` set: a territory was hit. ``again``: throw again. Neither: nothing hit.
    ``asked``: the thrower must first answer a question (state["pending"] is set)."""

    zone: str | None = None
    again: bool = False
    asked: bool = False


@dataclass(frozen=True)
class TargetHit:
    distance: float = FARTHEST
    again: bool = False
    asked: bool = False


def check_throw_type(action: Action) -> None:
    if action["type"] not in THROW_TYPES:
        raise RulesError(
            "expects-dart",
            f'the game waits for a dart (an action "dart", "miss" or "bounceout"), '
            f'not "{action["type"]}"',
        )


def _bounce(state: State, player: int, action: Action) -> tuple[bool, bool]:
    """(again, asked) for a dart that did not stick."""
    cause = read_bounce_cause(action)
    if cause is None:
        state["pending"] = {"kind": "bounce_cause", "player": player, "candidates": []}
        return False, True
    return cause == "magnet", False


def read_map_dart(board: Board, info: MapInfo, state: State, player: int, action: Action) -> MapHit:
    """Interpret a dart thrown at the map (may set ``state["pending"]``)."""
    check_throw_type(action)
    if action["type"] == "miss":
        return MapHit()
    if action["type"] == "bounceout":
        again, asked = _bounce(state, player, action)
        return MapHit(again=again, asked=asked)
    dart = read_dart(action, board)
    if dart.needs_choice:
        choices = sorted(set(dart.candidates))
        if len(choices) > 1:
            state["pending"] = {"kind": "choose_zone", "player": player, "candidates": choices}
            return MapHit(asked=True)
    zone = dart.zone if dart.zone is not None else (dart.candidates[0] if dart.candidates else None)
    if zone is None or not info.is_territory(zone):
        return MapHit()
    return MapHit(zone=zone)


def read_target_dart(
    board: Board, info: MapInfo, state: State, player: int, action: Action
) -> TargetHit:
    """Interpret a dart thrown at the combat target: its distance from the centre."""
    check_throw_type(action)
    if action["type"] == "miss":
        return TargetHit()
    if action["type"] == "bounceout":
        again, asked = _bounce(state, player, action)
        return TargetHit(again=again, asked=asked)
    dart = read_dart(action, board)
    return TargetHit(distance=info.target_distance(dart.x_mm, dart.y_mm))


def answer_pending(state: State, action: Action) -> Action:
    """Turn the answer to a pending question into the dart it completes (clears pending)."""
    pending = state["pending"]
    kind = pending["kind"]
    if action["type"] != kind:
        raise RulesError(
            "pending-question",
            f'the game waits for "{kind}" from {state["players"][pending["player"]]} first',
        )
    if kind == "choose_zone":
        zone = action.get("zone")
        if not isinstance(zone, str):
            raise ActionFormatError("zone", 'field "zone" must be one of the line\'s zones')
        if zone not in pending["candidates"]:
            raise RulesError(
                "line-hit",
                f"the dart sits on the line between {', '.join(pending['candidates'])}; "
                f"choose one of those, not {zone!r}",
            )
        state["pending"] = None
        return {
            "type": "dart",
            "player": pending["player"],
            "zone": zone,
            "candidates": [zone],
            "on_line": False,
        }
    cause = read_bounce_cause(action)
    if cause is None:
        raise ActionFormatError("cause", 'answer with "magnet", "dart" or "other"')
    state["pending"] = None
    return {"type": "bounceout", "player": pending["player"], "cause": cause}


def distance_json(distance: float) -> float | None:
    return None if distance == FARTHEST else round(distance, 2)


def distance_value(stored: float | None) -> float:
    return FARTHEST if stored is None else float(stored)
