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


@dataclass(frozen=True)
class Frame:
    image: np.ndarray = field(repr=False)  # BGR uint8, full resolution
    timestamp: float  # seconds (source clock; monotonic within a source)
    name: str  # file name, or a frame counter for live sources
    lores: np.ndarray | None = field(default=None, repr=False)  # optional grey preview

    @property
    def size(self) -> tuple[int, int]:
        return (int(self.image.shape[1]), int(self.image.shape[0]))


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
