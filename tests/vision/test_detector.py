"""The detector on simulated sessions: what a player would notice at the board."""

from __future__ import annotations

import math

import numpy as np

from vision.sim.render import Light
from vision.sim.testing import bounceouts, darts, make_session, run_detector, takeouts


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


def test_45_degree_view_with_jpeg_still_finds_every_dart():
    def script(b):
        for _ in range(3):
            b.throw()

    session = make_session("groundround", 11, script, tilt=45.0, azimuth=300.0, jpeg=85)
    found = darts(run_detector(session))
    assert len(found) == 3
    assert _honest(found, session.truth["darts"], 4.0) == []


def test_bounce_out_is_reported_as_such_and_never_as_a_dart():
    def script(b):
        b.throw(bounce=True)
        b.idle(5)

    events = run_detector(make_session("classic", 5, script))
    assert darts(events) == []
    assert len(bounceouts(events)) == 1


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


def test_board_knocked_while_pulling_darts_keeps_takeouts_and_darts_coming():
    """Pulling darts moves a hanging board a pixel or two: the takeout is still reported, the
    next darts are found where they landed, and the move makes no dart of its own."""
    from dataclasses import replace

    knock_at: list[int] = []

    def script(b):
        b.throw()
        b.throw()
        knock_at.append(len(b.frames) + 3)  # the hand is at the board, pulling
        b.takeout()
        b.throw()
        b.throw()
        b.takeout()

    session = make_session("classic", 10, script)
    session.frames = [
        replace(spec, offset=(2.4, -1.3)) if index >= knock_at[0] else spec
        for index, spec in enumerate(session.frames)
    ]
    events = run_detector(session)
    assert len(takeouts(events)) == 2
    found = darts(events)
    assert len(found) == 4
    for event, thrown in zip(found, session.truth["darts"], strict=True):
        assert math.hypot(event.x_mm - thrown["x_mm"], event.y_mm - thrown["y_mm"]) < 3


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
