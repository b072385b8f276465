"""Robust homography fitting from image points to board millimetres, and its sanity checks.

All image points given here are *undistorted* pixels (lens correction already applied), so a
single homography maps them onto the flat board.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from shapely.geometry import MultiPoint

from calibration.errors import CalibrationError

#: RANSAC inlier threshold in image px: far above corner noise, far below a mismatch.
RANSAC_THRESHOLD_PX = 3.0


@dataclass(frozen=True)
class Fit:
    """A homography (undistorted px -> board mm) and how well each point agrees with it."""

    homography: np.ndarray
    inliers: np.ndarray  # bool per point
    residuals_mm: np.ndarray  # distance on the board between fitted and given position

    @property
    def rms_mm(self) -> float:
        r = self.residuals_mm[self.inliers]
        return float(np.sqrt(np.mean(r**2))) if len(r) else float("inf")

    @property
    def max_mm(self) -> float:
        r = self.residuals_mm[self.inliers]
        return float(r.max()) if len(r) else float("inf")


def apply(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, homography).reshape(-1, 2)


def residuals(homography: np.ndarray, image_pts: np.ndarray, board_pts: np.ndarray) -> np.ndarray:
    return np.linalg.norm(apply(homography, image_pts) - np.asarray(board_pts), axis=1)


def fit_homography(
    image_pts: np.ndarray,
    board_pts: np.ndarray,
    robust: bool = True,
    threshold_px: float = RANSAC_THRESHOLD_PX,
) -> Fit:
    """Fit undistorted px -> board mm: USAC (MAGSAC) to find inliers, then Levenberg-Marquardt
    on the inliers only.

    The model is fitted board -> image and inverted: the measurement noise (marker corners,
    taps) lives in image pixels, so that is where the squared error is minimised; at steep
    angles this weighs near points (many px per mm) more than far ones, as it should.
    """
    src = np.asarray(image_pts, dtype=np.float64).reshape(-1, 2)
    dst = np.asarray(board_pts, dtype=np.float64).reshape(-1, 2)
    if len(src) < 4:
        raise CalibrationError(
            f"only {len(src)} point(s): a homography needs at least 4 well-spread points"
        )
    inliers = np.ones(len(src), dtype=bool)
    if robust and len(src) > 4:
        g, mask = cv2.findHomography(dst, src, cv2.USAC_MAGSAC, threshold_px, maxIters=5000)
        if g is None:
            g, mask = cv2.findHomography(dst, src, cv2.RANSAC, threshold_px)
        if g is not None and mask is not None and int(mask.sum()) >= 4:
            inliers = mask.ravel().astype(bool)
    h = _fit_inverse(src[inliers], dst[inliers])
    if robust and len(src) > 4:
        # A second look with the refined model: keep every point it explains well.
        again = _pixel_errors(h, src, dst) <= threshold_px
        if again.sum() >= 4:
            inliers = again
            h = _fit_inverse(src[inliers], dst[inliers])
    return Fit(h, inliers, residuals(h, src, dst))


def _fit_inverse(src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    g, _ = cv2.findHomography(dst, src, 0)
    if (
        g is None
        or not np.all(np.isfinite(g))
        or abs(np.linalg.det(g)) < 1e-12 * np.abs(g).max() ** 3
    ):
        raise CalibrationError(
            "the points do not define a view of the board (all on one line, or repeated): "
            "use points spread over the whole board"
        )
    h = np.linalg.inv(g)
    return h / h[2, 2]


def _pixel_errors(h: np.ndarray, src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    return np.linalg.norm(apply(np.linalg.inv(h), dst) - src, axis=1)


def spread_fraction(board_pts: np.ndarray, board_size_mm: tuple[float, float]) -> float:
    """The area of the convex hull of the points as a fraction of the board's area."""
    pts = np.asarray(board_pts, dtype=np.float64).reshape(-1, 2)
    if len(pts) < 3:
        return 0.0
    hull = MultiPoint([tuple(p) for p in pts]).convex_hull
    return float(hull.area / (board_size_mm[0] * board_size_mm[1]))


def check_view(
    homography: np.ndarray,
    board_size_mm: tuple[float, float],
    image_size: tuple[int, int],
) -> None:
    """Refuse a homography that cannot be a camera looking at the printed board.

    Singular, mirrored (seen from behind or a flipped photo) or folding (the board's corners
    on both sides of the camera's horizon) views all raise ``CalibrationError``.
    """
    h = np.asarray(homography, dtype=np.float64)
    if not np.all(np.isfinite(h)):
        raise CalibrationError("the fitted mapping has infinite values: recalibrate")
    scale = np.abs(h).max()
    if scale == 0 or abs(np.linalg.det(h / scale)) < 1e-12:
        raise CalibrationError(
            "the fitted mapping is singular (the points lie on a line): "
            "use points spread over the board"
        )
    w, ht = board_size_mm
    corners = np.array([[0, 0], [w, 0], [w, ht], [0, ht], [w / 2, ht / 2]], dtype=np.float64)
    inverse = np.linalg.inv(h)
    homogeneous = np.column_stack([corners, np.ones(len(corners))]) @ inverse.T
    if not (np.all(homogeneous[:, 2] > 0) or np.all(homogeneous[:, 2] < 0)):
        raise CalibrationError(
            "the fitted view folds the board over the horizon: the points do not match "
            "the board; check the tapped points or the board id"
        )
    image = homogeneous[:, :2] / homogeneous[:, 2:3]
    if _orientation(image[:4]) <= 0:
        raise CalibrationError(
            "the fitted view is mirrored: the image is flipped (selfie camera or a mirror) "
            "or the points are given in the wrong order. Fix: turn off mirroring, or check "
            "the points"
        )
    area = abs(_orientation(image[:4]))
    if area < 0.002 * image_size[0] * image_size[1]:
        raise CalibrationError(
            "the board would cover almost none of the image: the points do not match the board"
        )


def _orientation(quad: np.ndarray) -> float:
    """Signed area (shoelace, y down): positive when the corners run clockwise on screen,
    as the board's own corners do."""
    x, y = quad[:, 0], quad[:, 1]
    return float(0.5 * (np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))


def board_grid(
    width_mm: float, height_mm: float, n: int = 12, margin_mm: float = 15.0
) -> np.ndarray:
    """An n x n grid of board points (mm), ``margin_mm`` in from the sheet's edges."""
    gx, gy = np.meshgrid(
        np.linspace(margin_mm, width_mm - margin_mm, n),
        np.linspace(margin_mm, height_mm - margin_mm, n),
    )
    return np.column_stack([gx.ravel(), gy.ravel()])
