"""How far two photos miss each other, read from their difference on printed edges."""

import cv2
import numpy as np
import pytest

from vision.changes import edge_strength, misregistration_px


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
