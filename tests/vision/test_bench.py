"""The benchmark's scoring: what counts as found, phantom, zone right, takeout found."""

from __future__ import annotations

import json

import numpy as np
import pytest

import boards
from vision.bench import SessionScore, _match, format_table, meets, summarise
from vision.events import BounceoutEvent, DartEvent, TakeoutEvent


def _dart(x: float, y: float, zone: str | None) -> DartEvent:
    return DartEvent("f", x, y, 0.5, zone, (zone,) if zone else ())


def test_scoring_counts_found_phantoms_zones_and_takeouts():
    board = boards.load("classic")
    zone = board.locate(280.0, 200.0).zone
    truth = {
        "darts": [
            {"x_mm": 280.0, "y_mm": 200.0, "frame": 5, "turn": 0},
            {"x_mm": 200.0, "y_mm": 300.0, "frame": 15, "turn": 0},
            {"x_mm": 330.0, "y_mm": 330.0, "frame": 40, "turn": 1},
        ],
        "events": [
            {"event": "dart", "frame": 5},
            {"event": "dart", "frame": 15},
            {"event": "takeout", "frame": 30},
            {"event": "bounceout", "frame": 35},
            {"event": "dart", "frame": 40},
        ],
    }
    detections = [
        (9, _dart(280.6, 200.0, zone)),  # 0.6 mm off
        (18, _dart(120.0, 120.0, None)),  # nowhere near a thrown dart: phantom
        (31, TakeoutEvent("f")),
        (37, BounceoutEvent("f")),
        (44, _dart(281.0, 200.0, zone)),  # near dart 0, but that one was taken out: phantom
    ]
    score = SessionScore("classic", 1)
    _match(board, truth, detections, score)
    assert (score.thrown, score.found, score.phantoms) == (3, 1, 2)
    assert score.errors_mm == [0.6000000000000227]
    assert (score.zone_checked, score.zone_right) == (1, 1)
    assert (score.takeouts, score.takeouts_found) == (1, 1)
    assert (score.bounceouts, score.bounceouts_found) == (1, 1)
    assert {m["kind"] for m in score.misses} == {"phantom", "missed"}
    score.frames, score.detector_s = 100, 0.2
    row = summarise([score])
    assert row["recall"] == 1 / 3 and row["ms_per_frame"] == 2.0
    verdict = meets(row)
    assert not verdict["recall"] and not verdict["phantoms"] and verdict["ms_per_frame"]
    table = format_table({"boards": {"classic": row}, "total": row})
    assert "classic" in table and "recall MISSED" in table


def test_a_misplaced_tip_is_told_by_where_it_went_along_the_dart():
    board = boards.load("classic")
    # the dart's image runs from its tip at (100, 100) to the end of its flights at (100, 40)
    dart = {"x_mm": 200.0, "y_mm": 200.0, "frame": 1, "turn": 0}
    dart |= {"tip_px": [100.0, 100.0], "tail_px": [100.0, 40.0]}
    truth = {"darts": [dart], "events": [{"event": "dart", "frame": 1}]}

    def miss_at(pixel: tuple[float, float]) -> dict:
        event = DartEvent("f", 205.0, 200.0, 0.5, None, (), pixel)
        score = SessionScore("classic", 1)
        _match(board, truth, [(2, event)], score)
        (miss,) = [m for m in score.misses if m["kind"] == "far"]
        return miss

    assert miss_at((100.0, 108.0))["error"] == "past"  # ran on past the point (its shadow)
    assert miss_at((100.0, 90.0))["error"] == "short"  # stopped on the barrel
    assert miss_at((115.0, 70.0))["error"] == "beside"  # a flight wing
    assert miss_at((100.0, 45.0))["error"] == "tail"
    # and how far: along the dart towards its tail, and beside its line
    short_and_aside = miss_at((103.0, 90.0))
    assert (short_and_aside["along_px"], short_and_aside["beside_px"]) == (10.0, 3.0)


