"""Camera sources: the Pi camera, OpenCV capture (USB / network), file replay, the simulator.

``open_source(spec)`` picks one from a user's string: ``picamera``, a USB index (``0``), a
stream URL (``rtsp://...``, ``http://...``), a folder of images or a video file.
"""

from __future__ import annotations

from pathlib import Path

from oche.errors import UserError
from vision.frames import FrameSource
from vision.sources.capture import OpenCVSource
from vision.sources.replay import VIDEO_SUFFIXES, FolderSource, VideoFileSource


def open_source(
    spec: str, size: tuple[int, int] = (1280, 720), fps: float = 30.0, settle_s: float = 2.0
) -> FrameSource:
    """A frame source from a command-line style description (``size``, ``fps`` and
    ``settle_s`` apply to the Pi camera, which is configured rather than discovered)."""
    if spec in ("picamera", "picamera2", "pi"):
        from vision.sources.picam import PiCameraSource

        return PiCameraSource(size=size, settle_s=settle_s, fps=fps)
    if spec.isdigit():
        return OpenCVSource(int(spec))
    if "://" in spec:
        return OpenCVSource(spec)
    path = Path(spec)
    if path.is_dir():
        return FolderSource(path)
    if path.is_file() and path.suffix.lower() in VIDEO_SUFFIXES:
        return VideoFileSource(path)
    raise UserError(
        f"camera {spec!r}: not a camera index, stream URL, image folder or video file. "
        "Fix: use e.g. 0, rtsp://phone:8554/cam, picamera, or a folder of images"
    )


__all__ = ["FolderSource", "OpenCVSource", "VideoFileSource", "open_source"]
