"""``oche bench ...``: measurements against targets. One function per sub-command, so other
parts (boards, calibration, table) can add theirs: ``add_<name>_parser(sub)``."""

from __future__ import annotations

import argparse
import json
import sys

from oche.progress import Progress


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    bench = subparsers.add_parser("bench", help="benchmarks (vision, ...)")
    sub = bench.add_subparsers(dest="bench_command", metavar="WHAT", required=True)
    add_vision_parser(sub)
    add_boards_parser(sub)
    add_calibration_parser(sub)
    add_table_parser(sub)


# --- vision -------------------------------------------------------------------------------
def add_vision_parser(sub: argparse._SubParsersAction) -> None:
    vision = sub.add_parser(
        "vision", help="dart detection on seeded simulated sessions, scored against the truth"
    )
    vision.add_argument("--seed", type=int, default=1)
    vision.add_argument("--sessions", type=_count, default=4, help="sessions per board")
    vision.add_argument(
        "--boards", default="dartwars,groundround,classic", help="comma-separated board ids"
    )
    vision.add_argument("--json", action="store_true", help="print JSON")
    vision.add_argument("--misses", action="store_true", help="list every miss and phantom")
    vision.add_argument(
        "--stills",
        action="store_true",
        help="one photo per state of the board (empty, each dart, each takeout) instead of "
        "every video frame, as `oche detect --mode stills` reads a folder of photos",
    )
    vision.add_argument(
        "--handheld",
        action="store_true",
        help="with --stills: each photo also turned and tilted a little, with its own "
        "exposure, white balance and focus (a phone held in the hand), not only shifted (a "
        "tripod touched)",
    )
    vision.add_argument(
        "--size",
        default="1280x720",
        help="the simulated camera's picture, WIDTHxHEIGHT in pixels (default 1280x720, "
        "where the targets are set): how the detector fares with other cameras",
    )
    vision.add_argument(
        "--jpeg",
        type=int,
        metavar="QUALITY",
        help="compress every frame at this JPEG quality (1-100; default: half the sessions "
        "75-95, half none), as a webcam's MJPEG stream or a phone's photos do",
    )
    vision.add_argument(
        "--noise-draw",
        type=int,
        default=0,
        metavar="N",
        help="the same sessions with another draw of the camera's noise (0: their own): how "
        "much of a result is the luck of one draw",
    )
    vision.add_argument(
        "--lamp-switch",
        action="store_true",
        help="one more lamp switched on, or off, once in every session (after a throw or "
        "as the darts are pulled); the throws stay those of the sessions without it",
    )
    vision.set_defaults(func=run_vision)


def run_vision(args: argparse.Namespace) -> int:
    from vision.bench import format_table, run

    board_ids = [b.strip() for b in args.boards.split(",") if b.strip()]
    if not board_ids:
        # A benchmark of nothing would meet every target.
        print("oche bench vision: give at least one board, e.g. --boards classic", file=sys.stderr)
        return 2
    if args.handheld and not args.stills:
        print("oche bench vision: --handheld describes photos; add --stills", file=sys.stderr)
        return 2
    image_size = _picture_size(args.size)
    if image_size is None:
        print(
            f"oche bench vision: --size {args.size!r} is not WIDTHxHEIGHT in pixels, "
            "e.g. --size 1920x1080 (each side 320-8192)",
            file=sys.stderr,
        )
        return 2
    if args.jpeg is not None and not 1 <= args.jpeg <= 100:
        print(
            f"oche bench vision: --jpeg {args.jpeg} is no JPEG quality: give 1-100, e.g. --jpeg 60",
            file=sys.stderr,
        )
        return 2
    if args.noise_draw < 0:
        print(
            f"oche bench vision: --noise-draw {args.noise_draw} is no draw: give 0 (the "
            "sessions' own noise) or more, e.g. --noise-draw 1",
            file=sys.stderr,
        )
        return 2
    result = run(
        board_ids,
        args.sessions,
        args.seed,
        Progress("sessions"),
        stills=args.stills,
        handheld=args.handheld,
        image_size=image_size,
        jpeg_quality=args.jpeg,
        noise_draw=args.noise_draw,
        lamp_switch=args.lamp_switch,
    )
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print(format_table(result))
    if args.misses:
        for board, row in result["boards"].items():
            for miss in row["misses"]:
                print(board, json.dumps(miss))
    return 0


def _picture_size(text: str) -> tuple[int, int] | None:
    """``"1920x1080"`` as (1920, 1080); None when it is no picture size a camera gives."""
    width, _, height = text.lower().partition("x")
    if not (width.isdigit() and height.isdigit()):
        return None
    size = (int(width), int(height))
    return size if all(320 <= side <= 8192 for side in size) else None


# --- boards, calibration, table ----------------------------------------------------------
def add_boards_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("boards", help="zone lookups per second, single points and batches")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print only JSON")
    parser.set_defaults(
        func=lambda args: _quiet(__import__("boards.bench").bench.run(args.seed, args.json))
    )


def add_calibration_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("calibration", help="accuracy and time of each calibration method")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print only JSON")
    parser.set_defaults(func=run_calibration)


def run_calibration(args: argparse.Namespace) -> int:
    from calibration.bench import run

    run(args.seed, args.json)
    return 0


def add_table_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("table", help="latency from a settled dart to the tablet's update")
    parser.add_argument("--darts", type=_count, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print only JSON")
    parser.add_argument(
        "--tablets", type=_count, default=20, help="tablets and phones listening (default 20)"
    )
    parser.set_defaults(
        func=lambda args: _quiet(
            __import__("oche.bench_table").bench_table.run(
                args.darts, args.seed, args.json, tablets=args.tablets
            )
        )
    )


def _count(text: str) -> int:
    """A count of things to run (argparse type): a benchmark of nothing measures nothing."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is no whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} runs nothing: give 1 or more")
    return value


def _quiet(_result: object) -> int:
    return 0
