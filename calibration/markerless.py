"""Markerless calibration: match the board's artwork to the camera image.

The reference is the board's printed artwork without markers (rendered from the board file)
or a scan / PNG the user supplies with its dpi. Two stages:

1. A rough view from features: SIFT (ORB when SIFT is unavailable or finds too little) on
   the artwork and on copies of it squeezed as a camera 55 degrees off-axis would see it (an
   ASIFT-like trick: plain SIFT stops matching beyond ~45 degrees), Lowe's ratio test, and a
   robust homography (USAC MAGSAC).
2. Analysis by synthesis: the artwork is rendered into the camera's frame with the current
   view and aligned to the photo by ECC (enhanced correlation coefficient) on locally
   normalised images, which cancels uneven light; coarse to fine, a few rounds. Comparing
   at the camera's own resolution keeps feature positions from shifting with blur.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from boards.model import Board
from boards.printing import render_png
from boards.scene import build_scene
from calibration.errors import CalibrationError
from calibration.fit import Fit, apply, check_view, spread_fraction
from calibration.images import blur_hint, gray, normalised, phase_shift, read_image
from calibration.lens import Lens, undistort_image
from calibration.result import CalibrationResult, PointResidual, Report, make_calibration
from calibration.turn import best_turn, look_alike_turns, numbers_ring, turn_scores, turned

#: Resolution of the artwork kept for rendering predictions (px per mm).
ART_PX_PER_MM = 3.0
#: Resolution at which features are taken from the artwork.
FEATURE_PX_PER_MM = 1.0
#: Squeezes (1 / cos tilt) and directions simulated on the artwork for feature matching.
SIMULATED_TILTS = ((1.75, 4),)
MIN_MATCHES = 12
RATIO = 0.8
#: Feature matches within this distance (mm) of the final view count as agreeing.
AGREE_MM = 4.0
#: Below this correlation the artwork and the photo do not show the same thing.
MIN_CORRELATION = 0.3


@dataclass
class Reference:
    """The artwork to match: a grey image at ``ART_PX_PER_MM`` (pixel (0, 0) = board (0, 0))."""

    image: np.ndarray
    source: str  # "board" or the scan's path
    _features: dict = field(default_factory=dict, repr=False)

    def features(self, kind: str) -> tuple[np.ndarray, np.ndarray]:
        """(points in board mm, descriptors) over the artwork and its simulated tilts."""
        if kind not in self._features:
            self._features[kind] = _reference_features(self.image, kind)
        return self._features[kind]


_BOARD_REFERENCES: dict[int, Reference] = {}


def board_reference(board: Board) -> Reference:
    """The board's own artwork (without markers), cached per board."""
    key = id(board)
    if key not in _BOARD_REFERENCES:
        if len(_BOARD_REFERENCES) > 4:
            _BOARD_REFERENCES.clear()
        image = render_png(build_scene(board, markers=False), ART_PX_PER_MM * 25.4)
        _BOARD_REFERENCES[key] = Reference(gray(image), "board")
    return _BOARD_REFERENCES[key]


def scan_reference(path: str | Path, dpi: float, board: Board) -> Reference:
    """A user's scan or PNG of the printed board: pixel (0, 0) is board (0, 0) at ``dpi``."""
    if not (dpi and 10 <= dpi <= 2400):
        raise CalibrationError(f"--reference-dpi {dpi} is out of range: give the scan's dpi")
    image = gray(read_image(path, "reference"))
    px_per_mm = dpi / 25.4
    size_mm = (image.shape[1] / px_per_mm, image.shape[0] / px_per_mm)
    if not (0.8 < size_mm[0] / board.width_mm < 1.25 and 0.8 < size_mm[1] / board.height_mm < 1.25):
        raise CalibrationError(
            f"{path}: at {dpi:g} dpi the scan is {size_mm[0]:.0f} x {size_mm[1]:.0f} mm but "
            f"board {board.id!r} is {board.width_mm:.0f} x {board.height_mm:.0f} mm. Fix: "
            "give the scan's true --reference-dpi, cropped to the sheet"
        )
    return Reference(_rescale(image, ART_PX_PER_MM / px_per_mm, board), str(path))


