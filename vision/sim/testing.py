"""Small controlled simulated sessions and a detector run over them (tests, demos)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

import boards
from vision.detector import Detector
from vision.events import BounceoutEvent, DartEvent, TakeoutEvent
from vision.frames import Frame
from vision.sim.dartboard import Paint
from vision.sim.darts import DartModel
from vision.sim.render import Light, Renderer
from vision.sim.scenario import CameraSetup, Session, SessionBuilder

STEADY_LIGHT = Light(
    direction=(0.0, 0.6, 0.8),
    level=0.95,
    gradient=0.1,
    vignette=0.15,
    drift=0.0,
    period_s=60.0,
    shadow=0.3,
    penumbra_px=1.5,
)


def make_session(
    board_id: str,
    seed: int,
    script: Callable[[SessionBuilder], None],
    *,
    tilt: float = 35.0,
    azimuth: float = 30.0,
    lens: tuple[float, ...] = (-0.12, 0.03, 0.0, 0.0, 0.0),
    light: Light = STEADY_LIGHT,
    noise: float = 2.0,
    jpeg: int | None = None,
    magnets: int = 2,
    paint: Paint | None = None,
) -> Session:
    """A session whose events come from ``script(builder)`` after an empty-board start; with
    ``paint``, on a steel-tip dartboard as its maker paints it instead of our print."""
    board = boards.load(board_id)
    rng = np.random.default_rng(seed)
    setup = CameraSetup(tilt, azimuth, 0.0, 65.0, lens)
    camera = setup.camera(board)
    renderer = Renderer(board, camera, light, noise, jpeg, seed=seed, paint=paint)
    builder = SessionBuilder(board, rng, camera)
    builder.models = [DartModel.random(rng) for _ in range(2)]
    builder.place_pieces(magnets, 0)
    builder.idle(6)
    script(builder)
    truth = {"darts": builder.darts, "events": builder.events}
    return Session(board, camera, renderer, builder.frames, truth)


def run_detector(
    session: Session, lores: Callable[[np.ndarray], np.ndarray] | None = None
) -> list[tuple[int, object]]:
    """Every event of the detector over ``session``, with its frame's index; ``lores`` makes
    each frame's low-resolution stream (as a Pi camera gives one) from the frame."""
    detector = Detector(session.board, session.calibration)
    events = []
    for index, (name, timestamp, image) in enumerate(session):
        frame = Frame(image, timestamp, name, lores=None if lores is None else lores(image))
        events.extend((index, e) for e in detector.process(frame))
    return events


def darts(events) -> list[DartEvent]:
    return [e for _, e in events if isinstance(e, DartEvent)]


def takeouts(events) -> list[TakeoutEvent]:
    return [e for _, e in events if isinstance(e, TakeoutEvent)]


def bounceouts(events) -> list[BounceoutEvent]:
    return [e for _, e in events if isinstance(e, BounceoutEvent)]