def test_stills_take_one_settled_photo_per_state_of_the_board():
    """The empty board, then each dart that stays once it stopped shaking, then the board
    cleared; a bounce-out leaves the board as it was, so it gets no photo."""
    from vision.bench import still_frames
    from vision.sim.darts import Dart
    from vision.sim.scenario import random_session

    session = random_session(boards.load("groundround"), 5, bounce_rate=0.5)
    truth = session.truth
    picks = still_frames(truth)
    kept = [e for e in truth["events"] if e["event"] in ("dart", "takeout")]
    assert any(e["event"] == "bounceout" for e in truth["events"])
    assert picks[0] == 0 and len(picks) == 1 + len(kept)
    for event, frame in zip(kept, picks[1:], strict=True):
        assert frame > event["frame"]
        spec = session.frames[frame]
        assert spec.hand is None and spec.shake == (0.0, 0.0)  # nobody in front, not shaking
        # the photo shows exactly the darts thrown this turn so far
        turn = sum(1 for e in truth["events"] if e["event"] == "takeout" and e["frame"] <= frame)
        landed = [d for d in truth["darts"] if d["frame"] <= frame and d["turn"] == turn]
        assert sum(isinstance(o, Dart) for o in spec.objects) == len(landed)


def test_handheld_without_stills_is_refused_with_a_hint(capsys):
    from oche.cli import main

    assert main(["bench", "vision", "--handheld", "--sessions", "1"]) == 2
    assert "add --stills" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--sessions", "0"], "argument --sessions: 0 runs nothing: give 1 or more"),
        (["--boards", " , "], "give at least one board"),
        (["--boards", "classic,clasic"], "unknown board 'clasic'"),
    ],
)
def test_a_benchmark_of_nothing_is_refused_rather_than_meeting_every_target(capsys, options, said):
    from oche.cli import main

    try:
        code = main(["bench", "vision", "--json", *options])
    except SystemExit as exit_:  # argparse refuses a bad option value itself
        code = exit_.code
    assert code == 2
    captured = capsys.readouterr()
    assert said in captured.err and captured.out == ""


@pytest.mark.parametrize("size", ["1280", "1280x", "axb", "100x100", "1280x720x3"])
def test_a_picture_size_that_is_no_camera_picture_is_refused_with_a_hint(capsys, size):
    from oche.cli import main

    assert main(["bench", "vision", "--size", size, "--sessions", "1"]) == 2
    err = capsys.readouterr().err
    assert f"--size {size!r}" in err and "e.g. --size 1920x1080" in err


