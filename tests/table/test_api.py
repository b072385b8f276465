"""The JSON API as tablets use it: control needs the PIN, errors are clear JSON."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient


def test_spectators_can_watch_but_not_control(app: Flask) -> None:
    spectator = app.test_client()
    assert spectator.get("/api/state").status_code == 200
    refused = spectator.post("/api/games", json={"game": "conquest", "players": ["A", "B"]})
    assert refused.status_code == 403 and "PIN" in refused.json["error"]
    wrong = spectator.post("/api/login", json={"pin": "0000"})
    assert wrong.status_code == 403


def test_pin_in_a_header_also_gives_control(app: Flask) -> None:
    client = app.test_client()
    ok = client.post(
        "/api/games",
        json={"game": "conquest", "players": ["A", "B"]},
        headers={"X-Oche-Pin": "1234"},
    )
    assert ok.status_code == 200


def test_cross_site_and_non_json_posts_are_refused(client: FlaskClient) -> None:
    cross = client.post("/api/undo", json={}, headers={"Origin": "http://evil.example"})
    assert cross.status_code == 403 and "cross-site" in cross.json["error"]
    form = client.post("/api/undo", data={"a": "b"})
    assert form.status_code == 415


def test_a_game_is_played_and_undone_through_the_api(client: FlaskClient) -> None:
    started = client.post("/api/games", json={"game": "groundround", "players": ["Ann", "Bob"]})
    assert started.status_code == 200
    snap = started.json
    assert snap["board"] == "groundround" and snap["players"] == ["Ann", "Bob"]
    assert "dart" in snap["prompt"]["accepts"]
    thrown = client.post("/api/dart", json={"zone": "hex2"})
    assert thrown.status_code == 200
    assert len(thrown.json["log"]) == 1
    undone = client.post("/api/undo", json={})
    assert undone.json["log"] == []


def test_bad_requests_get_clear_json_errors(client: FlaskClient) -> None:
    assert (
        client.post("/api/games", json={"game": "chess", "players": ["A", "B"]})
        .json["error"]
        .startswith("unknown game")
    )
    few = client.post("/api/games", json={"game": "sparta", "players": ["A"]})
    assert few.status_code == 400 and "needs 2" in few.json["error"]
    client.post("/api/games", json={"game": "groundround", "players": ["Ann", "Bob"]})
    bad_action = client.post("/api/action", json={"action": "dart"})
    assert bad_action.status_code == 400 and "type" in bad_action.json["error"]
    illegal = client.post(
        "/api/action", json={"action": {"type": "dart", "player": 1, "zone": "hex1"}}
    )
    assert illegal.status_code == 409 and illegal.json["rule"]
    assert client.post("/api/dart", json={"x_mm": "left"}).status_code == 400
    assert client.post("/api/correct", json={"seq": 99, "zone": "hex1"}).status_code == 404


def test_games_are_listed_resumed_and_exported(client: FlaskClient) -> None:
    first = client.post("/api/games", json={"game": "groundround", "players": ["Ann", "Bob"]}).json[
        "id"
    ]
    client.post("/api/dart", json={"zone": "hex5"})
    client.post("/api/games", json={"game": "conquest", "players": ["Cy", "Di"]})
    listed = client.get("/api/games").json
    assert {g["id"] for g in listed} >= {first}
    resumed = client.post(f"/api/games/{first}/resume", json={})
    assert resumed.json["id"] == first and len(resumed.json["log"]) == 1
    exported = client.get(f"/api/games/{first}/export")
    assert exported.json["actions"][0]["action"]["zone"] == "hex5"


def test_board_drawing_has_a_tap_target_per_zone(client: FlaskClient) -> None:
    svg = client.get("/api/boards/groundround.svg").get_data(as_text=True)
    assert svg.count('class="zone"') == 21
    info = client.get("/api/boards/groundround.json").json
    assert info["zones"]["hex1"]["kind"] == "hex"
