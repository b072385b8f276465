"""A stand-in for the ``picamera2`` package that behaves like the real API, for tests off the Pi.

What it imitates (picamera2 0.3.x on libcamera):

- ``Picamera2(camera_num=0)`` fails with ``IndexError`` when no camera is connected;
- ``create_video_configuration(main=..., lores=...)`` returns a configuration dict; the low-res
  stream must be YUV420 and not larger than the main one (a Pi 4 ISP limit);
- ``configure`` before ``start``; ``capture_array(name)``, ``capture_arrays(names)`` ->
  ``(arrays, metadata)`` and ``capture_metadata()`` only while started; every capture waits for
  the next frame;
- "RGB888" main frames are ``(h, w, 3)`` uint8 in B, G, R order; "YUV420" frames are
  ``(h * 3 // 2, w)`` uint8 with the luminance plane in the first ``h`` rows;
- automatic exposure and white balance keep adjusting, frame by frame, until
  ``set_controls({"AeEnable": False, "AwbEnable": False, "ExposureTime": .., ...})`` freezes
  them; metadata reports ``ExposureTime`` (us, int), ``AnalogueGain``, ``ColourGains``,
  ``SensorTimestamp`` (ns);
- ``set_controls`` rejects controls the camera does not have;
- ``stop`` and ``close``.

The scene and the clock live in :data:`world` (see :func:`reset`): ``world.sleep`` lets time
pass while the camera runs on its own, as ``time.sleep`` does beside a real camera.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

KNOWN_CONTROLS = {
    "AeEnable": bool,
    "AwbEnable": bool,
    "ExposureTime": int,
    "AnalogueGain": float,
    "ColourGains": tuple,
    "FrameDurationLimits": tuple,
    "FrameRate": float,
}
TARGET_LEVEL = 110.0  # what the fake auto exposure aims for (mean grey)


@dataclass
class World:
    """The scene in front of the fake camera and the camera's own clock."""

    cameras: int = 1
    light: float = 1.0  # scene brightness; AE compensates while it is on
    colour_cast: tuple[float, float] = (1.8, 1.4)  # the red/blue gains AWB converges to
    fps: float = 30.0
    time_s: float = 0.0
    frames: int = 0
    fail_after: int | None = None  # captures that succeed before the camera "hangs"
    failure: str = "Camera frontend has timed out!"
    log: list[str] = field(default_factory=list)
    instances: list[Picamera2] = field(default_factory=list)
    sleeps: list[float] = field(default_factory=list)

    def sleep(self, seconds: float) -> None:
        """Time passes; a started camera keeps delivering (and adjusting) frames meanwhile."""
        self.sleeps.append(seconds)
        self.log.append(f"sleep {seconds}")
        for _ in range(round(seconds * self.fps)):
            for camera in self.instances:
                if camera.started:
                    camera._next_frame()
                    break
            else:
                self.time_s += 1 / self.fps


world = World()


def reset(**settings: Any) -> World:
    """A fresh scene and clock for the next test."""
    global world
    world = World(**settings)
    return world


