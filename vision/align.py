"""Putting a photo back onto the empty board's pixel grid when the camera turned a little.

Photos taken one by one, with a phone in the hand or a tripod touched, differ from the empty
board's photo by more than a shift: the camera turned and tilted a fraction of a degree. The
board is flat, so a homography maps one photo onto the other exactly; it is refined from the
shift (phase correlation) by ECC on high-passed pictures, at half size (its error there is a
few hundredths of a pixel, and it is four times cheaper)."""

from __future__ import annotations

import math

import cv2
import numpy as np

from calibration.images import phase_shift

# A homography that moves no corner of the board further than this (px) from the pure
# shift is a shift: the shift's cheaper and exact path is kept.
TURN_PX = 0.15
# Shading smoother than this (Gaussian sigma, px of the camera's picture) is light, not print.
SHADING_PX = 6.0
# A shift further than this (px) is no camera touched or board knocked: another scene.
MAX_SHIFT_PX = 40.0
# Phase correlation alone is good to a few hundredths of a pixel below this shift (px).
EXACT_SHIFT_PX = 0.03


def high_pass(image: np.ndarray) -> np.ndarray:
    """Grey picture without its smooth shading (light), for aligning two photos."""
    return high_pass_grey(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32))


def high_pass_grey(grey: np.ndarray, scale: float = 1.0) -> np.ndarray:
    """A grey picture (float32) without its smooth shading (light); ``scale``: how many
    times smaller than the camera's picture it is."""
    return grey - cv2.GaussianBlur(grey, (0, 0), SHADING_PX / scale)


