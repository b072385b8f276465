"""The tip fit and the motion gate on hand-made images (no simulator)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.motion import MotionGate, robust_sigma
from vision.tip import _half_level, _run_end, fit_tip


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
    assert not any(moving)


def test_robust_sigma_ignores_a_large_change():
    rng = np.random.default_rng(5)
    values = rng.normal(0, 3.0, 100_000)
    values[:5_000] = 200.0  # a dart-sized part of the image changed
    assert abs(robust_sigma(values) - 3.0) < 1.0


def _end_on_evidence(
    body_len: float,
    rng: np.random.Generator,
    centre: int = 70,
    wing_px: float = 16,
    wing_end=int,
):
    """A dart seen nearly along its axis: four thin wings (a slightly turned cross, ``wing_px``
    from the centre at (``centre``, ``centre``), their ends' pixels taken by ``wing_end``)
    and, towards the lower left, a grey barrel ``body_len`` px long that passes for a shadow
    (only darker) and an 8 px point. Returns evidence, the barrel's pixels and the true tip."""
    size = 2 * centre
    evidence = np.zeros((size, size), np.float32)
    barrel = np.zeros((size, size), np.uint8)
    for dx, dy in ((1, 0.15), (-1, -0.15), (-0.15, 1), (0.15, -1)):
        end = (wing_end(centre + wing_px * dx), wing_end(centre + wing_px * dy))
        cv2.line(evidence, (centre, centre), end, 120.0, 3)
    tip = np.array([float(centre), float(centre)])
    if body_len:
        d = np.array([-1.0, 1.0]) / np.sqrt(2)
        end = (int(centre + d[0] * body_len), int(centre + d[1] * body_len))
        cv2.line(evidence, (centre, centre), end, 150.0, 6)
        cv2.line(barrel, (centre, centre), end, 1, 6)
        tip = centre + d * (body_len + 8)
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


def test_long_faint_tail_after_a_clear_thin_point_is_not_the_point():
    """Along the axis (0.25 px samples): the barrel, a clear thin point 10 px long, then a
    faint run 9 px long (the soft shadow under the point) over the same board. A point fades
    within a pixel: the walk's end goes back to the point's last sample."""
    from vision.tip import TAIL_PX, _before_weak_tail

    step, threshold = 0.25, 12.0
    signal = np.zeros(120, np.float32)
    signal[:24] = 90.0  # the barrel
    signal[24:64] = 50.0  # the thin point
    signal[64:100] = 8.0  # the faint tail: significant (over half the threshold), but weak
    near = np.zeros_like(signal)
    near[:24] = 80.0  # change beside the axis: only where the barrel is
    board = np.tile(np.array([120.0, 150.0, 170.0], np.float32), (len(signal), 1))
    assert _before_weak_tail(signal, signal, near, board, 20, 99, step, threshold) == 63
    # the board changes colour where the faint run starts: it may be the point over it
    darker = board.copy()
    darker[64:] = (40.0, 45.0, 50.0)
    assert _before_weak_tail(signal, signal, near, darker, 20, 99, step, threshold) > 70
    # a run as strong as a third of the point's level is the point going on
    strong = signal.copy()
    strong[64:100] = 17.0
    assert _before_weak_tail(strong, strong, near, board, 20, 99, step, threshold) == 99
    # a faint end shorter than a point's tapered end is kept
    short = 64 + round(TAIL_PX / step) - 2
    assert _before_weak_tail(signal, signal, near, board, 20, short, step, threshold) == short


def test_point_ends_where_its_own_shadow_starts_on_its_line():
    """Along the axis (0.25 px samples): the barrel, a thin point that is no shadow (a bright
    steel point), then the point's own shadow on the same line, as strong as the point, over
    the same board. The point ends where the axis turns shadow-like and stays so."""
    from vision.tip import _shadow_after_point

    step, threshold = 0.25, 10.0
    n = 200
    on = np.full(n, 20.0, np.float32)
    on[:24] = 90.0  # the barrel
    near = np.zeros_like(on)
    near[:24] = 80.0  # change beside the axis: only where the barrel is
    change = np.ones(n, bool)
    shadowy = np.zeros(n, bool)
    shadowy[80:180] = True  # the shadow, 25 px long, from sample 80
    change[180:] = False
    board = np.tile(np.array([120.0, 150.0, 170.0], np.float32), (n, 1))

    def ends(i, shadowy=shadowy, board=board, near=near, change=change):
        return _shadow_after_point(shadowy, change, board, (on, near), 24, i, step, threshold)

    assert ends(80)
    assert not ends(79) and not ends(81)
    # the board under the point changes colour there: the point may go on over it
    printed = board.copy()
    printed[80:] = (40.0, 45.0, 50.0)
    assert not ends(80, board=printed)
    # a short shadow-like stretch, then change that is no shadow: the point going on
    brief = shadowy.copy()
    brief[90:] = False
    assert not ends(80, shadowy=brief)
    # what ends there is wide (a barrel, then a grey point that passes for a shadow)
    wide = near.copy()
    wide[:80] = 80.0
    assert not ends(80, near=wide)
    # the point passed for a shadow over a pixel or more further in: so may its end
    patchy = shadowy.copy()
    patchy[40:46] = True
    assert not ends(80, shadowy=patchy)
    patchy[40:46] = False
    patchy[40:42] = True  # a speck of half a pixel is no such stretch
    assert ends(80, shadowy=patchy)


def _wide_end_on_evidence(body_len: float, rng: np.random.Generator):
    """As ``_end_on_evidence``, with wings 28 px from the centre (at 80, 80), their ends
    rounded so that opposite wings are alike: the fitted wing pair is about 60 px long,
    longer than a tuft on the board (TUFT_MM at 1 mm per px) but within what flights
    standing out towards the camera look like (LOOK_TUFT_MM)."""
    return _end_on_evidence(body_len, rng, centre=80, wing_px=28, wing_end=round)


def test_line_longer_than_a_tuft_is_a_tuft_when_a_body_runs_out_of_it():
    from vision.tip import LOOK_TUFT_MM, TUFT_MM

    rng = np.random.default_rng(6)
    evidence, barrel, tip = _wide_end_on_evidence(30, rng)
    mask = evidence > 12.0
    out = np.array([0.7, -0.7])
    fit = fit_tip(evidence, mask, 12.0, shadow=barrel & mask, tail_hint=out, mm_per_px=1.0)
    assert fit is not None
    assert TUFT_MM <= fit.length_px < LOOK_TUFT_MM  # the wing pair, as the fitted line
    assert np.hypot(fit.tip[0] - tip[0], fit.tip[1] - tip[1]) < 2.5  # the body's point


def test_line_longer_than_a_tuft_without_a_body_is_the_darts_own_line():
    """The same wings and nothing running out of them: a line that long is taken for a tuft
    only with a body seen; without one it is the dart's own (its point at an end, no
    spread), not a tuft hiding the point under its centre."""
    rng = np.random.default_rng(6)
    evidence, _barrel, _tip = _wide_end_on_evidence(0, rng)
    fit = fit_tip(evidence, evidence > 12.0, 12.0, tail_hint=np.array([0.7, -0.7]), mm_per_px=1.0)
    assert fit is not None
    assert fit.spread_px == 0.0
    assert np.hypot(fit.tip[0] - 80.0, fit.tip[1] - 80.0) > 20.0  # at an end of the line


def test_point_end_is_placed_against_the_change_beside_it_while_it_stands_out():
    step = 0.25
    s = -step * np.arange(60)
    # An opaque point (own contrast 40) running on over a shadow around its end (25 beside
    # it): the axis less what is beside shows 15 there, and its edge is half way between
    # the point's level and the shadow's, not at half of the point's level (20: too short).
    signal = np.zeros(60, np.float32)
    beside = np.zeros(60, np.float32)
    signal[:13] = 40.0
    signal[13:30] = 15.0
    beside[13:40] = 25.0
    tip = _half_level(signal, s, 0, 12, step, beside, noise=8.0)
    assert abs(tip - s[29]) <= step
    # Beside it, a change as strong as the point (38 of its 40): a residue of 3 on the axis
    # tells nothing apart; the point's end is where it last stood out by a clear change.
    faint = signal.copy()
    faint[13:40] = 3.0
    strong = beside.copy()
    strong[13:40] = 38.0
    tip = _half_level(faint, s, 0, 12, step, strong, noise=8.0)
    assert s[13] - step / 2 <= tip <= s[12]


def test_half_level_follows_an_opaque_point_onto_a_paler_board():
    # A grey point (brightness 120) over a dark printed line (40) that ends 2 px before the
    # point does, on a pale field (150): over the field the point still covers the axis but
    # changes it by 30, not 80. Half of 80 would put the tip at the line's edge.
    n = 32
    s = -0.25 * np.arange(n)
    board = np.where(np.arange(n) < 10, 40.0, 150.0)
    covered = np.arange(n) < 18  # the point ends at sample 18
    now = np.where(covered, 120.0, board)
    change = np.abs(now - board).astype(np.float32)
    calm = np.zeros_like(change)
    plain = _half_level(change, s, 0, 17, 0.25, calm, noise=8.0)
    assert abs(plain - s[10]) <= 0.25  # stopped where the board changed
    tip = _half_level(change, s, 0, 17, 0.25, calm, noise=8.0, lumas=(now, board))
    assert abs(tip - s[18]) <= 0.25
    # where the board merely drifts by less than a clear change, nothing changes
    drift = np.where(np.arange(n) < 10, 40.0, 44.0)
    now_d = np.where(covered, 120.0, drift)
    change_d = np.abs(now_d - drift).astype(np.float32)
    assert _half_level(change_d, s, 0, 17, 0.25, calm, noise=8.0, lumas=(now_d, drift)) == (
        _half_level(change_d, s, 0, 17, 0.25, calm, noise=8.0)
    )


def test_a_barrels_tapered_front_gives_no_point_level():
    """Along the axis (0.25 px samples): a strong barrel whose tapered front is thin for a
    pixel, then a fainter point 10 px long (a pale point on a pale board) with its own shadow
    beside its first 3 px. The taper is no point: the point after it is not a weak tail of
    it, and the walk's end stays."""
    from vision.tip import THIN_RUN_PX, _before_weak_tail, _point_ends_here

    step, threshold = 0.25, 12.0
    signal = np.zeros(120, np.float32)
    signal[:24] = 140.0  # the barrel
    signal[24:28] = 130.0  # its tapered front: thin for a pixel
    signal[28:68] = 25.0  # the point: under a quarter of the barrel's level
    near = np.zeros_like(signal)
    near[:24] = 140.0
    near[24:28] = 50.0
    near[28:40] = 30.0  # the point's own shadow beside it
    near[40:68] = 8.0
    board = np.tile(np.array([120.0, 150.0, 170.0], np.float32), (len(signal), 1))
    assert round(THIN_RUN_PX / step) > 4
    assert _before_weak_tail(signal, signal, near, board, 20, 67, step, threshold) == 67
    # nor does the point end where the taper does, in the colour of a shadow: what ended
    # there was not thin all along the last 2 px
    now = board.copy()
    now[:28] = (40.0, 40.0, 40.0)
    assert not _point_ends_here(now, signal, near, 30, 36, threshold)
    # a truly thin point ending there, with a shadow-coloured stretch after it, does end
    thin = near.copy()
    thin[:28] = 8.0
    assert _point_ends_here(now, signal, thin, 30, 36, threshold)


def test_half_level_goes_half_way_to_the_calm_sides_end_when_a_side_is_as_strong():
    # A point (40 against both sides) whose end has a shadow along one side, as strong as the
    # point (38 on average beside it): against both sides it stops standing out 3 px before
    # its end. Against the calm side alone it runs 4 px further, to the shadow's blur past
    # the tip. The tip goes half way between the two.
    step = 0.25
    s = -step * np.arange(60)
    both = np.zeros(60, np.float32)
    beside = np.zeros(60, np.float32)
    both[:13] = 40.0
    both[13:29] = 3.0
    beside[13:29] = 38.0
    calm = np.zeros(60, np.float32)
    calm[:29] = 40.0
    inner = _half_level(both, s, 0, 12, step, beside, noise=8.0)
    outer = _half_level(calm, s, 0, 28, step, np.zeros(60, np.float32), noise=8.0)
    assert inner >= s[14] and outer <= s[27]  # 3 px apart at least
    tip = _half_level(both, s, 0, 28, step, beside, noise=8.0, calm=calm)
    assert abs(tip - (inner + outer) / 2) <= step
    # where the point's own fall stops it, the calm side does not matter
    fall = both.copy()
    fall[13:29] = 0.0
    plain = np.zeros(60, np.float32)
    assert _half_level(fall, s, 0, 12, step, plain, noise=8.0, calm=calm) == _half_level(
        fall, s, 0, 12, step, plain, noise=8.0
    )


def test_point_brighter_than_the_board_ends_where_the_axis_turns_darker():
    """Along the axis (0.25 px samples): a point brighter than the board (180 on 100), then
    its shadow on the same line (70) for 5 px. A point covering a sample, wholly or in part,
    can only brighten it: the walk's end goes back to the point's last sample."""
    from vision.tip import TAIL_PX, _before_darkening

    step, tau = 0.25, 6.0
    n = 100
    board = np.full(n, 100.0)
    now = board.copy()
    now[:40] = 180.0  # the point
    now[40:60] = 70.0  # its shadow, 5 px
    assert _before_darkening((now, board), 10, 70, step, tau) == 39
    # a darkening shorter than a point's tapered end and its blur may be the point's own
    # shading: kept
    short = now.copy()
    short[40 + round(2 * TAIL_PX / step) - 2 :] = 100.0
    assert _before_darkening((short, board), 10, 70, step, tau) == 70
    # where the board under it is as bright as the point, the point may still be there
    bright = board.copy()
    bright[40:] = 178.0
    assert _before_darkening((now, bright), 10, 70, step, tau) == 70
    # a shadow darkens: a point darker than the board followed by a brighter run is no shadow
    assert _before_darkening((2 * board - now, board), 10, 70, step, tau) == 70


def test_point_ends_at_the_waist_where_its_own_shadow_widens_along_its_line():
    """Across the axis (0.25 px samples along it): a grey point 2 px wide over a white board,
    then its shadow on the same line, as dark, starting as narrow as the tip and widening
    with distance from it (the penumbra grows with height). Colour cannot tell them apart;
    the waist at the tip can. A band of constant width after the point, or a line that
    brightens the board, is no such shadow."""
    from vision.tip import RIDGE_OFFSETS, _before_widening, _ridge_profile

    step, tau = 0.25, 6.0
    n = 200
    half = np.full(n, 1.0)  # half the width of the dark line, px
    half[100:] = 1.0 + np.linspace(0.5, 3.0, n - 100)  # the shadow, from sample 100
    kernel = np.array([0.5, 1.0, 1.0, 1.0, 0.5], np.float32) / 4

    def profile(half: np.ndarray) -> np.ndarray:
        inside = np.abs(RIDGE_OFFSETS)[:, None] <= half[None, :]
        return _ridge_profile(np.where(inside, 40.0, 0.0).astype(np.float32), kernel)

    board = np.full(n, 200.0)
    darker = board - 30.0
    assert _before_widening(profile(half), (darker, board), 10, 190, step, tau) == 99
    band = half.copy()
    band[100:] = 2.5
    assert _before_widening(profile(band), (darker, board), 10, 190, step, tau) is None
    brighter = darker.copy()
    brighter[100:] = board[100:] + 30.0
    assert _before_widening(profile(half), (brighter, board), 10, 190, step, tau) is None


def test_the_darts_run_is_not_carried_through_a_soft_shadow_by_a_lone_speck():
    # body pixels on the axis from t = 60 down to t = 20 (the point's end), then 30 steps
    # of change on its line beyond, with one noise speck in it at t = 2
    body = np.arange(20.0, 60.0)
    beyond = np.arange(-10.0, 20.0)
    bridge = np.concatenate([body, beyond])
    soft = np.concatenate([np.zeros(len(body), bool), np.ones(len(beyond), bool)])
    speck = np.concatenate([body, [2.0]])
    # the dart's own soft shadow (its change far weaker than the dart's): the run ends
    # at the point
    assert _run_end(speck, bridge, faint=soft) == 20.0
    # as strong as the dart (a grey part of it that passed for a shadow): it goes on
    assert _run_end(speck, bridge, faint=np.zeros(len(bridge), bool)) == 2.0
    # in a soft shadow, body pixels two steps in a row are the dart again
    assert _run_end(np.concatenate([body, [2.0, 3.0]]), bridge, faint=soft) == 2.0
