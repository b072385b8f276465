"""The camera pipeline: one thread owns the camera and turns what it sees into game actions.

source -> detector -> calibration -> board.locate -> the game's engine (through the table).
A dart the game is not waiting for is kept (with its picture) and reported, never forced in.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from boards.model import Board
from calibration.model import Calibration
from calibration.model import save as save_calibration
from oche.table import Table
from rules import RulesError
from rules.darts import dart_from_location
from vision.detector import Detector, SettleError
from vision.events import BounceoutEvent, DartEvent, TakeoutEvent
from vision.frames import Frame, FrameSizeError, FrameSource

log = logging.getLogger("oche.pipeline")

CROP_PX = 96  # half size of the picture kept around each detected tip
DRIFT_EVERY_S = 60.0  # how often a still, empty board is checked against the calibration
BLOCKED_TELL_S = 30.0  # something in front of the board this long is told to the table


class CameraPipeline:
    """Runs in its own thread; the web UI reads its status and snapshot, and may recalibrate."""

    def __init__(
        self,
        source: FrameSource,
        board: Board,
        calibration: Calibration | None,
        table: Table,
        calibration_path: Path | None = None,
        heartbeat: Any = None,
    ) -> None:
        self.source = source
        self.board = board
        self.calibration = calibration
        self.table = table
        self.calibration_path = calibration_path
        self.heartbeat = heartbeat  # a watchdog's beat(), when running under systemd
        self.detector = Detector(board, calibration) if calibration else None
        self.latest: Frame | None = None
        self.last_error: str | None = None
        self._told_size: tuple[int, int] | None = None  # a wrong picture size, logged once
        self.markers = ""
        self._frame_times: deque[float] = deque(maxlen=30)
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)
        self._stop = threading.Event()
        self.settled_at: float | None = None  # perf_counter of the frame a dart settled in
        self.lens_views: list[tuple[str, np.ndarray]] = []
        self._last_drift_check: float | None = None
        self._told_move = 0.0  # px, as the detector last said
        self._told_blocked: float | None = None  # the detector's blocked_since, once told
        self._told_light: float | None = None  # the detector's light_jumped_at, once told
        self.drift: dict[str, Any] | None = None
        self.lens: Any = None  # calibration.lens.Lens once measured

    # --- running ------------------------------------------------------------------------
    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self.source.close()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        try:
            for frame in self.source:
                if self._stop.is_set():
                    break
                self._frame_times.append(time.perf_counter())
                with self._lock:
                    self.latest = frame
                    detector = self.detector
                if self.heartbeat is not None:
                    self.heartbeat()
                if detector is None:
                    continue
                started = time.perf_counter()
                try:
                    events = detector.process(frame)
                except FrameSizeError as exc:
                    # The camera changed its picture size (another mode after a reconnect):
                    # no frame fits the calibration until that is mended. Say it once.
                    if exc.size != self._told_size:
                        log.error("%s", exc)
                        self._told_size = exc.size
                    self.last_error = str(exc)
                    continue
                except SettleError as exc:
                    # A bug, caught where the detector could go on from the present picture:
                    # the players must hear that a throw may be missing, and can enter it.
                    log.error("%s", exc, exc_info=exc.__cause__)
                    self.last_error = str(exc)
                    self._tell(
                        "The camera could not read the last change at the board. If a dart "
                        "landed then, enter it by hand.",
                        error=True,
                    )
                    continue
                except Exception as exc:  # a detector bug must not stop the camera
                    log.exception("detector failed on frame %s", frame.name)
                    self.last_error = f"detector error: {exc}"
                    continue
                self._told_size = None  # the picture fits again: a later change is news
                for event in events:
                    self.settled_at = started
                    self._handle(event, frame)
                self._tell_a_move(detector)
                self._tell_if_the_light_jumped(detector)
                self._tell_if_blocked(detector, frame)
                self._maybe_check_drift(frame, detector)
        except Exception as exc:
            log.exception("camera pipeline stopped")
            self.last_error = f"camera stopped: {exc}"

    # --- events -> actions --------------------------------------------------------------------
    def _handle(self, event: DartEvent | BounceoutEvent | TakeoutEvent, frame: Frame) -> None:
        session = self.table.session
        if isinstance(event, TakeoutEvent):
            self.table.hub.publish("detection", {"kind": "takeout", "message": "Darts pulled out."})
            return
        if session is None or session.board is None or session.board.id != self.board.id:
            self._tell("A dart was seen, but no game on this board is in progress.", error=True)
            return
        prompt = session.engine.prompt(session.state)
        player = prompt.player if prompt.player is not None else 0
        if isinstance(event, BounceoutEvent):
            action: dict[str, Any] = {"type": "bounceout", "player": player}
            info: dict[str, Any] = {"event": "bounceout", "frame": event.frame}
        else:
            location = self.board.locate(event.x_mm, event.y_mm, event.sigma_mm)
            action = dart_from_location(player, location, event.x_mm, event.y_mm, event.sigma_mm)
            info = {**event.to_json(), "tip_px": list(event.tip_px)}
        detection_id = self.table.store.add_detection(session.id, info, self._crop(frame, event))
        if action["type"] not in prompt.accepts:
            self._tell(
                f"A dart was seen, but the game waits for something else: {prompt.text}", error=True
            )
            return
        try:
            self.table.act(action, "camera")
        except RulesError as exc:
            self._tell(f"The camera's dart was not accepted: {exc.message}", error=True)
            return
        self.table.store.link_detection(detection_id, session.entries[-1].seq)

    def _tell_a_move(self, detector: Detector) -> None:
        """The detector follows a board or camera that moved (pulling darts moves a hanging
        board); say so once per move, since the calibration is refreshed only later."""
        moved = round(detector.camera_move_px, 1)
        if moved == self._told_move:
            return
        self._told_move = moved
        if moved == 0.0:
            return  # a new detector, after a new calibration
        self._tell(
            f"The board or camera moved {moved:.1f} px; darts are still mapped. "
            "Oche recalibrates when the board is next empty."
        )

    def _tell_if_the_light_jumped(self, detector: Detector) -> None:
        """The light at the board jumped (a lamp switched on or off): the detector took the
        new picture in without looking for darts, so one thrown at that very moment is not
        seen, and the players should know."""
        jumped = detector.light_jumped_at
        if jumped is None or jumped == self._told_light:
            return
        self._told_light = jumped
        self._tell(
            "The light at the board changed. If a dart landed at that very moment, enter it "
            "by hand."
        )

    def _tell_if_blocked(self, detector: Detector, frame: Frame) -> None:
        """Something big has stood in front of the board for a while: a person, or the board
        or camera moved further than the detector can follow. No dart is seen meanwhile,
        and the players should know why (once per such spell)."""
        since = detector.blocked_since
        if since is None or since == self._told_blocked:
            return
        if frame.timestamp - since < BLOCKED_TELL_S:
            return
        self._told_blocked = since
        self._tell(
            f"Something has covered part of the board for {BLOCKED_TELL_S:.0f} s, and no dart "
            "is seen meanwhile. If nobody stands in front of it, the board or camera has "
            "moved: calibrate again on the Calibrate page.",
            error=True,
        )

    def _maybe_check_drift(self, frame: Frame, detector: Detector) -> None:
        """Now and then, on a still board without darts: has the board or camera moved?"""
        now = time.monotonic()
        if self._last_drift_check is None:
            self._last_drift_check = now
        if now - self._last_drift_check < DRIFT_EVERY_S:
            return
        if detector.state != "still" or detector.darts or self.calibration is None:
            return
        from calibration.drift import check_drift

        self._last_drift_check = now
        try:
            result = check_drift(self.calibration, self.board, frame.image)
        except Exception as exc:  # a failed check must never stop the camera
            log.warning("drift check failed: %s", exc)
            return
        self.drift = result.to_json()
        if result.status == "recalibrated" and result.calibration is not None:
            self.use_calibration(result.calibration)
            self._tell(
                f"The board or camera moved {result.moved_mm:.1f} mm: recalibrated from the markers."
            )
        elif result.status == "moved":
            self.last_error = result.message
            self._tell(result.message, error=True)

    def _tell(self, message: str, error: bool = False) -> None:
        self.table.hub.publish("detection", {"message": message, "error": error})

    def _crop(self, frame: Frame, event: Any) -> bytes | None:
        tip = getattr(event, "tip_px", None)
        if not tip:
            return None
        h, w = frame.image.shape[:2]
        x, y = round(tip[0]), round(tip[1])
        x0, y0 = max(0, x - CROP_PX), max(0, y - CROP_PX)
        crop = frame.image[y0 : min(h, y + CROP_PX), x0 : min(w, x + CROP_PX)].copy()
        if crop.size == 0:
            return None
        cv2.drawMarker(crop, (x - x0, y - y0), (0, 0, 255), cv2.MARKER_CROSS, 14, 1)
        ok, data = cv2.imencode(".png", crop)
        return data.tobytes() if ok else None

    # --- what the UI reads --------------------------------------------------------------------
    def status(self) -> dict[str, Any]:
        times = list(self._frame_times)
        fps = (
            (len(times) - 1) / (times[-1] - times[0])
            if len(times) > 1 and times[-1] > times[0]
            else 0.0
        )
        source_status = getattr(self.source, "status", None)
        return {
            "state": source_status.state if source_status else "unknown",
            "source": source_status.message if source_status else type(self.source).__name__,
            "fps": fps,
            "detector": (
                "waiting for a calibration"
                if self.detector is None
                else self.detector.state
                if self.detector.blocked_since is None
                else "waiting: something covers part of the board"
            ),
            "calibration": (
                f"{self.calibration.board}, RMS {self.calibration.rms_mm:.2f} mm"
                if self.calibration
                else "none: calibrate on this page"
            ),
            "markers": self.markers,
            "lens": (
                f"measured, {self.lens.rms_px:.2f} px"
                if self.lens is not None
                else (
                    "from the calibration file"
                    if self.calibration and self.calibration.has_lens
                    else "not measured"
                )
            ),
            "lens_views": len(self.lens_views),
            "drift": self.drift["message"] if self.drift else "not checked yet",
            "last_error": self.last_error
            or (
                source_status.message if source_status and source_status.state == "failed" else None
            ),
        }

    def snapshot_jpeg(self, overlay: bool = False) -> bytes | None:
        with self._lock:
            frame = self.latest
        if frame is None:
            return None
        image = frame.image.copy()
        if overlay and self.calibration is not None:
            self._draw_zones(image)
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])
        return data.tobytes() if ok else None

    def _draw_zones(self, image: np.ndarray) -> None:
        assert self.calibration is not None
        for zone in self.board.top_zones:
            for polygon in getattr(zone.geometry, "geoms", [zone.geometry]):
                ring = np.asarray(polygon.exterior.coords)
                dense = _densify(ring, 5.0)
                pts = self.calibration.board_to_image(dense)
                cv2.polylines(
                    image, [np.round(pts).astype(np.int32)], True, (0, 255, 255), 1, cv2.LINE_AA
                )

    # --- calibrating from the tablet ---------------------------------------------------------
    def calibrate(self, method: str, points: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """Calibrate from the latest frame; a poor result never replaces a good calibration."""
        from calibration.manual import calibrate_from_points, parse_points
        from calibration.markers import calibrate_from_markers

        with self._lock:
            frame = self.latest
        if frame is None:
            raise ValueError("no camera picture yet: wait for the camera")
        lens = self.lens or self._lens_of_calibration()
        if method == "markers":
            result = calibrate_from_markers(self.board, frame.image, lens)
        elif method == "points":
            taps = parse_points(points or [], self.board, "tapped points")
            result = calibrate_from_points(self.board, frame.size, taps, lens)
        elif method == "artwork":
            from calibration.markerless import calibrate_markerless

            result = calibrate_markerless(self.board, frame.image, lens)
        else:
            raise ValueError(
                f"unknown calibration method {method!r}: use markers, artwork or points"
            )
        result.require_quality()
        self.use_calibration(result.calibration)
        found = getattr(result.report, "markers_found", ())
        self.markers = (
            f"{len(found)} of {len(self.board.markers)} seen" if method == "markers" else ""
        )
        message = f"Calibrated: RMS {result.report.rms_mm:.2f} mm on the board."
        if method == "artwork":
            message += " Check that the zones sit on the board's lines (and 20 at the top)."
        return {"message": message, "report": result.report.to_json()}

    def _lens_of_calibration(self) -> Any:
        """The lens the current calibration was made with, so recalibrating keeps it."""
        from calibration.lens import Lens

        cal = self.calibration
        if cal is None or not cal.has_lens:
            return None
        return Lens(cal.image_size, cal.camera_matrix, cal.dist_coeffs)

    def use_calibration(self, calibration: Calibration) -> None:
        with self._lock:
            self.calibration = calibration
            self.detector = Detector(self.board, calibration)
        if self.calibration_path is not None:
            save_calibration(calibration, self.calibration_path)

    # --- lens calibration from the tablet -----------------------------------------------------
    def capture_lens_view(self) -> dict[str, Any]:
        """Keep the latest picture if it shows the printed ChArUco sheet well enough."""
        from calibration.lens import detect_sheet

        with self._lock:
            frame = self.latest
        if frame is None:
            raise ValueError("no camera picture yet: wait for the camera")
        view = detect_sheet(frame.image, frame.name)
        if view is None:
            raise ValueError(
                "the ChArUco sheet is not visible enough: hold it flat, fully in the picture, "
                "and try again (print it with `oche calibrate-lens --print-sheet sheet.png`)"
            )
        self.lens_views.append((frame.name, frame.image.copy()))
        return {
            "views": len(self.lens_views),
            "message": f"Picture {len(self.lens_views)} kept ({len(view.image_points)} corners).",
        }

    def compute_lens(self) -> dict[str, Any]:
        """Lens intrinsics from the kept pictures, then a marker calibration that uses them."""
        from calibration.lens import calibrate_lens
        from calibration.markers import calibrate_from_markers

        if len(self.lens_views) < 4:
            raise ValueError(
                f"{len(self.lens_views)} picture(s) kept: take at least 4, the sheet at different angles"
            )
        lens, notes = calibrate_lens(self.lens_views)
        self.lens = lens
        self.lens_views = []
        message = (
            f"Lens measured: {lens.rms_px:.2f} px reprojection error over {lens.views} pictures."
        )
        with self._lock:
            frame = self.latest
        if frame is not None:
            result = calibrate_from_markers(self.board, frame.image, lens)
            if result.acceptable:
                self.use_calibration(result.calibration)
                message += f" Recalibrated from the markers: RMS {result.report.rms_mm:.2f} mm."
            else:
                message += " Now calibrate again (the old calibration did not know the lens)."
        return {"message": message, "notes": notes}

    # --- the demo's simulated throws ----------------------------------------------------------
    def throw_at(self, x_mm: float, y_mm: float, scatter_mm: float = 0.0) -> dict[str, Any] | None:
        throw = getattr(self.source, "throw_at", None)
        if throw is None:
            return None
        return throw(x_mm, y_mm, scatter_mm).to_json()


def _densify(ring: np.ndarray, step_mm: float) -> np.ndarray:
    """Extra points along long edges, so the projected outline follows the lens distortion."""
    out = []
    for a, b in itertools.pairwise(ring):
        n = max(1, int(np.hypot(*(b - a)) / step_mm))
        out.extend(a + (b - a) * t for t in np.linspace(0, 1, n, endpoint=False))
    out.append(ring[-1])
    return np.asarray(out)
