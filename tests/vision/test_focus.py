"""How much blurrier one picture of the board is than another (a camera that focused anew)."""

import cv2
import numpy as np
import pytest

from vision.focus import PHOTO_FOCUS_SIGMAS_PX, PHOTO_MIN_GAIN, matching_blur
from vision.sim.testing import make_session


def _two_pictures(board_id: str, noise: float) -> tuple[np.ndarray, np.ndarray]:
    """Two pictures of the same empty board, each with its own camera noise: grey float32
    windows of 384 px on the board's middle."""
    session = make_session(board_id, 3, lambda b: b.idle(2), noise=noise)
    frames = [image for _, _, image in session]
    h, w = frames[0].shape[:2]
    window = (slice(h // 2 - 192, h // 2 + 192), slice(w // 2 - 192, w // 2 + 192))
    return tuple(
        cv2.cvtColor(image[window], cv2.COLOR_BGR2GRAY).astype(np.float32) for image in frames[:2]
    )


def _photo_blur(now: np.ndarray, before: np.ndarray) -> float:
    return matching_blur(now, before, PHOTO_FOCUS_SIGMAS_PX, True, PHOTO_MIN_GAIN)


@pytest.mark.parametrize("board_id", ["dartwars", "groundround", "classic"])
@pytest.mark.parametrize("noise", [1.0, 3.0])
def test_the_blur_between_two_photos_is_measured_and_noise_is_no_blur(board_id, noise):
    before, now = _two_pictures(board_id, noise)
    # in the same focus: no blur, however noisy (any blur smooths noise away, which must not
    # pass for a focus)
    assert _photo_blur(now, before) == 0.0
    for sigma in (0.5, 0.8):
        blurrier = cv2.GaussianBlur(now, (0, 0), sigma)
        assert _photo_blur(blurrier, before) == pytest.approx(sigma, abs=0.1)
        assert _photo_blur(before, blurrier) == pytest.approx(-sigma, abs=0.1)


def test_the_pictures_are_left_as_they_were():
    before, now = _two_pictures("groundround", 2.0)
    kept = before.copy(), now.copy()
    _photo_blur(now, before)
    _photo_blur(before, now)
    assert np.array_equal(before, kept[0]) and np.array_equal(now, kept[1])
