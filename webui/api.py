"""JSON commands (POST, PIN required) and queries (GET, anyone) of the table."""

from __future__ import annotations

import json
import time
from functools import lru_cache
from typing import Any

from flask import Blueprint, Response, jsonify, request, session

import boards
from boards.printing import render_svg
from boards.scene import build_scene
from oche.errors import UserError
from oche.table import DEFAULT_BOARDS
from rules import GAMES, game_class
from webui.context import (
    camera,
    control_required,
    error,
    has_control,
    json_body,
    json_errors,
    pin_matches,
    table,
)

bp = Blueprint("api", __name__, url_prefix="/api")

PLAYER_COLORS = (
    "#d62828",
    "#1d4ed8",
    "#15803d",
    "#f59e0b",
    "#7c3aed",
    "#db2777",
    "#0891b2",
    "#525252",
)


json_errors(bp)


# --- who may control ------------------------------------------------------------------
@bp.post("/login")
def login():
    data = request.get_json(silent=True) or {}
    if not pin_matches(str(data.get("pin", ""))):
        time.sleep(0.5)  # slow down guessing
        return error("wrong PIN", 403)
    session["control"] = True
    session["pin_version"] = table().store.setting("pin")
    return jsonify({"control": True})


@bp.post("/logout")
def logout():
    session.clear()
    return jsonify({"control": False})


@bp.post("/pin")
@control_required
def change_pin():
    new = str(json_body().get("pin", ""))
    if not (new.isdigit() and 4 <= len(new) <= 8):
        return error("a PIN is 4 to 8 digits")
    table().store.set_setting("pin", new)
    session["control"] = True
    session["pin_version"] = new
    return jsonify({"ok": True})


# --- games ----------------------------------------------------------------------------
@bp.get("/games")
def list_games():
    return jsonify([g.to_json() for g in table().store.games()])


@bp.get("/catalog")
def catalog():
    games = []
    for name in GAMES:
        cls = game_class(name)
        games.append(
            {
                "id": name,
                "title": cls.title,
                "min_players": cls.min_players,
                "max_players": cls.max_players,
                "options": dict(cls.default_options),
                # The built-in board each dart game is drawn for (other maps: `oche board import`).
                "boards": [DEFAULT_BOARDS[name]] if name in DEFAULT_BOARDS else [],
            }
        )
    return jsonify({"games": games, "colors": PLAYER_COLORS})


@bp.post("/games")
@control_required
def new_game():
    data = json_body()
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, dict | str) for p in players):
        return error('"players" must be a list of names or {"name", "color"} objects')
    names = [p if isinstance(p, str) else str(p.get("name", "")) for p in players]
    colors = [
        (p.get("color") if isinstance(p, dict) else None) or PLAYER_COLORS[i % len(PLAYER_COLORS)]
        for i, p in enumerate(players)
    ]
    options = data.get("options") or {}
    if not isinstance(options, dict):
        return error('"options" must be an object')
    game = str(data.get("game", ""))
    session_ = table().new_game(game, names, data.get("board"), options)
    table().store.set_setting(f"colors:{session_.id}", json.dumps(colors))
    table().publish()
    return jsonify(snapshot())


@bp.post("/games/<game_id>/resume")
@control_required
def resume_game(game_id: str):
    table().resume(game_id)
    return jsonify(snapshot())


@bp.get("/games/<game_id>/export")
def export_game(game_id: str):
    try:
        data = table().store.export_game(game_id)
    except KeyError:
        return error(f"no game {game_id!r}", 404)
    pin = request.headers.get("X-Oche-Pin")
    referee = has_control() or (pin is not None and pin_matches(pin))
    if hasattr(game_class(data["game"]), "action_view") and not (data["finished"] or referee):
        # The log holds every secret card choice: only the referee sees it mid-game.
        return error("this game has secret choices: enter the table's PIN to export it", 403)
    return Response(
        json.dumps(data, indent=1),
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="oche-{game_id}.json"'},
    )


