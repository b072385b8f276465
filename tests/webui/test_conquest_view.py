"""The Conquest referee view: the destinations endpoint and the tablet board in a browser."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from rules.conquest import Conquest

SCREENSHOT_PREFIX = "conquest"


def _start(client: FlaskClient, **options: Any) -> dict[str, Any]:
    started = client.post(
        "/api/games", json={"game": "conquest", "players": ["Ann", "Bob"], "options": options}
    )
    assert started.status_code == 200, started.json
    return started.json


def _die(snap: dict[str, Any], square: list[int]) -> dict[str, Any] | None:
    return next((d for d in snap["state"]["dice"] if d["at"] == square), None)


# --- the endpoint ------------------------------------------------------------------------
def test_without_a_conquest_game_the_endpoint_says_why(client: FlaskClient) -> None:
    none = client.get("/api/conquest/destinations")
    assert none.status_code == 409 and "no game" in none.json["error"]
    client.post("/api/games", json={"game": "groundround", "players": ["Ann", "Bob"]})
    other = client.get("/api/conquest/destinations")
    assert other.status_code == 404 and "groundround" in other.json["error"]


def test_destinations_cover_exactly_the_dice_the_prompt_calls_movable(
    client: FlaskClient,
) -> None:
    snap = _start(client, first_player=0)
    data = client.get("/api/conquest/destinations").json
    movable = {f"{c},{r}" for c, r in snap["prompt"]["data"]["movable"]}
    assert set(data["dice"]) == movable and len(movable) == 9
    assert data["to_move"] == 0 and data["last_seq"] is None and data["game_id"] == snap["id"]
    assert data["board"]["columns"] == 9 and data["board"]["rows"] == 8
    assert data["board"]["key_squares"] == [[4, 0], [4, 7]]
    # The 2 on c1 can go two squares north (5 up) or one north and one sideways.
    two = data["dice"]["2,0"]
    assert sorted((e["to"], e["top"]) for e in two) == [([1, 1], 1), ([2, 2], 5), ([3, 1], 6)]
    # The key has no faces and steps one square.
    assert [(e["to"], e["top"]) for e in data["dice"]["4,0"]] == [([4, 1], None)]
    # A spectator may look too: the destinations are no secret.
    spectator = client.application.test_client()
    assert spectator.get("/api/conquest/destinations").json["dice"] == data["dice"]


def test_every_destination_leaves_the_die_with_the_face_it_promised(
    client: FlaskClient,
) -> None:
    _start(client, first_player=0)
    entries = client.get("/api/conquest/destinations").json["dice"]["0,0"]
    assert len(entries) == 5
    for entry in entries:
        moved = client.post("/api/action", json={"action": entry["action"]})
        assert moved.status_code == 200
        die = _die(moved.json, entry["to"])
        assert die is not None and die["owner"] == 0
        assert (die["top"], die["front"]) == (entry["top"], entry["front"])
        assert moved.json["state"]["last_move"]["path"] == entry["path"]
        assert client.post("/api/undo", json={}).status_code == 200


def test_the_position_number_follows_moves_and_undo(client: FlaskClient) -> None:
    _start(client, first_player=0)
    before = client.get("/api/conquest/destinations").json
    entry = before["dice"]["2,0"][0]
    after_move = client.post("/api/action", json={"action": entry["action"]}).json
    data = client.get("/api/conquest/destinations").json
    assert data["last_seq"] == after_move["log"][-1]["seq"] and data["to_move"] == 1
    assert data["dice"] and all(key.endswith(",7") for key in data["dice"])  # Bob's home row
    client.post("/api/undo", json={})
    assert client.get("/api/conquest/destinations").json["dice"] == before["dice"]


def test_one_square_by_name_or_pair_and_threats_of_the_other_side(client: FlaskClient) -> None:
    _start(client, first_player=0)
    by_name = client.get("/api/conquest/destinations?square=c1").json["dice"]
    by_pair = client.get("/api/conquest/destinations?square=2,0").json["dice"]
    assert by_name == {"2,0": by_pair["2,0"]} and len(by_pair["2,0"]) == 3
    # Bob's 6 on d8 is not to move: nothing, unless asked what it threatens.
    assert client.get("/api/conquest/destinations?square=d8").json["dice"] == {"3,7": []}
    threats = client.get("/api/conquest/destinations?square=d8&any_owner=1").json["dice"]
    assert len(threats["3,7"]) == 9
    assert client.get("/api/conquest/destinations?square=e4").json["dice"] == {"4,3": []}


def test_bad_squares_get_a_clear_error(client: FlaskClient) -> None:
    _start(client, first_player=0)
    for bad in ("z9", "4,x", "1,2,3"):
        answer = client.get(f"/api/conquest/destinations?square={bad}")
        assert answer.status_code == 400 and "square" in answer.json["error"], bad


def test_before_the_first_player_is_chosen_no_die_moves(client: FlaskClient) -> None:
    snap = _start(client)
    assert snap["prompt"]["kind"] == "choose_first"
    assert client.get("/api/conquest/destinations").json["dice"] == {}


# --- the browser -------------------------------------------------------------------------
def _wait_position(page: Any, old: str) -> None:
    page.wait_for_function(
        "old => { const s = document.querySelector('svg.conquest-board');"
        " return s && s.dataset.position !== old && s.dataset.ready === 'yes'; }",
        arg=old,
    )


def _position(page: Any) -> str:
    return page.locator("svg.conquest-board").get_attribute("data-position")


def _tap(page: Any, selector: str) -> None:
    page.locator(selector).first.click()


def _two_way_target(engine: Conquest, state: dict[str, Any]) -> tuple[list[int], list[int]]:
    """A die of the player to move and a square it can reach by two paths (test planning)."""
    for die in state["dice"]:
        entries = engine.destinations(state, die["at"])
        counts = Counter(tuple(e["to"]) for e in entries)
        for target, n in counts.items():
            if n >= 2:
                return die["at"], list(target)
    raise AssertionError("no square reachable two ways in this position")


@pytest.mark.browser
def test_a_game_is_played_by_touching_dice_and_destinations(
    live_url: str,
    new_page: Callable[..., Any],
    login: Callable[..., None],
    start_game: Callable[..., dict[str, Any]],
    shot: Callable[[Any, str], None],
) -> None:
    tablet = new_page(800, 1280)
    login(tablet)
    start_game(tablet, "conquest", ["Ann", "Bob"])
    spectator = new_page(390, 844)
    spectator.goto(f"{live_url}/play")

    # Who starts is the generic prompt's two buttons.
    tablet.get_by_role("button", name="Ann moves first").click()
    tablet.wait_for_selector("svg.conquest-board[data-ready='yes'] .die.movable")
    board = tablet.locator("svg.conquest-board")
    assert tablet.locator(".dice .die").count() == 18
    assert tablet.locator(".key-square").count() == 2
    start_die = tablet.locator(".dice .die[data-square='2,0']")
    assert (start_die.get_attribute("data-top"), start_die.get_attribute("data-front")) == (
        "2",
        "3",
    )
    # The SVG fits the portrait tablet's width.
    box = board.bounding_box()
    assert box is not None and box["width"] <= 800 and box["height"] > 600
    shot(tablet, "1_start_tablet_portrait")

    # Ann touches the 2 on c1: three destinations, each showing the face it will have.
    _tap(tablet, ".dice .die[data-square='2,0']")
    tablet.wait_for_selector(".dest")
    tops = {
        d.get_attribute("data-square"): d.get_attribute("data-tops")
        for d in tablet.locator(".dest").all()
    }
    assert tops == {"1,1": "1", "2,2": "5", "3,1": "6"}
    assert tablet.locator(".dest .die.ghost[data-top='5']").count() == 1
    shot(tablet, "2_die_touched")
    old = _position(tablet)
    _tap(tablet, ".dest[data-square='2,2']")
    _wait_position(tablet, old)
    moved = tablet.locator(".dice .die[data-square='2,2']")
    assert moved.get_attribute("data-top") == "5" and moved.get_attribute("data-owner") == "0"
    assert tablet.locator(".dice .die[data-square='2,0']").count() == 0
    assert tablet.locator(".last-move polyline").count() == 1
    assert "Bob" in tablet.locator("#turn").inner_text()

    # Bob's 6 on d8 takes Ann's die on c3: captured dice show in Bob's strip.
    _tap(tablet, ".dice .die[data-square='3,7']")
    tablet.wait_for_selector(".dest[data-square='2,2']")
    old = _position(tablet)
    _tap(tablet, ".dest[data-square='2,2']")
    _wait_position(tablet, old)
    assert tablet.locator(".tray[data-player='1'] .die.captured").count() == 1
    assert tablet.locator(".captured-mark").count() == 1
    assert tablet.locator(".dice .die[data-square='2,2']").get_attribute("data-owner") == "1"
    spectator.wait_for_selector(".tray[data-player='1'] .die.captured")
    assert spectator.locator(".die.movable").count() == 0  # spectators cannot move
    shot(tablet, "3_capture")
    shot(spectator, "4_spectator_phone")

    # Ann steps her key forward one square.
    _tap(tablet, ".dice .die[data-square='4,0']")
    assert [d.get_attribute("data-square") for d in tablet.locator(".dest").all()] == ["4,1"]
    old = _position(tablet)
    _tap(tablet, ".dest[data-square='4,1']")
    _wait_position(tablet, old)
    assert tablet.locator(".dice .die[data-square='4,1']").get_attribute("data-key") == "yes"

    # Several paths to one square: the player picks the path, drawn on the board.
    state = tablet.request.get(f"{live_url}/api/state").json()["state"]
    engine = Conquest()
    die_at, target = _two_way_target(engine, state)
    entries = [e for e in engine.destinations(state, die_at) if e["to"] == target]
    tablet.set_viewport_size({"width": 1280, "height": 800})
    _tap(tablet, f".dice .die[data-square='{die_at[0]},{die_at[1]}']")
    _tap(tablet, f".dest[data-square='{target[0]},{target[1]}']")
    tablet.wait_for_selector(".path-choice")
    assert tablet.locator(".path-choice").count() == len(entries)
    assert tablet.locator("#choices .path-button").count() == len(entries)
    shot(tablet, "5_path_choice_landscape")
    old = _position(tablet)
    _tap(tablet, ".path-choice[data-index='1'] .path-label")
    _wait_position(tablet, old)
    after = tablet.request.get(f"{live_url}/api/state").json()["state"]
    assert after["last_move"]["path"] == entries[1]["path"]
    landed = tablet.locator(f".dice .die[data-square='{target[0]},{target[1]}']")
    assert landed.get_attribute("data-top") == str(entries[1]["top"])
    shot(tablet, "6_after_path_choice")

    # Undo puts the die back where it was.
    old = _position(tablet)
    tablet.click("#undo")
    _wait_position(tablet, old)
    assert tablet.locator(f".dice .die[data-square='{die_at[0]},{die_at[1]}']").count() == 1

    # A phone in portrait: the board scales down and still takes a tap.
    tablet.set_viewport_size({"width": 390, "height": 844})
    box = board.bounding_box()
    assert box is not None and box["width"] <= 390
    _tap(tablet, f".dice .die[data-square='{die_at[0]},{die_at[1]}']")
    tablet.wait_for_selector(".dest")
    shot(tablet, "7_phone_portrait")

    # A new game where Ann takes Bob's key: the winning square says so, then the game ends.
    tablet.set_viewport_size({"width": 800, "height": 1280})
    created = start_game(tablet, "conquest", ["Ann", "Bob"], {"first_player": 0})
    tablet.wait_for_function(
        "id => (document.querySelector('svg.conquest-board') || {dataset: {}}).dataset"
        ".position === id + '|null'",
        arg=created["id"],
    )
    for die, target in (("0,0", "3,2"), ("8,7", "5,5")):
        _tap(tablet, f".dice .die[data-square='{die}']")
        old = _position(tablet)
        _tap(tablet, f".dest[data-square='{target}']")
        _wait_position(tablet, old)
    _tap(tablet, ".dice .die[data-square='3,2']")
    winning = tablet.locator(".dest[data-square='4,7']")
    assert winning.locator("text").text_content() == "WINS"
    shot(tablet, "8_winning_move_offered")
    old = _position(tablet)
    winning.click()
    _wait_position(tablet, old)
    tablet.wait_for_selector("#outcome", state="visible")
    assert "Ann" in tablet.locator("#outcome").inner_text()
    assert tablet.locator(".tray[data-player='0'] .die.captured[data-key='yes']").count() == 1
    assert tablet.locator(".die.movable").count() == 0
    shot(tablet, "9_key_taken_game_over")