def test_the_benchmark_runs_with_another_camera_picture_and_says_which(capsys):
    from oche.cli import main

    args = ["bench", "vision", "--stills", "--sessions", "1", "--boards", "classic"]
    assert main([*args, "--size", "960x540", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["image_size"] == [960, 540]
    assert result["total"]["thrown"] > 0 and result["total"]["found"] > 0
    result["boards"]["classic"] = result["total"]
    assert "camera picture: 960x540 px" in format_table(result)


def test_the_sessions_are_filmed_at_the_asked_picture_size():
    from vision.sim.scenario import random_session

    session = random_session(boards.load("classic"), 3, image_size=(960, 540))
    assert session.renderer.render(session.frames[0]).shape[:2] == (540, 960)


def test_hand_held_photos_each_come_with_their_own_exposure_and_white_balance():
    from vision.bench import _phone_exposure

    rng = np.random.default_rng(1)
    grey = np.full((8, 8, 3), 128, np.uint8)
    shots = [_phone_exposure(grey, rng).reshape(-1, 3).mean(axis=0) for _ in range(6)]
    assert len({tuple(s) for s in shots}) == 6  # every photo its own
    assert len({round(float(s.mean())) for s in shots}) > 1  # brighter or darker
    assert max(float(np.ptp(s)) for s in shots) >= 3  # warmer or colder: channels apart
    assert np.array_equal(grey, np.full((8, 8, 3), 128, np.uint8))  # the input is kept


@pytest.mark.parametrize("quality", ["0", "101", "-5"])
def test_a_jpeg_quality_out_of_range_is_refused_with_a_hint(capsys, quality):
    from oche.cli import main

    assert main(["bench", "vision", "--jpeg", quality, "--sessions", "1"]) == 2
    err = capsys.readouterr().err
    assert f"--jpeg {quality}" in err and "1-100" in err


def test_the_benchmark_can_film_every_session_as_a_webcam_compresses_it(capsys):
    """``--jpeg Q`` compresses every frame at quality Q; camera, light and darts stay."""
    from oche.cli import main
    from vision.sim.scenario import random_session

    plain = random_session(boards.load("classic"), 3)
    squeezed = random_session(boards.load("classic"), 3, jpeg_quality=40)
    assert squeezed.truth["jpeg_quality"] == 40
    assert squeezed.truth["camera"] == plain.truth["camera"]
    assert squeezed.truth["darts"] == plain.truth["darts"]
    blocky = squeezed.renderer.render(squeezed.frames[0]).astype(float)
    clean = plain.renderer.render(plain.frames[0]).astype(float)
    assert 0.5 < float(np.abs(blocky - clean).mean()) < 8.0  # the same picture, compressed

    args = ["bench", "vision", "--stills", "--sessions", "1", "--boards", "classic"]
    assert main([*args, "--jpeg", "40"]) == 0
    assert "every frame JPEG-compressed at quality 40" in capsys.readouterr().out


def test_the_benchmark_can_film_the_same_sessions_with_another_draw_of_noise(capsys):
    """``--noise-draw N`` keeps camera, light and darts and draws the camera's noise anew:
    how much of a result is the luck of one draw."""
    from oche.cli import main
    from vision.sim.scenario import random_session

    plain = random_session(boards.load("classic"), 3)
    again = random_session(boards.load("classic"), 3, noise_draw=0)
    redrawn = random_session(boards.load("classic"), 3, noise_draw=2)
    assert redrawn.truth == plain.truth
    first = plain.renderer.render(plain.frames[0]).astype(float)
    assert np.array_equal(again.renderer.render(again.frames[0]), first)
    other = redrawn.renderer.render(redrawn.frames[0]).astype(float)
    noise = plain.truth["noise_sigma"]
    # two independent draws differ by about sqrt(2) times the noise, and by nothing else
    assert 0.5 * noise < float(np.abs(other - first).mean()) < 2.5 * noise

    args = ["bench", "vision", "--stills", "--sessions", "1", "--boards", "classic"]
    assert main([*args, "--noise-draw", "1"]) == 0
    assert "camera noise: draw 1 (0: the sessions' own)" in capsys.readouterr().out
    assert main([*args, "--noise-draw", "-1"]) == 2
    assert "--noise-draw -1 is no draw" in capsys.readouterr().err


def test_the_benchmark_can_switch_a_lamp_in_every_session(capsys):
    """``--lamp-switch``: one more lamp switched on or off once in every session, in the
    light as the truth says; the darts thrown are those of the session without it."""
    from oche.cli import main
    from vision.sim.scenario import random_session

    plain = random_session(boards.load("classic"), 3)
    switched = random_session(boards.load("classic"), 3, lamp_switch=True)
    landed = [(d["x_mm"], d["y_mm"]) for d in plain.truth["darts"]]
    assert [(d["x_mm"], d["y_mm"]) for d in switched.truth["darts"]] == landed
    lights = [e["frame"] for e in switched.truth["events"] if e["event"] == "light"]
    assert len(lights) == 1
    before = switched.frames[lights[0] - 1].light
    after = switched.frames[lights[0]].light
    assert after is not None and after != before
    # the first frames are lit as the session's renderer lights them
    assert switched.frames[0].light is None

    args = ["bench", "vision", "--sessions", "1", "--boards", "classic", "--lamp-switch"]
    assert main(args) == 0
    assert "a lamp switched on or off once in every session" in capsys.readouterr().out
