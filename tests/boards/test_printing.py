"""What users print: the PNG pixel contract, detectable markers, tiles, PDF and SVG files."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

import boards
from boards.printing import plan_tiles, print_board
from boards.scene import SYMBOL_COLORS
from oche.errors import UserError


@pytest.fixture(scope="module")
def ground_png(tmp_path_factory: pytest.TempPathFactory) -> tuple[np.ndarray, float]:
    out = tmp_path_factory.mktemp("print") / "ground.png"
    print_board(boards.load("groundround"), out, dpi=50.8)  # 2 px per mm
    return cv2.imread(str(out)), 2.0


def test_png_maps_board_millimetres_to_pixels(ground_png: tuple[np.ndarray, float]) -> None:
    image, scale = ground_png
    board = boards.load("groundround")
    assert image.shape[:2] == (round(board.height_mm * scale), round(board.width_mm * scale))
    # Sample each blank hex a little off its centre (icons sit in the middle): its fill colour.
    for zone in board.top_zones:
        if zone.data["symbol"] != "blank":
            continue
        x, y = zone.centroid
        b, g, r = image[round((y - 20) * scale), round(x * scale)]
        assert np.allclose((r, g, b), SYMBOL_COLORS["blank"], atol=3)


def test_printed_markers_are_found_where_the_board_file_says(
    ground_png: tuple[np.ndarray, float],
) -> None:
    image, scale = ground_png
    board = boards.load("groundround")
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, board.marker_dictionary))
    corners, ids, _ = cv2.aruco.ArucoDetector(dictionary).detectMarkers(image)
    assert ids is not None
    found = {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), corners, strict=True)}
    assert set(found) == {m.id for m in board.markers}
    for marker in board.markers:
        # Detected corners lie on the outer edge of the black border, half a pixel out.
        expected = np.asarray(marker.corners) * scale
        assert np.abs(found[marker.id] - expected).max() < 1.5


def test_tiles_cover_the_board_with_overlap() -> None:
    tiles, page = plan_tiles(1000, 700, "a4")
    assert page in ((210.0, 297.0), (297.0, 210.0))
    right = max(t.window.x + t.window.w for t in tiles)
    bottom = max(t.window.y + t.window.h for t in tiles)
    assert right >= 1000 and bottom >= 700
    # Neighbouring tiles overlap by the documented 15 mm.
    first, second = tiles[0], tiles[1]
    assert first.window.x + first.window.w - second.window.x == pytest.approx(15.0)


def test_tiled_png_writes_one_file_per_sheet(tmp_path: Path) -> None:
    written = print_board(boards.load("groundround"), tmp_path / "g.png", dpi=20, tiles="letter")
    assert len(written) > 1
    assert all(p.exists() and p.name.startswith("g-r") for p in written)


def test_pdf_is_a_vector_pdf_with_one_page_per_tile(tmp_path: Path) -> None:
    whole = tmp_path / "board.pdf"
    tiled = tmp_path / "tiles.pdf"
    print_board(boards.load("classic"), whole)
    print_board(boards.load("classic"), tiled, tiles="a4")
    assert whole.read_bytes().startswith(b"%PDF")
    pages, _ = plan_tiles(560, 560, "a4")
    assert tiled.read_bytes().count(b"/Type /Page\n") == len(pages)


def test_svg_has_the_board_size_in_millimetres(tmp_path: Path) -> None:
    out = tmp_path / "board.svg"
    print_board(boards.load("classic"), out)
    text = out.read_text()
    assert 'width="560.00mm"' in text and text.rstrip().endswith("</svg>")
    assert "Outer bull" not in text  # zone names are not printed on a classic board
    assert ">20<" in text


@pytest.mark.parametrize(
    ("name", "kwargs", "words"),
    [
        ("board.gif", {}, "unknown output format"),
        ("board.png", {"dpi": 5000}, "out of range"),
        ("missing/board.png", {}, "no such folder"),
        ("board.pdf", {"tiles": "a3"}, "unknown paper"),
    ],
)
def test_bad_print_requests_are_explained(
    tmp_path: Path, name: str, kwargs: dict, words: str
) -> None:
    with pytest.raises(UserError, match=words):
        print_board(boards.load("groundround"), tmp_path / name, **kwargs)
