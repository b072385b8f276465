"""The motion gate: a cheap test on a downscaled grey frame, run on every frame.

The threshold comes from the camera's own noise: the spread of the difference between
consecutive still frames, measured robustly (median absolute deviation) and tracked while the
scene is still. Nothing here knows how the frames were made.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

#: Robust sigma from a median absolute deviation of a normal distribution.
MAD_TO_SIGMA = 1.4826


def downscale(image: np.ndarray, width: int) -> np.ndarray:
    """Grey float image ``width`` pixels wide (area averaging: it also averages noise)."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    grey = grey.astype(np.float32)  # keep the averaged precision: noise is measured on it
    h, w = grey.shape[:2]
    if w == width:
        return grey
    height = max(1, round(h * width / w))
    return cv2.resize(grey, (width, height), interpolation=cv2.INTER_AREA)


def abs_diff_sigma(diff: np.ndarray) -> float:
    """Noise sigma of one frame from |frame a - frame b| of two still frames: the median of
    a half-normal is 0.6745 sigma, and a difference holds the noise of two frames."""
    flat = diff.reshape(-1)
    if flat.size > 20000:
        flat = flat[:: flat.size // 20000]
    return float(np.median(flat)) / 0.6745 / np.sqrt(2)


def robust_sigma(values: np.ndarray) -> float:
    """Noise sigma of mostly-unchanged differences (outliers, i.e. real changes, ignored)."""
    flat = values.reshape(-1)
    if flat.size > 20000:
        flat = flat[:: flat.size // 20000]
    flat = flat.astype(np.float32)
    med = float(np.median(flat))
    return MAD_TO_SIGMA * float(np.median(np.abs(flat - med)))


def local_change(signed: np.ndarray) -> np.ndarray:
    """|difference minus its local mean|: a light change is smooth over the picture, a moving
    thing is not."""
    return np.abs(signed - cv2.blur(signed, (31, 31)))


# The noise level is the median over this many first frame differences; from the third on
# it is sure enough to judge by (a median of three outvotes one odd difference).
LEARNING = 5
SURE_AFTER = 3
# A difference with less than this share of the usual noise is of a nearly repeated frame.
REPEAT = 0.7
# A run of this many frame differences, each with its typical pixel this many times the noise
# level, is a noisier camera (see MotionGate._noise_went_up).
LOUDER = 1.5
LOUDER_RUN = 24


@dataclass
class GateResult:
    moving: bool
    changed: int  # pixels over the threshold


class MotionGate:
    """Says whether a frame differs from the previous one by more than noise."""

    def __init__(self, k_sigma: float = 6.0, floor: float = 3.0, min_pixels: int = 4) -> None:
        self.k_sigma = k_sigma
        self.floor = floor
        self.min_pixels = min_pixels
        self.sigma: float | None = None
        self.tail = 0.0  # far quantile of still differences: compressed video has heavy tails
        self._low_tail = 0.0  # the lowest of the first differences' (see still_between)
        self._previous: np.ndarray | None = None
        self._frames = 0
        self._first: list[tuple[float, float]] = []  # (sigma, tail) of the first differences
        # (sigma, tail) of the differences in a row that were all louder than the noise
        # level: the camera's own noise went up (its gain rose as the room got darker)
        self._louder: list[tuple[float, float]] = []

    @property
    def threshold(self) -> float:
        return self._threshold_at(self.tail)

    def _threshold_at(self, tail: float) -> float:
        return max(self.floor, self.k_sigma * (self.sigma or 0.0), 1.5 * tail)

    @property
    def learned(self) -> bool:
        """Whether the noise level can be judged by (``SURE_AFTER`` differences seen): from
        one or two, a nearly repeated frame among them (a camera resending a picture) sets
        it too low, and a still frame may seem to move."""
        return self._frames >= SURE_AFTER

    def still_between(self, before: np.ndarray, after: np.ndarray) -> bool:
        """Whether two pictures of the gate's size differ by no more than the noise, judged
        strictly: at the lowest far tail of the first differences (but nearly repeated
        frames'), which somebody moving in front in most of them does not raise as he does
        their median. A noisier frame now and then only makes the warmup wait a little."""
        diff = local_change(after.astype(np.float32) - before.astype(np.float32))
        return int(np.count_nonzero(diff > self._threshold_at(self._low_tail))) < self.min_pixels

    def learn_from(self, still: Sequence[np.ndarray]) -> None:
        """Set the noise level anew from pictures known to be still, one after another
        (the warmup's last frames), as if they were the first differences: those may have
        held a person passing in front, whose far tail (a hand changes only a part of the
        picture, but owns the largest differences) set the level far too high for the rest
        of the game."""
        first = []
        for before, after in itertools.pairwise(still):
            signed = after.astype(np.float32) - before.astype(np.float32)
            if signed.any():
                first.append(self._noise_of(local_change(signed)))
        if first:
            self._first = first
            self._set_level()
            # Judged still at the lowest tail, they may yet hold the end of a hand's slow
            # motion: their lowest tail, too, is the camera's. (A camera whose odd pixels
            # flicker then sees motion now and then, which costs a look at the scene; a
            # level too high would miss every dart.)
            self.tail = self._low_tail
            self._frames = max(self._frames, LEARNING)  # learnt: later frames only track it

    def _set_level(self) -> None:
        """Sigma and far tail from the first differences (``_first``): their medians, the
        tail's over all but nearly repeated frames."""
        self.sigma = float(np.median([sigma for sigma, _ in self._first]))
        usual = [tail for sigma, tail in self._first if sigma >= REPEAT * self.sigma]
        self.tail = float(np.median(usual))
        self._low_tail = min(usual)

    def _noise_of(self, diff: np.ndarray) -> tuple[float, float]:
        """The noise sigma and far tail of one still difference (``local_change``)."""
        return max(0.3, abs_diff_sigma(diff)), self._tail(diff)

    @staticmethod
    def _tail(diff: np.ndarray) -> float:
        flat = diff.reshape(-1)
        return float(np.quantile(flat[:: max(1, flat.size // 60000)], 0.9999))

    def update(self, small: np.ndarray) -> GateResult:
        previous, self._previous = self._previous, small
        if previous is None or previous.shape != small.shape:
            return GateResult(True, small.size)
        signed = small.astype(np.float32) - previous.astype(np.float32)
        if not signed.any():
            # The same picture again (cameras and streams resend a buffer when they have no
            # new one): nothing moved, and it says nothing about the noise.
            return GateResult(False, 0)
        diff = local_change(signed)
        self._frames += 1
        if self._frames <= LEARNING:
            # The first differences set the noise level. Their median: one of them may hold
            # a real change (too high) or a nearly repeated frame (too low); the far tail
            # leaves out nearly repeated frames (their noise well under the median). Somebody
            # in front in most of the first frames still sets it too high: the warmup sets it
            # anew from its still frames (learn_from).
            self._first.append(self._noise_of(diff))
            self._set_level()
        changed = int(np.count_nonzero(diff > self.threshold))
        moving = changed >= self.min_pixels
        if moving and self._noise_went_up(diff):
            changed = int(np.count_nonzero(diff > self.threshold))
            moving = changed >= self.min_pixels
        if not moving and changed == 0 and self._frames % 10 == 0:
            # Track the noise level slowly while nothing happens (light, gain drift).
            sigma, tail = self._noise_of(diff)
            self.sigma = 0.8 * self.sigma + 0.2 * sigma
            self.tail = 0.8 * self.tail + 0.2 * tail
        return GateResult(moving, changed)

    def _noise_went_up(self, diff: np.ndarray) -> bool:
        """Whether this difference, with the ones before it, says that the camera's noise
        level went up, which is then taken as the new one. Noise is tracked only while nothing
        moves, and a noisier camera would seem to move for ever: a run of LOUDER_RUN
        differences whose typical pixel (the median: a hand or a dart moves only a part of
        the picture) is LOUDER times the noise is that camera, not motion."""
        assert self.sigma is not None
        sigma = abs_diff_sigma(diff[::4, ::4])  # a median: a sixteenth of the pixels will do
        if sigma < LOUDER * self.sigma:
            self._louder = []
            return False
        self._louder.append((sigma, self._tail(diff)))
        if len(self._louder) < LOUDER_RUN:
            return False
        self.sigma = float(np.median([sigma for sigma, _ in self._louder]))
        self.tail = float(np.median([tail for _, tail in self._louder]))
        self._louder = []
        return True
