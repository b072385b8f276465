"""Properties of the homography fit and the view checks over random camera poses."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from calibration.errors import CalibrationError
from calibration.fit import apply, check_view, fit_homography
from vision.camera import look_at_board

SIZE_MM = (620.0, 660.0)
poses = st.tuples(st.floats(0, 60), st.floats(0, 360), st.floats(-20, 20), st.floats(-0.3, 0.0))


def _camera(pose):
    tilt, azimuth, roll, k1 = pose
    return look_at_board(
        SIZE_MM, tilt_deg=tilt, azimuth_deg=azimuth, roll_deg=roll, dist_coeffs=(k1, 0, 0, 0, 0)
    )


@given(poses, st.integers(0, 2**31))
def test_fit_recovers_every_real_view_and_ignores_gross_outliers(pose, seed):
    camera = _camera(pose)
    rng = np.random.default_rng(seed)
    board = rng.uniform((0, 0), SIZE_MM, (30, 2))
    pixels = camera.undistort_pixels(camera.project(board))
    pixels[:4] += rng.uniform(30, 80, (4, 2))  # four wild points
    fit = fit_homography(pixels, board)
    assert not fit.inliers[:4].any() and fit.inliers[4:].all()
    truth = camera.board_from_undistorted
    probe = rng.uniform((0, 0), SIZE_MM, (20, 2))
    seen = apply(np.linalg.inv(truth), probe)
    assert np.abs(apply(fit.homography, seen) - probe).max() < 1e-3
    check_view(fit.homography, SIZE_MM, camera.image_size)  # a real view passes


@given(poses)
def test_mirrored_views_are_refused(pose):
    camera = _camera(pose)
    flip = np.array([[-1.0, 0, SIZE_MM[0]], [0, 1, 0], [0, 0, 1]])
    with pytest.raises(CalibrationError, match="mirrored"):
        check_view(flip @ camera.board_from_undistorted, SIZE_MM, camera.image_size)


def test_points_on_a_line_are_refused():
    board = np.array([[0, 0], [100, 100], [200, 200], [300, 300], [400, 400]], dtype=float)
    with pytest.raises(CalibrationError, match="one line"):
        fit_homography(board * 1.5 + 40, board, robust=False)
