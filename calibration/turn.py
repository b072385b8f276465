"""Which turn of a steel-tip dartboard the camera sees.

A dartboard's painted face looks the same when turned about the bull by two segments (36
degrees for twenty segments): the colours alternate segment by segment, and the wires repeat.
Only the ring of numbers outside the doubles tells the turns apart. Matching the artwork can
therefore settle on a view that is turned by a multiple of 36 degrees and still reports a
close fit, most easily on a real board whose numbers are painted in another font than ours.
Here the photo is straightened into board millimetres with the view found, and its ring of
numbers is compared with the artwork's under every such turn.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from boards.model import Board

#: Resolution (px per mm) at which the ring of numbers is compared.
RING_PX_PER_MM = 2.0
#: How much better (in correlation) another turn must match before the view is turned.
MIN_GAIN = 0.05


def look_alike_turns(board: Board) -> tuple[float, ...]:
    """Turns (degrees, about the target's centre) under which the board's painted segments
    look the same; empty for a board that is not a steel-tip dartboard."""
    order = board.game.get("classic", {}).get("segment_order", [])
    if board.target is None or len(order) < 4 or len(order) % 2:
        return ()
    step = 720.0 / len(order)
    return tuple(step * k for k in range(1, len(order) // 2))


def numbers_ring(board: Board) -> tuple[tuple[float, float], float, float]:
    """(centre, inner radius, outer radius) in board mm of the ring that carries the numbers."""
    if board.target is None:
        raise ValueError(f"board {board.id!r} has no target, so no ring of numbers")
    inner = board.target.radius_mm
    outer = float(board.game.get("classic", {}).get("board_radius_mm", inner * 1.3))
    return board.target.center, inner, outer


def turned(homography: np.ndarray, centre: tuple[float, float], degrees: float) -> np.ndarray:
    """``homography`` (camera px -> board mm) followed by a turn of the board about ``centre``."""
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    cx, cy = centre
    turn = np.array([[c, -s, cx - c * cx + s * cy], [s, c, cy - s * cx - c * cy], [0, 0, 1]])
    out = turn @ homography
    return out / out[2, 2]


def _normalised(image: np.ndarray, sigma: float) -> np.ndarray:
    g = image.astype(np.float32)
    centred = g - cv2.GaussianBlur(g, (0, 0), sigma)
    return centred / (np.sqrt(cv2.GaussianBlur(centred * centred, (0, 0), sigma)) + 4.0)


def turn_scores(
    camera_gray: np.ndarray,
    art: np.ndarray,
    art_px_per_mm: float,
    homography: np.ndarray,
    board: Board,
) -> dict[float, float]:
    """Correlation of the photo's ring of numbers with the artwork's, for the view as found
    (turn 0) and for each look-alike turn of it; empty when too little of the ring is seen."""
    centre, inner, outer = numbers_ring(board)
    size = math.ceil(2 * outer * RING_PX_PER_MM)
    # ring px -> board mm
    to_board = np.array(
        [
            [1 / RING_PX_PER_MM, 0, centre[0] - outer],
            [0, 1 / RING_PX_PER_MM, centre[1] - outer],
            [0, 0, 1],
        ]
    )
    straighten = np.linalg.inv(homography) @ to_board
    flags = cv2.WARP_INVERSE_MAP
    photo = cv2.warpPerspective(
        camera_gray, straighten, (size, size), flags=flags | cv2.INTER_LINEAR
    )
    inside = cv2.warpPerspective(
        np.full(camera_gray.shape[:2], 255, np.uint8),
        straighten,
        (size, size),
        flags=flags | cv2.INTER_NEAREST,
    )
    expected = cv2.warpPerspective(
        art,
        np.diag([art_px_per_mm, art_px_per_mm, 1.0]) @ to_board,
        (size, size),
        flags=flags | cv2.INTER_AREA,
    )
    yy, xx = np.mgrid[0:size, 0:size]
    radius = np.hypot((xx + 0.5) / RING_PX_PER_MM - outer, (yy + 0.5) / RING_PX_PER_MM - outer)
    seen = (radius > inner + 3) & (radius < outer - 3) & (inside > 0)
    if seen.sum() < 0.5 * math.pi * (outer**2 - inner**2) * RING_PX_PER_MM**2:
        return {}
    sigma = 5.0 * RING_PX_PER_MM
    a = _normalised(photo, sigma)[seen]
    a = a - a.mean()
    expected = _normalised(expected, sigma)
    middle = ((size - 1) / 2, (size - 1) / 2)
    scores = {}
    for degrees in (0.0, *look_alike_turns(board)):
        # Seen turned by R, the photo's point q shows the artwork's point R q.
        rotate = cv2.getRotationMatrix2D(middle, -degrees, 1.0)
        b = cv2.warpAffine(expected, rotate, (size, size), flags=flags | cv2.INTER_LINEAR)[seen]
        b = b - b.mean()
        scores[degrees] = float((a * b).sum() / (np.sqrt((a * a).sum() * (b * b).sum()) + 1e-9))
    return scores


def best_turn(scores: dict[float, float]) -> float:
    """The turn whose ring of numbers matches clearly best; 0 when none beats the view found."""
    if 0.0 not in scores:
        return 0.0
    degrees = max(scores, key=scores.get)
    return degrees if scores[degrees] >= scores[0.0] + MIN_GAIN else 0.0
