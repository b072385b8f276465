"""Automatic calibration from the ArUco markers printed around the board.

Requirements for a fit (also in the README): at least 4 marker corners that agree with one
homography, spread so that their convex hull covers at least ``MIN_SPREAD`` of the board's
area. In practice that means 2 or more markers on different sides of the board, e.g. three
corner markers; all markers along one edge are refused because the fit would swing about
that edge. The board's own printed markers are matched by id; markers of other boards are
ignored (and named, when they are all the photo shows).
"""

from __future__ import annotations

import time
from functools import lru_cache

import cv2
import numpy as np

import boards
from boards.model import Board
from calibration.errors import CalibrationError
from calibration.fit import fit_homography, spread_fraction
from calibration.images import blur_hint, gray
from calibration.lens import Lens, undistort_points
from calibration.result import CalibrationResult, PointResidual, Report, make_calibration

#: The convex hull of the fitted corners must cover this fraction of the board.
MIN_SPREAD = 0.10


@lru_cache(maxsize=8)
def detector(dictionary_name: str, small_windows: bool = False) -> cv2.aruco.ArucoDetector:
    """The marker detector. ``small_windows``: fewer thresholding passes, for the small crops
    of the drift check (markers near where they are expected)."""
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary_name))
    params = cv2.aruco.DetectorParameters()
    # Line fits along the marker's contour: sub-pixel corners that stay accurate on
    # small, foreshortened markers (better than cornerSubPix on convex corners).
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_CONTOUR
    if small_windows:
        params.adaptiveThreshWinSizeMin = 7
        params.adaptiveThreshWinSizeMax = 27
        params.adaptiveThreshWinSizeStep = 20
    else:
        params.adaptiveThreshWinSizeMax = 53  # big windows keep large, near markers whole
    return cv2.aruco.ArucoDetector(dictionary, params)


def detect_markers(image: np.ndarray, dictionary_name: str) -> list[tuple[int, np.ndarray]]:
    """(id, 4 x 2 corners in image px) for every marker of the dictionary in the image."""
    corners, ids, _ = detector(dictionary_name).detectMarkers(gray(image))
    if ids is None:
        return []
    return [
        (int(i), c.reshape(4, 2).astype(np.float64))
        for i, c in zip(ids.ravel(), corners, strict=True)
    ]


def board_guess(ids: set[int], exclude: str) -> str | None:
    """The built-in board whose marker ids these are, if they are not ``exclude``'s."""
    for name in boards.BUILTIN:
        if name == exclude:
            continue
        try:
            other = boards.load(name)
        except Exception:  # a built-in board missing from this install
            continue
        if ids and ids <= {m.id for m in other.markers}:
            return other.id
    return None


def calibrate_from_markers(
    board: Board, image: np.ndarray, lens: Lens | None = None
) -> CalibrationResult:
    """Find the board's markers in ``image`` and fit the calibration (quality not enforced:
    see ``CalibrationResult.require_quality``)."""
    start = time.perf_counter()
    if not board.markers:
        raise CalibrationError(
            f"board {board.id!r} has no printed markers: calibrate from its artwork or from "
            "tapped points instead (oche calibrate --markerless, or --points)"
        )
    height, width = image.shape[:2]
    if lens is not None:
        lens = lens.for_size((width, height))
    found = detect_markers(image, board.marker_dictionary)
    known = {m.id: m for m in board.markers}
    ours = [(i, c) for i, c in found if i in known]
    foreign = sorted({i for i, _ in found if i not in known})
    notes: list[str] = []
    if not ours:
        guess = board_guess(set(foreign), board.id)
        if guess:
            raise CalibrationError(
                f"the markers in the photo ({_ids(foreign)}) belong to board {guess!r}, not "
                f"{board.id!r}: this looks like board {guess}. Fix: --board {guess}"
            )
        raise CalibrationError(
            f"none of the markers of board {board.id!r} ({_ids(sorted(known))}) was found in the "
            "photo. Fix: get the whole printed board in view, evenly lit and in focus; for a "
            "board without markers, calibrate from its artwork or from tapped points instead "
            "(oche calibrate --markerless, or --points)." + blur_hint(image)
        )
    if foreign:
        notes.append(f"ignored markers {_ids(foreign)}: not on board {board.id!r}")

    labels, pixels, board_pts, marker_of = [], [], [], []
    for marker_id, corners in ours:
        for k in range(4):
            labels.append(f"marker {marker_id} corner {k}")
            pixels.append(corners[k])
            board_pts.append(known[marker_id].corners[k])
            marker_of.append(marker_id)
    pixels_arr = np.array(pixels)
    board_arr = np.array(board_pts, dtype=np.float64)
    seen = sorted({i for i, _ in ours})
    missing = sorted(set(known) - set(seen))
    if len(pixels_arr) < 4:  # pragma: no cover - a detected marker always has 4 corners
        raise CalibrationError(f"too few marker corners; cannot see markers {_ids(missing)}")
    fit = fit_homography(undistort_points(pixels_arr, lens), board_arr)
    used = fit.inliers
    spread = spread_fraction(board_arr[used], (board.width_mm, board.height_mm))
    good_markers = sorted({marker_of[k] for k in range(len(labels)) if used[k]})
    rejected = sorted(set(seen) - set(good_markers))
    if used.sum() < 4 or spread < MIN_SPREAD:
        raise CalibrationError(
            f"not enough of the board's markers are visible: found {_ids(good_markers)}, "
            f"cannot see {_ids(sorted(set(known) - set(good_markers)))}. The usable corners "
            f"cover {spread:.0%} of the board; at least {MIN_SPREAD:.0%} is needed "
            "(e.g. three markers at different corners). Fix: uncover the markers, light "
            "them evenly, or get the whole board in view." + blur_hint(image)
        )
    if lens is None and fit.rms_mm > 1.0:
        notes.append(
            "no lens file given: a wide-angle lens bends straight lines and limits the "
            "accuracy; measure it with `oche calibrate-lens` and pass --lens"
        )
    if rejected:
        notes.append(
            f"markers {_ids(rejected)} were seen but do not fit the others (reflection, "
            "a loose sheet or a misprint?): left out"
        )
    points = tuple(
        PointResidual(
            labels[k],
            (float(pixels_arr[k, 0]), float(pixels_arr[k, 1])),
            (float(board_arr[k, 0]), float(board_arr[k, 1])),
            float(fit.residuals_mm[k]),
            used=bool(used[k]),
            flagged=not bool(used[k]),
        )
        for k in range(len(labels))
    )
    report = Report(
        method="markers",
        rms_mm=fit.rms_mm,
        max_mm=fit.max_mm,
        points=points,
        markers_found=tuple(good_markers),
        markers_missing=tuple(sorted(set(known) - set(good_markers))),
        spread=spread,
        notes=tuple(notes),
        ms=(time.perf_counter() - start) * 1000,
    )
    calibration = make_calibration(
        board,
        (width, height),
        fit,
        lens,
        {
            "method": "markers",
            "max_mm": round(fit.max_mm, 4),
            "markers_found": list(good_markers),
        },
    )
    return CalibrationResult(calibration, report)


def _ids(ids: list[int]) -> str:
    return ", ".join(map(str, ids)) if ids else "none"
