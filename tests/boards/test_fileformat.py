"""Board files: built-ins load and match their generators; bad files get clear errors."""

from __future__ import annotations

import copy
import importlib
import json
from pathlib import Path

import pytest

import boards
from boards.fileformat import BoardFileError, board_from_json, board_to_json
from oche.errors import UserError

GOOD = board_to_json(boards.load("groundround"))


@pytest.mark.parametrize("name", boards.BUILTIN)
def test_committed_board_file_is_what_its_generator_makes(name: str) -> None:
    generator = importlib.import_module(f"boards.builtin.{name}")
    committed = json.loads(boards.builtin_path(name).read_text())
    assert board_to_json(generator.build()) == committed


@pytest.mark.parametrize("name", boards.BUILTIN)
def test_board_survives_a_json_round_trip(name: str) -> None:
    data = board_to_json(boards.load(name))
    again = board_to_json(board_from_json(json.loads(json.dumps(data)), name))
    assert again == data


def _moved(geometry: dict, dx: float) -> dict:
    rings = [[[x + dx, y] for x, y in ring] for ring in geometry["coordinates"]]
    return {"type": "Polygon", "coordinates": rings}


def _broken(edit) -> dict:
    data = copy.deepcopy(GOOD)
    edit(data)
    return data


@pytest.mark.parametrize(
    ("edit", "path", "words"),
    [
        (lambda d: d.pop("format"), "$.format", "oche-board"),
        (lambda d: d.update(version=7), "$.version", "not supported"),
        (lambda d: d["sheet"].pop("height_mm"), "$.sheet.height_mm", "missing"),
        (lambda d: d["sheet"].update(width_mm="wide"), "$.sheet.width_mm", "number"),
        (lambda d: d.update(zones=[]), "$.zones", "no zones"),
        (lambda d: d["zones"][3].update(id=d["zones"][2]["id"]), "$.zones[3].id", "duplicate"),
        (
            lambda d: d["zones"][1].update(geometry={"type": "Point", "coordinates": [1, 2]}),
            "$.zones[1].geometry.type",
            "polygon",
        ),
        (
            lambda d: d["zones"][1].update(
                geometry={
                    "type": "Polygon",
                    "coordinates": [[[0, 0], [10, 10], [10, 0], [0, 10], [0, 0]]],
                }
            ),
            "$.zones[1].geometry",
            "invalid",
        ),
        (
            lambda d: d["zones"][1].update(geometry=d["zones"][0]["geometry"]),
            "$.zones[1].geometry",
            "overlap",
        ),
        (lambda d: d["zones"][0].update(parent="nowhere"), "$.zones[0].parent", "does not exist"),
        (
            lambda d: d["markers"].update(dictionary="DICT_9X9"),
            "$.markers.dictionary",
            "unknown ArUco",
        ),
        (
            lambda d: d["markers"]["items"][0].update(corners=[[0, 0]]),
            "$.markers.items[0].corners",
            "4 corners",
        ),
        (
            lambda d: d["zones"][0].update(geometry=_moved(d["zones"][0]["geometry"], 5000)),
            "$.zones[0].geometry",
            "outside",
        ),
    ],
)
def test_bad_board_files_name_the_place_and_the_fix(edit, path: str, words: str) -> None:
    with pytest.raises(BoardFileError) as info:
        board_from_json(_broken(edit), "my_board.json")
    message = str(info.value)
    assert message.startswith("my_board.json: at " + path)
    assert words in message
    assert "Fix:" in message


def test_invalid_json_names_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"format": "oche-board",\n "version": 1,,\n}')
    with pytest.raises(BoardFileError, match=r"broken.json: at line 2 column"):
        boards.load(path)


def test_unknown_board_name_lists_the_built_ins() -> None:
    with pytest.raises(UserError, match="dartwars"):
        boards.load("no_such_board")
