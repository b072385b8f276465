"""Focus: how much blurrier one picture of the board is than another, and whether a change
is nothing but printed edges seen in another focus.

A webcam or phone focuses by itself, and may focus anew during a game (on a hand that came
close, on the flights standing out of the board): every printed edge then changes, and none
of that is a dart.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.align import high_pass_grey
from vision.changes import fine_detail

# Blurs (Gaussian sigma, px) tried when the camera may have focused anew.
FOCUS_SIGMAS_PX = (0.5, 0.75, 1.0, 1.4, 2.0)
# Pixels kept clear of the window's border, which the high-pass blurs.
WINDOW_BORDER_PX = 8
# A blob this much of whose pixels match the last scene once the sharper side is blurred is
# printed edges seen in another focus, no dart (whose change stays under any blur).
FOCUS_EXPLAINED = 0.8
FOCUS_MARGIN_PX = 6  # around a blob: the blur reaches this far
# ... and at least this share of it lies on printed edges: where the last scene holds fine
# detail (what a mild low-pass takes away) of this share of the threshold or more (a thin
# dart on a plain part of the board is flattened by a blur, but lies on no edge).
ON_EDGES = 0.6
EDGE_DETAIL = 0.5


def matching_blur(now: np.ndarray, before: np.ndarray) -> float:
    """The blur that makes the sharper of two grey pictures (float32, the same window of the
    board) look most like the other, on high-passed pictures (the light does not count
    there): positive when ``now`` is the blurrier (``before`` must be blurred by it), negative
    when it is the sharper, 0.0 when no blur of ``FOCUS_SIGMAS_PX`` does better than none."""
    clear = slice(WINDOW_BORDER_PX, -WINDOW_BORDER_PX)

    def mismatch(a: np.ndarray, b: np.ndarray) -> float:
        return float(np.mean(np.abs(a[clear, clear] - b[clear, clear])))

    sharp_now, sharp_before = high_pass_grey(now), high_pass_grey(before)
    unblurred = mismatch(sharp_now, sharp_before)
    best = (unblurred, 0.0)
    for sign, sharper, other in ((1.0, before, sharp_now), (-1.0, now, sharp_before)):
        last = unblurred
        for sigma in FOCUS_SIGMAS_PX:
            score = mismatch(high_pass_grey(cv2.GaussianBlur(sharper, (0, 0), sigma)), other)
            if score >= last:
                # past the blur that matches best (the mismatch falls towards it and rises
                # after it): more blur will not do, and pictures in the same focus stop at
                # the first blur tried
                break
            last = score
            if score < best[0]:
                best = (score, sign * sigma)
    return best[1]


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
    margin), and most of it on printed edges. A dart's change stays under any blur."""
    rows, cols = span
    h, w = group.shape
    box = (
        slice(max(0, rows.start - FOCUS_MARGIN_PX), min(h, rows.stop + FOCUS_MARGIN_PX)),
        slice(max(0, cols.start - FOCUS_MARGIN_PX), min(w, cols.stop + FOCUS_MARGIN_PX)),
    )
    inside = group[box]
    now, before = roi[box].astype(np.float32), scene[box].astype(np.float32)
    if float(np.mean(fine_detail(before)[inside] >= EDGE_DETAIL * threshold)) < ON_EDGES:
        return False  # not along printed edges: a blur changes nothing there
    for sigma in FOCUS_SIGMAS_PX:
        for sharper, other in ((before, now), (now, before)):
            change = cv2.absdiff(cv2.GaussianBlur(sharper, (0, 0), sigma), other)
            if change.ndim == 3:
                change = change.max(axis=2)
            if float(np.mean(change[inside] <= threshold)) >= FOCUS_EXPLAINED:
                return True
    return False
