"""Manual calibration from tapped points: image pixels whose board positions are known.

The web UI's calibrate page and ``oche calibrate --points taps.json`` both end in
``calibrate_from_points``. Each point gets its residual (how far the fit puts it from where it
should be, in board mm) and a leave-one-out check: a point that the other points predict badly
is flagged as a probable mis-tap and left out of the fit while at least 4 points remain.

Points file: a JSON list (or ``{"points": [...]}``) of objects, each with ``"pixel": [u, v]``
and one of ``"board_mm": [x, y]``, ``"zone": ZONE_ID`` (the zone's label point) or
``"marker": ID, "corner": 0-3`` (top-left, top-right, bottom-right, bottom-left).
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from boards.model import Board
from calibration.errors import CalibrationError
from calibration.fit import fit_homography, residuals, spread_fraction
from calibration.lens import Lens, undistort_points
from calibration.result import CalibrationResult, PointResidual, Report, make_calibration

#: A point whose leave-one-out error exceeds this (and 4x the median) is a probable mis-tap.
OUTLIER_MM = 6.0
MIN_POINTS = 4
#: The tapped points must spread over at least this fraction of the board.
MIN_SPREAD = 0.05


@dataclass(frozen=True)
class TapPoint:
    pixel: tuple[float, float]
    board_mm: tuple[float, float]
    label: str


def parse_points(data: Any, board: Board, source: str = "points") -> list[TapPoint]:
    """JSON value -> tap points, with a clear message naming the bad entry."""
    if isinstance(data, dict) and "points" in data:
        data = data["points"]
    if not isinstance(data, list):
        raise CalibrationError(
            f'{source}: expected a list of {{"pixel": [u, v], "board_mm": [x, y]}} objects'
        )
    markers = {m.id: m for m in board.markers}
    points = []
    for n, entry in enumerate(data, start=1):
        where = f"{source}: point {n}"
        if not isinstance(entry, dict):
            raise CalibrationError(f"{where}: expected an object with 'pixel' and 'board_mm'")
        pixel = _pair(entry.get("pixel"), f"{where}: 'pixel'")
        if "board_mm" in entry:
            mm = _pair(entry["board_mm"], f"{where}: 'board_mm'")
            label = str(entry.get("label") or f"point {n}")
        elif "zone" in entry:
            zone_id = entry["zone"]
            if zone_id not in board.zones:
                raise CalibrationError(
                    f"{where}: board {board.id!r} has no zone {zone_id!r} "
                    "(`oche board export BOARD` lists the zones)"
                )
            mm = board.zones[zone_id].centroid
            label = f"zone {zone_id}"
        elif "marker" in entry:
            marker_id, corner = entry.get("marker"), entry.get("corner", 0)
            if marker_id not in markers:
                raise CalibrationError(
                    f"{where}: board {board.id!r} has no marker {marker_id!r} "
                    f"(its markers: {', '.join(map(str, sorted(markers))) or 'none'})"
                )
            if corner not in (0, 1, 2, 3):
                raise CalibrationError(
                    f"{where}: 'corner' must be 0-3 (top-left, top-right, bottom-right, "
                    "bottom-left)"
                )
            mm = markers[marker_id].corners[corner]
            label = f"marker {marker_id} corner {corner}"
        else:
            raise CalibrationError(
                f"{where}: say where it is on the board: 'board_mm': [x, y], 'zone': ID or "
                "'marker': ID with 'corner'"
            )
        points.append(TapPoint(pixel, (float(mm[0]), float(mm[1])), label))
    return points


def load_points(path: str | Path, board: Board) -> list[TapPoint]:
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CalibrationError(f"{path}: no such points file") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CalibrationError(
            f"{path}: not valid JSON ({exc}). Fix: a list of "
            '{"pixel": [u, v], "board_mm": [x, y]} objects'
        ) from None
    return parse_points(data, board, str(path))


def _pair(value: Any, where: str) -> tuple[float, float]:
    if (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(
            isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
            for v in value
        )
    ):
        return float(value[0]), float(value[1])
    raise CalibrationError(f"{where} must be two numbers [a, b], got {value!r}")


def calibrate_from_points(
    board: Board,
    image_size: tuple[int, int],
    points: list[TapPoint],
    lens: Lens | None = None,
) -> CalibrationResult:
    """Fit the calibration to tapped points (pure: no I/O). Probable mis-taps are flagged
    and left out while at least 4 points remain."""
    start = time.perf_counter()
    if len(points) < MIN_POINTS:
        raise CalibrationError(
            f"{len(points)} point(s) given: tap at least {MIN_POINTS} known board points "
            "(6 or more lets a mis-tap show), spread over the whole board"
        )
    if lens is not None:
        lens = lens.for_size(image_size)
    pixels = np.array([p.pixel for p in points], dtype=np.float64)
    board_pts = np.array([p.board_mm for p in points], dtype=np.float64)
    width, height = image_size
    outside = [
        p.label for p in points if not (0 <= p.pixel[0] < width and 0 <= p.pixel[1] < height)
    ]
    if outside:
        raise CalibrationError(
            f"points outside the {width}x{height} image: {', '.join(outside)}. Fix: tap inside "
            "the camera image"
        )
    if len({(round(x, 1), round(y, 1)) for x, y in board_pts}) < len(board_pts):
        raise CalibrationError("two points name the same board position: tap distinct points")
    spread = spread_fraction(board_pts, (board.width_mm, board.height_mm))
    if spread < MIN_SPREAD:
        raise CalibrationError(
            f"the points cover only {spread:.0%} of the board (on a line or bunched "
            "together): tap points near the board's corners and edges"
        )
    undistorted = undistort_points(pixels, lens)
    used = np.ones(len(points), dtype=bool)
    while used.sum() > MIN_POINTS:
        loo = _leave_one_out(undistorted, board_pts, used)
        worst = int(np.nanargmax(loo))
        limit = max(OUTLIER_MM, 4.0 * float(np.nanmedian(loo)))
        if loo[worst] <= limit:
            break
        used[worst] = False
    fit = fit_homography(undistorted[used], board_pts[used], robust=False)
    res = residuals(fit.homography, undistorted, board_pts)
    notes = []
    if used.sum() == MIN_POINTS:
        notes.append("4 points fit exactly, so a mis-tap cannot show: tap 6 or more for a check")
    if not used.all():
        notes.append(
            f"left out as probable mis-taps: {', '.join(p.label for p, u in zip(points, used, strict=True) if not u)}"
        )
    rms = float(np.sqrt(np.mean(res[used] ** 2)))
    report = Report(
        method="manual",
        rms_mm=rms,
        max_mm=float(res[used].max()),
        points=tuple(
            PointResidual(
                p.label,
                p.pixel,
                p.board_mm,
                float(r),
                used=bool(u),
                flagged=bool(not u or r > OUTLIER_MM),
            )
            for p, r, u in zip(points, res, used, strict=True)
        ),
        spread=spread_fraction(board_pts[used], (board.width_mm, board.height_mm)),
        notes=tuple(notes),
        ms=(time.perf_counter() - start) * 1000,
    )
    fit_used = type(fit)(fit.homography, used, res)
    calibration = make_calibration(
        board,
        image_size,
        fit_used,
        lens,
        {
            "method": "manual",
            "max_mm": round(report.max_mm, 4),
            "points": [p.to_json() for p in report.points],
        },
    )
    return CalibrationResult(calibration, report)


def _leave_one_out(src: np.ndarray, dst: np.ndarray, used: np.ndarray) -> np.ndarray:
    """For each used point: its distance (mm) from where the other used points put it."""
    out = np.full(len(src), np.nan)
    idx = np.flatnonzero(used)
    for i in idx:
        others = idx[idx != i]
        try:
            h = fit_homography(src[others], dst[others], robust=False).homography
        except CalibrationError:
            continue
        out[i] = residuals(h, src[i : i + 1], dst[i : i + 1])[0]
    return out
