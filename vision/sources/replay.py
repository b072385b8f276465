"""Replay: a folder of images (in name order) or a video file, as frames of one camera."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import cv2

from oche.errors import UserError
from vision.frames import Frame, SourceStatus, require_size

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
# Phone photo formats OpenCV cannot read.
UNREAD = (".heic", ".heif", ".avif", ".dng")
VIDEO_SUFFIXES = (".mp4", ".avi", ".mov", ".mkv", ".webm", ".m4v")


def _natural_key(path: Path) -> tuple:
    """Name order that puts frame_2 before frame_10 (numbers compared as numbers)."""
    parts = re.split(r"(\d+)", path.name)
    return tuple(int(p) if p.isdigit() else p.lower() for p in parts)


def image_files(folder: Path) -> list[Path]:
    files = [p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES]
    return sorted(files, key=_natural_key)


class FolderSource:
    """The images of a folder in name order; ``fps`` sets the timestamps."""

    def __init__(self, folder: str | Path, fps: float = 15.0) -> None:
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise UserError(f"--frames {self.folder}: no such folder. Fix: give a folder of images")
        self.files = image_files(self.folder)
        if not self.files:
            unread = sorted(
                {p.suffix.lower() for p in self.folder.iterdir() if p.suffix.lower() in UNREAD}
            )
            fix = (
                f". Fix: save the {' and '.join(unread)} photos as JPEG (a phone's 'most "
                "compatible' setting does so)"
                if unread
                else ""
            )
            raise UserError(
                f"--frames {self.folder}: no images ({', '.join(IMAGE_SUFFIXES)}) in this "
                f"folder{fix}"
            )
        self.fps = fps
        self.status = SourceStatus("live", f"replaying {len(self.files)} images from {self.folder}")
        self._closed = False

    def __iter__(self) -> Iterator[Frame]:
        first: Frame | None = None
        for index, path in enumerate(self.files):
            if self._closed:
                break
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                raise UserError(f"{path}: cannot read this image (damaged or not an image)")
            frame = Frame(image, index / self.fps, path.name)
            # The frames of a folder are one camera's: each pixel a fixed place on the board.
            if first is None:
                first = frame
            require_size(
                frame,
                first.size,
                f"the folder's first, {first.name},",
                f"turn or scale {self.folder / path.name} like the others, or leave it out",
            )
            self.status.frames += 1
            yield frame
        self.status.state = "ended"
        self.status.message = f"replayed {self.status.frames} images"

    def close(self) -> None:
        self._closed = True
        self.status.state = "ended"


class VideoFileSource:
    """The frames of a video file; names are ``frame_000123`` (zero-based index)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._capture = cv2.VideoCapture(str(self.path))
        if not self._capture.isOpened():
            raise UserError(f"{self.path}: cannot open this video (format or codec unsupported)")
        fps = self._capture.get(cv2.CAP_PROP_FPS)
        self.fps = fps if fps and fps > 0 else 15.0
        self.status = SourceStatus("live", f"replaying {self.path.name}")

    def __iter__(self) -> Iterator[Frame]:
        index = 0
        while self._capture.isOpened():
            ok, image = self._capture.read()
            if not ok:
                break
            self.status.frames += 1
            yield Frame(image, index / self.fps, f"frame_{index:06d}")
            index += 1
        self.status.state = "ended"
        self.status.message = f"replayed {self.status.frames} frames"

    def close(self) -> None:
        self._capture.release()
        self.status.state = "ended"
