"""Synthetic camera views of printed boards with known ground truth (tests and benchmark).

A case renders the printed board through a ``vision.camera.Camera`` (pose, lens distortion),
then spoils the picture as a real one is: optical blur, uneven light, sensor noise, JPEG.
The truth is the camera itself: ``board_error_mm`` compares a calibration's board positions
with the camera's on a grid of board points.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from boards.model import Board
from boards.printing import render_png
from boards.scene import build_scene
from calibration.fit import board_grid
from calibration.lens import Lens
from calibration.model import Calibration
from vision.camera import Camera, look_at_board, render_board_view
from vision.sim.dartboard import Paint, painted_dartboard

#: Resolution of the artwork rendered into the camera (the camera sees ~1-2 px per mm).
ART_PX_PER_MM = 3.0


@dataclass(frozen=True)
class Case:
    board_id: str = "groundround"
    tilt_deg: float = 35.0
    azimuth_deg: float = 0.0
    roll_deg: float = 0.0
    k1: float = 0.0
    noise: float = 2.0  # sensor noise, grey levels (sigma)
    light: float = 0.0  # uneven light: darkest corner is (1 - light) of the brightest
    jpeg: int = 0  # JPEG quality, 0 = none
    blur: float = 0.6  # optical blur sigma in px
    markers: bool = True  # the printed sheet carries the markers
    # "print": our printed artwork; "dartboard": a steel-tip dartboard drawn in another style
    # (classic board only: no markers, other colours, another font, wires, a dark surround);
    # "painted": such a dartboard in a maker's look drawn from ``seed`` (colours, wires, font)
    style: str = "print"
    seed: int = 0
    image_size: tuple[int, int] = (1280, 720)

    @property
    def name(self) -> str:
        parts = [f"tilt{self.tilt_deg:g}", f"az{self.azimuth_deg:g}"]
        if self.roll_deg:
            parts.append(f"roll{self.roll_deg:g}")
        if self.k1:
            parts.append(f"k1{self.k1:g}")
        if self.light:
            parts.append(f"light{self.light:g}")
        if self.jpeg:
            parts.append(f"jpeg{self.jpeg}")
        return "-".join(parts)


_ARTWORK: dict[tuple[int, bool], np.ndarray] = {}


def artwork(board: Board, markers: bool = True) -> np.ndarray:
    """The printed board at ``ART_PX_PER_MM`` (BGR), cached per board object."""
    key = (id(board), markers)
    if key not in _ARTWORK:
        if len(_ARTWORK) > 6:
            _ARTWORK.clear()
        _ARTWORK[key] = render_png(build_scene(board, markers=markers), ART_PX_PER_MM * 25.4)
    return _ARTWORK[key]


def camera_for(board: Board, case: Case) -> Camera:
    """The case's camera, moved back until the whole sheet is in view and inside the part of
    the lens where the distortion model is one-to-one."""
    size = (board.width_mm, board.height_mm)
    for fill in np.arange(0.9, 0.3, -0.05):
        camera = look_at_board(
            size,
            image_size=case.image_size,
            tilt_deg=case.tilt_deg,
            azimuth_deg=case.azimuth_deg,
            roll_deg=case.roll_deg,
            dist_coeffs=(case.k1, 0.0, 0.0, 0.0, 0.0),
            fill=float(fill),
        )
        if _well_inside(camera, board):
            return camera
    raise ValueError(f"no valid camera for {case}")  # pragma: no cover


def _well_inside(camera: Camera, board: Board) -> bool:
    t = np.linspace(0, 1, 9)
    w, h = board.width_mm, board.height_mm
    edge = np.concatenate(
        [
            np.column_stack([t * w, 0 * t]),
            np.column_stack([t * w, h + 0 * t]),
            np.column_stack([0 * t, t * h]),
            np.column_stack([w + 0 * t, t * h]),
        ]
    )
    pts = np.column_stack([edge, np.zeros(len(edge))])
    cam = pts @ camera.rotation.T + camera.tvec.reshape(1, 3)
    if np.any(cam[:, 2] <= 0):
        return False
    r2 = (cam[:, 0] / cam[:, 2]) ** 2 + (cam[:, 1] / cam[:, 2]) ** 2
    k1 = float(camera.dist_coeffs[0])
    if k1 < 0 and np.any(r2 > 0.6 / (3 * -k1)):
        return False
    px = camera.project(edge)
    width, height = camera.image_size
    return bool(np.all((px > 2) & (px < (width - 3, height - 3))))


def render_case(board: Board, case: Case, camera: Camera | None = None) -> np.ndarray:
    camera = camera or camera_for(board, case)
    rng = np.random.default_rng(case.seed)
    if case.style == "print":
        image = render_board_view(artwork(board, case.markers), ART_PX_PER_MM, camera)
    else:
        paint = (
            Paint.random(np.random.default_rng([case.seed, 7]))
            if case.style == "painted"
            else Paint()
        )
        image = render_board_view(
            painted_dartboard(board, ART_PX_PER_MM, paint), ART_PX_PER_MM, camera, paint.wall
        )
    if case.blur > 0:
        image = cv2.GaussianBlur(image, (0, 0), case.blur)
    out = image.astype(np.float32)
    if case.light:
        h, w = out.shape[:2]
        angle = rng.uniform(0, 2 * np.pi)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        ramp = (xx - w / 2) * np.cos(angle) + (yy - h / 2) * np.sin(angle)
        ramp = (ramp - ramp.min()) / max(1e-6, float(ramp.max() - ramp.min()))
        out *= (1.0 - case.light * ramp)[..., None]
    if case.noise:
        out += rng.normal(0, case.noise, out.shape).astype(np.float32)
    image = np.clip(out, 0, 255).astype(np.uint8)
    if case.jpeg:
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, case.jpeg])
        assert ok
        image = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return image


def true_lens(camera: Camera) -> Lens:
    """The lens as ``oche calibrate-lens`` would measure it (here: exactly)."""
    return Lens(tuple(camera.image_size), camera.camera_matrix.copy(), camera.dist_coeffs.copy())


def grid_points(board: Board, n: int = 12, margin_mm: float = 15.0) -> np.ndarray:
    return board_grid(board.width_mm, board.height_mm, n, margin_mm)


def board_error_mm(calibration: Calibration, camera: Camera, board: Board) -> tuple[float, float]:
    """(RMS, max) distance between where the calibration and the true camera put a grid of
    board points seen in the image."""
    grid = grid_points(board)
    recovered = calibration.image_to_board(camera.project(grid))
    err = np.linalg.norm(recovered - grid, axis=1)
    return float(np.sqrt(np.mean(err**2))), float(err.max())


def tap_points(board: Board) -> np.ndarray:
    """Board points a person can tap precisely: marker corners and the sheet's corners' area
    (used by the manual-calibration tests and benchmark)."""
    pts = [c for m in board.markers for c in m.corners]
    if not pts:
        w, h = board.width_mm, board.height_mm
        pts = [(x, y) for x in (0.1 * w, 0.5 * w, 0.9 * w) for y in (0.1 * h, 0.5 * h, 0.9 * h)]
    return np.array(pts, dtype=np.float64)


def lens_sheet_photos(
    k1: float = -0.25, count: int = 8, seed: int = 0, image_size: tuple[int, int] = (1280, 720)
) -> tuple[list[tuple[str, np.ndarray]], Camera]:
    """Photos of the printed ChArUco lens sheet from varied poses through one lens; returns
    (photos, one of the cameras: all share its intrinsics)."""
    from calibration.lens import sheet_image

    px_per_mm = ART_PX_PER_MM
    sheet = cv2.cvtColor(sheet_image(px_per_mm * 25.4), cv2.COLOR_GRAY2BGR)
    size_mm = (sheet.shape[1] / px_per_mm, sheet.shape[0] / px_per_mm)
    rng = np.random.default_rng(seed)
    photos, camera = [], None
    attempts = 0
    while len(photos) < count and attempts < 20 * count:
        attempts += 1
        tilt = float(rng.uniform(10, 50))
        azimuth = float(rng.uniform(0, 360))
        aim = (
            size_mm[0] / 2 + float(rng.uniform(-0.35, 0.35)) * size_mm[0],
            size_mm[1] / 2 + float(rng.uniform(-0.35, 0.35)) * size_mm[1],
        )
        cam = look_at_board(
            size_mm,
            image_size=image_size,
            tilt_deg=tilt,
            azimuth_deg=azimuth,
            roll_deg=float(rng.uniform(-20, 20)),
            dist_coeffs=(k1, 0.0, 0.0, 0.0, 0.0),
            fill=float(rng.uniform(0.55, 0.8)),
            target_mm=aim,
        )
        fake = Board(
            "sheet", "sheet", size_mm[0], size_mm[1], {}
        )  # only the size is used by the check
        if not _well_inside(cam, fake):
            continue
        image = render_board_view(sheet, px_per_mm, cam, border_value=(120, 120, 120))
        image = cv2.GaussianBlur(image, (0, 0), 0.6)
        noisy = image.astype(np.float32) + rng.normal(0, 2.0, image.shape).astype(np.float32)
        photos.append((f"sheet{len(photos):02d}.png", np.clip(noisy, 0, 255).astype(np.uint8)))
        camera = cam
    assert camera is not None
    return photos, camera


_VIEWS: dict[Case, tuple[np.ndarray, Camera]] = {}


def view(case: Case) -> tuple[np.ndarray, Camera]:
    """The rendered photo (read-only) and its true camera, cached: rendering costs ~0.5 s."""
    if case not in _VIEWS:
        if len(_VIEWS) > 40:
            _VIEWS.clear()
        from boards import load

        board = load(case.board_id)
        camera = camera_for(board, case)
        image = render_case(board, case, camera)
        image.setflags(write=False)
        _VIEWS[case] = (image, camera)
    return _VIEWS[case]
