"""vision.sources.picam.PiCameraSource against the fake picamera2 (tests/deploy/fake_picamera2.py)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from oche.errors import UserError
from vision.sources.picam import PiCameraSource

FAKE = Path(__file__).with_name("fake_picamera2.py")


@pytest.fixture
def picamera2(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The fake, importable as ``picamera2`` for the length of one test."""
    spec = importlib.util.spec_from_file_location("picamera2", FAKE)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "picamera2", module)
    spec.loader.exec_module(module)
    module.reset()
    return module


def test_the_fake_adjusts_itself_like_a_real_camera(picamera2: ModuleType) -> None:
    # The premise of the tests below: left alone, exposure and white balance keep moving.
    world = picamera2.reset(light=0.5)
    camera = picamera2.Picamera2()
    camera.configure(camera.create_video_configuration(main={"size": (64, 48), "format": "RGB888"}))
    camera.start()
    first = camera.capture_metadata()["ExposureTime"]
    world.sleep(2.0)
    settled = camera.capture_metadata()
    assert settled["ExposureTime"] > 1.5 * first
    world.light = 2.0  # a hand or shadow, or a lamp switched on
    world.sleep(1.0)
    assert camera.capture_metadata()["ExposureTime"] < settled["ExposureTime"] / 2
    with pytest.raises(RuntimeError, match="not advertised"):
        camera.set_controls({"AutoEverything": True})


def test_exposure_and_white_balance_are_fixed_after_settling(picamera2: ModuleType) -> None:
    world = picamera2.reset(light=0.5)
    source = PiCameraSource(size=(320, 240), lores_size=(160, 120), settle_s=2.0, sleep=world.sleep)
    # It waited the settling period with the camera running, then froze what it had found.
    assert world.log[:4] == ["open", "configure", "start", "sleep 2.0"]
    assert (
        world.log[4]
        == "set_controls ['AeEnable', 'AnalogueGain', 'AwbEnable', 'ColourGains', 'ExposureTime']"
    )
    (camera,) = world.instances
    fixed = source.fixed_controls
    assert fixed["AeEnable"] is False and fixed["AwbEnable"] is False
    assert camera.controls["AeEnable"] is False and camera.controls["AwbEnable"] is False
    # The frozen values are the settled ones, not the start-up values.
    assert fixed["ExposureTime"] > 3000
    assert fixed["ColourGains"][0] == pytest.approx(world.colour_cast[0], rel=0.01)
    assert source.status.state == "live"
    assert f"exposure {fixed['ExposureTime']} us fixed" in source.status.message

    frames = iter(source)
    before = [next(frames) for _ in range(3)]
    world.light = 1.5  # a hand in front of the board: the camera must not re-expose
    after = [next(frames) for _ in range(30)]
    exposures = {camera.metadata["ExposureTime"]}
    assert exposures == {fixed["ExposureTime"]}
    # So brightness follows the scene instead of being pulled back to the AE target.
    assert after[-1].image.mean() > 2 * before[-1].image.mean()
    source.close()
    assert world.log[-2:] == ["stop", "close"]
    assert source.status.state == "ended"


def test_frames_carry_the_main_image_and_the_low_res_grey(picamera2: ModuleType) -> None:
    world = picamera2.reset()
    source = PiCameraSource(size=(320, 240), lores_size=(160, 120), settle_s=0.5, sleep=world.sleep)
    frame = next(iter(source))
    assert frame.image.shape == (240, 320, 3) and frame.image.dtype == np.uint8
    assert frame.lores is not None and frame.lores.shape == (120, 160)
    # The low-res stream is the luminance of the picture: bright where the picture is bright.
    assert frame.lores[:, -10:].mean() > frame.lores[:, :10].mean()
    config = world.instances[0].config
    assert config["main"] == {"format": "RGB888", "size": (320, 240)}
    assert config["lores"]["format"] == "YUV420"
    second = next(iter(source))
    assert second.timestamp > frame.timestamp  # the sensor's clock, in seconds
    assert source.status.frames == 2
    source.close()


def test_without_picamera2_the_error_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import fails as on a laptop
    with pytest.raises(UserError, match=r"apt install python3-picamera2.*--system-site-packages"):
        PiCameraSource(sleep=lambda s: None)


def test_a_capture_failure_is_reported_clearly(picamera2: ModuleType) -> None:
    world = picamera2.reset()
    source = PiCameraSource(size=(320, 240), lores_size=(160, 120), settle_s=0.2, sleep=world.sleep)
    world.fail_after = world.frames + 2
    frames = iter(source)
    next(frames), next(frames)
    try:
        next(frames, None)
        message = source.status.message
    except UserError as exc:
        message = str(exc)
    assert source.status.state in ("failed", "reconnecting")
    assert "Pi camera" in message and "Camera frontend has timed out!" in message


def test_no_camera_connected_is_explained(picamera2: ModuleType) -> None:
    world = picamera2.reset(cameras=0)
    with pytest.raises(UserError, match="camera"):
        PiCameraSource(sleep=world.sleep)


@pytest.mark.parametrize(("size", "lores"), [((1280, 720), (320, 180)), ((1640, 1232), (320, 240))])
def test_the_preview_stream_has_the_pictures_shape(
    picamera2: ModuleType, size: tuple[int, int], lores: tuple[int, int]
) -> None:
    # A 4:3 sensor mode with a 16:9 preview put every region of the picture 40 px too high.
    world = picamera2.reset()
    source = PiCameraSource(size=size, settle_s=0.1, sleep=world.sleep)
    assert world.instances[0].config["lores"]["size"] == lores
    frame = next(iter(source))
    assert frame.lores is not None and frame.lores.shape == (lores[1], lores[0])
    source.close()
