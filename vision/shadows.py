"""Shadows on the board: which changed pixels are only a shadow, and where a dart's own
shadow starts (at its point)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.tip import TipFit, axis_coordinates


def shadow_like(
    image: np.ndarray, before: np.ndarray, change: np.ndarray, threshold: float
) -> np.ndarray:
    """Pixels that only got darker, keeping their colour: a shadow on the board. The colour
    test allows for the noise, which matters more the darker the pixel."""
    f = image.astype(np.float32)
    b = before.astype(np.float32)
    nf = np.sqrt((f * f).sum(axis=2)) + 1e-3
    nb = np.sqrt((b * b).sum(axis=2)) + 1e-3
    cos = (f * b).sum(axis=2) / (nf * nb)
    sin = np.sqrt(np.clip(1.0 - cos * cos, 0.0, 1.0))
    ratio = nf / nb
    tolerance = 0.05 + threshold / nf
    return (change > 0.5 * threshold) & (ratio < 0.98) & (ratio > 0.3) & (sin < tolerance)


def at_shadow_start(fit: TipFit, group: np.ndarray, shadow: np.ndarray, mm: float) -> TipFit:
    """A tip put out in the dart's own shadow, where it lies on the dart's line, goes back to
    where the shadow starts. A shadow starts at the point that casts it, as narrow as the
    point, and widens and blurs away from it (the rest of the dart stands further from the
    board); a grey point that passes for a shadow is narrowest at its end. So when the
    shadow-like run from the tip back to the solid dart is long and mostly wide, the point
    is at its narrowest place next to the solid dart (within a point's length)."""
    tip = np.array(fit.tip)
    axis = np.array(fit.axis)
    ys, xs = np.nonzero(group)
    along, across = axis_coordinates(xs, ys, tip, axis)
    ahead = (np.abs(across) <= SHADOW_BAND_MM / mm) & (along >= -0.5)
    steps = np.round(along[ahead]).astype(int)
    widths = np.bincount(steps).astype(np.float64)
    core = ahead & (np.abs(across) <= 2.0) & ~shadow[ys, xs]
    solid = np.bincount(np.round(along[core]).astype(int), minlength=len(widths)) >= 2
    solid = solid[:-1] & solid[1:]  # two solid slices in a row: not a speck
    if not solid.any():
        return fit
    t_solid = int(np.argmax(solid))  # the shadow-like run is [0, t_solid)
    if t_solid * mm < MIN_SHADOW_RUN_MM or np.any(widths[:t_solid] == 0):
        return fit
    smooth = np.convolve(widths[:t_solid], np.ones(3) / 3, mode="same")
    lo = max(1, t_solid - round(POINT_MM / mm))
    start = lo + int(np.argmin(smooth[lo : t_solid - 1])) if t_solid - 1 > lo else t_solid
    narrow = max(float(smooth[start]), 1.0)
    if start * mm < POINT_MM:
        return fit  # within a point's length of the tip: maybe the point and its shadow
    if float(np.median(widths[:start])) < SHADOW_WIDENING * narrow:
        return fit  # about as narrow out there as at the start: a grey point or barrel
    new_tip = tip + axis * start
    return replace(
        fit,
        tip=(float(new_tip[0]), float(new_tip[1])),
        length_px=max(1.0, fit.length_px - start),
        quality=min(fit.quality, 0.5),
    )


# A run of shadow-like pixels shorter than this at the tip may be a grey point.
MIN_SHADOW_RUN_MM = 15.0
# Half-width of the slice across the axis in which a shadow's width is measured.
SHADOW_BAND_MM = 10.0
# A dart's shadow away from the point is this many times wider than where it starts.
SHADOW_WIDENING = 1.5
# The longest common steel point: the shadow starts at most this far from the barrel.
POINT_MM = 35.0