def snapshot(viewer: int | None = None) -> dict[str, Any]:
    t = table()
    if t.session is None:
        return {"game": None, "control": has_control()}
    data = t.session.snapshot(viewer)
    colors = t.store.setting(f"colors:{t.session.id}")
    data["colors"] = json.loads(colors) if colors else list(PLAYER_COLORS[: len(data["players"])])
    data["control"] = has_control()
    return data


@bp.get("/state")
def state():
    return jsonify(snapshot())


# --- playing --------------------------------------------------------------------------
@bp.post("/action")
@control_required
def action():
    body = json_body()
    act = body.get("action")
    if not isinstance(act, dict) or not isinstance(act.get("type"), str):
        return error('"action" must be an object with a "type"')
    table().act(act, "tablet")
    return jsonify(snapshot())


@bp.post("/dart")
@control_required
def dart():
    """A dart from the tablet: at a tapped position, or typed as a zone.

    In the demo the tap is thrown into the simulated camera instead, and the real detector
    reports it (``"manual": true`` adds it directly, as a correction would).
    """
    body = json_body()
    t = table()
    session_ = t.require_session()
    manual = bool(body.get("manual"))
    cam = camera()
    if "zone" in body:
        act = session_.dart_action_in(str(body["zone"]))
    else:
        try:
            x, y = float(body["x_mm"]), float(body["y_mm"])
        except (KeyError, TypeError, ValueError):
            return error('give "x_mm" and "y_mm" (board millimetres) or a "zone"')
        if cam is not None and not manual and hasattr(cam, "throw_at"):
            throw = cam.throw_at(x, y)
            if throw is not None:
                return jsonify({"thrown": throw})
        act = session_.dart_action_at(x, y, float(body.get("sigma_mm", 0.0)))
    t.act(act, "tablet")
    return jsonify(snapshot())


@bp.post("/undo")
@control_required
def undo():
    t = table()
    t.require_session().undo()
    t.publish()
    return jsonify(snapshot())


@bp.post("/correct")
@control_required
def correct():
    """Move a logged dart to another zone (``zone``), replace an action, or delete it."""
    body = json_body()
    t = table()
    session_ = t.require_session()
    seq = body.get("seq")
    if not isinstance(seq, int):
        return error('"seq" must be the number of the action to correct')
    original = next((e.action for e in session_.entries if e.seq == seq), None)
    if original is None:
        return error(f"there is no action {seq} in this game", 404)
    if body.get("delete"):
        replacement = None
    elif "zone" in body:
        zone = str(body["zone"])
        if session_.board is None or zone not in session_.board.zones:
            return error(f"no zone {zone!r} on this board")
        # The dart is where the player tapped (or nowhere known): never left at the old spot.
        x, y = body.get("x_mm"), body.get("y_mm")
        known = isinstance(x, int | float) and isinstance(y, int | float)
        replacement = {
            **original,
            "zone": zone,
            "candidates": [zone],
            "on_line": False,
            "subzones": [],
            "x_mm": float(x) if known else None,
            "y_mm": float(y) if known else None,
        }
    elif isinstance(body.get("action"), dict):
        replacement = body["action"]
    else:
        return error('say "zone", "action" or "delete"')
    dropped = session_.correct(seq, replacement)
    t.publish({"dropped": dropped})
    return jsonify({**snapshot(), "dropped": dropped})


# --- boards ---------------------------------------------------------------------------
@lru_cache(maxsize=16)
def _board_svg(board_id: str) -> str:
    board = boards.load(board_id)
    svg = render_svg(build_scene(board, markers=False))
    hit = ['<g id="zones" class="zones">']
    for zone in sorted(
        board.zones.values(), key=lambda z: (z.parent is not None, -z.geometry.area)
    ):
        parts = getattr(zone.geometry, "geoms", [zone.geometry])
        d = " ".join(
            "M" + " ".join(f"{x:.1f},{y:.1f}" for x, y in ring.coords) + "Z"
            for polygon in parts
            for ring in (polygon.exterior, *polygon.interiors)
        )
        hit.append(f'<path class="zone" data-zone="{zone.id}" d="{d}" fill-rule="evenodd"/>')
    hit.append('</g><g id="overlay" class="overlay"></g>')
    return svg.replace("</svg>", "\n".join(hit) + "\n</svg>")


