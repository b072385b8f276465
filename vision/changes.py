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
        # OpenCV's per-element max is several times faster than numpy's max over an axis.
        blue, green, red = cv2.split(diff)
        return cv2.max(cv2.max(blue, green), red)
    return diff


def lowpass_absdiff(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per pixel, the largest change of any colour channel after the same mild low-pass of
    both pictures (a signed difference smoothed before its size is taken).

    A photo put onto another's pixel grid is resampled, and resampling loses fine detail
    (near the pixel's own scale) by an amount that depends on where between pixels each
    sample falls: along thin printed lines and sharp edges two photos resampled differently
    (or one resampled and one not) then differ in a fine ripple of both signs. The same
    low-pass on both sides takes away the detail that only one side still has, and the
    ripple cancels; a dart's change keeps one sign across its body and stays."""
    diff = np.abs(cv2.GaussianBlur(cv2.subtract(a, b, dtype=cv2.CV_32F), (3, 3), 0))
    if diff.ndim == 3:
        blue, green, red = cv2.split(diff)
        return cv2.max(cv2.max(blue, green), red)
    return diff


def fine_detail(image: np.ndarray) -> np.ndarray:
    """Per pixel, the detail that the low-pass of ``lowpass_absdiff`` takes away (largest over
    the colour channels), widened by a pixel: where resampling can change a picture."""
    f32 = image.astype(np.float32)
    detail = cv2.absdiff(f32, cv2.GaussianBlur(f32, (3, 3), 0))
    if detail.ndim == 3:
        blue, green, red = cv2.split(detail)
        detail = cv2.max(cv2.max(blue, green), red)
    return cv2.dilate(detail, np.ones((3, 3), np.uint8))


def luma_absdiff(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per pixel, the change of brightness (sharper than colour in compressed video, which
    keeps colour at half resolution)."""
    ga = cv2.cvtColor(a, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gb = cv2.cvtColor(b, cv2.COLOR_BGR2GRAY).astype(np.float32)
    return np.abs(ga - gb)


SATURATED = 250  # grey level: a pixel this bright may be clipped by the camera
# An overall light ratio this far from 1 is a new exposure (or a lamp switched on or off).
EXPOSURE_STEP = 0.1


def gain_field(current: np.ndarray, base: np.ndarray, ksize: int) -> np.ndarray:
    """Smooth light ratio current/base (robust to small objects: a median over a big window).
    The ratio over the whole picture (a camera that set its exposure anew, a lamp switched
    on) is taken out first: the median filter works on 8-bit codes, fine enough for uneven
    light within a third of the overall level but no further."""
    ratio = (current.astype(np.float32) + 4.0) / (base.astype(np.float32) + 4.0)
    # A pixel the camera shows at its brightest (now, or in ``base``) says only that the
    # light there is at least (or at most) so much.
    clipped = (current >= SATURATED) | (base >= SATURATED)
    sample, unclipped = ratio[::4, ::4], ~clipped[::4, ::4]
    overall = float(np.median(sample[unclipped] if unclipped.any() else sample))
    if abs(overall - 1.0) < EXPOSURE_STEP:
        overall = 1.0  # the same exposure: the field alone says it best
    else:
        # A clipped pixel takes the overall ratio, not one of its own that would brighten
        # or dim its neighbours' light too.
        ratio[clipped] = overall
    coded = np.clip((ratio / overall - 1.0) * 400.0 + 128.0, 0, 255).astype(np.uint8)
    smooth = cv2.medianBlur(coded, ksize)
    smooth = cv2.blur(smooth.astype(np.float32), (ksize // 2 | 1, ksize // 2 | 1))
    return ((smooth - 128.0) / 400.0 + 1.0) * overall


def lit(small: np.ndarray, gain: np.ndarray) -> np.ndarray:
    """A small grey picture under the light ``gain``, as float, no brighter than a camera
    can show (where the light now saturates it, the new picture is clipped as well)."""
    return np.minimum(small * gain, 255.0)


def clipped_absdiff(now: np.ndarray, predicted: np.ndarray, stored: np.ndarray) -> np.ndarray:
    """Per pixel, the largest change of any colour channel from ``predicted`` (``stored``
    in the light of ``now``, see :func:`scaled`) to ``now``. A channel the camera clipped in
    ``stored`` says only that the light there was at least that bright: in a dimmer light it
    may show brighter than ``stored`` scaled down, and only darker counts there (after a lamp
    was switched off, every clipped highlight seemed changed, darts pulled out among them)."""
    diff = cv2.absdiff(now, predicted)
    clipped = stored >= SATURATED
    if clipped.any():
        diff[clipped & (now > predicted)] = 0
    if diff.ndim == 3:
        blue, green, red = cv2.split(diff)
        return cv2.max(cv2.max(blue, green), red)
    return diff


def scaled(image: np.ndarray, gain: np.ndarray) -> np.ndarray:
    """``image`` under the light ``gain`` (from :func:`gain_field`)."""
    out = image.astype(np.float32) * gain[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def tiled_quantile(diff: np.ndarray, q: float, tiles: tuple[int, int] = (8, 6)) -> float:
    """The ``q`` quantile of a difference as most of the picture shows it: the upper quartile,
    over tiles, of each tile's quantile. A real change (a new dart and its shadow) fills a
    few tiles and cannot raise it, which a quantile over the whole picture would let it do;
    the quartile rather than the median, because noise (JPEG above all) is stronger on the
    printed board than on a plain wall, and most tiles may show the wall."""
    h, w = diff.shape[:2]
    columns, rows = tiles
    values = [
        float(
            np.quantile(
                diff[
                    r * h // rows : (r + 1) * h // rows, c * w // columns : (c + 1) * w // columns
                ],
                q,
            )
        )
        for r in range(rows)
        for c in range(columns)
    ]
    return float(np.percentile(values, 75))


def edge_strength(image: np.ndarray) -> np.ndarray:
    """Per pixel, the steepest brightness slope of any colour channel (grey levels per pixel),
    widened by a pixel: how much a picture shifted by a pixel would change there."""
    channels = cv2.split(image) if image.ndim == 3 else [image]
    slope = None
    for channel in channels:
        gx = cv2.Sobel(channel, cv2.CV_32F, 1, 0, ksize=3, scale=0.125)
        gy = cv2.Sobel(channel, cv2.CV_32F, 0, 1, ksize=3, scale=0.125)
        magnitude = cv2.magnitude(gx, gy)
        slope = magnitude if slope is None else cv2.max(slope, magnitude)
    return cv2.dilate(slope, np.ones((3, 3), np.uint8))


def misregistration_px(diff: np.ndarray, slope: np.ndarray, noise: float) -> float:
    """How far (px) two photos still miss each other after alignment, as their difference
    shows it on printed edges: there a residual shift d adds up to d times the slope, while
    noise adds the same everywhere. So the far quantile of the difference is read in bands of
    slope (doubling from a few noise levels up), and the line through them gives d (a new
    dart covers too few steep pixels to move a quantile); zero without steep edges or
    without any growth with the slope."""
    lows = max(4.0 * noise, 8.0) * 2.0 ** np.arange(5)
    slopes, levels = [], []
    for low in lows:
        band = (slope > low) & (slope <= 2 * low)
        if np.count_nonzero(band) >= 200:
            slopes.append(float(np.median(slope[band])))
            levels.append(float(np.quantile(diff[band], 0.9)))
    if len(slopes) < 2:
        return 0.0
    growth = float(np.polyfit(slopes, levels, 1)[0])
    return max(0.0, growth)
