"""The Sparta referee view: the moves endpoint and the tablet board in a browser."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from rules.sparta import Sparta
from rules.sparta.layout import layout_from_diagram

SCREENSHOT_PREFIX = "sparta"
BOX_COLOURS = ["#f2b705", "#c62828"]

#: A short opening on the default board, as (from, to) taps: yellow takes a red warrior on
#: d4 (shut in between c3 and e5), then conquers Bob's city on d6; the warrior standing there
#: may be promoted on Ann's next turn instead of moving.
OPENING = [
    ((9, 2), (7, 2)),  # Ann c1 -> c3
    ((0, 3), (2, 3)),  # Bob d10 -> d8
    ((9, 5), (7, 5)),  # Ann f1 -> f3
    ((2, 3), (4, 4)),  # Bob d8 -> e6
    ((9, 6), (8, 6)),  # Ann g1 -> g2
    ((4, 4), (6, 3)),  # Bob e6 -> d4, next to Ann's c3
    ((7, 5), (5, 4)),  # Ann f3 -> e5: d4 is shut in between c3 and e5 and taken
    ((0, 8), (1, 8)),  # Bob i10 -> i9
    ((5, 4), (4, 3)),  # Ann e5 -> d6: conquers Bob's city
    ((1, 8), (2, 8)),  # Bob i9 -> i8
]
CAPTURE_PLY = 7
CONQUEST_PLY = 9
#: Bob has two warriors; Ann's c2 -> c4 shuts b4 in and leaves Bob one piece: Ann wins.
WIN_LAYOUT = layout_from_diagram(
    """
    . . . . w
    W w . . .
    . . . . .
    . . W . .
    . . . . W
    """
)


def _start(client: FlaskClient, players: list[Any] | None = None, **options: Any) -> dict:
    started = client.post(
        "/api/games",
        json={"game": "sparta", "players": players or ["Ann", "Bob"], "options": options},
    )
    assert started.status_code == 200, started.json
    return started.json


def _moves(client: FlaskClient, query: str = "") -> dict[str, Any]:
    answer = client.get(f"/api/sparta/moves{query}")
    assert answer.status_code == 200, answer.json
    return answer.json


def _entry(data: dict[str, Any], start: tuple[int, int], end: tuple[int, int]) -> dict:
    return next(e for e in data["pieces"][f"{start[0]},{start[1]}"] if e["to"] == list(end))


def _play(client: FlaskClient, plies: list[tuple[tuple[int, int], tuple[int, int]]]) -> dict:
    snap: dict[str, Any] = {}
    for start, end in plies:
        action = _entry(_moves(client), start, end)["action"]
        moved = client.post("/api/action", json={"action": action})
        assert moved.status_code == 200, moved.json
        snap = moved.json
    return snap


# --- the endpoint ------------------------------------------------------------------------
def test_without_a_sparta_game_the_endpoint_says_why(client: FlaskClient) -> None:
    none = client.get("/api/sparta/moves")
    assert none.status_code == 409 and "no game" in none.json["error"]
    client.post("/api/games", json={"game": "conquest", "players": ["Ann", "Bob"]})
    other = client.get("/api/sparta/moves")
    assert other.status_code == 404 and "conquest" in other.json["error"]


def test_moves_match_the_prompt_and_start_quiet(client: FlaskClient) -> None:
    snap = _start(client)
    data = _moves(client)
    prompt_paths = snap["prompt"]["data"]["paths"]
    assert set(data["pieces"]) == set(prompt_paths) == {f"9,{c}" for c in range(1, 9)}
    for origin, entries in data["pieces"].items():
        assert {f"{e['to'][0]},{e['to'][1]}": e["path"] for e in entries} == prompt_paths[origin]
        for entry in entries:
            assert entry["action"] == {"type": "move", "player": 0, "path": entry["path"]}
            assert entry["effects"] == {
                "promotes": False,
                "conquers": False,
                "captures": [],
                "result": None,
            }
    # b1: a1, a2, b2, c2 one step away; a3, b3, c3, d3, d2 two steps away.
    assert sorted(e["to"] for e in data["pieces"]["9,1"]) == sorted(
        [[9, 0], [8, 0], [8, 1], [8, 2], [7, 0], [7, 1], [7, 2], [7, 3], [8, 3]]
    )
    assert data["to_move"] == 0 and data["last_seq"] is None and data["game_id"] == snap["id"]
    board = data["board"]
    assert board["size"] == 10 and board["files"][0] == "a" and board["files"][-1] == "j"
    assert board["ranks"][0] == "10" and board["ranks"][-1] == "1"
    # Nobody picked colours: the box's yellow and red.
    assert board["colours"] == BOX_COLOURS
    # Spectators may look too: the moves are no secret.
    spectator = client.application.test_client()
    assert spectator.get("/api/sparta/moves").json["pieces"] == data["pieces"]


def test_colours_the_players_chose_are_kept(client: FlaskClient) -> None:
    chosen = [{"name": "Ann", "color": "#15803d"}, {"name": "Bob", "color": "#7c3aed"}]
    _start(client, players=chosen)
    assert _moves(client)["board"]["colours"] == ["#15803d", "#7c3aed"]


def test_each_move_does_what_its_entry_announced(client: FlaskClient) -> None:
    _start(client)
    _play(client, OPENING[: CAPTURE_PLY - 1])
    capture = _entry(_moves(client), *OPENING[CAPTURE_PLY - 1])
    taken = [{"square": [6, 3], "player": 1, "kind": "warrior"}]
    assert capture["effects"]["captures"] == taken
    snap = client.post("/api/action", json={"action": capture["action"]}).json
    assert snap["state"]["last"]["captured"] == taken
    assert snap["state"]["last"]["path"] == capture["path"]
    assert snap["state"]["board"][6][3] == "."

    _play(client, OPENING[CAPTURE_PLY : CONQUEST_PLY - 1])
    conquest = _entry(_moves(client), *OPENING[CONQUEST_PLY - 1])
    assert conquest["effects"]["conquers"] and not conquest["effects"]["promotes"]
    snap = client.post("/api/action", json={"action": conquest["action"]}).json
    assert snap["state"]["cities"]["4,3"] == 0
    assert snap["state"]["last"]["conquered"] == [4, 3]

    # A warrior walking into its own city would become a hero.
    _play(client, OPENING[CONQUEST_PLY:])
    data = _moves(client)
    home = _entry(data, (7, 2), (5, 1))
    assert home["effects"]["promotes"] and not home["effects"]["conquers"]
    assert snap["state"]["stock"] == [8, 8]
    promoted = client.post("/api/action", json={"action": home["action"]}).json
    assert promoted["state"]["board"][5][1] == "H" and promoted["state"]["stock"][0] == 7


def test_a_winning_move_is_announced(client: FlaskClient) -> None:
    _start(client, layout=WIN_LAYOUT)
    data = _moves(client)
    winning = _entry(data, (3, 2), (1, 2))
    assert winning["effects"]["captures"] == [{"square": [1, 1], "player": 1, "kind": "warrior"}]
    assert winning["effects"]["result"] == "wins"
    others = [e for entries in data["pieces"].values() for e in entries if e is not winning]
    assert all(e["effects"]["result"] is None for e in others if not e["effects"]["captures"])
    snap = client.post("/api/action", json={"action": winning["action"]}).json
    assert snap["outcome"]["winners"] == [0]
    assert _moves(client)["pieces"] == {}  # the game is over: nothing moves


def test_a_move_that_ends_in_a_tie_is_announced(client: FlaskClient) -> None:
    # Taking b4 leaves two pieces a side and no city on either: the game ends in a tie.
    layout = layout_from_diagram(
        """
        . . . . w
        W w . . .
        . . . . .
        . . W . .
        w . . . .
        """
    )
    _start(client, layout=layout)
    data = _moves(client)
    ending = [e for entries in data["pieces"].values() for e in entries if e["effects"]["result"]]
    assert [(e["to"], e["effects"]["result"]) for e in ending] == [([1, 2], "draw")]
    snap = client.post("/api/action", json={"action": ending[0]["action"]}).json
    assert snap["outcome"]["draw"] is True


def test_one_piece_by_name_or_pair_and_the_reach_of_the_other_side(client: FlaskClient) -> None:
    _start(client)
    by_name = _moves(client, "?square=b1")["pieces"]
    by_pair = _moves(client, "?square=9,1")["pieces"]
    assert by_name == by_pair and set(by_pair) == {"9,1"}
    assert by_pair["9,1"] == _moves(client)["pieces"]["9,1"]
    # Bob's warrior on b10 is not to move: its reach, without an action to send.
    threat = _moves(client, "?square=b10")["pieces"]["0,1"]
    assert threat and all(e["action"] is None and e["effects"] is None for e in threat)
    assert {tuple(e["to"]) for e in threat} >= {(1, 0), (1, 1), (2, 1)}
    assert _moves(client, "?square=e5")["pieces"] == {"5,4": []}


def test_bad_squares_get_a_clear_error(client: FlaskClient) -> None:
    _start(client)
    for bad in ("z9", "4,x", "1,2,3", "10,0", "k1"):
        answer = client.get(f"/api/sparta/moves?square={bad}")
        assert answer.status_code == 400 and answer.json["field"] == "square", bad
        assert "square" in answer.json["error"] or "board" in answer.json["error"], bad


def test_the_position_number_follows_moves_and_undo(client: FlaskClient) -> None:
    _start(client)
    before = _moves(client)
    after = _play(client, OPENING[:1])
    data = _moves(client)
    assert data["last_seq"] == after["log"][-1]["seq"] and data["to_move"] == 1
    assert set(data["pieces"]) == {f"0,{c}" for c in range(1, 9)}  # Bob's home row
    client.post("/api/undo", json={})
    assert _moves(client)["pieces"] == before["pieces"]


# --- the browser -------------------------------------------------------------------------
def _position(page: Any) -> str:
    return page.locator("svg.sparta-board").get_attribute("data-position")


def _wait_position(page: Any, old: str | None) -> None:
    page.wait_for_function(
        "old => { const s = document.querySelector('svg.sparta-board');"
        " return s && s.dataset.position !== old && s.dataset.ready === 'yes'; }",
        arg=old,
    )


def _sq(square: tuple[int, int]) -> str:
    return f"{square[0]},{square[1]}"


def _shot(shot: Callable[[Any, str], None], page: Any, name: str) -> None:
    page.evaluate("document.getElementById('flash').hidden = true")  # a passing note
    shot(page, name)


def _tap_move(page: Any, start: tuple[int, int], end: tuple[int, int]) -> None:
    page.locator(f".pieces .piece[data-square='{_sq(start)}']").click()
    page.wait_for_selector(f".dest[data-square='{_sq(end)}']")
    old = _position(page)
    page.locator(f".dest[data-square='{_sq(end)}']").click()
    _wait_position(page, old)


def _piece(page: Any, square: tuple[int, int]) -> tuple[str | None, str | None]:
    found = page.locator(f".pieces .piece[data-square='{_sq(square)}']")
    if found.count() == 0:
        return None, None
    return found.get_attribute("data-owner"), found.get_attribute("data-kind")


@pytest.mark.browser
def test_a_game_is_played_by_touching_pieces_and_squares(
    live_url: str,
    new_page: Callable[..., Any],
    login: Callable[..., None],
    start_game: Callable[..., dict[str, Any]],
    new_game_form: Callable[..., None],
    shot: Callable[[Any, str], None],
) -> None:
    errors: list[str] = []
    tablet = new_page(800, 1280, errors=errors)
    login(tablet)
    tablet.goto(f"{live_url}/new")
    new_game_form(tablet, "sparta", ["Ann", "Bob"])
    tablet.wait_for_selector("svg.sparta-board[data-ready='yes'] .piece.movable")
    spectator = new_page(390, 844, errors=errors)
    spectator.goto(f"{live_url}/play")

    # The start: 16 warriors, 8 cities (4 each), 8 heroes in each stock, the box's colours.
    assert tablet.locator(".pieces .piece.warrior").count() == 16
    assert tablet.locator(".pieces .piece.hero").count() == 0
    assert tablet.locator(".piece.movable").count() == 8
    assert tablet.locator(".city[data-owner='0']").count() == 4
    assert tablet.locator(".city[data-owner='1']").count() == 4
    assert tablet.locator(".stock[data-player='0']").get_attribute("data-count") == "8"
    fills = tablet.locator(".pieces .piece[data-square='9,1'] circle").evaluate_all(
        "cs => cs.map(c => c.getAttribute('fill'))"
    )
    assert "#f2b705" in fills
    swatch = tablet.locator("#turn .swatch").evaluate("s => getComputedStyle(s).backgroundColor")
    assert swatch == "rgb(242, 183, 5)"  # the turn swatch matches the board
    board = tablet.locator("svg.sparta-board")
    box = board.bounding_box()
    assert box is not None and box["width"] <= 800 and box["height"] > 600
    _shot(shot, tablet, "1_start_tablet_portrait")

    # Ann touches c1: its squares light up; touching c3 moves it there.
    tablet.locator(".pieces .piece[data-square='9,2']").click()
    tablet.wait_for_selector(".dest[data-square='7,2']")
    prompt = tablet.request.get(f"{live_url}/api/state").json()["prompt"]
    lit = {d.get_attribute("data-square") for d in tablet.locator(".dest").all()}
    assert lit == set(prompt["data"]["paths"]["9,2"]) and len(lit) == 11
    _shot(shot, tablet, "2_piece_touched")
    old = _position(tablet)
    tablet.locator(".dest[data-square='7,2']").click()
    _wait_position(tablet, old)
    assert _piece(tablet, (7, 2)) == ("0", "warrior") and _piece(tablet, (9, 2)) == (None, None)
    assert tablet.locator(".last-move .last-path").count() == 1
    assert "Bob" in tablet.locator("#turn").inner_text()
    swatch = tablet.locator("#turn .swatch").evaluate("s => getComputedStyle(s).backgroundColor")
    assert swatch == "rgb(198, 40, 40)"

    for start, end in OPENING[1 : CAPTURE_PLY - 1]:
        _tap_move(tablet, start, end)
    # Ann's f3 can shut Bob's d4 in: e5 is marked as a capture of one piece.
    tablet.locator(".pieces .piece[data-square='7,5']").click()
    target = tablet.locator(".dest[data-square='5,4']")
    target.wait_for()
    assert target.get_attribute("data-captures") == "1"
    assert tablet.locator(".threatened[data-square='6,3']").count() == 1
    _shot(shot, tablet, "3_capture_offered")
    old = _position(tablet)
    target.click()
    _wait_position(tablet, old)
    assert _piece(tablet, (6, 3)) == (None, None)
    mark = tablet.locator(".captured-mark[data-square='6,3']")
    assert mark.get_attribute("data-owner") == "1" and mark.get_attribute("data-kind") == "warrior"
    assert (
        tablet.locator(".tray[data-player='0'] .taken[data-kind='warrior']").get_attribute(
            "data-count"
        )
        == "1"
    )
    spectator.wait_for_selector(".captured-mark[data-square='6,3']")
    assert spectator.locator(".piece.movable").count() == 0  # spectators cannot move
    # ... but may touch any piece to see where it could go.
    spectator.locator(".pieces .piece[data-square='5,4']").click()
    spectator.wait_for_selector(".peek .reach")
    state = tablet.request.get(f"{live_url}/api/state").json()["state"]
    reach = {_sq(e["to"]) for e in Sparta().destinations(state, [5, 4])}
    assert {r.get_attribute("data-square") for r in spectator.locator(".reach").all()} == reach
    assert spectator.locator(".dest").count() == 0
    # Bob's turn; touching Ann's piece shows its reach, not squares to move to.
    tablet.locator(".pieces .piece[data-square='7,2']").click()
    tablet.wait_for_selector(".peek .reach")
    assert tablet.locator(".dest").count() == 0
    assert "could go" in tablet.locator("#choices .sparta-hint").inner_text()
    _shot(shot, tablet, "4_after_capture_reach_of_c3")
    tablet.locator(".pieces .piece[data-square='7,2']").click()  # again: stays a look only
    assert tablet.locator(".dest").count() == 0
    _shot(shot, spectator, "5_spectator_phone")

    # Ann conquers Bob's city on d6; on her next turn the promote button is offered.
    for start, end in OPENING[CAPTURE_PLY : CONQUEST_PLY - 1]:
        _tap_move(tablet, start, end)
    tablet.locator(".pieces .piece[data-square='5,4']").click()
    assert tablet.locator(".dest[data-square='4,3']").get_attribute("data-conquers") == "yes"
    old = _position(tablet)
    tablet.locator(".dest[data-square='4,3']").click()
    _wait_position(tablet, old)
    assert tablet.locator(".city[data-square='4,3']").get_attribute("data-owner") == "0"
    assert tablet.locator(".conquered-mark[data-square='4,3']").count() == 1
    assert _piece(tablet, (4, 3)) == ("0", "warrior")
    _shot(shot, tablet, "6_conquest")
    for start, end in OPENING[CONQUEST_PLY:]:
        _tap_move(tablet, start, end)
    promote = tablet.locator("#choices .promote-button[data-square='4,3']")
    promote.wait_for()
    assert "d6" in promote.inner_text()
    assert tablet.locator(".promotable[data-square='4,3']").count() == 1
    tablet.set_viewport_size({"width": 1280, "height": 800})
    _shot(shot, tablet, "7_promote_offered_landscape")
    old = _position(tablet)
    promote.click()
    _wait_position(tablet, old)
    assert _piece(tablet, (4, 3)) == ("0", "hero")
    assert tablet.locator(".promoted-mark[data-square='4,3']").count() == 1
    assert tablet.locator(".stock[data-player='0']").get_attribute("data-count") == "7"
    _shot(shot, tablet, "8_promoted_landscape")

    # Undo brings the warrior back and the button with it.
    old = _position(tablet)
    tablet.click("#undo")
    _wait_position(tablet, old)
    assert _piece(tablet, (4, 3)) == ("0", "warrior")
    promote.wait_for()

    # A phone in portrait: the board scales down and still takes a tap.
    tablet.set_viewport_size({"width": 390, "height": 844})
    box = board.bounding_box()
    assert box is not None and box["width"] <= 390
    tablet.locator(".pieces .piece[data-square='7,2']").click()
    home = tablet.locator(".dest[data-square='5,1']")
    home.wait_for()
    assert home.get_attribute("data-promotes") == "yes"
    _shot(shot, tablet, "9_phone_portrait")
    old = _position(tablet)
    home.click()
    _wait_position(tablet, old)
    assert _piece(tablet, (5, 1)) == ("0", "hero")

    # A new game near its end: the winning square says so, and after it nothing moves.
    tablet.set_viewport_size({"width": 800, "height": 1280})
    created = start_game(tablet, "sparta", ["Ann", "Bob"], {"layout": WIN_LAYOUT})
    tablet.wait_for_function(
        "id => { const s = document.querySelector('svg.sparta-board');"
        " return s && s.dataset.position === id + '|null' && s.dataset.ready === 'yes'; }",
        arg=created["id"],
    )
    assert tablet.locator(".square").count() == 25  # a 5x5 board
    tablet.locator(".pieces .piece[data-square='3,2']").click()
    winning = tablet.locator(".dest[data-square='1,2']")
    assert winning.get_attribute("data-result") == "wins"
    assert "WINS" in winning.locator("text").all_text_contents()
    _shot(shot, tablet, "10_winning_move_offered")
    old = _position(tablet)
    winning.click()
    _wait_position(tablet, old)
    tablet.wait_for_selector("#outcome", state="visible")
    assert "Ann" in tablet.locator("#outcome").inner_text()
    assert tablet.locator(".captured-mark[data-square='1,1']").count() == 1
    assert tablet.locator(".piece.movable").count() == 0
    _shot(shot, tablet, "11_game_over")

    # Colours the players pick on the New game page are the colours of their pieces.
    tablet.goto(f"{live_url}/new")
    new_game_form(tablet, "sparta", ["Cleo", "Dan"], ["#15803d", "#7c3aed"])
    tablet.wait_for_selector("svg.sparta-board[data-ready='yes'] .piece.movable")
    tablet.set_viewport_size({"width": 844, "height": 390})  # a phone held sideways
    for square, colour in (("9,1", "#15803d"), ("0,1", "#7c3aed")):
        fills = tablet.locator(f".pieces .piece[data-square='{square}'] circle").evaluate_all(
            "cs => cs.map(c => c.getAttribute('fill'))"
        )
        assert colour in fills
    assert tablet.locator(".city[data-owner='1'] rect").first.get_attribute("stroke") != (
        tablet.locator(".city[data-owner='0'] rect").first.get_attribute("stroke")
    )
    box = board.bounding_box()
    assert box is not None and box["height"] <= 390
    _shot(shot, tablet, "12_chosen_colours_phone_landscape")
    assert errors == [], errors  # no script error on either page


def test_the_opening_plays_as_the_tests_say() -> None:
    """The browser test's opening, checked against the engine directly (fast, no browser)."""
    game = Sparta()
    state = game.new_state(["Ann", "Bob"])
    for ply, (start, end) in enumerate(OPENING, start=1):
        state = game.apply(state, game.move_action(state, list(start), list(end)))
        last = state["last"]
        assert bool(last["captured"]) == (ply == CAPTURE_PLY), ply
        assert bool(last["conquered"]) == (ply == CONQUEST_PLY), ply
        assert last["promoted"] is None
    assert game.prompt(state).options == ({"type": "promote", "player": 0, "square": [4, 3]},)


