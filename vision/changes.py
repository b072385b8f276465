"""How much a frame changed against a stored one, after the light is taken out: the
detector compares the settled frame with the last scene and with the empty board through
these."""

from __future__ import annotations

import cv2
import numpy as np


def max_channel_absdiff(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per pixel, the largest change of any colour channel (a red dart on a green field
    changes hue more than brightness)."""
    diff = cv2.absdiff(a, b)
    if diff.ndim == 3:
        return diff.max(axis=2)
    return diff


def luma_absdiff(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per pixel, the change of brightness (sharper than colour in compressed video, which
    keeps colour at half resolution)."""
    ga = cv2.cvtColor(a, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gb = cv2.cvtColor(b, cv2.COLOR_BGR2GRAY).astype(np.float32)
    return np.abs(ga - gb)


def gain_field(current: np.ndarray, base: np.ndarray, ksize: int) -> np.ndarray:
    """Smooth light ratio current/base (robust to small objects: a median over a big window)."""
    ratio = (current.astype(np.float32) + 4.0) / (base.astype(np.float32) + 4.0)
    coded = np.clip((ratio - 1.0) * 400.0 + 128.0, 0, 255).astype(np.uint8)
    smooth = cv2.medianBlur(coded, ksize)
    smooth = cv2.blur(smooth.astype(np.float32), (ksize // 2 | 1, ksize // 2 | 1))
    return (smooth - 128.0) / 400.0 + 1.0


def scaled(image: np.ndarray, gain: np.ndarray) -> np.ndarray:
    """``image`` under the light ``gain`` (from :func:`gain_field`)."""
    out = image.astype(np.float32) * gain[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)
