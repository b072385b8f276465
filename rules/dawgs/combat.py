"""Phases 3 to 5: fire, adjust speed, roll for breakup."""

from __future__ import annotations

from typing import Any

from rules.dawgs import hexgrid
from rules.dawgs.config import Config
from rules.dawgs.planes import add_hits, body_of, eliminate, flying, targets_in_cone

State = dict[str, Any]


def fire_queue(state: State, config: Config) -> list[dict[str, Any]]:
    """A target choice for every plane that has at least one enemy in its cone."""
    return [
        {"task": "choose_target", "player": i}
        for i in flying(state)
        if targets_in_cone(state, i, config)
    ]


def fire_bonus(state: State, shooter: int, target: int, config: Config) -> int:
    """What is added to a fire roll: Steady Aim, and one's own Continuous Fire token."""
    plane = state["planes"][shooter]
    bonus = plane["fire_bonus"]
    if config.continuous_fire and plane["cf_on"] == target:
        bonus += 1
    return bonus


def hits_for(total: int, vuln: int) -> int:
    """Reaching the VULN scores one hit, beating it by 2 or more scores two."""
    if total >= vuln + 2:
        return 2
    return 1 if total >= vuln else 0


def resolve_fire(state: State, shooter: int, target: int, roll: int, config: Config) -> int:
    """Apply one shot; returns the hits that landed on the damage track."""
    attacker, victim = state["planes"][shooter], state["planes"][target]
    total = roll + fire_bonus(state, shooter, target, config)
    vuln = config.vuln(victim["speed"])
    hits = hits_for(total, vuln)
    names = state["players"]
    state["events"].append(
        f"{names[shooter]} fires at {names[target]}: {roll}"
        + (f"+{total - roll}" if total != roll else "")
        + f" against VULN {vuln}, {hits} hit(s)"
    )
    if hits and victim["in_play"] == "armour_plating":
        hits -= 1
        state["discard"].append(victim["in_play"])
        victim["in_play"] = None
        state["events"].append(f"{names[target]}'s armour plating stops a hit")
    add_hits(victim, hits, config)
    if config.continuous_fire:
        if attacker["cf_on"] is not None and attacker["cf_on"] != target:
            attacker["cf_on"] = None
        if hits_for(total, vuln) == 0 and attacker["cf_on"] is None:
            attacker["cf_on"] = target
    return hits


def in_low_atmosphere(plane: dict[str, Any], config: Config) -> bool:
    top_row = config.rows - 3
    return any(h[1] >= top_row for h in body_of(plane))


def adjust_speed(plane: dict[str, Any], config: Config) -> None:
    """Attitude first, then the thin air of the top rows, then levelling off."""
    pitch = hexgrid.ELEVATION[plane["heading"]]
    if pitch <= -2 and plane["speed"] < config.max_speed:
        plane["speed"] += 1
    elif pitch >= 2 and plane["speed"] > 0:
        plane["speed"] -= 1
    if in_low_atmosphere(plane, config) and plane["speed"] > 0:
        plane["speed"] -= 1
    if plane["speed"] == 0 and pitch <= 0:
        plane["speed"] = 1


def needs_breakup_roll(plane: dict[str, Any]) -> bool:
    return (
        plane["status"] == "flying"
        and plane["damage"] is not None
        and plane["speed"] >= plane["damage"]
    )


def breakup_queue(state: State) -> list[dict[str, Any]]:
    return [
        {"task": "breakup_roll", "player": i}
        for i, plane in enumerate(state["planes"])
        if needs_breakup_roll(plane)
    ]


def breakup_target(plane: dict[str, Any], config: Config) -> tuple[int, int]:
    """(bonus added to the die, total needed to break up)."""
    return plane["speed"] - plane["damage"], config.vuln(plane["damage"])


def resolve_breakup(state: State, player: int, roll: int, config: Config) -> bool:
    plane = state["planes"][player]
    bonus, needed = breakup_target(plane, config)
    broke = roll + bonus >= needed
    state["events"].append(
        f"{state['players'][player]} rolls {roll}+{bonus} for breakup (needs {needed})"
    )
    if broke:
        eliminate(state, player, "broke up")
    return broke
