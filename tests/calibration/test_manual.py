"""Manual calibration from tapped points: accuracy with noisy taps, mis-tap flags, errors."""

from __future__ import annotations

import json

import numpy as np
import pytest

from calibration.errors import CalibrationError
from calibration.fit import check_view
from calibration.manual import TapPoint, calibrate_from_points, load_points, parse_points
from calibration.synthetic import Case, board_error_mm, camera_for, tap_points, true_lens

STEEP = Case("groundround", 55, 30, 5, -0.3)
TAP_NOISE_PX = 0.5


def _taps(board, camera, board_pts, seed, noise=TAP_NOISE_PX):
    rng = np.random.default_rng(seed)
    pixels = camera.project(board_pts) + rng.normal(0, noise, (len(board_pts), 2))
    return [
        TapPoint((float(u), float(v)), (float(x), float(y)), f"tap {k}")
        for k, ((u, v), (x, y)) in enumerate(zip(pixels, board_pts, strict=True))
    ]


@pytest.mark.parametrize(
    "case",
    [
        Case("groundround", 0, 0),
        Case("groundround", 40, 120, -8, -0.15),
        STEEP,
        Case("classic", 55, 250, 12, -0.2),
    ],
    ids=lambda c: f"{c.board_id}-{c.name}",
)
def test_noisy_taps_recover_board_positions(case):
    import boards

    board = boards.load(case.board_id)
    camera = camera_for(board, case)
    lens = true_lens(camera) if case.k1 else None
    points = _taps(board, camera, tap_points(board), seed=11)
    result = calibrate_from_points(board, camera.image_size, points, lens)
    rms, _ = board_error_mm(result.calibration, camera, board)
    assert rms < 0.5, f"RMS {rms:.3f} mm"
    assert not any(p.flagged for p in result.report.points)
    assert result.acceptable


def test_a_mis_tap_is_flagged_and_left_out(groundround):
    camera = camera_for(groundround, STEEP)
    points = _taps(groundround, camera, tap_points(groundround), seed=3)
    u, v = points[5].pixel
    points[5] = TapPoint((u + 25, v - 18), points[5].board_mm, "the mis-tap")
    result = calibrate_from_points(groundround, camera.image_size, points, true_lens(camera))
    flagged = [p.label for p in result.report.points if p.flagged]
    assert flagged == ["the mis-tap"]
    assert not result.report.points[5].used
    assert result.report.points[5].residual_mm > 10
    assert board_error_mm(result.calibration, camera, groundround)[0] < 0.5
    assert "mis-tap" in result.report.text()


def test_more_points_fit_better(groundround):
    camera = camera_for(groundround, STEEP)
    lens = true_lens(camera)
    all_pts = tap_points(groundround)
    corners_only = all_pts[[0, 9, 17, 26]]  # one corner of 4 markers near the sheet corners
    few, many = [], []
    for seed in range(8):
        few_result = calibrate_from_points(
            groundround, camera.image_size, _taps(groundround, camera, corners_only, seed), lens
        )
        many_result = calibrate_from_points(
            groundround, camera.image_size, _taps(groundround, camera, all_pts, seed), lens
        )
        few.append(board_error_mm(few_result.calibration, camera, groundround)[0])
        many.append(board_error_mm(many_result.calibration, camera, groundround)[0])
    assert np.median(many) < 0.6 * np.median(few)
    assert any("4 points fit exactly" in n for n in few_result.report.notes)


def test_too_few_points_bunched_points_and_outside_points(groundround):
    size = (1280, 720)
    p = [TapPoint((100 + 10 * k, 100), (50 * k, 20), f"p{k}") for k in range(3)]
    with pytest.raises(CalibrationError, match="at least 4"):
        calibrate_from_points(groundround, size, p)
    line = [TapPoint((100 + 50 * k, 100 + 10 * k), (100 * k, 20 * k), f"p{k}") for k in range(5)]
    with pytest.raises(CalibrationError, match="on a line or bunched"):
        calibrate_from_points(groundround, size, line)
    outside = [
        TapPoint((u, v), (x, y), f"p{k}")
        for k, ((u, v), (x, y)) in enumerate(
            [
                ((10, 10), (0, 0)),
                ((1300, 10), (600, 0)),
                ((1200, 700), (600, 600)),
                ((10, 700), (0, 600)),
            ]
        )
    ]
    with pytest.raises(CalibrationError, match="outside the 1280x720 image: p1"):
        calibrate_from_points(groundround, size, outside)


def test_mirrored_taps_are_refused(groundround):
    """Points given left-right swapped (or a mirrored selfie image) flip the board."""
    camera = camera_for(groundround, Case("groundround", 20, 0))
    pts = tap_points(groundround)
    pixels = camera.project(pts)
    mirrored = [
        TapPoint((1279 - u, v), (x, y), f"p{k}")
        for k, ((u, v), (x, y)) in enumerate(zip(pixels, pts, strict=True))
    ]
    with pytest.raises(CalibrationError, match="mirrored"):
        calibrate_from_points(groundround, camera.image_size, mirrored)


def test_singular_mapping_is_refused():
    with pytest.raises(CalibrationError, match="singular"):
        check_view(np.array([[1.0, 2, 3], [2, 4, 6], [0, 0, 1]]), (600, 600), (1280, 720))


def test_points_file_forms(groundround, tmp_path):
    marker = groundround.markers[0]
    zone_id = next(iter(groundround.zones))
    data = [
        {"pixel": [10, 20], "board_mm": [30.5, 40]},
        {"pixel": [11, 21], "zone": zone_id},
        {"pixel": [12, 22], "marker": marker.id, "corner": 2},
    ]
    path = tmp_path / "taps.json"
    path.write_text(json.dumps({"points": data}))
    points = load_points(path, groundround)
    assert points[0].board_mm == (30.5, 40.0)
    assert points[1].board_mm == groundround.zones[zone_id].centroid
    assert points[2].board_mm == marker.corners[2]
    assert points[2].label == f"marker {marker.id} corner 2"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"x": 1}, "expected a list"),
        ([{"pixel": [1, 2]}], "point 1: say where it is"),
        ([{"pixel": [1], "board_mm": [1, 2]}], "point 1: 'pixel' must be two numbers"),
        ([{"pixel": [1, 2], "board_mm": [1, "a"]}], "'board_mm' must be two numbers"),
        ([{"pixel": [1, 2], "zone": "atlantis"}], "no zone 'atlantis'"),
        ([{"pixel": [1, 2], "marker": 99}], "no marker 99"),
        ([{"pixel": [1, 2], "marker": 16, "corner": 7}], "'corner' must be 0-3"),
    ],
)
def test_bad_points_say_which_entry(groundround, data, message):
    with pytest.raises(CalibrationError, match=message):
        parse_points(data, groundround)


def test_corrupt_points_file(groundround, tmp_path):
    path = tmp_path / "taps.json"
    path.write_text('[{"pixel": [1, 2], ')
    with pytest.raises(CalibrationError, match="not valid JSON"):
        load_points(path, groundround)
    with pytest.raises(CalibrationError, match="no such points file"):
        load_points(tmp_path / "missing.json", groundround)
