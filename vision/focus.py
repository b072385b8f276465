"""Focus: how much blurrier one picture of the board is than another, and whether a change
is nothing but printed edges seen in another focus.

A webcam or phone focuses by itself. Between two pictures of the same board its focus may
differ a little (a video camera that focused anew, a phone that focuses for every photo, on
the board or on the flights standing out of it): every printed edge then changes, and none
of that is a dart.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.align import high_pass_grey

# Blurs (Gaussian sigma, px) tried when the camera may have focused anew (video).
FOCUS_SIGMAS_PX = (0.5, 0.75, 1.0, 1.4, 2.0)
# Photos taken one by one differ in focus by less: finer steps, from a third of a pixel.
PHOTO_FOCUS_SIGMAS_PX = (0.3, 0.45, 0.6, 0.8, 1.0, 1.4, 2.0)
# A photo put back onto the empty board's grid by a fraction of a pixel is blurred by up to
# about a third of a pixel, at a phase of its own (the ripple test allows for that): only a
# photo blurrier than the stored pictures by more is a focus of its own.
PHOTO_REFOCUS_MIN_PX = 0.45
# Pixels kept clear of the window's border, which the high-pass blurs.
WINDOW_BORDER_PX = 8
# Photos: only where the last picture's printed edges are steepest (this top share of the
# window) is the focus compared; elsewhere the camera's noise, which any blur smooths away,
# would always favour some blur.
EDGE_SHARE = 0.1
# Photos: a blur must lower the mismatch by this share to count; pictures in the same focus
# but with strong noise come within a fifth of that (noise any blur smooths away).
PHOTO_MIN_GAIN = 0.005
# A blob this much of whose pixels match the last scene once the sharper side is blurred is
# printed edges seen in another focus, no dart (whose change stays under any blur).
FOCUS_EXPLAINED = 0.8
FOCUS_MARGIN_PX = 6  # around a blob: the blur reaches this far


def matching_blur(
    now: np.ndarray,
    before: np.ndarray,
    sigmas: tuple[float, ...] = FOCUS_SIGMAS_PX,
    on_edges: bool = False,
    min_gain: float = 0.0,
) -> float:
    """The blur that makes the sharper of two grey pictures (float32, the same window of the
    board) look most like the other, on high-passed pictures (the light does not count
    there): positive when ``now`` is the blurrier (``before`` must be blurred by it), negative
    when it is the sharper, 0.0 when no blur of ``sigmas`` does better than none by
    ``min_gain`` (a share of the mismatch). With ``on_edges`` only the steepest printed edges
    of ``before`` are compared."""
    clear = slice(WINDOW_BORDER_PX, -WINDOW_BORDER_PX)
    inner = (clear, clear)
    where = _steepest_edges(before)[inner] if on_edges else None

    def mismatch(a: np.ndarray, b: np.ndarray) -> float:
        gap = np.abs(a[inner] - b[inner])
        return float(np.mean(gap if where is None else gap[where]))

    sharp_now, sharp_before = high_pass_grey(now), high_pass_grey(before)
    unblurred = mismatch(sharp_now, sharp_before)
    best = (unblurred, 0.0)
    for sign, sharper, other in ((1.0, before, sharp_now), (-1.0, now, sharp_before)):
        last = unblurred
        for sigma in sigmas:
            score = mismatch(high_pass_grey(cv2.GaussianBlur(sharper, (0, 0), sigma)), other)
            if score >= last:
                # past the blur that matches best (the mismatch falls towards it and rises
                # after it): more blur will not do, and pictures in the same focus stop at
                # the first blur tried
                break
            last = score
            if score < best[0]:
                best = (score, sign * sigma)
    return best[1] if best[0] < (1.0 - min_gain) * unblurred else 0.0


def _steepest_edges(grey: np.ndarray) -> np.ndarray:
    """The pixels around the steepest printed edges of a grey picture (``EDGE_SHARE`` of it),
    widened by two pixels, where a blur shows."""
    slope = np.hypot(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1))
    steep = slope >= np.quantile(slope, 1.0 - EDGE_SHARE)
    return cv2.dilate(steep.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0


def only_sharpness(
    group: np.ndarray,
    span: tuple[slice, slice],
    roi: np.ndarray,
    scene: np.ndarray,
    threshold: float,
) -> bool:
    """Whether ``group`` (a blob of the region, within ``span``) is printed edges that only
    got sharper or blurrier: most of its pixels within ``threshold`` of the last scene once
    the sharper of the two is blurred by one of the focus blurs (on the blob's box and a
    margin). A dart's change stays under any blur."""
    rows, cols = span
    h, w = group.shape
    box = (
        slice(max(0, rows.start - FOCUS_MARGIN_PX), min(h, rows.stop + FOCUS_MARGIN_PX)),
        slice(max(0, cols.start - FOCUS_MARGIN_PX), min(w, cols.stop + FOCUS_MARGIN_PX)),
    )
    inside = group[box]
    now, before = roi[box].astype(np.float32), scene[box].astype(np.float32)
    for sigma in FOCUS_SIGMAS_PX:
        for sharper, other in ((before, now), (now, before)):
            change = cv2.absdiff(cv2.GaussianBlur(sharper, (0, 0), sigma), other)
            if change.ndim == 3:
                change = change.max(axis=2)
            if float(np.mean(change[inside] <= threshold)) >= FOCUS_EXPLAINED:
                return True
    return False
