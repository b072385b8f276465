"""What a calibration method returns: the calibration and its quality report."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from boards.model import Board
from calibration.errors import CalibrationError
from calibration.fit import Fit, check_view
from calibration.lens import Lens
from calibration.model import Calibration

#: Calibrations whose RMS error on the board exceeds this are refused (unless forced).
MAX_RMS_MM = 2.0
#: Per method (the same today; kept apart so a method can be tuned alone).
MAX_RMS_BY_METHOD = {"markers": MAX_RMS_MM, "manual": MAX_RMS_MM, "markerless": MAX_RMS_MM}


@dataclass(frozen=True)
class PointResidual:
    """One correspondence: where it is in the image, where it is on the board, and how far
    (mm on the board) the fitted calibration puts it from there."""

    label: str
    pixel: tuple[float, float]
    board_mm: tuple[float, float]
    residual_mm: float
    used: bool = True  # False: left out of the fit as an outlier
    flagged: bool = False  # probably a mis-tap / mismatch

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "pixel": [round(self.pixel[0], 2), round(self.pixel[1], 2)],
            "board_mm": [round(self.board_mm[0], 2), round(self.board_mm[1], 2)],
            "residual_mm": round(self.residual_mm, 3),
            "used": bool(self.used),
            "flagged": bool(self.flagged),
        }


@dataclass(frozen=True)
class Report:
    method: str  # "markers" | "manual" | "markerless"
    rms_mm: float
    max_mm: float
    points: tuple[PointResidual, ...] = ()
    markers_found: tuple[int, ...] = ()
    markers_missing: tuple[int, ...] = ()
    spread: float = 0.0  # convex hull of the used points / board area
    notes: tuple[str, ...] = ()
    ms: float = 0.0
    summary_points: int | None = None  # e.g. feature matches, when ``points`` holds a sample

    @property
    def used_points(self) -> int:
        if self.summary_points is not None:
            return self.summary_points
        return sum(p.used for p in self.points)

    def to_json(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "rms_mm": round(self.rms_mm, 4),
            "max_mm": round(self.max_mm, 4),
            "points_used": self.used_points,
            "points": [p.to_json() for p in self.points],
            "markers_found": list(self.markers_found),
            "markers_missing": list(self.markers_missing),
            "spread": round(self.spread, 3),
            "notes": list(self.notes),
            "ms": round(self.ms, 1),
        }

    def text(self) -> str:
        lines = [
            f"method: {self.method}",
            f"error on the board: RMS {self.rms_mm:.2f} mm, max {self.max_mm:.2f} mm "
            f"over {self.used_points} points (spread over {self.spread:.0%} of the board)",
        ]
        if self.markers_found or self.markers_missing:
            found = ", ".join(map(str, self.markers_found)) or "none"
            lines.append(f"markers found: {found}")
            if self.markers_missing:
                lines.append(f"markers not seen: {', '.join(map(str, self.markers_missing))}")
        if self.method == "manual":
            for p in self.points:
                mark = "  <-- mis-tap? tap it again" if p.flagged else ""
                state = "" if p.used else " (left out)"
                lines.append(
                    f"  {p.label}: pixel ({p.pixel[0]:.1f}, {p.pixel[1]:.1f}) -> board "
                    f"({p.board_mm[0]:.1f}, {p.board_mm[1]:.1f}) mm, off by "
                    f"{p.residual_mm:.2f} mm{state}{mark}"
                )
        lines.extend(f"note: {n}" for n in self.notes)
        return "\n".join(lines)


@dataclass(frozen=True)
class CalibrationResult:
    calibration: Calibration
    report: Report

    @property
    def max_rms_mm(self) -> float:
        return MAX_RMS_BY_METHOD.get(self.report.method, MAX_RMS_MM)

    @property
    def acceptable(self) -> bool:
        return self.report.rms_mm <= self.max_rms_mm

    def require_quality(self, max_rms_mm: float | None = None) -> None:
        """Raise ``CalibrationError`` when the fit is too poor to keep."""
        max_rms_mm = self.max_rms_mm if max_rms_mm is None else max_rms_mm
        if not self.report.rms_mm <= max_rms_mm:
            raise CalibrationError(
                f"calibration too poor: RMS {self.report.rms_mm:.2f} mm on the board (limit "
                f"{max_rms_mm} mm). Fix: a sharper photo, more of the board in view, or check "
                "the points; --force keeps it anyway"
            )


def make_calibration(
    board: Board,
    image_size: tuple[int, int],
    fit: Fit,
    lens: Lens | None,
    extra: dict[str, Any] | None = None,
) -> Calibration:
    check_view(fit.homography, (board.width_mm, board.height_mm), image_size)
    return Calibration(
        board=board.id,
        image_size=(int(image_size[0]), int(image_size[1])),
        homography=np.asarray(fit.homography, dtype=np.float64),
        camera_matrix=None if lens is None else lens.camera_matrix,
        dist_coeffs=None if lens is None else np.asarray(lens.dist_coeffs).ravel(),
        rms_mm=fit.rms_mm,
        extra=dict(extra or {}),
    )


def lens_of(calibration: Calibration) -> Lens | None:
    if not calibration.has_lens:
        return None
    return Lens(tuple(calibration.image_size), calibration.camera_matrix, calibration.dist_coeffs)
