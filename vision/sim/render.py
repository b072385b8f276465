"""Renders simulated camera frames: board, objects with soft shadows, light, noise, shake, JPEG.

Everything 3D goes through ``vision.camera.Camera`` (perspective + lens distortion), so the
ground truth is exact. The expensive parts are cached: the board as the camera sees it (once
per session), the scene with its objects (once per change), the lit scene (once per light
step); a frame then costs a copy, noise and, sometimes, a shake or a JPEG round trip.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from boards.model import Board
from boards.printing import render_png
from boards.scene import build_scene
from vision.camera import Camera, render_board_view
from vision.sim.dartboard import Paint, painted_dartboard
from vision.sim.darts import Dart, Magnet, Pin, SceneObject

SHIFT = 4
ONE = 1 << SHIFT
BOARD_PX_PER_MM = 3.0


_TEXTURES: dict[tuple[int, float, Paint | None], tuple[Board, np.ndarray]] = {}


def board_texture(
    board: Board, px_per_mm: float = BOARD_PX_PER_MM, paint: Paint | None = None
) -> np.ndarray:
    """The printed sheet at ``px_per_mm`` (or, with ``paint``, a steel-tip dartboard as its
    maker paints it), slightly blurred like ink on paper under a lens."""
    key = (id(board), px_per_mm, paint)
    if key not in _TEXTURES:
        if len(_TEXTURES) > 4:
            _TEXTURES.clear()
        if paint is None:
            image = render_png(build_scene(board), dpi=px_per_mm * 25.4)
        else:
            image = painted_dartboard(board, px_per_mm, paint)
        _TEXTURES[key] = (board, cv2.GaussianBlur(image, (0, 0), 0.6 * px_per_mm))
    return _TEXTURES[key][1]


@dataclass(frozen=True)
class Lamp:
    """One source of light that casts a shadow."""

    direction: tuple[float, float, float]  # from the lamp towards the wall (z > 0)
    shadow: float  # its share of the light: darkness of its full shadow (0..1)
    spread: float  # the lamp's size / its distance (rad): penumbra width per mm of height


@dataclass(frozen=True)
class Light:
    """Slowly changing uneven light and the lamps that cast the shadows.

    The main lamp is ``direction`` / ``shadow`` / ``spread``; ``extra`` lamps each cast a
    shadow of their own. A shadow's penumbra is ``penumbra_px`` where the shadowed point
    touches the board and grows with its height above the board (``spread``), so a dart's
    shadow is sharp at the point and blurred at the flights."""

    direction: tuple[float, float, float]  # from the lamp towards the wall (z > 0)
    level: float  # overall gain
    gradient: float  # strength of the left/right, top/bottom fall-off
    vignette: float
    drift: float  # relative amplitude of the slow change
    period_s: float
    shadow: float  # darkness of a full shadow (0..1)
    penumbra_px: float  # blur of a shadow's edge at height 0 (optics)
    spread: float = 0.0
    extra: tuple[Lamp, ...] = ()
    kind: str = "lamp"  # lamp | lamps | diffuse (what was drawn, for reports)

    @classmethod
    def random(cls, rng: np.random.Generator) -> Light:
        # The draws from ``rng`` keep their number and order (seeded sessions keep their
        # cameras and throws); the lamps added later come from a child generator.
        elevation = math.radians(rng.uniform(25, 60))  # angle off the wall's normal
        azimuth = math.radians(90 + rng.normal(0, 40))  # mostly from above
        light = cls(
            direction=_direction(elevation, azimuth),
            level=float(rng.uniform(0.75, 1.05)),
            gradient=float(rng.uniform(0.0, 0.25)),
            vignette=float(rng.uniform(0.0, 0.3)),
            drift=float(rng.uniform(0.0, 0.12)),
            period_s=float(rng.uniform(20, 90)),
            shadow=float(rng.uniform(0.15, 0.5)),
            penumbra_px=float(rng.uniform(0.5, 1.2)),
        )
        return light.with_lamps(rng.spawn(1)[0])

    def with_lamps(self, rng: np.random.Generator) -> Light:
        """One lamp, two or three lamps (each a weaker shadow of its own), or diffuse room
        light (a faint, very soft shadow); lamps from a bare bulb to a large shade."""
        draw = rng.random()
        if draw < 0.45:
            return replace(self, spread=float(rng.uniform(0.02, 0.12)), kind="lamp")
        if draw < 0.8:
            count = int(rng.integers(2, 4))
            total = min(0.65, self.shadow * float(rng.uniform(1.0, 1.5)))
            shares = rng.dirichlet(np.full(count, 2.0)) * total
            extra = tuple(
                Lamp(
                    _direction(
                        math.radians(rng.uniform(15, 65)),
                        math.radians(90 + rng.uniform(-150, 150)),
                    ),
                    float(share),
                    float(rng.uniform(0.02, 0.15)),
                )
                for share in shares[1:]
            )
            return replace(
                self,
                shadow=float(shares[0]),
                spread=float(rng.uniform(0.02, 0.15)),
                extra=extra,
                kind="lamps",
            )
        return replace(
            self,
            shadow=float(rng.uniform(0.06, 0.2)),
            spread=float(rng.uniform(0.35, 0.9)),
            kind="diffuse",
        )

    def with_lamp_switched_on(self, rng: np.random.Generator) -> Light:
        """The same room once one more lamp is switched on: brighter by the new lamp's share
        of the light, every shadow of the other lamps lighter by as much, and a shadow of its
        own cast from another side."""
        share = float(rng.uniform(0.2, 0.5))  # the new lamp's share of the light from now on
        keep = 1.0 - share
        lamp = Lamp(
            _direction(
                math.radians(rng.uniform(15, 60)), math.radians(90 + rng.uniform(-150, 150))
            ),
            share * float(rng.uniform(0.6, 1.0)),
            float(rng.uniform(0.02, 0.15)),
        )
        dimmed = tuple(replace(old, shadow=old.shadow * keep) for old in self.extra)
        return replace(
            self,
            level=self.level / keep,
            shadow=self.shadow * keep,
            extra=(*dimmed, lamp),
        )

    def lamps(self) -> tuple[Lamp, ...]:
        return (Lamp(self.direction, self.shadow, self.spread), *self.extra)

    def gain(self, size: tuple[int, int], t: float) -> np.ndarray:
        """The light field (float32, image size) at time ``t`` seconds."""
        gx, gy = 48, 27
        x = np.linspace(-1, 1, gx, dtype=np.float32)[None, :]
        y = np.linspace(-1, 1, gy, dtype=np.float32)[:, None]
        phase = 2 * math.pi * t / self.period_s
        angle = 0.7 + 0.5 * math.sin(phase * 0.7)
        ramp = self.gradient * (x * math.cos(angle) + y * math.sin(angle)) * 0.5
        vignette = 1 - self.vignette * 0.5 * (x * x + y * y)
        level = self.level * (1 + self.drift * math.sin(phase))
        field = (level * (1 + ramp) * vignette).astype(np.float32)
        return cv2.resize(field, size, interpolation=cv2.INTER_LINEAR)


def _direction(elevation: float, azimuth: float) -> tuple[float, float, float]:
    """From a lamp towards the wall: ``elevation`` off the wall's normal, ``azimuth`` in the
    board's plane (90 degrees: the lamp is above)."""
    return (
        -math.sin(elevation) * math.cos(azimuth),
        math.sin(elevation) * math.sin(azimuth),
        math.cos(elevation),
    )


