"""Automatic calibration from the printed markers, checked against known cameras."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import boards
from calibration.errors import CalibrationError
from calibration.markers import calibrate_from_markers
from calibration.synthetic import Case, board_error_mm, true_lens, view

# Steep poses, all sides, roll, barrel distortion, noise, uneven light and JPEG.
CASES = [
    Case("groundround", 0, 0, 0, 0.0, noise=2, seed=1),
    Case("groundround", 35, 0, 0, -0.1, noise=3, light=0.4, jpeg=85, seed=2),
    Case("groundround", 55, 30, 5, -0.3, noise=3, light=0.5, jpeg=80, seed=3),
    Case("groundround", 55, 200, -10, -0.2, noise=4, light=0.3, jpeg=75, seed=4),
    Case("classic", 45, 90, 0, -0.3, noise=3, light=0.5, jpeg=80, seed=5),
    Case("classic", 55, 270, 15, 0.0, noise=3, light=0.4, jpeg=85, seed=6),
    Case("dartwars", 50, 150, -5, -0.25, noise=3, light=0.4, jpeg=80, seed=7),
]


def _lens(case, camera):
    return true_lens(camera) if case.k1 else None  # as after `oche calibrate-lens`


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.board_id}-{c.name}")
def test_recovers_board_positions_within_half_a_millimetre(case):
    board = boards.load(case.board_id)
    image, camera = view(case)
    result = calibrate_from_markers(board, image, _lens(case, camera))
    rms, worst = board_error_mm(result.calibration, camera, board)
    assert rms < 0.5, f"RMS {rms:.3f} mm"
    assert worst < 1.5
    assert result.acceptable
    assert result.report.markers_found == tuple(sorted(m.id for m in board.markers))
    assert result.report.markers_missing == ()
    assert 0 < result.report.rms_mm <= result.report.max_mm
    assert result.calibration.has_lens == bool(case.k1)


def _cover(image: np.ndarray, camera, board, ids: set[int]) -> np.ndarray:
    """Paint over the given markers, as a hand or a dart flight would hide them."""
    out = image.copy()
    for marker in board.markers:
        if marker.id in ids:
            px = camera.project(np.array(marker.corners))
            centre = px.mean(axis=0)
            grown = centre + 1.4 * (px - centre)
            cv2.fillConvexPoly(out, np.round(grown).astype(np.int32), (200, 180, 160))
    return out


def test_hidden_markers_do_not_break_it(groundround):
    case = CASES[2]
    image, camera = view(case)
    hidden = {16, 19, 21}
    covered = _cover(image, camera, groundround, hidden)
    result = calibrate_from_markers(groundround, covered, true_lens(camera))
    assert set(result.report.markers_missing) == hidden
    assert board_error_mm(result.calibration, camera, groundround)[0] < 0.5
    assert "not seen: 16, 19, 21" in result.report.text()


def test_markers_along_one_edge_are_not_enough_and_the_message_names_the_missing(groundround):
    case = CASES[1]
    image, camera = view(case)
    covered = _cover(image, camera, groundround, {19, 20, 21, 22, 23})  # 16, 17, 18 remain
    with pytest.raises(CalibrationError) as err:
        calibrate_from_markers(groundround, covered, true_lens(camera))
    message = str(err.value)
    assert "found 16, 17, 18" in message
    assert "cannot see 19, 20, 21, 22, 23" in message


def test_a_misplaced_marker_is_left_out_and_named(groundround):
    """A marker that does not sit where the board says (a reprint stuck on elsewhere)."""
    case = CASES[0]
    image, camera = view(case)
    moved = image.copy()
    marker = next(m for m in groundround.markers if m.id == 19)
    px = np.round(camera.project(np.array(marker.corners))).astype(int)
    x0, y0 = px.min(axis=0) - 3
    x1, y1 = px.max(axis=0) + 3
    patch = image[y0:y1, x0:x1].copy()
    moved[y0:y1, x0:x1] = 255
    moved[y0 + 60 : y1 + 60, x0 - 40 : x1 - 40] = patch
    result = calibrate_from_markers(groundround, moved)
    assert 19 not in result.report.markers_found
    assert any("19" in n and "do not fit" in n for n in result.report.notes)
    assert board_error_mm(result.calibration, camera, groundround)[0] < 0.5


def test_another_boards_markers_say_which_board_it_looks_like(groundround, classic):
    image, _ = view(CASES[4])  # a classic board
    with pytest.raises(CalibrationError, match="this looks like board classic"):
        calibrate_from_markers(groundround, image)


def test_photo_without_the_board(groundround):
    wall = np.full((720, 1280, 3), 90, np.uint8)
    cv2.rectangle(wall, (300, 200), (700, 500), (150, 150, 170), -1)
    with pytest.raises(CalibrationError, match="none of the markers of board 'groundround'"):
        calibrate_from_markers(groundround, wall)


def test_blurred_photo_says_it_is_blurred(groundround):
    image, _ = view(CASES[1])
    blurred = cv2.GaussianBlur(image, (0, 0), 9)
    with pytest.raises(CalibrationError, match="looks blurred"):
        calibrate_from_markers(groundround, blurred)


def test_mirrored_photo_is_refused(groundround):
    image, _ = view(CASES[0])
    with pytest.raises(CalibrationError):
        calibrate_from_markers(groundround, cv2.flip(image, 1))


def test_without_lens_a_wide_lens_is_pointed_out(groundround):
    case = CASES[2]  # k1 = -0.3
    image, _ = view(case)
    result = calibrate_from_markers(groundround, image, None)
    assert any("calibrate-lens" in n for n in result.report.notes)
