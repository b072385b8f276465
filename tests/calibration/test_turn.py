"""Telling a dartboard's look-alike turns apart by its ring of numbers."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

import boards
from calibration.images import gray
from calibration.lens import undistort_image
from calibration.markerless import ART_PX_PER_MM, board_reference
from calibration.synthetic import Case, true_lens, view
from calibration.turn import best_turn, look_alike_turns, turn_scores, turned


@pytest.fixture(scope="module")
def dartboard_photo():
    board = boards.load("classic")
    case = Case("classic", 35, 120, 4, -0.1, noise=3, light=0.3, jpeg=85, seed=5, markers=False)
    image, camera = view(replace(case, style="dartboard"))
    lens = true_lens(camera)
    undistorted = undistort_image(gray(image), lens.for_size(camera.image_size))
    return board, undistorted, camera.board_from_undistorted


def test_only_a_steel_tip_board_has_look_alike_turns():
    assert look_alike_turns(boards.load("classic")) == tuple(36.0 * k for k in range(1, 10))
    assert look_alike_turns(boards.load("dartwars")) == ()
    assert look_alike_turns(boards.load("groundround")) == ()


def test_turning_a_view_about_the_bull_moves_board_points_around_it():
    board = boards.load("classic")
    centre = board.target.center
    h = turned(np.eye(3), centre, 90.0)
    top = np.array([centre[0], centre[1] - 100.0, 1.0])
    x, y, w = h @ top
    assert (x / w, y / w) == pytest.approx((centre[0] + 100.0, centre[1]))


@pytest.mark.parametrize("wrong", [72.0, 180.0, 324.0])
def test_a_view_turned_by_whole_pairs_of_segments_is_recognised(dartboard_photo, wrong):
    board, photo, truth = dartboard_photo
    art = board_reference(board).image
    centre = board.target.center
    assert best_turn(turn_scores(photo, art, ART_PX_PER_MM, truth, board)) == 0.0
    found = turned(truth, centre, wrong)
    back = best_turn(turn_scores(photo, art, ART_PX_PER_MM, found, board))
    assert back == pytest.approx(360.0 - wrong)
    assert turned(found, centre, back) == pytest.approx(truth, abs=1e-6)
