"""``oche demo`` (a simulated camera) and ``oche serve`` (a real camera): the whole table."""

from __future__ import annotations

import argparse
import logging
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any

import boards
from oche.config import add_config_argument, load_config
from oche.errors import UserError
from oche.store import Store
from oche.table import Table
from oche.watchdog import notify_ready, notify_stopping

DEMO_GAMES = {"dartwars": "dartwars", "groundround": "groundround"}


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    demo = subparsers.add_parser(
        "demo", help="the whole table with a simulated camera (no hardware)"
    )
    demo.add_argument(
        "--board", default="groundround", choices=sorted(DEMO_GAMES), help="board the camera sees"
    )
    demo.add_argument("--players", default="Ann,Bob", help="comma-separated names for a new game")
    demo.add_argument("--seed", type=int, default=1, help="seed of the simulated camera")
    _server_arguments(demo, default_port=8000)
    demo.add_argument(
        "--run-seconds",
        type=float,
        default=None,
        help="stop after this many seconds (for scripts and tests)",
    )
    demo.set_defaults(func=run_demo)

    serve = subparsers.add_parser(
        "serve", help="the table with a real camera (settings from the configuration file)"
    )
    add_config_argument(serve)
    serve.add_argument("--camera", help='"picamera2", a USB index ("0"), a stream URL, or "sim"')
    serve.add_argument("--board", help="built-in board id or board file")
    serve.add_argument(
        "--calibration", type=Path, help="calibration file (default: in the data directory)"
    )
    _server_arguments(serve, default_port=None)
    serve.add_argument("--run-seconds", type=float, default=None, help=argparse.SUPPRESS)
    serve.set_defaults(func=run_serve)


def _server_arguments(parser: argparse.ArgumentParser, default_port: int) -> None:
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
    parser.add_argument(
        "--port", type=int, default=default_port, help=f"port (default {default_port})"
    )
    parser.add_argument("--data-dir", type=Path, help="where games and settings are kept")
    parser.add_argument("--pin", help="set the table's PIN (4-8 digits)")


def _data_dir(args: argparse.Namespace, sub: str = "") -> Path:
    if args.data_dir:
        return args.data_dir
    from platformdirs import user_data_dir

    return Path(user_data_dir("oche")) / sub if sub else Path(user_data_dir("oche"))


def _check_pin(pin: str | None) -> None:
    if pin is not None and not (pin.isdigit() and 4 <= len(pin) <= 8):
        raise UserError("--pin must be 4 to 8 digits")


def run_demo(args: argparse.Namespace) -> int:
    from calibration.errors import CalibrationError
    from calibration.lens import Lens
    from calibration.markers import calibrate_from_markers
    from calibration.model import from_camera
    from oche.pipeline import CameraPipeline
    from vision.sim.live import LiveSimSource
    from vision.sim.render import FrameSpec

    _check_pin(args.pin)
    board = boards.load(args.board)
    data_dir = _data_dir(args, "demo")
    table = Table(Store(data_dir / "oche.sqlite3"))
    session = table.session
    if session is None or session.record.board != board.id or session.record.finished:
        players = [p.strip() for p in args.players.split(",") if p.strip()]
        table.new_game(DEMO_GAMES[board.id], players, board.id)
    print(f"Simulated camera looking at the {board.name} board…", flush=True)
    source = LiveSimSource(board, seed=args.seed)
    # Calibrate exactly as a user's setup would: from the markers in the camera's picture,
    # with the lens known (as after `oche calibrate-lens`).
    camera = source.camera
    lens = Lens(camera.image_size, camera.camera_matrix, camera.dist_coeffs)
    first = source.renderer.render(FrameSpec((), 0.0))
    try:
        result = calibrate_from_markers(board, first, lens)
        result.require_quality()
        calibration = result.calibration
        print(
            f"Calibrated from {len(result.report.markers_found)} markers: RMS {result.report.rms_mm:.2f} mm"
        )
    except CalibrationError as exc:
        calibration = from_camera(source.camera, board.id)
        print(f"Marker calibration failed ({exc}); using the simulator's exact calibration")
    # The simulated lens: the detector works in undistorted coordinates, as after calibrate-lens.
    if calibration.camera_matrix is None:
        from dataclasses import replace

        exact = from_camera(source.camera, board.id)
        calibration = replace(
            calibration, camera_matrix=exact.camera_matrix, dist_coeffs=exact.dist_coeffs
        )
    pipeline = CameraPipeline(source, board, calibration, table)
    _pull_darts_between_turns(table, source)
    return _serve(args, table, pipeline, demo=True)


