"""Scripted simulated sessions: what happens in front of the camera, frame by frame, and the
ground truth (where each dart's tip entered the board, bounce-outs, takeouts).

A :class:`Session` is built by a :class:`SessionBuilder`; its frames are rendered on demand,
so a long session costs memory only for the frame being looked at.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from shapely.geometry import Point

from boards.model import Board
from calibration.model import Calibration, from_camera
from vision.camera import Camera, look_at_board
from vision.sim.dartboard import Paint, is_dartboard
from vision.sim.darts import VIVID, Dart, DartModel, Magnet, Pin, SceneObject
from vision.sim.render import FrameSpec, Hand, Light, Renderer

FPS = 15.0
GROUP_SPAWN_KEY = 1 << 20  # see SessionBuilder.__post_init__
LAMP_SPAWN_KEY = 1 << 21  # the lamp switched in a session (see random_session)
# A dart that would pass through an earlier one slides off it in steps this long, this far
# at most (mm).
GLANCE_STEP_MM = 0.5
GLANCE_MAX_MM = 40.0
LENSES: tuple[tuple[float, ...], ...] = (
    (0.0, 0.0, 0.0, 0.0, 0.0),
    (-0.12, 0.03, 0.0, 0.0, 0.0),
    (-0.25, 0.08, 0.0, 0.0, 0.0),
    (0.08, -0.02, 0.0, 0.0, 0.0),
    (-0.18, 0.05, 0.001, -0.001, 0.0),
)


@dataclass(frozen=True)
class CameraSetup:
    tilt_deg: float
    azimuth_deg: float
    roll_deg: float
    hfov_deg: float
    dist_coeffs: tuple[float, ...]
    image_size: tuple[int, int] = (1280, 720)

    @classmethod
    def random(cls, rng: np.random.Generator, image_size=(1280, 720)) -> CameraSetup:
        return cls(
            tilt_deg=float(rng.uniform(10, 55)),
            azimuth_deg=float(rng.uniform(0, 360)),
            roll_deg=float(rng.normal(0, 3)),
            hfov_deg=float(rng.uniform(55, 80)),
            dist_coeffs=LENSES[int(rng.integers(len(LENSES)))],
            image_size=tuple(image_size),
        )

    def camera(self, board: Board) -> Camera:
        return look_at_board(
            (board.width_mm, board.height_mm),
            self.image_size,
            self.tilt_deg,
            self.azimuth_deg,
            self.roll_deg,
            self.hfov_deg,
            self.dist_coeffs,
        )


@dataclass
class Session:
    board: Board
    camera: Camera
    renderer: Renderer
    frames: list[FrameSpec]
    truth: dict[str, Any]

    @property
    def calibration(self) -> Calibration:
        return from_camera(self.camera, self.board.id)

    def frame_name(self, index: int) -> str:
        return f"frame_{index:05d}"

    def render(self, index: int) -> np.ndarray:
        return self.renderer.render(self.frames[index])

    def __iter__(self) -> Iterator[tuple[str, float, np.ndarray]]:
        for index, spec in enumerate(self.frames):
            yield self.frame_name(index), spec.t, self.renderer.render(spec)


@dataclass
class SessionBuilder:
    board: Board
    rng: np.random.Generator
    camera: Camera
    frames: list[FrameSpec] = field(default_factory=list)
    objects: list[SceneObject] = field(default_factory=list)
    darts: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    models: list[DartModel] = field(default_factory=list)
    turn: int = 0
    vibration: bool = True  # darts vibrate for a frame or two after the impact
    knock_rate: float = 0.0  # chance that pulling the darts moves the board in the picture
    knock_px: tuple[float, float] = (0.0, 0.0)  # how far it has moved so far
    knock_turn: tuple[float, float, float] = (0.0, 0.0, 0.0)  # and turned (see FrameSpec.turn)
    light: Light | None = None  # the room's light when it is no longer the session's
    # A dart thrown near the previous one lands this far from its tip (mm) and, thrown by the
    # same player from the same stance, leans the same way but for this spread (degrees, per
    # axis): real groups are tight and their darts nearly parallel.
    group_mm: tuple[float, float] = (3.0, 28.0)
    group_spread_deg: float = 2.5

    def __post_init__(self) -> None:
        # Draws added later come from children of the session's rng: the throws stay the same.
        self.extra_rng = self.rng.spawn(1)[0]
        self.knock_rng = self.rng.spawn(1)[0]
        # a board hangs from the middle of its top edge
        top = self.camera.project(np.array([[self.board.width_mm / 2, 0.0, 0.0]]))[0]
        self.knock_pivot = (float(top[0]), float(top[1]))
        # Grouped throws' spread: a child of the same seed that no spawn() reaches (spawning
        # one more here would change the children made after it: the dart models' finish).
        seq = self.rng.bit_generator.seed_seq
        key = (*seq.spawn_key, GROUP_SPAWN_KEY)
        self.group_rng = np.random.default_rng(np.random.SeedSequence(seq.entropy, spawn_key=key))

    # --- time ----------------------------------------------------------------------------
    def _emit(self, hand: Hand | None = None, shake=(0.0, 0.0)) -> int:
        index = len(self.frames)
        spec = FrameSpec(
            tuple(self.objects),
            index / FPS,
            hand,
            shake,
            self.knock_px,
            self.knock_turn,
            light=self.light,
        )
        self.frames.append(spec)
        return index

    def switch_light(self, light: Light) -> None:
        """From the next frame on the room is lit by ``light`` (a lamp switched on or off):
        the light jumps between two frames."""
        self.light = light
        self.events.append({"event": "light", "frame": len(self.frames)})

    def idle(self, frames: int) -> None:
        for _ in range(frames):
            self._emit()

    # --- darts ---------------------------------------------------------------------------
    def random_tip(self, near: tuple[float, float] | None = None) -> tuple[float, float]:
        """A tip on the playable surface and well inside the image."""
        outline = self.board.outline
        minx, miny, maxx, maxy = outline.bounds
        for _ in range(500):
            if near is not None:
                r, a = self.rng.uniform(*self.group_mm), self.rng.uniform(0, 2 * math.pi)
                p = (near[0] + r * math.cos(a), near[1] + r * math.sin(a))
            else:
                p = (self.rng.uniform(minx, maxx), self.rng.uniform(miny, maxy))
            if self._in_view(p):
                return float(p[0]), float(p[1])
        return (
            self.random_tip()
            if near is not None
            else (float(minx + maxx) / 2, float(miny + maxy) / 2)
        )

    def throw(
        self,
        bounce: bool = False,
        near_previous: bool = False,
        end_on: bool = False,
        off_axis_deg: float = 0.0,
    ) -> None:
        """``end_on``: the dart points straight at the camera (its flights hide the rest);
        ``off_axis_deg`` turns it that far off the camera's ray (towards the board's
        normal), so that it is steep but seen a little from its side."""
        previous = [o for o in self.objects if isinstance(o, Dart)]
        leader = previous[-1] if near_previous and previous else None
        tip = self.random_tip(leader.tip_mm if leader is not None else None)
        model = self.models[int(self.rng.integers(len(self.models)))]
        model = replace(model, flight_roll=float(self.rng.uniform(0, math.pi / 2)))
        direction = Dart.random_direction(self.rng)
        if leader is not None:
            # The same player's next dart of the set: the same model (its flights turned
            # differently) and nearly the same direction. The draws above are still made, so
            # the rest of the session's throws stay as they were.
            model = replace(leader.model, flight_roll=model.flight_roll)
            direction = self._parallel_to(leader.direction)
        if end_on:
            towards = self.camera.position - np.array([tip[0], tip[1], 0.0])
            towards /= np.linalg.norm(towards)
            if off_axis_deg:
                normal = np.array([0.0, 0.0, -1.0 if towards[2] < 0 else 1.0])
                side = normal - towards * float(normal @ towards)
                side /= np.linalg.norm(side)
                a = math.radians(off_axis_deg)
                towards = math.cos(a) * towards + math.sin(a) * side
            direction = tuple(float(v) for v in towards)
        dart = self._landed_clear_of(Dart(tip, direction, model), previous)
        tip = dart.tip_mm
        self.objects.append(dart)
        # Impact: the board and the camera mount shake for a couple of frames.
        amp = self.rng.uniform(0.2, 1.2)
        first = None
        wobble = self._wobble(dart)
        for k in range(int(self.rng.integers(1, 4))):
            shake = (amp * self.rng.normal() / (k + 1), amp * self.rng.normal() / (k + 1))
            at = self.objects.index(dart)
            if wobble is not None and k < len(wobble):
                self.objects[at] = wobble[k]
            index = self._emit(shake=shake)
            self.objects[at] = dart
            first = index if first is None else first
        if bounce:
            for _ in range(int(self.rng.integers(0, 2))):
                self._emit()
            self.objects.remove(dart)
            for k in range(1, 4):
                fallen = replace(dart, lift_mm=(0.0, 25.0 * k * k, -12.0 * k))
                self.objects.append(fallen)
                self._emit()
                self.objects.remove(fallen)
            self.events.append({"event": "bounceout", "frame": first})
        else:
            m = model
            tail = dart.axis_point(m.point_len + m.barrel_len + m.shaft_len + m.flight_len)
            tip_px, tail_px = self.camera.project(np.vstack([[*tip, 0.0], tail]))
            self.darts.append(
                {
                    "x_mm": tip[0],
                    "y_mm": tip[1],
                    "frame": first,
                    "turn": self.turn,
                    "bounce": False,
                    # where the tip and the end of the flights appear (error analysis)
                    "tip_px": [round(float(v), 2) for v in tip_px],
                    "tail_px": [round(float(v), 2) for v in tail_px],
                }
            )
            self.events.append({"event": "dart", "frame": first, "x_mm": tip[0], "y_mm": tip[1]})
        self.idle(int(self.rng.integers(8, 14)))

    def _landed_clear_of(self, dart: Dart, earlier: list[Dart]) -> Dart:
        """``dart`` where it can stick: a throw whose body would pass through an earlier
        dart's glances off it and sticks just beside it. Its tip slides in the board's plane
        away from that dart (or across, where the board or the picture ends) until the two
        clear; no random draw, so the session's other throws stay as they were."""
        stuck = [d for d in earlier if d.lift_mm == (0.0, 0.0, 0.0)]
        gap, hit = min(
            ((dart.clearance(d), d) for d in stuck), key=lambda pair: pair[0], default=(0.0, None)
        )
        if hit is None or gap >= 0.0:
            return dart
        away = np.subtract(dart.tip_mm, hit.tip_mm)
        if np.linalg.norm(away) < 1e-6:
            away = np.array([-hit.direction[1], hit.direction[0]])
        away = away / (np.linalg.norm(away) + 1e-12)
        for way in (away, np.array([-away[1], away[0]]), np.array([away[1], -away[0]]), -away):
            for step in np.arange(GLANCE_STEP_MM, GLANCE_MAX_MM, GLANCE_STEP_MM):
                tip = (float(dart.tip_mm[0] + way[0] * step), float(dart.tip_mm[1] + way[1] * step))
                if not self._in_view(tip):
                    break
                moved = replace(dart, tip_mm=tip)
                if all(moved.clearance(d) >= 0.0 for d in stuck):
                    return moved
        return dart

    def _in_view(self, tip: tuple[float, float]) -> bool:
        """On the playable surface and well inside the picture."""
        if not self.board.outline.contains(Point(tip)):
            return False
        px = self.camera.project(np.array([tip]))[0]
        w, h = self.camera.image_size
        return bool(40 < px[0] < w - 40 and 40 < px[1] < h - 40)

    def _parallel_to(self, direction: tuple[float, float, float]) -> tuple[float, float, float]:
        """A direction a few degrees from ``direction`` (a grouped throw's spread)."""
        d = np.asarray(direction, dtype=float)
        d /= np.linalg.norm(d)
        u = np.cross(d, (1.0, 0.0, 0.0) if abs(d[0]) < 0.9 else (0.0, 1.0, 0.0))
        u /= np.linalg.norm(u)
        v = np.cross(d, u)
        a, b = np.radians(self.group_rng.normal(0.0, self.group_spread_deg, 2))
        turned = d + math.tan(a) * u + math.tan(b) * v
        turned /= np.linalg.norm(turned)
        return float(turned[0]), float(turned[1]), float(turned[2])

    def _wobble(self, dart: Dart) -> list[Dart] | None:
        """The dart in its first frames: it swings about its point, damped, blurred by the
        motion during each exposure (flights a few mm off in the first frame)."""
        rng = self.extra_rng
        if not self.vibration or rng.random() < 0.3:
            return None
        d = np.array(dart.direction)
        across = np.cross(d, rng.normal(size=3))
        across /= np.linalg.norm(across)
        amplitude = float(rng.uniform(0.01, 0.05))  # radians
        frames = []
        for k in range(2):  # by the third frame it has settled to under a millimetre
            a = amplitude * 0.4**k * (-1) ** k
            frames.append(dart.vibrating(a, -0.6 * a, across))
        return frames

    # --- people ----------------------------------------------------------------------------
    def _random_hand(self) -> tuple[tuple[int, int, int], tuple[int, int, int], float]:
        skin = (
            int(self.rng.uniform(60, 170)),
            int(self.rng.uniform(90, 190)),
            int(self.rng.uniform(140, 235)),
        )
        sleeve = VIVID[int(self.rng.integers(len(VIVID)))]
        return skin, sleeve, float(self.rng.uniform(45, 80))

    def takeout(self, move_magnets: bool = False) -> None:
        """A hand comes in, pulls every dart, maybe moves a magnet, goes away."""
        w, h = self.camera.image_size
        skin, sleeve, width = self._random_hand()
        origin = (
            float(self.rng.choice([-150, w + 150])),
            float(self.rng.uniform(h * 0.5, h + 200)),
        )
        darts = [o for o in self.objects if isinstance(o, Dart)]
        stops = [self.camera.project(np.array([d.tip_mm]))[0] for d in darts]
        position = np.array(origin)
        for stop in stops:
            for k in range(1, 4):
                p = position + (stop - position) * k / 3
                self._emit(Hand(tuple(p), origin, width, skin, sleeve))
            for d in darts:
                tip_px = self.camera.project(np.array([d.tip_mm]))[0]
                if np.allclose(tip_px, stop) and d in self.objects:
                    self.objects.remove(d)
            self._emit(Hand(tuple(stop), origin, width, skin, sleeve))
            position = stop
        if darts and self.knock_rng.random() < self.knock_rate:
            # Pulling darts out of a hanging board moves it a pixel or two in the picture.
            dx, dy = self.knock_rng.normal(0.0, 1.2, 2)
            self.knock_px = (self.knock_px[0] + float(dx), self.knock_px[1] + float(dy))
            # Half the time it turns a little too, about where it hangs or is held: the
            # picture is then more than shifted (a tenth of a degree is a pixel or two at the
            # far side).
            if self.knock_rng.random() < 0.5:
                degrees = self.knock_turn[0] + float(self.knock_rng.normal(0.0, 0.12))
                self.knock_turn = (degrees, *self.knock_pivot)
            self.events.append(
                {
                    "event": "knock",
                    "frame": len(self.frames),
                    "shift_px": list(self.knock_px),
                    "turn_deg": self.knock_turn[0],
                }
            )
        if move_magnets:
            magnets = [o for o in self.objects if isinstance(o, Magnet)]
            if magnets:
                magnet = magnets[int(self.rng.integers(len(magnets)))]
                index = self.objects.index(magnet)
                to = self.random_tip()
                self.objects[index] = replace(magnet, center_mm=to)
                stop = self.camera.project(np.array([to]))[0]
                self._emit(Hand(tuple(stop), origin, width, skin, sleeve))
                position = stop
        for k in range(1, 4):
            p = position + (np.array(origin) - position) * k / 3
            self._emit(Hand(tuple(p), origin, width, skin, sleeve))
        first_clear = len(self.frames)
        self.events.append({"event": "takeout", "frame": first_clear})
        self.turn += 1
        self.idle(int(self.rng.integers(8, 14)))

    def person_passes(self, pause: int = 0) -> None:
        """Somebody walks between the camera and the board (and maybe stops there)."""
        w, h = self.camera.image_size
        skin, sleeve, _ = self._random_hand()
        width = float(self.rng.uniform(w * 0.25, w * 0.45))
        y = float(self.rng.uniform(h * 0.4, h * 0.9))
        xs = np.linspace(-width, w + width, 10)
        if self.rng.random() < 0.5:
            xs = xs[::-1]
        for i, x in enumerate(xs):
            body = Hand((float(x), y), (float(x), h + 100), width, skin, sleeve, body=True)
            self._emit(body)
            if i == len(xs) // 2:
                for _ in range(pause):
                    self._emit(body)
        self.idle(int(self.rng.integers(6, 10)))

    def hand_wave(self) -> None:
        """A hand points at the board (a player showing his aim) and goes away."""
        w, h = self.camera.image_size
        skin, sleeve, width = self._random_hand()
        origin = (float(w + 150), float(self.rng.uniform(h * 0.3, h + 100)))
        target = self.camera.project(np.array([self.random_tip()]))[0]
        path = [np.array(origin) + (target - origin) * k / 4 for k in range(1, 5)]
        path += path[::-1][1:]
        for p in path:
            self._emit(Hand(tuple(p), origin, width, skin, sleeve))
        self.idle(int(self.rng.integers(6, 10)))

    def place_pieces(self, magnets: int, pins: int) -> None:
        for _ in range(magnets):
            color = VIVID[int(self.rng.integers(len(VIVID)))]
            self.objects.append(Magnet(self.random_tip(), float(self.rng.uniform(5, 10)), color))
        for _ in range(pins):
            color = VIVID[int(self.rng.integers(len(VIVID)))]
            off = (float(self.rng.normal(0, 1.5)), float(self.rng.normal(0, 1.5)), -8.0)
            self.objects.append(Pin(self.random_tip(), off, float(self.rng.uniform(2.5, 4)), color))