def _rescale(image: np.ndarray, scale: float, board: Board) -> np.ndarray:
    """Resample so that pixel centres keep meaning board mm * new px_per_mm."""
    if scale < 1:
        image = cv2.GaussianBlur(image, (0, 0), 0.5 / scale)
    m = np.array([[scale, 0, 0.5 * scale - 0.5], [0, scale, 0.5 * scale - 0.5]])
    size = (round(board.width_mm * ART_PX_PER_MM), round(board.height_mm * ART_PX_PER_MM))
    return cv2.warpAffine(image, m, size, flags=cv2.INTER_LINEAR, borderValue=255)


# --- stage 1: features ------------------------------------------------------------------
def _extractor(kind: str):
    if kind == "sift":
        return cv2.SIFT_create(contrastThreshold=0.02)
    return cv2.ORB_create(nfeatures=4000, scaleFactor=1.2, nlevels=10, fastThreshold=10)


def _reference_features(art: np.ndarray, kind: str) -> tuple[np.ndarray, np.ndarray]:
    scale = FEATURE_PX_PER_MM / ART_PX_PER_MM
    small = cv2.resize(art, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    extractor = _extractor(kind)
    h, w = small.shape
    views = [(np.eye(3), small)]
    for squeeze, directions in SIMULATED_TILTS:
        blurred = cv2.GaussianBlur(small, (0, 0), 0.5 * math.sqrt(squeeze**2 - 1))
        for k in range(directions):
            rotate = np.vstack(
                [cv2.getRotationMatrix2D((0, 0), 180.0 * k / directions, 1), [0, 0, 1]]
            )
            m = np.diag([1 / squeeze, 1, 1]) @ rotate
            box = cv2.perspectiveTransform(
                np.float64([[0, 0], [w, 0], [w, h], [0, h]]).reshape(-1, 1, 2), m
            ).reshape(-1, 2)
            m = np.array([[1, 0, -box[:, 0].min()], [0, 1, -box[:, 1].min()], [0, 0, 1]]) @ m
            size = (int(np.ptp(box[:, 0])) + 1, int(np.ptp(box[:, 1])) + 1)
            views.append((m, cv2.warpAffine(blurred, m[:2], size, borderValue=255)))
    points, descriptors = [], []
    for m, view in views:
        keypoints, desc = extractor.detectAndCompute(view, None)
        if desc is None:
            continue
        pts = np.array([k.pt for k in keypoints], dtype=np.float64).reshape(-1, 1, 2)
        back = cv2.perspectiveTransform(pts, np.linalg.inv(m)).reshape(-1, 2)
        points.append(back / FEATURE_PX_PER_MM)
        descriptors.append(desc)
    if not points:
        return np.empty((0, 2)), np.empty((0, 32), np.uint8)
    return np.concatenate(points), np.concatenate(descriptors)


def _match(
    camera_gray: np.ndarray, reference: Reference, kind: str
) -> tuple[np.ndarray, np.ndarray]:
    """Matched (camera px, board mm) pairs. The ratio test skips neighbours that are the same
    artwork spot seen in another simulated view."""
    keypoints, desc = _extractor(kind).detectAndCompute(camera_gray, None)
    ref_pts, ref_desc = reference.features(kind)
    if desc is None or len(ref_desc) < 2:
        return np.empty((0, 2)), np.empty((0, 2))
    norm = cv2.NORM_L2 if kind == "sift" else cv2.NORM_HAMMING
    src, dst = [], []
    for candidates in cv2.BFMatcher(norm).knnMatch(desc, ref_desc, k=6):
        if not candidates:
            continue
        best = candidates[0]
        where = ref_pts[best.trainIdx]
        second = next(
            (c for c in candidates[1:] if np.hypot(*(ref_pts[c.trainIdx] - where)) > 3.0), None
        )
        if second is None or best.distance < RATIO * second.distance:
            src.append(keypoints[best.queryIdx].pt)
            dst.append(where)
    return np.array(src, dtype=np.float64).reshape(-1, 2), np.array(dst).reshape(-1, 2)


def _plausible(h: np.ndarray | None, reference: Reference, image_size: tuple[int, int]) -> bool:
    """False for the degenerate models (the board squashed onto a line, mirrored, folded)
    that random matches sometimes support."""
    if h is None:
        return False
    board_size = (
        reference.image.shape[1] / ART_PX_PER_MM,
        reference.image.shape[0] / ART_PX_PER_MM,
    )
    try:
        check_view(h, board_size, image_size)
    except CalibrationError:
        return False
    return True


def rough_view(
    camera_gray: np.ndarray, reference: Reference
) -> tuple[np.ndarray, np.ndarray, np.ndarray, str]:
    """(homography camera px -> board mm, matched camera px, matched board mm, feature kind)."""
    best: tuple = (0, None, np.empty((0, 2)), np.empty((0, 2)), "")
    image_size = (camera_gray.shape[1], camera_gray.shape[0])
    for kind in ("sift", "orb"):
        try:
            src, dst = _match(camera_gray, reference, kind)
        except (cv2.error, AttributeError):  # SIFT missing from this OpenCV build
            continue
        if len(src) < MIN_MATCHES:
            continue
        for method in (cv2.USAC_MAGSAC, cv2.RANSAC):
            h, mask = cv2.findHomography(src, dst, method, 3.0, maxIters=10000)
            count = 0 if mask is None else int(mask.sum())
            if _plausible(h, reference, image_size):
                if count > best[0]:
                    best = (count, h / h[2, 2], src, dst, kind)
                break
        if best[0] >= 2 * MIN_MATCHES:
            break
    count, h, src, dst, kind = best
    if h is None or count < MIN_MATCHES:
        raise CalibrationError(
            f"the board's artwork was not recognised in the photo ({count} matching features, "
            f"{MIN_MATCHES} needed). Fix: get the whole board in view, evenly lit and in "
            "focus; or calibrate with a scan of your printed board (oche calibrate "
            "--markerless --reference SCAN --reference-dpi DPI)." + blur_hint(camera_gray)
        )
    return h, src, dst, kind


# --- stage 2: analysis by synthesis ------------------------------------------------------
def predict(reference: Reference, homography: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The artwork as the camera would see it (undistorted frame) under ``homography``."""
    to_art = np.diag([ART_PX_PER_MM, ART_PX_PER_MM, 1.0]) @ homography
    flags = cv2.INTER_AREA | cv2.WARP_INVERSE_MAP
    return cv2.warpPerspective(reference.image, to_art, size, flags=flags, borderValue=0)


def refine_view(
    camera_gray: np.ndarray, reference: Reference, homography: np.ndarray
) -> tuple[np.ndarray, float]:
    """ECC alignment of the predicted artwork to the photo, coarse to fine. ``homography`` maps
    undistorted camera px -> board mm; returns the refined one and the final correlation."""
    h = homography.copy()
    correlation = 0.0
    full = camera_gray.shape[1], camera_gray.shape[0]
    for level, iterations in ((2, 60), (2, 40), (1, 40)):
        # camera px at this level u' -> full px u = level * u' + (level - 1) / 2
        up = np.array([[level, 0, (level - 1) / 2], [0, level, (level - 1) / 2], [0, 0, 1]])
        size = (full[0] // level, full[1] // level)
        photo = cv2.resize(camera_gray, size, interpolation=cv2.INTER_AREA)
        h_level = h @ up
        predicted = predict(reference, h_level, size)
        predicted = cv2.GaussianBlur(predicted, (0, 0), 0.6)
        mask = predict_mask(reference, h_level, size)
        warp = np.eye(3, dtype=np.float32)
        try:
            correlation, warp = cv2.findTransformECC(
                normalised(photo, 10.0 / level),
                normalised(predicted, 10.0 / level),
                warp,
                cv2.MOTION_HOMOGRAPHY,
                (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, iterations, 1e-6),
                mask,
                3,
            )
        except cv2.error:
            raise CalibrationError(
                "the artwork could not be aligned with the photo (the photo may not show "
                "this board, or it is too dark or blurred). Fix: check --board, light the "
                "board evenly; use markers or --points" + blur_hint(camera_gray)
            ) from None
        # predicted(W x) ~ photo(x): photo point x shows the artwork at predicted point W x.
        h = h_level @ warp.astype(np.float64) @ np.linalg.inv(up)
        h /= h[2, 2]
    return h, float(correlation)


def predict_mask(reference: Reference, homography: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    ones = np.full(reference.image.shape[:2], 255, np.uint8)
    to_art = np.diag([ART_PX_PER_MM, ART_PX_PER_MM, 1.0]) @ homography
    mask = cv2.warpPerspective(
        ones, to_art, size, flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP, borderValue=0
    )
    return cv2.erode(mask, np.ones((7, 7), np.uint8))


PATCH_PX = 64


def patch_residuals(
    camera_gray: np.ndarray,
    reference: Reference,
    homography: np.ndarray,
    within: tuple[tuple[float, float], float] | None = None,
) -> list[tuple[tuple[float, float], tuple[float, float], float]]:
    """How far the photo and the predicted artwork disagree, patch by patch: (patch centre
    px, its board mm, misalignment in board mm) for each textured patch on the board; with
    ``within`` (centre and radius, board mm), for the patches wholly inside that circle."""
    size = camera_gray.shape[1], camera_gray.shape[0]
    predicted = cv2.GaussianBlur(predict(reference, homography, size), (0, 0), 0.6)
    mask = predict_mask(reference, homography, size)
    photo_n, pred_n = normalised(camera_gray), normalised(predicted)
    window = cv2.createHanningWindow((PATCH_PX, PATCH_PX), cv2.CV_32F)
    out = []
    half = PATCH_PX // 2
    for y in range(0, size[1] - PATCH_PX + 1, half):
        for x in range(0, size[0] - PATCH_PX + 1, half):
            if mask[y : y + PATCH_PX, x : x + PATCH_PX].min() == 0:
                continue
            a = pred_n[y : y + PATCH_PX, x : x + PATCH_PX]
            b = photo_n[y : y + PATCH_PX, x : x + PATCH_PX]
            if float(np.std(a)) < 0.35:  # too plain to measure a shift
                continue
            if within is not None and not _inside(homography, (x, y), within):
                continue
            (dx, dy), response = phase_shift(a, b, window)
            # A weak peak, or a big jump (a patch crossed by one straight line slides along
            # it), measures nothing.
            if response < 0.25 or np.hypot(dx, dy) > 6.0:
                continue
            centre = np.array(
                [[x + half - 0.5, y + half - 0.5], [x + half - 0.5 + dx, y + half - 0.5 + dy]]
            )
            mm = apply(homography, centre)
            out.append(
                (
                    (float(centre[0, 0]), float(centre[0, 1])),
                    (float(mm[0, 0]), float(mm[0, 1])),
                    float(np.hypot(*(mm[1] - mm[0]))),
                )
            )
    return out


def _inside(
    homography: np.ndarray, corner: tuple[int, int], circle: tuple[tuple[float, float], float]
) -> bool:
    """Whether the patch at ``corner`` (px) lies wholly inside ``circle`` (board mm)."""
    x, y = corner
    square = np.array([[x, y], [x + PATCH_PX, y], [x, y + PATCH_PX], [x + PATCH_PX, y + PATCH_PX]])
    (cx, cy), radius = circle
    mm = apply(homography, square.astype(np.float64))
    return bool(np.all(np.hypot(mm[:, 0] - cx, mm[:, 1] - cy) <= radius))


def _same_on_every_board(
    board: Board, reference: Reference
) -> tuple[tuple[float, float], float] | None:
    """The part of the reference artwork that the board in the photo shows too (centre and
    radius, board mm): on a steel-tip dartboard compared with our artwork, only the scoring
    area, since every maker paints his own ring of numbers (font, size, place). None (all of
    it) for a board that is no dartboard (printed from our artwork) and for a scan of the
    user's own board."""
    if not look_alike_turns(board) or reference.source != "board":
        return None
    centre, inner, _outer = numbers_ring(board)
    return centre, inner


def _settle_turn(
    camera_gray: np.ndarray,
    reference: Reference,
    board: Board,
    homography: np.ndarray,
    correlation: float,
) -> tuple[np.ndarray, float, str]:
    """For a dartboard, the view turned about the bull so that the ring of numbers matches
    (see ``calibration.turn``), its correlation, and a note for the report."""
    if not look_alike_turns(board):
        return homography, correlation, ""
    scores = turn_scores(camera_gray, reference.image, ART_PX_PER_MM, homography, board)
    if not scores:
        return homography, correlation, ""
    degrees = best_turn(scores)
    ranked = sorted(scores.values(), reverse=True)
    note = f"ring of numbers: the best turn matches {ranked[0]:.2f}" + (
        f", the next {ranked[1]:.2f}" if len(ranked) > 1 else ""
    )
    if degrees:
        homography, correlation = refine_view(
            camera_gray, reference, turned(homography, numbers_ring(board)[0], degrees)
        )
        note += f"; the view first found was turned by {degrees:.0f} degrees about the bull"
    return homography, correlation, note


#: Longest side (px) of the photo the artwork is matched on: a phone's 12-megapixel photo
#: adds little to the fit beyond this but costs ten times the time.
WORKING_PX = 2048


def _working_copy(camera_gray: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the photo at most ``WORKING_PX`` on its longest side, the map working px -> photo px)."""
    height, width = camera_gray.shape[:2]
    scale = WORKING_PX / max(width, height)
    if scale >= 1.0:
        return camera_gray, np.eye(3)
    size = (round(width * scale), round(height * scale))
    small = cv2.resize(camera_gray, size, interpolation=cv2.INTER_AREA)
    sx, sy = width / size[0], height / size[1]
    # pixel centres: u = sx * (u' + 0.5) - 0.5
    return small, np.array([[sx, 0, 0.5 * sx - 0.5], [0, sy, 0.5 * sy - 0.5], [0, 0, 1]])


def _require_agreement(correlation: float, what: str) -> None:
    if correlation < MIN_CORRELATION:
        raise CalibrationError(
            f"{what} hardly agree (correlation {correlation:.2f}): the photo may show "
            "another board or be too dark. Fix: check --board; use markers or --points"
        )


def calibrate_markerless(
    board: Board,
    image: np.ndarray,
    lens: Lens | None = None,
    reference: Reference | None = None,
) -> CalibrationResult:
    start = time.perf_counter()
    height, width = image.shape[:2]
    if lens is not None:
        lens = lens.for_size((width, height))
    reference = reference or board_reference(board)
    camera_gray, to_full = _working_copy(undistort_image(gray(image), lens))
    working_size = (camera_gray.shape[1], camera_gray.shape[0])
    rough, src, dst, kind = rough_view(camera_gray, reference)
    check_view(rough, (board.width_mm, board.height_mm), working_size)
    homography, correlation = refine_view(camera_gray, reference, rough)
    _require_agreement(correlation, "the artwork and the photo")
    homography, correlation, turn_note = _settle_turn(
        camera_gray, reference, board, homography, correlation
    )
    # a view turned by the ring of numbers is refined again: it must agree as well
    _require_agreement(correlation, "the artwork turned by its ring of numbers and the photo")
    res = np.linalg.norm(apply(homography, src) - dst, axis=1)
    agree = res <= AGREE_MM
    patches = patch_residuals(
        camera_gray, reference, homography, _same_on_every_board(board, reference)
    )
    homography = homography @ np.linalg.inv(to_full)
    homography /= homography[2, 2]
    check_view(homography, (board.width_mm, board.height_mm), (width, height))
    if len(patches) < 4:
        raise CalibrationError(
            "too little of the artwork could be checked against the photo (blank or covered "
            "board?). Fix: use markers or --points"
        )
    res_patch = np.array([r for _, _, r in patches])
    fit = Fit(homography, np.ones(len(patches), dtype=bool), res_patch)
    pixels = apply(to_full, np.array([pixel for pixel, _, _ in patches]))
    points = tuple(
        PointResidual(f"patch {k}", (float(u), float(v)), mm, float(r))
        for k, ((u, v), (_, mm, r)) in enumerate(zip(pixels, patches, strict=True))
    )
    notes = [
        f"{kind.upper()} features: {int(agree.sum())} of {len(src)} matches agree with the "
        f"final view; artwork correlation {correlation:.2f}",
        f"error measured on {len(patches)} textured patches of the artwork",
    ]
    if turn_note:
        notes.append(turn_note)
    if reference.source != "board":
        notes.append(f"reference artwork: {reference.source}")
    report = Report(
        method="markerless",
        rms_mm=fit.rms_mm,
        max_mm=fit.max_mm,
        points=points,
        spread=spread_fraction(
            np.array([mm for _, mm, _ in patches]), (board.width_mm, board.height_mm)
        ),
        notes=tuple(notes),
        ms=(time.perf_counter() - start) * 1000,
    )
    calibration = make_calibration(
        board,
        (width, height),
        fit,
        lens,
        {
            "method": "markerless",
            "max_mm": round(fit.max_mm, 4),
            "reference": reference.source,
            "correlation": round(correlation, 4),
        },
    )
    return CalibrationResult(calibration, report)
