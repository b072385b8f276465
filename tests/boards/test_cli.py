"""The board commands as a user types them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from oche.cli import main


def test_boards_lists_the_built_in_boards(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["boards", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["id"] for r in rows] == ["dartwars", "groundround", "classic"]


def test_locate_prints_the_contract_shape(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["board", "locate", "groundround", "310", "330"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert (
        answer["zone"] == "hex1" and answer["candidates"] == ["hex1"] and answer["on_line"] is False
    )


def test_export_import_print_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    geojson = tmp_path / "classic.geojson"
    assert main(["board", "export", "classic", "--format", "geojson", "--out", str(geojson)]) == 0
    board_file = tmp_path / "mine.json"
    assert main(["board", "import", str(geojson), "--out", str(board_file)]) == 0
    assert main(["board", "locate", str(board_file), "280", "280"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["zone"] == "DB"
    assert (
        main(
            ["board", "print", str(board_file), "--out", str(tmp_path / "mine.png"), "--dpi", "20"]
        )
        == 0
    )
    assert (tmp_path / "mine.png").exists()


def test_user_mistakes_give_a_message_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["board", "locate", "nowhere", "1", "2"]) == 2
    assert "unknown board 'nowhere'" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert main(["board", "print", str(bad), "--out", str(tmp_path / "x.svg")]) == 2
    assert "Fix:" in capsys.readouterr().err


@pytest.mark.parametrize("place", [["nan", "3"], ["10", "inf"], ["10", "10", "--sigma", "nan"]])
def test_locate_refuses_a_place_that_is_no_number_of_millimetres(
    place: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["board", "locate", "classic", *place]) == 2
    assert "give finite numbers" in capsys.readouterr().err
