"""Calibration benchmark: accuracy and time per method on synthetic views with known truth.

``run(seed, json_output)`` renders random camera set-ups (tilt 0-55 degrees, any azimuth,
roll, barrel distortion k1 in [-0.3, 0] with the lens known as after ``oche calibrate-lens``,
noise, uneven light, JPEG), calibrates each with every method and compares the recovered
board positions with the truth on a grid over the board. Also times the drift check.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from functools import partial
from typing import Any

import numpy as np

import boards
from boards.model import Board
from calibration.drift import check_drift
from calibration.manual import TapPoint, calibrate_from_points
from calibration.markerless import board_reference, calibrate_markerless
from calibration.markers import calibrate_from_markers
from calibration.result import CalibrationResult
from calibration.synthetic import Case, board_error_mm, camera_for, tap_points, true_lens, view
from vision.camera import Camera

BOARDS = ("groundround", "classic", "dartwars")
PHONE_PHOTO = (4032, 3024)


def random_cases(rng: np.random.Generator, count: int, markers: bool = True) -> list[Case]:
    cases = []
    for k in range(count):
        cases.append(
            Case(
                board_id=BOARDS[k % len(BOARDS)],
                tilt_deg=round(float(rng.uniform(0, 55)), 1),
                azimuth_deg=round(float(rng.uniform(0, 360)), 1),
                roll_deg=round(float(rng.uniform(-15, 15)), 1),
                k1=round(float(rng.uniform(-0.3, 0)), 3),
                noise=round(float(rng.uniform(2, 4)), 1),
                light=round(float(rng.uniform(0, 0.5)), 2),
                jpeg=int(rng.integers(75, 96)),
                markers=markers,
                seed=int(rng.integers(0, 2**31)),
            )
        )
    return cases


def dartboard_cases(rng: np.random.Generator, count: int) -> list[Case]:
    """Views of steel-tip dartboards painted in other looks than our print (no markers):
    can a real board be calibrated from our artwork?"""
    return [
        replace(case, board_id="classic", markers=False, style="painted")
        for case in random_cases(rng, count, markers=False)
    ]


def _summary(
    method: str, errors: list[float], worst: list[float], ms: list[float], failed: int
) -> dict[str, Any]:
    return {
        "method": method,
        "cases": len(errors) + failed,
        "failed": failed,
        "rms_mm_median": round(statistics.median(errors), 4) if errors else None,
        "rms_mm_max": round(max(errors), 4) if errors else None,
        "max_mm_max": round(max(worst), 4) if worst else None,
        "ms_median": round(statistics.median(ms), 1) if ms else None,
    }


#: One calibration to time: the board, the true camera, and the call that calibrates.
Attempt = tuple[Board, Camera, Callable[[], CalibrationResult]]


def _measure(method: str, attempts: Iterable[Attempt]) -> dict[str, Any]:
    """Time each calibration and score it against the true camera."""
    errors, worst, ms, failed = [], [], [], 0
    for board, camera, calibrate in attempts:
        start = time.perf_counter()
        try:
            result = calibrate()
        except Exception:
            failed += 1
            continue
        ms.append((time.perf_counter() - start) * 1000)
        rms, mx = board_error_mm(result.calibration, camera, board)
        errors.append(rms)
        worst.append(mx)
    return _summary(method, errors, worst, ms, failed)


def _marker_attempts(cases: list[Case]) -> Iterator[Attempt]:
    for case in cases:
        board = boards.load(case.board_id)
        image, camera = view(case)
        yield board, camera, partial(calibrate_from_markers, board, image, true_lens(camera))


def _manual_attempts(cases: list[Case], rng: np.random.Generator) -> Iterator[Attempt]:
    for case in cases:
        board = boards.load(case.board_id)
        camera = camera_for(board, case)
        pts = tap_points(board)
        pixels = camera.project(pts) + rng.normal(0, 0.5, (len(pts), 2))  # taps ~0.5 px off
        taps = [
            TapPoint((float(u), float(v)), (float(x), float(y)), f"tap {k}")
            for k, ((u, v), (x, y)) in enumerate(zip(pixels, pts, strict=True))
        ]
        yield (
            board,
            camera,
            partial(calibrate_from_points, board, camera.image_size, taps, true_lens(camera)),
        )


def _markerless_attempts(cases: list[Case]) -> Iterator[Attempt]:
    for case in cases:
        board = boards.load(case.board_id)
        image, camera = view(case)
        board_reference(board).features("sift")  # one-off per board: not part of a calibration
        yield board, camera, partial(calibrate_markerless, board, image, true_lens(camera))


def _bench_drift(cases: list[Case], markerless: bool = False) -> dict[str, Any]:
    ms = []
    for case in cases:
        board = boards.load(case.board_id)
        image, camera = view(case)
        method = calibrate_markerless if markerless else calibrate_from_markers
        try:
            calibration = method(board, image, true_lens(camera)).calibration
        except Exception:
            continue
        check_drift(calibration, board, image)
        for _ in range(5):
            start = time.perf_counter()
            check_drift(calibration, board, image)
            ms.append((time.perf_counter() - start) * 1000)
    return {
        "method": f"drift check ({'artwork' if markerless else 'markers'}, 1280x720)",
        "cases": len(cases),
        "failed": 0,
        "rms_mm_median": None,
        "rms_mm_max": None,
        "max_mm_max": None,
        "ms_median": round(statistics.median(ms), 1) if ms else None,
    }


def _bench_lens(seed: int) -> dict[str, Any]:
    """Measure a k1 = -0.25 lens from 7 synthetic sheet photos, then calibrate a distorted
    board view from markers with it."""
    from calibration.lens import calibrate_lens
    from calibration.synthetic import lens_sheet_photos

    photos, _ = lens_sheet_photos(k1=-0.25, count=7, seed=seed)
    start = time.perf_counter()
    try:
        lens, _ = calibrate_lens(photos)
    except Exception:
        return _summary("lens (7 sheet photos) + markers", [], [], [], 1)
    ms = (time.perf_counter() - start) * 1000
    case = Case("groundround", 50, 40, 5, -0.25, noise=3, light=0.4, jpeg=85, seed=seed)
    image, camera = view(case)
    board = boards.load(case.board_id)
    rms, worst = board_error_mm(
        calibrate_from_markers(board, image, lens).calibration, camera, board
    )
    return _summary("lens (7 sheet photos) + markers", [rms], [worst], [ms], 0)


def run(seed: int = 0, json_output: bool = False, cases: int = 8) -> dict[str, Any]:
    """Run the benchmark; print a table (or JSON) and return the results as a dict."""
    rng = np.random.default_rng(seed)
    marker_cases = random_cases(rng, cases)
    markerless_cases = random_cases(rng, max(2, cases // 2), markers=False)
    started = time.perf_counter()
    rows = [
        _measure("markers", _marker_attempts(marker_cases)),
        _measure("manual (32 taps, 0.5 px noise)", _manual_attempts(marker_cases, rng)),
        _measure("markerless", _markerless_attempts(markerless_cases)),
        _measure(
            "markerless, a dartboard painted otherwise",
            _markerless_attempts(dartboard_cases(rng, max(2, cases // 2))),
        ),
        _measure(
            "markerless, a phone's 12-megapixel photo",
            _markerless_attempts(
                [replace(case, image_size=PHONE_PHOTO) for case in markerless_cases[:2]]
            ),
        ),
        _bench_drift(marker_cases[:4]),
        _bench_drift(markerless_cases[:2], markerless=True),
        _bench_lens(seed),
    ]
    result = {
        "benchmark": "calibration",
        "seed": seed,
        "image_size": [1280, 720],
        "rows": rows,
        "seconds": round(time.perf_counter() - started, 1),
    }
    if json_output:
        print(json.dumps(result))
    else:
        print(_table(rows))
        print(f"seed {seed}, 1280x720, tilt 0-55 deg, k1 -0.3..0 (lens known), noise, light, JPEG")
    return result


def _table(rows: list[dict[str, Any]]) -> str:
    def cell(value: Any) -> str:
        return "-" if value is None else f"{value}"

    header = ("method", "cases", "failed", "RMS mm median", "RMS mm max", "max mm", "ms")
    body = [
        (
            r["method"],
            str(r["cases"]),
            str(r["failed"]),
            cell(r["rms_mm_median"]),
            cell(r["rms_mm_max"]),
            cell(r["max_mm_max"]),
            cell(r["ms_median"]),
        )
        for r in rows
    ]
    widths = [max(len(row[i]) for row in [header, *body]) for i in range(len(header))]
    lines = ["  ".join(v.ljust(w) for v, w in zip(header, widths, strict=True))]
    lines += ["  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)) for row in body]
    return "\n".join(lines)
