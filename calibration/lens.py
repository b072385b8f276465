"""Lens intrinsics (camera matrix + distortion) from photos of a printed ChArUco sheet.

The sheet is a chessboard whose white squares hold ArUco markers (OpenCV's CharucoBoard), so
partly visible sheets still give identified corners. The lens file (``lens.json``)::

    {"kind": "oche-lens", "version": 1, "image_size": [w, h], "camera_matrix": 3x3,
     "dist_coeffs": [k1, k2, p1, p2, k3], "rms_px": f, "views": n}
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from boards.printing import png_with_dpi
from calibration.errors import CalibrationError
from calibration.model import undistort_pixels
from oche.files import write_atomic

#: The printed sheet: 8 x 6 squares of 30 mm, markers of 22 mm; with its 8 mm margin it is
#: 256 x 196 mm, which fits A4 and US letter landscape with printer margins.
SHEET_SQUARES = (8, 6)
SHEET_SQUARE_MM = 30.0
SHEET_MARKER_MM = 22.0
#: A dictionary no Oche board uses, so a lens sheet is never mistaken for a board.
SHEET_DICTIONARY = "DICT_5X5_100"
#: A view is used only if it shows at least this many chessboard corners.
MIN_CORNERS_PER_VIEW = 12
MIN_VIEWS = 3
#: Above this reprojection error (px) the lens model does not fit the photos.
MAX_RMS_PX = 1.5
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff")


@dataclass(frozen=True)
class Lens:
    image_size: tuple[int, int]
    camera_matrix: np.ndarray
    dist_coeffs: np.ndarray
    rms_px: float = 0.0
    views: int = 0

    def for_size(self, image_size: tuple[int, int], source: str = "lens") -> Lens:
        """The same lens at another resolution of the same sensor mode (same aspect ratio)."""
        if tuple(image_size) == tuple(self.image_size):
            return self
        sx = image_size[0] / self.image_size[0]
        sy = image_size[1] / self.image_size[1]
        if abs(sx - sy) > 0.01 * sx:
            raise CalibrationError(
                f"{source}: measured at {self.image_size[0]}x{self.image_size[1]} px but the "
                f"image is {image_size[0]}x{image_size[1]} (another aspect ratio). Fix: run "
                "`oche calibrate-lens` with photos at this resolution"
            )
        k = self.camera_matrix.copy()
        k[0, 0] *= sx
        k[1, 1] *= sy
        # pixel centres: u' + 0.5 = s (u + 0.5)
        k[0, 2] = (k[0, 2] + 0.5) * sx - 0.5
        k[1, 2] = (k[1, 2] + 0.5) * sy - 0.5
        return Lens(tuple(image_size), k, self.dist_coeffs, self.rms_px, self.views)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "oche-lens",
            "version": 1,
            "image_size": list(self.image_size),
            "camera_matrix": self.camera_matrix.tolist(),
            "dist_coeffs": self.dist_coeffs.ravel().tolist(),
            "rms_px": round(float(self.rms_px), 4),
            "views": int(self.views),
        }

    @classmethod
    def from_json(cls, data: Any, source: str = "<lens>") -> Lens:
        def fail(problem: str) -> CalibrationError:
            return CalibrationError(
                f"{source}: {problem}. Fix: run `oche calibrate-lens --images DIR --out {source}`"
            )

        if not isinstance(data, dict):
            raise fail("not a lens file (expected a JSON object)")
        if "camera_matrix" not in data:
            raise fail("field 'camera_matrix' is missing")
        try:
            k = np.asarray(data["camera_matrix"], dtype=np.float64)
            dist = np.asarray(data.get("dist_coeffs") or [0, 0, 0, 0, 0], dtype=np.float64)
            size = data.get("image_size")
            w, h = int(size[0]), int(size[1])
        except (TypeError, ValueError, IndexError):
            raise fail("'camera_matrix', 'dist_coeffs' or 'image_size' is malformed") from None
        if k.shape != (3, 3) or not np.all(np.isfinite(k)) or k[0, 0] <= 0 or k[1, 1] <= 0:
            raise fail("field 'camera_matrix' is not a camera matrix")
        if dist.ndim != 1 or len(dist) not in (4, 5, 8, 12, 14) or not np.all(np.isfinite(dist)):
            raise fail("field 'dist_coeffs' must be 4, 5, 8, 12 or 14 numbers")
        if w <= 0 or h <= 0:
            raise fail("field 'image_size' must be two positive integers")
        return cls((w, h), k, dist, float(data.get("rms_px", 0.0)), int(data.get("views", 0)))


def load_lens(path: str | Path) -> Lens:
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CalibrationError(
            f"{path}: no such lens file. Fix: run `oche calibrate-lens --images DIR --out {path}`"
        ) from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CalibrationError(
            f"{path}: not a readable lens file ({exc}). Fix: run `oche calibrate-lens` again"
        ) from None
    # A calibration file that carries intrinsics is accepted as a lens file too.
    if isinstance(data, dict) and "homography" in data and data.get("camera_matrix") is None:
        raise CalibrationError(f"{path}: this calibration file has no lens intrinsics")
    return Lens.from_json(data, str(path))


def save_lens(lens: Lens, path: str | Path) -> None:
    write_atomic(path, json.dumps(lens.to_json(), indent=1) + "\n")


def undistort_points(pixels: np.ndarray, lens: Lens | None) -> np.ndarray:
    """Image pixels -> undistorted pixels (same camera matrix); identity without a lens."""
    if lens is None:
        return np.asarray(pixels, dtype=np.float64).reshape(-1, 2)
    return undistort_pixels(pixels, lens.camera_matrix, lens.dist_coeffs)


_MAPS: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}


def undistort_image(image: np.ndarray, lens: Lens | None) -> np.ndarray:
    """The image as a distortion-free camera with the same camera matrix would see it
    (remap tables cached per lens and size: the drift check runs this often)."""
    if lens is None:
        return image
    size = (image.shape[1], image.shape[0])
    key = (size, lens.camera_matrix.tobytes(), np.asarray(lens.dist_coeffs).tobytes())
    if key not in _MAPS:
        if len(_MAPS) > 4:
            _MAPS.clear()
        _MAPS[key] = cv2.initUndistortRectifyMap(
            lens.camera_matrix, lens.dist_coeffs, None, lens.camera_matrix, size, cv2.CV_16SC2
        )
    map1, map2 = _MAPS[key]
    return cv2.remap(image, map1, map2, cv2.INTER_LINEAR)


# --- the ChArUco sheet ----------------------------------------------------------------
def charuco_board() -> cv2.aruco.CharucoBoard:
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, SHEET_DICTIONARY))
    return cv2.aruco.CharucoBoard(SHEET_SQUARES, SHEET_SQUARE_MM, SHEET_MARKER_MM, dictionary)


def sheet_image(dpi: float = 200.0, margin_mm: float = 8.0) -> np.ndarray:
    """The sheet to print (grey, white margin); at ``dpi`` it prints at its true size."""
    px_per_mm = dpi / 25.4
    w_mm = SHEET_SQUARES[0] * SHEET_SQUARE_MM + 2 * margin_mm
    h_mm = SHEET_SQUARES[1] * SHEET_SQUARE_MM + 2 * margin_mm
    size = (round(w_mm * px_per_mm), round(h_mm * px_per_mm))
    return charuco_board().generateImage(size, marginSize=round(margin_mm * px_per_mm))


def write_sheet(path: str | Path, dpi: float = 200.0) -> Path:
    path = Path(path)
    if path.suffix.lower() != ".png":
        raise CalibrationError(f"{path}: the sheet is written as PNG: name it FILE.png")
    if path.parent and not path.parent.exists():
        raise CalibrationError(f"{path.parent}: no such folder")
    ok, data = cv2.imencode(".png", sheet_image(dpi))
    if not ok:
        raise CalibrationError(f"{path}: could not encode the PNG")
    write_atomic(path, png_with_dpi(data.tobytes(), dpi))
    return path


@dataclass(frozen=True)
class SheetView:
    name: str
    object_points: np.ndarray  # N x 3 (sheet mm, z = 0)
    image_points: np.ndarray  # N x 2


def detect_sheet(image: np.ndarray, name: str = "image") -> SheetView | None:
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    board = charuco_board()
    detector = cv2.aruco.CharucoDetector(board)
    corners, ids, _, _ = detector.detectBoard(gray)
    if ids is None or len(ids) < MIN_CORNERS_PER_VIEW:
        return None
    obj, img = board.matchImagePoints(corners, ids)
    if obj is None or len(obj) < MIN_CORNERS_PER_VIEW:
        return None
    return SheetView(name, obj.reshape(-1, 3).astype(np.float32), img.reshape(-1, 2))


def calibrate_lens(images: Iterable[tuple[str, np.ndarray]]) -> tuple[Lens, list[str]]:
    """Intrinsics from photos of the sheet. Returns the lens and notes on skipped photos."""
    views: list[SheetView] = []
    notes: list[str] = []
    size: tuple[int, int] | None = None
    for name, image in images:
        h, w = image.shape[:2]
        if size is None:
            size = (w, h)
        elif (w, h) != size:
            notes.append(f"{name}: skipped, {w}x{h} px differs from {size[0]}x{size[1]}")
            continue
        view = detect_sheet(image, name)
        if view is None:
            notes.append(f"{name}: skipped, fewer than {MIN_CORNERS_PER_VIEW} sheet corners found")
            continue
        views.append(view)
    if size is None:
        raise CalibrationError("no photos given: put photos of the printed sheet in the folder")
    if len(views) < MIN_VIEWS:
        raise CalibrationError(
            f"the sheet was found in {len(views)} photo(s); at least {MIN_VIEWS} are needed "
            "(best 10-20: the sheet at different angles, near the image corners too). "
            "Print it with `oche calibrate-lens --print-sheet sheet.png`"
        )
    w, h = size
    f0 = 0.8 * w
    k0 = np.array([[f0, 0, w / 2 - 0.5], [0, f0, h / 2 - 0.5], [0, 0, 1]], dtype=np.float64)
    flags = cv2.CALIB_USE_INTRINSIC_GUESS
    if len(views) < 6:
        flags |= cv2.CALIB_FIX_K3  # too few views to pin down the high-order term
    rms, k, dist, _, _ = cv2.calibrateCamera(
        [v.object_points for v in views],
        [v.image_points.astype(np.float32) for v in views],
        size,
        k0,
        np.zeros(5),
        flags=flags,
    )
    if not math.isfinite(rms) or rms > MAX_RMS_PX:
        raise CalibrationError(
            f"the lens model fits the photos poorly (RMS {rms:.2f} px > {MAX_RMS_PX}): "
            "use sharp photos of a flat sheet"
        )
    return Lens(size, k, dist.ravel()[:5], float(rms), len(views)), notes
