"""Camera sources: replay, OpenCV capture with reconnect, the Pi camera (faked)."""

from __future__ import annotations

import sys
import types
from typing import ClassVar

import cv2
import numpy as np
import pytest

from oche.errors import UserError
from vision.frames import Frame, FrameSizeError, FrameSource
from vision.sources import FolderSource, OpenCVSource, VideoFileSource, open_source


def _image(value: int, size=(64, 48)) -> np.ndarray:
    return np.full((size[1], size[0], 3), value, np.uint8)


def test_folder_replays_images_in_natural_name_order(tmp_path):
    for name, value in [("frame_10.png", 10), ("frame_2.png", 2), ("frame_1.png", 1)]:
        cv2.imwrite(str(tmp_path / name), _image(value))
    (tmp_path / "notes.txt").write_text("not a frame")
    source = FolderSource(tmp_path, fps=10)
    frames = list(source)
    assert [f.name for f in frames] == ["frame_1.png", "frame_2.png", "frame_10.png"]
    assert [int(f.image[0, 0, 0]) for f in frames] == [1, 2, 10]
    assert [f.timestamp for f in frames] == pytest.approx([0.0, 0.1, 0.2])
    assert source.status.state == "ended"
    assert isinstance(source, FrameSource)


def test_folder_errors_name_the_problem(tmp_path):
    with pytest.raises(UserError, match="no such folder"):
        FolderSource(tmp_path / "missing")
    with pytest.raises(UserError, match="no images"):
        FolderSource(tmp_path)
    (tmp_path / "IMG_0001.HEIC").write_bytes(b"an iPhone photo")
    with pytest.raises(UserError, match=r"no images .*Fix: save the \.heic photos as JPEG"):
        FolderSource(tmp_path)
    (tmp_path / "broken.png").write_bytes(b"not a png")
    with pytest.raises(UserError, match="cannot read"):
        list(FolderSource(tmp_path))


def test_folder_refuses_a_picture_of_another_size_naming_it(tmp_path):
    # The frames of a folder are one camera's: a photo turned on its side (or scaled) would
    # put every pixel of the calibration somewhere else on the board.
    cv2.imwrite(str(tmp_path / "frame_1.png"), np.zeros((30, 40, 3), np.uint8))
    cv2.imwrite(str(tmp_path / "frame_2.png"), np.zeros((40, 30, 3), np.uint8))
    frames = iter(FolderSource(tmp_path))
    assert next(frames).size == (40, 30)
    with pytest.raises(FrameSizeError) as refused:
        next(frames)
    message = str(refused.value)
    assert message.startswith("frame_2.png: the picture is 30x40 px (turned on its side?)")
    assert "frame_1.png, is 40x30 px" in message
    assert f"Fix: turn or scale {tmp_path / 'frame_2.png'}" in message


def test_video_file_replays_every_frame(tmp_path):
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 15, (64, 48))
    for value in (20, 120, 220):
        writer.write(_image(value))
    writer.release()
    frames = list(VideoFileSource(path))
    assert len(frames) == 3
    assert [f.name for f in frames] == ["frame_000000", "frame_000001", "frame_000002"]
    assert abs(int(frames[1].image.mean()) - 120) < 10


def test_open_source_understands_the_usual_spellings(tmp_path):
    cv2.imwrite(str(tmp_path / "a.png"), _image(5))
    assert isinstance(open_source(str(tmp_path)), FolderSource)
    with pytest.raises(UserError, match="not a camera index"):
        open_source(str(tmp_path / "nothing-here"))


class FakeCapture:
    """Gives ``frames`` frames, then fails like an unplugged camera."""

    def __init__(self, frames: int, opens: bool = True) -> None:
        self.left = frames
        self.opens = opens
        self.released = False

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return self.opens and not self.released

    def set(self, *_args) -> bool:
        return True

    def read(self):
        if self.left <= 0:
            return False, None
        self.left -= 1
        return True, _image(100)

    def release(self) -> None:
        self.released = True


def test_opencv_source_reconnects_after_a_drop_out_and_says_so():
    captures = [FakeCapture(3), FakeCapture(0, opens=False), FakeCapture(2)]
    opened = []

    def opener(device):
        opened.append(device)
        return captures.pop(0) if captures else FakeCapture(0, opens=False)

    sleeps: list[float] = []
    source = OpenCVSource(0, opener=opener, sleep=sleeps.append, max_retries=3)
    messages = []
    frames = []
    for frame in source:
        frames.append(frame)
        messages.append((source.status.state, source.status.message))
    assert len(frames) == 5  # 3 before the drop-out, 2 after reconnecting
    assert source.status.reconnects == 1
    assert ("live", "camera 0 reconnected") in messages
    assert source.status.state == "failed"  # the last camera never came back
    assert "gave up after 3 attempts" in source.status.message
    assert sleeps and sleeps == sorted(sleeps)  # waits longer each time


