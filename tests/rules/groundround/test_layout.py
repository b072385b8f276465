"""The symbols come from the board file, so a table's own layout is played as printed."""

from __future__ import annotations

import json

import boards
from rules.groundround import GroundRound


def _edited_board_file(tmp_path, symbols: dict[str, str], board_id: str = "my-round"):
    data = boards.board_to_json(boards.load("groundround"))
    data["id"] = board_id
    for zone in data["zones"]:
        if zone["id"] in symbols:
            zone["data"] = {**zone.get("data", {}), "symbol": symbols[zone["id"]]}
    path = tmp_path / "my-round.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_the_default_layout_is_read_from_the_board(game):
    layout = game.layout
    assert layout.flags == ("hex2", "hex4", "hex6")
    assert layout.symbol["hex10"] == "tower" and layout.symbol["hex1"] == "flaming_fist"
    assert layout.red_parent == {"hex9-red": "hex9", "hex14-red": "hex14"}
    assert len(layout.hexes) == 19 and len(layout.capturable) == 13


def test_an_edited_board_file_changes_the_game(tmp_path):
    # A fourth Flag on hex8 and a Fist instead of the blank hex11.
    path = _edited_board_file(tmp_path, {"hex8": "flag", "hex11": "fist"})
    game = GroundRound(str(path))
    state = game.new_state(["Ann", "Bob"])
    assert state["board"] == "my-round"
    assert "hex8" in state["owners"] and "hex11" in state["owners"]
    state["owners"].update({"hex2": 0, "hex4": 0, "hex6": 0, "hex11": 0})
    assert game.attack_of(state, 0) == 2
    # Three Flags are no longer enough: the fourth one decides.
    state = game.apply(state, {"type": "dart", "player": 0, "zone": "hex8"})
    assert game.outcome(state) is not None and game.outcome(state).winners == (0,)


def test_a_board_object_can_be_passed_directly():
    board = boards.load("groundround")
    assert GroundRound(board).board is board
