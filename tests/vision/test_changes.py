"""How far two photos miss each other, read from their difference on printed edges, and
how a resampled photo is compared with an unresampled one."""

import cv2
import numpy as np
import pytest

from vision.align import warp_back
from vision.changes import (
    edge_strength,
    lowpass_absdiff,
    max_channel_absdiff,
    misregistration_px,
)
from vision.detector import Detector


def _printed_board(rng: np.random.Generator) -> np.ndarray:
    """A pale sheet with dark printed bars and rings of several widths (sharp edges)."""
    image = np.full((360, 640, 3), 215, np.uint8)
    for _ in range(40):
        x, y = rng.integers(0, 600), rng.integers(0, 330)
        cv2.rectangle(
            image,
            (x, y),
            (x + rng.integers(5, 40), y + rng.integers(5, 30)),
            tuple(int(v) for v in rng.integers(20, 120, 3)),
            -1,
        )
        cv2.circle(
            image,
            (rng.integers(0, 640), rng.integers(0, 360)),
            rng.integers(10, 80),
            tuple(int(v) for v in rng.integers(20, 120, 3)),
            2,
        )
    return cv2.GaussianBlur(image, (0, 0), 0.8)


def _photo(board: np.ndarray, shift: float, rng: np.random.Generator) -> np.ndarray:
    moved = cv2.warpAffine(
        board,
        np.float32([[1, 0, shift], [0, 1, 0]]),
        board.shape[1::-1],
        flags=cv2.INTER_CUBIC,
        borderMode=cv2.BORDER_REFLECT,
    )
    noisy = moved.astype(np.float32) + rng.normal(0.0, 2.0, moved.shape)
    return np.clip(noisy, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("shift", [0.0, 0.15, 0.3])
def test_the_residual_shift_is_read_from_the_edges_not_from_the_noise(shift):
    rng = np.random.default_rng(3)
    board = _printed_board(rng)
    first, second = _photo(board, 0.0, rng), _photo(board, shift, rng)
    diff = cv2.absdiff(first, second).max(axis=2).astype(np.float32)
    found = misregistration_px(diff, edge_strength(first), noise=2.0)
    # the far quantile of a shifted edge's change is about shift x slope: a fair estimate
    # is within a tenth of a pixel, and still photos of one scene read as none
    assert found == pytest.approx(shift, abs=0.1)


def test_a_plain_wall_has_no_edges_to_read_a_shift_from():
    rng = np.random.default_rng(4)
    wall = np.full((200, 300, 3), 180, np.uint8)
    a, b = _photo(wall, 0.0, rng), _photo(wall, 0.4, rng)
    diff = cv2.absdiff(a, b).max(axis=2).astype(np.float32)
    assert misregistration_px(diff, edge_strength(a), noise=2.0) == 0.0


def _thin_lines(rng: np.random.Generator) -> np.ndarray:
    """A pale sheet with thin printed lines and rings (a board's wires and fine print)."""
    image = np.full((360, 640, 3), 215, np.uint8)
    for _ in range(30):
        a, b = rng.integers(0, (640, 360), size=(2, 2))
        colour = tuple(int(v) for v in rng.integers(20, 120, 3))
        cv2.line(image, tuple(map(int, a)), tuple(map(int, b)), colour, 1, cv2.LINE_AA)
    for _ in range(10):
        centre = (int(rng.integers(0, 640)), int(rng.integers(0, 360)))
        colour = tuple(int(v) for v in rng.integers(20, 120, 3))
        cv2.circle(image, centre, int(rng.integers(10, 80)), colour, 1, cv2.LINE_AA)
    return image


def _held_in_hand(h: int, w: int) -> np.ndarray:
    """A camera turned by 0.4 degrees about the picture's centre, 0.3 % closer, tilted."""
    angle = np.radians(0.4)
    c, s = 1.003 * np.cos(angle), 1.003 * np.sin(angle)
    centre = np.array([[1, 0, w / 2], [0, 1, h / 2], [0, 0, 1]])
    turn = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
    tilt = np.array([[1, 0, 0], [0, 1, 0], [1e-6, -1e-6, 1]])
    return centre @ tilt @ turn @ np.linalg.inv(centre)


def _photo_held_in_hand(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A sheet of thin printed lines, the turn of a camera held in the hand, and the photo
    of the sheet taken so (resampled with the usual bicubic filter)."""
    board = _thin_lines(np.random.default_rng(seed))
    h, w = board.shape[:2]
    homography = _held_in_hand(h, w)
    photo = cv2.warpPerspective(
        board, homography, (w, h), flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_REFLECT
    )
    return board, homography, photo


def test_a_turned_photo_put_back_leaves_no_change_along_thin_printed_lines():
    board, homography, photo = _photo_held_in_hand(2)
    h, w = board.shape[:2]
    # a dart: a thin bar, 3 px wide, darker than the sheet, on the photo's own grid
    cv2.line(photo, (300, 150), (420, 200), (150, 150, 150), 3)
    back = warp_back(photo, homography, board)
    inner = (slice(20, -20), slice(20, -20))
    ends = np.float64([[[300, 150]], [[420, 200]]])
    a, b = cv2.perspectiveTransform(ends, np.linalg.inv(homography)).round().astype(int)
    dart = np.zeros((h, w), np.uint8)
    cv2.line(dart, tuple(map(int, a[0])), tuple(map(int, b[0])), 1, 1)
    dart = dart > 0
    lines = ~cv2.dilate(dart.astype(np.uint8), np.ones((9, 9), np.uint8)).astype(bool)
    # the photo lost a different share of the lines' fine detail than the sheet: pixel by
    # pixel the lines changed by more than a change threshold's worth
    plain = max_channel_absdiff(back, board).astype(np.float32)
    assert plain[inner][lines[inner]].max() > 30
    smoothed = lowpass_absdiff(back, board)
    # the same low-pass on both sides: the lines' ripple cancels, the dart stays
    assert smoothed[inner][lines[inner]].max() < 12
    assert np.median(smoothed[dart]) > 40  # of 65


def test_the_change_mask_drops_the_ripple_of_resampling_and_keeps_a_dart_across_lines():
    board, homography, photo = _photo_held_in_hand(4)
    h, w = board.shape[:2]
    # a long thin dart that crosses several printed lines
    cv2.line(photo, (100, 60), (540, 300), (150, 150, 150), 2, cv2.LINE_AA)
    back = warp_back(photo, homography, board)
    ends = np.float64([[[100, 60]], [[540, 300]]])
    a, b = cv2.perspectiveTransform(ends, np.linalg.inv(homography)).round().astype(int)
    dart = np.zeros((h, w), np.uint8)
    cv2.line(dart, tuple(map(int, a[0])), tuple(map(int, b[0])), 1, 1)
    near_dart = cv2.dilate(dart, np.ones((9, 9), np.uint8)).astype(bool)
    inner = np.zeros((h, w), bool)
    inner[20:-20, 20:-20] = True
    t = 20.0
    smooth = cv2.GaussianBlur(max_channel_absdiff(back, board).astype(np.float32), (3, 3), 0)
    plain = smooth > 0.8 * t
    ripple = Detector._resampling_ripple(back, board, board, t, lambda change: change)
    kept = plain & ~ripple
    # the lines' ripple passed the threshold pixel by pixel, and only it is dropped
    assert np.count_nonzero(plain & inner & ~near_dart) > 200
    assert np.count_nonzero(kept & inner & ~near_dart) < 10
    # the dart stays one piece where it crosses the lines
    _count, labels = cv2.connectedComponents(kept.astype(np.uint8), connectivity=8)
    on_dart = labels[(dart > 0) & inner]
    assert np.count_nonzero(on_dart) == on_dart.size
    assert len(np.unique(on_dart)) == 1
