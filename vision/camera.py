"""A pinhole camera with lens distortion looking at a board on a wall.

World coordinates are board millimetres: x to the right, y down, the board surface is z = 0
and z grows into the wall, so the camera sits at z < 0. Camera coordinates follow OpenCV
(x right, y down, z forward). Used by the simulator, the calibration tests and benchmarks as
the ground truth that detectors and calibration must recover.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

import cv2
import numpy as np

from calibration.model import undistort_pixels


@dataclass(frozen=True)
class Camera:
    """Intrinsics, distortion and pose. ``rvec``/``tvec`` map world (board mm) to camera."""

    image_size: tuple[int, int]  # (width, height) in pixels
    camera_matrix: np.ndarray = field(repr=False)
    dist_coeffs: np.ndarray = field(repr=False)
    rvec: np.ndarray = field(repr=False)
    tvec: np.ndarray = field(repr=False)

    @cached_property
    def rotation(self) -> np.ndarray:
        return cv2.Rodrigues(self.rvec)[0]

    @cached_property
    def position(self) -> np.ndarray:
        """Camera centre in world (board mm) coordinates."""
        return (-self.rotation.T @ self.tvec.reshape(3)).reshape(3)

    @cached_property
    def homography(self) -> np.ndarray:
        """Board mm (z = 0) -> undistorted image pixels."""
        r = self.rotation
        h = self.camera_matrix @ np.column_stack([r[:, 0], r[:, 1], self.tvec.reshape(3)])
        return h / h[2, 2]

    @cached_property
    def board_from_undistorted(self) -> np.ndarray:
        """Undistorted image pixels -> board mm: what a calibration file stores."""
        h = np.linalg.inv(self.homography)
        return h / h[2, 2]

    def project(self, points_mm: np.ndarray) -> np.ndarray:
        """World points (N x 2 on the board, or N x 3) -> distorted pixel coordinates."""
        pts = np.asarray(points_mm, dtype=np.float64).reshape(-1, np.shape(points_mm)[-1])
        if pts.shape[1] == 2:
            pts = np.column_stack([pts, np.zeros(len(pts))])
        image, _ = cv2.projectPoints(
            pts, self.rvec, self.tvec, self.camera_matrix, self.dist_coeffs
        )
        return image.reshape(-1, 2)

    def depth(self, points_mm: np.ndarray) -> np.ndarray:
        """Distance along the optical axis (mm) of world points."""
        pts = np.asarray(points_mm, dtype=np.float64).reshape(-1, 3)
        return (pts @ self.rotation.T + self.tvec.reshape(1, 3))[:, 2]

    def undistort_pixels(self, pixels: np.ndarray) -> np.ndarray:
        """Distorted pixels -> undistorted pixels (the same camera matrix)."""
        return undistort_pixels(pixels, self.camera_matrix, self.dist_coeffs)

    def pixels_to_board(self, pixels: np.ndarray) -> np.ndarray:
        """Distorted pixels -> board mm (intersection of the pixel's ray with the board)."""
        undistorted = self.undistort_pixels(pixels)
        return cv2.perspectiveTransform(
            undistorted.reshape(-1, 1, 2), self.board_from_undistorted
        ).reshape(-1, 2)

    def board_maps(self, px_per_mm: float) -> tuple[np.ndarray, np.ndarray]:
        """``cv2.remap`` maps that render a board image (at ``px_per_mm``) into this camera."""
        return _board_maps(self, px_per_mm)

    def mm_per_pixel_at(self, point_mm: tuple[float, float]) -> float:
        """The board distance one image pixel spans near a board point (the local scale)."""
        p = np.array([point_mm, (point_mm[0] + 1.0, point_mm[1]), (point_mm[0], point_mm[1] + 1.0)])
        px = self.project(p)
        du = np.hypot(*(px[1] - px[0]))
        dv = np.hypot(*(px[2] - px[0]))
        return float(1.0 / max(1e-9, min(du, dv)))


_MAP_CACHE: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}