#: The tablet's replies to a move come this late (a busy server or a slow network): the
#: live update shows the move first.
LATE_REPLY_MS = 1500


@pytest.mark.browser
def test_a_move_made_before_the_last_reply_arrived_is_sent(
    live_url: str,
    new_page: Callable[..., Any],
    login: Callable[..., None],
    start_game: Callable[..., dict[str, Any]],
) -> None:
    # Every reply to a move reaches the page LATE_REPLY_MS after the server took the move;
    # the live update draws the new position before that. Moves made on that newer position
    # are the players' next moves, not double taps: none may be dropped.
    errors: list[str] = []
    tablet = new_page(800, 1280, errors=errors)
    tablet.add_init_script(
        "const plain = window.fetch;"
        "window.fetch = async (url, options) => {"
        "  const reply = await plain(url, options);"
        "  if (String(url).includes('/api/action'))"
        f"    await new Promise((done) => setTimeout(done, {LATE_REPLY_MS}));"
        "  return reply; };"
    )
    login(tablet)
    start_game(tablet, "sparta", ["Ann", "Bob"])
    tablet.goto(f"{live_url}/play")
    tablet.wait_for_selector("svg.sparta-board[data-ready='yes'] .piece.movable")
    for start, end in OPENING[:3]:
        _tap_move(tablet, start, end)  # waits for the live update, not for the late reply
    assert _piece(tablet, (7, 5)) == ("0", "warrior") and _piece(tablet, (2, 3)) == ("1", "warrior")
    assert "Bob" in tablet.locator("#turn").inner_text()
    assert errors == []
