"""Shadows on the board: which changed pixels are only a shadow, and where a dart's own
shadow starts (at its point)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np

from vision.shadow_lines import MIN_RUN_MM, shadow_crossings
from vision.tip import TipFit, axis_coordinates, runs_at_least


def shadow_like(
    image: np.ndarray, before: np.ndarray, change: np.ndarray, threshold: float
) -> np.ndarray:
    """Pixels that only got darker, keeping their colour: a shadow on the board. The colour
    test allows for the noise, which matters more the darker the pixel. Only pixels that
    changed are tested (most of a region did not: the test per pixel is the same)."""
    out = change > 0.5 * threshold
    f = image[out].astype(np.float32)
    b = before[out].astype(np.float32)
    nf = np.sqrt((f * f).sum(axis=1)) + 1e-3
    nb = np.sqrt((b * b).sum(axis=1)) + 1e-3
    cos = (f * b).sum(axis=1) / (nf * nb)
    sin = np.sqrt(np.clip(1.0 - cos * cos, 0.0, 1.0))
    ratio = nf / nb
    tolerance = 0.05 + threshold / nf
    out[out] = (ratio < 0.98) & (ratio > 0.3) & (sin < tolerance)
    return out


def at_shadow_start(
    fit: TipFit,
    group: np.ndarray,
    shadow: np.ndarray,
    mm: float,
    point_px: Callable[[], float],
) -> TipFit:
    """A tip put out in the dart's own shadow, where it lies on the dart's line, goes back to
    where the shadow starts. A shadow starts at the point that casts it, as narrow as the
    point, and widens and blurs away from it (the rest of the dart stands further from the
    board); a grey point that passes for a shadow is narrowest at its end. So when the
    shadow-like run from the tip back to the solid dart is long and mostly wide, the point
    is where the width comes down to (nearly) the narrowest, seen from the solid dart (within a
    point's length). The profile shares each pixel between its two nearest steps, so a
    sub-pixel shift of the input tip barely moves the result. ``point_px``: how long the
    longest point can look there (a dart standing out towards the camera shows it longer than
    the board's scale ``mm`` says), asked only when a shadow-like run is found (most blobs
    have none)."""
    tip = np.array(fit.tip)
    axis = np.array(fit.axis)
    ys, xs = np.nonzero(group)
    along, across = axis_coordinates(xs, ys, tip, axis)
    ahead = (np.abs(across) <= SHADOW_BAND_MM / mm) & (along >= 0.0)
    if not ahead.any():
        return fit
    n = int(along[ahead].max()) + 1
    # Another lamp's shadow of the same dart leaves the point at an angle: beside the line it
    # is apart from this shadow, and no part of its width.
    on_line = _reaching_the_line(along, across, ahead)
    widths = _width_profile(along[on_line], n)
    t_solid = _solid_front(along, across, ahead & ~shadow[ys, xs], ahead, n)
    # the shadow-like run is [0, t_solid)
    if t_solid is None:
        return fit
    if t_solid * mm < MIN_SHADOW_RUN_MM or np.any(widths[1:t_solid] < 0.5):
        return fit
    # A proper (triangular) kernel over the linearly shared profile: steps along a slanted
    # axis catch alternately more and fewer pixel centres.
    smooth = np.convolve(widths[: t_solid + 1], np.array([1.0, 2.0, 1.0]) / 4, mode="same")
    point = max(1.0, point_px())
    lo = max(1, t_solid - round(point))
    if t_solid - 1 <= lo:
        return fit
    narrowest, start = _shadow_start(smooth, lo, t_solid)
    narrow = max(float(smooth[narrowest]), 1.0)
    if narrowest < point:
        return fit  # within a point's length of the tip: maybe the point and its shadow
    if float(np.median(widths[1 : max(2, narrowest)])) < SHADOW_WIDENING * narrow:
        return fit  # about as narrow out there as at the start: a grey point or barrel
    return _moved_back(fit, start)


def _solid_front(
    along: np.ndarray, across: np.ndarray, solid: np.ndarray, chosen: np.ndarray, n: int
) -> int | None:
    """The first step (of 0..n-1) along the axis where the dart's own pixels on its line
    (within ``LINE_PX`` of the axis: ``solid`` of the ``chosen`` pixels there) start: two
    slices in a row mostly solid (the noise leaves specks that fail the shadow test inside a
    wide shadow). None if nowhere."""
    on_line = chosen & (np.abs(across) <= LINE_PX)

    def per_step(picked: np.ndarray) -> np.ndarray:
        return np.bincount(np.round(along[picked]).astype(int), minlength=n + 1)[: n + 1]

    own, all_ = per_step(on_line & solid), per_step(on_line)
    solid = (own >= 2) & (2 * own >= all_)
    solid = solid[:-1] & solid[1:]
    return int(np.argmax(solid)) if solid.any() else None


def _reaching_the_line(along: np.ndarray, across: np.ndarray, chosen: np.ndarray) -> np.ndarray:
    """Of the ``chosen`` pixels, those whose run across the axis (in their unit step along
    it) reaches the line the dart's own pixels take (``LINE_PX`` either side): the width
    of what lies on the line, not of what lies beside it. A run may skip one empty cell (unit
    cells across a slanted axis catch pixel centres unevenly)."""
    if not chosen.any():
        return chosen.copy()
    steps = np.round(along[chosen]).astype(int)
    sides = np.round(across[chosen]).astype(int)
    reach = int(np.abs(sides).max()) + LINE_PX
    grid = np.zeros((int(steps.max()) + 1, 2 * reach + 1), bool)
    grid[steps, sides + reach] = True
    linked = np.zeros_like(grid)
    line = slice(reach - LINE_PX, reach + LINE_PX + 1)
    linked[:, line] = grid[:, line]
    for k in range(LINE_PX + 1, reach + 1):
        for side in (1, -1):
            here, near, nearer = reach + side * k, reach + side * (k - 1), reach + side * (k - 2)
            linked[:, here] = grid[:, here] & (linked[:, near] | linked[:, nearer])
    out = np.zeros_like(chosen)
    out[chosen] = linked[steps, sides + reach]
    return out


def _moved_back(fit: TipFit, by: float) -> TipFit:
    """The fit with its tip ``by`` px back along its axis, towards the flights: a tip put back
    from out in a shadow is less sure than one the walk placed."""
    new_tip = np.array(fit.tip) + np.array(fit.axis) * by
    return replace(
        fit,
        tip=(float(new_tip[0]), float(new_tip[1])),
        length_px=max(1.0, fit.length_px - by),
        quality=min(fit.quality, 0.5),
    )


def _shadow_start(smooth: np.ndarray, lo: int, t_solid: int) -> tuple[int, float]:
    """The narrowest step of the width profile in [lo, t_solid - 1), and where the shadow
    starts: coming from the solid dart outwards, the first place where the width has fallen
    from the point's width to near the narrowest (the shadow's start is as narrow as the
    point's end, the point and its own soft shadow beside it are wider). An argmin alone
    flips between the near-equal steps of the narrow stretch; the crossing of a level
    moves little with the profile."""
    window = smooth[lo : t_solid - 1]
    narrowest = lo + int(np.argmin(window))
    low = float(smooth[narrowest])
    point = max(low, float(np.median(smooth[narrowest:t_solid])))
    level = low + START_LEVEL * (point - low)
    k = lo + int(np.nonzero(window <= level)[0].max())
    if smooth[k + 1] <= level:
        return narrowest, float(k)
    return narrowest, k + (level - float(smooth[k])) / float(smooth[k + 1] - smooth[k])


def _width_profile(along: np.ndarray, n: int) -> np.ndarray:
    """Pixels per unit step along the axis, steps 0..n: each pixel shared between its two
    nearest steps (linear weights), so a sub-pixel shift of the tip moves the profile by as
    little; rounding to the nearest step flipped whole pixels between steps and the narrowest
    step with them."""
    floor = np.floor(along)
    frac = along - floor
    k = floor.astype(int)
    profile = np.bincount(k, 1.0 - frac, minlength=n + 2) + np.bincount(
        k + 1, frac, minlength=n + 2
    )
    return profile[: n + 1]


# The dart's own pixels on its line lie within this many px either side of its axis.
LINE_PX = 2
# A run of shadow-like pixels shorter than this at the tip may be a grey point.
MIN_SHADOW_RUN_MM = MIN_RUN_MM
# Half-width of the slice across the axis in which a shadow's width is measured.
SHADOW_BAND_MM = 20.0
# A dart's shadow away from the point is this many times wider than where it starts.
SHADOW_WIDENING = 1.5
# The shadow starts where the width has come down this part of the way from the point's width
# to the narrowest width (nearer the narrowest than a half: the profile is flat there).
START_LEVEL = 0.3
# The longest common steel point: the shadow starts at most this far from the barrel.
POINT_MM = 35.0


# Fewer of the dart's own (not shadow-like) pixels than this around a shadow's end tell
# nothing about a cross of flights there.
MIN_CROSS_PIXELS = 5
# A cross of flights is centred on the dart's axis: the middle of its pixels lies within
# their own RMS radius of it. A body reaching out to one side from the point (a bar: its
# middle 1.7 RMS radii from its end) does not.
CROSS_CENTRED = 1.0
# Seen along its axis, the whole dart lies within the cross: at least this share of the
# dart's own pixels is there (the rest are the shadow's ragged edges, single pixels taken
# for no shadow). A dart seen from its side shows most of itself (its body, its flights)
# away from where its shadow starts.
CROSS_SHARE = 0.25


def _cross_at(own: np.ndarray, end: np.ndarray, reach: float, rms_most: float):
    """(middle, RMS radius) of the dart's own pixels ``own`` (N x 2) within ``reach`` of
    ``end`` when they are a cross of flights centred there, else None."""
    near = own[np.hypot(*(own - end).T) <= reach]
    if len(near) < MIN_CROSS_PIXELS or len(near) < CROSS_SHARE * len(own):
        return None
    middle = near.mean(axis=0)
    rms = float(np.sqrt(np.mean(np.sum((near - middle) ** 2, axis=1))))
    if rms > rms_most or float(np.hypot(*(middle - end))) > CROSS_CENTRED * rms:
        return None
    return middle, rms


def end_on_tip(
    fit: TipFit, group: np.ndarray, shadow: np.ndarray, reach: float, rms_most: float
) -> TipFit:
    """A dart seen along its own axis shows little but the thin cross of its flights over
    the start of its long shadow: the shadow starts at the point, and the whole dart
    (point, body, flights) lies along the camera's ray through it, so the cross is centred
    on the point. It is that dart only if, at exactly one end of the shadow's run, the dart's
    own (not shadow-like) pixels within a flight's ``reach`` (px) are such a cross: most of
    the dart's own pixels, centred on that end, no wider than ``rms_most`` (px RMS). A dart
    seen from its side shows its body reaching out of the cross to one side, or most of its
    pixels away from the shadow's end. The point is put half way between the shadow's start
    and the cross's middle (each is off when the dart is not quite along the ray, the two
    opposite ways), unseen, as unsure as they are apart; a fit tip already that close to it
    is kept. Where no cross shows at either end (clear flights, or thin ones a webcam's
    compression wiped out), the shadow's thin start tells the point (``_at_narrow_end``)."""
    ys, xs = np.nonzero(group)
    own = ~shadow[ys, xs]
    if np.count_nonzero(own) < MIN_CROSS_PIXELS or np.count_nonzero(~own) < 10:
        return fit
    points = np.column_stack([xs, ys]).astype(np.float64)
    cast = points[~own]
    center, line, normal = _run_of(cast)
    along, across = (cast - center) @ line, (cast - center) @ normal
    found = []
    for end in np.percentile(along, [1.0, 99.0]):
        # The shadow's own middle across its end (or across the pixels nearest to it, where
        # scattered specks leave a gap there).
        gap = np.abs(along - end)
        at_end = gap <= max(3.0, float(gap.min()))
        start = center + line * end + normal * float(np.median(across[at_end]))
        cross = _cross_at(points[own], start, reach, rms_most)
        if cross is not None:
            found.append((start, cross[0]))
    if not found:
        return _at_narrow_end(fit, along, across, center, line, normal)
    if len(found) != 1:
        return fit  # a cross at each end: nothing tells which end the point is
    start, middle = found[0]
    tip = (start + middle) / 2
    doubt = float(np.hypot(*(start - middle))) / 2
    if float(np.hypot(*(np.array(fit.tip) - tip))) <= max(1.0, 2 * doubt):
        return fit
    return _unseen_at(fit, tip, doubt)