def _lamp_switch(seed: int, light: Light, throws: int) -> tuple[Light, Light, tuple[int, bool]]:
    """A lamp switched in a session: the light before and after, and when: after which
    throw (counted from 1), and whether as the darts of that turn are pulled. Drawn from a
    stream of its own, so the session's other draws stay as they were."""
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(LAMP_SPAWN_KEY,)))
    more = light.with_lamp_switched_on(rng)
    before, after = (light, more) if rng.random() < 0.5 else (more, light)
    at = int(rng.integers(1, max(2, throws)))
    return before, after, (at, bool(rng.random() < 0.3))


def random_session(
    board: Board,
    seed: int,
    turns: int = 3,
    darts_per_turn: int = 3,
    image_size: tuple[int, int] = (1280, 720),
    bounce_rate: float = 0.08,
    near_rate: float = 0.35,
    people: bool = True,
    magnets: int | None = None,
    setup: CameraSetup | None = None,
    light: Light | None = None,
    total_darts: int | None = None,
    knock_rate: float = 0.15,
    jpeg_quality: int | None = None,
    look: str | None = None,
    noise_draw: int = 0,
    lamp_switch: bool = False,
) -> Session:
    """A varied, seeded session: camera, lens, light, noise, darts, pieces, people, a board
    that may move when darts are pulled out. ``total_darts`` (if given) cuts the last turn
    short so exactly that many are thrown. ``jpeg_quality`` (if given) compresses every frame
    at that quality instead of the session's own choice (half the sessions 75-95, half none),
    as a webcam's MJPEG stream does; everything else stays as the seed made it. ``look``
    ("print" or "painted", if given) chooses the board's look instead of the seed: our print,
    or (a steel-tip board only) a dartboard as its maker paints it. ``lamp_switch``: one more
    lamp is switched on, or (half the sessions) off, once during the session, after a throw
    or as the darts are pulled; drawn apart from the rest, so the throws stay the same."""
    if look not in (None, "print", "painted"):
        raise ValueError(f"look must be 'print' or 'painted', not {look!r}")
    if look == "painted" and not is_dartboard(board):
        raise ValueError(f"board {board.id!r} is not a steel-tip dartboard: only our print")
    rng = np.random.default_rng(seed)
    setup = setup or CameraSetup.random(rng, image_size)
    camera = setup.camera(board)
    light = light or Light.random(rng)
    throws = turns * darts_per_turn if total_darts is None else total_darts
    switch = _lamp_switch(seed, light, throws) if lamp_switch else None
    if switch is not None:
        light, _after, _at = switch
    noise = float(rng.uniform(1.0, 3.5))
    jpeg = int(rng.integers(75, 95)) if rng.random() < 0.5 else None
    jpeg = jpeg_quality or jpeg
    # surface grain: sisal under the classic board's print is coarser than paper on a wall
    style = rng.spawn(1)[0]
    grain = float(style.uniform(0.01, 0.045) if board.id == "classic" else style.uniform(0, 0.03))
    # half the steel-tip sessions are on a board as its maker paints it, not on our print
    seed_look = "painted" if is_dartboard(board) and style.random() < 0.5 else "print"
    paint = Paint.random(style) if (look or seed_look) == "painted" else None
    renderer = Renderer(
        board,
        camera,
        light,
        noise,
        jpeg,
        seed=seed + 1,
        grain=grain,
        paint=paint,
        noise_draw=noise_draw,
    )
    builder = SessionBuilder(board, rng, camera, knock_rate=knock_rate)
    builder.models = [DartModel.random(rng) for _ in range(3)]
    count = int(rng.integers(0, 6)) if magnets is None else magnets
    builder.place_pieces(count, int(rng.integers(0, 3)) if magnets is None else 0)
    builder.idle(6)
    left = turns * darts_per_turn if total_darts is None else total_darts
    thrown = 0
    for turn in range(turns):
        for k in range(min(darts_per_turn, left)):
            left -= 1
            if rng.random() < bounce_rate:
                builder.throw(bounce=True)
            builder.throw(near_previous=k > 0 and rng.random() < near_rate)
            thrown += 1
            if switch is not None and not switch[2][1] and thrown == switch[2][0]:
                builder.idle(4)
                builder.switch_light(switch[1])
                builder.idle(8)
            if people and rng.random() < 0.1:
                builder.hand_wave()
        if switch is not None and switch[2][1] and thrown >= switch[2][0] and builder.light is None:
            builder.switch_light(switch[1])
        builder.takeout(move_magnets=rng.random() < 0.5)
        if people and rng.random() < 0.3 and turn < turns - 1:
            builder.person_passes(pause=int(rng.integers(0, 6)))
    truth = {
        "board": board.id,
        "seed": seed,
        "fps": FPS,
        "camera": {
            "tilt_deg": setup.tilt_deg,
            "azimuth_deg": setup.azimuth_deg,
            "roll_deg": setup.roll_deg,
            "hfov_deg": setup.hfov_deg,
            "dist_coeffs": list(setup.dist_coeffs),
            "image_size": list(setup.image_size),
        },
        "light": light.kind,
        "lamps": len(light.lamps()),
        "grain": grain,
        "board_look": "print" if paint is None else "painted dartboard",
        "noise_sigma": noise,
        "jpeg_quality": jpeg,
        "darts": builder.darts,
        "events": builder.events,
        "frames": len(builder.frames),
    }
    return Session(board, camera, renderer, builder.frames, truth)
