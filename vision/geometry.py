"""Camera geometry recovered from a calibration: which way "out of the board" looks.

A dart sticks out of the board towards the room, so in the image its tail lies on the side of
the tip towards the vanishing point of the board's normal. The homography (board mm ->
undistorted pixels) with the camera matrix gives that direction at any pixel; without lens
intrinsics a plausible focal length is assumed (only a direction is needed).
"""

from __future__ import annotations

import numpy as np

from calibration.model import Calibration


def camera_matrix_guess(image_size: tuple[int, int]) -> np.ndarray:
    w, h = image_size
    f = float(w)  # about a 53 degree horizontal field of view
    return np.array([[f, 0, (w - 1) / 2], [0, f, (h - 1) / 2], [0, 0, 1]], dtype=np.float64)


def room_direction_camera(calibration: Calibration) -> tuple[np.ndarray, np.ndarray]:
    """(K, D): the camera matrix used and the board normal pointing into the room, in camera
    coordinates."""
    k = (
        np.asarray(calibration.camera_matrix, dtype=np.float64)
        if calibration.camera_matrix is not None
        else camera_matrix_guess(calibration.image_size)
    )
    board_to_image = np.linalg.inv(np.asarray(calibration.homography, dtype=np.float64))
    m = np.linalg.inv(k) @ board_to_image
    scale = 2.0 / (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1]))
    if m[2, 2] * scale < 0:  # the board must be in front of the camera
        scale = -scale
    r1, r2 = m[:, 0] * scale, m[:, 1] * scale
    r3 = np.cross(r1, r2)
    r3 /= np.linalg.norm(r3)
    return k, -r3  # world z points into the wall; the room is -z


class OutOfBoard:
    """Image direction, at a pixel, in which something sticking out of the board appears."""

    def __init__(self, calibration: Calibration) -> None:
        self.calibration = calibration
        k, direction = room_direction_camera(calibration)
        self.vanishing = k @ direction  # homogeneous image point of the room direction

    def at(self, pixel: tuple[float, float]) -> np.ndarray:
        u, v = self.calibration.undistort(np.array([pixel]))[0]
        a, b, c = self.vanishing
        d = np.array([a - c * u, b - c * v])
        n = float(np.linalg.norm(d))
        return d / n if n > 1e-12 else np.zeros(2)


class DartGeometry:
    """Which end of a dart's image is the point, from 3D plausibility.

    A dart sticks out of the board into the room at a modest angle to the board's normal.
    Suppose one end of the blob is the tip: it lies on the board (the calibration gives the
    spot); the other end lies on its own camera ray. The flatter of the two readings (the
    smallest angle to the normal that a dart-long segment between them can make) is the
    true one: a dart lying along the board is not a dart.
    """

    def __init__(self, calibration: Calibration) -> None:
        self.calibration = calibration
        k, _ = room_direction_camera(calibration)
        board_to_image = np.linalg.inv(np.asarray(calibration.homography, dtype=np.float64))
        m = np.linalg.inv(k) @ board_to_image
        scale = 2.0 / (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1]))
        if m[2, 2] * scale < 0:
            scale = -scale
        r1, r2 = m[:, 0] * scale, m[:, 1] * scale
        r3 = np.cross(r1, r2)
        rotation = np.column_stack([r1, r2, r3 / np.linalg.norm(r3)])
        translation = m[:, 2] * scale
        self.k_inv = np.linalg.inv(k)
        self.rotation = rotation
        self.center = -rotation.T @ translation  # camera centre, board mm (z < 0)

    def _rays(self, pixels: np.ndarray) -> np.ndarray:
        """Unit directions (N x 3, board frame) of the camera rays through ``pixels``."""
        undistorted = self.calibration.undistort(np.asarray(pixels, np.float64).reshape(-1, 2))
        homogeneous = np.column_stack([undistorted, np.ones(len(undistorted))])
        rays = homogeneous @ self.k_inv.T @ self.rotation  # rotation.T @ k_inv @ x, each row
        return rays / np.linalg.norm(rays, axis=1, keepdims=True)

    def best_angle(
        self, tip_px: np.ndarray, tail_px: np.ndarray, length_mm: tuple[float, float]
    ) -> float:
        """Smallest angle (degrees) to the board's normal of a segment from the board spot
        under ``tip_px`` to a point on the ray of ``tail_px``, ``length_mm`` long."""
        tip = self.calibration.image_to_board(np.asarray(tip_px).reshape(1, 2))[0]
        tip3 = np.array([tip[0], tip[1], 0.0])
        d = self._rays(tail_px)[0]
        if d[2] <= 1e-9:
            return 90.0
        reach = -self.center[2] / d[2]  # where the ray meets the board
        mu = np.linspace(0.0, reach, 400)
        points = self.center[None, :] + mu[:, None] * d[None, :]
        seg = points - tip3[None, :]
        length = np.linalg.norm(seg, axis=1)
        ok = (length >= length_mm[0]) & (length <= length_mm[1]) & (points[:, 2] < 0)
        if not ok.any():
            return 90.0
        cos = -seg[ok, 2] / length[ok]  # the room normal is -z
        return float(np.degrees(np.arccos(np.clip(cos.max(), -1.0, 1.0))))

    def image_reach(
        self, tip_px: np.ndarray, direction: np.ndarray, length_mm: float, most_px: float
    ) -> float:
        """How far (pixels, at most ``most_px``) from ``tip_px`` along the image ``direction``
        a straight piece ``length_mm`` long that starts at the board spot under ``tip_px``
        can reach. Each pixel's ray passes the spot at some least distance: a piece ending
        on that ray is at least that long. A dart leaning towards the camera's side shows
        its point longer than the board's own scale there says."""
        tip = self.calibration.image_to_board(np.asarray(tip_px).reshape(1, 2))[0]
        tip3 = np.array([tip[0], tip[1], 0.0])
        steps = np.arange(0.0, most_px + 0.5, 0.5)
        pixels = np.asarray(tip_px, np.float64)[None, :] + steps[:, None] * direction[None, :]
        rays = self._rays(pixels)
        down = np.maximum(rays[:, 2], 1e-9)
        reach = -self.center[2] / down  # where each ray meets the board
        # the nearest point of each ray to the spot, on the room side of the board
        mu = np.clip((tip3 - self.center) @ rays.T, 0.0, reach)
        nearest = self.center[None, :] + mu[:, None] * rays
        distance = np.linalg.norm(nearest - tip3[None, :], axis=1)
        beyond = np.flatnonzero(distance > length_mm)
        return float(most_px if beyond.size == 0 else steps[beyond[0]])

    def tip_end(self, a_px: np.ndarray, b_px: np.ndarray) -> float:
        """Positive if ``a_px`` is more plausibly the tip than ``b_px`` (degrees of margin)."""
        span = (60.0, 220.0)  # from the point to the end of the flights, any common dart
        return self.best_angle(b_px, a_px, span) - self.best_angle(a_px, b_px, span)
