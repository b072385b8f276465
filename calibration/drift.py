"""Drift check: is the board still where the calibration says? Run on a still, empty frame.

Marker boards: the markers are looked for only in small windows around where the calibration
projects them (a full-frame search only when those windows come up empty), a homography is
fitted to what is found, and the two calibrations are compared on a grid over the board: the
largest disagreement is how far the board "moved" in mm. Markerless calibrations compare the
artwork rendered through the calibration with the frame by one ECC step at half resolution.

Beyond ``THRESHOLD_MM`` the check recalibrates from what it found when that fit is good, and
otherwise says what to do.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import cv2
import numpy as np

from boards.model import Board
from calibration.errors import CalibrationError
from calibration.fit import apply, board_grid, check_view, fit_homography, spread_fraction
from calibration.images import gray
from calibration.lens import undistort_image
from calibration.markers import MIN_SPREAD, detector
from calibration.model import Calibration
from calibration.result import MAX_RMS_MM, lens_of

THRESHOLD_MM = 1.0


@dataclass(frozen=True)
class DriftResult:
    #: "ok" | "recalibrated" | "moved" (needs the user) | "unknown" (could not check)
    status: str
    moved_mm: float | None
    message: str
    calibration: Calibration | None = None  # the new calibration when recalibrated
    ms: float = 0.0

    def to_json(self) -> dict:
        return {
            "status": self.status,
            "moved_mm": None if self.moved_mm is None else round(self.moved_mm, 3),
            "message": self.message,
            "recalibrated": self.calibration is not None,
            "ms": round(self.ms, 2),
        }


def check_drift(
    calibration: Calibration,
    board: Board,
    frame: np.ndarray,
    threshold_mm: float = THRESHOLD_MM,
    reference=None,
) -> DriftResult:
    """Compare the frame with the calibration (see the module note)."""
    start = time.perf_counter()
    height, width = frame.shape[:2]
    calibration.check_fits(board.id, (width, height))
    check_view(calibration.homography, (board.width_mm, board.height_mm), (width, height))
    if board.markers and calibration.extra.get("method") != "markerless":
        result = _check_markers(calibration, board, frame, threshold_mm)
    else:
        result = _check_artwork(calibration, board, frame, threshold_mm, reference)
    return DriftResult(
        result.status,
        result.moved_mm,
        result.message,
        result.calibration,
        (time.perf_counter() - start) * 1000,
    )


def _displacement(old: np.ndarray, new: np.ndarray, board: Board) -> float:
    """Largest distance (mm) between where two homographies put the same image point, over
    a grid on the playing area (the zones' bounding box)."""
    x0, y0, x1, y1 = _play_area(board)
    grid = board_grid(x1 - x0, y1 - y0, 6, margin_mm=0.0) + np.array([x0, y0])
    pixels = apply(np.linalg.inv(old), grid)
    return float(np.linalg.norm(apply(new, pixels) - grid, axis=1).max())


def _play_area(board: Board) -> tuple[float, float, float, float]:
    if not board.zones:
        return 0.0, 0.0, board.width_mm, board.height_mm
    bounds = np.array([z.geometry.bounds for z in board.top_zones])
    return (
        float(bounds[:, 0].min()),
        float(bounds[:, 1].min()),
        float(bounds[:, 2].max()),
        float(bounds[:, 3].max()),
    )


def _find_markers_near(
    calibration: Calibration, board: Board, frame_gray: np.ndarray
) -> list[tuple[int, np.ndarray]]:
    height, width = frame_gray.shape[:2]
    det = detector(board.marker_dictionary, small_windows=True)
    known = {m.id for m in board.markers}
    found: list[tuple[int, np.ndarray]] = []
    for marker in board.markers:
        px = calibration.board_to_image(np.array(marker.corners))
        size = float(np.ptp(px, axis=0).max())
        pad = 0.6 * size + 12
        x0, y0 = np.floor(px.min(axis=0) - pad).astype(int)
        x1, y1 = np.ceil(px.max(axis=0) + pad).astype(int)
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(width, x1), min(height, y1)
        if x1 - x0 < 8 or y1 - y0 < 8:
            continue
        corners, ids, _ = det.detectMarkers(np.ascontiguousarray(frame_gray[y0:y1, x0:x1]))
        if ids is None:
            continue
        for i, c in zip(ids.ravel(), corners, strict=True):
            if int(i) == marker.id:
                found.append((int(i), c.reshape(4, 2).astype(np.float64) + np.array([x0, y0])))
    if len(found) < 3:  # the board may have moved far: look everywhere
        corners, ids, _ = detector(board.marker_dictionary).detectMarkers(frame_gray)
        if ids is not None:
            found = [
                (int(i), c.reshape(4, 2).astype(np.float64))
                for i, c in zip(ids.ravel(), corners, strict=True)
                if int(i) in known
            ]
    return found


def _check_markers(
    calibration: Calibration, board: Board, frame: np.ndarray, threshold_mm: float
) -> DriftResult:
    found = _find_markers_near(calibration, board, gray(frame))
    if not found:
        return DriftResult(
            "unknown",
            None,
            "cannot check the calibration: none of the board's markers is visible (something "
            "in front of the board, or the light is off?)",
        )
    markers = {m.id: m for m in board.markers}
    pixels = np.concatenate([c for _, c in found])
    board_pts = np.concatenate([np.array(markers[i].corners) for i, _ in found])
    undistorted = calibration.undistort(pixels)
    spread = spread_fraction(board_pts, (board.width_mm, board.height_mm))
    if len(pixels) < 4 or spread < MIN_SPREAD:
        # Too few markers for a new view: judge by the corners we do see.
        moved = float(
            np.median(
                np.linalg.norm(apply(calibration.homography, undistorted) - board_pts, axis=1)
            )
        )
        if moved <= threshold_mm:
            return DriftResult("ok", moved, f"board in place (checked on {len(found)} marker(s))")
        return DriftResult(
            "moved",
            moved,
            f"the board or camera moved by about {moved:.1f} mm and too few markers are "
            "visible to recalibrate. Fix: clear the markers and run `oche calibrate` again",
        )
    try:
        fit = fit_homography(undistorted, board_pts)
    except CalibrationError as exc:
        return DriftResult("unknown", None, f"cannot check the calibration: {exc}")
    moved = _displacement(calibration.homography, fit.homography, board)
    if moved <= threshold_mm:
        return DriftResult("ok", moved, f"board in place (within {moved:.2f} mm)")
    spread_used = spread_fraction(board_pts[fit.inliers], (board.width_mm, board.height_mm))
    if fit.rms_mm <= MAX_RMS_MM and spread_used >= MIN_SPREAD and len(found) >= 3:
        new = Calibration(
            board=calibration.board,
            image_size=calibration.image_size,
            homography=fit.homography,
            camera_matrix=calibration.camera_matrix,
            dist_coeffs=calibration.dist_coeffs,
            rms_mm=fit.rms_mm,
            extra={
                **dict(calibration.extra),
                "method": "markers",
                "max_mm": round(fit.max_mm, 4),
                "markers_found": sorted({i for i, _ in found}),
                "recalibrated_after_drift_mm": round(moved, 3),
            },
        )
        return DriftResult(
            "recalibrated",
            moved,
            f"the board or camera moved by {moved:.1f} mm: recalibrated from "
            f"{len(found)} markers (RMS {fit.rms_mm:.2f} mm)",
            new,
        )
    return DriftResult(
        "moved",
        moved,
        f"the board or camera moved by {moved:.1f} mm and the markers in view do not give a "
        "good new calibration. Fix: run `oche calibrate` again",
    )


def _check_artwork(
    calibration: Calibration,
    board: Board,
    frame: np.ndarray,
    threshold_mm: float,
    reference,
) -> DriftResult:
    from calibration.images import normalised
    from calibration.markerless import board_reference, predict, predict_mask, refine_view

    reference = reference or board_reference(board)
    lens = lens_of(calibration)
    photo = undistort_image(gray(frame), lens)
    # Full resolution, as the calibration was made (a coarser level has its own optimum,
    # which would read as a few tenths of a millimetre of drift on a still board), but only
    # on the board's bounding box.
    full = (photo.shape[1], photo.shape[0])
    mask_full = predict_mask(reference, calibration.homography, full)
    x, y, w, h = cv2.boundingRect(mask_full)
    if w < 32 or h < 32:
        return DriftResult("unknown", None, "cannot check: the board is not in the image")
    up = np.array([[1.0, 0, x], [0, 1.0, y], [0, 0, 1]])  # crop px -> image px
    h_level = calibration.homography @ up
    crop = photo[y : y + h, x : x + w]
    predicted = cv2.GaussianBlur(predict(reference, h_level, (w, h)), (0, 0), 0.6)
    warp = np.eye(3, dtype=np.float32)
    try:
        correlation, warp = cv2.findTransformECC(
            normalised(crop, 10.0),
            normalised(predicted, 10.0),
            warp,
            cv2.MOTION_HOMOGRAPHY,
            (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 15, 1e-5),
            np.ascontiguousarray(mask_full[y : y + h, x : x + w]),
            3,
        )
    except cv2.error:
        correlation = 0.0
    if correlation < 0.3:
        return DriftResult(
            "moved",
            None,
            "the artwork is no longer where the calibration expects it (or something covers "
            "the board). Fix: clear the board and run `oche calibrate` again",
        )
    new_h = h_level @ warp.astype(np.float64) @ np.linalg.inv(up)
    new_h /= new_h[2, 2]
    moved = _displacement(calibration.homography, new_h, board)
    if moved <= threshold_mm:
        return DriftResult("ok", moved, f"board in place (within {moved:.2f} mm)")
    try:
        refined, correlation = refine_view(photo, reference, new_h)
    except CalibrationError as exc:
        return DriftResult("moved", moved, f"the board or camera moved by {moved:.1f} mm: {exc}")
    new = Calibration(
        board=calibration.board,
        image_size=calibration.image_size,
        homography=refined,
        camera_matrix=calibration.camera_matrix,
        dist_coeffs=calibration.dist_coeffs,
        rms_mm=calibration.rms_mm,
        extra={
            **dict(calibration.extra),
            "correlation": round(correlation, 4),
            "recalibrated_after_drift_mm": round(moved, 3),
        },
    )
    return DriftResult(
        "recalibrated",
        moved,
        f"the board or camera moved by {moved:.1f} mm: recalibrated from the artwork",
        new,
    )
