"""The Raspberry Pi camera through picamera2 (imported lazily: it exists only on a Pi).

As in picamera2's own examples: a low-resolution stream feeds the motion gate and the
full-resolution stream the detector; after a settling period exposure and white balance are
frozen at the values the camera chose, so that a difference between frames means a change in
the scene, not the auto-exposure hunting. A camera that can focus focuses once on the board
and keeps that focus.
"""

from __future__ import annotations

import importlib
import logging
import time
from collections.abc import Callable, Iterator
from typing import Any

from oche.errors import UserError
from vision.frames import Frame, SourceStatus

log = logging.getLogger(__name__)

AF_MANUAL = 0  # libcamera's AfModeEnum.Manual: the lens stays where it is put
LORES_WIDTH = 320  # px: the motion gate's picture

NOT_ON_PI = (
    "the Pi camera needs the picamera2 package, which is not installed here. On Raspberry Pi OS: "
    "`sudo apt install python3-picamera2` (and create the venv with --system-site-packages); "
    "elsewhere use a USB or network camera (--camera 0 or --camera rtsp://...)"
)


def _import_picamera2() -> Any:
    try:
        return importlib.import_module("picamera2")
    except ImportError:
        raise UserError(NOT_ON_PI) from None


class PiCameraSource:
    def __init__(
        self,
        size: tuple[int, int] = (1280, 720),
        lores_size: tuple[int, int] | None = None,
        settle_s: float = 2.0,
        sleep: Callable[[float], None] = time.sleep,
        fps: float = 30.0,
    ) -> None:
        module = _import_picamera2()
        self.size = size
        # The preview stream feeds the motion gate: 320 px wide, in the picture's own shape
        # (YUV420 wants even sides).
        self.lores_size = lores_size or (
            LORES_WIDTH,
            2 * round(LORES_WIDTH * size[1] / size[0] / 2),
        )
        self.status = SourceStatus("starting", "starting the Pi camera")
        try:
            self._camera = module.Picamera2()
        except (IndexError, RuntimeError) as exc:
            # picamera2 raises a bare IndexError when libcamera lists no camera at all.
            raise UserError(
                f"no Pi camera found ({exc or 'no camera listed'}). Fix: check the ribbon cable "
                "and that `rpicam-hello --list-cameras` lists the camera, or use a USB camera "
                "(--camera 0)"
            ) from None
        config = self._camera.create_video_configuration(
            main={"size": size, "format": "RGB888"},  # BGR byte order, as OpenCV wants
            lores={"size": self.lores_size, "format": "YUV420"},
            controls={"FrameRate": fps},
        )
        self._camera.configure(config)
        self._camera.start()
        # Let auto exposure and white balance converge, then freeze them.
        sleep(settle_s)
        metadata = self._camera.capture_metadata()
        controls: dict[str, Any] = {"AeEnable": False, "AwbEnable": False}
        for key in ("ExposureTime", "AnalogueGain", "ColourGains"):
            if key in metadata:
                controls[key] = metadata[key]
        if "AfMode" in getattr(self._camera, "camera_controls", {}):
            # A camera that can focus (Camera Module 3) starts at its default lens position,
            # not on the board: focus once on it, then keep that focus. Focusing again later
            # (a hand coming close) would change every printed edge in the picture at once.
            focused = self._camera.autofocus_cycle()
            lens = self._camera.capture_metadata().get("LensPosition")
            controls["AfMode"] = AF_MANUAL
            if lens is not None:
                controls["LensPosition"] = lens
            if not focused:
                log.warning("the Pi camera could not focus on the board; its focus is kept as is")
        self._camera.set_controls(controls)
        self.fixed_controls = controls
        self._closed = False
        self.status.state = "live"
        self.status.message = f"Pi camera live at {size[0]}x{size[1]}, exposure {controls.get('ExposureTime')} us fixed"

    def __iter__(self) -> Iterator[Frame]:
        w, h = self.lores_size
        while not self._closed:
            try:
                arrays, metadata = self._camera.capture_arrays(["main", "lores"])
            except RuntimeError as exc:
                # A hung or unplugged camera: say so; the service's watchdog restarts us,
                # which reopens the camera from scratch.
                self.status.state = "failed"
                self.status.message = f"Pi camera stopped: {exc}"
                raise UserError(self.status.message) from None
            main, lores = arrays
            self.status.frames += 1
            stamp = metadata.get("SensorTimestamp")
            timestamp = stamp / 1e9 if stamp else time.monotonic()
            # YUV420: the first h rows are the luminance plane.
            yield Frame(main, timestamp, f"frame_{self.status.frames:06d}", lores=lores[:h, :w])

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._camera.stop()
            self._camera.close()
        self.status.state = "ended"
        self.status.message = "Pi camera closed"
