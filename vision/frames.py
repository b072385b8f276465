"""What every camera source yields: frames with a name and a timestamp, and a status line.

A source is an iterator of :class:`Frame` with ``close()`` and ``status``. The detector only
needs ``image`` (BGR, full resolution); a source that has a cheap low-resolution stream of its
own (the Pi camera) also fills ``lores`` (grey) so the motion gate need not downscale.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np

from oche.errors import UserError


@dataclass(frozen=True)
class Frame:
    image: np.ndarray = field(repr=False)  # BGR uint8, full resolution
    timestamp: float  # seconds (source clock; monotonic within a source)
    name: str  # file name, or a frame counter for live sources
    lores: np.ndarray | None = field(default=None, repr=False)  # optional grey preview

    @property
    def size(self) -> tuple[int, int]:
        return (int(self.image.shape[1]), int(self.image.shape[0]))


class FrameSizeError(UserError):
    """A picture of another size than the one expected: another camera mode, or a photo
    turned on its side. Pixel positions (the calibration's) would mean other places on it."""

    def __init__(self, message: str, size: tuple[int, int]) -> None:
        super().__init__(message)
        self.size = size  # the picture's (width, height)


def require_size(frame: Frame, size: tuple[int, int], expected_by: str, fix: str = "") -> None:
    """Raise :class:`FrameSizeError` unless ``frame`` is ``size`` (width, height) pixels;
    ``expected_by`` names what has that size, ``fix`` says what to do (default: give pictures
    of that size, or calibrate again at the new one)."""
    if frame.size == tuple(size):
        return
    (w, h), (want_w, want_h) = frame.size, size
    turned = " (turned on its side?)" if (w, h) == (want_h, want_w) else ""
    fix = fix or (
        f"give pictures of {want_w}x{want_h} px the same way up, or calibrate again at {w}x{h}"
    )
    raise FrameSizeError(
        f"{frame.name}: the picture is {w}x{h} px{turned}, but {expected_by} is "
        f"{want_w}x{want_h} px. Fix: {fix}",
        frame.size,
    )


@dataclass
class SourceStatus:
    """What the UI shows about the camera: a state word and a human message."""

    state: str = "starting"  # starting | live | reconnecting | ended | failed
    message: str = ""
    frames: int = 0
    reconnects: int = 0

    def to_json(self) -> dict[str, object]:
        return {
            "state": self.state,
            "message": self.message,
            "frames": self.frames,
            "reconnects": self.reconnects,
        }


@runtime_checkable
class FrameSource(Protocol):
    status: SourceStatus

    def __iter__(self) -> Iterator[Frame]: ...

    def close(self) -> None: ...
