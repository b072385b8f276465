"""Dawgs of War as data: control cards, special ability cards, track and map defaults.

Everything the rulebook leaves to the printed components lives here so that a table can
change it through the game options without touching the rules code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

NUMBER_CARDS = ("1", "2", "3")
CLOCKWISE = "clockwise"
COUNTER_CLOCKWISE = "counter_clockwise"
NO_CHANGE = "no_change"
#: The slot name of a player's special ability card in a ``choose_cards`` action, so that
#: choices and prompts never spell out which special a player holds.
SPECIAL = "special"
ROTATE_CARDS = (CLOCKWISE, COUNTER_CLOCKWISE)
SECOND_CARDS = (CLOCKWISE, COUNTER_CLOCKWISE, NO_CHANGE, SPECIAL)

#: VULN for speed 0, 1, 2, 3 (index = speed). The Speed/VULN track printed on the
#: condition card; the damage token moves along the same spaces.
DEFAULT_VULN_TRACK = (5, 4, 3, 2)
DEFAULT_START_SPEED = 1

#: Map in hexes. 22 columns x 16 rows of 0.75-inch hexes (flat side to flat side) make a
#: 16.9 x 10.6 inch board, which fits the 11x17 inch sheet of the boxed game.
DEFAULT_COLUMNS = 22
DEFAULT_ROWS = 16
#: Rows at the top of the map where the thin air slows planes down.
LOW_ATMOSPHERE_ROWS = 3
#: The cone of fire reaches this many increments (hexes) from the front hex.
DEFAULT_FIRE_RANGE = 3
#: Most planes one map side can hold at the start: a die gives altitudes 1 to 6.
START_ALTITUDES = 6
#: Rounds after which a game that nobody has won ends as a draw (0 = no limit).
DEFAULT_ROUND_LIMIT = 100


@dataclass(frozen=True)
class SpecialCard:
    """A special ability card. Its effect is applied by id in ``movement._play_special``
    (speed and heading cards, steady aim) and ``combat.resolve_fire`` (armour plating)."""

    id: str
    title: str
    text: str
    stay_in_play: bool = False


#: The special ability cards designed for Oche (the boxed game's cards are unpublished).
#: Each is played instead of a rotate / no-change card, beside the compulsory number card.
SPECIAL_CARDS: dict[str, SpecialCard] = {
    card.id: card
    for card in (
        SpecialCard(
            "afterburner",
            "Afterburner",
            "Before moving, raise your speed to the number card played (never lowers it).",
        ),
        SpecialCard(
            "air_brake",
            "Air Brake",
            "Before moving, lower your speed by the number card played (not below 0).",
        ),
        SpecialCard(
            "immelmann",
            "Immelmann Turn",
            "Instead of rotating, turn the plane round to face the opposite way.",
        ),
        SpecialCard(
            "half_roll",
            "Half Roll",
            "Instead of rotating, swap climb for an equal dive (or dive for climb).",
        ),
        SpecialCard(
            "steady_aim",
            "Steady Aim",
            "Add 1 to your fire roll this round.",
        ),
        SpecialCard(
            "armour_plating",
            "Armour Plating",
            "Stays in play: the next hit enemy fire scores on you is ignored, then discard it.",
            stay_in_play=True,
        ),
    )
}

#: Two copies of each: 12 specials + 8 x 6 basic cards = the 60 control cards of the box.
DEFAULT_SPECIAL_DECK = dict.fromkeys(SPECIAL_CARDS, 2)

DEFAULT_OPTIONS: dict[str, Any] = {
    # Team label per seat (e.g. [0, 1, 0, 1]); None plays last man standing.
    "teams": None,
    "map_columns": DEFAULT_COLUMNS,
    "map_rows": DEFAULT_ROWS,
    "vuln_track": list(DEFAULT_VULN_TRACK),
    "start_speed": DEFAULT_START_SPEED,
    "fire_range": DEFAULT_FIRE_RANGE,
    "special_cards": dict(DEFAULT_SPECIAL_DECK),
    "round_limit": DEFAULT_ROUND_LIMIT,
    # Optional rules of the rulebook, all off by default.
    "damage_on_leaving": False,
    "world_not_round": False,
    "constant_altitude": False,
    "redraw_special": False,
    "delayed_respawn": False,
    "continuous_fire": False,
}

OPTIONAL_RULES = (
    "damage_on_leaving",
    "world_not_round",
    "constant_altitude",
    "redraw_special",
    "delayed_respawn",
    "continuous_fire",
)
