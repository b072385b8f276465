"""The vision benchmark: seeded simulated sessions scored against their ground truth.

Used by ``oche bench vision``. Every number the issue sets a target for is measured here:
recall, phantom darts, tip error, zone accuracy away from lines, takeouts, bounce-outs and
the detector's time per frame (the rendering of the simulated frames is not counted).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

import boards
from boards.model import Board
from vision.detector import Detector
from vision.events import BounceoutEvent, DartEvent, TakeoutEvent
from vision.frames import Frame
from vision.sim.scenario import random_session

TARGETS = {
    "recall": 0.995,
    "phantoms": 0,
    "median_mm": 1.0,
    "p95_mm": 2.5,
    "zone_accuracy": 0.995,
    "ms_per_frame": 10.0,
    "locate_ms": 60.0,
}
PICTURE_SIZE = (1280, 720)  # the camera picture the targets are set for
MATCH_MM = 50.0  # a detection further than this from every thrown dart is a phantom


@dataclass
class SessionScore:
    board: str
    seed: int
    thrown: int = 0
    found: int = 0
    phantoms: int = 0
    errors_mm: list[float] = field(default_factory=list)
    zone_checked: int = 0
    zone_right: int = 0
    takeouts: int = 0
    takeouts_found: int = 0
    bounceouts: int = 0
    bounceouts_found: int = 0
    frames: int = 0
    detector_s: float = 0.0
    locate_ms: list[float] = field(default_factory=list)
    misses: list[dict[str, Any]] = field(default_factory=list)
    camera: dict[str, Any] = field(default_factory=dict)


def score_session(
    board: Board,
    seed: int,
    stills: bool = False,
    handheld: bool = False,
    **session_options: Any,
) -> SessionScore:
    """Run the detector over one seeded session: every frame as video, or (``stills``) one
    photo per state of the board, as a folder of separate photos would give it."""
    session = random_session(board, seed, **session_options)
    detector = Detector(board, session.calibration)
    score = SessionScore(board.id, seed, camera=session.truth["camera"])
    detections: list[tuple[int, Any]] = []
    indices = still_frames(session.truth) if stills else range(len(session.frames))
    # Photos taken one by one: the camera is nudged a little between them.
    nudge = np.random.default_rng(seed).normal(0.0, STILLS_NUDGE_PX, (len(indices), 2))
    rng_hand = np.random.default_rng([seed, 1])
    rng_phone = np.random.default_rng([seed, 2])
    rng_focus = np.random.default_rng([seed, 3])
    for k, index in enumerate(indices):
        name, spec = session.frame_name(index), session.frames[index]
        if stills and k > 0:
            moved = (spec.offset[0] + float(nudge[k, 0]), spec.offset[1] + float(nudge[k, 1]))
            spec = replace(spec, offset=moved)
        if handheld and k > 0:
            spec = replace(spec, focus_px=_phone_focus_px(rng_focus, session.renderer.size[0]))
        image = session.renderer.render(spec)
        if handheld and k > 0:
            image = _phone_exposure(_held_in_hand(image, rng_hand), rng_phone)
        frame = Frame(image, spec.t, name)
        start = time.perf_counter()
        events = detector.process_still(frame) if stills else detector.process(frame)
        elapsed = time.perf_counter() - start
        score.detector_s += elapsed
        if any(isinstance(e, DartEvent) for e in events):
            score.locate_ms.append(elapsed * 1000)
        detections.extend((index, e) for e in events)
    score.frames = len(indices)
    _match(board, session.truth, detections, score)
    if stills:
        # A photo cannot show a dart falling out: bounce-outs are not a stills question.
        score.bounceouts = score.bounceouts_found = 0
        score.misses = [m for m in score.misses if m["kind"] != "extra_bounceouts"]
    return score


# A dart has settled this many frames after it landed (at most 3 frames of impact shake,
# then at least 8 still ones), and the board is clear this many frames after a takeout.
SETTLED_AFTER_DART = 6
SETTLED_AFTER_TAKEOUT = 4
STILLS_NUDGE_PX = 0.7  # camera moved between two photos (a tripod touched), sigma per axis


HAND_TURN_DEG = 0.4  # a phone held in the hand turns this much between photos (sigma)
HAND_TILT = 2e-6  # and tilts: perspective terms (1/px), about 1 px at the picture's corners


def _held_in_hand(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The photo as a camera held in the hand takes it: turned about the picture's centre,
    a little closer or further, and tilted (the board is flat, so a homography)."""
    h, w = image.shape[:2]
    angle = np.radians(rng.normal(0.0, HAND_TURN_DEG))
    scale = 1.0 + rng.normal(0.0, 0.003)
    c, s = scale * np.cos(angle), scale * np.sin(angle)
    centre = np.array([[1, 0, w / 2], [0, 1, h / 2], [0, 0, 1]])
    turn = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
    tilt = np.array([[1, 0, 0], [0, 1, 0], [*rng.normal(0.0, HAND_TILT, 2), 1]])
    homography = centre @ tilt @ turn @ np.linalg.inv(centre)
    return cv2.warpPerspective(
        image, homography, (w, h), flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_REFLECT
    )


