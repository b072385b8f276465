"""The detector on simulated sessions: what a player would notice at the board."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.detector import Detector, SettleError, _with_pixels
from vision.events import BounceoutEvent, DartEvent
from vision.frames import Frame, FrameSizeError
from vision.sim.render import Light
from vision.sim.testing import (
    STEADY_LIGHT,
    bounceouts,
    darts,
    make_session,
    run_detector,
    takeouts,
)
from vision.tip import TipFit


def _errors(found, truth) -> list[float]:
    return [
        math.hypot(f.x_mm - t["x_mm"], f.y_mm - t["y_mm"])
        for f, t in zip(found, truth, strict=True)
    ]


def _honest(found, truth, close_mm: float) -> list[tuple[float, float]]:
    """Darts that are neither close nor honestly uncertain (error beyond 3 sigma): a wrong
    zone announced with confidence, which is what players would notice."""
    return [
        (round(e, 2), round(f.sigma_mm, 2))
        for f, e in zip(found, _errors(found, truth), strict=True)
        if e > max(close_mm, 3 * f.sigma_mm)
    ]


def test_three_darts_found_to_the_millimetre_and_zones_given():
    def script(b):
        for _ in range(3):
            b.throw()

    session = make_session("classic", 3, script)
    events = run_detector(session)
    found = darts(events)
    assert len(found) == 3
    errors = _errors(found, session.truth["darts"])
    assert float(np.median(errors)) < 1.2, errors
    assert _honest(found, session.truth["darts"], 2.5) == []
    for event, truth in zip(found, session.truth["darts"], strict=True):
        expected = session.board.locate(truth["x_mm"], truth["y_mm"], 2.5)
        if not expected.on_line:
            assert event.zone == expected.zone
        assert event.sigma_mm > 0


def test_a_dart_thrown_as_the_camera_starts_is_found_after_a_resent_first_frame():
    # A camera may hand out its first picture twice, recompressed: the first difference then
    # holds almost no noise. That must not make the next still frame seem to move, restart
    # the warmup and take a dart thrown under half a second later into the empty board.
    def script(b):
        b.throw()

    for seed in (1, 2, 3):
        session = make_session("groundround", seed, script, noise=2.5, jpeg=85)
        detector = Detector(session.board, session.calibration)
        rng = np.random.default_rng(seed)
        events, first = [], None
        for index, (name, timestamp, image) in enumerate(session):
            if index == 0:
                first = image
            elif index == 1:
                resent = first.astype(np.float32) + rng.normal(0, 0.3, first.shape)
                image = np.clip(resent, 0, 255).astype(np.uint8)
            events.extend((index, e) for e in detector.process(Frame(image, timestamp, name)))
        assert len(darts(events)) == 1, seed


def test_a_camera_whose_still_frames_are_identical_still_finds_the_first_dart():
    # No noise reaches the picture (a camera that denoises, a stream resending its last
    # picture): the motion gate learns no noise level from identical frames, yet the board
    # is still, and the warmup must end before the first dart lands.
    def script(b):
        b.idle(4)
        b.throw()

    for seed in (1, 2, 3):
        session = make_session("classic", seed, script, noise=0.0)
        found = darts(run_detector(session))
        assert len(found) == 1, seed
        assert _errors(found, session.truth["darts"])[0] <= 2.5, seed


@pytest.mark.parametrize(
    ("in_front", "after_frames"),
    [("person_passes", 2), ("hand_wave", 1)],
    ids=["a person passing", "a hand waving from the first frame"],
)
def test_somebody_in_front_of_the_board_as_the_camera_starts_does_not_blind_it(
    in_front: str, after_frames: int
):
    # The camera's noise level is learnt from its first frames. Somebody in front then
    # must neither make the threshold so high that no dart is seen afterwards, nor end up
    # in the picture of the empty board.
    import boards
    from vision.sim.darts import DartModel
    from vision.sim.render import Renderer
    from vision.sim.scenario import CameraSetup, Session, SessionBuilder
    from vision.sim.testing import STEADY_LIGHT

    board = boards.load("classic")
    camera = CameraSetup(35.0, 30.0, 0.0, 65.0, (-0.12, 0.03, 0, 0, 0)).camera(board)
    for seed in (1, 2, 3):
        builder = SessionBuilder(board, np.random.default_rng(seed), camera)
        builder.models = [DartModel.random(builder.rng) for _ in range(2)]
        builder.idle(after_frames)
        getattr(builder, in_front)()
        for _ in range(3):
            builder.throw()
        renderer = Renderer(board, camera, STEADY_LIGHT, 2.5, 85, seed=seed)
        truth = {"darts": builder.darts, "events": builder.events}
        session = Session(board, camera, renderer, builder.frames, truth)
        found = darts(run_detector(session))
        assert len(found) == 3, seed
        assert max(_errors(found, session.truth["darts"])) <= 5.0, seed


def test_45_degree_view_with_jpeg_still_finds_every_dart():
    def script(b):
        for _ in range(3):
            b.throw()

    session = make_session("groundround", 11, script, tilt=45.0, azimuth=300.0, jpeg=85)
    found = darts(run_detector(session))
    assert len(found) == 3
    assert _honest(found, session.truth["darts"], 4.0) == []


def test_dart_pointing_at_the_camera_is_put_under_its_cross_where_its_shadow_starts():
    # Seen along its axis a dart is little but the thin cross of its flights over the start
    # of its long shadow (the narrow end at the point, the flights' wide shadow far off):
    # the point is under the cross, not at the shadow's far end (37-115 mm off before).
    for board_id, seed in (("dartwars", 2), ("groundround", 1), ("groundround", 6)):

        def script(b):
            b.throw(end_on=True)
            b.idle(4)

        session = make_session(board_id, seed, script)
        found = darts(run_detector(session))
        assert len(found) == 1, (board_id, seed)
        errors = _errors(found, session.truth["darts"])
        assert errors[0] <= max(3.0, 2.5 * found[0].sigma_mm), (board_id, seed, errors)


def test_dart_pointing_at_the_camera_is_found_by_its_shadow_when_its_flights_hardly_show():
    # A clean camera (little noise) shows the thin wings of such a dart's flights too faintly
    # to pass for anything but shadow, and a noisy one drowns them: all that is left is the
    # long shadow, thin where it starts at the point. Each of these was missed outright.
    clean = (("groundround", 1, 0.5), ("groundround", 6, 0.5))
    noisy = (("dartwars", 2, 3.0), ("groundround", 1, 3.0))
    for board_id, seed, noise in clean + noisy:

        def script(b):
            b.throw(end_on=True)
            b.idle(4)

        session = make_session(board_id, seed, script, noise=noise)
        found = darts(run_detector(session))
        assert len(found) == 1, (board_id, seed, noise)
        errors = _errors(found, session.truth["darts"])
        assert errors[0] <= max(3.0, 2.5 * found[0].sigma_mm), (board_id, seed, noise, errors)


def test_steep_dart_seen_a_little_from_its_side_keeps_its_point():
    # 12 and 25 degrees off the camera's ray the dart's body shows beside its cross of
    # flights (projected 31 and 90 px long): its point is seen and stays where it is.
    for board_id, seed, off in (("groundround", 1, 12.0), ("classic", 4, 25.0)):

        def script(b, off=off):
            b.throw(end_on=True, off_axis_deg=off)
            b.idle(4)

        session = make_session(board_id, seed, script)
        found = darts(run_detector(session))
        assert len(found) == 1, (board_id, seed)
        assert _errors(found, session.truth["darts"])[0] <= 2.5, (board_id, seed)
        assert found[0].sigma_mm < 2.0, (board_id, seed)


def test_a_dart_leaning_beyond_the_cameras_ray_in_a_frontal_view_keeps_its_point():
    # Seen from 20 degrees off the board's normal, a dart leaning 10 degrees further towards
    # the camera than its ray shows its point on the room side of its flights, where a point
    # never is in a steeper view: its barrel runs out of the tuft. (It was put under the
    # tuft, 21-23 mm off, with a sigma of 12 mm.)
    for seed in (2, 4):

        def script(b):
            b.throw(end_on=True, off_axis_deg=-10.0)
            b.idle(5)

        session = make_session("classic", seed, script, tilt=20.0)
        found = darts(run_detector(session))
        assert len(found) == 1, seed
        assert _errors(found, session.truth["darts"])[0] <= 2.5, seed


def _bench_session_until(board_id: str, session_seed: int, last_frame: int):
    """One session of ``oche bench vision`` replayed through a fresh detector up to
    ``last_frame``: (session, detector, [(frame index, event), ...])."""
    import boards
    from vision.sim.scenario import random_session

    session = random_session(boards.load(board_id), session_seed)
    detector = Detector(session.board, session.calibration)
    events = []
    for index, (name, timestamp, image) in enumerate(session):
        if index > last_frame:
            break
        events.extend((index, e) for e in detector.process(Frame(image, timestamp, name)))
    return session, detector, events


def test_darts_in_a_nearly_frontal_bench_session_are_not_put_on_a_wing():
    """Bench session 4001 on the classic board (camera 13 degrees off the normal): two darts
    leaning beyond the camera's ray were put on a wing of their flights, 24 and 42 mm off."""
    session, _, events = _bench_session_until("classic", 4001, 29 + 12)
    thrown = [d for d in session.truth["darts"] if d["frame"] in (17, 29)]
    found = darts([(index, e) for index, e in events if index >= 17])
    assert len(found) == 2
    assert max(_errors(found, thrown)) <= 2.5


def test_where_the_3d_test_says_little_the_shadow_points_back_at_the_point():
    """Bench session 7007 on Dart Wars (camera 15 degrees off the normal): the 3D test could
    not tell the ends apart (3 degrees), and the shadow joined at the point made that end
    the wider one. The dart was put at its flights, 57 mm off: a phantom, and the dart
    missed. Its shadow, a band leaving its line at an angle, points back at the point."""
    session, _, events = _bench_session_until("dartwars", 7007, 13)
    thrown = next(d for d in session.truth["darts"] if d["frame"] == 6)
    found = darts(events)
    assert len(found) == 1
    assert _errors(found, [thrown])[0] <= 2.5


def test_a_dart_pointing_at_a_nearly_frontal_camera_is_found_by_its_small_cross():
    """Bench session 1007 on the classic board (camera 13 degrees off the normal): a dart
    pointing nearly at the camera shows only its flights, a cross of wings seen almost
    edge-on, smaller than a barrel seen from its side. It was not reported at all."""
    session, _, events = _bench_session_until("classic", 1007, 104 + 12)
    thrown = next(d for d in session.truth["darts"] if d["frame"] == 104)
    found = darts([(index, e) for index, e in events if index >= thrown["frame"]])
    assert len(found) == 1
    assert _honest(found, [thrown], close_mm=2.5) == []


