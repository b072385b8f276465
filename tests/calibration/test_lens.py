"""Lens intrinsics from photos of the printed ChArUco sheet, and the lens file."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

import boards
from calibration.errors import CalibrationError
from calibration.lens import (
    Lens,
    calibrate_lens,
    detect_sheet,
    load_lens,
    save_lens,
    sheet_image,
    write_sheet,
)
from calibration.markers import calibrate_from_markers
from calibration.synthetic import Case, board_error_mm, lens_sheet_photos, view

_PHOTOS: dict = {}


def photos():
    if not _PHOTOS:
        _PHOTOS["v"] = lens_sheet_photos(k1=-0.25, count=7, seed=4)
    return _PHOTOS["v"]


def test_measured_lens_makes_a_distorted_view_accurate():
    shots, camera = photos()
    lens, notes = calibrate_lens(shots)
    assert notes == []
    assert lens.views == 7
    assert lens.rms_px < 0.5
    assert (
        abs(lens.camera_matrix[0, 0] - camera.camera_matrix[0, 0])
        < 0.01 * camera.camera_matrix[0, 0]
    )
    assert abs(lens.dist_coeffs[0] - camera.dist_coeffs[0]) < 0.03
    board = boards.load("groundround")
    case = Case("groundround", 50, 40, 5, -0.25, noise=3, light=0.4, jpeg=85, seed=31)
    image, board_camera = view(case)
    with_lens = calibrate_from_markers(board, image, lens)
    without = calibrate_from_markers(board, image, None)
    assert board_error_mm(with_lens.calibration, board_camera, board)[0] < 0.5
    assert board_error_mm(without.calibration, board_camera, board)[0] > 1.0


def test_too_few_sheet_photos_says_how_many_are_needed():
    shots, _ = photos()
    blank = np.full_like(shots[0][1], 128)
    with pytest.raises(CalibrationError, match="found in 2 photo"):
        calibrate_lens([*shots[:2], ("blank.png", blank)])


def test_photos_of_another_size_are_skipped_with_a_note():
    shots, _ = photos()
    small = cv2.resize(shots[0][1], (640, 360))
    _, notes = calibrate_lens([*shots, ("small.png", small)])
    assert notes == ["small.png: skipped, 640x360 px differs from 1280x720"]


def test_sheet_file_is_found_in_its_own_image(tmp_path):
    path = write_sheet(tmp_path / "sheet.png", dpi=100)
    image = cv2.imread(str(path))
    assert image.shape[:2] == sheet_image(100).shape[:2]
    view_ = detect_sheet(image)
    assert view_ is not None and len(view_.image_points) == 7 * 5  # inner corners
    with pytest.raises(CalibrationError, match=r"FILE\.png"):
        write_sheet(tmp_path / "sheet.pdf")


def test_lens_file_round_trip_and_resolution_change(tmp_path):
    k = np.array([[900.0, 0, 639.5], [0, 900, 359.5], [0, 0, 1]])
    lens = Lens((1280, 720), k, np.array([-0.2, 0.05, 0, 0, 0]), 0.3, 9)
    save_lens(lens, tmp_path / "lens.json")
    back = load_lens(tmp_path / "lens.json")
    assert np.allclose(back.camera_matrix, k) and back.views == 9
    half = back.for_size((640, 360))
    assert half.camera_matrix[0, 0] == pytest.approx(450)
    assert half.camera_matrix[0, 2] == pytest.approx(319.5)
    with pytest.raises(CalibrationError, match="another aspect ratio"):
        back.for_size((640, 480))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not a readable lens file"),
        ("[1, 2]", "not a lens file"),
        (json.dumps({"image_size": [1280, 720]}), "'camera_matrix' is missing"),
        (
            json.dumps({"image_size": [1280, 720], "camera_matrix": [[1, 0], [0, 1]]}),
            "malformed|not a camera matrix",
        ),
        (
            json.dumps(
                {
                    "image_size": [1280, 720],
                    "camera_matrix": [[9, 0, 1], [0, 9, 1], [0, 0, 1]],
                    "dist_coeffs": [1, 2, 3],
                }
            ),
            "4, 5, 8, 12 or 14",
        ),
    ],
)
def test_bad_lens_files(tmp_path, text, message):
    path = tmp_path / "lens.json"
    path.write_text(text)
    with pytest.raises(CalibrationError, match=message):
        load_lens(path)