def _run_of(cast: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The middle of a shadow's pixels (N x 2), the line it runs along (unit) and the
    normal to that line."""
    center = cast.mean(axis=0)
    _, _, vt = np.linalg.svd(cast - center, full_matrices=False)
    return center, vt[0], np.array([-vt[0][1], vt[0][0]])


def _unseen_at(fit: TipFit, tip: np.ndarray, spread_px: float) -> TipFit:
    """The fit with its tip put at ``tip``, told by what lies around the point rather than
    seen: about ``spread_px`` unsure beyond an unseen point's own doubt."""
    return replace(
        fit,
        tip=(float(tip[0]), float(tip[1])),
        point_seen=False,
        occluded=False,
        hidden_px=0.0,
        spread_px=spread_px,
    )


def _at_narrow_end(
    fit: TipFit,
    along: np.ndarray,
    across: np.ndarray,
    center: np.ndarray,
    line: np.ndarray,
    normal: np.ndarray,
) -> TipFit:
    """No cross of flights shows (clear flights, or lost to compression): the shadow alone
    tells where the point is (``_narrow_end``), so a tip that a fit put at the end where the
    shadow is clearly the wider goes to the narrower end (``along``/``across``: the shadow's
    pixels on its own ``line`` and ``normal`` from ``center``). Unseen: the shadow's thin
    start may fade out early."""
    ends = _narrow_end(along, across)
    if ends is None:
        return fit
    start, wide_end, quarter = ends
    if abs(float((np.array(fit.tip) - center) @ line) - wide_end) > quarter:
        return fit  # the fit's tip is not in the flights' shadow: nothing says it is wrong
    return _unseen_at(fit, center + line * start[0] + normal * start[1], 0.0)


def _narrow_end(
    along: np.ndarray, across: np.ndarray
) -> tuple[tuple[float, float], float, int] | None:
    """Where a dart's shadow starts, from the shadow's pixels on its own line (``along``,
    ``across``): at the point, as thin as the point, while it ends in the flights' shadow, as
    wide as the flights. Returns the narrow end (along, across), where the wide end lies
    along the line, and the length of an end's quarter; None when the two ends are about as
    wide (nothing tells which is the point), or the shadow is broken where it crosses a dark
    part of the board (it hardly shows there, and the pieces' widths are cut by the print)."""
    lo, hi = np.percentile(along, [1.0, 99.0])
    quarter = max(1, round((hi - lo) / 4))
    inside = (along >= lo) & (along <= hi)
    steps = np.round(along[inside] - lo).astype(int)
    # Pixels per unit step along the shadow: a clear flight's thin wings, shadow-like too,
    # widen a step or two near the point; the median of an end's steps is the shadow's own.
    widths = np.bincount(steps)
    if runs_at_least(widths == 0, SHADOW_GAP_PX + 1).any():
        return None
    ends = []
    for end, part in ((lo, widths[:quarter]), (hi, widths[-quarter:])):
        near = inside & (np.abs(along - end) <= quarter)
        ends.append((float(np.median(part)), float(end), float(np.median(across[near]))))
    (narrow, end, middle), (wide, wide_end, _) = sorted(ends)
    if wide < NARROW_END_RATIO * max(narrow, 1.0):
        return None
    return (end, middle), wide_end, quarter


def lone_shadow_tip(fit: TipFit, group: np.ndarray, shadow: np.ndarray) -> TipFit | None:
    """A long new shadow of which nothing solid shows is cast by a dart seen along its own
    axis whose thin flights hardly stand out of the camera's noise (the cleaner the camera,
    the less they do): the tip goes to where the shadow starts, unseen. None unless the
    blob has a dart's shadow's shape, thin at one end and as wide as flights at the other."""
    ys, xs = np.nonzero(group & shadow)
    if len(xs) < 10:
        return None
    cast = np.column_stack([xs, ys]).astype(np.float64)
    center, line, normal = _run_of(cast)
    ends = _narrow_end((cast - center) @ line, (cast - center) @ normal)
    if ends is None:
        return None
    (start_along, start_across), wide_end, _quarter = ends
    toward_flights = line if wide_end > start_along else -line
    tip = center + line * start_along + normal * start_across
    return replace(
        _unseen_at(fit, tip, 0.0), axis=(float(toward_flights[0]), float(toward_flights[1]))
    )


# A dart's shadow ends in its flights' shadow at least this many times wider than its start.
NARROW_END_RATIO = 2.0
# A shadow's run along its line may miss this many steps in a row (noise at its thin start).
SHADOW_GAP_PX = 2


def at_shadow_fork(fit: TipFit, group: np.ndarray, shadow: np.ndarray, mm: float) -> TipFit:
    """Every shadow of a dart starts at its point (the point touches the board), and each
    is a straight band from there. Under two lamps one shadow may lie along the dart's own
    line, so that the walk runs on through it, while the other leaves that line at an angle:
    a straight shadow-like branch that meets the line ahead of the solid dart meets it at
    the point. The tip goes back to where the branch, extended, crosses the dart's line."""
    tip = np.array(fit.tip)
    axis = np.array(fit.axis)
    ys, xs = np.nonzero(group)
    along, across = axis_coordinates(xs, ys, tip, axis)
    sh = shadow[ys, xs]
    ahead = along >= 0.0
    n = int(along[ahead].max()) + 1 if ahead.any() else 0
    if n < 2:
        return fit
    t_solid = _solid_front(along, across, ahead & ~sh, ahead, n)
    if t_solid is None:
        return fit
    if t_solid * mm < MIN_SHADOW_RUN_MM:
        return fit  # the tip is already near the solid dart
    # shadow-like pixels no further out along the dart's line than the solid dart
    off = sh & (along < t_solid)
    crossings = [
        s
        for s in shadow_crossings(xs[off], ys[off], group.shape, tip, axis, mm)
        if 0 <= s < t_solid
    ]
    best = max(crossings, default=None)
    if best is None or best * mm < MIN_SHADOW_RUN_MM:
        # A crossing this near the tip may be the point's own soft shadow beside it, or a
        # grey point taken for shadow (as in ``at_shadow_start``): the walk's tip stays.
        return fit
    return _moved_back(fit, best)
