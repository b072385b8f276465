"""The drift check on a still, empty frame: in place, moved (recalibrated), cannot tell."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from calibration.drift import check_drift
from calibration.markerless import calibrate_markerless
from calibration.markers import calibrate_from_markers
from calibration.model import CalibrationFileError
from calibration.synthetic import Case, board_error_mm, render_case, true_lens, view

CASE = Case("groundround", 50, 30, 5, -0.2, noise=3, light=0.4, jpeg=85, seed=41)


def _shifted(board, case, camera, dx_mm, dy_mm=0.0, seed=99):
    """The same camera after the board slid by (dx, dy) mm on the wall."""
    moved = dataclasses.replace(
        camera, tvec=camera.tvec + camera.rotation @ np.array([-dx_mm, -dy_mm, 0.0])
    )
    return render_case(board, dataclasses.replace(case, seed=seed), moved), moved


@pytest.fixture(scope="module")
def calibrated(groundround):
    image, camera = view(CASE)
    return calibrate_from_markers(groundround, image, true_lens(camera)).calibration, camera


def test_board_in_place_is_ok(groundround, calibrated):
    """(How long the check takes is timed by `oche bench calibration`.)"""
    calibration, camera = calibrated
    frame, _ = _shifted(groundround, CASE, camera, 0.0)  # a new frame: other noise
    result = check_drift(calibration, groundround, frame)
    assert result.status == "ok"
    assert result.moved_mm < 0.5
    assert result.calibration is None


def test_small_slip_under_a_millimetre_is_tolerated(groundround, calibrated):
    calibration, camera = calibrated
    frame, _ = _shifted(groundround, CASE, camera, 0.4)
    assert check_drift(calibration, groundround, frame).status == "ok"


def test_moved_board_is_recalibrated(groundround, calibrated):
    calibration, camera = calibrated
    frame, moved = _shifted(groundround, CASE, camera, 3.0, -2.0)
    result = check_drift(calibration, groundround, frame)
    assert result.status == "recalibrated"
    assert 2.5 < result.moved_mm < 5.0
    assert board_error_mm(result.calibration, moved, groundround)[0] < 0.5
    assert result.calibration.has_lens  # the lens is kept
    assert "moved by 3" in result.message


def test_covered_markers_cannot_be_checked(groundround, calibrated):
    calibration, _ = calibrated
    dark = np.full((720, 1280, 3), 30, np.uint8)
    result = check_drift(calibration, groundround, dark)
    assert result.status == "unknown"
    assert "none of the board's markers is visible" in result.message


def test_moved_with_too_few_markers_tells_the_user(groundround, calibrated):
    calibration, camera = calibrated
    frame, moved = _shifted(groundround, CASE, camera, 4.0)
    frame = frame.copy()
    for marker in groundround.markers:
        if marker.id not in (16, 17):  # only two neighbouring markers stay visible
            px = moved.project(np.array(marker.corners))
            centre = px.mean(axis=0)
            cv2.fillConvexPoly(
                frame, np.round(centre + 1.5 * (px - centre)).astype(np.int32), (200, 200, 200)
            )
    result = check_drift(calibration, groundround, frame)
    assert result.status == "moved"
    assert result.calibration is None
    assert "oche calibrate" in result.message


def test_calibration_for_another_image_size_is_refused(groundround, calibrated):
    calibration, _ = calibrated
    with pytest.raises(CalibrationFileError, match="made at 1280x720"):
        check_drift(calibration, groundround, np.zeros((480, 640, 3), np.uint8))


def test_calibration_for_another_board_is_refused(classic, calibrated):
    calibration, _ = calibrated
    with pytest.raises(CalibrationFileError, match="for board 'groundround', not 'classic'"):
        check_drift(calibration, classic, np.zeros((720, 1280, 3), np.uint8))


def test_markerless_drift(groundround):
    case = Case("groundround", 40, 200, 0, 0.0, noise=3, light=0.3, seed=42, markers=False)
    image, camera = view(case)
    calibration = calibrate_markerless(groundround, image).calibration
    still, _ = _shifted(groundround, case, camera, 0.0)
    assert check_drift(calibration, groundround, still).status == "ok"
    frame, moved = _shifted(groundround, case, camera, 0.0, 3.0)
    result = check_drift(calibration, groundround, frame)
    assert result.status == "recalibrated"
    assert board_error_mm(result.calibration, moved, groundround)[0] < 0.5


def test_mirrored_calibration_is_refused(groundround, calibrated):
    from calibration.errors import CalibrationError

    calibration, _ = calibrated
    flip = np.array([[-1.0, 0, groundround.width_mm], [0, 1, 0], [0, 0, 1]])
    mirrored = dataclasses.replace(calibration, homography=flip @ calibration.homography)
    with pytest.raises(CalibrationError, match="mirrored"):
        check_drift(mirrored, groundround, np.zeros((720, 1280, 3), np.uint8))