def test_darts_under_a_lamp_low_beside_the_board_are_not_put_in_their_long_shadows():
    """Bench session 4101 on the classic board: one strong lamp low on the right casts each
    dart's shadow on past its point along its line, longer than the dart. Three darts were
    put in their shadows, 100-140 mm off: at the shadow's far end (a few noisy specks on the
    black ring passed for a barrel there; the dart itself taken for the tail of that
    "dart"), or at the dart's flights (the dart and its shadow taken as one)."""
    session, _, events = _bench_session_until("classic", 4101, 175 + 12)
    thrown = [d for d in session.truth["darts"] if d["frame"] <= 175]
    found = darts(events)
    assert len(found) == len(thrown)
    errors = dict(zip((d["frame"] for d in thrown), _errors(found, thrown), strict=True))
    assert max(errors[6], errors[33], errors[175]) <= 8.0, errors


def test_a_thin_point_cut_off_ahead_of_its_body_is_the_point_not_a_shadow():
    """Bench session 6029 on Ground Round: a dart landed beside an earlier one, its thin
    grey point a blob apart from its body. The point, not the body's front, is the tip."""
    session, _, events = _bench_session_until("groundround", 6029, 107 + 8)
    thrown = next(d for d in session.truth["darts"] if d["frame"] == 107)
    found = darts([(index, e) for index, e in events if index >= 107])
    assert len(found) == 1
    assert _errors(found, [thrown])[0] <= 2.5


def test_a_dart_whose_shadow_runs_on_along_its_line_is_not_put_out_in_the_shadow():
    """Bench session 1 on Dart Wars (a lamp behind the camera): the dart's shadow runs on
    past its point along the dart's own line, longer than any point can look there. The tip
    was put 39 px (50 mm) out in the shadow: a phantom, and the dart missed."""
    session, _, events = _bench_session_until("dartwars", 1, 33 + 12)
    thrown = next(d for d in session.truth["darts"] if d["frame"] == 33)
    found = darts([(index, e) for index, e in events if index >= thrown["frame"]])
    assert len(found) == 1
    assert _honest(found, [thrown], close_mm=5.0) == []


@pytest.mark.parametrize("session_seed, frame", [(9071, 13), (4083, 125)])
def test_the_rough_look_for_a_move_passes_a_knock_and_not_a_dart_with_its_shadows(
    session_seed: int, frame: int, monkeypatch: pytest.MonkeyPatch
):
    """Bench sessions on the classic board, a dartboard framed by wall: a dart and its
    shadows change a quarter of the few tiles with printed edges, which set off the whole
    move search (9071 f13, three lamps: 70 ms of a 97 ms located frame). The rough look on the
    small pictures turns it down; the same frame knocked by (2.4, -1.3) px it lets through.
    In 4083 f125 a rough move left 98 of the 106 changed pixels but moved the change out of
    one of the four edged tiles it touched, and the search proper ran (88 ms in all)."""
    from vision.detector import _edge_tiles, _tiles_hit
    from vision.motion import downscale

    looks: list[tuple[float, bool]] = []
    rough = Detector._a_move_may_explain

    def spied(self, *args):
        looks.append((self._timestamp, rough(self, *args)))
        return looks[-1][1]

    monkeypatch.setattr(Detector, "_a_move_may_explain", spied)
    session, detector, events = _bench_session_until("classic", session_seed, frame)
    assert [index for index, e in events if isinstance(e, DartEvent)][-1] == frame
    at = session.frames[frame].t
    assert looks[-1] == (at, False)  # the dart's settle looked, and no move came up
    raw = next(image for index, (_, _, image) in enumerate(session) if index == frame)
    knocked = cv2.warpAffine(
        raw,
        np.float32([[1, 0, 2.4], [0, 1, -1.3]]),
        raw.shape[1::-1],
        flags=cv2.INTER_CUBIC,
        borderMode=cv2.BORDER_REPLICATE,
    )
    session, detector, _ = _bench_session_until("classic", session_seed, frame - 1)
    _, small = detector._in_reference_grid(knocked, downscale(knocked, 320))
    changed = detector._changed_small(small)[1]
    edged = _edge_tiles(detector.reference_small, detector.small_threshold)
    hit, among = _tiles_hit(changed, edged)
    assert rough(detector, knocked, small, changed, edged, hit / among)


def test_with_a_preview_stream_the_small_pictures_threshold_is_the_frames():
    """The gate watches the preview (its own grey scale and noise); the detector's small
    pictures come from the frame, and so must their threshold."""

    def script(b):
        b.idle(12)

    session = make_session("classic", 5, script)

    def noisy_preview(image: np.ndarray) -> np.ndarray:
        grey = cv2.resize(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), (320, 180))
        noise = np.random.default_rng(int(image[0, 0, 0])).normal(0.0, 6.0, grey.shape)
        return np.clip(grey + noise, 0, 255).astype(np.uint8)

    thresholds = []
    for preview in (None, noisy_preview):
        detector = Detector(session.board, session.calibration)
        for name, timestamp, image in session:
            lores = None if preview is None else preview(image)
            detector.process(Frame(image, timestamp, name, lores=lores))
        thresholds.append(detector.small_threshold)
    assert thresholds[1] == pytest.approx(thresholds[0], rel=0.05)


def test_a_tuft_whose_centroid_a_long_barrel_pulls_aside_is_read_from_its_true_centre():
    """Bench session 7007 on the classic board (camera 15 degrees off the normal): the
    barrel runs far out of a small tuft and pulls its weighted centroid more than 4 px off
    the tuft's centre of symmetry; searched only that far, the centre fell on a wing and the
    tip 9 mm off."""
    session, _, events = _bench_session_until("classic", 7007, 175 + 12)
    thrown = next(d for d in session.truth["darts"] if d["frame"] == 175)
    found = darts([(index, e) for index, e in events if index >= thrown["frame"]])
    assert len(found) == 1
    assert _errors(found, [thrown])[0] <= 2.5


def test_a_hand_reaching_in_and_out_the_same_way_is_no_bounce_out():
    """Bench session 1071 on the classic board: a hand reaches in from the picture's right
    edge and leaves the same way, its first and last frames alike. The arm's blob ended a
    pixel short of the picture's border (the small picture's edge column showed the wall),
    so it passed for a dart that stayed a moment, and the settle with nothing new was
    reported as a bounce-out: a dart the player never threw would have counted."""
    session, _, events = _bench_session_until("classic", 1071, 175)
    reach_in = next(i for i in range(156, 176) if session.frames[i].hand is not None)
    after = [e for index, e in events if index > reach_in]
    assert not any(isinstance(e, BounceoutEvent) for e in after)


def _cross_scene(body: bool, widening: bool = True) -> tuple[TipFit, np.ndarray, np.ndarray]:
    """A long shadow running down from (60, 40), and the dart's own thin pixels there: a
    cross of flights centred on the shadow's start, or (``body``) a bar reaching out from
    it to one side, as the body of a dart seen from its side does. The fit's tip lies far
    down the shadow."""
    group = np.zeros((160, 120), dtype=bool)
    shadow = np.zeros_like(group)
    for row in range(40, 150):
        # narrow at the point, wider towards the flights' shadow (or as wide all along)
        half = 1 + (row - 40) // 12 if widening else 3
        shadow[row, 60 - half : 61 + half] = True
    own = np.zeros_like(group)
    if body:
        for k in range(30):  # the body from the point up to the left, then its flights
            own[38 - k : 40 - k, 59 - k : 62 - k] = True
        own[8:12, 18:42] = True
    else:
        own[40, 46:75] = True
        own[26:55, 60] = True
    shadow &= ~own
    group = shadow | own
    fit = TipFit((60.0, 140.0), (0.0, -1.0), 100.0, 6.0, 4.0, False, 0.5)
    return fit, group, shadow


def test_end_on_tip_needs_a_cross_centred_on_the_shadows_start():
    from vision.shadows import end_on_tip

    reach, rms_most = 20.0, 12.0
    fit, group, shadow = _cross_scene(body=False)
    moved = end_on_tip(fit, group, shadow, reach, rms_most)
    assert math.hypot(moved.tip[0] - 60.0, moved.tip[1] - 40.0) < 5.0, moved.tip
    assert not moved.point_seen
    # Own pixels reaching out to one side of the shadow's start: a body, seen from its side.
    # (The shadow is as wide at both ends, so that its thin start cannot tell either.)
    fit, group, shadow = _cross_scene(body=True, widening=False)
    assert end_on_tip(fit, group, shadow, reach, rms_most) == fit


def test_a_dart_seen_along_its_axis_whose_flights_hardly_show_is_put_at_its_shadows_start():
    # Clear flights, or flights a webcam's JPEG wipes out, leave no cross of flights to see:
    # only the long shadow, thin where it starts at the point and as wide as the flights at
    # its far end. The point is at the thin start (it was put 114-122 mm away, in the
    # flights' shadow).
    def script(b):
        b.throw(end_on=True)
        b.idle(5)

    for board_id, seed, jpeg in (
        ("dartwars", 6, 75),
        ("groundround", 4, 75),
        ("groundround", 11, None),
    ):
        session = make_session(board_id, seed, script, tilt=24.0, jpeg=jpeg)
        found = darts(run_detector(session))
        assert len(found) == 1, (board_id, seed)
        assert _errors(found, session.truth["darts"])[0] <= 3.0, (board_id, seed)
        assert found[0].sigma_mm >= 8.0  # the point itself is not seen


def test_end_on_tip_without_a_cross_reads_the_shadows_thin_start_unless_it_is_broken():
    from vision.shadows import end_on_tip

    fit, group, shadow = _cross_scene(body=False)
    own = group & ~shadow
    group[own] = False  # no cross: a few of the dart's own pixels beside the shadow instead
    group[95:98, 80:83] = True
    moved = end_on_tip(fit, group, shadow, 20.0, 12.0)
    # within the thin start (its first pixels are too few to stand alone against specks)
    assert abs(moved.tip[0] - 60.0) < 1.0 and 40.0 <= moved.tip[1] <= 50.0, moved.tip
    assert not moved.point_seen
    # Across a dark part of the board the shadow hardly shows: its pieces' widths are the
    # print's, and tell nothing.
    shadow[80:90] = False
    group[80:90] = False
    assert end_on_tip(fit, group, shadow, 20.0, 12.0) == fit


