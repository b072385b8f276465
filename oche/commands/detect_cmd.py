"""``oche detect`` (darts in a folder of frames) and ``oche sim record`` (make such a folder).

``oche detect --json`` prints one JSON object per line, the contract of the design notes:
calibrated, then dart / bounceout / takeout as they happen, and a summary last.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import cv2

import boards
from calibration.errors import CalibrationError
from calibration.model import Calibration
from calibration.model import load as load_calibration
from calibration.model import save as save_calibration
from oche.errors import UserError
from oche.progress import Progress
from vision.detector import Detector, SettleError
from vision.events import DartEvent
from vision.motion import MotionGate, downscale
from vision.sources.replay import FolderSource


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    detect = subparsers.add_parser(
        "detect", help="find darts in a folder of camera frames (name order, one camera)"
    )
    detect.add_argument("--board", required=True, help="built-in board id or board file")
    detect.add_argument("--frames", required=True, type=Path, help="folder of images")
    detect.add_argument(
        "--calibration",
        type=Path,
        help="calibration file (default: calibrate from the markers in the first frame)",
    )
    detect.add_argument("--json", action="store_true", help="one JSON event per line")
    detect.add_argument(
        "--mode",
        choices=["auto", "video", "stills"],
        default="auto",
        help="video: consecutive frames of a camera; stills: one photo per state of the board "
        "(empty, one dart, two darts...); auto (default) tells them apart",
    )
    detect.set_defaults(func=run_detect)

    sim = subparsers.add_parser("sim", help="the scene simulator")
    sim_sub = sim.add_subparsers(dest="sim_command", metavar="ACTION", required=True)
    record = sim_sub.add_parser(
        "record", help="write a simulated session as image files plus truth.json"
    )
    record.add_argument("--board", required=True, help="built-in board id or board file")
    record.add_argument("--out", required=True, type=Path, help="folder to write (created)")
    record.add_argument("--seed", type=int, default=1)
    record.add_argument("--darts", type=int, default=9, help="darts thrown (3 per turn)")
    record.add_argument(
        "--format", choices=["jpg", "png"], default="jpg", help="image format (default jpg)"
    )
    record.add_argument(
        "--look",
        choices=["print", "painted"],
        help="the board's look: our print, or (classic only) a steel-tip dartboard as its "
        "maker paints it, with no markers (default: the seed chooses)",
    )
    record.add_argument("--width", type=int, default=1280)
    record.add_argument("--height", type=int, default=720)
    record.set_defaults(func=run_record)


def _emit(
    args: argparse.Namespace, data: dict[str, Any], text: str, progress: Progress | None = None
) -> None:
    if progress is not None:
        progress.clear()  # the report starts at the left edge, not after the count
    print(json.dumps(data) if args.json else text, flush=True)


def calibrate_first_frame(board: boards.Board, image: Any) -> tuple[Calibration, str]:
    """(calibration, how): from the board's printed markers; when none of any board shows (a
    real dartboard has none, a print may have them cut off), from its artwork, kept only if
    the fit is good. The calibration package does the work."""
    from calibration.markerless import calibrate_markerless
    from calibration.markers import calibrate_from_markers, detect_markers

    if not board.markers or not detect_markers(image, board.marker_dictionary):
        try:
            result = calibrate_markerless(board, image)
            result.require_quality()
        except CalibrationError as exc:
            raise CalibrationError(
                f"no printed markers in view, and the board's artwork did not match: {exc}"
            ) from None
        return result.calibration, "from the board's artwork (no markers in view)"
    return calibrate_from_markers(board, image).calibration, "from the markers"


def looks_like_stills(source: FolderSource, progress: Progress | None = None) -> bool:
    """Separate photos rather than video: consecutive images rarely show the same scene."""
    gate = MotionGate()
    quiet = moving = 0
    for index, frame in enumerate(source):
        if progress is not None:
            progress(index + 1, len(source.files))
        result = gate.update(downscale(frame.image, 320))
        if gate.sigma is None:
            continue
        quiet += not result.moving
        moving += result.moving
    return quiet < moving or quiet + moving < 8


def run_detect(args: argparse.Namespace) -> int:
    board = boards.load(args.board)
    source = FolderSource(args.frames)
    stills = args.mode == "stills" or (
        args.mode == "auto" and looks_like_stills(source, Progress("images looked through"))
    )
    if stills and not args.json:
        print("treating the images as separate photos of the board (--mode video to override)")
    source = FolderSource(args.frames)
    frames = iter(source)
    detector: Detector | None = None
    progress = Progress("frames", every=10)
    count = 0
    unread = 0  # settles the detector failed to read
    busy = 0.0
    try:
        for frame in frames:
            if detector is None:
                if args.calibration is not None:
                    calibration = load_calibration(args.calibration)
                    calibration.check_fits(board.id, frame.size, str(args.calibration))
                    how = f"from {args.calibration}"
                else:
                    try:
                        calibration, how = calibrate_first_frame(board, frame.image)
                    except CalibrationError as exc:
                        raise CalibrationError(
                            f"{args.frames / frame.name}: {exc} Or calibrate from tapped "
                            "points (oche calibrate --points) and give the file: "
                            "--calibration FILE"
                        ) from None
                rms = float(calibration.rms_mm)
                _emit(
                    args,
                    {"event": "calibrated", "rms_mm": round(rms, 4)},
                    f"calibrated {how}: RMS {rms:.2f} mm",
                    progress,
                )
                detector = Detector(board, calibration)
            start = time.perf_counter()
            try:
                events = detector.process_still(frame) if stills else detector.process(frame)
            except SettleError as exc:
                # A detector bug on one settle: say so and go on with the rest of the frames.
                progress.clear()
                print(f"warning: {exc}", file=sys.stderr, flush=True)
                unread += 1
                events = []
            busy += time.perf_counter() - start
            count += 1
            for event in events:
                _emit(args, event.to_json(), _describe(event), progress)
            progress(count, len(source.files))
    finally:
        source.close()
        progress.clear()
    ms = 1000 * busy / count if count else 0.0
    _emit(
        args,
        {"event": "summary", "frames": count, "ms_per_frame": round(ms, 3)},
        f"{count} frames, {ms:.1f} ms per frame",
    )
    if unread:
        print(
            f"warning: {unread} settle(s) could not be read: darts thrown then are missing "
            "from this report",
            file=sys.stderr,
        )
        return 1
    return 0


def _describe(event: Any) -> str:
    data = event.to_json()
    if isinstance(event, DartEvent):
        where = (
            f"zone {event.zone}"
            if len(event.candidates) <= 1
            else f"on the line between {', '.join(event.candidates)}"
        )
        if event.zone is None and not event.candidates:
            where = "off the board"
        return (
            f"{event.frame}: dart at ({event.x_mm:.1f}, {event.y_mm:.1f}) mm "
            f"± {event.sigma_mm:.1f} mm: {where}"
        )
    return f"{data['frame']}: {data['event']}"


def run_record(args: argparse.Namespace) -> int:
    from vision.sim.dartboard import is_dartboard
    from vision.sim.scenario import random_session

    if args.darts < 1:
        raise UserError("--darts must be at least 1")
    board = boards.load(args.board)
    if args.look == "painted" and not is_dartboard(board):
        raise UserError(
            f"--look painted: board {board.id!r} is not a steel-tip dartboard. Fix: use "
            "--board classic, or leave --look out"
        )
    turns = math.ceil(args.darts / 3)
    session = random_session(
        board,
        args.seed,
        turns=turns,
        darts_per_turn=3,
        image_size=(args.width, args.height),
        total_darts=args.darts,
        look=args.look,
    )
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    if any(out.glob(f"frame_*.{args.format}")):
        raise UserError(f"--out {out}: already holds frames. Fix: give an empty folder")
    params = [cv2.IMWRITE_JPEG_QUALITY, 95] if args.format == "jpg" else []
    for name, _timestamp, image in session:
        if not cv2.imwrite(str(out / f"{name}.{args.format}"), image, params):
            raise UserError(f"cannot write {out / name}.{args.format}")
    truth = dict(session.truth)
    truth["frame_names"] = [session.frame_name(i) for i in range(len(session.frames))]
    (out / "truth.json").write_text(json.dumps(truth, indent=1) + "\n", encoding="utf-8")
    save_calibration(session.calibration, out / "calibration.json")
    print(
        f"wrote {len(session.frames)} frames, truth.json and calibration.json to {out}",
        file=sys.stdout,
    )
    return 0