def _pull_darts_between_turns(table: Table, source: Any) -> None:
    """In the demo, a hand pulls the darts when the next player is up (as players do)."""

    def watch() -> None:
        last_player = None
        for message in table.hub.listen(table.hub.last_id, heartbeat_s=5.0):
            if message is None or message.event != "state":
                continue
            snap = message.data.get("snapshot") or {}
            player = (snap.get("prompt") or {}).get("player")
            if last_player is not None and player != last_player:
                time.sleep(0.8)
                source.pull_darts()
            last_player = player

    threading.Thread(target=watch, name="demo-takeout", daemon=True).start()


def run_serve(args: argparse.Namespace) -> int:
    from calibration.model import CalibrationFileError
    from calibration.model import load as load_calibration
    from oche.pipeline import CameraPipeline
    from oche.watchdog import Watchdog
    from vision.sources import open_source

    config = load_config(args.config)
    for warning in config.warnings:
        print(f"note: {warning}")
    _check_pin(args.pin)
    board = boards.load(args.board or config.board.id)
    data_dir = args.data_dir or config.data.dir
    if args.board and not args.calibration:
        calibration_path = data_dir / f"calibration-{board.id}.json"
    else:
        calibration_path = args.calibration or config.calibration_file
    args.host = args.host or config.server.host
    args.port = args.port or config.server.port
    args.pin = args.pin or config.server.pin
    spec = args.camera or config.camera.source
    if spec == "sim":
        args.board, args.seed, args.data_dir = board.id, 1, data_dir
        args.players = "Ann,Bob"
        return run_demo(args)
    calibration = None
    if calibration_path.exists():
        calibration = load_calibration(calibration_path)
        if calibration.board != board.id:
            raise CalibrationFileError(
                f"{calibration_path}: this calibration is for board {calibration.board!r}, not {board.id!r}. "
                "Fix: calibrate again on the tablet's Calibrate page"
            )
    else:
        print(f"No calibration yet ({calibration_path}): open the Calibrate page on the tablet.")
    table = Table(Store(data_dir / "oche.sqlite3"))
    source = open_source(
        spec, size=config.camera.size, fps=config.camera.fps, settle_s=config.camera.settle_seconds
    )
    # systemd restarts the service when the camera pipeline stops beating (a hung camera);
    # a camera that is reconnecting on its own is not hung.
    watchdog = Watchdog(
        excused=lambda: getattr(source.status, "state", "") == "reconnecting"
    ).start()
    pipeline = CameraPipeline(
        source,
        board,
        calibration,
        table,
        calibration_path=calibration_path,
        heartbeat=watchdog.beat,
    )
    try:
        return _serve(args, table, pipeline, demo=False)
    finally:
        watchdog.stop()


def _serve(args: argparse.Namespace, table: Table, pipeline: Any, demo: bool) -> int:
    from werkzeug.serving import make_server

    from webui import create_app

    app = create_app({"PIN": args.pin, "DEMO": demo}, table=table, camera=pipeline)
    try:
        server = make_server(args.host, args.port, app, threaded=True)
    except OSError as exc:
        raise UserError(
            f"cannot listen on {args.host}:{args.port} ({exc.strerror}): try another --port"
        ) from None
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    pipeline.start()
    notify_ready(f"web UI on port {server.server_port}")
    pin = table.store.setting("pin")
    host = socket.gethostname()
    print(
        f"Oche {'demo ' if demo else ''}is running: open http://{host}.local:{server.server_port}/ "
        f"or http://localhost:{server.server_port}/ on the tablet"
    )
    print(f"Table PIN: {pin}  (enter it on the tablet to control the game)", flush=True)
    if args.run_seconds is not None:
        threading.Timer(args.run_seconds, server.shutdown).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("stopping", file=sys.stderr)
    finally:
        notify_stopping()
        table.hub.close()
        pipeline.stop()
        server.server_close()
    return 0