def test_end_on_tip_takes_a_shadow_of_scattered_specks_in_its_stride():
    """Specks far apart (noise, bits of other shadows) put a shadow's end in a gap between
    them: the nearest specks stand for it, and a lone speck is no cross."""
    from vision.shadows import end_on_tip

    group = np.zeros((120, 60), dtype=bool)
    group[40:90, 30] = True  # 50 specks in a row and one far out: the end falls in between
    group[10, 30] = True
    shadow = group.copy()
    group[100, 10:16] = True  # a few of the dart's own pixels, far from either end
    fit = TipFit((30.0, 100.0), (0.0, -1.0), 80.0, 3.0, 4.0, False, 0.5)
    assert end_on_tip(fit, group, shadow, 20.0, 12.0) == fit


def test_a_picture_of_another_size_is_refused_and_the_next_ones_still_count():
    # A camera that comes back from a drop-out in another mode gives pictures the
    # calibration's pixels do not fit: say so, and lose nothing of what was seen before.
    def script(b):
        b.throw()
        b.idle(5)

    session = make_session("classic", 5, script)
    detector = Detector(session.board, session.calibration)
    found = []
    for index, (name, timestamp, image) in enumerate(session):
        if index % 5 == 3:  # in warm-up, while still, moving, settling, after the dart
            turned = Frame(np.ascontiguousarray(np.rot90(image)), timestamp, "turned")
            with pytest.raises(FrameSizeError, match="turned: the picture is 720x1280 px"):
                detector.process(turned)
            with pytest.raises(FrameSizeError, match="calibrate again at 720x1280"):
                detector.process_still(turned)
        found += [
            e for e in detector.process(Frame(image, timestamp, name)) if isinstance(e, DartEvent)
        ]
    assert len(found) == 1
    assert _errors(found, session.truth["darts"])[0] <= 3.0


def test_a_settle_the_detector_fails_to_read_loses_that_throw_only(monkeypatch):
    # A bug while reading one settle must not shift the game: before, the unread dart stayed
    # in the next look and was reported in place of the next throw (which was lost).
    def script(b):
        for _ in range(3):
            b.throw()
        b.idle(4)

    session = make_session("classic", 3, script)
    detector = Detector(session.board, session.calibration)
    looks = []
    look = Detector._look

    def failing_first(self, *args, **kwargs):
        looks.append(args[0])
        if len(looks) == 1:
            raise ValueError("a bug")
        return look(self, *args, **kwargs)

    monkeypatch.setattr(Detector, "_look", failing_first)
    found, failed = [], []
    for name, timestamp, image in session:
        try:
            found += [
                e
                for e in detector.process(Frame(image, timestamp, name))
                if isinstance(e, DartEvent)
            ]
        except SettleError as exc:
            failed.append(str(exc))
    assert failed == [
        f"{looks[0]}: the detector failed to read what changed (ValueError: a bug); "
        "a dart thrown then is not reported"
    ]
    thrown = session.truth["darts"]
    assert len(found) == 2
    for event, dart in zip(found, thrown[1:], strict=True):
        nearest = min(
            thrown, key=lambda t: math.hypot(event.x_mm - t["x_mm"], event.y_mm - t["y_mm"])
        )
        assert nearest is dart


def _nearest_throw(event, thrown) -> tuple[int, float]:
    """(index of the nearest thrown dart, its distance in mm)."""
    errors = [math.hypot(event.x_mm - t["x_mm"], event.y_mm - t["y_mm"]) for t in thrown]
    return int(np.argmin(errors)), round(min(errors), 2)


def _failing_once(monkeypatch, method: str, when) -> None:
    """``Detector.<method>`` raises once, the first time ``when(detector)`` holds."""
    original = getattr(Detector, method)
    done = []

    def failing(self, *args, **kwargs):
        if not done and when(self):
            done.append(True)
            raise ValueError("a bug")
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Detector, method, failing)


def _knocked_while_pulling(**session_options):
    """Classic session seed 10: two darts, a takeout during which the board is knocked by
    (2.4, -1.3) px (the hand at the board, pulling), two darts, a takeout."""
    knock_at: list[int] = []

    def script(b):
        b.throw()
        b.throw()
        knock_at.append(len(b.frames) + 3)
        b.takeout()
        b.throw()
        b.throw()
        b.takeout()

    session = make_session("classic", 10, script, **session_options)
    session.frames = [
        replace(spec, offset=(2.4, -1.3)) if index >= knock_at[0] else spec
        for index, spec in enumerate(session.frames)
    ]
    return session


@pytest.mark.parametrize("where", ["_settled", "_explaining"])
def test_a_takeout_the_detector_fails_to_read_loses_no_later_dart(monkeypatch, where):
    """Darts pulled (the board knocked by (2.4, -1.3) px meanwhile) and that settle not read,
    a bug either in the reading (``_settled``) or in following the knock (``_explaining``).
    Before, the next throw's settle was reported as the takeout and that dart lost, or the
    knock was never followed: later darts 3-11 mm off, the last takeout a phantom dart."""
    session = _knocked_while_pulling()
    _failing_once(monkeypatch, where, lambda detector: len(detector.darts) == 2)
    detector = Detector(session.board, session.calibration)
    seen = []
    for name, timestamp, image in session:
        try:
            seen += detector.process(Frame(image, timestamp, name))
        except SettleError:
            seen.append("unread")
    thrown = session.truth["darts"]
    kinds = [e if isinstance(e, str) else type(e).__name__ for e in seen]
    found = [_nearest_throw(e, thrown) for e in seen if isinstance(e, DartEvent)]
    assert kinds[-1] == "TakeoutEvent" and kinds.count("unread") == 1
    assert all(error <= 2.0 for _, error in found), found
    assert [index for index, _ in found][-1] == 3  # the last dart is itself
    if where == "_settled":  # read as far as the knock: every later dart is reported
        assert [index for index, _ in found] == [0, 1, 2, 3]
        assert kinds.count("TakeoutEvent") == 1


def test_a_photo_the_detector_fails_to_read_leaves_the_next_photos_aligned(monkeypatch):
    """Photos from a tripod touched between them (-1.6, 1.1 px): after one photo is not read,
    the scene is that photo put onto the empty board's grid, not the photo as taken (the
    next photo's dart was lost against a scene 2 px off)."""
    from vision.align import shift_back

    def script(b):
        for _ in range(3):
            b.throw()
            b.idle(4)

    session = make_session("classic", 3, script)
    thrown = session.truth["darts"]
    last = [d["frame"] - 1 for d in thrown[1:]] + [len(session.frames) - 1]
    photos = [session.render(0)] + [shift_back(session.render(k), (-1.6, 1.1)) for k in last]
    _failing_once(monkeypatch, "_look", lambda detector: True)
    detector = Detector(session.board, session.calibration)
    seen = []
    for k, photo in enumerate(photos):
        try:
            seen += detector.process_still(Frame(photo, 2.0 * k, f"photo{k}"))
        except SettleError:
            seen.append("unread")
    assert seen[0] == "unread"
    found = [_nearest_throw(e, thrown) for e in seen if isinstance(e, DartEvent)]
    assert [index for index, _ in found] == [1, 2]


def test_bounce_out_is_reported_as_such_and_never_as_a_dart():
    def script(b):
        b.throw(bounce=True)
        b.idle(5)

    events = run_detector(make_session("classic", 5, script))
    assert darts(events) == []
    assert len(bounceouts(events)) == 1


def test_a_dart_seen_along_its_axis_in_soft_light_is_a_dart_and_its_takeout_is_seen():
    # Pointing at the camera, the dart shows only the thin cross of its flights, grey
    # enough to pass for a shadow, and soft light casts no long shadow. It stayed where it
    # landed, so it is a dart (its point unseen: a wide sigma), not lost, and pulling it
    # out is a takeout.
    soft = replace(STEADY_LIGHT, shadow=0.15, kind="diffuse")

    def script(b):
        b.throw(end_on=True)
        b.idle(4)
        b.takeout()

    session = make_session("classic", 6, script, light=soft)
    events = run_detector(session)
    found = darts(events)
    assert bounceouts(events) == []
    assert len(found) == 1
    assert _honest(found, session.truth["darts"], 2.5 * found[0].sigma_mm) == []
    assert found[0].sigma_mm >= 8.0
    assert len(takeouts(events)) == 1


def test_a_dart_seen_along_its_axis_in_a_photo_is_a_dart():
    # The same dart in two photos (empty board, then the dart): no motion tells where it
    # stayed, but a photo is taken because something happened, and its change there is the
    # dart (its point unseen: a wide sigma), not nothing.
    from vision.detector import Detector
    from vision.frames import Frame

    soft = replace(STEADY_LIGHT, shadow=0.15, kind="diffuse")

    def script(b):
        b.throw(end_on=True)
        b.idle(4)

    session = make_session("classic", 6, script, light=soft)
    detector = Detector(session.board, session.calibration)
    photos = [session.render(0), session.render(len(session.frames) - 1)]
    events = [
        e
        for k, image in enumerate(photos)
        for e in detector.process_still(Frame(image, 2.0 * k, "p"))
    ]
    found = darts([(0, e) for e in events])
    assert len(found) == 1
    assert _honest(found, session.truth["darts"], 2.5 * found[0].sigma_mm) == []
    assert found[0].sigma_mm >= 8.0


def test_a_change_around_an_earlier_darts_flights_is_not_put_there_as_a_dart():
    # A dart grouped tightly along an earlier one, seen from its side, shows only beside
    # that dart's flights; its point is a dart's length away. An earlier dart seen end-on
    # has its flights around its point: a cross there may be a new dart's.
    from vision.detector import CROSS_REACH_MM, KnownDart
    from vision.events import DartEvent

    detector = _detector_at_one_mm_per_pixel()
    mm = 0.5
    reach = CROSS_REACH_MM / mm
    empty = np.zeros(0, dtype=int)
    event = DartEvent("p", 0.0, 0.0, 1.0, None, (), tip_px=(100.0, 100.0))
    side_on = KnownDart(event, empty, empty, axis=(1.0, 0.0), length_px=4 * reach)
    detector.darts = [side_on]
    assert detector._at_a_far_end((100.0 + 4 * reach, 100.0 + 0.5 * reach), mm)
    assert not detector._at_a_far_end((100.0 + 2 * reach, 100.0 + 0.5 * reach), mm)
    detector.darts = [replace(side_on, length_px=reach)]
    assert not detector._at_a_far_end((100.0 + reach, 100.0), mm)


def test_takeout_reported_once_even_when_magnets_were_moved_and_next_dart_is_found():
    def script(b):
        b.throw()
        b.throw()
        b.takeout(move_magnets=True)
        b.throw()

    session = make_session("groundround", 7, script, magnets=3)
    events = run_detector(session)
    assert len(takeouts(events)) == 1
    found = darts(events)
    assert len(found) == 3
    takeout_frame = next(i for i, e in events if e in takeouts(events))
    after = [e for i, e in events if i > takeout_frame and e in found]
    assert len(after) == 1
    last = session.truth["darts"][-1]
    assert math.hypot(after[0].x_mm - last["x_mm"], after[0].y_mm - last["y_mm"]) < 2.5