@bp.get("/boards/<board_id>.svg")
def board_svg(board_id: str):
    if board_id not in boards.BUILTIN and board_id != (
        table().session and table().session.record.board
    ):
        return error(f"unknown board {board_id!r}", 404)
    return Response(
        _board_svg(board_id), mimetype="image/svg+xml", headers={"Cache-Control": "max-age=3600"}
    )


@bp.get("/boards/<board_id>.json")
def board_json(board_id: str):
    try:
        board = boards.load(board_id)
    except UserError:
        return error(f"unknown board {board_id!r}", 404)
    return jsonify(
        {
            "id": board.id,
            "name": board.name,
            "size_mm": [board.width_mm, board.height_mm],
            "zones": {
                z.id: {
                    "name": z.name,
                    "kind": z.kind,
                    "parent": z.parent,
                    "center": z.centroid,
                    "data": dict(z.data),
                }
                for z in board.zones.values()
            },
            "adjacency": {k: sorted(v) for k, v in board.adjacency.items()},
            "links": [{"a": k.a, "b": k.b, "path": list(k.path.coords)} for k in board.links],
            "target": None
            if board.target is None
            else {"center": board.target.center, "radius_mm": board.target.radius_mm},
        }
    )


# --- camera and detections ------------------------------------------------------------
@bp.get("/status")
def status():
    cam = camera()
    data: dict[str, Any] = {"camera": None, "game": table().session.id if table().session else None}
    if cam is not None:
        data["camera"] = cam.status()
    return jsonify(data)


@bp.get("/camera/snapshot.jpg")
def camera_snapshot():
    cam = camera()
    if cam is None:
        return error("no camera in this mode", 404)
    jpeg = cam.snapshot_jpeg(overlay=request.args.get("overlay") == "1")
    if jpeg is None:
        return error("no camera frame yet", 503)
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/detections/<int:detection_id>.png")
def detection_crop(detection_id: int):
    try:
        _, crop = table().store.detection(detection_id)
    except KeyError:
        return error("no such detection", 404)
    if crop is None:
        return error("no picture kept for this detection", 404)
    return Response(crop, mimetype="image/png")


@bp.post("/calibrate")
@control_required
def calibrate():
    """Calibrate the camera from its latest picture: printed markers, the board's artwork
    (no markers: a steel-tip dartboard), or tapped points."""
    cam = camera()
    if cam is None:
        return error("no camera in this mode", 404)
    body = json_body()
    method = str(body.get("method", "markers"))
    if method == "lens_view":
        return jsonify(cam.capture_lens_view())
    if method == "lens":
        return jsonify(cam.compute_lens())
    return jsonify(cam.calibrate(method, body.get("points")))


@bp.post("/computer")
@control_required
def computer_throw():
    """A computer player throws for whoever is up, aiming like a player of the given skill.

    It aims at the zone of a random legal dart (or at the target's centre when the game waits
    for a throw at the target); ``skill_mm`` is the spread of its darts (1 sigma).
    """
    body = json_body()
    skill = float(body.get("skill_mm", 12.0))
    if not 0 <= skill <= 200:
        return error('"skill_mm" must be between 0 and 200')
    t = table()
    session_ = t.require_session()
    if session_.board is None:
        return error(f"{session_.engine.title} is not played with darts")
    prompt = session_.engine.prompt(session_.state)
    if "dart" not in prompt.accepts:
        return error(f"the game does not wait for a dart: {prompt.text}")
    import random

    choice = session_.engine.random_action(session_.state, random.Random())
    board = session_.board
    if (
        choice.get("type") == "dart"
        and choice.get("zone") in board.zones
        and "target" not in prompt.kind
    ):
        aim = board.zone(choice["zone"]).centroid
    elif board.target is not None:
        aim = board.target.center
    else:
        aim = board.outline.centroid.coords[0]
    cam = camera()
    if cam is not None and hasattr(cam, "throw_at"):
        return jsonify({"thrown": cam.throw_at(aim[0], aim[1], skill)})
    rng = random.Random()
    x, y = aim[0] + rng.gauss(0, skill), aim[1] + rng.gauss(0, skill)
    t.act(session_.dart_action_at(x, y), "computer")
    return jsonify(snapshot())
