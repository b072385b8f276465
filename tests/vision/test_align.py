"""Putting a moved picture back onto the empty board's grid."""

import cv2
import numpy as np
import pytest

from calibration.images import phase_shift
from vision.align import shift_back


def _textured(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    noise = rng.integers(0, 255, (180, 320, 3), dtype=np.uint8)
    return cv2.GaussianBlur(noise, (0, 0), 2.0)


@pytest.mark.parametrize("shift", [(0.37, -0.61), (2.5, 0.0), (-3.2, 7.9), (0.0, -11.45)])
def test_shift_back_is_opencvs_bicubic_warp(shift: tuple[float, float]) -> None:
    image = _textured(3)
    dx, dy = shift
    expected = cv2.warpAffine(
        image,
        np.float32([[1, 0, -dx], [0, 1, -dy]]),
        image.shape[1::-1],
        flags=cv2.INTER_CUBIC,
        borderMode=cv2.BORDER_REPLICATE,
    )
    got = shift_back(image, shift)
    assert got.shape == image.shape and got.dtype == image.dtype
    inner = (slice(16, -16), slice(16, -16))
    assert np.abs(got[inner].astype(int) - expected[inner].astype(int)).max() <= 1


def test_shift_back_undoes_a_camera_move() -> None:
    board = _textured(5)
    moved = cv2.warpAffine(
        board, np.float32([[1, 0, 1.3], [0, 1, -0.4]]), board.shape[1::-1], flags=cv2.INTER_CUBIC
    )
    back = shift_back(moved, (1.3, -0.4))
    inner = (slice(16, -16), slice(16, -16))
    error = np.abs(back[inner].astype(int) - board[inner].astype(int))
    assert error.mean() < 1.0
    # and the move itself was visible: the test would catch a shift_back that did nothing
    assert np.abs(moved[inner].astype(int) - board[inner].astype(int)).mean() > 5 * error.mean()


def test_phase_shift_measures_a_move_and_leaves_both_pictures_as_they_were() -> None:
    grey = cv2.cvtColor(_textured(7), cv2.COLOR_BGR2GRAY).astype(np.float32)
    moved = cv2.warpAffine(grey, np.float32([[1, 0, 2.0], [0, 1, -3.0]]), grey.shape[::-1])
    kept_grey, kept_moved = grey.copy(), moved.copy()
    window = cv2.createHanningWindow(grey.shape[::-1], cv2.CV_32F)
    (dx, dy), response = phase_shift(grey, moved, window)
    assert abs(dx - 2.0) < 0.1 and abs(dy + 3.0) < 0.1 and response > 0.3
    assert np.array_equal(grey, kept_grey) and np.array_equal(moved, kept_moved)


def test_a_photo_measured_again_gives_the_same_shift() -> None:
    """The empty board's picture is kept for every later photo: measuring one photo's move
    must leave it as it was (OpenCV's phase correlation tapers its inputs in place)."""
    import boards
    from vision.detector import Detector
    from vision.frames import Frame
    from vision.sim.scenario import random_session

    session = random_session(boards.load("classic"), 3)
    _name, timestamp, empty = next(iter(session))
    detector = Detector(session.board, session.calibration)
    detector.process_still(Frame(empty, timestamp, "empty"))
    photo = shift_back(empty, (-0.4, 0.3))  # the camera moved by (0.4, -0.3) px
    first = detector._estimate_shift(photo)
    again = detector._estimate_shift(photo)
    assert first is not None and again == first
    assert abs(first[0] - 0.4) < 0.05 and abs(first[1] + 0.3) < 0.05