def test_people_in_front_of_the_board_give_no_dart():
    def script(b):
        b.person_passes(pause=8)
        b.hand_wave()
        b.hand_wave()

    events = run_detector(make_session("classic", 9, script))
    assert events == []


def test_slow_light_change_and_noise_give_no_dart():
    drifting = Light(
        direction=(0.2, 0.5, 0.84),
        level=0.9,
        gradient=0.25,
        vignette=0.3,
        drift=0.15,
        period_s=6.0,
        shadow=0.3,
        penumbra_px=2.0,
    )

    def script(b):
        b.idle(150)

    events = run_detector(make_session("classic", 13, script, light=drifting, noise=3.5, jpeg=80))
    assert events == []


def test_dart_landing_next_to_and_behind_an_earlier_dart_is_found():
    def script(b):
        b.throw()
        for _ in range(2):
            b.throw(near_previous=True)

    session = make_session("classic", 21, script, tilt=45.0, azimuth=120.0)
    found = darts(run_detector(session))
    assert len(found) == 3
    # the second and third land within a few mm of the first, partly behind it
    assert _honest(found[1:], session.truth["darts"][1:], 4.0) == []


def test_two_darts_landing_within_one_settle_are_both_reported():
    from vision.sim.darts import Dart

    def script(b):
        for tip in ((170.0, 190.0), (290.0, 270.0)):
            dart = Dart(tip, Dart.random_direction(b.rng), b.models[0])
            b.objects.append(dart)
            index = b._emit()
            b.darts.append({"x_mm": tip[0], "y_mm": tip[1], "frame": index, "turn": 0})
            b.idle(1)  # 0.13 s: far too soon for the scene to settle in between
        b.idle(10)

    session = make_session("classic", 11, script)
    found = darts(run_detector(session))
    assert len(found) == 2
    # each thrown dart has its own event (the tip accuracy has tests of its own)
    for t in session.truth["darts"]:
        assert min(math.hypot(f.x_mm - t["x_mm"], f.y_mm - t["y_mm"]) for f in found) < 10.0


