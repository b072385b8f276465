"""How much blurrier one picture of the board is than another (a camera that focused anew)."""

import cv2
import numpy as np
import pytest

from vision.focus import matching_blur, only_sharpness
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


@pytest.mark.parametrize("board_id", ["dartwars", "groundround", "classic"])
def test_the_blur_between_two_pictures_is_measured_either_way(board_id):
    before, now = _two_pictures(board_id, 1.0)
    for sigma in (0.5, 1.0):
        blurrier = cv2.GaussianBlur(now, (0, 0), sigma)
        assert matching_blur(blurrier, before) == pytest.approx(sigma, abs=0.15)
        assert matching_blur(before, blurrier) == pytest.approx(-sigma, abs=0.15)


def test_the_pictures_are_left_as_they_were():
    before, now = _two_pictures("groundround", 2.0)
    kept = before.copy(), now.copy()
    matching_blur(now, before)
    matching_blur(before, now)
    assert np.array_equal(before, kept[0]) and np.array_equal(now, kept[1])


@pytest.mark.parametrize("width, darker", [(2, 40), (3, 30)])
def test_a_thin_dart_on_a_plain_board_is_no_change_of_focus(width, darker):
    # blurred by 2 px a thin rod (here 2 and 1.5 times the threshold darker) flattens below
    # the threshold, but it lies on no printed edge
    rng = np.random.default_rng(6)
    scene = np.full((80, 80, 3), 180, np.uint8)
    roi = scene.copy()
    roi[38 : 38 + width, 10:70] = 180 - darker
    noisy = [
        np.clip(p + rng.normal(0.0, 2.0, p.shape), 0, 255).astype(np.uint8) for p in (roi, scene)
    ]
    group = np.zeros((80, 80), bool)
    group[38 : 38 + width, 10:70] = True
    span = (slice(38, 38 + width), slice(10, 70))
    assert not only_sharpness(group, span, noisy[0], noisy[1], 20.0)


def test_printed_edges_seen_in_another_focus_are_only_sharpness():
    before, now = _two_pictures("classic", 2.0)
    colour = [cv2.cvtColor(p.astype(np.uint8), cv2.COLOR_GRAY2BGR) for p in (before, now)]
    blurred = cv2.GaussianBlur(colour[1], (0, 0), 1.0)
    change = cv2.absdiff(blurred, colour[0]).max(axis=2) > 20.0
    assert change.sum() > 100  # the edges changed by the threshold and more
    ys, xs = np.nonzero(change)
    span = (slice(ys.min(), ys.max() + 1), slice(xs.min(), xs.max() + 1))
    assert only_sharpness(change, span, blurred, colour[0], 20.0)
