"""What each seat may see, with the geometry a table or phone needs to draw the map."""

from __future__ import annotations

import json
from typing import Any

from rules.dawgs import cards, hexgrid
from rules.dawgs.config import Config
from rules.dawgs.planes import body_of, front_of

State = dict[str, Any]
HIDDEN = "hidden"


def player_view(state: State, viewer: int | None, config: Config) -> State:
    """The state as ``viewer`` sees it (``None``: a spectator).

    Hidden: other pilots' chosen but unrevealed cards (``has_chosen`` stays visible, as
    face-down cards are), the special card in their hands and the order of the deck.
    """
    seen = json.loads(json.dumps(state))
    for index, plane in enumerate(seen["planes"]):
        plane["has_chosen"] = plane["chosen"] is not None
        if index != viewer:
            plane["chosen"] = None
            if plane["special"] is not None:
                plane["special"] = HIDDEN
    seen["deck"] = [HIDDEN] * len(state["deck"])
    seen["display"] = display(state, viewer, config)
    return seen


def display(state: State, viewer: int | None, config: Config) -> dict[str, Any]:
    """Each plane's hexes, cone (clipped to the map), VULN and altitude; the viewer's hand."""
    planes: list[dict[str, Any] | None] = []
    for plane in state["planes"]:
        if plane["status"] != "flying":
            planes.append(None)
            continue
        front = front_of(plane)
        cone = [
            list(h)
            for h in hexgrid.cone(front, plane["heading"], config.fire_range)
            if 0 <= h[1] < config.rows and 0 <= hexgrid.column_of(h) < config.columns
        ]
        planes.append(
            {
                "body": [list(h) for h in body_of(plane)],
                "cone": cone,
                "vuln": config.vuln(plane["speed"]),
                "altitude": hexgrid.altitude_of(front),
            }
        )
    shown: dict[str, Any] = {"planes": planes, "vuln_track": list(config.vuln_track)}
    if viewer is not None and 0 <= viewer < len(state["players"]):
        shown["hand"] = cards.hand(state, viewer)
        shown["card_choices"] = list(cards.card_choices(state, viewer))
    return shown


def describe(state: State, action: dict[str, Any]) -> str | None:
    """A log line that names the pilot but never a secret card; None if unknown."""
    names = state["players"]

    def name(index: Any) -> str:
        return names[index] if isinstance(index, int) and 0 <= index < len(names) else "?"

    player = action.get("player")
    if player is None and state["queue"]:
        player = state["queue"][0]["player"]
    who = name(player)
    lines = {
        "choose_cards": f"{who} chooses two cards",
        "roll": f"{who} rolls {action.get('value')}",
        # No deck position in the log: the deck's order is known, so a position names the card.
        "draw_special": f"{who} draws a special ability card",
        "choose_side": f"{who}'s team starts on the {action.get('side')}",
        "fire": f"{who} fires at {name(action.get('target'))}",
        "hold_fire": f"{who} holds fire",
    }
    return lines.get(action.get("type"))


#: Fields of an action that only the acting pilot may see.
SECRET_FIELDS = {"choose_cards": ("cards",), "draw_special": ("card", "index")}


def action_view(action: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    secret = SECRET_FIELDS.get(action.get("type"), ())
    if not secret or (viewer is not None and action.get("player") == viewer):
        return dict(action)
    return {key: value for key, value in action.items() if key not in secret}
