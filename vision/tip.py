"""Where a dart's point enters the board, from its change in the image.

Geometry, not appearance. Any camera sees a dart as a straight line (point, barrel, shaft)
ending in a wide tuft (the flights), and the tail is on the side of the tip that the board's
normal points to in the image (``tail_hint``, from the calibration), unless the dart leans
further towards the camera than the camera's own ray (only in nearly frontal views). So:

1. the axis is the line that collects most change evidence (a weighted RANSAC over the
   changed pixels; shadows, which only darken the board, are left out), refined by a robust
   fit through the centres of thin slices across the narrow half;
2. the tip is searched *along that axis*, past the end of the thresholded blob, with a
   matched filter: evidence on the axis minus the background beside it. The thin point is
   often too faint to pass the threshold (the "contour stops at the barrel" error), but the
   filter still sees it; the tip is where that signal falls to half of the point's level;
3. where the search runs into an earlier dart (an occluder), it looks past it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.motion import robust_sigma
from vision.shadow_lines import shadow_crossings


@dataclass(frozen=True)
class TipFit:
    tip: tuple[float, float]  # image pixels (sub-pixel)
    axis: tuple[float, float]  # unit vector from the tip towards the flights (image)
    length_px: float  # extent of the blob along the axis
    width_px: float  # robust width of the blob across the axis
    contrast: float  # level of the point over the threshold
    occluded: bool  # the point may be hidden behind an earlier object
    quality: float  # 0..1, lower means a less certain tip
    hidden_px: float = 0.0  # length of axis hidden behind it (the tip is somewhere there)
    point_seen: bool = True  # False: nothing past the barrel; the point may be invisible
    spread_px: float = 0.0  # the point is hidden behind the flights: about this far from tip


COVER_WEIGHT = 2.0
# A dart whose fitted line is no longer than a flight tuft is across (both wings of a standard
# flight span about 40 mm) is seen nearly along its axis: that line may be a wing pair.
TUFT_MM = 50.0
# Flights stand out of the board towards the camera and look bigger than on it: a line up to
# this long may be a tuft too, if a body is seen running out of it.
LOOK_TUFT_MM = 1.25 * TUFT_MM
# The body must stick out of the tuft by this much more than the tuft does on the far side
# (and more than the fitted line does).
BODY_EXCESS_MM = 6.0
MAX_LEAN_DEG = 40.0  # a dart sticks out of the board at most about this far from the normal
RAY_CANDIDATES = 6
NEAR_DEG = 15.0  # rays this close to the fitted line are that line
# A body's far end (barrel, point) changed colour somewhere; the dart's shadow never does.
FAR_SOLID = 0.3
# A line through the tuft whose two sides differ by less than this is a pair of wings.
PAIRED_MM = 2.5
# A tuft's wings reach across its fitted line at least this fraction of how far they reach
# along it (a cross reaches about as far; a straight bar reaches its width over its length).
CROSS_RATIO = 0.5
ROOM_SIDE = 0.0  # cosine: the flights lie on the room side of the point (calibration)
# A body on the room side of its flights: a barrel (about this thick) runs out of the tuft at
# least this much thicker than what lies across from it, and the dart leans at most so far.
BARREL_MM = 7.0
# How far (px) from a tuft's weighted centroid its centre of symmetry is looked for: a long
# barrel running out of a small tuft pulls the centroid 5-8 px off it (4 left classic 7007
# f182 of bench seed 7 on a wing, 9 mm off; 1-3 ms more per tuft read).
SYMMETRY_SEARCH_PX = 8
UNPAIRED_BARREL_MM = 1.5
BEYOND_RAY_LEAN_DEG = 25.0
# Shadow-like pixels (only darker, same colour) are a grey barrel or the dart's own shadow;
# a ray along the shadow has hardly any pixels that changed colour, a barrel's has some.
SHADOW_RAY_WEIGHT = 0.2
RAY_DIRECTIONS = 72
# A shadow line at least this long (the shadow of a dart's body and shaft, foreshortened).
SHADOW_LINE_MM = 40.0
# Widths are read to about a pixel (at about a pixel per millimetre): two ends whose widths
# differ by no more do not tell the flights from the point.
WIDTH_READ_PX = 1.0
# A fitted line with its own (not shadow-like) pixels along less than this part of its
# stretch runs along the dart's shadow, not along the dart.
SHADOW_LINE_OWN = 0.25
TAIL_LEVEL_PX = 4.0  # the point's level is read over this stretch before the tail
TAIL_FRACTION = 0.25  # a tail below this part of the point's level is not the point
TAIL_PX = 2.0  # the tapered end of a point fades within less than this
# A point is thin all along its length; a barrel's tapered front looks thin for about a
# pixel. Only a thin stretch this long gives the point's own level.
THIN_RUN_PX = 2.0
SHADOW_AFTER_OTHER = 0.1  # a shadow's colour test fails at this part of its samples at most
BODY_BAND_PX = 8.0  # as for the fitted line (at about a pixel per millimetre)
# brightness from BGR (as OpenCV's grey conversion, which the walk's change image uses)
LUMA_BGR = np.array([0.114, 0.587, 0.299])
# The tip walk looks this far past the blob's end (a point and the start of its shadow, at
# about a pixel per millimetre), and further only while the dart's change goes on.
WALK_REACH_PX = 40.0
# A run past the blob's end longer than a point can look is the dart's own shadow when more
# than this share of it is only darker, in the board's colour.
SHADOW_ALONG = 0.5
MAX_WALK_REACH_PX = 160.0

# lean(tip, tail) (pixels): the smallest angle to the board's normal (degrees) a dart with
# its point on the board under ``tip`` and its flights on the ray of ``tail`` can make.
Lean = Callable[[np.ndarray, np.ndarray], float]


def _remap(
    image: np.ndarray,
    xs: np.ndarray,
    ys: np.ndarray,
    border: int,
    origin: tuple[int, int] = (0, 0),
) -> np.ndarray:
    """``image`` sampled bilinearly at the points (xs, ys) of any shape; outside the image
    the edge is repeated (``BORDER_REPLICATE``) or zero (``BORDER_CONSTANT``). ``origin``:
    where ``image`` lies in the picture the points are given in, when it is a window of it
    (see ``_window``). The points are rounded to float32 first and then moved by the whole
    pixels of ``origin``, which is exact: the samples are those of the whole picture."""
    mx, my = np.asarray(xs, np.float32), np.asarray(ys, np.float32)
    if origin != (0, 0):
        mx, my = mx - np.float32(origin[0]), my - np.float32(origin[1])
    return cv2.remap(image, mx, my, cv2.INTER_LINEAR, borderMode=border, borderValue=0.0)


def _window(
    shape: tuple[int, ...], xs: np.ndarray, ys: np.ndarray, margin: int = 2
) -> tuple[int, int, int, int]:
    """The part (x0, y0, x1, y1) of a picture of ``shape`` that bilinear samples anywhere in
    the box around the points (xs, ys) read, with ``margin`` pixels to spare, cut at the
    picture's edge (past it, the edge repeated from the window is the picture's own). Never
    empty: points all beyond one edge keep the edge's last pixels."""
    h, w = shape[:2]
    x0 = min(max(0, math.floor(float(np.min(xs))) - margin), w - 1)
    y0 = min(max(0, math.floor(float(np.min(ys))) - margin), h - 1)
    x1 = max(min(w, math.ceil(float(np.max(xs))) + margin + 1), x0 + 1)
    y1 = max(min(h, math.ceil(float(np.max(ys))) + margin + 1), y0 + 1)
    return x0, y0, x1, y1


