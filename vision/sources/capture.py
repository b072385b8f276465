"""OpenCV capture: a USB webcam (index) or a network stream (RTSP/HTTP, e.g. a phone).

When the camera drops out the source says so in ``status`` and keeps trying to reopen it,
waiting a little longer each time, until ``max_retries`` is used up (None: for ever).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from typing import Any

import cv2

from vision.frames import Frame, SourceStatus

log = logging.getLogger(__name__)


class OpenCVSource:
    def __init__(
        self,
        device: int | str,
        size: tuple[int, int] | None = (1280, 720),
        max_retries: int | None = None,
        retry_delay_s: float = 0.5,
        max_delay_s: float = 5.0,
        opener: Callable[[int | str], Any] = cv2.VideoCapture,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.device = device
        self.size = size
        self.max_retries = max_retries
        self.retry_delay_s = retry_delay_s
        self.max_delay_s = max_delay_s
        self._opener = opener
        self._sleep = sleep
        self._clock = clock
        self._capture: Any = None
        self._closed = False
        self.status = SourceStatus("starting", f"opening camera {device!r}")

    def _open(self) -> bool:
        capture = self._opener(self.device)
        if capture is None or not capture.isOpened():
            return False
        if self.size is not None and isinstance(self.device, int):
            capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        self._capture = capture
        return True

    def _reconnect(self) -> bool:
        """Reopen the camera after a drop-out; False when the retries are used up."""
        if self._capture is not None:
            self._capture.release()
            self._capture = None
        attempt = 0
        delay = self.retry_delay_s
        while not self._closed:
            attempt += 1
            if self.max_retries is not None and attempt > self.max_retries:
                self.status.state = "failed"
                self.status.message = (
                    f"camera {self.device!r} is gone: gave up after {self.max_retries} attempts. "
                    "Check the cable / network and restart"
                )
                log.error(self.status.message)
                return False
            self.status.state = "reconnecting"
            self.status.message = (
                f"camera {self.device!r} dropped out: reconnecting (attempt {attempt})"
                if self.status.frames
                else f"camera {self.device!r} cannot be opened (not plugged in, or in use by "
                f"another program): trying again (attempt {attempt})"
            )
            log.warning(self.status.message)
            if self._open():
                self.status.reconnects += 1
                self.status.state = "live"
                self.status.message = (
                    f"camera {self.device!r} reconnected"
                    if self.status.frames
                    else f"camera {self.device!r} opened"
                )
                log.warning(self.status.message)
                return True
            self._sleep(delay)
            delay = min(self.max_delay_s, delay * 2)
        return False

    def __iter__(self) -> Iterator[Frame]:
        if self._capture is None and not self._open() and not self._reconnect():
            return
        self.status.state = "live"
        self.status.message = f"camera {self.device!r} live"
        while not self._closed:
            ok, image = self._capture.read()
            if not ok or image is None:
                if not self._reconnect():
                    return
                continue
            self.status.frames += 1
            yield Frame(image, self._clock(), f"frame_{self.status.frames:06d}")

    def close(self) -> None:
        self._closed = True
        if self._capture is not None:
            self._capture.release()
            self._capture = None
        self.status.state = "ended"
        self.status.message = "camera closed"