PHONE_EXPOSURE = 0.05  # a phone sets exposure anew for each photo: brightness ratio, sigma
PHONE_BALANCE = 0.03  # and white balance: each colour channel's ratio to the others, sigma


def _phone_exposure(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The photo as a phone's automatic exposure and white balance leave it: brighter or
    darker, warmer or colder than the one before."""
    exposure = rng.normal(1.0, PHONE_EXPOSURE)
    balance = rng.normal(1.0, PHONE_BALANCE, 3)
    gains = (exposure * balance / balance.mean()).astype(np.float32)
    return np.clip(image.astype(np.float32) * gains + 0.5, 0, 255).astype(np.uint8)


# and focuses anew: up to this much blurrier than in focus (Gaussian sigma, px at 1280 px
# wide; the board in focus, or the flights standing out of it)
PHONE_FOCUS_MOST_PX = 0.5


def _phone_focus_px(rng: np.random.Generator, width: int) -> float:
    """How far out of focus (Gaussian sigma, px) a phone that focused anew takes a photo of
    ``width`` px: a little blurrier than the empty board's photo, or not at all."""
    return float(rng.uniform(0.0, PHONE_FOCUS_MOST_PX)) * width / 1280


def still_frames(truth: dict[str, Any]) -> list[int]:
    """One settled frame per state of the board: the empty board first, then one after each
    dart that stays and one after each takeout."""
    picks = [0]
    for event in truth["events"]:
        if event["event"] == "dart":
            picks.append(event["frame"] + SETTLED_AFTER_DART)
        elif event["event"] == "takeout":
            picks.append(event["frame"] + SETTLED_AFTER_TAKEOUT)
    return sorted(picks)


def _match(board: Board, truth: dict[str, Any], detections: list, score: SessionScore) -> None:
    takeout_frames = [e["frame"] for e in truth["events"] if e["event"] == "takeout"]
    darts = truth["darts"]
    score.thrown = len(darts)
    matched: set[int] = set()
    for frame, event in detections:
        if not isinstance(event, DartEvent):
            continue
        # Darts of the current turn that have landed by now and are not taken yet.
        turn = sum(1 for t in takeout_frames if t <= frame)
        best, best_d = None, MATCH_MM
        for i, dart in enumerate(darts):
            if i in matched or dart["turn"] != turn or dart["frame"] > frame:
                continue
            d = float(np.hypot(event.x_mm - dart["x_mm"], event.y_mm - dart["y_mm"]))
            if d < best_d:
                best, best_d = i, d
        if best is None:
            score.phantoms += 1
            score.misses.append(
                {"kind": "phantom", "frame": frame, "x_mm": event.x_mm, "y_mm": event.y_mm}
            )
            continue
        matched.add(best)
        score.found += 1
        score.errors_mm.append(best_d)
        dart = darts[best]
        if best_d > 2.5:
            kind, along, beside = _error_kind(event, dart)
            score.misses.append(
                {
                    "kind": "far",
                    "error": kind,
                    "along_px": round(along, 1),
                    "beside_px": round(beside, 1),
                    "frame": frame,
                    "error_mm": round(best_d, 2),
                    "truth": [round(dart["x_mm"], 1), round(dart["y_mm"], 1)],
                }
            )
        expected = board.locate(dart["x_mm"], dart["y_mm"], 2.0)
        if not expected.on_line and expected.zone is not None:
            score.zone_checked += 1
            score.zone_right += int(event.zone == expected.zone)
    for i, dart in enumerate(darts):
        if i not in matched:
            score.misses.append(
                {
                    "kind": "missed",
                    "frame": dart["frame"],
                    "truth": [round(dart["x_mm"], 1), round(dart["y_mm"], 1)],
                }
            )
    found_takeouts = [f for f, e in detections if isinstance(e, TakeoutEvent)]
    score.takeouts = len(takeout_frames)
    score.takeouts_found = sum(
        1 for t in takeout_frames if any(t - 30 <= f <= t + 30 for f in found_takeouts)
    )
    extra = len(found_takeouts) - score.takeouts_found
    if extra > 0:
        score.misses.append({"kind": "extra_takeouts", "count": extra})
    bounce_truth = [e["frame"] for e in truth["events"] if e["event"] == "bounceout"]
    found_bounces = [f for f, e in detections if isinstance(e, BounceoutEvent)]
    score.bounceouts = len(bounce_truth)
    score.bounceouts_found = sum(
        1 for t in bounce_truth if any(t <= f <= t + 30 for f in found_bounces)
    )
    if len(found_bounces) > score.bounceouts_found:
        score.misses.append(
            {"kind": "extra_bounceouts", "count": len(found_bounces) - score.bounceouts_found}
        )


def _error_kind(event: DartEvent, dart: dict[str, Any]) -> tuple[str, float, float]:
    """Where a misplaced tip went, in the image, against the dart's true projected axis:
    ``beside`` it (a flight wing, another object), ``past`` the point (usually into the
    dart's own shadow), ``short`` of it (on the body), or at the ``tail``; with how far along
    the axis (towards the tail) and beside it, in px."""
    if "tip_px" not in dart or "tail_px" not in dart:
        return "unknown", 0.0, 0.0
    tip, tail = np.array(dart["tip_px"]), np.array(dart["tail_px"])
    axis = tail - tip
    length = float(np.linalg.norm(axis))
    if length < 1e-6:
        return "unknown", 0.0, 0.0
    axis /= length
    offset = np.array(event.tip_px) - tip
    along = float(offset @ axis)
    beside = abs(float(offset[0] * axis[1] - offset[1] * axis[0]))
    if beside > 6.0:
        kind = "beside"
    elif along < 0:
        kind = "past"
    else:
        kind = "tail" if along > 0.6 * length else "short"
    return kind, along, beside


def summarise(scores: list[SessionScore]) -> dict[str, Any]:
    errors = np.array([e for s in scores for e in s.errors_mm]) if scores else np.array([])
    thrown = sum(s.thrown for s in scores)
    found = sum(s.found for s in scores)
    checked = sum(s.zone_checked for s in scores)
    frames = sum(s.frames for s in scores)
    locate = [m for s in scores for m in s.locate_ms]
    return {
        "sessions": len(scores),
        "thrown": thrown,
        "found": found,
        "recall": found / thrown if thrown else 1.0,
        "phantoms": sum(s.phantoms for s in scores),
        "median_mm": float(np.median(errors)) if errors.size else 0.0,
        "p95_mm": float(np.percentile(errors, 95)) if errors.size else 0.0,
        "max_mm": float(errors.max()) if errors.size else 0.0,
        "zone_accuracy": sum(s.zone_right for s in scores) / checked if checked else 1.0,
        "zone_checked": checked,
        "takeouts": sum(s.takeouts for s in scores),
        "takeouts_found": sum(s.takeouts_found for s in scores),
        "bounceouts": sum(s.bounceouts for s in scores),
        "bounceouts_found": sum(s.bounceouts_found for s in scores),
        "frames": frames,
        "ms_per_frame": 1000 * sum(s.detector_s for s in scores) / frames if frames else 0.0,
        "locate_ms_mean": float(np.mean(locate)) if locate else 0.0,
        "locate_ms_max": float(np.max(locate)) if locate else 0.0,
    }


def run(
    board_ids: list[str],
    sessions: int,
    seed: int,
    progress: Callable[[int, int], None] | None = None,
    **options: Any,
) -> dict[str, Any]:
    """Score ``sessions`` sessions per board, telling ``progress(done, total)`` after each.
    OpenCV is held to one thread: the targets are for one core (a Raspberry Pi shares its
    cores with the web server)."""
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        return _run(board_ids, sessions, seed, progress, **options)
    finally:
        cv2.setNumThreads(threads)


def _run(
    board_ids: list[str],
    sessions: int,
    seed: int,
    progress: Callable[[int, int], None] | None,
    **options: Any,
) -> dict[str, Any]:
    rows: dict[str, Any] = {}
    all_scores: list[SessionScore] = []
    total_sessions = sessions * len(board_ids)
    # every board loaded first: a misspelt one is refused before any session runs
    for board in [boards.load(board_id) for board_id in board_ids]:
        scores = []
        for k in range(sessions):
            scores.append(score_session(board, seed + 1000 * k, **options))
            if progress is not None:
                progress(len(all_scores) + len(scores), total_sessions)
        all_scores.extend(scores)
        rows[board.id] = {
            **summarise(scores),
            "misses": [{"seed": s.seed, **m} for s in scores for m in s.misses],
        }
    total = summarise(all_scores)
    total["far_kinds"] = _far_kinds([m for s in all_scores for m in s.misses])
    size = options.get("image_size", PICTURE_SIZE)
    return {
        "boards": rows,
        "total": total,
        "targets": TARGETS,
        "image_size": list(size),
        "jpeg_quality": options.get("jpeg_quality"),
        "noise_draw": options.get("noise_draw", 0),
        "lamp_switch": bool(options.get("lamp_switch", False)),
    }


def _far_kinds(misses: list[dict[str, Any]]) -> dict[str, int]:
    kinds: dict[str, int] = {}
    for miss in misses:
        if miss["kind"] == "far":
            kinds[miss["error"]] = kinds.get(miss["error"], 0) + 1
    return dict(sorted(kinds.items(), key=lambda item: -item[1]))


def meets(row: dict[str, Any]) -> dict[str, bool]:
    return {
        "recall": row["recall"] >= TARGETS["recall"],
        "phantoms": row["phantoms"] <= TARGETS["phantoms"],
        "median_mm": row["median_mm"] <= TARGETS["median_mm"],
        "p95_mm": row["p95_mm"] <= TARGETS["p95_mm"],
        "zone_accuracy": row["zone_accuracy"] >= TARGETS["zone_accuracy"],
        "ms_per_frame": row["ms_per_frame"] <= TARGETS["ms_per_frame"],
        "locate_ms": row["locate_ms_max"] <= TARGETS["locate_ms"],
    }


def format_table(result: dict[str, Any]) -> str:
    head = (
        f"{'board':<12} {'found/thrown':>12} {'recall':>7} {'phantom':>7} {'med mm':>7} "
        f"{'p95 mm':>7} {'max mm':>7} {'zone acc':>8} {'takeouts':>8} {'bounce':>7} "
        f"{'ms/frame':>8} {'locate ms':>9}"
    )
    lines = [head, "-" * len(head)]
    rows = [*result["boards"].items(), ("all", result["total"])]
    for name, r in rows:
        lines.append(
            f"{name:<12} {r['found']:>5}/{r['thrown']:<6} {r['recall']:>7.3f} {r['phantoms']:>7} "
            f"{r['median_mm']:>7.2f} {r['p95_mm']:>7.2f} {r['max_mm']:>7.2f} "
            f"{r['zone_accuracy']:>8.3f} {r['takeouts_found']:>3}/{r['takeouts']:<4} "
            f"{r['bounceouts_found']:>3}/{r['bounceouts']:<3} {r['ms_per_frame']:>8.2f} "
            f"{r['locate_ms_mean']:>4.0f}/{r['locate_ms_max']:<4.0f}"
        )
    verdict = meets(result["total"])
    lines.append("")
    lines.append(
        "targets: " + ", ".join(f"{k} {'ok' if v else 'MISSED'}" for k, v in verdict.items())
    )
    lines.append("locate ms = mean/max over the frames where a dart was located")
    if "image_size" in result:
        lines.append("camera picture: {}x{} px".format(*result["image_size"]))
    if result.get("jpeg_quality"):
        lines.append(f"every frame JPEG-compressed at quality {result['jpeg_quality']}")
    if result.get("noise_draw"):
        lines.append(f"camera noise: draw {result['noise_draw']} (0: the sessions' own)")
    if result.get("lamp_switch"):
        lines.append("a lamp switched on or off once in every session")
    kinds = result["total"].get("far_kinds")
    if kinds:
        lines.append(
            "tips > 2.5 mm off, by where they went: "
            + ", ".join(f"{kind} {count}" for kind, count in kinds.items())
        )
    return "\n".join(lines)