def test_a_camera_that_is_not_there_yet_is_not_said_to_have_dropped_out():
    # Plugged in only after the service started: it was never there, so it did not drop out.
    captures = [FakeCapture(0, opens=False), FakeCapture(0, opens=False), FakeCapture(1)]

    def opener(_device):
        return captures.pop(0) if captures else FakeCapture(0, opens=False)

    told: list[str] = []
    source = OpenCVSource(7, opener=opener, max_retries=2)
    source._sleep = lambda _s: told.append(source.status.message)
    assert len(list(source)) == 1
    waiting = "camera 7 cannot be opened (not plugged in, or in use by another program)"
    assert told[0] == f"{waiting}: trying again (attempt 1)"
    assert told[-1] == "camera 7 dropped out: reconnecting (attempt 2)"  # after its frame


def test_opencv_source_close_releases_the_camera():
    capture = FakeCapture(100)
    source = OpenCVSource("rtsp://phone/cam", opener=lambda _d: capture)
    iterator = iter(source)
    next(iterator)
    source.close()
    assert capture.released
    assert source.status.state == "ended"


class FakePicamera2:
    instances: ClassVar[list[FakePicamera2]] = []

    def __init__(self) -> None:
        self.controls: dict = {}
        self.started = self.closed = False
        self.config = None
        FakePicamera2.instances.append(self)

    def create_video_configuration(self, main, lores, controls=None):
        return {"main": main, "lores": lores}

    def configure(self, config) -> None:
        self.config = config

    def start(self) -> None:
        self.started = True

    def capture_metadata(self):
        return {"ExposureTime": 8000, "AnalogueGain": 2.0, "ColourGains": (1.8, 1.5)}

    def set_controls(self, controls) -> None:
        self.controls.update(controls)

    def capture_arrays(self, names):
        w, h = self.config["main"]["size"]
        lw, lh = self.config["lores"]["size"]
        main = np.zeros((h, w, 3), np.uint8)
        lores = np.full((lh * 3 // 2, lw), 77, np.uint8)  # YUV420 planes
        return [main, lores], {"SensorTimestamp": 5_000_000_000}

    def stop(self) -> None:
        self.started = False

    def close(self) -> None:
        self.closed = True


def test_picamera_source_freezes_exposure_and_white_balance(monkeypatch):
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2
    monkeypatch.setitem(sys.modules, "picamera2", module)
    from vision.sources.picam import PiCameraSource

    waited: list[float] = []
    source = PiCameraSource(
        size=(320, 240), lores_size=(160, 120), settle_s=1.5, sleep=waited.append
    )
    camera = FakePicamera2.instances[-1]
    assert waited == [1.5]  # auto exposure settles before it is frozen
    assert camera.controls == {
        "AeEnable": False,
        "AwbEnable": False,
        "ExposureTime": 8000,
        "AnalogueGain": 2.0,
        "ColourGains": (1.8, 1.5),
    }
    frame = next(iter(source))
    assert isinstance(frame, Frame)
    assert frame.image.shape == (240, 320, 3)
    assert frame.lores is not None and frame.lores.shape == (120, 160)  # luminance plane only
    assert frame.timestamp == pytest.approx(5.0)
    source.close()
    assert camera.closed
    assert source.status.state == "ended"


class FakeFocusingPicamera2(FakePicamera2):
    """A camera with a lens it can focus (Camera Module 3)."""

    camera_controls: ClassVar[dict] = {"AfMode": (0, 2, 0), "LensPosition": (0.0, 15.0, 1.0)}

    def __init__(self) -> None:
        super().__init__()
        self.focus_cycles = 0

    def autofocus_cycle(self) -> bool:
        self.focus_cycles += 1
        return True

    def capture_metadata(self):
        lens = {"LensPosition": 2.5} if self.focus_cycles else {"LensPosition": 1.0}
        return {**super().capture_metadata(), **lens}


def test_a_pi_camera_that_can_focus_focuses_once_on_the_board_and_keeps_it(monkeypatch):
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakeFocusingPicamera2
    monkeypatch.setitem(sys.modules, "picamera2", module)
    from vision.sources.picam import PiCameraSource

    source = PiCameraSource(size=(320, 240), lores_size=(160, 120), sleep=lambda _s: None)
    camera = FakePicamera2.instances[-1]
    assert camera.focus_cycles == 1
    # the lens stays where the focus put it: no autofocus hunting during a game
    assert camera.controls["AfMode"] == 0 and camera.controls["LensPosition"] == 2.5
    assert camera.controls["AeEnable"] is False
    source.close()


def test_picamera_source_off_a_pi_says_what_to_do(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import fails
    from vision.sources.picam import PiCameraSource

    with pytest.raises(UserError, match="picamera2"):
        PiCameraSource()
