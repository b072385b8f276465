"""The camera pose from the calibration: how long a piece standing out of the board looks."""

from __future__ import annotations

import numpy as np


def _pose():
    import boards
    from calibration.model import from_camera
    from vision.geometry import DartGeometry
    from vision.sim.scenario import CameraSetup

    board = boards.load("classic")
    camera = CameraSetup(45.0, 30.0, 0.0, 65.0, (-0.1, 0.02, 0.0, 0.0, 0.0)).camera(board)
    return camera, DartGeometry(from_camera(camera, board.id))


def test_image_reach_covers_a_piece_standing_out_of_the_board():
    """A 30 mm piece from a board spot, at any lean, ends within the reach computed for 30 mm
    along its own image direction; one standing out towards the camera's side looks longer
    than the same piece lying on the board."""
    camera, geometry = _pose()
    spot = np.array([20.0, -35.0, 0.0])
    tip_px = camera.project(spot[None, :])[0]
    longest_flat = 0.0
    for lean in (0.0, 30.0, 60.0, 90.0):
        for turn in np.arange(0.0, 360.0, 45.0):
            a, b = np.radians(lean), np.radians(turn)
            # the room side of the board is -z
            direction = np.array([np.sin(a) * np.cos(b), np.sin(a) * np.sin(b), -np.cos(a)])
            end_px = camera.project((spot + 30.0 * direction)[None, :])[0]
            shown = float(np.linalg.norm(end_px - tip_px))
            if shown < 1.0:
                continue  # seen end-on
            along = (end_px - tip_px) / shown
            reach = geometry.image_reach(tip_px, along, 30.0, 400.0)
            assert reach >= shown - 0.6
            if lean == 90.0:
                longest_flat = max(longest_flat, shown)
    upright = camera.project((spot + 30.0 * np.array([0.0, 0.0, -1.0]))[None, :])[0]
    assert np.linalg.norm(upright - tip_px) > 0.5 * longest_flat
    away = (upright - tip_px) / np.linalg.norm(upright - tip_px)
    assert geometry.image_reach(tip_px, away, 30.0, 400.0) >= np.linalg.norm(upright - tip_px)
