"""A dart's shadow on the board is a straight band that starts at its point: the point
touches the board, so it is its own shadow. Where such a band, extended, crosses the dart's
line in the picture is therefore where the point is, whatever the camera's angle. The fork
of two shadows (``vision.shadows.at_shadow_fork``) and the choice of which end of a blob is
the point (``vision.tip.fit_tip``) both read it."""

from __future__ import annotations

import cv2
import numpy as np

# Half the width (mm) of the band that a shadow along the dart's own line takes beside it.
BAND_MM = 4.0
# A shadow band is at least this long (mm): a shorter run may be a grey point or a speck.
MIN_RUN_MM = 15.0
# A band is slender (length over width) and this many degrees or more off the dart's line:
# along the line it is the edge of the dart's own shadow, and its crossing is ill-defined.
SLENDER = 3.0
MIN_DEG = 20.0


def shadow_crossings(
    xs: np.ndarray,
    ys: np.ndarray,
    shape: tuple[int, ...],
    origin: np.ndarray,
    axis: np.ndarray,
    mm_per_px: float,
) -> list[float]:
    """Where straight shadow bands among the shadow-like pixels (``xs``, ``ys``) cross the
    dart's line when extended: px along ``axis`` from ``origin``. Only pixels beside the line
    count (off the band its own shadow there takes), and only bands that reach the line
    (their nearest pixel within two bands' width of it)."""
    normal = np.array([-axis[1], axis[0]])
    band = max(3.0, BAND_MM / mm_per_px)  # px
    beside = np.abs((xs - origin[0]) * normal[0] + (ys - origin[1]) * normal[1]) > band
    xs, ys = xs[beside], ys[beside]
    if len(xs) < 8:
        return []
    mask = np.zeros(shape[:2], np.uint8)
    mask[ys, xs] = 1
    count, labels = cv2.connectedComponents(mask, connectivity=8)
    crossings = []
    for k in range(1, count):
        ky, kx = np.nonzero(labels == k)
        if len(kx) < 8:
            continue
        pts = np.column_stack([kx, ky]).astype(np.float64)
        centre = pts.mean(axis=0)
        _, sv, vt = np.linalg.svd(pts - centre, full_matrices=False)
        direction = vt[0]
        spread = pts @ direction
        length = float(spread.max() - spread.min())
        width = 4.0 * float(sv[1]) / np.sqrt(len(kx))
        if length * mm_per_px < MIN_RUN_MM or length < SLENDER * max(width, 1.0):
            continue
        if abs(float(direction @ axis)) > np.cos(np.radians(MIN_DEG)):
            continue
        if float(np.min(np.abs((pts - origin) @ normal))) > 2.0 * band:
            continue
        step = -float((centre - origin) @ normal) / float(direction @ normal)
        crossings.append(float((centre + direction * step - origin) @ axis))
    return crossings
