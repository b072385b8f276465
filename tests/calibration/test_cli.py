"""`oche calibrate` and `oche calibrate-lens` as a user runs them."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from calibration import model
from calibration.lens import save_lens
from calibration.synthetic import Case, tap_points, true_lens, view
from oche.cli import main

CASE = Case("groundround", 45, 20, 3, -0.2, noise=3, light=0.4, jpeg=85, seed=51)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cal")
    image, camera = view(CASE)
    cv2.imwrite(str(folder / "photo.png"), image)
    save_lens(true_lens(camera), folder / "lens.json")
    return folder, camera


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_calibrate_writes_file_and_overlay(files, capsys):
    folder, _ = files
    out_file, overlay = folder / "cal.json", folder / "overlay.png"
    code, out, err = run(
        capsys,
        "calibrate", "--board", "groundround", "--image", str(folder / "photo.png"),
        "--lens", str(folder / "lens.json"), "--out", str(out_file), "--overlay", str(overlay),
    )  # fmt: skip
    assert code == 0, err
    assert "RMS" in out and "max" in out and "mm" in out
    assert "markers found: 16, 17, 18, 19, 20, 21, 22, 23" in out
    calibration = model.load(out_file)
    assert calibration.board == "groundround" and calibration.has_lens
    assert calibration.extra["method"] == "markers"
    picture = cv2.imread(str(overlay))
    assert picture.shape == (720, 1280, 3)
    # The overlay draws found markers in green around where the markers are.
    assert (np.all(picture == (0, 200, 0), axis=2)).sum() > 100


def test_json_output(files, capsys):
    folder, _ = files
    code, out, _ = run(
        capsys, "calibrate", "--board", "groundround", "--image", str(folder / "photo.png"),
        "--lens", str(folder / "lens.json"), "--json",
    )  # fmt: skip
    data = json.loads(out)
    assert code == 0 and data["ok"] and data["written"] is None
    assert data["report"]["method"] == "markers"
    assert data["calibration"]["version"] == 1
    assert len(data["calibration"]["homography"]) == 3


def test_points_file(files, capsys, groundround):
    folder, camera = files
    pts = tap_points(groundround)
    taps = [
        {"pixel": [float(u), float(v)], "board_mm": [float(x), float(y)]}
        for (u, v), (x, y) in zip(camera.project(pts), pts, strict=True)
    ]
    (folder / "taps.json").write_text(json.dumps(taps))
    code, out, err = run(
        capsys, "calibrate", "--board", "groundround", "--image", str(folder / "photo.png"),
        "--lens", str(folder / "lens.json"), "--points", str(folder / "taps.json"),
    )  # fmt: skip
    assert code == 0, err
    assert "method: manual" in out and "point 1:" in out


def test_bad_calibration_never_overwrites_a_good_one(files, capsys, groundround):
    folder, camera = files
    good = folder / "keep.json"
    run(capsys, "calibrate", "--board", "groundround", "--image", str(folder / "photo.png"),
        "--lens", str(folder / "lens.json"), "--out", str(good))  # fmt: skip
    before = good.read_text()
    pts = tap_points(groundround)[::4]  # one corner of each marker
    rng = np.random.default_rng(0)
    sloppy = camera.project(pts) + rng.normal(0, 6, (len(pts), 2))  # taps 6 px off
    taps = [{"pixel": p.tolist(), "board_mm": q.tolist()} for p, q in zip(sloppy, pts, strict=True)]
    (folder / "sloppy.json").write_text(json.dumps(taps))
    code, _, err = run(
        capsys, "calibrate", "--board", "groundround", "--image", str(folder / "photo.png"),
        "--lens", str(folder / "lens.json"), "--points", str(folder / "sloppy.json"),
        "--out", str(good),
    )  # fmt: skip
    assert code == 2
    assert "calibration too poor" in err and "was left as it was" in err
    assert "Traceback" not in err
    assert good.read_text() == before
    code, _, _ = run(
        capsys, "calibrate", "--board", "groundround", "--image", str(folder / "photo.png"),
        "--lens", str(folder / "lens.json"), "--points", str(folder / "sloppy.json"),
        "--out", str(good), "--force",
    )  # fmt: skip
    assert code == 0 and good.read_text() != before


BAD_INPUT = [
    (["--lens", "{d}/corrupt.json"], "not a readable lens file"),
    (["--image", "{d}/notimg.png"], "not a readable image"),
    (["--image", "{d}/missing.png"], "no such image file"),
    (["--board", "nosuchboard"], "unknown board"),
    (["--board", "classic"], "this looks like board groundround"),
    (["--reference", "{d}/x.png"], "go with --markerless"),
    (["--markerless", "--reference", "{d}/x.png"], "needs --reference-dpi"),
    (["--out", "{d}/nofolder/cal.json"], "no such folder"),
    (["--points", "{d}/corrupt.json"], "not valid JSON"),
]


@pytest.mark.parametrize(("args", "message"), BAD_INPUT)
def test_bad_input_gives_a_message_not_a_traceback(files, capsys, args, message):
    folder, _ = files
    (folder / "corrupt.json").write_text("{")
    (folder / "notimg.png").write_text("hello")
    argv = {"--board": "groundround", "--image": str(folder / "photo.png")}
    rest = []
    for k, arg in enumerate(args):
        if k % 2 == 0 and arg in argv:
            argv[arg] = args[k + 1].format(d=folder)
        elif not (k % 2 == 1 and args[k - 1] in argv):
            rest.append(arg.format(d=folder))
    code, _, err = run(capsys, "calibrate", *[x for pair in argv.items() for x in pair], *rest)
    assert code == 2
    assert message in err
    assert "Traceback" not in err


def test_drift_check_cli(files, capsys, groundround):
    import dataclasses

    from calibration.synthetic import render_case

    folder, camera = files
    cal = folder / "drift.json"
    run(capsys, "calibrate", "--board", "groundround", "--image", str(folder / "photo.png"),
        "--lens", str(folder / "lens.json"), "--out", str(cal))  # fmt: skip
    code, out, _ = run(
        capsys, "calibrate", "--board", "groundround", "--image", str(folder / "photo.png"),
        "--check", str(cal),
    )  # fmt: skip
    assert code == 0 and out.startswith("ok (moved 0.")
    slid = dataclasses.replace(camera, tvec=camera.tvec + camera.rotation @ np.array([-4.0, 0, 0]))
    cv2.imwrite(str(folder / "slid.png"), render_case(groundround, CASE, slid))
    new = folder / "new.json"
    code, out, _ = run(
        capsys, "calibrate", "--board", "groundround", "--image", str(folder / "slid.png"),
        "--check", str(cal), "--out", str(new), "--json",
    )  # fmt: skip
    data = json.loads(out)
    assert code == 0 and data["status"] == "recalibrated" and data["moved_mm"] > 3
    assert model.load(new).extra["recalibrated_after_drift_mm"] > 3
    cv2.imwrite(
        str(folder / "small.png"), cv2.resize(cv2.imread(str(folder / "photo.png")), (640, 360))
    )
    code, _, err = run(
        capsys, "calibrate", "--board", "groundround", "--image", str(folder / "small.png"),
        "--check", str(cal),
    )  # fmt: skip
    assert code == 2 and f"{cal}: this calibration was made at 1280x720 px" in err
    code, _, err = run(
        capsys, "calibrate", "--board", "classic", "--image", str(folder / "photo.png"),
        "--check", str(cal),
    )  # fmt: skip
    assert code == 2 and "for board 'groundround', not 'classic'" in err


def test_calibrate_lens_cli(tmp_path, capsys):
    from calibration.synthetic import lens_sheet_photos

    code, out, _ = run(capsys, "calibrate-lens", "--print-sheet", str(tmp_path / "sheet.png"))
    assert code == 0 and "print it at 100%" in out
    shots, _ = lens_sheet_photos(k1=-0.1, count=4, seed=9)
    photos = tmp_path / "photos"
    photos.mkdir()
    for name, image in shots:
        cv2.imwrite(str(photos / name), image)
    code, out, err = run(
        capsys, "calibrate-lens", "--images", str(photos), "--out", str(tmp_path / "lens.json")
    )
    assert code == 0, err
    assert "lens from 4 photos" in out
    assert json.loads((tmp_path / "lens.json").read_text())["kind"] == "oche-lens"
    code, _, err = run(capsys, "calibrate-lens", "--images", str(tmp_path / "none"))
    assert code == 2 and "no such folder" in err
