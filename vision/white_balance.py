"""A photo put into the empty board's white balance. A phone sets white balance (and
exposure) anew for every shot, so the same board comes out warmer or colder: one colour
channel brighter against the others over the whole picture. The detector's light correction
(``vision.changes.gain_field``) is one smooth ratio for all colours, which takes out the
exposure and uneven light, but not that: left in, it shows as a change on every coloured
part of the board.
"""

from __future__ import annotations

import cv2
import numpy as np

LEVELS = 256
SAMPLE_STEP = 6  # every sixth pixel of every sixth row: plenty for a median
# Levels this close to black or white are clipped or nearly: their ratio says nothing.
DARKEST, BRIGHTEST = 12, 243
# A channel within this ratio of the others' mean moves no level by more than about one:
# the same white balance up to rounding, and the photo is left as it is.
SAME_BALANCE = 0.005
MIN_SAMPLES = 256  # unclipped samples a median ratio needs to be trusted


def balanced_like(image: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """``image`` (BGR, on the same pixel grid as ``reference``, the empty board) with each
    colour channel scaled so that the channels stand to each other as in the reference.
    Overall brightness is left as it is (the light correction handles it). A new array, or
    ``image`` itself when it already has the reference's balance; the inputs are not
    changed."""
    if image.ndim != 3:
        return image
    photo = image[::SAMPLE_STEP, ::SAMPLE_STEP].reshape(-1, 3).astype(np.float32)
    board = reference[::SAMPLE_STEP, ::SAMPLE_STEP].reshape(-1, 3).astype(np.float32)
    usable = np.all((photo > DARKEST) & (photo < BRIGHTEST), axis=1) & np.all(
        (board > DARKEST) & (board < BRIGHTEST), axis=1
    )
    if np.count_nonzero(usable) < MIN_SAMPLES:
        return image
    # The median ratio per channel: darts, shadows and magnets are too few pixels to move it.
    ratios = np.median(board[usable] / photo[usable], axis=0)
    balance = ratios / ratios.mean()
    if np.all(np.abs(balance - 1.0) < SAME_BALANCE):
        return image
    levels = np.arange(LEVELS, dtype=np.float32)
    tables = [np.clip(np.rint(levels * b), 0, LEVELS - 1).astype(np.uint8) for b in balance]
    return cv2.merge([cv2.LUT(ch, t) for ch, t in zip(cv2.split(image), tables, strict=True)])
