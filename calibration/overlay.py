"""The overlay picture: the board's zones projected onto the camera image, for a person to
check a calibration at a glance. Markers found are outlined in green, missing ones in red;
tapped points show their residual (red when flagged)."""

from __future__ import annotations

import cv2
import numpy as np
from shapely.geometry import MultiPolygon, Polygon

from boards.model import Board
from calibration.model import Calibration
from calibration.result import Report
from oche.files import write_atomic

ZONE = (255, 255, 0)  # cyan (BGR)
GREEN = (0, 200, 0)
RED = (0, 0, 255)
WHITE = (255, 255, 255)
BLACK = (0, 0, 0)


def _rings(geometry: Polygon | MultiPolygon) -> list[np.ndarray]:
    polygons = geometry.geoms if isinstance(geometry, MultiPolygon) else [geometry]
    return [np.asarray(p.segmentize(5.0).exterior.coords) for p in polygons]


def _text(image: np.ndarray, text: str, org: tuple[int, int], scale: float, color) -> None:
    cv2.putText(image, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, BLACK, 3, cv2.LINE_AA)
    cv2.putText(image, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, color, 1, cv2.LINE_AA)


def draw_overlay(
    image: np.ndarray, calibration: Calibration, board: Board, report: Report | None = None
) -> np.ndarray:
    out = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    h, w = out.shape[:2]
    sheet = Polygon(
        [(0, 0), (board.width_mm, 0), (board.width_mm, board.height_mm), (0, board.height_mm)]
    )
    for ring in _rings(sheet):
        px = calibration.board_to_image(ring)
        cv2.polylines(out, [np.round(px * 16).astype(np.int32)], True, WHITE, 1, cv2.LINE_AA, 4)
    for zone in board.zones.values():
        for ring in _rings(zone.geometry):
            px = calibration.board_to_image(ring)
            cv2.polylines(out, [np.round(px * 16).astype(np.int32)], True, ZONE, 1, cv2.LINE_AA, 4)
    for zone in board.top_zones:
        if zone.kind == "target":
            continue
        u, v = calibration.board_to_image(np.array([zone.centroid]))[0]
        scale = calibration.mm_per_pixel((min(max(u, 0), w - 2), min(max(v, 0), h - 2)))
        if zone.geometry.area / max(scale, 1e-6) ** 2 < 900:  # too small to label legibly
            continue
        size = cv2.getTextSize(zone.name, cv2.FONT_HERSHEY_SIMPLEX, 0.4, 1)[0]
        _text(out, zone.name, (int(u - size[0] / 2), int(v + size[1] / 2)), 0.4, ZONE)
    found = set(report.markers_found) if report else set()
    show_markers = report is None or report.method == "markers"
    for marker in board.markers if show_markers else ():
        px = calibration.board_to_image(np.array(marker.corners))
        seen = marker.id in found
        color = GREEN if seen else RED
        cv2.polylines(out, [np.round(px).astype(np.int32)], True, color, 2, cv2.LINE_AA)
        _text(out, str(marker.id), tuple(np.round(px[3] + (0, 14)).astype(int)), 0.45, color)
    if report is not None and report.method == "manual":
        for p in report.points:
            tap = np.array(p.pixel)
            where = calibration.board_to_image(np.array([p.board_mm]))[0]
            color = RED if p.flagged else GREEN
            cv2.circle(out, tuple(np.round(tap).astype(int)), 5, color, 1, cv2.LINE_AA)
            cv2.line(
                out, tuple(np.round(tap).astype(int)), tuple(np.round(where).astype(int)), color, 1
            )
            _text(
                out,
                f"{p.residual_mm:.1f}",
                tuple(np.round(tap + np.array([7, -7])).astype(int)),
                0.4,
                color,
            )
    lines = [f"{board.name} ({board.id})"]
    if report is not None:
        lines.append(f"{report.method}: RMS {report.rms_mm:.2f} mm, max {report.max_mm:.2f} mm")
        if report.markers_missing:
            lines.append("markers not seen: " + ", ".join(map(str, report.markers_missing)))
    band = out[: 12 + 20 * len(lines), : min(w, 20 + 10 * max(len(x) for x in lines))]
    band[:] = (band * 0.35).astype(np.uint8)
    for k, line in enumerate(lines):
        cv2.putText(
            out, line, (10, 22 + 20 * k), cv2.FONT_HERSHEY_SIMPLEX, 0.55, WHITE, 1, cv2.LINE_AA
        )
    return out


def save_overlay(path, image: np.ndarray) -> None:
    from pathlib import Path

    from calibration.errors import CalibrationError

    path = Path(path)
    suffix = path.suffix.lower() or ".png"
    ok, data = cv2.imencode(suffix, image)
    if not ok:
        raise CalibrationError(f"{path}: cannot write this picture format: use .png or .jpg")
    try:
        write_atomic(path, data.tobytes())
    except OSError as exc:
        raise CalibrationError(f"{path}: cannot write the overlay ({exc.strerror})") from None
