"""The scene simulator makes only scenes a real board can show."""

from __future__ import annotations

import itertools

import pytest

import boards
from vision.sim.darts import Dart, DartModel
from vision.sim.scenario import random_session


def _model() -> DartModel:
    import numpy as np

    return DartModel.random(np.random.default_rng(3))


def test_darts_side_by_side_clear_each_other_only_when_their_barrels_do():
    model = _model()
    straight = (0.0, -0.3, -0.954)
    first = Dart((100.0, 100.0), straight, model)
    touching = 2 * model.barrel_r
    through = Dart((100.0 + touching - 2.0, 100.0), straight, model)
    beside = Dart((100.0 + touching + 2.0, 100.0), straight, model)
    assert first.clearance(through) == pytest.approx(-2.0, abs=0.1)
    assert first.clearance(beside) == pytest.approx(2.0, abs=0.1)
    assert beside.clearance(first) == pytest.approx(first.clearance(beside))


@pytest.mark.parametrize("seed", [41, 2041, 7041])
def test_a_dart_thrown_into_a_tight_group_never_passes_through_an_earlier_one(seed):
    """Grouped throws land a few mm apart and nearly parallel: one that would run through an
    earlier dart's barrel glances off it and sticks beside it instead."""
    session = random_session(boards.load("classic"), seed)
    checked = 0
    for spec in session.frames:
        stuck = [o for o in spec.objects if isinstance(o, Dart) and o.sway is None]
        for a, b in itertools.combinations(stuck, 2):
            if a.lift_mm == b.lift_mm == (0.0, 0.0, 0.0):
                assert a.clearance(b) >= 0.0, (seed, a.tip_mm, b.tip_mm)
                checked += 1
    assert checked > 0