def _board_maps(camera: Camera, px_per_mm: float) -> tuple[np.ndarray, np.ndarray]:
    key = (
        camera.image_size,
        camera.camera_matrix.tobytes(),
        camera.dist_coeffs.tobytes(),
        camera.rvec.tobytes(),
        camera.tvec.tobytes(),
        px_per_mm,
    )
    if key not in _MAP_CACHE:
        if len(_MAP_CACHE) > 8:
            _MAP_CACHE.clear()
        w, h = camera.image_size
        grid = np.stack(
            np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64)), -1
        )
        board = camera.pixels_to_board(grid.reshape(-1, 2)).reshape(h, w, 2) * px_per_mm
        _MAP_CACHE[key] = (board[..., 0].astype(np.float32), board[..., 1].astype(np.float32))
    return _MAP_CACHE[key]


def look_at_board(
    board_size_mm: tuple[float, float],
    image_size: tuple[int, int] = (1280, 720),
    tilt_deg: float = 35.0,
    azimuth_deg: float = 0.0,
    roll_deg: float = 0.0,
    hfov_deg: float = 70.0,
    dist_coeffs: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0, 0.0),
    fill: float = 0.9,
    target_mm: tuple[float, float] | None = None,
) -> Camera:
    """A camera aimed at the board centre from ``tilt_deg`` off the board's normal.

    ``azimuth_deg`` says from which side (0: from the right, 90: from below, 180: from the
    left, 270: from above). The distance is chosen so that the sheet fills about ``fill`` of
    the image.
    """
    width_px, height_px = image_size
    fx = (width_px / 2) / math.tan(math.radians(hfov_deg) / 2)
    k = np.array(
        [[fx, 0, width_px / 2 - 0.5], [0, fx, height_px / 2 - 0.5], [0, 0, 1]], dtype=np.float64
    )
    dist = np.array(dist_coeffs, dtype=np.float64)
    center = np.array([*(target_mm or (board_size_mm[0] / 2, board_size_mm[1] / 2)), 0.0])
    tilt, az = math.radians(tilt_deg), math.radians(azimuth_deg)
    direction = np.array(
        [math.sin(tilt) * math.cos(az), math.sin(tilt) * math.sin(az), -math.cos(tilt)]
    )
    corners = np.array(
        [
            [0, 0, 0],
            [board_size_mm[0], 0, 0],
            [board_size_mm[0], board_size_mm[1], 0],
            [0, board_size_mm[1], 0],
        ],
        dtype=np.float64,
    )
    distance = max(board_size_mm) / (2 * math.tan(math.radians(hfov_deg) / 2))
    camera = _pose(image_size, k, dist, center, direction, distance, roll_deg)
    for _ in range(60):
        px = camera.project(corners)
        span = max(
            (px[:, 0].max() - px[:, 0].min()) / width_px,
            (px[:, 1].max() - px[:, 1].min()) / height_px,
        )
        inside = np.all((px > 0) & (px < (width_px - 1, height_px - 1)))
        if inside and span <= fill:
            break
        distance *= 1.05
        camera = _pose(image_size, k, dist, center, direction, distance, roll_deg)
    return camera


def _pose(
    image_size: tuple[int, int],
    k: np.ndarray,
    dist: np.ndarray,
    center: np.ndarray,
    direction: np.ndarray,
    distance: float,
    roll_deg: float,
) -> Camera:
    position = center + direction * distance
    forward = (center - position) / np.linalg.norm(center - position)
    right = np.cross(np.array([0.0, 1.0, 0.0]), forward)
    right /= np.linalg.norm(right)
    down = np.cross(forward, right)
    rotation = np.vstack([right, down, forward])
    roll = math.radians(roll_deg)
    spin = np.array(
        [[math.cos(roll), -math.sin(roll), 0], [math.sin(roll), math.cos(roll), 0], [0, 0, 1]]
    )
    rotation = spin @ rotation
    rvec = cv2.Rodrigues(rotation)[0]
    tvec = -rotation @ position
    return Camera(image_size, k, dist, rvec.reshape(3), tvec.reshape(3))


def render_board_view(
    board_image: np.ndarray,
    px_per_mm: float,
    camera: Camera,
    border_value: tuple[int, int, int] = (90, 90, 90),
) -> np.ndarray:
    """The board image (rendered at ``px_per_mm``, pixel (0,0) = board (0,0)) as the camera
    sees it: perspective and lens distortion, the wall around it in ``border_value``."""
    map_x, map_y = camera.board_maps(px_per_mm)
    return cv2.remap(
        board_image,
        map_x,
        map_y,
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=border_value,
    )
