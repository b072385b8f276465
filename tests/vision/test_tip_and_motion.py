"""The tip fit and the motion gate on hand-made images (no simulator)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.motion import MotionGate, robust_sigma
from vision.tip import _half_level, fit_tip


def _dart_evidence(point_contrast: float, rng: np.random.Generator):
    """Evidence of a dart lying along +x: flights (wide) at the right, barrel, and a faint
    thin point whose true tip is at x = 40.0, y = 50.0."""
    image = np.zeros((100, 220), np.float32)
    cv2.rectangle(image, (160, 38), (200, 62), 120.0, -1)  # flights
    cv2.rectangle(image, (100, 48), (160, 52), 120.0, -1)  # shaft
    cv2.rectangle(image, (60, 46), (100, 54), 150.0, -1)  # barrel
    image[49:52, 40:60] = point_contrast  # the point: 3 px wide, ends at x = 40 (pixel edge)
    image += rng.normal(0, 2.0, image.shape).astype(np.float32)
    return np.abs(image)


def test_tip_is_found_past_the_thresholded_blob_at_the_faint_point():
    rng = np.random.default_rng(1)
    threshold = 12.0
    evidence = _dart_evidence(point_contrast=10.0, rng=rng)  # below the threshold
    mask = cv2.GaussianBlur(evidence, (3, 3), 0) > threshold
    assert not mask[50, 45]  # the contour ends at the barrel...
    fit = fit_tip(evidence, mask, threshold)
    assert fit is not None
    # ...the tip is where the point ends: pixel 40's left edge, i.e. x = 39.5
    assert abs(fit.tip[0] - 39.5) < 1.0
    assert abs(fit.tip[1] - 50.0) < 0.7
    assert fit.axis[0] > 0.99  # from the tip towards the flights


def test_tail_hint_from_the_calibration_decides_which_end_is_the_point():
    rng = np.random.default_rng(2)
    evidence = _dart_evidence(point_contrast=80.0, rng=rng)
    mask = evidence > 12.0
    flipped = fit_tip(evidence, mask, 12.0, tail_hint=np.array([-1.0, 0.0]))
    assert flipped is not None and flipped.tip[0] > 190  # told the tail is to the left
    normal = fit_tip(evidence, mask, 12.0, tail_hint=np.array([1.0, 0.0]))
    assert normal is not None and abs(normal.tip[0] - 39.5) < 1.0


def test_hidden_point_gives_a_wide_uncertainty():
    rng = np.random.default_rng(3)
    evidence = _dart_evidence(point_contrast=80.0, rng=rng)
    occluders = np.zeros(evidence.shape, bool)
    occluders[30:70, 36:56] = True  # an earlier dart across the end of the point
    evidence[occluders] = 0.0
    mask = evidence > 12.0
    fit = fit_tip(evidence, mask, 12.0, occluders)
    assert fit is not None and fit.occluded and fit.hidden_px > 12
    assert 36 < fit.tip[0] < 56  # somewhere behind the earlier dart


def test_point_seen_again_past_an_earlier_dart_is_followed():
    rng = np.random.default_rng(3)
    evidence = _dart_evidence(point_contrast=80.0, rng=rng)
    occluders = np.zeros(evidence.shape, bool)
    occluders[30:70, 46:54] = True  # an earlier dart's shaft across the point
    evidence[occluders] = 0.0
    fit = fit_tip(evidence, evidence > 12.0, 12.0, occluders)
    assert fit is not None and not fit.occluded
    assert abs(fit.tip[0] - 39.5) < 1.0


def test_motion_gate_ignores_noise_and_sees_a_change():
    rng = np.random.default_rng(4)
    base = rng.integers(60, 200, (180, 320)).astype(np.uint8)
    base = cv2.GaussianBlur(base, (5, 5), 0)
    gate = MotionGate()

    def noisy() -> np.ndarray:
        # what the detector feeds the gate: a float grey image (see vision.motion.downscale)
        return np.clip(base + rng.normal(0, 1.5, base.shape), 0, 255).astype(np.float32)

    gate.update(noisy())
    assert not any(gate.update(noisy()).moving for _ in range(30))
    changed = noisy()
    cv2.line(changed, (100, 90), (130, 80), 255, 2)  # a dart-sized change
    assert gate.update(changed).moving


def test_motion_gate_is_not_fooled_by_a_repeated_frame_while_it_learns_the_noise():
    # Cameras and streams resend a frame when they have no new one; a nearly identical
    # pair among the first frames must not set the noise level (the gate would then see
    # motion in every still frame and the scene would never settle).
    rng = np.random.default_rng(6)
    base = cv2.GaussianBlur(rng.integers(60, 200, (180, 320)).astype(np.uint8), (5, 5), 0)

    def noisy() -> np.ndarray:
        return np.clip(base + rng.normal(0, 1.5, base.shape), 0, 255).astype(np.float32)

    gate = MotionGate()
    first = noisy()
    gate.update(first)
    gate.update(first.copy())  # resent exactly
    gate.update(first + rng.normal(0, 0.05, base.shape).astype(np.float32))  # nearly so
    moving = [gate.update(noisy()).moving for _ in range(200)]
    assert moving.count(True) <= 1


def test_robust_sigma_ignores_a_large_change():
    rng = np.random.default_rng(5)
    values = rng.normal(0, 3.0, 100_000)
    values[:5_000] = 200.0  # a dart-sized part of the image changed
    assert abs(robust_sigma(values) - 3.0) < 1.0


def _end_on_evidence(body_len: float, rng: np.random.Generator):
    """A dart seen nearly along its axis: four thin wings (a slightly turned cross, 16 px from
    the centre at 70, 70) and, towards the lower left, a grey barrel ``body_len`` px long that
    passes for a shadow (only darker) and an 8 px point. Returns evidence, the barrel's
    pixels and the true tip."""
    evidence = np.zeros((140, 140), np.float32)
    barrel = np.zeros((140, 140), np.uint8)
    for dx, dy in ((1, 0.15), (-1, -0.15), (-0.15, 1), (0.15, -1)):
        cv2.line(evidence, (70, 70), (int(70 + 16 * dx), int(70 + 16 * dy)), 120.0, 3)
    tip = np.array([70.0, 70.0])
    if body_len:
        d = np.array([-1.0, 1.0]) / np.sqrt(2)
        end = (int(70 + d[0] * body_len), int(70 + d[1] * body_len))
        cv2.line(evidence, (70, 70), end, 150.0, 6)
        cv2.line(barrel, (70, 70), end, 1, 6)
        tip = 70 + d * (body_len + 8)
        cv2.line(evidence, end, tuple(int(v) for v in np.round(tip)), 90.0, 2)
    evidence += rng.normal(0, 2.0, evidence.shape).astype(np.float32)
    return np.abs(evidence), barrel.astype(bool), tip


def test_dart_seen_along_its_axis_gets_the_point_not_a_wing_tip():
    rng = np.random.default_rng(6)
    evidence, barrel, tip = _end_on_evidence(20, rng)
    mask = evidence > 12.0
    out = np.array([0.7, -0.7])  # the room is up and to the right
    fit = fit_tip(evidence, mask, 12.0, shadow=barrel & mask, tail_hint=out, mm_per_px=1.0)
    assert fit is not None
    assert np.hypot(fit.tip[0] - tip[0], fit.tip[1] - tip[1]) < 2.5


def test_body_hidden_behind_the_flights_gives_the_tuft_centre_and_a_spread():
    rng = np.random.default_rng(7)
    evidence, _barrel, _tip = _end_on_evidence(0, rng)
    mask = evidence > 12.0
    fit = fit_tip(evidence, mask, 12.0, tail_hint=np.array([0.7, -0.7]), mm_per_px=1.0)
    assert fit is not None
    assert np.hypot(fit.tip[0] - 70.0, fit.tip[1] - 70.0) < 2.0
    assert fit.spread_px >= 3.0  # not a wing tip with a small sigma


def test_short_straight_bar_keeps_its_line_and_is_not_read_as_flights():
    """A barrel piece cut off from its flights is as point-symmetric as a pair of wings, but
    it does not reach across its line: it keeps its line and gets a point at an end."""
    rng = np.random.default_rng(8)
    evidence = np.zeros((100, 140), np.float32)
    cv2.line(evidence, (50, 50), (90, 50), 150.0, 6)  # 40 px long, 6 px wide
    evidence = np.abs(evidence + rng.normal(0, 2.0, evidence.shape).astype(np.float32))
    mask = evidence > 12.0
    fit = fit_tip(evidence, mask, 12.0, tail_hint=np.array([1.0, 0.0]), mm_per_px=1.0)
    assert fit is not None
    assert fit.spread_px == 0.0
    assert abs(fit.tip[0] - 47.0) < 3.0 and abs(fit.tip[1] - 50.0) < 1.5


def test_tip_is_placed_at_half_the_points_own_level_not_the_barrels():
    # Balanced change along a dart's axis towards the tip (0.25 px samples, a real frame):
    # the barrel's end (~95), a dip where the point starts (~40), the thin point (~66) and its
    # edge. Half of the barrel's level falls in the dip: 2 px short of the tip, or not,
    # depending on the frame's noise. The point's own level gives the tip every time.
    # fmt: off
    profile = np.array(
        [90.7, 82.4, 68.0, 51.2, 40.4, 39.6, 47.6, 58.6, 65.5, 65.8, 60.7, 53.2, 45.2, 37.1,
         28.9, 20.4, 12.6, 6.3, 2.1, 0.2, 0.2, 1.0, 1.5, 1.5],
        np.float32,
    )
    # fmt: on
    s = -0.25 * np.arange(len(profile))
    calm = np.zeros_like(profile)  # nothing changed beside the point
    tip = _half_level(profile, s, 0, 16, 0.25, calm, noise=8.0)
    assert abs(tip - s[13]) < 0.25  # half of 65.8: between 37.1 and 28.9 (not s[3], 2.5 px in)
    # a bump past a dip that is no clear change (twice the noise) is not the point
    faint = profile.copy()
    faint[6:] = np.array([8.0, 10.0, 12.0, 10.0, 6.0] + [0.5] * (len(profile) - 11))
    assert _half_level(faint, s, 0, 10, 0.25, calm, noise=8.0) > s[4]
