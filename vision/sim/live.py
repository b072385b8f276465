"""A live simulated camera for ``oche demo``: darts thrown from the tablet appear in its frames.

It renders frames in real time (``fps``) from a scene that changes on request: ``throw_at``
sends an arm in, then a dart sticks where it landed (the aim plus the thrower's scatter);
``pull_darts`` sends a hand to take the darts out. The detector sees only the frames.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from shapely.geometry import Point

from boards.model import Board
from vision.camera import Camera
from vision.frames import Frame, SourceStatus
from vision.sim.dartboard import Paint
from vision.sim.darts import Dart, DartModel
from vision.sim.render import FrameSpec, Hand, Light, Renderer
from vision.sim.scenario import CameraSetup

#: A comfortable demo view: the camera beside and a little above the board.
DEMO_SETUP = CameraSetup(
    tilt_deg=35.0,
    azimuth_deg=-30.0,
    roll_deg=0.0,
    hfov_deg=65.0,
    dist_coeffs=(-0.12, 0.03, 0.0, 0.0, 0.0),
)
# the demo's one player's skin and sleeve (BGR), for hands and a body in front
SKIN, SLEEVE = (150, 175, 215), (60, 60, 140)


@dataclass(frozen=True)
class Throw:
    aim_mm: tuple[float, float]
    tip_mm: tuple[float, float]
    bounced: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "aim_mm": [round(v, 1) for v in self.aim_mm],
            "tip_mm": [round(v, 1) for v in self.tip_mm],
            "bounced": self.bounced,
        }


class LiveSimSource:
    """A frame source whose scene the demo changes while it runs."""

    def __init__(
        self,
        board: Board,
        seed: int = 1,
        fps: float = 12.0,
        setup: CameraSetup = DEMO_SETUP,
        realtime: bool = True,
        paint: Paint | None = None,
    ) -> None:
        """``paint``: a steel-tip board as its maker paints it, instead of our print."""
        self.board = board
        self.fps = fps
        self.realtime = realtime
        self.rng = np.random.default_rng(seed)
        self.camera: Camera = setup.camera(board)
        light = Light.random(self.rng)
        self.renderer = Renderer(
            board, self.camera, light, noise_sigma=1.5, jpeg_quality=90, seed=seed, paint=paint
        )
        self.models = [DartModel.random(self.rng) for _ in range(3)]
        self.status = SourceStatus(state="starting", message="simulated camera")
        self._lock = threading.Lock()
        self._darts: list[Dart] = []
        self._script: deque[tuple[Hand | None, str | None]] = deque()
        self._pending: deque[Dart | None] = deque()
        self._closed = threading.Event()
        self._index = 0
        self._knock = self._knock_next = (0.0, 0.0)
        self._standing: Hand | None = None  # somebody between the camera and the board
        self._light: Light | None = None  # the room's light once a lamp was switched

    # --- what the demo asks for ------------------------------------------------------------
    def throw_at(
        self, x_mm: float, y_mm: float, scatter_mm: float = 0.0, bounce: bool = False
    ) -> Throw:
        """Throw a dart aimed at a board point; it lands within ``scatter_mm`` (1 sigma)."""
        aim = (float(x_mm), float(y_mm))
        with self._lock:
            tip = aim
            if scatter_mm > 0:
                dx, dy = self.rng.normal(0, scatter_mm, 2)
                tip = (aim[0] + float(dx), aim[1] + float(dy))
            model = self.models[len(self._darts) % len(self.models)]
            model = replace(model, flight_roll=float(self.rng.uniform(0, math.pi / 2)))
            dart = Dart(tip, Dart.random_direction(self.rng), model)
            arm = self._arm_towards(tip)
            # The arm comes in, the dart appears as it leaves; a bounce-out falls soon after.
            for step in (0.5, 0.8, 1.0):
                self._script.append((self._hand_at(arm, step), None))
            self._script.append((None, "add"))
            self._pending.append(dart)
            if bounce:
                self._script.extend([(None, None)] * 3)
                self._script.append((None, "drop"))
            return Throw(aim, tip, bounce)

    def pull_darts(self, knock_px: tuple[float, float] = (0.0, 0.0)) -> None:
        """A hand takes every dart out of the board, and may leave the board moved by
        ``knock_px`` in the picture (pulling darts moves a hanging board)."""
        with self._lock:
            self._knock_next = (float(knock_px[0]), float(knock_px[1]))
            if not self._darts and not self._pending:
                return
            reach = self._darts[-1].tip_mm if self._darts else self.board.outline.centroid.coords[0]
            arm = self._arm_towards(reach)
            for step in (0.6, 1.0, 1.0):
                self._script.append((self._hand_at(arm, step), None))
            self._script.append((self._hand_at(arm, 1.0), "clear"))
            self._script.append((self._hand_at(arm, 0.5), None))

    def stand_in_front(self, standing: bool = True) -> None:
        """Somebody stands between the camera and the board (``standing``), or steps aside."""
        w, h = self.camera.image_size
        body = Hand((w * 0.5, h * 0.6), (w * 0.5, h + 100.0), w * 0.35, SKIN, SLEEVE, body=True)
        with self._lock:
            self._standing = body if standing else None

    def switch_lamp(self) -> None:
        """Somebody switches on one more lamp (each call one more): the room gets brighter
        at once, and every dart casts one more shadow."""
        with self._lock:
            light = self._light if self._light is not None else self.renderer.light
            self._light = light.with_lamp_switched_on(self.rng)

    def on_board(self, x_mm: float, y_mm: float) -> bool:
        return bool(self.board.outline.buffer(2).contains(Point(x_mm, y_mm)))

    @property
    def busy(self) -> bool:
        with self._lock:
            return bool(self._script)

    # --- the frame source ---------------------------------------------------------------------
    def __iter__(self) -> Iterator[Frame]:
        self.status.state = "live"
        self.status.message = "simulated camera"
        period = 1.0 / self.fps
        next_time = time.monotonic()
        while not self._closed.is_set():
            if self.realtime:
                delay = next_time - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
                next_time = max(next_time + period, time.monotonic() - period)
            hand = self._advance() or self._standing
            t = self._index / self.fps
            spec = FrameSpec(tuple(self._darts), t, hand, offset=self._knock, light=self._light)
            image = self.renderer.render(spec)
            self.status.frames += 1
            yield Frame(image, t, f"sim_{self._index:06d}")
            self._index += 1
        self.status.state = "ended"

    def close(self) -> None:
        self._closed.set()

    def _advance(self) -> Hand | None:
        with self._lock:
            if not self._script:
                return None
            hand, change = self._script.popleft()
            if change == "add" and self._pending:
                dart = self._pending.popleft()
                if dart is not None:
                    self._darts.append(dart)
            elif change == "drop" and self._darts:
                self._darts.pop()
            elif change == "clear":
                self._darts.clear()
                self._knock = self._knock_next
            return hand

    def _arm_towards(
        self, tip_mm: tuple[float, float]
    ) -> tuple[tuple[float, float], tuple[float, float]]:
        reach = self.camera.project(np.array([tip_mm]))[0]
        w, h = self.camera.image_size
        origin = (float(w) * 0.5 + float(self.rng.uniform(-0.3, 0.3)) * w, float(h) * 1.3)
        return (float(reach[0]), float(reach[1])), origin

    def _hand_at(self, arm: tuple[tuple[float, float], tuple[float, float]], step: float) -> Hand:
        (rx, ry), (ox, oy) = arm
        reach = (ox + (rx - ox) * step, oy + (ry - oy) * step)
        return Hand(reach=reach, origin=(ox, oy), width_px=60.0, skin=SKIN, sleeve=SLEEVE)
