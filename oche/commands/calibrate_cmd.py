"""``oche calibrate`` (image <-> board calibration) and ``oche calibrate-lens``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import boards
from calibration import model
from calibration.errors import CalibrationError
from calibration.images import read_image
from calibration.lens import IMAGE_SUFFIXES, calibrate_lens, load_lens, save_lens, write_sheet
from calibration.result import CalibrationResult


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    cal = subparsers.add_parser(
        "calibrate",
        help="calibrate a camera image to the board (markers, tapped points or artwork)",
        description=(
            "Find where the board is in a camera image. By default from the printed markers; "
            "--points uses tapped points, --markerless the board's artwork. Prints the error "
            "on the board in mm; writes the calibration only if it passes the quality check."
        ),
    )
    cal.add_argument("--board", required=True, help="built-in board id or board file")
    cal.add_argument("--image", required=True, type=Path, help="camera image (PNG/JPEG)")
    cal.add_argument("--out", type=Path, help="calibration file to write (JSON)")
    cal.add_argument("--lens", type=Path, help="lens file from `oche calibrate-lens`")
    method = cal.add_mutually_exclusive_group()
    method.add_argument(
        "--points",
        type=Path,
        help='JSON list of tapped points: [{"pixel": [u, v], "board_mm": [x, y]}, ...]',
    )
    method.add_argument(
        "--markerless", action="store_true", help="match the board's artwork instead of markers"
    )
    method.add_argument(
        "--check",
        type=Path,
        metavar="CAL.json",
        help="drift check: is the board still where this calibration says? (recalibrates "
        "when it moved and --out is given)",
    )
    cal.add_argument("--reference", type=Path, help="with --markerless: a scan/PNG of the board")
    cal.add_argument("--reference-dpi", type=float, help="the --reference image's dpi")
    cal.add_argument("--overlay", type=Path, help="write a picture with the zones projected")
    cal.add_argument(
        "--force", action="store_true", help="keep a calibration above the error limit"
    )
    cal.add_argument("--json", action="store_true", help="print JSON")
    cal.set_defaults(func=run_calibrate)

    lens = subparsers.add_parser(
        "calibrate-lens",
        help="measure the camera's lens from photos of a printed ChArUco sheet",
        description=(
            "Print the sheet with --print-sheet (at 100%, flat), take 10-20 photos of it at "
            "different angles and positions with the camera at the resolution you play at, "
            "then run with --images DIR."
        ),
    )
    what = lens.add_mutually_exclusive_group(required=True)
    what.add_argument("--images", type=Path, help="folder of photos of the sheet")
    what.add_argument("--print-sheet", type=Path, metavar="FILE.png", help="write the sheet")
    lens.add_argument("--out", type=Path, default=Path("lens.json"), help="lens file to write")
    lens.add_argument("--dpi", type=float, default=200, help="sheet resolution (default 200)")
    lens.add_argument("--json", action="store_true", help="print JSON")
    lens.set_defaults(func=run_calibrate_lens)


def run_calibrate(args: argparse.Namespace) -> int:
    if args.out:
        _check_writable(args.out)
    board = boards.load(args.board)
    image = read_image(args.image)
    height, width = image.shape[:2]
    lens = load_lens(args.lens) if args.lens else None
    if (args.reference or args.reference_dpi) and not (args.markerless or args.check):
        raise CalibrationError("--reference and --reference-dpi go with --markerless")
    if args.check:
        return _run_check(args, board, image)
    if args.points:
        from calibration.manual import calibrate_from_points, load_points

        result = calibrate_from_points(
            board, (width, height), load_points(args.points, board), lens
        )
    elif args.markerless:
        from calibration.markerless import calibrate_markerless, scan_reference

        reference = None
        if args.reference:
            if not args.reference_dpi:
                raise CalibrationError("--reference needs --reference-dpi (the scan's dpi)")
            reference = scan_reference(args.reference, args.reference_dpi, board)
        result = calibrate_markerless(board, image, lens, reference)
    else:
        from calibration.markers import calibrate_from_markers

        result = calibrate_from_markers(board, image, lens)

    overlay_path = None
    if args.overlay:
        from calibration.overlay import draw_overlay, save_overlay

        save_overlay(args.overlay, draw_overlay(image, result.calibration, board, result.report))
        overlay_path = str(args.overlay)
    refused = None
    if not args.force:
        try:
            result.require_quality()
        except CalibrationError as exc:
            refused = exc
    written = None
    if args.out and refused is None:
        model.save(result.calibration, args.out)
        written = str(args.out)
    _print(result, args, written, overlay_path, refused)
    if refused is not None:
        note = f" {args.out} was left as it was." if args.out else ""
        raise CalibrationError(f"{refused}{note}")
    return 0


def _run_check(args: argparse.Namespace, board, image) -> int:
    from calibration.drift import check_drift

    calibration = model.load(args.check)
    calibration.check_fits(board.id, (image.shape[1], image.shape[0]), str(args.check))
    reference = None
    if args.reference:
        from calibration.markerless import scan_reference

        if not args.reference_dpi:
            raise CalibrationError("--reference needs --reference-dpi (the scan's dpi)")
        reference = scan_reference(args.reference, args.reference_dpi, board)
    result = check_drift(calibration, board, image, reference=reference)
    written = None
    if result.calibration is not None and args.out:
        model.save(result.calibration, args.out)
        written = str(args.out)
    if args.json:
        print(json.dumps({**result.to_json(), "written": written}))
    else:
        moved = "" if result.moved_mm is None else f" (moved {result.moved_mm:.2f} mm)"
        print(f"{result.status}{moved}: {result.message} [{result.ms:.1f} ms]")
        if written:
            print(f"new calibration written to {written}")
        elif result.calibration is not None:
            print("give --out FILE to save the new calibration")
    return 0 if result.status in ("ok", "recalibrated") else 1


def _check_writable(path: Path) -> None:
    if path.parent and not path.parent.exists():
        raise CalibrationError(f"{path.parent}: no such folder for --out")
    if path.is_dir():
        raise CalibrationError(f"{path}: is a folder; --out needs a file name (cal.json)")


def _print(
    result: CalibrationResult,
    args: argparse.Namespace,
    written: str | None,
    overlay: str | None,
    refused: Exception | None,
) -> None:
    if args.json:
        print(
            json.dumps(
                {
                    "ok": refused is None,
                    "board": result.calibration.board,
                    "image_size": list(result.calibration.image_size),
                    "rms_mm": round(result.report.rms_mm, 4),
                    "max_mm": round(result.report.max_mm, 4),
                    "report": result.report.to_json(),
                    "calibration": result.calibration.to_json(),
                    "written": written,
                    "overlay": overlay,
                }
            )
        )
        return
    print(result.report.text())
    limit = result.max_rms_mm
    if refused is None:
        forced = " (forced)" if not result.acceptable else ""
        print(f"quality check: passed{forced} (RMS limit {limit:.1f} mm)")
    else:
        print(f"quality check: FAILED (RMS limit {limit:.1f} mm)")
    if overlay:
        print(f"overlay: {overlay} (check that the outlines sit on the printed lines)")
    if written:
        print(f"calibration written to {written}")
    elif refused is None and not args.out:
        print("(no --out given: nothing written)")


def run_calibrate_lens(args: argparse.Namespace) -> int:
    if args.print_sheet:
        path = write_sheet(args.print_sheet, args.dpi)
        print(
            f"sheet written to {path}: print it at 100% (no scaling) and glue it flat; "
            "then photograph it 10-20 times and run `oche calibrate-lens --images DIR`"
        )
        return 0
    folder: Path = args.images
    if not folder.is_dir():
        raise CalibrationError(f"{folder}: no such folder of photos")
    files = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if not files:
        raise CalibrationError(f"{folder}: no PNG or JPEG photos in it")
    lens, notes = calibrate_lens((p.name, read_image(p)) for p in files)
    if args.out.parent and not args.out.parent.exists():
        raise CalibrationError(f"{args.out.parent}: no such folder for --out")
    save_lens(lens, args.out)
    if args.json:
        print(json.dumps({**lens.to_json(), "notes": notes, "written": str(args.out)}))
        return 0
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    k = lens.camera_matrix
    print(
        f"lens from {lens.views} photos: focal {k[0, 0]:.1f} x {k[1, 1]:.1f} px, centre "
        f"({k[0, 2]:.1f}, {k[1, 2]:.1f}), distortion "
        + ", ".join(f"{v:.4f}" for v in lens.dist_coeffs.ravel())
        + f"; reprojection RMS {lens.rms_px:.2f} px"
    )
    print(f"lens written to {args.out}: use it with `oche calibrate ... --lens {args.out}`")
    return 0