def half(image: np.ndarray) -> np.ndarray:
    """The picture at half size (area averaging)."""
    return cv2.resize(
        image, (image.shape[1] // 2, image.shape[0] // 2), interpolation=cv2.INTER_AREA
    )


def measure_shift(
    reference: np.ndarray, picture: np.ndarray, window: np.ndarray, scale: float = 1.0
) -> tuple[float, float] | None:
    """How far (px, times ``scale``: pictures made smaller by it) ``picture`` moved against
    ``reference`` (both high-passed), or None if it cannot be told (a person in front, a
    different scene)."""
    (dx, dy), response = phase_shift(reference, picture, window)
    if response < 0.1 or math.hypot(dx, dy) * scale > MAX_SHIFT_PX:
        return None
    if math.hypot(dx, dy) * scale < EXACT_SHIFT_PX:
        # Phase correlation is good to a few hundredths here: whatever shift is left
        # changes the sharpest printed edge by less than the change threshold, and the
        # refinement below is most of the time this takes.
        return dx * scale, dy * scale
    dx, dy = refine_shift(reference, picture, (dx, dy))
    return dx * scale, dy * scale


def refine_shift(
    reference: np.ndarray, picture: np.ndarray, start: tuple[float, float]
) -> tuple[float, float]:
    """A shift of ``picture`` against ``reference`` (high-passed, same size) refined from
    ``start`` by ECC to a few hundredths of a pixel; ``start`` if ECC does not converge."""
    warp = np.float32([[1, 0, start[0]], [0, 1, start[1]]])
    try:
        _, warp = cv2.findTransformECC(
            reference,
            picture,
            warp,
            cv2.MOTION_TRANSLATION,
            (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 40, 1e-5),
            None,
            3,
        )
    except cv2.error:
        return start
    return float(warp[0, 2]), float(warp[1, 2])


def refine_homography(
    reference_half: np.ndarray,
    photo_half: np.ndarray,
    shift: tuple[float, float],
    scale: float = 2.0,
) -> np.ndarray | None:
    """The full-size homography taking empty-board pixels to this photo's (both pictures
    high-passed and made ``scale`` times smaller: halved unless said), starting from
    ``shift`` (full-size px). None if ECC does not converge."""
    to_half = np.diag([1 / scale, 1 / scale, 1.0])
    start = shift_matrix(shift)
    warp = (to_half @ start @ np.linalg.inv(to_half)).astype(np.float32)
    try:
        _, warp = cv2.findTransformECC(
            reference_half,
            photo_half,
            warp,
            cv2.MOTION_HOMOGRAPHY,
            (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 60, 1e-6),
            None,
            3,
        )
    except cv2.error:
        return None
    return np.linalg.inv(to_half) @ warp.astype(np.float64) @ to_half


def turned_px(homography: np.ndarray, shift: tuple[float, float], points: np.ndarray) -> float:
    """How far (px) the homography moves ``points`` (n x 2: the board's corners in the
    picture, where the alignment matters) beyond the pure shift."""
    at = np.asarray(points, np.float64).reshape(-1, 1, 2)
    moved = cv2.perspectiveTransform(at, homography).reshape(-1, 2)
    return float(np.abs(moved - at.reshape(-1, 2) - np.asarray(shift)).max())


def shift_matrix(shift: tuple[float, float]) -> np.ndarray:
    """The homography of a pure shift (px)."""
    return np.array([[1, 0, shift[0]], [0, 1, shift[1]], [0, 0, 1]], np.float64)


def apart_px(first: np.ndarray, second: np.ndarray, points: np.ndarray) -> float:
    """How far apart (px) two homographies put any of ``points`` (n x 2)."""
    at = np.asarray(points, np.float64).reshape(-1, 1, 2)
    one = cv2.perspectiveTransform(at, first).reshape(-1, 2)
    other = cv2.perspectiveTransform(at, second).reshape(-1, 2)
    return float(np.linalg.norm(one - other, axis=1).max())


def _cubic_weights(fraction: float, a: float = -0.75) -> np.ndarray:
    """Bicubic (Keys, OpenCV's a = -0.75) weights of the samples at -1, 0, 1, 2 around a
    point ``fraction`` of a pixel past the sample 0."""
    x = np.abs(np.array([1 + fraction, fraction, 1 - fraction, 2 - fraction]))
    near = ((a + 2) * x - (a + 3)) * x * x + 1
    far = ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    return np.where(x < 1, near, far).astype(np.float32)


def shift_back(image: np.ndarray, shift: tuple[float, float]) -> np.ndarray:
    """``image`` moved back by ``shift`` (px): the output's pixel (x, y) is the input's at
    (x + dx, y + dy), bicubic. A separable four-tap filter for the fraction and a copy for
    the whole pixels: three times cheaper than a general bicubic warp, and the same to a grey
    level. The few pixels along the border that the shift uncovers are the edge repeated."""
    dx, dy = shift
    whole_x, whole_y = math.floor(dx), math.floor(dy)
    kx, ky = _cubic_weights(dx - whole_x), _cubic_weights(dy - whole_y)
    blended = cv2.sepFilter2D(image, -1, kx, ky, anchor=(1, 1), borderType=cv2.BORDER_REPLICATE)
    if whole_x == 0 and whole_y == 0:
        return blended
    h, w = image.shape[:2]
    px, py = abs(whole_x), abs(whole_y)
    padded = cv2.copyMakeBorder(blended, py, py, px, px, cv2.BORDER_REPLICATE)
    return np.ascontiguousarray(
        padded[py + whole_y : py + whole_y + h, px + whole_x : px + whole_x + w]
    )


def warp_back(image: np.ndarray, homography: np.ndarray, fill: np.ndarray) -> np.ndarray:
    """``image`` put onto the empty board's grid (``homography``: board grid -> photo); where
    the photo did not reach, ``fill`` (the empty board) stands in."""
    h, w = image.shape[:2]
    flags = cv2.INTER_CUBIC | cv2.WARP_INVERSE_MAP
    out = cv2.warpPerspective(
        image, homography, (w, h), flags=flags, borderMode=cv2.BORDER_REPLICATE
    )
    seen = cv2.warpPerspective(
        np.full((h, w), 255, np.uint8),
        homography,
        (w, h),
        flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP,
    )
    # a pixel next to the border blends the replicated edge in: treat it as unseen
    unseen = cv2.erode(seen, np.ones((5, 5), np.uint8)) == 0
    out[unseen] = fill[unseen]
    return out
