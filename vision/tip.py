"""Where a dart's point enters the board, from its change mask in the image.

Geometry, not appearance: a dart seen by any camera is a thin line (point, barrel, shaft)
ending in a wide tuft (the flights). The axis is fitted through the narrow half of the blob;
the tip is then searched *along that axis*, past the end of the blob, at the half-level of
the point's own contrast. The thin point is often only partly above the threshold: the
profile along the axis still shows it, so the tip is not the end of the thresholded contour.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class TipFit:
    tip: tuple[float, float]  # image pixels (sub-pixel)
    axis: tuple[float, float]  # unit vector from the tip towards the flights (image)
    length_px: float  # extent of the blob along the axis
    width_px: float  # robust width of the blob across the axis
    contrast: float  # level of the point in the evidence image, in thresholds
    occluded: bool  # the search ran into an earlier object: the tip may be hidden
    quality: float  # 0..1, lower means a less certain tip


def _weighted_axis(xs: np.ndarray, ys: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    total = w.sum()
    c = np.array([np.dot(xs, w) / total, np.dot(ys, w) / total])
    dx, dy = xs - c[0], ys - c[1]
    cov = (
        np.array(
            [[np.dot(w, dx * dx), np.dot(w, dx * dy)], [np.dot(w, dx * dy), np.dot(w, dy * dy)]]
        )
        / total
    )
    vals, vecs = np.linalg.eigh(cov)
    return c, vecs[:, int(np.argmax(vals))]


def _sample(image: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    mx = xs.astype(np.float32).reshape(1, -1)
    my = ys.astype(np.float32).reshape(1, -1)
    out = cv2.remap(image, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out.reshape(-1) if out.ndim == 2 else out.reshape(-1, out.shape[-1])


def fit_tip(
    evidence: np.ndarray,
    mask: np.ndarray,
    threshold: float,
    occluders: np.ndarray | None = None,
    shadow: np.ndarray | None = None,
    tail_hint: np.ndarray | None = None,
) -> TipFit | None:
    """Fit the tip of the one dart in ``mask`` (bool) using ``evidence`` (float32: how much
    each pixel changed). ``occluders`` marks pixels of earlier objects that can hide the tip;
    ``shadow`` pixels that only got darker (kept out of the axis fit); ``tail_hint`` the
    image direction in which things sticking out of the board appear (from the calibration)."""
    if shadow is not None:
        body = mask & ~shadow
        if np.count_nonzero(body) >= 0.3 * np.count_nonzero(mask):
            mask = body
    ys, xs = np.nonzero(mask)
    if len(xs) < 8:
        return None
    xs_f, ys_f = xs.astype(np.float64), ys.astype(np.float64)
    w = np.minimum(evidence[ys, xs].astype(np.float64), 4 * threshold)
    center, axis = _weighted_axis(xs_f, ys_f, w)
    t = (xs_f - center[0]) * axis[0] + (ys_f - center[1]) * axis[1]
    n = -(xs_f - center[0]) * axis[1] + (ys_f - center[1]) * axis[0]
    t_min, t_max = float(t.min()), float(t.max())
    length = t_max - t_min
    if length < 6:
        return None
    # Which end is the point? The flights make the other end wide.
    q = length / 4
    low, high = t < t_min + q, t > t_max - q
    width_low = float(np.percentile(np.abs(n[low]), 90)) if low.any() else 0.0
    width_high = float(np.percentile(np.abs(n[high]), 90)) if high.any() else 0.0
    flip = width_high < width_low
    if tail_hint is not None and abs(float(axis @ tail_hint)) > 0.35:
        # The tail is on the side the board's normal points to in the image.
        flip = float(axis @ tail_hint) < 0
    if flip:
        axis, t, n = -axis, -t, -n
        t_min, t_max = -t_max, -t_min
    # Axis through the narrow half: centre of each slice across the axis, line fit.
    half = t < t_min + length * 0.5
    bins = np.floor(t[half] - t_min).astype(int)
    mass = np.bincount(bins, weights=w[half])
    moment = np.bincount(bins, weights=w[half] * n[half])
    keep = mass > 0
    slice_t = np.nonzero(keep)[0] + t_min + 0.5
    slice_n = moment[keep] / mass[keep]
    if len(slice_t) >= 4:
        weights = np.sqrt(mass[keep])
        for _ in range(3):
            slope, offset = np.polyfit(slice_t, slice_n, 1, w=weights)
            resid = slice_n - (slope * slice_t + offset)
            scale = max(0.5, 1.4826 * float(np.median(np.abs(resid))))
            weights = np.sqrt(mass[keep]) / (1 + (resid / (2 * scale)) ** 2)
        perp = np.array([-axis[1], axis[0]])
        p0 = center + axis * 0.0 + perp * offset
        direction = axis + perp * slope
        direction /= np.linalg.norm(direction)
        center = p0
        axis = direction
        t = (xs_f - center[0]) * axis[0] + (ys_f - center[1]) * axis[1]
        n = -(xs_f - center[0]) * axis[1] + (ys_f - center[1]) * axis[0]
    near_axis = np.abs(n) <= 2.0
    t_end = float(t[near_axis].min()) if near_axis.any() else float(t.min())
    width = float(np.percentile(np.abs(n), 75)) * 2

    # Profile along the axis: from inside the body out past the end of the mask.
    step = 0.25
    s = np.arange(t_end + 14.0, t_end - 10.0, -step)
    perp = np.array([-axis[1], axis[0]])
    best = None
    kernel = np.ones(4, np.float32) / 4  # 1 px along the axis: averages the noise
    for offset in (-1.0, -0.5, 0.0, 0.5, 1.0):
        px = center[0] + axis[0] * s + perp[0] * offset
        py = center[1] + axis[1] * s + perp[1] * offset
        values = np.convolve(_sample(evidence, px, py), kernel, mode="same")
        best = values if best is None else np.maximum(best, values)
    assert best is not None
    inside = (s <= t_end + 6.0) & (s >= t_end)
    level = float(np.percentile(best[inside], 75)) if inside.any() else threshold
    level = max(level, threshold)
    half_level = level / 2
    # Walk outwards: the tip is where the profile falls under half the point's level for
    # good (a gap shorter than 1.5 px is noise or a dim spot on the point).
    below = best < half_level
    tip_s = float(s[-1])
    run = 0
    start = int(np.searchsorted(-s, -(t_end + 2.0)))
    for i in range(start, len(s)):
        if below[i]:
            run += 1
            if run * step >= 1.5:
                j = i - run  # last sample above
                if j < 0:
                    tip_s = float(s[0])
                else:
                    a, b = best[j], best[j + 1]
                    frac = (a - half_level) / (a - b) if a != b else 0.0
                    tip_s = float(s[j] - frac * step)
                break
        else:
            run = 0
    tip = center + axis * tip_s
    occluded = False
    if occluders is not None:
        probe = tip - axis * np.arange(1.0, 5.0)[:, None]
        values = _sample(occluders.astype(np.float32), probe[:, 0], probe[:, 1])
        occluded = bool(np.any(values > 0.5))
    contrast = level / threshold
    quality = min(1.0, max(0.0, (contrast - 1.0) / 3.0)) * (0.3 if occluded else 1.0)
    return TipFit(
        tip=(float(tip[0]), float(tip[1])),
        axis=(float(axis[0]), float(axis[1])),
        length_px=length,
        width_px=width,
        contrast=contrast,
        occluded=occluded,
        quality=quality if math.isfinite(quality) else 0.0,
    )
