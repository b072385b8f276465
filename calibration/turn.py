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
from calibration.images import normalised

#: Resolution (px per mm) at which the ring of numbers is compared.
RING_PX_PER_MM = 2.0
#: Angle steps per degree of the profile around the ring (a digit spans 2-3 degrees).
BINS_PER_DEGREE = 2.0
#: How much better (in correlation) another turn must match before the view is turned.
MIN_GAIN = 0.05


def look_alike_turns(board: Board) -> tuple[float, ...]:
    """Turns (degrees, about the target's centre) under which the board's painted segments
    look the same; empty for a board that is not a steel-tip dartboard."""
    order = board.segment_order
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


def _around(image: np.ndarray, inner: float, outer: float) -> np.ndarray:
    """``image`` (centred on the bull, ``RING_PX_PER_MM``) unrolled: one row per angle step,
    the columns of the ring of numbers only."""
    angles = round(360 * BINS_PER_DEGREE)
    radii = round(outer * RING_PX_PER_MM)
    middle = (image.shape[1] / 2 - 0.5, image.shape[0] / 2 - 0.5)
    polar = cv2.warpPolar(
        image.astype(np.float32),
        (radii, angles),
        middle,
        outer * RING_PX_PER_MM,
        cv2.INTER_LINEAR | cv2.WARP_POLAR_LINEAR,
    )
    return polar[:, round((inner + 3) * RING_PX_PER_MM) : round((outer - 3) * RING_PX_PER_MM)]


def turn_scores(
    camera_gray: np.ndarray,
    art: np.ndarray,
    art_px_per_mm: float,
    homography: np.ndarray,
    board: Board,
) -> dict[float, float]:
    """How well the photo's ring of numbers matches the artwork's, for the view as found
    (turn 0) and for each look-alike turn of it; empty when too little of the ring is seen.

    The ring is compared as a profile around the bull: the contrast of each angle step,
    averaged across the ring. Where the numbers sit across the ring, how big they are and in
    which font hardly matter then; how wide each number is and where the gaps are does."""
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
        np.full(camera_gray.shape[:2], 1, np.uint8),
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
    sigma = 5.0 * RING_PX_PER_MM
    seen = _around(inside, inner, outer)
    counted = seen.sum(axis=1)
    usable = counted > 0.5 * seen.shape[1]
    if usable.mean() < 0.5:
        return {}
    photo_profile = (_around(normalised(photo, sigma), inner, outer) * seen).sum(axis=1)
    photo_profile = photo_profile[usable] / counted[usable]
    photo_profile -= photo_profile.mean()
    art_profile = _around(normalised(expected, sigma), inner, outer).mean(axis=1)
    scores = {}
    for degrees in (0.0, *look_alike_turns(board)):
        # Seen turned by ``degrees``, the photo's angle a shows the artwork's angle a + degrees.
        shifted = np.roll(art_profile, -round(degrees * BINS_PER_DEGREE))[usable]
        shifted = shifted - shifted.mean()
        norm = math.sqrt(float((photo_profile**2).sum() * (shifted**2).sum())) + 1e-9
        scores[degrees] = float((photo_profile * shifted).sum() / norm)
    return scores


def best_turn(scores: dict[float, float]) -> float:
    """The turn whose ring of numbers matches clearly best; 0 when none beats the view found."""
    if 0.0 not in scores:
        return 0.0
    degrees = max(scores, key=scores.get)
    return degrees if scores[degrees] >= scores[0.0] + MIN_GAIN else 0.0
