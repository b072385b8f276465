"""Photos whose white balance the phone set anew for each shot."""

from __future__ import annotations

import numpy as np

from vision.sim.testing import darts, make_session, takeouts
from vision.white_balance import balanced_like


def _rebalanced(image: np.ndarray, gains: tuple[float, float, float]) -> np.ndarray:
    return np.clip(image.astype(np.float32) * np.array(gains) + 0.5, 0, 255).astype(np.uint8)


def _board() -> np.ndarray:
    session = make_session("dartwars", 4, lambda b: b.idle(1))
    return session.render(0)


def test_a_warmer_photo_is_brought_back_to_the_empty_boards_balance():
    board = _board()
    warm = _rebalanced(board, (0.93, 1.0, 1.08))  # BGR: less blue, more red
    back = balanced_like(warm, board)
    # The channels stand as on the board again; overall brightness is the light's business.
    ratio = back.reshape(-1, 3).astype(float).mean(axis=0) / board.reshape(-1, 3).mean(axis=0)
    assert np.ptp(ratio) < 0.01
    assert (
        np.ptp(warm.reshape(-1, 3).astype(float).mean(axis=0) / board.reshape(-1, 3).mean(axis=0))
        > 0.1
    )
    assert warm[0, 0, 0] == _rebalanced(board, (0.93, 1.0, 1.08))[0, 0, 0]  # input untouched


def test_a_photo_in_the_same_balance_is_left_as_it_is_whatever_else_changed():
    board = _board()
    darker = _rebalanced(board, (0.9, 0.9, 0.9))  # exposure: left to the light correction
    darker[100:160, 200:230] = (20, 20, 200)  # a red flight, a large one
    assert np.array_equal(balanced_like(darker, board), darker)


def test_darts_in_photos_with_another_white_balance_are_found_where_they_are():
    from vision.detector import Detector
    from vision.frames import Frame

    def script(b):
        for _ in range(2):
            b.throw()
            b.idle(4)

    session = make_session("dartwars", 12, script)
    detector = Detector(session.board, session.calibration)
    first, last = session.truth["darts"][0]["frame"] + 6, len(session.frames) - 1
    warm = (0.94, 1.0, 1.06)
    photos = [session.render(0), *(_rebalanced(session.render(i), warm) for i in (first, last))]
    events = [
        e for k, p in enumerate(photos) for e in detector.process_still(Frame(p, 2.0 * k, "p"))
    ]
    found = darts([(0, e) for e in events])
    assert len(found) == 2
    for dart, truth in zip(found, session.truth["darts"], strict=True):
        assert np.hypot(dart.x_mm - truth["x_mm"], dart.y_mm - truth["y_mm"]) < 2.5


def test_a_webcam_that_sets_its_white_balance_anew_behind_a_hand_loses_no_takeout():
    """A webcam's automatic white balance may change while a person pulls the darts (the
    picture is full of other colours then): the board comes back with a colour cast, which
    must not read as new darts, nor hide the takeout."""
    from vision.detector import Detector
    from vision.frames import Frame

    def script(b):
        b.throw()
        b.throw()
        b.takeout()
        b.idle(6)
        b.throw()
        b.throw()

    session = make_session("dartwars", 4, script)
    (pulled,) = [e["frame"] for e in session.truth["events"] if e["event"] == "takeout"]
    detector = Detector(session.board, session.calibration)
    events = []
    for index, (name, timestamp, image) in enumerate(session):
        if index >= pulled:
            image = _rebalanced(image, (0.95, 1.0, 1.05))
        events.extend((index, e) for e in detector.process(Frame(image, timestamp, name)))
    assert len(takeouts(events)) == 1
    found = darts(events)
    assert len(found) == 4
    for dart, truth in zip(found, session.truth["darts"], strict=True):
        assert np.hypot(dart.x_mm - truth["x_mm"], dart.y_mm - truth["y_mm"]) < 2.5
