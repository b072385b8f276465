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