def _pi_preview(image: np.ndarray) -> np.ndarray:
    """What a Pi camera's low-resolution YUV stream holds: Rec. 709 luma in video range
    (16-235), 320 x 180."""
    b, g, r = (channel.astype(np.float32) for channel in cv2.split(image))
    luma = np.clip(np.rint(16 + 219 * (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255), 0, 255)
    return cv2.resize(luma.astype(np.uint8), (320, 180), interpolation=cv2.INTER_AREA)


@pytest.mark.parametrize(
    ("painted", "preview"),
    [(False, False), (True, False), (False, True)],
    ids=["our print", "a dartboard on a wall", "our print, a Pi camera's preview stream"],
)
def test_board_knocked_while_pulling_darts_keeps_takeouts_and_darts_coming(painted, preview):
    """Pulling darts moves a hanging board a pixel or two: the takeout is still reported, the
    next darts are found where they landed, and the move makes no dart of its own. A steel-tip
    board seen steeply fills little of the picture (plain wall around it), so its edges change
    in few of the picture's tiles: the move is told among the tiles that hold edges (it was
    taken for new darts at the wall's edge and took 39 s to look at). A Pi camera's preview
    stream feeds the motion gate only: its grey is on another scale than the frame's, and a
    move measured on the frame was not seen against it (the later darts 3 mm off)."""
    from vision.sim.dartboard import Paint

    if painted:
        paint = replace(Paint.random(np.random.default_rng(7)), wall=(200, 200, 196))
        session = _knocked_while_pulling(tilt=51.0, azimuth=337.0, paint=paint)
    else:
        session = _knocked_while_pulling()
    events = run_detector(session, _pi_preview if preview else None)
    assert len(takeouts(events)) == 2
    found = darts(events)
    assert len(found) == 4
    for event, thrown in zip(found, session.truth["darts"], strict=True):
        assert math.hypot(event.x_mm - thrown["x_mm"], event.y_mm - thrown["y_mm"]) < 2


def test_a_dart_reaching_the_regions_edge_asks_for_a_bigger_region():
    from vision.detector import _edges_reached
    from vision.tip import TipFit

    group = np.zeros((40, 60), dtype=bool)
    group[18:21, 0:30] = True  # a blob cut at the region's left edge
    fit = TipFit((0.5, 19.0), (1.0, 0.0), 30.0, 3.0, 10.0, False, 1.0)
    # inside the picture the left side must grow; at the picture's own edge nothing is there
    assert _edges_reached([(fit, group)], (100, 50, 160, 90), (640, 480)) == (
        True,
        False,
        False,
        False,
    )
    assert not any(_edges_reached([(fit, group)], (0, 50, 60, 90), (640, 480)))


def test_the_second_look_in_a_bigger_region_adds_no_new_dart():
    from vision.detector import _Candidate, _same_darts
    from vision.tip import TipFit

    fit = TipFit((0.5, 19.0), (1.0, 0.0), 30.0, 3.0, 10.0, False, 1.0)
    dart = np.zeros((80, 120), dtype=bool)
    dart[58:61, 40:90] = True  # the dart seen first, now whole
    other = np.zeros((80, 120), dtype=bool)
    other[5:15, 5:60] = True  # something else the bigger region holds, ranked higher
    found = [_Candidate(9.0, fit, other, 5.0, 900.0, True, 1.0)]
    found.append(_Candidate(3.0, fit, dart, 10.0, 300.0, True, 1.0))
    # the first look saw part of the dart; its pixels in the picture's rows and columns (the
    # bigger region starts at column 20, row 10)
    rows, cols = np.nonzero(dart[:, 60:])
    seen = [(rows + 10, cols + 60 + 20)]
    kept = _same_darts(found, seen, (20, 10))
    assert [c.score for c in kept] == [3.0]


def _detector_at_one_mm_per_pixel():
    """A detector for the rules that judge blobs in board mm (the camera does not matter
    here: the blobs below are given in pixels and the scale as 1 mm per pixel)."""
    import boards
    from calibration.model import from_camera
    from vision.detector import Detector
    from vision.sim.scenario import CameraSetup

    board = boards.load("classic")
    camera = CameraSetup(35.0, 30.0, 0.0, 65.0, (0.0, 0.0, 0.0, 0.0, 0.0)).camera(board)
    return Detector(board, from_camera(camera, board.id))


def _along_earlier_scene():
    """A region (rows 0-119, columns 0-199) where an earlier dart lies along y = 60 from its
    point at x = 40 to the end of its flights at x = 170 (its barrel 5 px wide), and a new
    dart landed along it, further forward: only its point and the front of its barrel show,
    x = 18..44, with its shadow on the board beside them (the rest is hidden behind, or
    hides, the earlier dart). Returns the earlier dart's pixels, the sliver, its shadow
    and its fit (point at x = 18, towards the flights along +x)."""
    from vision.tip import TipFit

    earlier = np.zeros((120, 200), bool)
    earlier[58:63, 40:170] = True
    sliver = np.zeros((120, 200), bool)
    sliver[59:61, 18:30] = True  # the point
    sliver[57:64, 30:44] = True  # the front of the barrel, beside the earlier dart's point
    shadow = np.zeros_like(sliver)
    shadow[64:71, 18:44] = True  # its own shadow on the board
    sliver |= shadow
    fit = TipFit((18.0, 60.0), (1.0, 0.0), 26.0, 5.0, 4.0, False, 1.0)
    return earlier, sliver, shadow, fit


def test_dart_shown_only_as_a_sliver_along_an_earlier_one_is_measured_along_its_line():
    """A dart that landed right along an earlier one shows only its point; its body runs on
    along its own line over the earlier dart's pixels, so it has a dart's length and is a
    dart (alone, the sliver is far too short for one)."""
    from dataclasses import replace

    from vision.detector import KnownDart, _along_earlier, _known_darts_mask

    earlier, sliver, shadow, fit = _along_earlier_scene()
    # the earlier dart as the detector keeps it: its pixels in the whole picture; the region
    # starts at column 300, row 200
    from vision.events import DartEvent

    rows, cols = np.nonzero(earlier)
    known_dart = KnownDart(DartEvent("earlier", 0.0, 0.0, 1.0, None, ()), rows + 200, cols + 300)
    known = _known_darts_mask([known_dart], (300, 200, 500, 320))
    assert known is not None and np.array_equal(known, earlier)
    # nothing of an earlier dart in a region elsewhere
    assert _known_darts_mask([known_dart], (0, 0, 200, 120)) is None

    detector = _detector_at_one_mm_per_pixel()
    mm = 1.0
    assert not detector._is_dart(fit, sliver, mm, shadow)
    along = _along_earlier(fit, sliver, known)
    assert abs(along - (169 - 18)) <= 1.0  # to the earlier dart's far end
    assert detector._is_dart(replace(fit, length_px=along), sliver, mm, shadow)
    # no earlier dart in the region: no length beyond the sliver's own
    assert _along_earlier(fit, sliver, None) == 0.0


def test_sliver_line_that_breaks_before_the_earlier_dart_gets_no_length_from_it():
    from vision.detector import LINE_GAP_PX, _along_earlier

    earlier, sliver, _shadow, fit = _along_earlier_scene()
    apart = np.zeros_like(earlier)
    apart[58:63, 44 + LINE_GAP_PX + 2 : 170] = True  # a gap of 3 px after the sliver
    assert _along_earlier(fit, sliver, apart) < 30
    # nor from an earlier dart lying beside the sliver's line, not on it
    beside = np.zeros_like(earlier)
    beside[70:75, 40:170] = True
    assert _along_earlier(fit, sliver, beside) < 30


def _grey_sliver_and_flights():
    """The scene of ``_along_earlier_scene`` with the new dart's barrel grey enough to pass
    for a shadow (only its point changed colour) and its flights sticking out on both sides
    of the earlier dart's shaft further back on the same line (x = 130..159)."""
    earlier, sliver, shadow, fit = _along_earlier_scene()
    shadow = shadow.copy()
    shadow[57:64, 30:44] = True  # the grey barrel: only darker, like a shadow
    flights = np.zeros_like(sliver)
    flights[44:58, 130:160] = True
    flights[63:77, 130:160] = True
    return earlier, sliver, shadow, flights, fit


def test_grey_sliver_with_its_flights_further_back_on_its_line_is_one_dart():
    detector = _detector_at_one_mm_per_pixel()
    earlier, sliver, shadow, flights, fit = _grey_sliver_and_flights()
    found = detector._sliver_with_flights(
        fit, sliver, _with_pixels([flights], shadow), shadow, earlier, 1.0
    )
    assert found is not None
    dart, group = found
    assert dart.tip == fit.tip  # the point is the sliver's
    assert abs(dart.length_px - (159 - 18)) <= 1.0  # to the flights' far end
    assert np.array_equal(group, sliver | flights)
    # it is ranked as a dart: a dart's length and area, not a shadow
    assert detector._is_dart(dart, group, 1.0, group & shadow)
    # by the sliver's own length the flights are too far back to be its own: the length
    # along the earlier dart is what joins them
    assert (
        detector._tail_pieces(sliver, _with_pixels([flights], shadow), fit, shadow, 1.0) is sliver
    )


def test_grey_sliver_is_no_dart_when_only_a_shadow_or_its_line_breaks():
    detector = _detector_at_one_mm_per_pixel()
    earlier, sliver, shadow, flights, fit = _grey_sliver_and_flights()
    # a shadow lies on the board: its end at the "point" only darkened the board too
    all_grey = shadow | sliver
    assert (
        detector._sliver_with_flights(
            fit, sliver, _with_pixels([flights], all_grey), all_grey, earlier, 1.0
        )
        is None
    )
    # the line from the point to the flights breaks (no earlier dart over x = 80..89)
    broken = earlier.copy()
    broken[:, 80:90] = False
    assert (
        detector._sliver_with_flights(
            fit, sliver, _with_pixels([flights], shadow), shadow, broken, 1.0
        )
        is None
    )
    # no flights behind the point: a grey piece alone stays a piece
    assert detector._sliver_with_flights(fit, sliver, [], shadow, earlier, 1.0) is None
    # no earlier dart in the region: nothing to run along
    assert (
        detector._sliver_with_flights(
            fit, sliver, _with_pixels([flights], shadow), shadow, None, 1.0
        )
        is None
    )


def test_flights_off_a_slivers_fitted_line_by_its_slant_are_behind_its_point():
    from vision.detector import _axis_slope, _behind_point
    from vision.tip import TipFit

    # a sliver (the part of a dart beside an earlier one): 30 px long, 5 px wide; its line
    # may lean by about its width over its length
    sliver = np.zeros((80, 120), dtype=bool)
    sliver[18:23, 10:40] = True
    fit = TipFit((10.0, 20.0), (1.0, 0.0), 30.0, 5.0, 10.0, False, 1.0)
    shadow = np.zeros_like(sliver)
    flights = np.zeros_like(sliver)
    flights[33:39, 60:80] = True  # 13-18 px off the line, 50-70 px behind the point
    far_off = np.zeros_like(sliver)
    far_off[50:56, 60:80] = True  # 30-35 px off: no lean of the line reaches it
    mm = 2.0  # a flight's half span is 10 px
    assert not _behind_point(fit, flights, sliver, shadow, mm)
    slope = _axis_slope(fit)
    assert _behind_point(fit, flights, sliver, shadow, mm, slope)
    assert not _behind_point(fit, far_off, sliver, shadow, mm, slope)


def test_flights_cut_off_behind_a_slender_barrel_join_it_and_win_no_settle():
    """A dart beside an earlier one fell apart into its barrel (slender, with its point) and
    its flights further back on the barrel's line. The flights' blob is the bigger one and
    ranks first; its end is a flight's edge, not a point. Flights stand out of the board and
    look wider beside the line than their span on the board: they are the barrel's dart.
    A slender piece too small to be a dart's body (a pair of flights seen edge-on) does not
    swallow the real dart behind it."""
    from vision.detector import _Candidate, _flights_joined
    from vision.tip import TipFit

    shape = (90, 160)
    shadow = np.zeros(shape, dtype=bool)
    barrel = np.zeros(shape, dtype=bool)
    barrel[43:47, 10:60] = True  # point at x = 10, towards +x
    barrel_fit = TipFit((10.0, 45.0), (1.0, 0.0), 50.0, 4.0, 3.0, False, 1.0)
    flights = np.zeros(shape, dtype=bool)
    flights[20:70, 75:95] = True  # 25 px either side of the line: 2.5 half spans
    flights_fit = TipFit((85.0, 70.0), (0.0, -1.0), 50.0, 20.0, 3.0, False, 1.0)
    mm = 2.0  # a flight's half span on the board is 10 px

    def candidate(fit, group):
        slender = fit.length_px / fit.width_px
        return _Candidate(float(group.sum()), fit, group, slender, float(group.sum()), True, mm)

    found = [candidate(flights_fit, flights), candidate(barrel_fit, barrel)]
    body_mm2 = 150.0  # the barrel's blob holds 200
    joined = _flights_joined(found, shadow, body_mm2)
    assert len(joined) == 1
    assert joined[0].fit is barrel_fit
    assert np.array_equal(joined[0].group, barrel | flights)
    # a dart of its own in front of the barrel's point is no flight of it
    ahead = np.zeros(shape, dtype=bool)
    ahead[20:70, 0:8] = True
    assert len(_flights_joined([candidate(flights_fit, ahead), found[1]], shadow, body_mm2)) == 2
    # nor is a slender dart lying behind the barrel's point (a barrel is the slenderer)
    thin_fit = TipFit((75.0, 45.0), (1.0, 0.0), 80.0, 2.0, 3.0, False, 1.0)
    thin = np.zeros(shape, dtype=bool)
    thin[44:46, 75:155] = True
    assert len(_flights_joined([candidate(thin_fit, thin), found[1]], shadow, body_mm2)) == 2
    # a slender piece with a point but too little of it to be a body keeps its rival apart
    edge_on = np.zeros(shape, dtype=bool)
    edge_on[44:46, 10:60] = True  # 100 px: half a barrel
    pieces = [candidate(flights_fit, flights), candidate(barrel_fit, edge_on)]
    assert len(_flights_joined(pieces, shadow, body_mm2)) == 2


def _photo_rig(board_id: str, seed: int):
    """What the photo tests share: the camera (35 degrees from 30 degrees round, a mild
    barrel lens), a renderer under a steady lamp, and a way to make a fresh detector."""
    import boards
    from calibration.model import from_camera
    from vision.detector import Detector
    from vision.sim.render import Renderer
    from vision.sim.scenario import CameraSetup

    board = boards.load(board_id)
    camera = CameraSetup(35.0, 30.0, 0.0, 65.0, (-0.12, 0.03, 0, 0, 0)).camera(board)
    renderer = Renderer(board, camera, STEADY_LIGHT, 2.0, None, seed=seed)
    return camera, renderer, lambda: Detector(board, from_camera(camera, board.id))


def test_photos_shifted_back_by_a_fraction_of_a_pixel_count_as_resampled():
    """A tripod touched between photos: each photo is shifted back onto the empty board's
    grid at its own fraction of a pixel (the empty board at none), so thin printed lines
    ripple where the phases differ, as in turned photos; the ripple test must apply. A photo
    that needed no shift leaves the pictures as they were."""
    from vision.frames import Frame
    from vision.sim.darts import Dart, DartModel
    from vision.sim.render import FrameSpec

    _camera, renderer, new_detector = _photo_rig("groundround", 4)
    detector = new_detector()
    empty = renderer.render(FrameSpec((), 0.0))
    assert darts([(0, e) for e in detector.process_still(Frame(empty, 0.0, "p"))]) == []
    again = renderer.render(FrameSpec((), 2.0))
    assert darts([(0, e) for e in detector.process_still(Frame(again, 2.0, "p"))]) == []
    assert not detector._resampled
    rng = np.random.default_rng(4)
    dart = Dart((250.0, 260.0), Dart.random_direction(rng), DartModel.random(rng))
    image = renderer.render(FrameSpec((dart,), 4.0, offset=(0.45, -0.3)))
    found = darts([(0, e) for e in detector.process_still(Frame(image, 4.0, "p"))])
    assert detector._resampled
    assert len(found) == 1
    assert math.hypot(found[0].x_mm - dart.tip_mm[0], found[0].y_mm - dart.tip_mm[1]) < 2.5


def test_photos_after_a_takeout_find_the_next_turns_darts():
    """Photos from a tripod nudged between them, of a painted dartboard compressed as a
    phone does: after the takeout the empty board's photo is also the last scene, and
    comparing a photo with that one picture alone left the ripple of resampling along every
    ring and wire standing (a change all over: the whole next turn was lost)."""
    from vision.bench import still_frames
    from vision.events import TakeoutEvent
    from vision.sim.dartboard import Paint

    def script(b):
        for _ in range(2):
            b.throw()
            b.idle(4)
        b.takeout()
        b.idle(6)
        for _ in range(3):
            b.throw()
            b.idle(4)

    paint = Paint.random(np.random.default_rng(3))
    session = make_session("classic", 3, script, tilt=40.0, azimuth=228.0, jpeg=78, paint=paint)
    thrown = session.truth["darts"]
    nudges = np.random.default_rng(3).normal(0.0, 0.8, (8, 2))
    detector = Detector(session.board, session.calibration)
    seen = []
    for k, index in enumerate(still_frames(session.truth)):
        spec = session.frames[index]
        if k > 0:
            spec = replace(spec, offset=(float(nudges[k, 0]), float(nudges[k, 1])))
        image = session.renderer.render(spec)
        seen += detector.process_still(Frame(image, spec.t, f"photo{k}"))
    assert ["takeout" if isinstance(e, TakeoutEvent) else "dart" for e in seen] == [
        "dart",
        "dart",
        "takeout",
        "dart",
        "dart",
        "dart",
    ]
    found = [_nearest_throw(e, thrown) for e in seen if isinstance(e, DartEvent)]
    assert [index for index, _ in found] == [0, 1, 2, 3, 4]
    assert all(error < 5.0 for _, error in found)


def _tight_group(seed: int, off_mm: float, board_id: str = "classic", video: bool = False):
    """Photos of the empty board, of one dart, and of a second dart of the same model and
    direction whose point is ``off_mm`` behind the first's along the first's image line:
    the second hides behind the first but for the rim where its shaft and flights stick out
    further back. Returns the detector's darts at each photo and both true points. With
    ``video``, each state is 8 video frames instead of one photo (the change from one state
    to the next is the motion)."""
    from vision.frames import Frame
    from vision.sim.darts import Dart, DartModel
    from vision.sim.render import FrameSpec

    camera, renderer, new_detector = _photo_rig(board_id, seed)
    rng = np.random.default_rng(seed)
    model = DartModel.random(np.random.default_rng(seed))
    tip = (200.0, 210.0)
    first = Dart(tip, Dart.random_direction(rng), model)
    ends = camera.project(np.vstack([[*tip, 0.0], first.axis_point(120.0)]))
    line = (ends[1] - ends[0]) / np.linalg.norm(ends[1] - ends[0])
    # the direction on the board whose image runs along the first dart's image line
    angles = np.linspace(0.0, math.pi, 721)
    ring = np.column_stack([tip[0] + np.cos(angles), tip[1] + np.sin(angles), 0 * angles])
    steps = camera.project(ring) - ends[0]
    across = np.abs(steps[:, 0] * line[1] - steps[:, 1] * line[0])
    angle = angles[int(np.argmin(across))]
    steps_toward = (camera.project(ring[[int(np.argmin(across))]]) - ends[0])[0] @ line
    sign = 1.0 if steps_toward > 0 else -1.0  # behind the point: towards the flights
    second_tip = (
        tip[0] + sign * off_mm * math.cos(angle),
        tip[1] + sign * off_mm * math.sin(angle),
    )
    second = Dart(second_tip, first.direction, model)
    detector = new_detector()
    found = []
    for k, objects in enumerate([(), (first,), (first, second)]):
        if not video:
            image = renderer.render(FrameSpec(objects, 2.0 * k))
            events = detector.process_still(Frame(image, 2.0 * k, "p"))
            found.append(darts([(0, e) for e in events]))
            continue
        events = []
        for n in range(8 * k, 8 * k + 8):
            image = renderer.render(FrameSpec(objects, n / 30.0))
            events += detector.process(Frame(image, n / 30.0, f"f{n}"))
        found.append(darts([(0, e) for e in events]))
    return found, tip, second_tip


def test_dart_hidden_along_an_earlier_one_is_not_put_at_its_flights_rim():
    """A tight group: the second dart landed 6 mm behind the first's point on the first's
    image line and hides behind it, but for the rim where its flights stick out of the
    first's. The rim's end is no point (it was reported 109 mm off with a sigma of 0.7 mm):
    the dart is put at the first's point, moved back by as far as the rim sticks out, with
    a sigma that says its point was not seen."""
    found, tip, second_tip = _tight_group(2, 6.0)
    assert (
        len(found[1]) == 1 and math.hypot(found[1][0].x_mm - tip[0], found[1][0].y_mm - tip[1]) < 2
    )
    assert len(found[2]) == 1
    dart = found[2][0]
    error = math.hypot(dart.x_mm - second_tip[0], dart.y_mm - second_tip[1])
    assert error < 2.5, error
    assert dart.sigma_mm >= 5.0  # the point was not seen


def test_dart_hidden_along_an_earlier_one_in_video_is_found_by_its_thin_rims():
    """Video of a tight group: the second dart's point lies 2 mm behind the first's on its
    line, so on the gate's small picture it changes only in lines a pixel wide where its
    rims stick out of the first dart. Those lines are no specks of noise (each pixel has a
    changed neighbour): the settle looks there, and the dart is found behind the first's
    point with a sigma that says its point was not seen (it was lost before)."""
    for board_id, seed in (("classic", 2), ("groundround", 5)):
        found, _tip, second_tip = _tight_group(seed, 2.0, board_id, video=True)
        assert len(found[1]) == 1, (board_id, seed)
        assert len(found[2]) == 1, (board_id, seed)
        dart = found[2][0]
        error = math.hypot(dart.x_mm - second_tip[0], dart.y_mm - second_tip[1])
        assert error < 2.5, (board_id, seed, error)
        assert dart.sigma_mm >= 5.0  # the point was not seen


def test_a_point_touching_an_earlier_dart_behind_its_point_is_a_rim_not_a_point():
    """The rim where a new dart's shaft or flights stick out of an earlier one's, behind the
    earlier point and on its line, has an end that is no point; a sliver ahead of the
    earlier point, a point standing off the earlier dart, or a dart crossing it are points."""
    from vision.detector import KnownDart, _earlier_flanks, _known_darts_mask, _point_on_flank
    from vision.events import DartEvent
    from vision.tip import TipFit

    earlier = np.zeros((120, 200), bool)
    earlier[58:63, 20:130] = True  # point, barrel and shaft along y = 60, point at x = 20
    earlier[45:76, 130:170] = True  # its flights
    rows, cols = np.nonzero(earlier)
    event = DartEvent("earlier", 0.0, 0.0, 1.0, None, (), (20.0, 60.0))
    known_dart = KnownDart(event, rows, cols, (0, 0, 200, 120), (1.0, 0.0), 150.0)
    box = (0, 0, 200, 120)
    # not placed by its seen point (point_seen is False): a rim may lie only a flight's half
    # span beside its line (not as far as its own pixels reach)
    flanks = _earlier_flanks([known_dart], box, _known_darts_mask([known_dart], box))

    def point(x: float, y: float) -> TipFit:
        return TipFit((x, y), (1.0, 0.0), 30.0, 4.0, 4.0, False, 1.0)

    def rim(x0: int, x1: int, y0: int, y1: int) -> np.ndarray:
        blob = np.zeros_like(earlier)
        blob[y0:y1, x0:x1] = True
        return blob

    # the end of a rim along the earlier dart's flights or shaft
    assert _point_on_flank(point(171.0, 60.0), rim(160, 172, 44, 77), flanks, 1.0)
    assert _point_on_flank(point(100.0, 64.0), rim(100, 130, 63, 66), flanks, 1.0)
    # a point just ahead of the earlier point (a sliver), or beside its point's end
    assert not _point_on_flank(point(16.0, 60.0), rim(16, 60, 58, 63), flanks, 1.0)
    assert not _point_on_flank(point(30.0, 64.0), rim(30, 60, 63, 66), flanks, 1.0)
    # a point standing off the earlier dart
    assert not _point_on_flank(point(100.0, 75.0), rim(100, 130, 75, 78), flanks, 1.0)
    # a point touching the earlier shaft whose body runs off the earlier dart's line: a
    # dart crossing it, not a rim
    crossing = np.zeros_like(earlier)
    for k in range(60):
        crossing[64 + k // 2 : 67 + k // 2, 100 + k] = True
    assert not _point_on_flank(point(100.0, 64.0), crossing, flanks, 1.0)
    assert _earlier_flanks([known_dart], box, None) is None


def test_a_shadow_branching_off_the_darts_line_marks_its_point():
    """Two lamps: one shadow runs on along the dart's own line (the walk followed it 40 px
    past the grey point), the other leaves the line at an angle. Every shadow of a dart starts at
    its point, so the point is where the branch meets the line (groundround 1013 f12 and f207
    on seed 13 were 88 and 66 mm off so). No branch, or a band that does not reach the line,
    leaves the tip alone, and so does one meeting the line near the tip."""
    from vision.shadows import at_shadow_fork
    from vision.tip import TipFit

    def scene(branch: bool, reaches: bool = True, at: int = 60):
        group = np.zeros((120, 200), bool)
        shadow = np.zeros_like(group)
        group[58:63, 60:150] = True  # the dart, its point at x = 60, flights towards +x
        shadow[58:63, 60:70] = True  # a grey point passes for a shadow
        group[58:63, 20:60] = True  # its shadow along its line, on past the point
        shadow[58:63, 20:60] = True
        if branch:
            start = 2 if reaches else 12
            for k in range(start, 40):  # the other lamp's shadow, down and back at 45 deg
                group[60 + k : 63 + k, at - 1 - k : at + 2 - k] = True
                shadow[60 + k : 63 + k, at - 1 - k : at + 2 - k] = True
        return group, shadow

    fit = TipFit((20.0, 60.0), (1.0, 0.0), 130.0, 5.0, 4.0, False, 1.0)
    group, shadow = scene(True)
    moved = at_shadow_fork(fit, group, shadow, 1.0)
    assert abs(moved.tip[0] - 60.0) <= 2.0 and abs(moved.tip[1] - 60.0) <= 1.0, moved.tip
    group, shadow = scene(False)
    assert at_shadow_fork(fit, group, shadow, 1.0).tip == fit.tip
    group, shadow = scene(True, reaches=False)
    assert at_shadow_fork(fit, group, shadow, 1.0).tip == fit.tip
    # a branch meeting the line within a short shadow run of the tip: maybe the point's own
    # soft shadow beside it, so the tip stays
    group, shadow = scene(True, at=30)
    assert at_shadow_fork(fit, group, shadow, 1.0).tip == fit.tip


def test_a_dart_once_found_where_none_was_does_not_hold_up_the_takeout():
    # An earlier settle took for a dart something that is not there (its pixels are the
    # empty board's). When the real darts are pulled, that one is nowhere near the change,
    # yet nothing of it shows: the takeout is reported, not missed for the rest of the game.
    # A throw elsewhere pulls no dart, though: it is a dart, not a takeout.
    from vision.detector import KnownDart
    from vision.events import DartEvent
    from vision.frames import Frame
    from vision.sim.darts import Dart, DartModel
    from vision.sim.render import FrameSpec

    _camera, renderer, new_detector = _photo_rig("groundround", 5)
    rng = np.random.default_rng(5)
    dart = Dart((250.0, 260.0), Dart.random_direction(rng), DartModel.random(rng))

    def photographed(scenes, ghost_before: int):
        detector = new_detector()
        events = []
        for k, spec in enumerate(scenes):
            if k == ghost_before:
                rows, cols = np.mgrid[40:60, 40:80]  # a corner of the empty board, far away
                ghost = DartEvent("p", 0.0, 0.0, 1.0, None, (), tip_px=(40.0, 50.0))
                detector.darts.append(KnownDart(ghost, rows.ravel(), cols.ravel()))
            image = renderer.render(spec)
            events += [(k, e) for e in detector.process_still(Frame(image, spec.t, "p"))]
        return events

    empty, thrown, pulled = FrameSpec((), 0.0), FrameSpec((dart,), 2.0), FrameSpec((), 4.0)
    events = photographed([empty, thrown, pulled], ghost_before=2)
    assert len(darts(events)) == 1
    assert [k for k, e in events if e in takeouts(events)] == [2]
    events = photographed([empty, thrown], ghost_before=1)
    assert len(darts(events)) == 1
    assert takeouts(events) == []


def test_a_tight_group_in_photos_puts_no_dart_at_the_earlier_darts_flights():
    """A dart grouped tightly behind an earlier one's point (seen from its side) changes the
    photo mostly beside that dart's flights, a dart's length from its own point. Nothing
    there says where its point is: no dart is put there (one was, 140-160 mm off)."""
    for board_id, off_mm in (("classic", 3.0), ("dartwars", 10.0)):
        found, _tip, second_tip = _tight_group(6, off_mm, board_id)
        errors = [math.hypot(d.x_mm - second_tip[0], d.y_mm - second_tip[1]) for d in found[2]]
        assert all(error < 50.0 for error in errors), (board_id, errors)


def _long_shadow_scene(start_px: float, specks: bool) -> tuple[TipFit, np.ndarray, np.ndarray]:
    """A dart lying along +x from its point at x = 80, and its shadow along its line from
    the point back to x = 10: ``start_px`` wide at the point, widening to 50 px where the flights' shadow falls. ``specks``: one shadow pixel
    in eight fails the shadow test, as camera noise makes some do. The fit's tip lies at the
    shadow's far end, where the walk ran on to."""
    rng = np.random.default_rng(5)
    group = np.zeros((120, 220), bool)
    shadow = np.zeros_like(group)
    for x in range(10, 80):
        half = (start_px + (50.0 - start_px) * (80 - x) / 70) / 2
        rows = slice(round(60 - half), round(60 + half) + 1)
        group[rows, x] = True
        shadow[rows, x] = True
    group[58:63, 80:200] = True  # the dart
    if specks:
        shadow &= ~((rng.random(shadow.shape) < 1 / 8) & (np.arange(220) < 80)[None, :])
    fit = TipFit((10.0, 60.0), (1.0, 0.0), 190.0, 5.0, 4.0, False, 1.0)
    return fit, group, shadow


def test_a_tip_out_in_a_wide_shadow_goes_back_to_where_the_shadow_starts():
    """Far up the board under a steep view (2.7 mm a pixel) a low lamp's shadow of the
    dart is some 15 mm wide where it starts and over 100 mm wide at the flights' shadow
    (dartwars 8041 on seed 41: the tip was put 113 mm out at the shadow's far end, three
    times in one game). Its width must be measured over more than 10 mm either side of
    the line to show the widening, and the specks of noise inside a shadow that wide are
    no solid dart."""
    from vision.shadows import at_shadow_start

    for start_px in (4.0, 16.0):
        for specks in (False, True):
            fit, group, shadow = _long_shadow_scene(start_px, specks)
            moved = at_shadow_start(fit, group, shadow, 1.0, lambda: 30.0)
            assert abs(moved.tip[0] - 80.0) <= 3.0, (start_px, specks, moved.tip)
            assert moved.tip[1] == fit.tip[1]
    # The run on the line is broken (a gap, joined to the rest only by something lying
    # beside the line): no one shadow from the point, the tip stays.
    fit, group, shadow = _long_shadow_scene(4.0, specks=False)
    group[:, 40:46] = False
    shadow[:, 40:46] = False
    group[44:50, 30:60] = True
    shadow[44:50, 30:60] = True
    assert at_shadow_start(fit, group, shadow, 1.0, lambda: 30.0).tip == fit.tip
    # A shadow no wider away from the point than at it (a grey barrel): the tip stays.
    fit, group, shadow = _long_shadow_scene(16.0, specks=False)
    group[:, :80] = False
    shadow[:, :80] = False
    group[52:69, 10:80] = True
    shadow[52:69, 10:80] = True
    assert at_shadow_start(fit, group, shadow, 1.0, lambda: 30.0).tip == fit.tip


def test_where_two_shadows_of_a_dart_meet_wins_over_a_narrow_stretch_of_one():
    """Under two lamps the dart's shadows join at its point in a wide knot: one runs on
    along its line (narrowing from the flights' wide shadow to a narrow stretch, then the
    knot), the other leaves at 45 degrees. Read first, the narrow stretch alone would put
    the tip short of the knot by its length (groundround 1013 f12 on seed 13: 14 mm); where
    the branch meets the line is the point."""
    from vision.tip import TipFit

    group = np.zeros((160, 220), bool)
    shadow = np.zeros_like(group)

    def band(x0: int, x1: int, w0: float, w1: float) -> None:
        for x in range(x0, x1):
            half = (w0 + (w1 - w0) * (x - x0) / max(1, x1 - 1 - x0)) / 2
            rows = slice(round(60 - half), round(60 + half) + 1)
            group[rows, x] = True
            shadow[rows, x] = True

    band(10, 60, 30.0, 5.0)  # from the flights' wide shadow to the narrow stretch
    band(60, 72, 5.0, 5.0)
    band(72, 80, 12.0, 12.0)  # the knot where both shadows start
    group[58:63, 80:200] = True  # the dart, flights towards +x
    for k in range(2, 50):  # the other lamp's shadow, down and back from x = 76
        group[60 + k : 63 + k, 75 - k : 78 - k] = True
        shadow[60 + k : 63 + k, 75 - k : 78 - k] = True
    fit = TipFit((10.0, 60.0), (1.0, 0.0), 190.0, 5.0, 4.0, False, 1.0)
    detector = _detector_at_one_mm_per_pixel()
    placed = detector._out_of_own_shadow(fit, group, shadow, 1.0, np.array([300.0, 200.0]))
    assert 75.0 <= placed.tip[0] <= 80.0, placed.tip


def test_a_thin_dart_beside_a_new_one_is_not_pulled():
    """The change at a known dart's pixels decides whether it was pulled. A dart seen
    end-on is a thin cross of flights: barely half its blob passes the threshold against the
    empty board. A second dart landing beside it (dartwars 5043 f20 on seed 43, 13 mm away)
    leaves its pixels as they were: it stays, and no takeout is reported. Pulled, its pixels
    are the empty board's again, also where a piece was moved onto half of its place."""
    from vision.detector import _not_pulled

    t = 10.0
    rng = np.random.default_rng(3)
    n = 200
    # the thin dart: 45 % of its blob clearly over the threshold, the rest faint
    showing = np.where(np.arange(n) < 0.45 * n, 25.0, 6.0) + rng.normal(0, 1.0, n)
    unchanged = np.abs(rng.normal(0, 2.0, n))
    assert _not_pulled(unchanged, showing, showing, t)
    # pulled: back to the empty board, changed against the last scene by what it showed
    empty = np.abs(rng.normal(0, 2.0, n))
    assert not _not_pulled(showing, empty, showing, t)
    # pulled, and a piece (differing from the dart and the board) put on half of its place
    piece = np.arange(n) < n // 2
    assert not _not_pulled(np.where(piece, 40.0, showing), np.where(piece, 40.0, empty), showing, t)
    # a new dart lying over most of it: still there
    covered = np.where(np.arange(n) < 0.7 * n, 50.0, showing)
    assert _not_pulled(covered, covered, showing, t)


def test_a_soft_shadow_on_the_darts_line_past_its_point_does_not_carry_the_tip_away():
    # Seen steeply from below under two lamps, one lamp lays the dart's soft shadow along
    # its own line past the point; a speck of noise in that shadow used to carry the dart's
    # run on to the shadow's far end, and the tip was put 69 mm from the point.
    import boards
    from vision.sim.scenario import random_session

    session = random_session(boards.load("dartwars"), 5059)
    detector = Detector(session.board, session.calibration)
    found = []
    for name, timestamp, image in session:
        found = [
            e for e in detector.process(Frame(image, timestamp, name)) if isinstance(e, DartEvent)
        ]
        if found:
            break
    truth = session.truth["darts"][0]
    assert math.hypot(found[0].x_mm - truth["x_mm"], found[0].y_mm - truth["y_mm"]) < 5.0


@pytest.mark.parametrize("degrees", [0.15, -0.8], ids=["a little", "nearly a degree"])
def test_board_turned_askew_between_throws_keeps_darts_and_takeouts_coming(degrees):
    """A knock can turn the board or camera a little, not only shift it: the picture then
    moves by a pixel or two at one side and hardly at the other. The move is followed (no
    dart is made of the printed edges it changes), the darts still in the board are pulled
    out as one takeout, and later darts are found where they landed."""
    turn_at: list[int] = []

    def script(b):
        b.throw()
        b.idle(4)
        turn_at.append(len(b.frames))
        b.idle(6)
        b.throw()
        b.throw()
        b.takeout()
        b.throw()

    session = make_session("classic", 10, script)
    w, h = session.camera.image_size
    session.frames = [
        replace(spec, turn=(degrees, 0.3 * w, 0.2 * h)) if index >= turn_at[0] else spec
        for index, spec in enumerate(session.frames)
    ]
    detector = Detector(session.board, session.calibration)
    events = []
    for name, timestamp, image in session:
        events.extend((name, e) for e in detector.process(Frame(image, timestamp, name)))
    assert len(session.truth["darts"]) == 4
    _takeout_and_darts_counted(session, events, within_mm=3)
    # the far corner of the board moved by about its distance from the pivot times the turn
    corners = session.calibration.board_to_image(
        np.array(
            [
                [0, 0],
                [session.board.width_mm, 0],
                [0, session.board.height_mm],
                [session.board.width_mm, session.board.height_mm],
            ],
            np.float64,
        )
    )
    farthest = float(np.linalg.norm(corners - (0.3 * w, 0.2 * h), axis=1).max())
    expected = farthest * math.radians(abs(degrees))
    assert abs(detector.camera_move_px - expected) < 0.1 * expected


def _camera_changes_midgame(transform, quiet_frames: int = 10):
    """A classic session: a dart, then the camera changes (``transform(image, changed)`` is
    applied to every frame, ``changed`` from that moment on) and stays quiet for
    ``quiet_frames``, then a dart, a takeout and a dart. The session and the detector's
    events."""
    change_at: list[int] = []

    def script(b):
        b.throw()
        b.idle(4)
        change_at.append(len(b.frames))
        b.idle(quiet_frames)
        b.throw()
        b.takeout()
        b.throw()

    session = make_session("classic", 10, script)
    detector = Detector(session.board, session.calibration)
    events = []
    for index, (name, timestamp, image) in enumerate(session):
        image = transform(image, index >= change_at[0])
        events.extend((name, e) for e in detector.process(Frame(image, timestamp, name)))
    return session, events


def _takeout_and_darts_counted(session, events, within_mm: float) -> None:
    """The one takeout reported, and every dart thrown, each within ``within_mm`` of where
    it landed."""
    assert len(takeouts(events)) == 1
    found = darts(events)
    assert len(found) == len(session.truth["darts"])
    for event, thrown in zip(found, session.truth["darts"], strict=True):
        assert math.hypot(event.x_mm - thrown["x_mm"], event.y_mm - thrown["y_mm"]) < within_mm


def _throws(b, count: int) -> None:
    """``count`` throws, the board at rest a moment after each."""
    for _ in range(count):
        b.throw()
        b.idle(4)


@pytest.mark.parametrize("when", ["mid-turn", "with the takeout"])
@pytest.mark.parametrize("switch", ["on", "off"])
@pytest.mark.parametrize("seed", [3, 6, 8])
def test_a_lamp_switched_on_or_off_makes_no_dart_and_the_game_goes_on(seed, switch, when):
    """Somebody switches another lamp on (or off) mid-turn, or while the darts are pulled:
    the picture gets brighter (or darker) at once, every earlier dart's shadows lighten (or
    deepen), and the lamp gives each a shadow of its own (or takes it away), shaped much
    like a dart. No dart comes of that (one did, off the darts' shadows), a takeout in the
    same moment counts (a switch taken in without it lost it, and the next dart with it;
    after a lamp switched off, the board's highlights the camera had clipped seemed changed
    and the pulled darts still there), and the darts and takeouts after it count."""
    rng = np.random.default_rng([seed, 77])
    light = Light.random(rng)
    more = light.with_lamp_switched_on(rng)
    before, after = (light, more) if switch == "on" else (more, light)

    def script(b):
        _throws(b, 2)
        if when == "mid-turn":
            b.switch_light(after)
            b.idle(8)
        _throws(b, 1)
        if when == "with the takeout":
            b.switch_light(after)
        b.takeout()
        b.idle(6)
        _throws(b, 2)
        b.takeout()
        b.idle(6)
        _throws(b, 1)

    session = make_session("classic", seed, script, light=before, tilt=40.0, azimuth=120.0)
    events = run_detector(session)
    assert len(takeouts(events)) == 2
    found = darts(events)
    assert len(found) == len(session.truth["darts"])
    # each where its dart landed (how close is the benchmark's business)
    for event, thrown in zip(found, session.truth["darts"], strict=True):
        assert math.hypot(event.x_mm - thrown["x_mm"], event.y_mm - thrown["y_mm"]) < 20.0


@pytest.mark.parametrize("seed", [3, 6])
def test_light_that_rises_slowly_costs_no_later_throw(seed):
    """The light rises over five seconds (a dimmer, a tube warming up) and the motion gate
    never sees it move: the next throw's settle is no jump of the light (it was taken for
    one against the last scene, and that throw's dart was never looked for)."""
    rng = np.random.default_rng([seed, 77])
    light = Light.random(rng)
    more = light.with_lamp_switched_on(rng)
    steps = 75

    def script(b):
        b.idle(10)
        for k in range(1, steps + 1):
            b.switch_light(
                replace(more, level=light.level + (more.level - light.level) * k / steps)
            )
            b.idle(1)
        b.idle(30)
        for _ in range(2):
            b.throw()
            b.idle(6)

    session = make_session("classic", seed, script, light=light)
    found = darts(run_detector(session))
    assert len(found) == 2
    # each where its dart landed (how close is the benchmark's business)
    for event, thrown in zip(found, session.truth["darts"], strict=True):
        assert math.hypot(event.x_mm - thrown["x_mm"], event.y_mm - thrown["y_mm"]) < 20.0


@pytest.mark.parametrize("board_id, seed", [("classic", 2), ("classic", 4), ("dartwars", 1)])
def test_a_board_knocked_after_a_lamp_was_switched_on_keeps_being_seen(board_id, seed):
    """A lamp switched on mid-turn, and the board knocked when the darts are pulled: the
    strip along the picture's border that a frame put back onto the grid does not cover was
    filled from the empty board's picture, of the old light, and passed for something big in
    front of the board at every settle: the takeout and every later dart were lost."""
    rng = np.random.default_rng([seed, 77])
    light = Light.random(rng)
    more = light.with_lamp_switched_on(rng)

    def script(b):
        _throws(b, 2)
        b.switch_light(more)
        b.idle(8)
        b.knock_rate = 1.0
        b.takeout()
        b.idle(6)
        b.knock_rate = 0.0
        _throws(b, 2)
        b.takeout()
        b.idle(6)

    session = make_session(board_id, seed, script, light=light, tilt=40.0, azimuth=120.0)
    assert any(e["event"] == "knock" for e in session.truth["events"])
    events = run_detector(session)
    assert len(takeouts(events)) == 2
    assert len(darts(events)) == len(session.truth["darts"])


def test_a_takeout_as_a_lamp_is_switched_on_in_a_dim_room_counts():
    """A dim room (the board's whites some 50 grey levels) where a lamp is switched on as
    the darts are pulled: the light around each dart is still measured (a fixed floor of
    brightness left no pixel to measure it on, so the darts were kept, the takeout lost, and
    the next dart taken for the takeout)."""
    rng = np.random.default_rng([3, 77])
    light = replace(Light.random(rng), level=0.2)
    more = light.with_lamp_switched_on(rng)

    def script(b):
        _throws(b, 3)
        b.switch_light(more)
        b.takeout()
        b.idle(6)
        _throws(b, 2)
        b.takeout()
        b.idle(6)

    session = make_session("classic", 3, script, light=light)
    events = run_detector(session)
    assert len(takeouts(events)) == 2
    assert len(darts(events)) == len(session.truth["darts"])


def test_a_picture_changed_all_over_in_thousands_of_pieces_makes_no_dart():
    """Something the detector does not follow changes the picture all over into thousands
    of small pieces (here 4000 dark specks appear and stay): no piece is a dart. (Each piece
    was fitted: 14 phantom darts in one settle, which took seconds.) The game goes on after
    the takeout."""
    rng = np.random.default_rng(3)
    h, w = 720, 1280
    specks = np.zeros((h, w), bool)
    for x, y in zip(rng.integers(0, w - 3, 4000), rng.integers(0, h - 3, 4000), strict=True):
        specks[y : y + 3, x : x + 3] = True

    def speckled(image, changed):
        if not changed:
            return image
        out = image.copy()
        out[specks] = (out[specks] * 0.3).astype(np.uint8)
        return out

    session, events = _camera_changes_midgame(speckled)
    thrown = session.truth["darts"]
    for event in darts(events):
        assert min(math.hypot(event.x_mm - t["x_mm"], event.y_mm - t["y_mm"]) for t in thrown) < 5
    assert len(takeouts(events)) == 1
    after_takeout = thrown[-1]
    assert any(
        math.hypot(e.x_mm - after_takeout["x_mm"], e.y_mm - after_takeout["y_mm"]) < 5
        for e in darts(events)
    )


def test_a_camera_whose_noise_goes_up_keeps_finding_darts_and_takeouts():
    """A webcam or phone raises its gain as the room gets darker, and its pictures get
    noisier: the motion gate must not take that noise for motion that never ends, and the
    change thresholds are measured anew, so the darts and takeouts after it still count."""
    rng = np.random.default_rng(0)

    def noisier(image, changed):
        if not changed:
            return image
        return np.clip(image + rng.normal(0.0, 6.0, image.shape), 0, 255).astype(np.uint8)

    session, events = _camera_changes_midgame(noisier, quiet_frames=30)
    _takeout_and_darts_counted(session, events, within_mm=3)


@pytest.mark.parametrize("exposure", [1.4, 0.6], ids=["brighter, whites clipped", "darker"])
def test_a_camera_that_sets_its_exposure_anew_mid_game_makes_no_dart_or_bounce_out(exposure):
    """A webcam or phone sets its exposure anew (a lamp switched on, the evening coming):
    the whole picture gets brighter or darker at once, beyond what the light correction
    took in a third, and the board's whites clip. That is no dart and no bounce-out (a
    bounce-out would cost the thrower a dart), and the later darts and takeout count."""

    def exposed(image, changed):
        return np.clip(image * exposure, 0, 255).astype(np.uint8) if changed else image

    session, events = _camera_changes_midgame(exposed)
    assert bounceouts(events) == []
    # each where its dart landed (whites clipped to the point's own brightness can hide the
    # end of a pale point: the tip's accuracy there is the benchmark's business)
    _takeout_and_darts_counted(session, events, within_mm=12)


@pytest.mark.parametrize(
    "before, after",
    [(0.0, 1.0), (1.0, 0.0), (0.0, 0.5), (0.6, 0.0)],
    ids=["blurrier", "sharper", "a little blurrier", "a little sharper"],
)
def test_a_camera_that_focuses_anew_mid_game_makes_no_dart_and_keeps_counting(before, after):
    """A webcam or phone focuses by itself and may focus anew during a game (on a hand that
    came close, say): every printed edge then changes at once. The new focus is taken in (the
    stored pictures blurred to it, or later frames blurred to theirs): no dart is made of the
    edges, and the later darts and the takeout count. A focus that changes a little changes
    only the strongest edges (the sheet's own, against the wall), too few to be followed:
    such an edge is as slender as a dart, and was taken for one (whose pixels then never went
    back to the empty board, so the takeout was missed too)."""

    def focused(image, changed):
        blur = after if changed else before
        return cv2.GaussianBlur(image, (0, 0), blur) if blur else image

    session, events = _camera_changes_midgame(focused)
    assert bounceouts(events) == []
    _takeout_and_darts_counted(session, events, within_mm=3)


def test_a_knock_at_a_takeout_is_followed_on_a_board_with_few_tiles_of_printed_edges():
    """A painted dartboard seen steeply holds printed edges in few of the picture's tiles,
    and the darts pulled in the same settle as the knock keep some of them changed after the
    move is undone: the move must still count as explaining the change (most of the changed
    pixels go), or the takeout is missed and a phantom made of the moved edges. (Bench
    session 2067 on the classic board, found by the held-out seed 67: all three takeouts of
    that session were missed.)"""
    import boards
    from vision.sim.scenario import random_session

    session = random_session(boards.load("classic"), 2067)
    knock = next(e for e in session.truth["events"] if e["event"] == "knock")
    takeout = next(e for e in session.truth["events"] if e["event"] == "takeout")
    detector = Detector(session.board, session.calibration)
    events = []
    for index, (name, timestamp, image) in enumerate(session):
        if index > takeout["frame"] + 10:
            break
        events.extend((index, e) for e in detector.process(Frame(image, timestamp, name)))
    after = [e for index, e in events if index >= knock["frame"]]
    assert [type(e).__name__ for e in after] == ["TakeoutEvent"]
    assert np.allclose(detector.camera_shift_px, knock["shift_px"], atol=0.1)


def test_a_knock_that_turns_the_board_is_followed_as_a_turn_when_a_shift_explains_most():
    """A shift may explain most of a turned board's change (most pixels go back) but not all
    of it: the move that leaves the least changed is kept, or the edges left over later
    hide a dart that bounced out (bench session 4067 on Dart Wars, seed 67)."""
    import boards
    from vision.sim.scenario import random_session

    session = random_session(boards.load("dartwars"), 4067)
    knock = next(e for e in session.truth["events"] if e["event"] == "knock")
    assert knock["turn_deg"] != 0.0
    bounce = next(
        e["frame"]
        for e in session.truth["events"]
        if e["event"] == "bounceout" and e["frame"] > knock["frame"]
    )
    detector = Detector(session.board, session.calibration)
    events = []
    for index, (name, timestamp, image) in enumerate(session):
        if index > bounce + 30:
            break
        events.extend((index, e) for e in detector.process(Frame(image, timestamp, name)))
    assert detector._camera_turn is not None
    assert any(isinstance(e, BounceoutEvent) and index > bounce for index, e in events)