def axis_coordinates(
    xs: np.ndarray, ys: np.ndarray, origin: np.ndarray, axis: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Pixels in a frame laid along a dart: how far along ``axis`` (unit) from ``origin``,
    and how far beside it (signed, positive to the axis' left in image coordinates)."""
    along = (xs - origin[0]) * axis[0] + (ys - origin[1]) * axis[1]
    across = -(xs - origin[0]) * axis[1] + (ys - origin[1]) * axis[0]
    return along, across


def _ransac_line(
    xs: np.ndarray, ys: np.ndarray, w: np.ndarray, band: float, seed: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """The line (point, unit direction) with the most evidence within ``band`` pixels."""
    rng = np.random.default_rng(seed)
    n = len(xs)
    p = w / w.sum()
    tries = 80
    a = rng.choice(n, tries, p=p)
    b = rng.choice(n, tries, p=p)
    dx, dy = xs[b] - xs[a], ys[b] - ys[a]
    norm = np.hypot(dx, dy)
    ok = norm >= 6
    if not ok.any():
        c = np.array([xs.mean(), ys.mean()])
        return c, np.array([1.0, 0.0])
    a, dx, dy, norm = a[ok], dx[ok], dy[ok], norm[ok]
    ux, uy = dx / norm, dy / norm
    # distance of every pixel to every candidate line
    signed = (xs[None, :] - xs[a][:, None]) * uy[:, None] - (ys[None, :] - ys[a][:, None]) * ux[
        :, None
    ]
    dist = np.abs(signed)
    inside = dist <= band
    score = (inside * w[None, :]).sum(axis=1)
    # A dart's axis has change on the line and little just beside it on both sides; the
    # straight edge of a big flat blob (a flight seen face-on) has one side full.
    flank = (dist > 2.5 * band) & (dist <= 4 * band)
    left = ((flank & (signed > 0)) * w[None, :]).sum(axis=1)
    right = ((flank & (signed < 0)) * w[None, :]).sum(axis=1)
    score = score - 0.25 * np.abs(left - right)
    # A dart is long and thin: reward the length of line the change covers (a line across
    # a broad flight collects as much mass over a much shorter stretch).
    along = (xs[None, :] - xs[a][:, None]) * ux[:, None] + (ys[None, :] - ys[a][:, None]) * uy[
        :, None
    ]
    mean_w = float(w.mean())
    # Distinct 1-px steps per candidate, for all candidates at once (a np.unique per row was
    # the hot spot of the fit, then a sort of each row): mark each candidate's steps of the
    # pixels on its line in a table and count them.
    rows, cols = np.nonzero(inside)
    covered = np.zeros(len(a), np.int64)
    if rows.size:
        steps = np.floor(along[rows, cols]).astype(np.int64)
        low = int(steps.min())
        table = np.zeros((len(a), int(steps.max()) - low + 1), bool)
        table[rows, steps - low] = True
        covered = np.count_nonzero(table, axis=1)
    score += COVER_WEIGHT * covered * mean_w
    k = int(np.argmax(score))
    return np.array([xs[a[k]], ys[a[k]]]), np.array([ux[k], uy[k]])


def _ray_runs(
    px: np.ndarray,
    py: np.ndarray,
    solid: np.ndarray,
    directions: np.ndarray,
    band: float = 1.5,
    max_gap: int = 2,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For rays from the origin along ``directions`` (k x 2 unit vectors) through the pixels
    (px, py): the length of the unbroken run of pixels along each ray (gaps up to
    ``max_gap`` px bridged) and its cover (1-px steps holding a ``solid`` pixel count 1, steps
    holding only others count ``SHADOW_RAY_WEIGHT``)."""
    max_r = int(np.ceil(np.hypot(px, py).max())) + 2
    t = px[None, :] * directions[:, 0:1] + py[None, :] * directions[:, 1:2]
    n = py[None, :] * directions[:, 0:1] - px[None, :] * directions[:, 1:2]
    inside = (np.abs(n) <= band) & (t >= 0)
    rows, cols = np.nonzero(inside)
    bins = np.floor(t[rows, cols]).astype(int)
    occupied = np.zeros((len(directions), max_r + max_gap + 2), bool)
    occupied[rows, bins] = True
    strong = np.zeros_like(occupied)
    keep = solid[cols]
    strong[rows[keep], bins[keep]] = True
    # the run ends before the first stretch of more than max_gap empty steps
    empty = np.concatenate([np.zeros((len(directions), 1)), np.cumsum(~occupied, axis=1)], 1)
    window = max_gap + 1
    broken = (empty[:, window:] - empty[:, :-window]) >= window
    first_break = np.where(broken.any(axis=1), np.argmax(broken, axis=1), occupied.shape[1])
    index = np.arange(occupied.shape[1])
    in_run = occupied & (index[None, :] < first_break[:, None])
    length = np.where(in_run.any(axis=1), (in_run * (index[None, :] + 1)).max(axis=1), 0)
    cover = (in_run & strong).sum(axis=1) + SHADOW_RAY_WEIGHT * (in_run & ~strong).sum(axis=1)
    far = in_run & (index[None, :] >= (2 * length[:, None]) // 3)
    far_solid = (far & strong).sum(axis=1) / np.maximum(1, far.sum(axis=1))
    return length.astype(np.float64), cover.astype(np.float64), far_solid


@dataclass(frozen=True)
class _TuftReading:
    center: np.ndarray  # the tuft's centre (image px)
    direction: np.ndarray | None  # unit vector from the centre to the point, None if hidden
    reach: float  # how far the body runs out (px), or the tuft's radius if hidden
    # The fitted line is kept, but it does not stick out of the tuft clearly more than the
    # far side does: it may be a wing, and the point anywhere within ``reach`` of its tip.
    keep_line: bool = False


def _symmetry_centre(
    body: np.ndarray, weight: np.ndarray, search: int = SYMMETRY_SEARCH_PX
) -> np.ndarray:
    """The tuft's centre: opposite wings mirror each other through the axis, so the tuft
    seen along the axis is point-symmetric about it. Within ``search`` px of the weighted
    centroid (which the shaft or the point pulls aside, a long barrel by several pixels),
    the pixel centre (half steps) about which most of ``body`` maps onto itself."""
    ys, xs = np.nonzero(body)
    w = weight[ys, xs]
    cx, cy = float((xs * w).sum() / w.sum()), float((ys * w).sum() / w.sum())
    h, wd = body.shape
    best, best_c = -1, np.array([cx, cy])
    # reflection through c: p -> 2c - p; with 2c an integer the image lookup is exact
    # All mirror rows of one column of candidate centres in one lookup (a Python loop over
    # the 17 x 17 centres was the fit's slowest part); the order and the strict ">" keep the
    # first best centre in the same scan order as before.
    sys_ = np.arange(round(2 * cy) - 2 * search, round(2 * cy) + 2 * search + 1)
    ry = sys_[:, None] - ys[None, :]
    ry_ok = (ry >= 0) & (ry < h)
    ry = np.clip(ry, 0, h - 1)
    for sx in range(round(2 * cx) - 2 * search, round(2 * cx) + 2 * search + 1):
        rx = sx - xs
        ok = ry_ok & ((rx >= 0) & (rx < wd))[None, :]
        counts = np.count_nonzero(body[ry, np.clip(rx, 0, wd - 1)[None, :]] & ok, axis=1)
        k = int(np.argmax(counts))
        if int(counts[k]) > best:
            best, best_c = int(counts[k]), np.array([sx / 2, int(sys_[k]) / 2])
    return best_c


def _body_from_tuft(
    mask: np.ndarray,
    body: np.ndarray,
    weight: np.ndarray,
    mm_per_px: float,
    fitted: np.ndarray,
    tail_hint: np.ndarray | None = None,
    lean: Lean | None = None,
) -> _TuftReading | None:
    """A dart seen nearly along its axis: the flights are a cross around the shaft. The wings
    sit in opposite pairs around the axis, so from the tuft's centre every wing has a partner
    on the far side; the body (barrel and point) runs out on one side only. The ray with the
    largest unpaired run is the body, if it beats the ``fitted`` direction (unit, from the
    tuft towards the fitted point) clearly and a dart could stick out of the board so
    (``lean``). A reading
    without a direction: the body is hidden behind the flights. None: keep the fitted line
    (also for a blob that is no cross of wings)."""
    center = _symmetry_centre(body, weight)
    if not _crossed(body, center, fitted):
        # Flights seen along the dart are a cross of wings: they reach across the fitted
        # line about as far as along it. A blob that does not is a line, the dart's own
        # (foreshortened) body with its flights at one end: its symmetry centre falls in its
        # middle, and a ray through a wing there has nothing opposite it, like a body.
        return None
    all_ys, all_xs = np.nonzero(mask)
    angles = np.arange(RAY_DIRECTIONS) * (2 * np.pi / RAY_DIRECTIONS)
    directions = np.column_stack([np.cos(angles), np.sin(angles)])
    reach, cover, far_solid = _ray_runs(
        all_xs - center[0], all_ys - center[1], body[all_ys, all_xs], directions
    )
    excess = cover - np.roll(cover, RAY_DIRECTIONS // 2)
    # the fitted line's own side, allowing for the tuft's centre being a little off it
    near_fitted = directions @ fitted >= np.cos(np.radians(NEAR_DEG)) - 1e-9
    own_best = max(0.0, float(excess[near_fitted].max()))
    # The point lies on the line of its own shadow; the fitted line's end far off that line is
    # a wing, and a ray ending on it needs to beat the fitted line only a little. (The line
    # is looked for only when such a ray comes up: it costs a line fit.)
    radius = float(np.median(reach))
    off_shadow: Callable[[np.ndarray], float] | None = None
    looked = False
    for k in np.argsort(-excess)[:RAY_CANDIDATES]:
        margin = (excess[k] - own_best) * mm_per_px
        if margin <= 0:
            break
        if margin < BODY_EXCESS_MM:
            if not looked:
                looked = True
                off_shadow = _shadow_offset(mask, body, mm_per_px)
                fitted_end = center + fitted * float(reach[near_fitted].max())
                if off_shadow is not None and off_shadow(fitted_end) < radius:
                    off_shadow = None  # the fitted line may end on the shadow's line too
            if off_shadow is None:
                break  # no ray beats the fitted line clearly
            if off_shadow(center + directions[k] * reach[k]) > radius / 2:
                continue
        if near_fitted[k]:
            return None  # the fitted line is the body
        most_lean = MAX_LEAN_DEG
        if tail_hint is not None and float(directions[k] @ tail_hint) > ROOM_SIDE:
            # The point would be on the room side of its own flights: a dart shows so only
            # when it leans further towards the camera than the camera's ray (a nearly
            # frontal view). Then its barrel runs out of the tuft thicker than a wing seen
            # edge-on across from it (such a wing lies in the plane of the dart and the ray,
            # so it shows on the body's line), and a dart can lean so far.
            back = (k + RAY_DIRECTIONS // 2) % RAY_DIRECTIONS
            if (
                lean is None
                or _unpaired_width_mm(
                    (all_xs, all_ys, body[all_ys, all_xs]),
                    center,
                    directions[k],
                    (float(reach[k]), float(reach[back])),
                    mm_per_px,
                )
                < UNPAIRED_BARREL_MM
            ):
                continue
            most_lean = BEYOND_RAY_LEAN_DEG
        if far_solid[k] < FAR_SOLID:
            continue  # ends in shadow-like pixels only: the dart's own shadow
        tip = center + directions[k] * reach[k]
        if lean is None or lean(tip, center) <= most_lean:
            return _TuftReading(center, directions[k], float(reach[k]))
    if own_best * mm_per_px < PAIRED_MM:
        # The fitted line runs out of the tuft as far on both sides: a pair of wings, and
        # no body to be seen. The point is under the tuft.
        return _TuftReading(center, None, float(np.median(reach)))
    if own_best * mm_per_px < BODY_EXCESS_MM:
        # Not a pair of wings, but the line is no clearer a body than a ray must be to beat
        # it: a wing of a cross whose partner is faint, or a flight seen edge-on, looks so.
        return _TuftReading(center, fitted, radius, keep_line=True)
    return None


def _unpaired_width_mm(
    pixels: tuple[np.ndarray, np.ndarray, np.ndarray],
    center: np.ndarray,
    direction: np.ndarray,
    reaches: tuple[float, float],
    mm_per_px: float,
) -> float:
    """How much wider (mm, on average along the run) the solid ones of ``pixels`` (xs, ys,
    solid) within a barrel's width of the ray from ``center`` along ``direction`` are than
    those on the opposite ray; each side counted over its own run (``reaches``, px)."""
    xs, ys, solid = pixels
    along, across = axis_coordinates(xs, ys, center, direction)
    near = solid & (np.abs(across) <= BARREL_MM / 2 / mm_per_px)
    ahead = np.count_nonzero(near & (along >= 0) & (along <= reaches[0]))
    behind = np.count_nonzero(near & (along < 0) & (along >= -reaches[1]))
    return (ahead - behind) / max(reaches[0], 1.0) * mm_per_px


def _shadow_offset(
    mask: np.ndarray, body: np.ndarray, mm_per_px: float
) -> Callable[[np.ndarray], float] | None:
    """The line of the dart's own shadow (the shadow-like part of the blob), if it runs
    straight for a dart's length at least: a function giving a pixel's distance to that line
    (px); else None. The shadow starts at the point, so the point lies on that line."""
    ys, xs = np.nonzero(mask & ~body)
    length = SHADOW_LINE_MM / mm_per_px
    if len(xs) < length:
        return None
    xs_f, ys_f = xs.astype(np.float64), ys.astype(np.float64)
    origin, direction = _ransac_line(xs_f, ys_f, np.ones(len(xs)), band=2.0)
    along, across = axis_coordinates(xs_f, ys_f, origin, direction)
    on = np.abs(across) <= 2.0
    if len(np.unique(np.floor(along[on]))) < length:
        return None

    def offset(p: np.ndarray) -> float:
        return abs(float(-(p[0] - origin[0]) * direction[1] + (p[1] - origin[1]) * direction[0]))

    return offset


def _crossed(body: np.ndarray, center: np.ndarray, line: np.ndarray) -> bool:
    """Whether a blob reaches across the line through ``center`` (unit ``line``) about as
    far as along it, as flights seen along the dart do (their wings cross: two pairs, or
    one pair seen edge-on and the other broad). A lone straight bar symmetric about its
    centre (a barrel piece) is no tuft."""
    ys, xs = np.nonzero(body)
    along, across = axis_coordinates(xs, ys, center, line)
    reach_along = float(np.percentile(np.abs(along), 90))
    return float(np.percentile(np.abs(across), 90)) >= CROSS_RATIO * reach_along


def _refine(
    center: np.ndarray,
    axis: np.ndarray,
    xs: np.ndarray,
    ys: np.ndarray,
    w: np.ndarray,
    t_from: float,
    t_to: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Centres of 1-px slices across the axis between ``t_from`` and ``t_to``, robust
    straight-line fit: the refined (center, axis)."""
    t, n = axis_coordinates(xs, ys, center, axis)
    part = (t >= t_from) & (t < t_to) & (np.abs(n) <= 6.0)
    if np.count_nonzero(part) < 8:
        return center, axis
    bins = np.floor(t[part] - t_from).astype(int)
    mass = np.bincount(bins, weights=w[part])
    moment = np.bincount(bins, weights=w[part] * n[part])
    keep = mass > 0
    slice_t = np.nonzero(keep)[0] + t_from + 0.5
    slice_n = moment[keep] / mass[keep]
    if len(slice_t) < 4:
        return center, axis
    weights = np.sqrt(mass[keep])
    for _ in range(4):
        slope, offset = np.polyfit(slice_t, slice_n, 1, w=weights)
        resid = slice_n - (slope * slice_t + offset)
        scale = max(0.4, 1.4826 * float(np.median(np.abs(resid))))
        weights = np.sqrt(mass[keep]) / (1 + (resid / (2 * scale)) ** 2)
    perp = np.array([-axis[1], axis[0]])
    axis = axis + perp * slope
    return center + perp * offset, axis / np.linalg.norm(axis)


def _weighted_line(
    xs: np.ndarray, ys: np.ndarray, evidence: np.ndarray, threshold: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The pixels (xs, ys) as floats, their weights (their change, capped so that no few
    pixels rule) and the weighted RANSAC line through them (a point on it, its unit axis)."""
    xs_f, ys_f = xs.astype(np.float64), ys.astype(np.float64)
    w = np.minimum(evidence[ys, xs].astype(np.float64), 4 * threshold) + 1e-6
    center, axis = _ransac_line(xs_f, ys_f, w, band=2.0)
    return xs_f, ys_f, w, center, axis


def _end_shadows_point_to(
    shadow_pixels: np.ndarray,
    center: np.ndarray,
    axis: np.ndarray,
    ends: tuple[float, float],
    mm_per_px: float,
) -> int | None:
    """Which end of the line from ``center`` along ``axis`` (0: ``ends[0]``, 1: ``ends[1]``,
    px along the axis) the blob's straight shadow bands point back at, if they all point at
    one: a shadow starts at the point. None when no band is clear, when they disagree, or
    when one crosses the line away from both ends (in its middle half, or further beyond
    an end than ``END_REACH`` of its length): not the dart's own shadow, or not this line's."""
    ys, xs = np.nonzero(shadow_pixels)
    low, high = ends
    length = high - low
    picks = set()
    for s in shadow_crossings(xs, ys, shadow_pixels.shape, center, axis, mm_per_px):
        share = (s - low) / length
        if -END_REACH <= share <= END_SHARE:
            picks.add(0)
        elif 1 - END_SHARE <= share <= 1 + END_REACH:
            picks.add(1)
        else:
            return None
    return picks.pop() if len(picks) == 1 else None


# A shadow band points at an end of the line if it crosses the line within this share of the
# line's length from that end, or at most this much (END_REACH) beyond it: the point may
# be thin and unseen past the blob's end.
END_SHARE = 0.25
END_REACH = 0.5


def fit_tip(
    evidence: np.ndarray,
    mask: np.ndarray,
    threshold: float,
    occluders: np.ndarray | None = None,
    shadow: np.ndarray | None = None,
    tail_hint: np.ndarray | None = None,
    colors: tuple[np.ndarray, np.ndarray] | None = None,
    end_test=None,
    walk_evidence: np.ndarray | None = None,
    mm_per_px: float | None = None,
    lean: Lean | None = None,
    bodies: np.ndarray | None = None,
    point_reach: Callable[[np.ndarray, np.ndarray], float] | None = None,
) -> TipFit | None:
    """Fit the tip of the one dart in ``mask`` (bool) using ``evidence`` (float32: how much
    each pixel changed, as a new object). ``occluders`` marks pixels of earlier objects that
    can hide the point; ``shadow`` pixels that only got darker; ``tail_hint`` the image
    direction in which things sticking out of the board appear; ``colors`` the frame and the
    scene before (BGR), to tell the point from its own shadow where the two meet;
    ``end_test(a, b)`` (pixels) > 0 when end ``a`` is the more plausible point in 3D;
    ``walk_evidence`` a sharper change image for the search along the axis (luminance:
    compressed video keeps colour at half resolution); ``mm_per_px`` the scale on the board
    there (without it, a dart seen along its axis is not looked for); ``lean`` the 3D test
    of a body found from the flights (see ``Lean``); ``bodies`` the part of ``occluders``
    that is not an earlier object's shadow; ``point_reach(a, direction)`` how long (px) the
    longest point can look from ``a`` along the image ``direction``."""
    body = mask
    without = None
    if shadow is not None:
        without = mask & ~shadow
        if np.count_nonzero(without) >= max(30, 0.05 * np.count_nonzero(mask)):
            body = without
    ys, xs = np.nonzero(body)
    if len(xs) < 8:
        return None
    xs_f, ys_f, w, center, axis = _weighted_line(xs, ys, evidence, threshold)
    if body is mask and without is not None and np.count_nonzero(without) >= 30:
        # A low light casts a shadow far bigger than the dart, and the line may follow it.
        # A dart's body is no shadow: a line with its own pixels along little of it is
        # the dart's own shadow, so the line is fitted again on the dart's own pixels.
        t_all, n_all = axis_coordinates(xs_f, ys_f, center, axis)
        near = np.abs(n_all) <= 2.0
        steps = np.unique(np.floor(t_all[near]))
        own = np.unique(np.floor(t_all[near & ~shadow[ys, xs]]))
        if len(own) < SHADOW_LINE_OWN * len(steps):
            body = without
            ys, xs = np.nonzero(body)
            xs_f, ys_f, w, center, axis = _weighted_line(xs, ys, evidence, threshold)
    t, n = axis_coordinates(xs_f, ys_f, center, axis)
    on_line = np.abs(n) <= 8.0
    t_min, t_max = float(t[on_line].min()), float(t[on_line].max())
    length = t_max - t_min
    if length < 6:
        return None
    # Which end is the point? The calibration knows where "out of the board" points; the
    # flights making the tail wide is the fallback.
    q = length / 4
    # the ends' widths from the line's own stretch: pixels past its ends (a shadow or a piece
    # of something else joined to the blob) are not the width of either end
    low = (t >= t_min) & (t < t_min + q)
    high = (t > t_max - q) & (t <= t_max)
    width_low = float(np.percentile(np.abs(n[low]), 90)) if low.any() else 0.0
    width_high = float(np.percentile(np.abs(n[high]), 90)) if high.any() else 0.0
    flip = width_high < width_low
    margin = 0.0 if end_test is None else end_test(center + axis * t_min, center + axis * t_max)
    if abs(margin) > 8.0:  # degrees: a clear 3D verdict beats the image cues
        flip = margin < 0
    elif (
        shadow is not None
        and mm_per_px is not None
        and (
            shadows_at := _end_shadows_point_to(
                mask & shadow, center, axis, (t_min, t_max), mm_per_px
            )
        )
        is not None
    ):
        # Where the 3D test says little (a camera nearly square on, a dart leaning sideways),
        # the dart's shadows still point back at its point; the widths may mislead there
        # (a shadow joined at the point widens that end).
        flip = shadows_at == 1
    elif (
        (abs(width_high - width_low) <= WIDTH_READ_PX or end_test is None)
        and tail_hint is not None
        and abs(float(axis @ tail_hint)) > 0.3
    ):
        # Widths read alike to within a pixel tell nothing: the direction out of the board
        # (a cruder reading of the same calibration as the 3D test) decides, if it is clear.
        # It does not overrule a clear width: an unclear 3D verdict means the dart leans
        # sideways, where that direction says little (it flipped a dart with plain flights).
        flip = float(axis @ tail_hint) < 0
    if flip:
        axis, t, n = -axis, -t, -n
        t_min, t_max = -t_max, -t_min

    doubt = 0.0  # how far from the tip the point may be (a line that may be a wing)
    if mm_per_px is not None and length * mm_per_px < LOOK_TUFT_MM:
        # As short as a flight tuft: the line may be a pair of wings of a dart seen nearly
        # along its axis. Look for the body from the tuft's centre.
        weight = np.minimum(evidence, 4 * threshold) + 1e-6
        tuft = _body_from_tuft(mask, body, weight, mm_per_px, -axis, tail_hint, lean)
        if tuft is not None and tuft.keep_line:
            doubt, tuft = tuft.reach, None
        if length * mm_per_px >= TUFT_MM and tuft is not None and tuft.direction is None:
            # A line longer than a tuft on the board may still be one (flights stand out
            # towards the camera and look bigger), but then only a body seen running out of
            # it says so: without one, the line is the dart's own.
            tuft = None
        if tuft is not None and tuft.direction is None:
            return _hidden_body_fit(tuft, tail_hint, length)
        if tuft is not None:
            return _fit_along(
                tuft.center,
                -tuft.direction,
                tuft.reach,
                mask,
                weight,
                length,
                (
                    evidence if walk_evidence is None else walk_evidence,
                    threshold,
                    occluders,
                    colors,
                    bodies,
                ),
                shadow,
            )

    # Refine: centres of 1-px slices across the narrow half, robust straight-line fit.
    center, axis = _refine(center, axis, xs_f, ys_f, w, t_min, t_min + length * 0.55)
    t, n = axis_coordinates(xs_f, ys_f, center, axis)
    # Where the blob ends towards the point. Shadow-like pixels bridge a hole in the dart
    # (a grey barrel on a light board passes for a shadow) but do not extend it (the dart's
    # own shadow on its line).
    all_ys, all_xs = np.nonzero(mask)
    all_t, all_n = axis_coordinates(all_xs, all_ys, center, axis)
    near_all = np.abs(all_n) <= 2.0
    near_axis = np.abs(n) <= 2.0
    if near_axis.any():
        faint = None
        if near_all.any():
            # change much weaker than the dart's own on its line: a soft shadow, not a grey
            # part of the dart that passed for one
            strength = float(np.median(evidence[ys[near_axis], xs[near_axis]]))
            faint = evidence[all_ys[near_all], all_xs[near_all]] < 0.5 * strength
        t_end = _run_end(t[near_axis], all_t[near_all] if near_all.any() else None, faint=faint)
    else:
        t_end = float(t.min())
    width = float(np.percentile(np.abs(n), 75)) * 2

    tip_s, level, hidden = _walk(
        evidence if walk_evidence is None else walk_evidence,
        center,
        axis,
        t_end,
        threshold,
        occluders,
        colors,
        bodies,
        longest_point=None if point_reach is None else point_reach(center + axis * t_end, -axis),
    )
    if level > 0 and hidden == 0 and shadow is not None:
        tip_s = _shadow_apex(
            evidence if walk_evidence is None else walk_evidence,
            shadow,
            center,
            axis,
            tip_s,
            threshold,
        )
    occluded = hidden > 0
    point_seen = level > 0
    tip = center + axis * tip_s
    contrast = level / threshold
    quality = float(np.clip((contrast - 0.5) / 2.5, 0.0, 1.0)) * (0.3 if occluded else 1.0)
    return TipFit(
        tip=(float(tip[0]), float(tip[1])),
        axis=(float(axis[0]), float(axis[1])),
        length_px=t_max - t_min,
        width_px=width,
        contrast=contrast,
        occluded=occluded,
        quality=quality,
        hidden_px=hidden,
        point_seen=point_seen,
        spread_px=doubt,
    )


def _hidden_body_fit(tuft: _TuftReading, tail_hint: np.ndarray | None, length: float) -> TipFit:
    """The body is hidden behind its flights: the point enters the board somewhere under the
    tuft, most likely near its centre; say how uncertain that is. A body hidden straight
    behind the tuft leaves the point within half its radius of the centre, but a body merely
    unseen (a dark barrel on a dark segment) leaves it about a tuft's radius off: the spread
    is the radius, so that the zone is asked near lines rather than read off a wing."""
    axis = tail_hint if tail_hint is not None and np.linalg.norm(tail_hint) > 0 else (1.0, 0.0)
    return TipFit(
        tip=(float(tuft.center[0]), float(tuft.center[1])),
        axis=(float(axis[0]), float(axis[1])),
        length_px=length,
        width_px=2 * tuft.reach,
        contrast=0.0,
        occluded=False,
        quality=0.0,
        point_seen=True,
        spread_px=tuft.reach,
    )


def _fit_along(
    center: np.ndarray,
    axis: np.ndarray,
    reach: float,
    mask: np.ndarray,
    weight: np.ndarray,
    length: float,
    walk: tuple,
    shadow: np.ndarray | None = None,
) -> TipFit:
    """The tip of a body that runs ``reach`` px from the tuft's ``center`` against ``axis``
    (unit, from the tip towards the flights): refine the line through the body's slices,
    find where the run of changed pixels ends, and search along it past that end. Its own
    shadow leaving the point at an angle is read as for any dart (``_shadow_apex``)."""
    evidence, threshold, occluders, colors, bodies = walk
    ys, xs = np.nonzero(mask)
    xs_f, ys_f = xs.astype(np.float64), ys.astype(np.float64)
    center, axis = _refine(center, axis, xs_f, ys_f, weight[ys, xs], -reach, 0.0)
    run, _, _ = _ray_runs(
        xs_f - center[0], ys_f - center[1], np.ones(len(xs), bool), -axis[None, :]
    )
    t_end = -float(run[0])
    t, n = axis_coordinates(xs_f, ys_f, center, axis)
    # The body's own width, on the half of its run away from the tuft and near its line:
    # wings and the dart's shadow around the tuft's centre are no part of it (they made a
    # long body look like a broad blob, and widened the band that merges pieces on its line).
    on_body = (t >= t_end) & (t <= t_end / 2) & (np.abs(n) <= BODY_BAND_PX)
    width = float(np.percentile(np.abs(n[on_body]), 75)) * 2 if on_body.any() else 0.0
    tip_s, level, hidden = _walk(
        evidence, center, axis, t_end, threshold, occluders, colors, bodies
    )
    if level > 0 and hidden == 0 and shadow is not None:
        tip_s = _shadow_apex(evidence, shadow, center, axis, tip_s, threshold)
    occluded = hidden > 0
    contrast = level / threshold
    quality = float(np.clip((contrast - 0.5) / 2.5, 0.0, 1.0)) * (0.3 if occluded else 1.0)
    tip = center + axis * tip_s
    return TipFit(
        tip=(float(tip[0]), float(tip[1])),
        axis=(float(axis[0]), float(axis[1])),
        length_px=max(length, -t_end),
        width_px=width,
        contrast=contrast,
        occluded=occluded,
        quality=quality,
        hidden_px=hidden,
        point_seen=level > 0,
    )


def _run_end(
    t: np.ndarray,
    bridge: np.ndarray | None = None,
    max_gap: float = 3.0,
    faint: np.ndarray | None = None,
) -> float:
    """Lowest t of the run of on-axis body pixels that holds the middle of the dart: pieces
    further along the line (a shadow, another object) after a gap are not the point. Where
    ``bridge`` pixels (any change) fill a gap and body pixels follow, the run goes on.
    ``faint`` marks the bridge pixels whose change is far weaker than the dart's (a soft
    shadow): past more than ``max_gap`` steps of those, a body pixel alone (a speck of noise
    in the shadow) does not carry the run on; two steps in a row do."""
    lo = float(min(t.min(), bridge.min() if bridge is not None else t.min()))
    size = int(np.floor(max(t.max(), bridge.max() if bridge is not None else t.max()) - lo)) + 1
    body = np.bincount(np.floor(t - lo).astype(int), minlength=size)
    filled = (
        np.bincount(np.floor(bridge - lo).astype(int), minlength=size)
        if bridge is not None
        else body
    )
    strong = filled
    if bridge is not None and faint is not None:
        strong = np.bincount(np.floor(bridge[~faint] - lo).astype(int), minlength=size)
    i = int(np.floor(float(np.median(t)) - lo))
    gap = 0
    end = i
    shadowed = 0  # steps of nothing or of faint change only since the run's end
    while i > 0:
        i -= 1
        if body[i] > 0 and (shadowed <= max_gap or (i > 0 and body[i - 1] > 0)):
            end, gap, shadowed = i, 0, 0
            continue
        if body[i] == 0 and strong[i] == 0:
            shadowed += 1
        if filled[i] == 0:
            gap += 1
            if gap > max_gap:
                break
    return lo + end


def _walk(
    evidence: np.ndarray,
    center: np.ndarray,
    axis: np.ndarray,
    t_end: float,
    threshold: float,
    occluders: np.ndarray | None,
    colors: tuple[np.ndarray, np.ndarray] | None = None,
    bodies: np.ndarray | None = None,
    reach: float = WALK_REACH_PX,
    longest_point: float | None = None,
) -> tuple[float, float, float]:
    """Matched filter along the axis, outwards from inside the blob: (tip s, level, length of
    the stretch hidden behind an earlier object, 0 if none). ``occluders``: earlier objects and
    their shadows; ``bodies``: the part of them that is not shadow-like. The search runs
    ``reach`` px past the blob's end; if the dart's change still goes on there (the blob
    ended inside the barrel: a piece of it was cut off), it is made again twice as far.
    ``longest_point``: how long (px) the longest point can look from the blob's end."""
    step = 0.25
    s = np.arange(t_end + 10.0, t_end - reach, -step)
    perp = np.array([-axis[1], axis[0]])
    # Every sample lies within RIDGE_SPAN_PX of the axis between the walk's two ends: only
    # that window of the images is read (and converted to float), not the whole region.
    ends = np.array([s[0], s[-1], s[0], s[-1]])
    sides = np.array([-1.0, -1.0, 1.0, 1.0]) * RIDGE_SPAN_PX
    x0, y0, x1, y1 = _window(
        evidence.shape,
        center[0] + axis[0] * ends + perp[0] * sides,
        center[1] + axis[1] * ends + perp[1] * sides,
    )
    origin = (x0, y0)

    def cut(image: np.ndarray) -> np.ndarray:
        return image[y0:y1, x0:x1]

    def beside(offsets: np.ndarray, image: np.ndarray) -> np.ndarray:
        """``image`` (a ``cut``) on the lines ``offsets`` px beside the axis (one row each)."""
        xs = center[0] + axis[0] * s[None, :] + perp[0] * offsets[:, None]
        ys = center[1] + axis[1] * s[None, :] + perp[1] * offsets[:, None]
        return _remap(image, xs, ys, cv2.BORDER_REPLICATE, origin)

    full_evidence = evidence
    # The change on every line the walk and the ridge's track (``_kink``) read, in one go.
    lines = beside(RIDGE_OFFSETS, cut(evidence))

    def along(offset: float) -> np.ndarray:
        """The change on the line ``offset`` px beside the axis (a multiple of a half)."""
        return lines[round((offset - RIDGE_OFFSETS[0]) / RIDGE_SPACING_PX)]

    # 1 px along the axis, centred (an even-length box would shift the signal by half a step)
    kernel = np.array([0.5, 1.0, 1.0, 1.0, 0.5], np.float32) / 4
    on = np.maximum.reduce([along(o) for o in (-0.5, 0.0, 0.5)])
    on = np.convolve(on, kernel, mode="same")
    side_a = np.convolve((along(3.5) + along(4.5)) / 2, kernel, mode="same")
    side_b = np.convolve((along(-3.5) + along(-4.5)) / 2, kernel, mode="same")
    # To follow the point, the board beside it on the cleaner side: the point may run along
    # something on one side (its own shadow, an earlier dart).
    signal = on - np.minimum(side_a, side_b)
    # To place its end, both sides: a shadow leaving the tip sideways lights up one side
    # just past the point, and the cleaner side alone would let the level run on into it.
    balanced = on - (side_a + side_b) / 2
    across = np.array([-1.0, 0.0, 1.0])
    blocked = (
        beside(across, cut(occluders).astype(np.float32)).max(axis=0) > 0.5
        if occluders is not None
        else np.zeros(len(s), bool)
    )
    # Pixels of earlier objects that may stand in front of the point (not their shadows).
    solid = (
        beside(across, cut(bodies).astype(np.float32)).max(axis=0) > 0.5
        if bodies is not None
        else blocked
    )
    tau = 0.5 * threshold
    significant = signal >= tau
    shadowy = np.zeros(len(s), bool)
    if colors is not None:
        # Colour on the axis, now and before: a shadow keeps the board's colour, darker.
        axis_only = np.zeros(1)

        def colour(image: np.ndarray) -> np.ndarray:
            window = cut(image)
            channels = [beside(axis_only, window[..., c].astype(np.float32))[0] for c in range(3)]
            return np.stack(channels, 1)

        now, was = colour(colors[0]), colour(colors[1])
        n_now = np.linalg.norm(now, axis=1) + 1e-3
        n_was = np.linalg.norm(was, axis=1) + 1e-3
        cos = np.clip((now * was).sum(axis=1) / (n_now * n_was), -1.0, 1.0)
        ratio = n_now / n_was
        shadowy = (
            (ratio < 0.97) & (ratio > 0.3) & (np.sqrt(1 - cos * cos) < 0.04 + threshold / n_now)
        )
    # Change 2.5 px (about 2.5 mm) beside the axis: inside a barrel, clear of a point.
    near = np.maximum(
        np.convolve(along(2.5), kernel, mode="same"),
        np.convolve(along(-2.5), kernel, mode="same"),
    )
    start = round(6.0 / step)  # 4 px inside the blob's end (the mask is a bit fat)
    first = next((i for i in range(start, min(len(s), start + 32)) if significant[i]), None)
    if first is None:
        return t_end, 0.0, 0.0  # no point seen past the blob: level 0 says so
    end, i, gap, occluded = first, first, 0, False
    # the tip is placed no further out than where the ridge of change bends off the axis
    profile = _ridge_profile(lines, kernel)
    bend = _kink(profile, start, step, threshold)
    stop = len(s) - 1 if bend is None else max(bend, first)
    hidden = 0.0
    limit = len(s) - 1
    # Past the picture's (or the region's) edge there is nothing to see: the sampler would
    # repeat the edge pixels, and the walk would read them as a point going on.
    h, w = full_evidence.shape[:2]
    xs, ys = center[0] + axis[0] * s, center[1] + axis[1] * s
    outside = np.flatnonzero((xs < 0) | (xs > w - 1) | (ys < 0) | (ys > h - 1))
    at_edge = outside.size > 0 and outside[0] - 1 < limit
    if at_edge:
        limit = max(first, int(outside[0]) - 1)
    # where the point may end on its own shadow's line (see _point_ends_here), if asked
    may_end = None
    clear = significant & ~blocked  # change that is not over an earlier object
    while i < limit:
        i += 1
        if clear[i]:
            if i >= stop:
                # the change leaves the axis sideways: the dart's own shadow, which starts
                # at the point and runs off at an angle; the point ended just before
                break
            ahead = i + int(1.5 / step)
            if colors is not None and _shadow_after_point(
                shadowy, clear, was, (on, near), first, i, step, threshold
            ):
                # The axis turns shadow-like after a point that was not, over the same
                # board: the point's own shadow starts where the point ends.
                stop = min(stop, i)
                break
            if colors is not None and i - first > 14 and ahead <= limit and shadowy[i:ahead].all():
                # The point ends where its own shadow starts on the same line: the colour
                # jumps from the point's to the darkened board's, the change gets weaker,
                # and stays so.
                # The four tests are made one after the other and only while they hold (the
                # walk may cross many shadow-like samples: testing all four at each was the
                # walk's main cost); each is the same sum as before, so the same verdict.
                if may_end is None:
                    may_end = _steady(now, ahead - i, threshold) & _may_end_here(
                        now, on, near, ahead - i, threshold
                    )
                if may_end[i] and _point_ends_here(now, on, near, i, ahead, threshold):
                    break
            end, gap = i, 0
            continue
        if blocked[i]:
            # Change over an earlier object may be this dart in front of it, or only its
            # shadow falling on it: trust only what comes out on the far side.
            # An earlier dart lies across the axis: the point may continue behind it.
            j = i
            while j < limit and blocked[j]:
                j += 1
            resume = next(
                (k for k in range(j, min(limit, j + 8)) if significant[k] and not blocked[k]),
                None,
            )
            front = _ends_in_front(significant, i, j, step)
            if resume is None and front is not None and not solid[front:j].any():
                # The point's change goes on over an earlier object's shadow (which lies on
                # the board and cannot hide it) and stops there: the point ends there.
                end = front
                break
            if resume is None:
                occluded = True
                hidden = (j - i) * step
                break
            i, end, gap = resume, resume, 0
            continue
        gap += 1
        # a gap up to 4 px is bridged only where the barrel meets the point (sides still
        # bright); elsewhere 2 px of nothing ends the point
        if gap * step >= (4.0 if i - gap < first + int(6 / step) else 2.0):
            break
    if end >= limit - 1 and not at_edge and reach < MAX_WALK_REACH_PX:
        return _walk(
            full_evidence,
            center,
            axis,
            t_end,
            threshold,
            occluders,
            colors,
            bodies,
            2 * reach,
            longest_point,
        )
    past = slice(int(np.argmax(s <= t_end)), end + 1)  # from the blob's end on
    if (
        longest_point is not None
        and not occluded
        and t_end - s[end] > longest_point
        and float(shadowy[past].mean()) > SHADOW_ALONG
    ):
        # Longer past the blob than any point can look, and mostly only darker in the board's
        # colour: the dart's own shadow on its line. The point ended inside the blob.
        return t_end, 0.0, 0.0
    # The brightness on the axis now and of the board under it before: the point is opaque,
    # so where the board under its end changes colour its change to the board changes too.
    lumas = None
    if colors is not None:
        lumas = (
            np.convolve(now @ LUMA_BGR, kernel, mode="same"),
            np.convolve(was @ LUMA_BGR, kernel, mode="same"),
        )
    if lumas is not None and not occluded:
        end = _before_weak_tail(signal, on, near, was, first, end, step, threshold)
        end = _before_darkening(lumas, first, end, step, tau)
        waist = _before_widening(profile, lumas, first, end, step, tau)
        if waist is not None:
            end = waist
            stop = min(stop, waist + round(1.0 / step))
    # The point's level: the strongest signal just inside the end (the edge of a bright
    # point blurs outwards, so the run's last pixels are weaker than the point itself).
    lo = max(0, end - int(4 / step))
    level = float(signal[lo + int(np.argmax(signal[lo : end + 1]))])
    # placed on the balanced signal unless the point is only seen against one side
    placed = balanced if float(balanced[lo : end + 1].max()) >= tau else signal
    tip_s = _half_level(
        placed,
        s,
        lo,
        end,
        step,
        on - placed,
        stop,
        noise=tau,
        lumas=lumas,
        # where the point goes on behind an earlier object, its change ends there, not the tip
        calm=None if occluded else signal,
    )
    if occluded:
        # The point goes on behind an earlier dart and does not come out: it enters the
        # board somewhere behind it; the middle of the hidden stretch is the best guess.
        tip_s -= hidden / 2
    return tip_s, level, hidden if occluded else 0.0


def _before_weak_tail(
    signal: np.ndarray,
    on: np.ndarray,
    near: np.ndarray,
    was: np.ndarray,
    first: int,
    end: int,
    step: float,
    threshold: float,
) -> int:
    """The walk's ``end``, or the last sample of the point before a weak tail.

    The point is a thin body of constant or tapering width: over one board colour its change
    (how much of each pixel it covers, times its contrast with the board) does not drop to a
    small part of its own level and then run on for pixels; its tapered end fades within
    about a pixel. A long faint run after a clear point over the same board is something
    else (the soft shadow under the point). The point's level is read where it is thin (no
    change beside it, unlike the wider barrel, which is stronger than the point)."""
    window = round(TAIL_LEVEL_PX / step)
    thin = runs_at_least(near < 0.5 * on, round(THIN_RUN_PX / step))
    strongest = signal[first : end + 1][thin[first : end + 1]]
    if strongest.size == 0:
        return end
    # no point level further in exceeds the strongest: past that, no tail can start
    stop = TAIL_FRACTION * float(strongest.max())
    best = end
    tail_max = -np.inf
    for k in range(end, first, -1):
        tail_max = max(tail_max, float(signal[k]))
        if tail_max >= stop:
            break
        lo = max(first, k - window)
        point = signal[lo:k][thin[lo:k]]
        if point.size == 0:
            continue
        level = float(point.max())
        if tail_max >= TAIL_FRACTION * level or level < 2 * threshold:
            continue
        if (end - k + 1) * step < TAIL_PX:
            continue
        # the same board under the tail and under the point: its contrast is the same there
        if np.abs(was[k : end + 1].mean(axis=0) - was[lo:k].mean(axis=0)).max() > threshold:
            continue
        best = k - 1
    return best


def _ridge_profile(lines: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """The change across the axis at every sample (samples x ``RIDGE_OFFSETS``) from
    ``lines`` (one row per offset), smoothed along the axis by ``kernel`` as the walk's own
    signals are: what ``_kink`` tracks the ridge on and ``_widths`` reads widths from."""
    return np.stack([np.convolve(row, kernel, mode="same") for row in lines], 1)


def _widths(prof: np.ndarray, tau: float) -> np.ndarray:
    """Width (px) of the change across the axis at every sample of ``prof``
    (``_ridge_profile``): the run of offsets around the ridge (its peak within a pixel and a
    half of the axis) above half the ridge's level; nan where the ridge is no clear change
    (``tau``)."""
    middle = len(RIDGE_OFFSETS) // 2
    reach = round(1.5 / RIDGE_SPACING_PX)
    core = prof[:, middle - reach : middle + reach + 1]
    peak = middle - reach + np.argmax(core, axis=1)
    level = prof[np.arange(len(prof)), peak]
    above = prof >= 0.5 * level[:, None]
    widths = np.full(len(prof), np.nan)
    for i in np.flatnonzero(level >= tau):
        row = above[i]
        lo = hi = int(peak[i])
        while lo > 0 and row[lo - 1]:
            lo -= 1
        while hi < len(row) - 1 and row[hi + 1]:
            hi += 1
        widths[i] = (hi - lo + 1) * RIDGE_SPACING_PX
    return widths


def _before_widening(
    prof: np.ndarray,
    lumas: tuple[np.ndarray, np.ndarray],
    first: int,
    end: int,
    step: float,
    tau: float,
) -> int | None:
    """The last sample of the point before a line of darkening that widens outwards, or None.

    The point is a rigid taper: seen from any side, it gets no wider towards its tip. Its
    shadow starts at the tip as narrow as the tip and widens with distance from it (the
    penumbra grows with the height above the board of the part of the dart that casts it).
    So the dark line along the axis has a waist at the tip. Where, past the narrowest
    stretch, the line only darkens the board (a shadow) and widens by clearly more than the
    widths read along the point scatter, the point ends at the waist. ``prof``: the change
    across the axis (``_ridge_profile``)."""
    widths = _widths(prof, tau)
    now, board = lumas
    span = round(TAIL_PX / step)
    run = round(2 * TAIL_PX / step)
    if end - first < span + run:
        return None
    seg = widths[first : end + 1]
    if np.isnan(seg).mean() > 0.2:
        return None  # the line is broken up: no width profile to read a waist from
    under = board[first : end + 1]
    dark = (now - board)[first : end + 1] <= -tau
    # The cheap tests of what lies past a sample first, from counts of the rest of the line
    # (the width tests take medians, and this runs for every sample of every walk).
    unread_after = _counts_after(np.isnan(seg))
    dark_after = _counts_after(dark)
    for c in range(span, len(seg) - run):
        rest = len(seg) - c - 1
        if unread_after[c] / rest > SHADOW_AFTER_OTHER:
            continue
        if dark_after[c] / rest < 1 - SHADOW_AFTER_OTHER:
            continue
        point = seg[c - span + 1 : c + 1]
        if np.isnan(point).all():
            continue
        # Not where the board under the line changes (by a clear change, twice ``tau``):
        # there the contrast and the width of the point's change change too.
        if np.abs(under[c - span + 1 : c + run + 1] - under[c]).max() > 2 * tau:
            continue
        waist = float(np.nanmedian(point))
        # the scatter of the widths is never below the reading's resolution, and a wider
        # scatter only makes a widening harder to see: test with the least one first
        if not _widening(seg[c + 1 :], waist, WIDTH_READ_PX, step):
            continue
        gap = _width_noise(seg[: c + 1])
        if not _widening(seg[c + 1 :], waist, gap, step):
            continue
        # the last samples as narrow as the point are still the point (or its sharp end)
        while c + 1 < len(seg) and not seg[c + 1] >= waist + gap / 2:
            c += 1
        return first + c
    return None


def _counts_after(flags: np.ndarray) -> np.ndarray:
    """For every index i: how many of ``flags[i + 1 :]`` are set."""
    total = np.cumsum(flags[::-1])[::-1]
    return np.append(total[1:], 0)


def _widening(widths: np.ndarray, waist: float, gap: float, step: float) -> bool:
    """Whether a line past a waist of width ``waist`` is a shadow cast along the dart's line:
    wider than the waist all along (by more than the widths read scatter, ``gap``), widening
    on away from the tip (a band of constant width is rather the point with its shadow
    alongside it), and running along the axis for more than twice its own width (where a
    shadow leaves the tip at an angle, the change of the two together widens only over
    about the shadow's width before the walk loses it; see ``_kink``)."""
    ok = ~np.isnan(widths)
    if (widths[ok] >= waist + gap).mean() < 1 - SHADOW_AFTER_OTHER:
        return False
    third = max(1, len(widths) // 3)
    if not np.nanmedian(widths[-third:]) >= np.nanmedian(widths[:third]) + gap:
        return False
    return len(widths) * step > 2 * float(np.nanmedian(widths))


def _width_noise(widths: np.ndarray) -> float:
    """How far widths read along one body scatter (px): three robust sigmas of the readings,
    and never less than the reading's own resolution (``WIDTH_READ_PX``)."""
    ok = widths[~np.isnan(widths)]
    if ok.size < 2:
        return 2 * WIDTH_READ_PX
    return max(WIDTH_READ_PX, 3 * robust_sigma(ok))


def _before_darkening(
    lumas: tuple[np.ndarray, np.ndarray], first: int, end: int, step: float, tau: float
) -> int:
    """The walk's ``end``, or the last sample of a point brighter than the board under it
    before a run that darkens the board.

    The point is opaque: a sample it covers, wholly or in part, shows its brightness or a mix
    of it and the board's, so a point brighter than the board brightens every sample it
    covers. A shadow only darkens. Where the brightness on the axis turns from clearly
    brighter than the board before (``tau``: clear change) to clearly darker, where the point
    would still be clearly brighter than that board, and stays darker for longer than a
    point's tapered end and its blur, the point has ended: what goes on is its shadow."""
    now, board = lumas
    change = now - board
    span = round(TAIL_PX / step)  # the point before, the shadow after: each this long
    blur = round(1.0 / step)  # the blurred edge between the two
    run = round(2 * TAIL_PX / step)  # the darkening lasts this long at least
    for i in range(max(first, span + blur), min(end + 1, len(change) - run + 1)):
        if change[i] > -tau or not (change[i - blur - span : i - blur] >= tau).all():
            continue
        if not (change[i : i + span] <= -tau).all() or not (change[i : i + run] < 0).all():
            continue
        point = float(np.median(now[i - blur - span : i - blur]))
        if not (point - board[i : i + span] >= tau).all():
            continue  # the board got as bright as the point: it may still be there
        j = i
        while change[j] <= 0:
            j -= 1
        return min(end, j)
    return end


def runs_at_least(flags: np.ndarray, length: int) -> np.ndarray:
    """``flags`` kept only in runs of at least ``length`` True samples in a row."""
    out = np.zeros(len(flags), bool)
    edges = np.diff(np.concatenate([[0], flags.astype(np.int8), [0]]))
    for a, b in zip(np.flatnonzero(edges == 1), np.flatnonzero(edges == -1), strict=True):
        if b - a >= length:
            out[a:b] = True
    return out


def _shadow_after_point(
    shadowy: np.ndarray,
    change: np.ndarray,
    was: np.ndarray,
    widths: tuple[np.ndarray, np.ndarray],
    first: int,
    i: int,
    step: float,
    threshold: float,
) -> bool:
    """Whether the samples on the axis turn shadow-like at ``i`` and stay so as long as the
    change along the axis goes on (``change``: clear change, nothing earlier in the way),
    after a point that was clearly not shadow-like, over the same board (``was``: its
    colour before). An opaque point keeps its own colour over one board colour, so its
    change stays no shadow while the board under it is the same, and its tapered end fades
    within ``TAIL_PX``. A darkening of the board's own
    colour that starts there and is all that goes on along the line is the point's
    shadow, which starts at the tip."""
    span = round(TAIL_PX / step)
    if i - span < first or i + span > len(shadowy):
        return False
    if shadowy[i - span : i].any() or not shadowy[i : i + span].all():
        return False
    board_change = np.abs(was[i : i + span].mean(axis=0) - was[i - span : i].mean(axis=0))
    if board_change.max() > threshold:
        return False
    # What ends there is the thin point (no change beside it 1.5-3.5 px back, clear of the
    # shadow's own start), not the wider barrel: a grey point that passes for a shadow may
    # follow a barrel that does not.
    on, near = widths
    back = slice(i - round(3.5 / step), i - round(1.5 / step))
    if i < round(3.5 / step) or not float(near[back].mean()) < 0.5 * float(on[back].mean()):
        return False
    # A point that passes for a shadow anywhere along its thin part (a pixel or more of it)
    # may do so at its end as well: only a point that never did is told from its shadow.
    thin = near[first : i - span] < 0.5 * on[first : i - span]
    if runs_at_least(shadowy[first : i - span] & thin, round(1.0 / step)).any():
        return False
    # the rest of the change along the line, up to a gap of a pixel, is shadow-like too, and
    # runs on further than a point's tapered end and its blur
    k, gap, seen, other = i, 0, 0, 0
    while k < len(change) and gap * step <= 1.0:
        if change[k]:
            gap = 0
            seen += 1
            other += 0 if shadowy[k] else 1
        else:
            gap += 1
        k += 1
    return seen * step >= 2 * TAIL_PX and other <= SHADOW_AFTER_OTHER * seen


def _steady(now: np.ndarray, span: int, threshold: float) -> np.ndarray:
    """For each sample i: whether the colour ``now`` (samples x 3) at i..i+span-1 stays within
    ``threshold`` of its value at i (False where fewer than ``span`` samples are left). All
    samples at once: the walk tests it at many samples along a shadow."""
    out = np.zeros(len(now), bool)
    if len(now) < span:
        return out
    windows = np.lib.stride_tricks.sliding_window_view(now, span, axis=0)  # (m, 3, span)
    moved = np.linalg.norm(windows - now[: len(windows), :, None], axis=1)
    out[: len(windows)] = moved.max(axis=1) < threshold
    return out


def _may_end_here(
    now: np.ndarray, on: np.ndarray, near: np.ndarray, span: int, threshold: float
) -> np.ndarray:
    """The samples i where ``_point_ends_here(now, on, near, i, i + span, threshold)`` may
    hold, all at once: its three tests on sums taken another way (running sums in double
    precision), each let through with a margin far above the rounding of either way. A
    superset: the walk makes the exact test only there (it may cross hundreds of samples
    of a shadow's colour, and testing each was the walk's main cost)."""
    n = len(on)
    out = np.zeros(n, bool)
    i = np.arange(14, n - span + 1)
    if i.size == 0:
        return out

    def window_mean(values: np.ndarray) -> np.ndarray:
        """Mean over i-14 .. i-7 (the point 1.5-3.5 px back) for every i."""
        total = np.concatenate([np.zeros((1, *values.shape[1:])), np.cumsum(values, axis=0)])
        return (total[i - 6] - total[i - 14]) / 8.0

    def loose(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """a > b, or nearly: within a thousandth of their size."""
        return a > b - 1e-3 * (np.abs(a) + np.abs(b) + 1.0)

    now64, on64, near64 = now.astype(np.float64), on.astype(np.float64), near.astype(np.float64)
    recent = window_mean(now64)
    jump = np.sqrt(((now64[i] - recent) ** 2).sum(axis=1))
    back = window_mean(on64)
    ahead_max = np.lib.stride_tricks.sliding_window_view(on64, span)[i].max(axis=1)
    out[i] = (
        loose(jump, np.full(i.size, 3 * threshold))
        & loose(0.6 * back, ahead_max)
        & loose(0.5 * back, window_mean(near64))
    )
    return out


def _point_ends_here(
    now: np.ndarray, on: np.ndarray, near: np.ndarray, i: int, ahead: int, threshold: float
) -> bool:
    """At a steady shadow-coloured stretch from sample ``i``: whether the point ends there
    (see ``_walk``): its colour jumps, its change gets weaker, and what ends is thin."""
    # the point's colour 1.5-3.5 px back, clear of the blurred edge
    recent = now[i - 14 : i - 6].mean(axis=0)
    if not np.linalg.norm(now[i] - recent) > 3 * threshold:
        return False
    back = on[i - 14 : i - 6].mean()
    if not on[i:ahead].max() < 0.6 * back:
        return False
    # what it ends is the thin point, not the barrel (a grey point on a grey board looks like
    # a shadow where it leaves the barrel): thin all along those 2 px (THIN_RUN_PX), not
    # only on average (the barrel's tapered front is thin for a pixel or so)
    return bool(near[i - 14 : i - 6].max() < 0.5 * back)


def _kink(
    prof: np.ndarray,
    start: int,
    step: float,
    strong: float,
) -> int | None:
    """The sample where the ridge of change along the axis bends off sideways, or None.

    A point is a thin straight body: its change is a ridge along the dart's line. Its shadow
    on the board starts at the tip and runs off along the light's direction, at an angle to
    the dart's line in the image; where it leaves the tip on the far side, the walk follows a
    ridge that bends away from the point's line (the two lines meet at the tip). The ridge is
    tracked from ``start`` (inside the dart's end, where it is surely the dart) while it is
    near the axis; a line that bends once is fitted to its track where it is ``strong``, and
    the bend is kept only if the bent part runs off to one side for a few pixels and nothing
    lay on that side before it. ``prof``: the change across the axis (``_ridge_profile``)."""
    spacing = RIDGE_SPACING_PX
    offsets = RIDGE_OFFSETS
    n, m = prof.shape
    ridge = np.full(n, np.nan)
    level = np.zeros(n)
    rows = prof.tolist()  # the track is sequential: plain lists are quicker per sample
    values = offsets.tolist()
    first = values[0]
    half = round(1.0 / spacing)
    r = 0.0
    track: list[float] = []
    levels: list[float] = []
    for i in range(start, n):
        row = rows[i]
        # the strongest sample within the window around the last ridge position
        lo_k = max(0, math.ceil((r - RIDGE_WINDOW_PX - first) / spacing - 1e-9))
        hi_k = min(m, math.floor((r + RIDGE_WINDOW_PX - first) / spacing + 1e-9) + 1)
        k = max(range(lo_k, hi_k), key=row.__getitem__)
        if row[k] <= 0:
            break
        lo_c, hi_c = max(0, k - half), min(m, k + half + 1)
        w = [0.0 if v < 0.0 else v for v in row[lo_c:hi_c]]  # max(v, 0.0)
        r = sum([a * b for a, b in zip(w, values[lo_c:hi_c], strict=True)]) / max(sum(w), 1e-6)
        if abs(r) > RIDGE_LEFT_PX:
            break  # the ridge has left the dart's line
        track.append(r)
        levels.append(row[k])
    ridge[start : start + len(track)] = track
    level[start : start + len(levels)] = levels
    bend = _hinge(ridge, level >= strong, start, step)
    if bend is None:
        return None
    knee, side = bend
    # A shadow leaving the tip comes out of the ridge itself; one lying beside the point
    # (towards the flights) and meeting it at the tip is there to the side before the bend.
    before = slice(max(0, knee - round(BEND_SPAN_PX / step)), knee + 1)
    flank = (offsets * side >= 3.0) & (np.abs(offsets) <= RIDGE_LEFT_PX + 2.0)
    if float(prof[before][:, flank].max(initial=0.0)) >= strong:
        return None
    # The point is a narrow body with sharp edges; its shadow past the tip is wider and soft.
    span = round(BEND_SPAN_PX / step)
    sure = level >= strong
    narrow = _ridge_width(prof, ridge, level, offsets, range(max(start, knee - span), knee), sure)
    wide = _ridge_width(prof, ridge, level, offsets, range(knee + 1, min(n, knee + span + 1)), sure)
    if not wide >= narrow + WIDER_PX:
        return None
    return knee


def _ridge_width(
    prof: np.ndarray,
    ridge: np.ndarray,
    level: np.ndarray,
    offsets: np.ndarray,
    samples: range,
    sure: np.ndarray,
) -> float:
    """Median width (px) of the profile around the ridge above half the ridge's level, over
    the ``samples`` where the ridge is ``sure`` (strong)."""
    spacing = float(offsets[1] - offsets[0])
    widths = []
    for i in samples:
        if np.isnan(ridge[i]) or not sure[i]:
            continue
        above = prof[i] >= 0.5 * level[i]
        c = int(np.argmin(np.abs(offsets - ridge[i])))
        lo, hi = c, c
        while lo > 0 and above[lo - 1]:
            lo -= 1
        while hi < len(above) - 1 and above[hi + 1]:
            hi += 1
        widths.append((hi - lo + 1) * spacing)
    # a width from fewer than two samples is no width: nan fails every comparison
    return float(np.median(widths)) if len(widths) >= 2 else float("nan")


def _hinge(
    ridge: np.ndarray, strong: np.ndarray, start: int, step: float
) -> tuple[int, float] | None:
    """Fit the ridge's track with a straight line that may bend once (least squares over the
    samples where the ridge is ``strong``): if it clearly bends away, the bend's sample and
    the side it bends to (+1 or -1 across the axis)."""
    idx = np.nonzero(strong & ~np.isnan(ridge))[0]
    idx = idx[idx >= start]
    if len(idx) < 2 * round(BEND_SPAN_PX / step):
        return None
    x = (idx - start) * step
    y = ridge[idx]
    ones = np.ones(len(x))
    line, *_ = np.linalg.lstsq(np.column_stack([ones, x]), y, rcond=None)
    sse_line = float(np.sum((y - np.column_stack([ones, x]) @ line) ** 2))
    knees = np.arange(x[0] + 1.0, x[-1] - BEND_SPAN_PX + 1e-9, 0.25)
    if len(knees) == 0:
        return None
    # every knee at once: least squares on [1, x, max(0, x - knee)] by the normal equations
    hinge = np.maximum(0.0, x[None, :] - knees[:, None])
    ata, aty = _normal_sums(x, y, hinge)
    coef = np.linalg.solve(ata + 1e-9 * np.eye(3), aty[..., None])[..., 0]
    after = (len(x) - np.searchsorted(x, knees, side="right")) * step  # samples past the knee
    ok = (
        (np.abs(coef[:, 1]) <= TRACK_SLOPE)
        & (np.abs(coef[:, 2]) >= BEND_SLOPE)
        & (after >= BEND_SPAN_PX)
        # and it gets well off the point's line
        & (np.abs(coef[:, 2]) * (x[-1] - knees) >= BEND_PX)
    )
    if not ok.any():
        return None
    # the residuals only of the knees that may bend (most of the time none may)
    rows = np.flatnonzero(ok)
    c = coef[rows]
    fitted = (c[:, 0:1] + hinge[rows] * c[:, 2:3]) + x[None, :] * c[:, 1:2]
    sse = ((y[None, :] - fitted) ** 2).sum(axis=1)
    best = int(np.argmin(sse))
    if sse[best] > BEND_GAIN * sse_line:
        return None
    return start + round(knees[rows[best]] / step), float(np.sign(c[best, 2]))


def _normal_sums(x: np.ndarray, y: np.ndarray, hinge: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The normal equations of the least-squares fits of ``y`` on [1, x, hinge[k]] for every
    row k of ``hinge``: (A^T A, A^T y) per row, (k, 3, 3) and (k, 3). Each sum is taken
    term by term in the samples' order (a running sum), as a product-sum over the stacked
    design matrices gives it, without building those matrices: the sums of 1 and x are
    the same for every row."""

    def total(v: np.ndarray) -> np.ndarray:
        return np.cumsum(v, axis=-1)[..., -1]

    k = len(hinge)
    ata = np.empty((k, 3, 3))
    ata[:, 0, 0] = float(len(x))
    ata[:, 0, 1] = ata[:, 1, 0] = total(x)
    ata[:, 1, 1] = total(x * x)
    ata[:, 0, 2] = ata[:, 2, 0] = total(hinge)
    ata[:, 1, 2] = ata[:, 2, 1] = total(x[None, :] * hinge)
    ata[:, 2, 2] = total(hinge * hinge)
    aty = np.empty((k, 3))
    aty[:, 0] = total(y)
    aty[:, 1] = total(x * y)
    aty[:, 2] = total(hinge * y[None, :])
    return ata, aty


RIDGE_WINDOW_PX = 1.5
RIDGE_SPAN_PX = 8.0  # the ridge is looked for this far either side of the axis
RIDGE_SPACING_PX = 0.5
# the lines beside the axis the ridge is looked for on (px)
RIDGE_OFFSETS = np.arange(-RIDGE_SPAN_PX, RIDGE_SPAN_PX + RIDGE_SPACING_PX / 2, RIDGE_SPACING_PX)
RIDGE_LEFT_PX = 5.0
TRACK_SLOPE = 0.15  # the axis is good to about 8 degrees near the point
BEND_SLOPE = 0.3  # the shadow leaves at more than about 17 degrees
BEND_SPAN_PX = 3.0  # the bent part is followed this far at least
BEND_PX = 1.5  # and moves this far away from the point's line
BEND_GAIN = 0.5  # the bent line explains the track this much better than a straight one
WIDER_PX = 1.0  # the shadow's cross-profile past the tip is at least this much wider


def _ends_in_front(significant: np.ndarray, i: int, j: int, step: float) -> int | None:
    """Over an earlier object (samples ``i..j-1``): the last sample of the run of
    ``significant`` signal from ``i`` if it stops 2 px (of nothing) before ``j``, else None."""
    last, gap = None, 0
    for k in range(i, j):
        if significant[k]:
            last, gap = k, 0
            continue
        gap += 1
        if gap * step >= 2.0:
            return last
    return None


def _half_level(
    signal: np.ndarray,
    s: np.ndarray,
    lo: int,
    end: int,
    step: float,
    beside: np.ndarray,
    limit: int | None = None,
    noise: float | None = None,
    lumas: tuple[np.ndarray, np.ndarray] | None = None,
    calm: np.ndarray | None = None,
) -> float:
    """Where ``signal`` falls to half of the point's own peak in ``lo..end``, going outwards
    (sub-sample), not past sample ``limit``. ``noise``: the level of change that is surely
    no noise (half the change threshold); see ``_point_peak``.

    ``beside``: the change beside the point that ``signal`` has taken off the change on the
    axis. The point is opaque: where it lies over a changed board (a shadow around its end)
    the axis shows the point's own contrast, not the two added. Its edge is where the axis
    is half way between the point's level and the change beside it there, so the half level
    goes down by half of how much more changed beside it than at the peak.

    ``lumas``: brightness on the axis now and of the board under it before. The point's
    change is its contrast with the board under it, so where the board under its end turns
    closer to the point's brightness the half level goes down with that contrast (see
    ``_contrast_ratio``), up to ``end`` (as far as the walk followed the change).

    ``calm``: the change on the axis against the calmer side only. Where ``signal`` (against
    both sides) stops only because one side has become as strong as the point (a shadow
    lying along one side of the point's end), nothing there says where the point ends: it
    still stood out at that sample, and it ends no further out than where the change against
    the calm side does (which also takes in the blur of that shadow past the tip). The tip
    goes half way between the two, the guess that is off by least at worst."""
    limit = len(s) - 1 if limit is None else limit
    k = _point_peak(signal, lo, end, noise)
    level = float(signal[k])
    clear = (level - (beside - beside[k])) / 2  # the point's own level against what is beside
    own = np.full(len(signal), level)
    if lumas is not None:
        # only as far as the walk followed the point's change: past it, a board as bright as
        # the point would let any noise pass for it
        own[: end + 1] *= _contrast_ratio(lumas, k, noise)[: end + 1]
    half = (own - (beside - beside[k])) / 2
    # where what lies beside is about as strong as the point, nothing tells them apart: the
    # point must stand out of it by a clear change (``noise``)
    floor = 0.0 if noise is None else noise / 2
    while k + 1 <= limit and signal[k + 1] >= half[k + 1] and clear[k + 1] >= floor:
        k += 1
    frac = 0.0
    if k + 1 <= limit:
        a, b = float(signal[k] - half[k]), float(signal[k + 1] - half[k + 1])
        if a != b:
            frac = float(np.clip(a / (a - b), 0.0, 1.0))
    tip = float(s[k] - frac * step)
    if calm is not None and k + 1 <= limit and signal[k + 1] >= half[k + 1]:
        # stopped by what lies beside, not by the point's own fall (see above)
        outer = _half_level(calm, s, lo, end, step, beside + signal - calm, limit, noise, lumas)
        if outer < tip:
            return (tip + outer) / 2
    return tip


def _contrast_ratio(
    lumas: tuple[np.ndarray, np.ndarray], k: int, noise: float | None
) -> np.ndarray:
    """How much of the point's contrast at its peak (sample ``k``) it can show at each sample
    (at most 1). ``lumas``: brightness on the axis now and of the board there before.

    The point is opaque: it shows its own brightness whatever lies under it, and its change
    is its contrast with the board under it. Where its end crosses onto a board closer to
    its own brightness (from a dark printed line onto a pale field, say), a point that
    still covers the axis fully changes less than at its peak; half of the peak's change
    would stop the tip at the border."""
    now, board = lumas
    window = slice(max(0, k - 4), k + 5)  # about a pixel either side
    point = float(np.median(now[window]))
    expected = point - board
    at_peak = float(np.median(np.abs(expected[window])))
    ratio = np.ones(len(board))
    if noise is None or at_peak < 2 * noise:
        return ratio
    # Only where the point could show a clear change there, and where what is seen on the
    # axis went from the board's brightness towards the point's (a shadow past a pale
    # point's end darkens the board instead): elsewhere nothing says the point is there.
    # And only where the board itself changed clearly (not its grain or the light's drift,
    # which a small contrast would magnify).
    under = float(np.median(board[window]))
    seen = (
        (np.abs(expected) >= 2 * noise)
        & ((now - board) * expected > 0)
        & (np.abs(board - under) >= 2 * noise)
    )
    ratio[seen] = np.minimum(np.abs(expected[seen]) / at_peak, 1.0)
    return ratio


def _point_peak(signal: np.ndarray, lo: int, end: int, noise: float | None) -> int:
    """The sample of the point's own peak in ``lo..end``.

    The barrel is a wider, stronger body than the thin point: where its end lies within the
    window, half of its level is reached where the faint point begins, short of the tip by
    the point's length, and whether a noisy frame says so hangs on the dip between the two.
    So, climbing inwards from the end, the highest sample before the signal dips more than
    ``noise`` below it is the point's peak, if it is itself a clear change (twice ``noise``:
    the change threshold; a fainter bump past a dip is rather the point's own shadow).
    Otherwise (no dip, no ``noise`` given) the strongest sample of the window."""
    strongest = lo + int(np.argmax(signal[lo : end + 1]))
    if noise is None:
        return strongest
    best = end
    for i in range(end - 1, lo - 1, -1):
        if signal[i] > signal[best]:
            best = i
        elif signal[i] < signal[best] - noise:
            # a dip: what lies further in is another body (the barrel)
            return best if signal[best] >= 2 * noise else strongest
    return strongest


def _shadow_apex(
    evidence: np.ndarray,
    shadow: np.ndarray,
    center: np.ndarray,
    axis: np.ndarray,
    tip_s: float,
    threshold: float,
) -> float:
    """The tip where the dart's own shadow leaves it at an angle (a V in the change image).

    A dart's shadow on the board starts at its point: the shadow's centre line and the
    dart's line meet at the tip. Where they meet at a clear angle, the blurred change of the
    two together reaches past the point (by about half the shadow's width), and the walk
    along the axis ends there. So the tip goes back to where the centre line of the shadow
    streak leaving the walk's tip crosses the axis, if that is a few pixels behind it (never
    further out: the blur only reaches past the point)."""
    crossing = _shadow_crossing(evidence, shadow, center + axis * tip_s, axis, threshold)
    if crossing is None:
        return tip_s
    angle, back = crossing
    if angle < APEX_MIN_DEG or not 0.0 <= back <= APEX_BACK_PX:
        return tip_s
    return tip_s + back


def _shadow_crossing(
    evidence: np.ndarray,
    shadow: np.ndarray,
    tip: np.ndarray,
    axis: np.ndarray,
    threshold: float,
) -> tuple[float, float] | None:
    """The shadow streak leaving ``tip`` (unit ``axis`` towards the flights): the angle
    (degrees) between its centre line and the dart's line ahead of the tip, and how far
    behind ``tip`` (px, towards the flights) that centre line crosses the axis. None if no
    streak of shadow-like change starts at the tip."""
    tau = 0.5 * threshold
    angles = np.radians(np.arange(0.0, 360.0, APEX_ANGLE_STEP_DEG))
    dirs = np.column_stack([np.cos(angles), np.sin(angles)])
    radii = np.arange(APEX_FROM_PX, APEX_REACH_PX + 1e-9, 0.5)
    shadow_f = shadow.astype(np.float32)

    def grid(image: np.ndarray, gx: np.ndarray, gy: np.ndarray) -> np.ndarray:
        return _remap(image, gx, gy, cv2.BORDER_CONSTANT)

    # The streak's direction: the ray from the tip with the most shadow-like change, among
    # those with change all the way out from the tip and not along the dart itself.
    xs = tip[0] + dirs[:, 0:1] * radii[None, :]
    ys = tip[1] + dirs[:, 1:2] * radii[None, :]
    ev = grid(evidence, xs, ys)
    score = (np.minimum(ev, 2 * threshold) * (grid(shadow_f, xs, ys) > 0.5)).mean(axis=1)
    starts = (ev[:, radii <= APEX_FROM_PX + APEX_START_PX] >= tau).all(axis=1)
    allowed = (dirs @ axis < np.cos(np.radians(APEX_DART_DEG))) & starts
    if not allowed.any():
        return None
    k = int(np.argmax(np.where(allowed, score, -1.0)))
    if score[k] < tau:
        return None
    # Its centre line: weighted centres of slices across it, a straight-line fit.
    u = dirs[k]
    w = np.array([-u[1], u[0]])
    r = np.arange(APEX_FROM_PX + 1.0, APEX_REACH_PX + 1e-9, 0.5)
    v = np.arange(-APEX_BAND_PX, APEX_BAND_PX + 1e-9, 0.5)
    gx = tip[0] + u[0] * r[:, None] + w[0] * v[None, :]
    gy = tip[1] + u[1] * r[:, None] + w[1] * v[None, :]
    weight = np.maximum(grid(evidence, gx, gy) - tau, 0.0) * (grid(shadow_f, gx, gy) > 0.5)
    # leave out the dart itself (its line from the tip towards the flights)
    along, across = axis_coordinates(gx, gy, tip, axis)
    weight[(along > -1.0) & (np.abs(across) < APEX_DART_PX)] = 0.0
    mass = weight.sum(axis=1)
    ok = mass > 0
    if np.count_nonzero(ok) < 6:
        return None
    centre = (weight[ok] * v[None, :]).sum(axis=1) / mass[ok]
    slope, offset = np.polyfit(r[ok], centre, 1, w=np.sqrt(mass[ok]))
    d = (u + w * slope) / math.hypot(1.0, slope)
    angle = float(np.degrees(np.arccos(np.clip(float(-d @ axis), -1.0, 1.0))))
    # where tip + offset * w + rho * d meets tip + sigma * axis
    m = np.column_stack([d, -axis])
    if abs(float(np.linalg.det(m))) < 1e-3:
        return None
    _rho, sigma = np.linalg.solve(m, -offset * w)
    return angle, float(sigma)


APEX_ANGLE_STEP_DEG = 3.0
APEX_FROM_PX = 2.0  # the streak is looked at from this far out of the walk's tip
APEX_REACH_PX = 14.0  # to this far
APEX_START_PX = 3.0  # change all the way over the first pixels
APEX_MIN_DEG = 20.0  # the shadow leaves the dart's line at least this steeply
APEX_DART_DEG = 20.0  # rays this close to the dart's line towards the flights are the dart
APEX_BAND_PX = 4.0  # half-width of the slices across the streak
APEX_DART_PX = 2.0  # pixels this close to the dart's line are the dart
APEX_BACK_PX = 4.0  # the blur of the V reaches past the point by no more than this
