"""Export to GeoJSON/SVG and import back: users trace their own boards."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import boards
from boards.exchange import import_board, to_geojson, to_svg
from boards.fileformat import BoardFileError, board_to_json
from oche.errors import UserError


@pytest.mark.parametrize("name", boards.BUILTIN)
def test_geojson_export_round_trips(tmp_path: Path, name: str) -> None:
    board = boards.load(name)
    exported = to_geojson(board)
    zone_features = [
        f for f in exported["features"] if not f["properties"]["kind"].startswith("link:")
    ]
    assert all({"id", "name", "kind"} <= set(f["properties"]) for f in zone_features)
    path = tmp_path / f"{name}.geojson"
    path.write_text(json.dumps(exported))
    assert board_to_json(import_board(path)) == board_to_json(board)


def test_svg_export_imports_back_with_ids_names_kinds_and_parents(tmp_path: Path) -> None:
    board = boards.load("groundround")
    path = tmp_path / "traced.svg"
    path.write_text(to_svg(board))
    imported = import_board(path)
    assert set(imported.zones) == set(board.zones)
    for zone in board.zones.values():
        again = imported.zone(zone.id)
        assert (again.name, again.kind, again.parent) == (zone.name, zone.kind, zone.parent)
        assert again.geometry.symmetric_difference(zone.geometry).area < 0.01 * zone.geometry.area
    assert imported.adjacency == board.adjacency


def test_traced_geojson_without_settings_gets_a_sheet_and_an_id(tmp_path: Path) -> None:
    def square(x):
        return {
            "type": "Polygon",
            "coordinates": [[[x, 0], [x + 50, 0], [x + 50, 50], [x, 50], [x, 0]]],
        }

    collection = {
        "type": "FeatureCollection",
        "features": [
            {
                "type": "Feature",
                "properties": {"id": "west", "name": "West"},
                "geometry": square(0),
            },
            {
                "type": "Feature",
                "properties": {"id": "east", "name": "East"},
                "geometry": square(50),
            },
        ],
    }
    path = tmp_path / "My Map.geojson"
    path.write_text(json.dumps(collection))
    board = import_board(path)
    assert board.id == "my_map"
    assert board.width_mm >= 100 and board.height_mm >= 50
    assert board.neighbours("west") == {"east"}


def test_importing_something_else_is_explained(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("hello")
    with pytest.raises(UserError, match=r"\.geojson or \.svg"):
        import_board(tmp_path / "a.txt")
    (tmp_path / "b.geojson").write_text('{"type": "Feature"}')
    with pytest.raises(BoardFileError, match="FeatureCollection"):
        import_board(tmp_path / "b.geojson")
    (tmp_path / "c.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="10mm"/>'
    )
    with pytest.raises(UserError, match="no closed shapes"):
        import_board(tmp_path / "c.svg")
