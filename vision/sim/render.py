"""Renders simulated camera frames: board, objects with soft shadows, light, noise, shake, JPEG.

Everything 3D goes through ``vision.camera.Camera`` (perspective + lens distortion), so the
ground truth is exact. The expensive parts are cached: the board as the camera sees it (once
per session), the scene with its objects (once per change), the lit scene (once per light
step); a frame then costs a copy, noise and, sometimes, a shake or a JPEG round trip.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import cv2
import numpy as np

from boards.model import Board
from boards.printing import render_png
from boards.scene import build_scene
from vision.camera import Camera, render_board_view
from vision.sim.darts import Dart, Magnet, Pin, SceneObject

SHIFT = 4
ONE = 1 << SHIFT
BOARD_PX_PER_MM = 3.0


_TEXTURES: dict[tuple[int, float], tuple[Board, np.ndarray]] = {}


def board_texture(board: Board, px_per_mm: float = BOARD_PX_PER_MM) -> np.ndarray:
    """The printed sheet at ``px_per_mm``, slightly blurred like ink on paper under a lens."""
    key = (id(board), px_per_mm)
    if key not in _TEXTURES:
        if len(_TEXTURES) > 4:
            _TEXTURES.clear()
        image = render_png(build_scene(board), dpi=px_per_mm * 25.4)
        _TEXTURES[key] = (board, cv2.GaussianBlur(image, (0, 0), 0.6 * px_per_mm))
    return _TEXTURES[key][1]


@dataclass(frozen=True)
class Light:
    """Slowly changing uneven light and the direction that casts the shadows."""

    direction: tuple[float, float, float]  # from the lamp towards the wall (z > 0)
    level: float  # overall gain
    gradient: float  # strength of the left/right, top/bottom fall-off
    vignette: float
    drift: float  # relative amplitude of the slow change
    period_s: float
    shadow: float  # darkness of a full shadow (0..1)
    penumbra_px: float

    @classmethod
    def random(cls, rng: np.random.Generator) -> Light:
        elevation = math.radians(rng.uniform(25, 60))  # angle off the wall's normal
        azimuth = math.radians(90 + rng.normal(0, 40))  # mostly from above
        direction = (
            -math.sin(elevation) * math.cos(azimuth),
            math.sin(elevation) * math.sin(azimuth),
            math.cos(elevation),
        )
        return cls(
            direction=direction,
            level=float(rng.uniform(0.75, 1.05)),
            gradient=float(rng.uniform(0.0, 0.25)),
            vignette=float(rng.uniform(0.0, 0.3)),
            drift=float(rng.uniform(0.0, 0.12)),
            period_s=float(rng.uniform(20, 90)),
            shadow=float(rng.uniform(0.15, 0.5)),
            penumbra_px=float(rng.uniform(1.0, 3.0)),
        )

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
    shake: tuple[float, float] = (0.0, 0.0)


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
    ) -> None:
        self.board = board
        self.camera = camera
        self.light = light
        self.noise_sigma = noise_sigma
        self.jpeg_quality = jpeg_quality
        self.rng = np.random.default_rng(seed)
        self.light_every_s = light_every_s
        w, h = camera.image_size
        self.size = (w, h)
        self.base = render_board_view(board_texture(board), BOARD_PX_PER_MM, camera, wall)
        pad = 16
        noise = self.rng.normal(0, noise_sigma, (h + pad, w + pad, 3))
        self.noise = np.round(noise).astype(np.int16)
        self._scene_cache: tuple[tuple, np.ndarray] | None = None
        self._lit_cache: tuple[tuple, np.ndarray] | None = None
        self.focal = float(camera.camera_matrix[0, 0])
        light_dir = np.array(light.direction, dtype=np.float64)
        self.light_dir = light_dir / np.linalg.norm(light_dir)

    # --- frames ---------------------------------------------------------------------------
    def render(self, spec: FrameSpec) -> np.ndarray:
        scene = self._scene(spec.objects)
        step = math.floor(spec.t / self.light_every_s)
        key = (id(scene), step)
        if self._lit_cache is None or self._lit_cache[0] != key:
            gain = self.light.gain(self.size, step * self.light_every_s)
            lit = cv2.multiply(scene, cv2.merge([gain, gain, gain]), dtype=cv2.CV_32F)
            self._lit_cache = (key, np.clip(lit, 0, 255).astype(np.uint8))
        frame = self._lit_cache[1].copy()
        if spec.hand is not None:
            _draw_hand(frame, spec.hand)
        if spec.shake != (0.0, 0.0):
            shift = np.float32([[1, 0, spec.shake[0]], [0, 1, spec.shake[1]]])
            # Bicubic: a camera that moved a fraction of a pixel sees a sharp picture, which
            # bilinear interpolation would blur.
            frame = cv2.warpAffine(
                frame, shift, self.size, flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE
            )
        w, h = self.size
        ox, oy = self.rng.integers(0, 16, 2)
        frame = cv2.add(frame, self.noise[oy : oy + h, ox : ox + w], dtype=cv2.CV_8U)
        if self.jpeg_quality:
            _ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, self.jpeg_quality])
            frame = cv2.imdecode(data, cv2.IMREAD_COLOR)
        return frame

    def _scene(self, objects: tuple[SceneObject, ...]) -> np.ndarray:
        if self._scene_cache is not None and self._scene_cache[0] == objects:
            return self._scene_cache[1]
        image = self.base.copy()
        self._shadows(image, objects)
        prims = sorted(self._primitives(objects), key=lambda p: -p[0])
        if prims:
            pts = np.vstack([p[1] for p in prims])
            h, w = image.shape[:2]
            x0 = int(np.clip(np.floor(pts[:, 0].min()) - 2, 0, w - 1))
            y0 = int(np.clip(np.floor(pts[:, 1].min()) - 2, 0, h - 1))
            x1 = int(np.clip(np.ceil(pts[:, 0].max()) + 3, x0 + 1, w))
            y1 = int(np.clip(np.ceil(pts[:, 1].max()) + 3, y0 + 1, h))
            canvas = Canvas((y1 - y0, x1 - x0), (x0, y0))
            for _, _, draw in prims:
                draw(canvas)
            canvas.composite(image)
        self._scene_cache = (objects, image)
        return image

    # --- geometry ---------------------------------------------------------------------------
    def _to_board(self, points: np.ndarray) -> np.ndarray:
        """Shadow of 3D points on the board plane along the light."""
        t = -points[:, 2] / self.light_dir[2]
        return points + t[:, None] * self.light_dir[None, :]

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
        segments = [
            (0.0, p_end, m.point_r * 0.85, m.point_r, m.point_color),
            (b0, b0 + 5, m.point_r * 1.6, m.barrel_r, m.barrel_color),
            (b0 + 5, b1 - 4, m.barrel_r, m.barrel_r, m.barrel_color),
            (b1 - 4, b1, m.barrel_r, m.shaft_r * 1.3, m.barrel_color),
            (b1, s1, m.shaft_r, m.shaft_r, m.shaft_color),
        ]
        if m.ring_color is not None:
            mid = (b0 + b1) / 2
            segments.append((mid - 3, mid + 3, m.barrel_r * 1.02, m.barrel_r * 1.02, m.ring_color))
        for s_a, s_b, r_a, r_b, color in segments:
            outline, depth = self._tube(dart.axis_point(s_a), dart.axis_point(s_b), r_a, r_b)
            prims.append((depth - 0.01 * s_a, outline, _tube_painter(outline, color)))
        for wing in self._wings(dart):
            px = self.camera.project(wing)
            depth = float(self.camera.depth(wing).mean())
            normal = np.cross(wing[1] - wing[0], wing[-1] - wing[0])
            normal /= np.linalg.norm(normal) + 1e-12
            shade = 0.55 + 0.45 * abs(float(normal @ self.light_dir))
            color = tuple(int(c * shade) for c in m.flight_color)
            prims.append((depth, px, _poly_painter(px, color)))
        return prims

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
    def _shadows(self, image: np.ndarray, objects: tuple[SceneObject, ...]) -> None:
        polygons: list[np.ndarray] = []
        for obj in objects:
            if isinstance(obj, Dart):
                if obj.lift_mm != (0.0, 0.0, 0.0):
                    continue  # falling: its shadow is somewhere below, ignore
                m = obj.model
                ends = [0.0, m.point_len, m.point_len + m.barrel_len]
                ends.append(ends[-1] + m.shaft_len)
                radii = [m.point_r, m.barrel_r, m.shaft_r]
                for (s_a, s_b), r in zip(itertools.pairwise(ends), radii, strict=True):
                    polygons.append(self._shadow_tube(obj, s_a, s_b, r))
                for wing in self._wings(obj):
                    polygons.append(self.camera.project(self._to_board(wing)))
            elif isinstance(obj, Magnet):
                angles = np.linspace(0, 2 * math.pi, 20, endpoint=False)
                top = np.column_stack(
                    [
                        obj.center_mm[0] + obj.radius_mm * np.cos(angles),
                        obj.center_mm[1] + obj.radius_mm * np.sin(angles),
                        np.full(20, -obj.height_mm),
                    ]
                )
                polygons.append(self.camera.project(self._to_board(top)))
            elif isinstance(obj, Pin):
                base = np.array([*obj.base_mm, 0.0])
                head = self._to_board((base + np.array(obj.head_offset))[None, :])
                polygons.append(self.camera.project(np.vstack([base, head[0]])))
        if not polygons:
            return
        allpts = np.vstack(polygons)
        h, w = image.shape[:2]
        pad = int(4 * self.light.penumbra_px) + 4
        x0 = max(0, int(allpts[:, 0].min()) - pad)
        y0 = max(0, int(allpts[:, 1].min()) - pad)
        x1 = min(w, int(allpts[:, 0].max()) + pad + 1)
        y1 = min(h, int(allpts[:, 1].max()) + pad + 1)
        if x1 <= x0 or y1 <= y0:
            return
        mask = np.zeros((y1 - y0, x1 - x0), np.float32)
        for poly in polygons:
            p = np.round((poly - (x0, y0)) * ONE).astype(np.int32)
            if len(p) == 2:
                cv2.line(mask, tuple(p[0]), tuple(p[1]), 1.0, 1, cv2.LINE_AA, SHIFT)
            else:
                cv2.fillPoly(mask, [p], 1.0, cv2.LINE_AA, SHIFT)
        mask = cv2.GaussianBlur(np.minimum(mask, 1.0), (0, 0), self.light.penumbra_px)
        roi = image[y0:y1, x0:x1].astype(np.float32)
        roi *= (1 - self.light.shadow * mask)[..., None]
        image[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)

    def _shadow_tube(self, dart: Dart, s_a: float, s_b: float, r: float) -> np.ndarray:
        a, b = self._to_board(np.vstack([dart.axis_point(s_a), dart.axis_point(s_b)]))
        along = (b - a)[:2]
        norm = np.linalg.norm(along)
        side = np.array([-along[1], along[0]]) / norm * r if norm > 1e-9 else np.array([r, 0.0])
        corners = np.array([a[:2] + side, b[:2] + side, b[:2] - side, a[:2] - side])
        return self.camera.project(corners)


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

    def fill(self, points: np.ndarray, color) -> None:
        p = self._pts(points)
        cv2.fillPoly(self.color, [p], tuple(int(c) for c in color), cv2.LINE_8, SHIFT)
        cv2.fillPoly(self.alpha, [p], 255, cv2.LINE_8, SHIFT)

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
        _h, _w = image.shape[:2]
        k = SUPERSAMPLE
        size = (self.color.shape[1] // k, self.color.shape[0] // k)
        premult = self.color.astype(np.float32) * (self.alpha[..., None] / 255.0)
        color = cv2.resize(premult, size, interpolation=cv2.INTER_AREA)
        alpha = cv2.resize(
            self.alpha.astype(np.float32) / 255.0, size, interpolation=cv2.INTER_AREA
        )
        x0, y0 = int(self.offset[0]), int(self.offset[1])
        roi = image[y0 : y0 + size[1], x0 : x0 + size[0]].astype(np.float32)
        out = roi * (1.0 - alpha[..., None]) + color
        image[y0 : y0 + size[1], x0 : x0 + size[0]] = np.clip(out + 0.5, 0, 255).astype(np.uint8)


def _fill(image: np.ndarray, points: np.ndarray, color) -> None:
    p = np.round(np.asarray(points) * ONE).astype(np.int32)
    cv2.fillPoly(image, [p], tuple(int(c) for c in color), cv2.LINE_AA, SHIFT)


def _poly_painter(points: np.ndarray, color):
    def draw(canvas: Canvas) -> None:
        canvas.fill(points, color)

    return draw


def _tube_painter(outline: np.ndarray, color):
    """A cylinder with a darker rim and a highlight stripe (cheap shading)."""
    n = len(outline) // 2
    left, right = outline[:n], outline[n:][::-1]
    center = (left + right) / 2
    dark = tuple(int(c * 0.55) for c in color)
    light = tuple(min(255, int(c * 0.6 + 110)) for c in color)

    def draw(canvas: Canvas) -> None:
        canvas.fill(outline, dark)
        inner_l = center + (left - center) * 0.7
        inner_r = center + (right - center) * 0.7
        canvas.fill(np.vstack([inner_l, inner_r[::-1]]), color)
        hl_l = center + (left - center) * 0.45
        hl_r = center + (left - center) * 0.15
        canvas.fill(np.vstack([hl_l, hl_r[::-1]]), light)

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
