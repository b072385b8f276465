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


def test_a_lamp_switched_on_brightens_the_room_and_gives_each_dart_another_shadow():
    """From the frame after ``switch_light`` the room is lit by the new light: brighter by
    the new lamp's share, and each dart casts one more shadow, on a side of its own."""
    import numpy as np

    from vision.sim.render import Light
    from vision.sim.testing import make_session

    rng = np.random.default_rng(5)
    light = Light.random(rng)
    more = light.with_lamp_switched_on(rng)
    assert len(more.lamps()) == len(light.lamps()) + 1
    assert more.level > light.level

    def script(b):
        b.throw()
        b.idle(3)
        b.switch_light(more)
        b.idle(3)

    session = make_session("classic", 5, script, light=light, noise=0.0)
    switched = next(e["frame"] for e in session.truth["events"] if e["event"] == "light")
    before = session.renderer.render(session.frames[switched - 1]).astype(np.float32)
    after = session.renderer.render(session.frames[switched]).astype(np.float32)
    unclipped = (before < 200).all(axis=2) & (after < 250).all(axis=2)
    ratio = np.median(after[unclipped].sum(axis=1) / (before[unclipped].sum(axis=1) + 1.0))
    assert ratio == pytest.approx(more.level / light.level, rel=0.05)
    # darker than the brightened room by more than the old shadows were: the new shadow
    lit_before = before * (more.level / light.level)
    newly_shaded = (after.sum(axis=2) < 0.8 * lit_before.sum(axis=2)) & unclipped
    assert np.count_nonzero(newly_shaded) > 20