class Picamera2:
    def __init__(self, camera_num: int = 0) -> None:
        if camera_num >= world.cameras:
            # What picamera2 does when libcamera lists no camera (a loose ribbon cable).
            raise IndexError("list index out of range")
        self.camera_num = camera_num
        self.config: dict[str, Any] | None = None
        self.started = False
        self.closed = False
        self.controls: dict[str, Any] = {"AeEnable": True, "AwbEnable": True}
        self.exposure_us = 2000.0
        self.gain = 1.0
        self.colour_gains = (1.0, 1.0)
        self.metadata: dict[str, Any] = {}
        world.instances.append(self)
        world.log.append("open")

    @staticmethod
    def global_camera_info() -> list[dict[str, Any]]:
        return [{"Model": "imx708", "Num": n} for n in range(world.cameras)]

    # --- configuration ------------------------------------------------------------------------
    def create_video_configuration(
        self,
        main: dict[str, Any] | None = None,
        lores: dict[str, Any] | None = None,
        raw: dict[str, Any] | None = None,
        controls: dict[str, Any] | None = None,
        buffer_count: int = 6,
        **_other: Any,
    ) -> dict[str, Any]:
        main = {"format": "XBGR8888", "size": (1280, 720), **(main or {})}
        if lores is not None:
            lores = {"format": "YUV420", "size": (320, 240), **lores}
            if lores["format"] != "YUV420":
                raise RuntimeError("lores stream must be YUV")
            if lores["size"][0] > main["size"][0] or lores["size"][1] > main["size"][1]:
                raise RuntimeError("lores stream dimensions may not exceed main stream")
        return {
            "use_case": "video",
            "main": main,
            "lores": lores,
            "raw": raw,
            "controls": {"FrameDurationLimits": (33333, 33333), **(controls or {})},
            "buffer_count": buffer_count,
        }

    def configure(self, config: dict[str, Any]) -> None:
        if self.started:
            raise RuntimeError("Camera must be stopped before configuring")
        self.config = config
        world.log.append("configure")

    def start(self) -> None:
        if self.config is None:
            raise RuntimeError("Camera has not been configured")
        self.started = True
        world.log.append("start")

    def stop(self) -> None:
        self.started = False
        world.log.append("stop")

    def close(self) -> None:
        self.started = False
        self.closed = True
        world.log.append("close")

    # --- controls -----------------------------------------------------------------------------
    def set_controls(self, controls: dict[str, Any]) -> None:
        for name, value in controls.items():
            kind = KNOWN_CONTROLS.get(name)
            if kind is None:
                raise RuntimeError(f"Control {name} is not advertised by libcamera")
            if kind is float and isinstance(value, int):
                value = float(value)
            if not isinstance(value, kind):
                raise TypeError(f"control {name}: expected {kind.__name__}, got {value!r}")
        self.controls.update(controls)
        if "ExposureTime" in controls:
            self.exposure_us = float(controls["ExposureTime"])
        if "AnalogueGain" in controls:
            self.gain = float(controls["AnalogueGain"])
        if "ColourGains" in controls:
            self.colour_gains = tuple(controls["ColourGains"])
        world.log.append(f"set_controls {sorted(controls)}")

    # --- frames -------------------------------------------------------------------------------
    def _level(self) -> float:
        return world.light * self.exposure_us * self.gain / 20.0

    def _next_frame(self) -> None:
        """One sensor frame: the 3A algorithms take a step, unless frozen."""
        if not self.started:
            raise RuntimeError("Camera is not running")
        if world.fail_after is not None and world.frames >= world.fail_after:
            raise RuntimeError(world.failure)
        world.frames += 1
        world.time_s += 1 / world.fps
        if self.controls.get("AeEnable", True):
            # Move a third of the way (in log space) towards the target level each frame.
            ratio = (TARGET_LEVEL / max(self._level(), 1e-6)) ** (1 / 3)
            self.exposure_us = float(np.clip(self.exposure_us * ratio, 100.0, 33000.0))
        if self.controls.get("AwbEnable", True):
            red, blue = self.colour_gains
            want_red, want_blue = world.colour_cast
            self.colour_gains = (red + 0.25 * (want_red - red), blue + 0.25 * (want_blue - blue))
        self.metadata = {
            "ExposureTime": round(self.exposure_us),
            "AnalogueGain": self.gain,
            "ColourGains": self.colour_gains,
            "SensorTimestamp": round(world.time_s * 1e9),
            "FrameDuration": round(1e6 / world.fps),
            "Lux": 400.0 * world.light,
            "AeLocked": not self.controls.get("AeEnable", True),
        }

    def _main(self) -> np.ndarray:
        assert self.config is not None
        w, h = self.config["main"]["size"]
        level = min(255.0, self._level())
        ramp = np.linspace(0.6, 1.4, w, dtype=np.float32)[None, :] * np.ones((h, 1), np.float32)
        grey = np.clip(ramp * level, 0, 255)
        # White balance: the scene's cast divided out by the gains in use (1: neutral grey).
        red = grey * self.colour_gains[0] / world.colour_cast[0]
        blue = grey * self.colour_gains[1] / world.colour_cast[1]
        image = np.dstack([blue, grey, red])  # RGB888 is B, G, R in memory
        return np.clip(image, 0, 255).astype(np.uint8)

    def _array(self, name: str) -> np.ndarray:
        assert self.config is not None
        stream = self.config.get(name)
        if stream is None:
            raise RuntimeError(f"Stream {name!r} is not configured")
        main = self._main()
        if name == "main":
            return main
        w, h = stream["size"]
        small = cv2.resize(main, (w, h), interpolation=cv2.INTER_AREA)
        return cv2.cvtColor(small, cv2.COLOR_BGR2YUV_I420)  # (h * 3 // 2, w)

    def capture_array(self, name: str = "main") -> np.ndarray:
        self._next_frame()
        return self._array(name)

    def capture_arrays(self, names: list[str] | None = None) -> tuple[list[np.ndarray], dict]:
        self._next_frame()
        return [self._array(n) for n in (names or ["main"])], dict(self.metadata)

    def capture_metadata(self) -> dict[str, Any]:
        self._next_frame()
        return dict(self.metadata)