@dataclass(frozen=True)
class Hand:
    """A hand and arm (or a passing body) in front of the board, in image pixels."""

    reach: tuple[float, float]  # where the hand is
    origin: tuple[float, float]  # where the arm comes from (off the image)
    width_px: float
    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int]
    body: bool = False  # a whole person: one big blob


@dataclass(frozen=True)
class FrameSpec:
    objects: tuple[SceneObject, ...]
    t: float
    hand: Hand | None = None
    shake: tuple[float, float] = (0.0, 0.0)  # the mount vibrating: shifted and smeared
    offset: tuple[float, float] = (0.0, 0.0)  # the board or camera moved: shifted, still sharp
    # ... and turned: (degrees, pivot x, pivot y in px), a mount or hanging board knocked askew
    turn: tuple[float, float, float] = (0.0, 0.0, 0.0)
    # the lens out of focus: a Gaussian blur of this sigma (px), before the sensor's noise
    focus_px: float = 0.0
    # the room's light from this frame on when it is not the session's (a lamp switched on)
    light: Light | None = None


class Renderer:
    def __init__(
        self,
        board: Board,
        camera: Camera,
        light: Light,
        noise_sigma: float,
        jpeg_quality: int | None,
        seed: int,
        wall: tuple[int, int, int] = (90, 95, 100),
        light_every_s: float = 0.4,
        grain: float = 0.0,
        paint: Paint | None = None,
        noise_draw: int = 0,
    ) -> None:
        """``noise_draw`` > 0: another draw of the camera's noise (and of its per-frame
        offset) for the same scene, to tell a result from the luck of one draw."""
        self.board = board
        self.camera = camera
        self.light = light
        self.noise_sigma = noise_sigma
        self.jpeg_quality = jpeg_quality
        # a draw's own stream (a plain [seed, n] would meet the grain's [seed, 3])
        self.rng = np.random.default_rng(
            seed if noise_draw == 0 else np.random.SeedSequence(seed, spawn_key=(noise_draw,))
        )
        self.light_every_s = light_every_s
        w, h = camera.image_size
        self.size = (w, h)
        if paint is not None:
            wall = paint.wall
        texture = board_texture(board, BOARD_PX_PER_MM, paint)
        self.base = render_board_view(texture, BOARD_PX_PER_MM, camera, wall)
        if grain > 0:
            self.base = _grainy(self.base, grain, np.random.default_rng([seed, 3]))
        pad = 16
        noise = self.rng.normal(0, noise_sigma, (h + pad, w + pad, 3))
        self.noise = np.round(noise).astype(np.int16)
        self._scene_cache: tuple[tuple, np.ndarray] | None = None
        self._lit_cache: tuple[tuple, np.ndarray] | None = None
        self.focal = float(camera.camera_matrix[0, 0])
        light_dir = np.array(light.direction, dtype=np.float64)
        self.light_dir = light_dir / np.linalg.norm(light_dir)
        self._scale_grid = self._scale_grid_init()

    # --- frames ---------------------------------------------------------------------------
    def render(self, spec: FrameSpec) -> np.ndarray:
        light = self.light if spec.light is None else spec.light
        scene = self._scene(spec.objects, light)
        step = math.floor(spec.t / self.light_every_s)
        key = (id(scene), step)
        if self._lit_cache is None or self._lit_cache[0] != key:
            gain = light.gain(self.size, step * self.light_every_s)
            lit = cv2.multiply(scene, cv2.merge([gain, gain, gain]), dtype=cv2.CV_32F)
            self._lit_cache = (key, np.clip(lit, 0, 255).astype(np.uint8))
        frame = self._lit_cache[1].copy()
        if spec.hand is not None:
            _draw_hand(frame, spec.hand)
        if spec.shake != (0.0, 0.0) or spec.offset != (0.0, 0.0) or spec.turn[0] != 0.0:
            dx, dy = spec.shake[0] + spec.offset[0], spec.shake[1] + spec.offset[1]
            degrees, *pivot = spec.turn
            shift = cv2.getRotationMatrix2D((float(pivot[0]), float(pivot[1])), degrees, 1.0)
            shift[:, 2] += (dx, dy)
            # A vibrating mount smears the picture (bilinear interpolation blurs it about as
            # much); a camera that merely stands elsewhere sees it sharp (Lanczos: nearly
            # lossless).
            smeared = spec.shake != (0.0, 0.0)
            frame = cv2.warpAffine(
                frame,
                shift,
                self.size,
                flags=cv2.INTER_LINEAR if smeared else cv2.INTER_LANCZOS4,
                borderMode=cv2.BORDER_REPLICATE,
            )
        if spec.focus_px > 0.0:
            frame = cv2.GaussianBlur(frame, (0, 0), spec.focus_px)
        w, h = self.size
        ox, oy = self.rng.integers(0, 16, 2)
        frame = cv2.add(frame, self.noise[oy : oy + h, ox : ox + w], dtype=cv2.CV_8U)
        if self.jpeg_quality:
            _ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, self.jpeg_quality])
            frame = cv2.imdecode(data, cv2.IMREAD_COLOR)
        return frame

    def _scene(self, objects: tuple[SceneObject, ...], light: Light) -> np.ndarray:
        key = (objects, light)
        if self._scene_cache is not None and self._scene_cache[0] == key:
            return self._scene_cache[1]
        shadowed = self.base.copy()
        if any(isinstance(o, Dart) and o.sway is not None for o in objects):
            image = self._vibrating(shadowed, objects, light)
        else:
            self._shadows(shadowed, objects, light)
            image = self._objects(shadowed, objects)
        self._scene_cache = (key, image)
        return image

    def _vibrating(
        self, shadowed: np.ndarray, objects: tuple[SceneObject, ...], light: Light
    ) -> np.ndarray:
        """A dart still vibrating: its motion during the exposure blurs it. The scene is drawn
        at three moments and averaged where the vibrating darts sweep (their shadows, far
        softer, from the middle moment only)."""
        middle = _swayed(objects, 0.5)
        self._shadows(shadowed, middle, light)
        image = self._objects(shadowed, middle)
        ends = [_swayed(objects, f) for f in (0.0, 1.0)]
        swaying = [i for i, obj in enumerate(objects) if _sways(obj)]
        moving = [p[1] for scene in ends for i in swaying for p in self._primitives((scene[i],))]
        h, w = image.shape[:2]
        pts = np.vstack(moving)
        x0, y0 = (max(0, int(v) - 3) for v in pts.min(axis=0))
        x1, y1 = (min(m, int(v) + 4) for v, m in zip(pts.max(axis=0), (w, h), strict=True))
        if x1 <= x0 or y1 <= y0:
            return image
        box = (x0, y0, x1, y1)
        total = image[y0:y1, x0:x1].astype(np.uint16)
        for scene in ends:
            total += self._objects(shadowed, scene, box)[y0:y1, x0:x1]
        image[y0:y1, x0:x1] = ((total + 1) // 3).astype(np.uint8)
        return image

    def _objects(
        self,
        shadowed: np.ndarray,
        objects: tuple[SceneObject, ...],
        clip: tuple[int, int, int, int] | None = None,
    ) -> np.ndarray:
        """The objects drawn over the board with its shadows (a new image); only within the
        box ``clip`` (x0, y0, x1, y1) if given."""
        image = shadowed.copy()
        prims = sorted(self._primitives(objects), key=lambda p: -p[0])
        if prims:
            pts = np.vstack([p[1] for p in prims])
            h, w = image.shape[:2]
            x0 = int(np.clip(np.floor(pts[:, 0].min()) - 2, 0, w - 1))
            y0 = int(np.clip(np.floor(pts[:, 1].min()) - 2, 0, h - 1))
            x1 = int(np.clip(np.ceil(pts[:, 0].max()) + 3, x0 + 1, w))
            y1 = int(np.clip(np.ceil(pts[:, 1].max()) + 3, y0 + 1, h))
            if clip is not None:
                x0, y0 = max(x0, clip[0]), max(y0, clip[1])
                x1, y1 = min(x1, clip[2]), min(y1, clip[3])
                if x1 <= x0 or y1 <= y0:
                    return image
            canvas = Canvas((y1 - y0, x1 - x0), (x0, y0))
            for _, _, draw in prims:
                draw(canvas)
            canvas.composite(image)
        return image

    # --- geometry ---------------------------------------------------------------------------
    def _tube(self, a: np.ndarray, b: np.ndarray, ra: float, rb: float) -> tuple[np.ndarray, float]:
        """Image outline of a tapered cylinder from a to b (3D), and its mean depth."""
        n = 4 if np.any(self.camera.dist_coeffs) else 2
        s = np.linspace(0, 1, n)[:, None]
        pts = a[None, :] * (1 - s) + b[None, :] * s
        px = self.camera.project(pts)
        depth = self.camera.depth(pts)
        radius = (ra * (1 - s[:, 0]) + rb * s[:, 0]) * self.focal / depth
        along = np.gradient(px, axis=0)
        along /= np.linalg.norm(along, axis=1, keepdims=True) + 1e-12
        normal = np.column_stack([-along[:, 1], along[:, 0]])
        left = px + normal * radius[:, None]
        right = px - normal * radius[:, None]
        return np.vstack([left, right[::-1]]), float(depth.mean())

    def _primitives(
        self, objects: tuple[SceneObject, ...]
    ) -> list[tuple[float, np.ndarray, object]]:
        prims: list[tuple[float, np.ndarray, object]] = []
        for obj in objects:
            if isinstance(obj, Dart):
                prims.extend(self._dart_prims(obj))
            elif isinstance(obj, Magnet):
                prims.append(self._magnet_prim(obj))
            elif isinstance(obj, Pin):
                prims.append(self._pin_prim(obj))
        return prims

    def _dart_prims(self, dart: Dart) -> list[tuple[float, np.ndarray, object]]:
        m = dart.model
        prims = []
        p_end = m.point_len
        b0, b1 = p_end, p_end + m.barrel_len
        s1 = b1 + m.shaft_len
        metal = m.shine
        segments = [
            (0.0, p_end, m.point_r * 0.85, m.point_r, m.point_color, metal),
            (b0, b0 + 5, m.point_r * 1.6, m.barrel_r, m.barrel_color, metal),
            (b0 + 5, b1 - 4, m.barrel_r, m.barrel_r, m.barrel_color, metal),
            (b1 - 4, b1, m.barrel_r, m.shaft_r * 1.3, m.barrel_color, metal),
            (b1, s1, m.shaft_r, m.shaft_r, m.shaft_color, 0.0),
        ]
        mid = (b0 + b1) / 2
        if m.ring_color is not None:
            r = m.barrel_r * 1.02
            segments.append((mid - 3, mid + 3, r, r, m.ring_color, 0.0))
        for s_a, s_b, r_a, r_b, color, shine in segments:
            outline, depth = self._tube(dart.axis_point(s_a), dart.axis_point(s_b), r_a, r_b)
            grooves = []
            if s_a == b0 + 5 and m.grip_rings:
                grooves = self._grooves(dart, s_a + 2, s_b - 2, m.grip_rings, m.barrel_r)
                if m.ring_color is not None:  # no groove under the coloured ring
                    grooves = [g for s, g in grooves if abs(s - mid) > 3.5]
                else:
                    grooves = [g for _, g in grooves]
            painter = _tube_painter(outline, color, shine, grooves)
            prims.append((depth - 0.01 * s_a, outline, painter))
        for wing in self._wings(dart):
            px = self.camera.project(wing)
            depth = float(self.camera.depth(wing).mean())
            normal = np.cross(wing[1] - wing[0], wing[-1] - wing[0])
            normal /= np.linalg.norm(normal) + 1e-12
            shade = 0.55 + 0.45 * abs(float(normal @ self.light_dir))
            color = tuple(int(c * shade) for c in m.flight_color)
            pattern = None
            if m.flight_pattern is not None:
                # a printed design: the inner part of each wing in a second colour
                inner = px.mean(axis=0) + (px - px.mean(axis=0)) * 0.55
                pattern = (inner, tuple(int(c * shade) for c in m.flight_pattern))
            prims.append((depth, px, _wing_painter(px, color, m.flight_opacity, pattern)))
        return prims

    def _grooves(
        self, dart: Dart, s_a: float, s_b: float, count: int, radius: float
    ) -> list[tuple[float, np.ndarray]]:
        """Outlines of ``count`` grooves (0.9 mm wide) cut round the barrel between s_a, s_b
        (all projected at once; over 0.9 mm the lens distortion is a straight line)."""
        at = np.linspace(s_a, s_b, count)
        ends = np.vstack([dart.axis_point(s + d) for s in at for d in (-0.45, 0.45)])
        px = self.camera.project(ends).reshape(-1, 2, 2)
        r = (radius * self.focal / self.camera.depth(ends)).reshape(-1, 2, 1)
        along = px[:, 1] - px[:, 0]
        along /= np.linalg.norm(along, axis=1, keepdims=True) + 1e-12
        normal = np.column_stack([-along[:, 1], along[:, 0]])[:, None, :]
        left, right = px + normal * r, px - normal * r
        outlines = np.concatenate([left, right[:, ::-1]], axis=1)
        return [(float(s), outline) for s, outline in zip(at, outlines, strict=True)]

    def _wings(self, dart: Dart) -> list[np.ndarray]:
        m = dart.model
        d = np.array(dart.direction)
        e1 = np.cross(d, [0.0, 0.0, 1.0])
        if np.linalg.norm(e1) < 1e-6:
            e1 = np.array([1.0, 0.0, 0.0])
        e1 /= np.linalg.norm(e1)
        e2 = np.cross(d, e1)
        start = m.point_len + m.barrel_len + m.shaft_len - m.flight_len * 0.85
        span, length = m.flight_span, m.flight_len
        if m.flight_shape == "slim":
            profile = [(0, 0), (0.35, 0.45), (0.8, 0.7), (1.0, 0.7), (1.0, 0)]
        elif m.flight_shape == "kite":
            profile = [(0, 0), (0.6, 1.0), (1.0, 0.55), (1.0, 0)]
        else:
            profile = [(0, 0), (0.3, 0.6), (0.75, 1.0), (1.0, 1.0), (1.0, 0)]
        wings = []
        for k in range(4):
            angle = m.flight_roll + k * math.pi / 2
            e = math.cos(angle) * e1 + math.sin(angle) * e2
            pts = [dart.axis_point(start + a * length) + e * (w * span) for a, w in profile]
            wings.append(np.array(pts))
        return wings

    def _magnet_prim(self, magnet: Magnet) -> tuple[float, np.ndarray, object]:
        angles = np.linspace(0, 2 * math.pi, 28, endpoint=False)
        ring = np.column_stack(
            [
                magnet.center_mm[0] + magnet.radius_mm * np.cos(angles),
                magnet.center_mm[1] + magnet.radius_mm * np.sin(angles),
            ]
        )
        bottom = np.column_stack([ring, np.zeros(len(ring))])
        top = np.column_stack([ring, np.full(len(ring), -magnet.height_mm)])
        bottom_px, top_px = self.camera.project(bottom), self.camera.project(top)
        hull = cv2.convexHull(np.vstack([bottom_px, top_px]).astype(np.float32)).reshape(-1, 2)
        dark = tuple(int(c * 0.6) for c in magnet.color)
        depth = float(self.camera.depth(top).mean())

        def draw(canvas: Canvas) -> None:
            canvas.fill(hull, dark)
            canvas.fill(top_px, magnet.color)
            highlight = top_px * 0.5 + top_px.mean(axis=0) * 0.5 - (1.5, 1.5)
            canvas.fill(highlight, tuple(min(255, int(c * 1.15 + 20)) for c in magnet.color))

        return depth, hull, draw

    def _pin_prim(self, pin: Pin) -> tuple[float, np.ndarray, object]:
        base = np.array([*pin.base_mm, 0.0])
        head = base + np.array(pin.head_offset)
        px = self.camera.project(np.vstack([base, head]))
        depth = float(self.camera.depth(head[None, :])[0])
        radius = pin.head_r * self.focal / depth

        def draw(canvas: Canvas) -> None:
            canvas.line(px[0], px[1], (170, 170, 175), 0.8)
            canvas.circle(px[1], radius, pin.color)
            light = tuple(min(255, c + 70) for c in pin.color)
            canvas.circle(px[1] - radius * 0.35, radius * 0.3, light)

        box = np.vstack([px, px[1] + radius, px[1] - radius])
        return depth, box, draw

    # --- shadows ---------------------------------------------------------------------------
    def _shadows(self, image: np.ndarray, objects: tuple[SceneObject, ...], light: Light) -> None:
        """Each lamp darkens the board where the objects hide it, by its share of the light
        (the shares add up where shadows of several lamps overlap). A shadowed point's
        penumbra grows with its height: pieces of similar blur are drawn and blurred together."""
        layers: list[tuple[float, tuple[int, int, int, int], np.ndarray]] = []
        for lamp in light.lamps():
            if lamp.shadow <= 0:
                continue
            direction = np.array(lamp.direction, dtype=np.float64)
            direction /= np.linalg.norm(direction)
            pieces = self._shadow_pieces(objects, direction)
            if pieces:
                mask = self._shadow_mask(pieces, direction, lamp.spread, light.penumbra_px)
                layers.append((lamp.shadow, *mask))
        layers = [layer for layer in layers if layer[2].size]
        if not layers:
            return
        x0 = min(box[0] for _, box, _ in layers)
        y0 = min(box[1] for _, box, _ in layers)
        x1 = max(box[2] for _, box, _ in layers)
        y1 = max(box[3] for _, box, _ in layers)
        dark = np.zeros((y1 - y0, x1 - x0), np.float32)
        for share, (bx0, by0, bx1, by1), mask in layers:
            dark[by0 - y0 : by1 - y0, bx0 - x0 : bx1 - x0] += share * mask
        roi = image[y0:y1, x0:x1].astype(np.float32)
        roi *= np.maximum(1 - dark, 0.0)[..., None]
        image[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)

    def _shadow_pieces(
        self, objects: tuple[SceneObject, ...], light: np.ndarray
    ) -> list[tuple[np.ndarray, float, float]]:
        """(image polygon of a piece's shadow, height of the piece above the board in mm,
        opacity) for every object; darts in short pieces so that the blur follows height."""
        pieces: list[tuple[np.ndarray, float, float]] = []
        for obj in objects:
            if isinstance(obj, Dart):
                if obj.lift_mm != (0.0, 0.0, 0.0):
                    continue  # falling: its shadow is somewhere below, ignore
                pieces.extend(self._dart_shadow(obj, light))
            elif isinstance(obj, Magnet):
                angles = np.linspace(0, 2 * math.pi, 20, endpoint=False)
                top = np.column_stack(
                    [
                        obj.center_mm[0] + obj.radius_mm * np.cos(angles),
                        obj.center_mm[1] + obj.radius_mm * np.sin(angles),
                        np.full(20, -obj.height_mm),
                    ]
                )
                poly = self.camera.project(_to_board(top, light))
                pieces.append((poly, obj.height_mm, 1.0))
            elif isinstance(obj, Pin):
                base = np.array([*obj.base_mm, 0.0])
                head = base + np.array(obj.head_offset)
                shadow = _to_board(head[None, :], light)
                poly = self.camera.project(np.vstack([base, shadow[0]]))
                pieces.append((poly, -head[2] / 2, 1.0))
        return pieces

    def _dart_shadow(self, dart: Dart, light: np.ndarray) -> list[tuple[np.ndarray, float, float]]:
        m = dart.model
        ends = [0.0, m.point_len, m.point_len + m.barrel_len]
        ends.append(ends[-1] + m.shaft_len)
        radii = [m.point_r, m.barrel_r, m.shaft_r]
        starts, stops, rs = [], [], []
        for (s_a, s_b), r in zip(itertools.pairwise(ends), radii, strict=True):
            count = max(1, math.ceil((s_b - s_a) / SHADOW_PIECE_MM))
            cuts = np.linspace(s_a, s_b, count + 1)
            # overlap the neighbours a little: no seam between pieces of one layer
            starts.extend(np.maximum(cuts[:-1] - 0.4, 0.0))
            stops.extend(cuts[1:] + 0.4)
            rs.extend([r] * count)
        quads, heights = self._shadow_quads(dart, np.array(starts), np.array(stops), light, rs)
        pieces = [(q, float(h), 1.0) for q, h in zip(quads, heights, strict=True)]
        # a clear flight lets most of the light through
        opacity = 0.35 + 0.65 * m.flight_opacity if m.flight_opacity < 1 else 1.0
        for wing in self._wings(dart):
            poly = self.camera.project(_to_board(wing, light))
            pieces.append((poly, -float(wing[:, 2].mean()), opacity))
        return pieces

    def _shadow_quads(
        self, dart: Dart, s_a: np.ndarray, s_b: np.ndarray, light: np.ndarray, radii: list[float]
    ) -> tuple[np.ndarray, np.ndarray]:
        """Image quads of the shadows of axis pieces s_a..s_b (radius ``radii``) and the
        pieces' heights above the board, all projected at once."""
        origin = dart.axis_point(0.0)
        d = np.array(dart.direction)
        a = _to_board(origin + s_a[:, None] * d, light)[:, :2]
        b = _to_board(origin + s_b[:, None] * d, light)[:, :2]
        along = b - a
        norm = np.linalg.norm(along, axis=1, keepdims=True)
        side = np.column_stack([-along[:, 1], along[:, 0]]) / np.maximum(norm, 1e-9)
        side[norm[:, 0] <= 1e-9] = (1.0, 0.0)
        side *= np.array(radii)[:, None]
        corners = np.stack([a + side, b + side, b - side, a - side], axis=1)
        px = self.camera.project(corners.reshape(-1, 2)).reshape(-1, 4, 2)
        heights = -(origin[2] + (s_a + s_b) / 2 * d[2])
        return px, heights

    def _shadow_mask(
        self,
        pieces: list[tuple[np.ndarray, float, float]],
        light: np.ndarray,
        spread: float,
        base: float,
    ) -> tuple[tuple[int, int, int, int], np.ndarray]:
        """The soft shadow mask (0..1) of one lamp and its box (x0, y0, x1, y1) in the image.

        Penumbra: a point at height h is d = h / cos(angle) from its shadow along the ray;
        a lamp of size s at distance D gives a penumbra about d * s / D wide (a ramp whose
        standard deviation is ~0.3 of its width); ``base``: the penumbra at height 0."""
        w, h = self.size
        bands: dict[int, list[tuple[np.ndarray, float]]] = {}
        for poly, height, opacity in pieces:
            scale = self._board_px_per_mm(poly.mean(axis=0))
            width_px = max(height, 0.0) / abs(light[2]) * spread * scale
            sigma = math.hypot(base, 0.3 * width_px)
            band = round(math.log(sigma / base) / math.log(BAND_RATIO))
            bands.setdefault(band, []).append((poly, opacity))
        boxes = []
        for band, polys in bands.items():
            sigma = base * BAND_RATIO**band
            pts = np.vstack([p for p, _ in polys])
            pad = int(3 * sigma) + 3
            box = (
                max(0, int(pts[:, 0].min()) - pad),
                max(0, int(pts[:, 1].min()) - pad),
                min(w, int(pts[:, 0].max()) + pad + 1),
                min(h, int(pts[:, 1].max()) + pad + 1),
            )
            if box[2] > box[0] and box[3] > box[1]:
                boxes.append((box, sigma, polys))
        if not boxes:
            return (0, 0, 0, 0), np.zeros((0, 0), np.float32)
        x0, y0 = min(b[0][0] for b in boxes), min(b[0][1] for b in boxes)
        x1, y1 = max(b[0][2] for b in boxes), max(b[0][3] for b in boxes)
        mask = np.zeros((y1 - y0, x1 - x0), np.float32)
        for (bx0, by0, bx1, by1), sigma, polys in boxes:
            layer = _blurred_layer(polys, (bx0, by0), (bx1 - bx0, by1 - by0), sigma)
            sub = mask[by0 - y0 : by1 - y0, bx0 - x0 : bx1 - x0]
            np.maximum(sub, layer, out=sub)
        return (x0, y0, x1, y1), mask

    def _board_px_per_mm(self, pixel: np.ndarray) -> float:
        """Image pixels per board millimetre around ``pixel`` (mean of the two directions)."""
        x = min(max(int(pixel[0] * SCALE_GRID / self.size[0]), 0), SCALE_GRID - 1)
        y = min(max(int(pixel[1] * SCALE_GRID / self.size[1]), 0), SCALE_GRID - 1)
        return float(self._scale_grid[y, x])

    def _scale_grid_init(self) -> np.ndarray:
        """Pixels per board mm on a coarse grid over the image (from the board's plane)."""
        cells = (np.arange(SCALE_GRID) + 0.5) / SCALE_GRID
        px = np.array([(cx * self.size[0], cy * self.size[1]) for cy in cells for cx in cells])
        mm = self.camera.pixels_to_board(px)
        ring = np.vstack([mm, mm + np.array([1.0, 0.0]), mm + np.array([0.0, 1.0])])
        p = self.camera.project(ring).reshape(3, -1, 2)
        scale = (np.linalg.norm(p[1] - p[0], axis=1) + np.linalg.norm(p[2] - p[0], axis=1)) / 2
        return scale.reshape(SCALE_GRID, SCALE_GRID)


def _sways(obj: SceneObject) -> bool:
    return isinstance(obj, Dart) and obj.sway is not None


def _swayed(objects: tuple[SceneObject, ...], f: float) -> tuple[SceneObject, ...]:
    """The scene at fraction ``f`` of the exposure: vibrating darts between their two ends."""
    out: list[SceneObject] = []
    for obj in objects:
        if isinstance(obj, Dart) and obj.sway is not None:
            d = (1 - f) * np.array(obj.direction) + f * np.array(obj.sway)
            d /= np.linalg.norm(d)
            obj = replace(obj, direction=tuple(float(v) for v in d), sway=None)
        out.append(obj)
    return tuple(out)


def _grainy(image: np.ndarray, strength: float, rng: np.random.Generator) -> np.ndarray:
    """A surface that is not a flat print: fine grain (sisal fibres, paper) and a faint
    mottling, as a multiplicative texture of relative strength ``strength``."""
    h, w = image.shape[:2]
    fine = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 0.7)
    fine /= float(fine.std()) + 1e-6
    coarse = cv2.resize(rng.normal(0, 1, (h // 16 + 1, w // 16 + 1)).astype(np.float32), (w, h))
    texture = 1 + strength * (fine + 0.5 * coarse)
    out = image.astype(np.float32) * texture[..., None]
    return np.clip(out + 0.5, 0, 255).astype(np.uint8)


SHADOW_PIECE_MM = 6.0  # a dart's shadow is drawn in pieces this long (blur follows height)
BAND_RATIO = 1.35  # pieces whose blur is within this ratio are blurred together
SCALE_GRID = 8


def _to_board(points: np.ndarray, light: np.ndarray) -> np.ndarray:
    """Shadow of 3D points on the board plane along the light."""
    t = -points[:, 2] / light[2]
    return points + t[:, None] * light[None, :]


def _blurred_layer(
    polys: list[tuple[np.ndarray, float]],
    origin: tuple[int, int],
    size: tuple[int, int],
    sigma: float,
) -> np.ndarray:
    """Polygons (value = opacity) filled and blurred with ``sigma``; a wide blur is done at
    a lower resolution (a smooth result, at a fraction of the cost)."""
    w, h = size
    f = max(1, int(sigma / 3))
    small = np.zeros(((h + f - 1) // f, (w + f - 1) // f), np.float32)
    for poly, opacity in polys:
        # full-resolution pixel centre u maps to (u + 0.5) / f - 0.5 in the small image
        local = (poly - origin + 0.5) / f - 0.5
        p = np.round(local * ONE).astype(np.int32)
        if len(p) == 2:
            cv2.line(small, tuple(p[0]), tuple(p[1]), opacity, 1, cv2.LINE_AA, SHIFT)
        else:
            cv2.fillPoly(small, [p], opacity, cv2.LINE_AA, SHIFT)
    small = cv2.GaussianBlur(np.minimum(small, 1.0), (0, 0), sigma / f)
    if f == 1:
        return small
    return cv2.resize(small, (small.shape[1] * f, small.shape[0] * f), cv2.INTER_LINEAR)[:h, :w]


SUPERSAMPLE = 4


class Canvas:
    """Objects are drawn here at ``SUPERSAMPLE`` times the resolution without OpenCV's
    anti-aliasing (which fattens every shape by about half a pixel: a biased tip), then
    averaged down: exact area coverage, so an outline in the frame is where it is in 3D."""

    def __init__(self, shape: tuple[int, int], offset: tuple[int, int]) -> None:
        h, w = shape
        k = SUPERSAMPLE
        self.offset = np.array(offset, dtype=np.float64)
        self.color = np.zeros((h * k, w * k, 3), np.uint8)
        self.alpha = np.zeros((h * k, w * k), np.uint8)

    def _pts(self, points: np.ndarray) -> np.ndarray:
        # pixel centres: frame pixel (i, j) covers sub-pixels k*i .. k*i + k - 1
        k = SUPERSAMPLE
        local = (np.asarray(points, dtype=np.float64) - self.offset + 0.5) * k - 0.5
        return np.round(local * ONE).astype(np.int32)

    def fill(self, points: np.ndarray, color, opacity: float = 1.0) -> None:
        p = self._pts(points)
        if opacity >= 1.0:
            cv2.fillPoly(self.color, [p], tuple(int(c) for c in color), cv2.LINE_8, SHIFT)
            cv2.fillPoly(self.alpha, [p], 255, cv2.LINE_8, SHIFT)
            return
        # see-through: "over" what is drawn already (colour is kept premultiplied by alpha),
        # in the polygon's box only
        h, w = self.alpha.shape
        x0, y0 = np.clip(p.min(axis=0) >> SHIFT, 0, (w - 1, h - 1))
        x1, y1 = np.clip((p.max(axis=0) >> SHIFT) + 2, (x0 + 1, y0 + 1), (w, h))
        cover = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillPoly(cover, [p - (x0 << SHIFT, y0 << SHIFT)], 1, cv2.LINE_8, SHIFT)
        a = cover.astype(np.float32) * opacity
        col = self.color[y0:y1, x0:x1].astype(np.float32)
        col = col * (1 - a[..., None]) + np.array(color, np.float32) * a[..., None]
        alpha = self.alpha[y0:y1, x0:x1].astype(np.float32) * (1 - a) + 255 * a
        self.color[y0:y1, x0:x1] = np.clip(col + 0.5, 0, 255).astype(np.uint8)
        self.alpha[y0:y1, x0:x1] = np.clip(alpha + 0.5, 0, 255).astype(np.uint8)

    def line(self, a, b, color, width_px: float) -> None:
        p = self._pts(np.array([a, b]))
        thick = max(1, round(width_px * SUPERSAMPLE))
        cv2.line(
            self.color,
            tuple(p[0]),
            tuple(p[1]),
            tuple(int(c) for c in color),
            thick,
            cv2.LINE_8,
            SHIFT,
        )
        cv2.line(self.alpha, tuple(p[0]), tuple(p[1]), 255, thick, cv2.LINE_8, SHIFT)

    def circle(self, center, radius_px: float, color) -> None:
        p = self._pts(np.array([center]))[0]
        r = round(radius_px * SUPERSAMPLE * ONE)
        cv2.circle(self.color, tuple(p), r, tuple(int(c) for c in color), -1, cv2.LINE_8, SHIFT)
        cv2.circle(self.alpha, tuple(p), r, 255, -1, cv2.LINE_8, SHIFT)

    def composite(self, image: np.ndarray) -> None:
        # The colour is premultiplied (opaque shapes: colour where alpha is 255, 0 where
        # nothing was drawn), so both planes are plain area averages (fast on uint8).
        k = SUPERSAMPLE
        size = (self.color.shape[1] // k, self.color.shape[0] // k)
        color = cv2.resize(self.color, size, interpolation=cv2.INTER_AREA)
        alpha = cv2.resize(self.alpha, size, interpolation=cv2.INTER_AREA)
        x0, y0 = int(self.offset[0]), int(self.offset[1])
        roi = image[y0 : y0 + size[1], x0 : x0 + size[0]]
        clear = 1.0 - alpha.astype(np.float32)[..., None] / 255.0
        out = roi.astype(np.float32) * clear + color
        roi[:] = np.clip(out + 0.5, 0, 255).astype(np.uint8)


def _fill(image: np.ndarray, points: np.ndarray, color) -> None:
    p = np.round(np.asarray(points) * ONE).astype(np.int32)
    cv2.fillPoly(image, [p], tuple(int(c) for c in color), cv2.LINE_AA, SHIFT)


def _wing_painter(
    points: np.ndarray,
    color,
    opacity: float,
    pattern: tuple[np.ndarray, tuple[int, int, int]] | None,
):
    def draw(canvas: Canvas) -> None:
        canvas.fill(points, color, opacity)
        if pattern is not None:
            canvas.fill(pattern[0], pattern[1], opacity)

    return draw


def _tube_painter(outline: np.ndarray, color, shine: float = 0.0, grooves=()):
    """A cylinder with a darker rim and a highlight stripe (cheap shading); polished metal
    (``shine`` > 0) adds a thin near-white specular line, grooves are darker rings."""
    n = len(outline) // 2
    left, right = outline[:n], outline[n:][::-1]
    center = (left + right) / 2
    dark = tuple(int(c * 0.55) for c in color)
    light = tuple(min(255, int(c * 0.6 + 110)) for c in color)
    specular = tuple(int(c + (250 - c) * shine) for c in light)
    groove = tuple(int(c * 0.4) for c in color)

    def band(a: float, b: float) -> np.ndarray:
        return np.vstack([center + (left - center) * a, (center + (left - center) * b)[::-1]])

    def draw(canvas: Canvas) -> None:
        canvas.fill(outline, dark)
        inner_l = center + (left - center) * 0.7
        inner_r = center + (right - center) * 0.7
        canvas.fill(np.vstack([inner_l, inner_r[::-1]]), color)
        canvas.fill(band(0.45, 0.15), light)
        if shine > 0:
            canvas.fill(band(0.36, 0.24), specular)
        for g in grooves:
            canvas.fill(g, groove)

    return draw


def _draw_hand(image: np.ndarray, hand: Hand) -> None:
    reach = np.array(hand.reach, dtype=np.float64)
    origin = np.array(hand.origin, dtype=np.float64)
    if hand.body:
        axes = (int(hand.width_px / 2), int(hand.width_px * 1.3))
        center = tuple(int(v) for v in reach)
        cv2.ellipse(image, center, axes, 0, 0, 360, hand.sleeve, -1, cv2.LINE_AA)
        head = (int(reach[0]), int(reach[1] - axes[1] * 0.9))
        cv2.circle(image, head, int(hand.width_px * 0.28), hand.skin, -1, cv2.LINE_AA)
        return
    along = reach - origin
    along /= np.linalg.norm(along) + 1e-9
    side = np.array([-along[1], along[0]]) * hand.width_px / 2
    wrist = reach - along * hand.width_px * 0.9
    arm = np.array([origin + side, wrist + side * 0.8, wrist - side * 0.8, origin - side])
    _fill(image, arm, hand.sleeve)
    center = tuple(np.round(reach * ONE).astype(np.int32))
    axes = (round(hand.width_px * 0.75 * ONE), round(hand.width_px * 0.55 * ONE))
    angle = math.degrees(math.atan2(along[1], along[0]))
    cv2.ellipse(image, center, axes, angle, 0, 360, hand.skin, -1, cv2.LINE_AA, SHIFT)
    for k in (-1, 0, 1):
        tip = reach + along * hand.width_px * 0.9 + side * 0.45 * k
        p = np.round(np.array([reach, tip]) * ONE).astype(np.int32)
        thick = max(2, int(hand.width_px * 0.22))
        cv2.line(image, tuple(p[0]), tuple(p[1]), hand.skin, thick, cv2.LINE_AA, SHIFT)
