"""The motion gate: a cheap test on a downscaled grey frame, run on every frame.

The threshold comes from the camera's own noise: the spread of the difference between
consecutive still frames, measured robustly (median absolute deviation) and tracked while the
scene is still. Nothing here knows how the frames were made.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

#: Robust sigma from a median absolute deviation of a normal distribution.
MAD_TO_SIGMA = 1.4826


def downscale(image: np.ndarray, width: int) -> np.ndarray:
    """Grey image about ``width`` pixels wide (area averaging: it also averages noise)."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    h, w = grey.shape[:2]
    if w == width:
        return grey
    height = max(1, round(h * width / w))
    return cv2.resize(grey, (width, height), interpolation=cv2.INTER_AREA)


def robust_sigma(values: np.ndarray) -> float:
    """Noise sigma of mostly-unchanged differences (outliers, i.e. real changes, ignored)."""
    flat = values.reshape(-1)
    if flat.size > 20000:
        flat = flat[:: flat.size // 20000]
    flat = flat.astype(np.float32)
    med = float(np.median(flat))
    return MAD_TO_SIGMA * float(np.median(np.abs(flat - med)))


@dataclass
class GateResult:
    moving: bool
    changed: int  # pixels over the threshold


class MotionGate:
    """Says whether a frame differs from the previous one by more than noise."""

    def __init__(self, k_sigma: float = 6.0, floor: float = 3.0, min_pixels: int = 3) -> None:
        self.k_sigma = k_sigma
        self.floor = floor
        self.min_pixels = min_pixels
        self.sigma: float | None = None
        self._previous: np.ndarray | None = None
        self._frames = 0

    @property
    def threshold(self) -> float:
        return max(self.floor, self.k_sigma * (self.sigma or 0.0))

    def update(self, small: np.ndarray) -> GateResult:
        previous, self._previous = self._previous, small
        if previous is None or previous.shape != small.shape:
            return GateResult(True, small.size)
        diff = cv2.absdiff(small, previous)
        if self.sigma is None:
            self.sigma = max(0.5, robust_sigma(diff) / np.sqrt(2))
        changed = int(np.count_nonzero(diff > self.threshold))
        moving = changed >= self.min_pixels
        self._frames += 1
        if not moving and changed == 0 and self._frames % 10 == 0:
            # Track the noise level slowly while nothing happens (light, gain drift).
            measured = max(0.5, robust_sigma(diff) / np.sqrt(2))
            self.sigma = 0.8 * self.sigma + 0.2 * measured
        return GateResult(moving, changed)
