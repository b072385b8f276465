"""The calibration file: image pixels <-> board millimetres for one camera setup.

Format (version 1, see the README's contracts)::

    {"version": 1, "board": id, "image_size": [w, h],
     "homography": 3x3 from undistorted image px to board mm,
     "camera_matrix": 3x3 | null, "dist_coeffs": [..] | null,
     "rms_mm": f, "created": iso8601}

Extra keys (method, per-point residuals, reference features for the drift check) may follow;
readers ignore what they do not know.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from oche.errors import UserError
from oche.files import write_atomic

VERSION = 1


class CalibrationFileError(UserError):
    """A calibration file is wrong; the message names the file, the field and the fix."""


def undistort_pixels(
    pixels: np.ndarray, camera_matrix: np.ndarray, dist_coeffs: np.ndarray
) -> np.ndarray:
    """Image pixels (N x 2) -> the pixels a distortion-free lens with the same camera matrix
    would give (iterated to 1e-6, as the distortion model has no closed-form inverse)."""
    pts = np.asarray(pixels, dtype=np.float64).reshape(-1, 2)
    if len(pts) == 0 or not np.any(dist_coeffs):
        return pts
    out = cv2.undistortPoints(
        pts.reshape(-1, 1, 2),
        camera_matrix,
        dist_coeffs,
        R=None,
        P=camera_matrix,
        criteria=(cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 20, 1e-6),
    )
    return out.reshape(-1, 2)


@dataclass(frozen=True)
class Calibration:
    board: str
    image_size: tuple[int, int]
    homography: np.ndarray = field(repr=False)  # undistorted px -> board mm
    camera_matrix: np.ndarray | None = field(default=None, repr=False)
    dist_coeffs: np.ndarray | None = field(default=None, repr=False)
    rms_mm: float = 0.0
    created: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict, repr=False)

    @property
    def has_lens(self) -> bool:
        return self.camera_matrix is not None and self.dist_coeffs is not None

    def undistort(self, pixels: np.ndarray) -> np.ndarray:
        """Image pixels -> undistorted pixels (identity without lens intrinsics)."""
        if not self.has_lens:
            return np.asarray(pixels, dtype=np.float64).reshape(-1, 2)
        return undistort_pixels(pixels, self.camera_matrix, self.dist_coeffs)

    def distort(self, undistorted: np.ndarray) -> np.ndarray:
        """Undistorted pixels -> image pixels."""
        pts = np.asarray(undistorted, dtype=np.float64).reshape(-1, 2)
        if not self.has_lens:
            return pts
        k = self.camera_matrix
        normalised = cv2.undistortPoints(pts.reshape(-1, 1, 2), k, None).reshape(-1, 2)
        homogeneous = np.column_stack([normalised, np.ones(len(normalised))])
        image, _ = cv2.projectPoints(homogeneous, np.zeros(3), np.zeros(3), k, self.dist_coeffs)
        return image.reshape(-1, 2)

    def image_to_board(self, pixels: np.ndarray) -> np.ndarray:
        """Image pixels (N x 2) -> board mm (N x 2)."""
        undistorted = self.undistort(pixels)
        return cv2.perspectiveTransform(undistorted.reshape(-1, 1, 2), self.homography).reshape(
            -1, 2
        )

    def board_to_image(self, points_mm: np.ndarray) -> np.ndarray:
        """Board mm (N x 2) -> image pixels (N x 2)."""
        inverse = np.linalg.inv(self.homography)
        pts = np.asarray(points_mm, dtype=np.float64).reshape(-1, 1, 2)
        return self.distort(cv2.perspectiveTransform(pts, inverse).reshape(-1, 2))

    def mm_per_pixel(self, pixel: tuple[float, float]) -> float:
        """How many board mm one image pixel spans around ``pixel`` (the larger axis)."""
        u, v = pixel
        pts = self.image_to_board(np.array([[u, v], [u + 1, v], [u, v + 1]]))
        return float(max(np.hypot(*(pts[1] - pts[0])), np.hypot(*(pts[2] - pts[0]))))

    def to_json(self) -> dict[str, Any]:
        return {
            "version": VERSION,
            "board": self.board,
            "image_size": list(self.image_size),
            "homography": np.asarray(self.homography).tolist(),
            "camera_matrix": None
            if self.camera_matrix is None
            else np.asarray(self.camera_matrix).tolist(),
            "dist_coeffs": None
            if self.dist_coeffs is None
            else np.asarray(self.dist_coeffs).ravel().tolist(),
            "rms_mm": round(float(self.rms_mm), 4),
            "created": self.created or datetime.now(UTC).isoformat(timespec="seconds"),
            **dict(self.extra),
        }

    @classmethod
    def from_json(cls, data: Any, source: str = "<calibration>") -> Calibration:
        def fail(field_name: str, problem: str, fix: str) -> CalibrationFileError:
            return CalibrationFileError(f"{source}: field {field_name!r}: {problem}. Fix: {fix}")

        if not isinstance(data, dict):
            raise CalibrationFileError(f"{source}: not a calibration file (expected a JSON object)")
        if data.get("version") != VERSION:
            raise fail(
                "version",
                f"{data.get('version')!r} is not supported",
                f"recalibrate with this Oche (version {VERSION})",
            )
        board = data.get("board")
        if not isinstance(board, str) or not board:
            raise fail(
                "board", "missing", "recalibrate: `oche calibrate --board BOARD --image FILE`"
            )
        size = data.get("image_size")
        if not (
            isinstance(size, list)
            and len(size) == 2
            and all(isinstance(v, int) and v > 0 for v in size)
        ):
            raise fail("image_size", f"{size!r} is not [width, height]", "recalibrate")
        homography = _matrix(data.get("homography"), "homography", fail)
        det = float(np.linalg.det(homography[:2, :2]))
        if not math.isfinite(det) or abs(np.linalg.det(homography)) < 1e-12:
            raise fail("homography", "the matrix is singular", "recalibrate")
        camera_matrix = (
            None
            if data.get("camera_matrix") is None
            else _matrix(data["camera_matrix"], "camera_matrix", fail)
        )
        dist = data.get("dist_coeffs")
        if dist is not None:
            if not (
                isinstance(dist, list)
                and len(dist) in (4, 5, 8, 12, 14)
                and all(_is_number(v) for v in dist)
            ):
                raise fail(
                    "dist_coeffs",
                    "expected 4, 5, 8, 12 or 14 numbers",
                    "run `oche calibrate-lens` again",
                )
            dist = np.asarray(dist, dtype=np.float64)
        if (camera_matrix is None) != (dist is None):
            raise fail(
                "camera_matrix",
                "lens intrinsics are half given",
                "give both camera_matrix and dist_coeffs, or neither",
            )
        rms = data.get("rms_mm", 0.0)
        if not _is_number(rms) or rms < 0:
            raise fail("rms_mm", f"{rms!r} is not a distance", "recalibrate")
        known = {
            "version",
            "board",
            "image_size",
            "homography",
            "camera_matrix",
            "dist_coeffs",
            "rms_mm",
            "created",
        }
        return cls(
            board=board,
            image_size=(int(size[0]), int(size[1])),
            homography=homography,
            camera_matrix=camera_matrix,
            dist_coeffs=dist,
            rms_mm=float(rms),
            created=str(data.get("created", "")),
            extra={k: v for k, v in data.items() if k not in known},
        )

    def check_fits(
        self, board_id: str, image_size: tuple[int, int], source: str = "calibration"
    ) -> None:
        """Raise a clear error if this calibration belongs to another board or camera mode."""
        if self.board != board_id:
            raise CalibrationFileError(
                f"{source}: this calibration is for board {self.board!r}, not {board_id!r}. "
                f"Fix: calibrate again with --board {board_id}"
            )
        if tuple(image_size) != tuple(self.image_size):
            raise CalibrationFileError(
                f"{source}: this calibration was made at {self.image_size[0]}x{self.image_size[1]} px, "
                f"the camera gives {image_size[0]}x{image_size[1]}. Fix: calibrate at this resolution"
            )


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _matrix(value: Any, name: str, fail) -> np.ndarray:
    if not (
        isinstance(value, list)
        and len(value) == 3
        and all(
            isinstance(row, list) and len(row) == 3 and all(_is_number(v) for v in row)
            for row in value
        )
    ):
        raise fail(name, "expected a 3x3 matrix of numbers", "recalibrate")
    return np.asarray(value, dtype=np.float64)


def load(path: str | Path) -> Calibration:
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CalibrationFileError(
            f"{path}: no such calibration file. Fix: run `oche calibrate`"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CalibrationFileError(f"{path}: cannot read ({exc})") from None
    except json.JSONDecodeError as exc:
        raise CalibrationFileError(
            f"{path}: not valid JSON (line {exc.lineno}: {exc.msg}). Fix: recalibrate, or restore a backup"
        ) from None
    return Calibration.from_json(data, str(path))


def save(calibration: Calibration, path: str | Path) -> None:
    """Write atomically: a failure never leaves a half-written file over a good one."""
    write_atomic(path, json.dumps(calibration.to_json(), indent=1) + "\n")


def from_camera(camera: Any, board_id: str, with_lens: bool = True) -> Calibration:
    """The exact calibration of a simulated ``vision.camera.Camera`` (ground truth for tests)."""
    return Calibration(
        board=board_id,
        image_size=tuple(camera.image_size),
        homography=camera.board_from_undistorted,
        camera_matrix=camera.camera_matrix if with_lens else None,
        dist_coeffs=camera.dist_coeffs if with_lens else None,
        rms_mm=0.0,
    )
