"""Dawgs of War at the table: private phone links, secrecy of the card choices, table dice,
and the table and phone pages in a browser."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from webui.player_api import TOKEN_ALPHABET, TOKEN_LENGTH

SCREENSHOT_PREFIX = "dawgs"
#: A small deck with one copy of three specials, so that each player's card is identifiable.
DECK = {"half_roll": 1, "immelmann": 1, "steady_aim": 1}


@pytest.fixture
def sse_heartbeat_s() -> float:
    """A quicker keep-alive than the default: the secrecy test reads the stream until the
    first keep-alive says it has caught up."""
    return 0.3


@pytest.fixture
def spectator(app: Flask) -> FlaskClient:
    return app.test_client()


def _act(client: FlaskClient, action: dict[str, Any]) -> dict[str, Any]:
    answer = client.post("/api/action", json={"action": action})
    assert answer.status_code == 200, answer.json
    return answer.json


def _start(
    client: FlaskClient,
    players: list[str],
    places: list[tuple[int, int]],
    draws: list[int] | None = None,
    **options: Any,
) -> dict[str, Any]:
    """A game past setup: ``places`` = (side roll, altitude roll) per seat, ``draws`` the
    deck index each seat draws (the deck is sorted: see ``DECK``)."""
    created = client.post(
        "/api/games", json={"game": "dawgs", "players": players, "options": options}
    )
    assert created.status_code == 200, created.json
    snap = created.json
    for seat, (side, altitude) in enumerate(places):
        snap = _act(client, {"type": "roll", "player": seat, "value": side})
        snap = _act(client, {"type": "roll", "player": seat, "value": altitude})
    for seat, index in enumerate(draws or [0] * len(players)):
        snap = _act(client, {"type": "draw_special", "player": seat, "index": index})
    assert snap["prompt"]["kind"] == "choose_cards", snap["prompt"]
    return snap


def _links(client: FlaskClient) -> list[str]:
    answer = client.post("/api/player/links", json={})
    assert answer.status_code == 200, answer.json
    return [link["token"] for link in answer.json["links"]]


def _choose(client: FlaskClient, token: str, seat: int, cards: list[str]) -> Any:
    return client.post(
        f"/api/player/{token}/action",
        json={"action": {"type": "choose_cards", "player": seat, "cards": cards}},
    )


# --- links ----------------------------------------------------------------------------
def test_links_are_made_once_per_seat_and_only_for_the_referee(
    client: FlaskClient, spectator: FlaskClient, app: Flask
) -> None:
    snap = _start(client, ["Ann", "Bob", "Cat"], [(1, 3), (2, 3), (1, 5)])
    refused = spectator.post("/api/player/links", json={})
    assert refused.status_code == 403
    assert app.extensions["oche"]["table"].store.setting(f"tokens:{snap['id']}") is None

    answer = client.post("/api/player/links", json={}).json
    assert answer["game_id"] == snap["id"]
    assert [(link["player"], link["name"]) for link in answer["links"]] == [
        (0, "Ann"),
        (1, "Bob"),
        (2, "Cat"),
    ]
    tokens = [link["token"] for link in answer["links"]]
    assert len(set(tokens)) == 3
    pattern = re.compile(f"[{TOKEN_ALPHABET}]{{{TOKEN_LENGTH}}}")
    assert all(pattern.fullmatch(t) for t in tokens)
    assert [link["path"] for link in answer["links"]] == [f"/p/{t}" for t in tokens]
    # Asking again gives the same links (phones keep working), kept in the store.
    assert _links(client) == tokens
    stored = app.extensions["oche"]["table"].store.setting(f"tokens:{snap['id']}")
    assert json.loads(stored) == tokens

    # A new game has new links; the old ones stop working.
    _start(client, ["Ann", "Bob"], [(1, 3), (2, 3)])
    new_tokens = _links(client)
    assert not set(new_tokens) & set(tokens)
    old = spectator.get(f"/api/player/{tokens[0]}/state")
    assert old.status_code == 404 and "new link" in old.json["error"]


def test_the_phone_page_opens_only_with_a_valid_link(
    client: FlaskClient, spectator: FlaskClient
) -> None:
    _start(client, ["Ann", "Bob"], [(1, 3), (2, 3)])
    ann, bob = _links(client)
    page = spectator.get(f"/p/{bob}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert f'data-token="{bob}"' in html and "Bob" in html and ann not in html
    assert "/static/games/dawgs.js" in html
    code_page = spectator.get("/p")
    assert code_page.status_code == 200 and 'id="code-form"' in code_page.get_data(as_text=True)
    wrong = spectator.get("/p/notatoken1")
    assert wrong.status_code == 404 and "does not belong" in wrong.get_data(as_text=True)


def test_a_phone_sees_its_own_hand_and_card_pairs(
    client: FlaskClient, spectator: FlaskClient
) -> None:
    _start(client, ["Ann", "Bob"], [(1, 3), (2, 3)], draws=[2, 0], special_cards=DECK)
    ann, _ = _links(client)
    snap = spectator.get(f"/api/player/{ann}/state").json
    assert snap["seat"] == 0 and snap["colors"][0]
    display = snap["state"]["display"]
    assert display["hand"] == [
        "1",
        "2",
        "3",
        "clockwise",
        "counter_clockwise",
        "no_change",
        "steady_aim",
    ]
    pairs = {tuple(p["cards"]) for p in display["card_choices"]}
    assert len(pairs) == 12 and ("3", "special") in pairs
    assert all(p["player"] == 0 for p in display["card_choices"])
    assert snap["state"]["planes"][1]["special"] == "hidden"  # Bob's card stays face down


# --- acting with a token ------------------------------------------------------------------
def test_a_token_acts_only_for_its_own_seat(client: FlaskClient, spectator: FlaskClient) -> None:
    _start(client, ["Ann", "Bob", "Cat"], [(1, 3), (2, 3), (1, 5)])
    ann, bob, _ = _links(client)
    for action in (
        {"type": "choose_cards", "player": 1, "cards": ["1", "clockwise"]},  # Bob's seat
        {"type": "choose_cards", "cards": ["1", "clockwise"]},  # no seat named
        {"type": "choose_cards", "player": True, "cards": ["1", "clockwise"]},  # True == 1
    ):
        refused = spectator.post(f"/api/player/{ann}/action", json={"action": action})
        assert refused.status_code == 403 and "only for Ann" in refused.json["error"]
    state = spectator.get("/api/state").json["state"]
    assert [p["has_chosen"] for p in state["planes"]] == [False, False, False]
    assert spectator.get("/api/state").json["log"][-1]["action"]["type"] == "draw_special"

    # Requests a browser on another site could forge are refused before anything happens.
    forged = spectator.post(
        f"/api/player/{ann}/action",
        json={"action": {"type": "choose_cards", "player": 0, "cards": ["1", "clockwise"]}},
        headers={"Origin": "http://evil.example"},
    )
    assert forged.status_code == 403
    form = spectator.post(f"/api/player/{ann}/action", data={"action": "x"})
    assert form.status_code == 415
    assert _choose(spectator, "wrongtoken", 0, ["1", "clockwise"]).status_code == 404

    chosen = _choose(spectator, ann, 0, ["2", "no_change"])
    assert chosen.status_code == 200
    assert chosen.json["seat"] == 0 and chosen.json["state"]["planes"][0]["chosen"] == [
        "2",
        "no_change",
    ]
    assert chosen.json["log"][-1]["source"] == "phone"
    again = _choose(spectator, ann, 0, ["3", "no_change"])
    assert again.status_code == 409 and again.json["rule"] == "place-cards"
    # Bob chooses with his own link.
    assert _choose(spectator, bob, 1, ["1", "clockwise"]).status_code == 200


# --- the table's dice -------------------------------------------------------------------
def test_roll_for_me_applies_a_die_the_server_rolled(
    client: FlaskClient, spectator: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = client.post("/api/games", json={"game": "dawgs", "players": ["Ann", "Bob"]}).json
    assert created["prompt"]["kind"] == "roll" and created["prompt"]["player"] == 0
    assert spectator.post("/api/roll", json={}).status_code == 403

    import webui.player_api

    monkeypatch.setattr(webui.player_api.secrets, "randbelow", lambda n: 3)
    rolled = client.post("/api/roll", json={})
    assert rolled.status_code == 200 and rolled.json["rolled"] == 4
    last = rolled.json["log"][-1]
    assert last["action"] == {"type": "roll", "player": 0, "value": 4}
    assert last["source"] == "table die" and last["text"] == "Ann rolls 4"
    assert rolled.json["state"]["planes"][0]["side"] == "right"  # 4 is even: right side

    # The server draws from six faces and shows each draw as faces 1 to 6.
    asked: list[int] = []
    for face in range(6):
        client.post("/api/undo", json={})
        monkeypatch.setattr(
            webui.player_api.secrets, "randbelow", lambda n, face=face: asked.append(n) or face
        )
        assert client.post("/api/roll", json={}).json["rolled"] == face + 1
    assert asked == [6] * 6


def test_a_phone_rolls_and_draws_only_its_own(client: FlaskClient, spectator: FlaskClient) -> None:
    client.post("/api/games", json={"game": "dawgs", "players": ["Ann", "Bob"]})
    ann, bob = _links(client)
    wrong = spectator.post(f"/api/player/{bob}/roll", json={})
    assert wrong.status_code == 409 and wrong.json["rule"] == "turn"
    assert spectator.post(f"/api/player/{ann}/roll", json={}).status_code == 200
    _act(client, {"type": "roll", "player": 0, "value": 3})  # Ann's altitude
    _act(client, {"type": "roll", "player": 1, "value": 2})
    _act(client, {"type": "roll", "player": 1, "value": 5})  # never Ann's spot
    assert spectator.post(f"/api/player/{bob}/draw", json={}).json["rule"] == "turn"
    drawn = spectator.post(f"/api/player/{ann}/draw", json={})
    assert drawn.status_code == 200
    assert drawn.json["log"][-1]["source"] == "table deck"
    assert drawn.json["state"]["planes"][0]["special"] not in (None, "hidden")
    table_draw = client.post("/api/draw", json={})
    assert table_draw.status_code == 200 and table_draw.json["prompt"]["kind"] == "choose_cards"
    # Nothing to roll or draw while the pilots choose cards.
    for path in ("/api/roll", "/api/draw"):
        refused = client.post(path, json={})
        assert refused.status_code == 409 and "does not wait" in refused.json["error"]


def test_the_special_card_titles_are_public(spectator: FlaskClient) -> None:
    cards = spectator.get("/api/dawgs/cards").json
    assert cards["steady_aim"]["title"] == "Steady Aim" and cards["armour_plating"]["stays"]


# --- secrecy ----------------------------------------------------------------------------
def _sse_messages(client: FlaskClient) -> list[dict[str, Any]]:
    """Every message the stream gives a browser that connects (from the first event on)."""
    response = client.get("/api/stream?last_event_id=0", buffered=False)
    messages, text = [], ""
    for chunk in response.response:
        text += chunk.decode() if isinstance(chunk, bytes) else chunk
        if ": keep-alive" in text:  # caught up: the stream waits for news
            break
    response.close()
    for block in text.split("\n\n"):
        for line in block.splitlines():
            if line.startswith("data: "):
                messages.append(json.loads(line[6:]))
    return messages


def _without_public_rules(data: Any) -> Any:
    """Drop the game options: the deck's make-up is public (it names every special card)."""
    if isinstance(data, dict):
        return {k: _without_public_rules(v) for k, v in data.items() if k != "options"}
    if isinstance(data, list):
        return [_without_public_rules(v) for v in data]
    return data


def _without_own_buttons(snap: dict[str, Any]) -> dict[str, Any]:
    """A player's own hand and pair buttons list every pair, so they are left out."""
    snap = json.loads(json.dumps(snap))
    snap["state"]["display"].pop("hand", None)
    snap["state"]["display"].pop("card_choices", None)
    return snap


def _assert_no_secret_of(seen: Any, hidden: dict[int, dict[str, Any]], who: str) -> None:
    """``hidden``: seat -> {"special": id, "chosen": cards} that ``who`` must not see."""
    text = json.dumps(_without_public_rules(seen))
    compact = json.dumps(_without_public_rules(seen), separators=(",", ":"))
    for seat, secret in hidden.items():
        assert secret["special"] not in text, f"{who} sees seat {seat}'s special card"
        if secret["chosen"]:
            for form in (
                json.dumps(secret["chosen"]),
                json.dumps(secret["chosen"], separators=(",", ":")),
            ):
                assert form not in text and form not in compact, f"{who} sees seat {seat}'s cards"
    for found in _dicts_in(seen):
        if "cards" in found:
            assert found.get("player") not in hidden, f"{who} sees a card choice: {found}"


def _dicts_in(seen: Any) -> Iterator[dict[str, Any]]:
    if isinstance(seen, dict):
        yield seen
        for value in seen.values():
            yield from _dicts_in(value)
    elif isinstance(seen, list):
        for value in seen:
            yield from _dicts_in(value)


def _planes_in(seen: Any) -> Iterator[list[dict[str, Any]]]:
    if isinstance(seen, dict):
        if (
            "planes" in seen
            and isinstance(seen["planes"], list)
            and "status" in str(seen["planes"])
        ):
            yield seen["planes"]
        for value in seen.values():
            yield from _planes_in(value)
    elif isinstance(seen, list):
        for value in seen:
            yield from _planes_in(value)


def test_nobody_sees_another_players_unrevealed_cards(
    client: FlaskClient, spectator: FlaskClient, app: Flask
) -> None:
    # Ann holds Steady Aim, Bob the Immelmann, Cat the Half Roll (the deck is sorted).
    snap = _start(
        client,
        ["Ann", "Bob", "Cat"],
        [(1, 3), (2, 3), (1, 5)],
        draws=[2, 1, 0],
        special_cards=DECK,
    )
    game_id = snap["id"]
    tokens = _links(client)
    specials = {0: "steady_aim", 1: "immelmann", 2: "half_roll"}
    assert _choose(spectator, tokens[0], 0, ["3", "special"]).status_code == 200
    assert _choose(spectator, tokens[1], 1, ["1", "counter_clockwise"]).status_code == 200
    chosen = {0: ["3", "special"], 1: ["1", "counter_clockwise"], 2: None}
    hidden = {seat: {"special": specials[seat], "chosen": chosen[seat]} for seat in specials}

    # The referee's own view holds everything (the check below could find a leak).
    referee_export = client.get(f"/api/games/{game_id}/export")
    assert referee_export.status_code == 200
    assert "steady_aim" in referee_export.get_data(as_text=True)

    # What a spectator can fetch.
    spectator_seen: dict[str, Any] = {
        "state": spectator.get("/api/state").json,
        "stream": _sse_messages(spectator),
        "games": spectator.get("/api/games").json,
        "status": spectator.get("/api/status").json,
        "play page": spectator.get("/play").get_data(as_text=True),
    }
    export = spectator.get(f"/api/games/{game_id}/export")
    assert export.status_code == 403 and "PIN" in export.json["error"]
    spectator_seen["export"] = export.json
    assert len(spectator_seen["stream"]) >= 10  # every update since the game began
    _assert_no_secret_of(spectator_seen, hidden, "a spectator")
    for planes in _planes_in(spectator_seen):
        assert all(p["chosen"] is None for p in planes)

    # What each player can fetch with their own link: nothing of the other two.
    for seat, token in enumerate(tokens):
        own = spectator.get(f"/api/player/{token}/state").json
        assert own["state"]["display"]["hand"][-1] == specials[seat]
        assert own["state"]["planes"][seat]["chosen"] == chosen[seat]
        seen = {
            "state": _without_own_buttons(own),
            "page": spectator.get(f"/p/{token}").get_data(as_text=True),
        }
        others = {s: secret for s, secret in hidden.items() if s != seat}
        _assert_no_secret_of(seen, others, f"seat {seat}")
        for planes in _planes_in(seen):
            assert all(p["chosen"] is None for i, p in enumerate(planes) if i != seat)

    # Once Cat has chosen too, all cards are revealed together and may be seen.
    assert _choose(spectator, tokens[2], 2, ["2", "no_change"]).status_code == 200
    after = spectator.get("/api/state").json
    revealed = [p["revealed"] for p in after["state"]["planes"]]
    assert revealed == [["3", "steady_aim"], ["1", "counter_clockwise"], ["2", "no_change"]]
    # The log still never shows a choice (the state shows the revealed cards).
    assert all("cards" not in e["action"] for e in after["log"])
    # The export stays a referee function until the game is over.
    assert spectator.get(f"/api/games/{game_id}/export").status_code == 403
    store = app.extensions["oche"]["table"].store
    store.set_finished(game_id, {"winners": [0], "reason": "test", "draw": False})
    finished = spectator.get(f"/api/games/{game_id}/export")
    assert finished.status_code == 200 and '"cards"' in finished.get_data(as_text=True)


# --- the browser ------------------------------------------------------------------------
def _prompt_says(page: Any, text: str) -> None:
    page.wait_for_function(
        "t => (document.querySelector('#prompt') || {}).textContent.includes(t)", arg=text
    )


@pytest.mark.browser
def test_phones_choose_cards_and_the_tablet_shows_the_round(
    live_url: str,
    new_page: Callable[..., Any],
    login: Callable[..., None],
    start_game: Callable[..., dict[str, Any]],
    shot: Callable[[Any, str], None],
) -> None:
    tablet = new_page(800, 1280)
    login(tablet)
    start_game(tablet, "dawgs", ["Ann", "Bob"], {"map_columns": 8, "map_rows": 8})
    tablet.wait_for_selector("svg.dawgs-map")
    _prompt_says(tablet, "Ann: roll for your starting side")
    shot(tablet, "1_setup_dice")

    # Setup on the tablet: the real die's faces entered, both sides at altitude 3.
    for value, next_prompt in (
        (1, "Ann: roll for your starting altitude"),
        (3, "Bob: roll for your starting side"),
        (2, "Bob: roll for your starting altitude"),
        (3, "Ann: draw a special"),
    ):
        tablet.click(f"#choices button.die[data-value='{value}']")
        _prompt_says(tablet, next_prompt)
    tablet.click("#choices button.draw")
    _prompt_says(tablet, "Bob: draw a special")
    tablet.click("#choices button.draw")
    _prompt_says(tablet, "Waiting for Ann, Bob")
    assert tablet.locator(".plane").count() == 2
    assert tablet.locator(".plane[data-player='0']").get_attribute("data-front") == "2,2"
    assert tablet.locator(".plane[data-player='1']").get_attribute("data-front") == "12,2"
    assert tablet.locator(".cone[data-player='0'] polygon").count() > 0

    # The tablet lists each player's private link; each phone opens its own.
    # The tablet is seen by all, so it shows one link at a time, when that player asks.
    tablet.wait_for_selector(".dawgs-links li[data-player='1'] button.show-link")
    assert tablet.locator(".dawgs-links a").count() == 0
    paths = []
    for seat in (0, 1):
        tablet.click(f".dawgs-links li[data-player='{seat}'] button.show-link")
        assert tablet.locator(".dawgs-links a").count() == 1
        paths.append(
            tablet.locator(f".dawgs-links li[data-player='{seat}'] a").get_attribute("href")
        )
        if seat == 0:
            shot(tablet, "2_waiting_for_cards_one_link_shown")
    assert all(path.startswith("/p/") for path in paths) and paths[0] != paths[1]
    phones = []
    for seat, path in enumerate(paths):
        phone = new_page(390, 844)
        if seat == 0:
            phone.goto(f"{live_url}{path}")
        else:  # Bob types his code instead
            phone.goto(f"{live_url}/p")
            phone.fill("#code", path.removeprefix("/p/").upper())
            phone.click("#code-form button")
        phone.wait_for_selector("#phone[data-ready='yes'] button.pair")
        phones.append(phone)
    ann, bob = phones
    assert ann.locator("button.pair").count() == 12
    assert ann.locator(".plane.mine[data-player='0']").count() == 1
    # A phone never shows the other player's special card.
    assert bob.locator(".hand .card-chip.special").count() == 1
    assert ann.locator("tr[data-player='1'] .card-chip.facedown").count() == 1

    # Ann picks a pair (and confirms): the tablet shows only that she has chosen.
    ann.click("button.pair[data-cards='1,counter_clockwise']")
    shot(ann, "3_phone_pair_selected")
    ann.click("button.play-cards")
    ann.wait_for_selector(".secret[data-chosen='1,counter_clockwise']")
    tablet.wait_for_selector(".dawgs-waiting[data-waiting='1']")
    assert "Bob choosing" in tablet.locator(".dawgs-waiting").inner_text()
    assert "counter" not in tablet.locator("#board").inner_text().lower()
    bob.wait_for_selector(".dawgs-waiting[data-waiting='1']")
    assert bob.locator(".secret").count() == 0
    shot(ann, "4_phone_chosen")
    shot(tablet, "5_one_has_chosen")

    # Bob chooses: both pairs are revealed and the planes move.
    bob.click("button.pair[data-cards='1,no_change']")
    bob.click("button.play-cards")
    tablet.wait_for_selector("svg.dawgs-map[data-phase='fire']")
    assert tablet.locator("td.cards[data-revealed='1,counter_clockwise']").count() == 1
    assert tablet.locator("td.cards[data-revealed='1,no_change']").count() == 1
    ann_plane = tablet.locator(".plane[data-player='0']")
    assert (ann_plane.get_attribute("data-front"), ann_plane.get_attribute("data-heading")) == (
        "4,2",
        "1",
    )
    assert tablet.locator(".plane[data-player='1']").get_attribute("data-front") == "10,2"
    _prompt_says(tablet, "Ann: fire at one enemy plane")
    assert tablet.locator(".cone.focus").get_attribute("data-player") == "0"
    shot(tablet, "6_revealed_and_moved")

    # Ann fires; the real die shows 5 against Bob's VULN 4: one hit.
    tablet.get_by_role("button", name="Ann fires at Bob").click()
    _prompt_says(tablet, "Ann: roll to hit")
    assert "needs 4" in tablet.locator("#choices .roll-info").inner_text()
    assert tablet.locator(".shot[data-shooter='0'][data-target='1']").count() == 1
    shot(tablet, "7_fire_roll")
    tablet.click("#choices button.die[data-value='5']")
    tablet.wait_for_selector("tr[data-player='1'] .track span[data-speed='3'] .dmg")
    assert "Bob" in tablet.locator(".dawgs-events").inner_text()

    # Bob answers on his phone: fire at Ann, and the table rolls for him.
    _prompt_says(tablet, "Bob: fire at one enemy plane")
    bob.get_by_role("button", name="Bob fires at Ann").click()
    bob.wait_for_selector("#phone button.roll-for-me")
    bob.click("#phone button.roll-for-me")
    tablet.wait_for_selector("svg.dawgs-map[data-round='2']")
    log = tablet.locator("#log").inner_text()
    assert "Bob rolls" in log and "Ann rolls 5" in log
    shot(tablet, "8_round_two")
    shot(bob, "9_phone_round_two")


#: What the tablet drew, read from the page in one go.
_DRAWN = """() => {
  const svg = document.querySelector('svg.dawgs-map');
  const rows = [...document.querySelectorAll('table.dawgs-legend tbody tr')];
  const waiting = document.querySelector('.dawgs-waiting');
  return {
    seq: svg ? svg.dataset.seq : null,
    planes: [...document.querySelectorAll('svg.dawgs-map .plane')].map(
      p => [Number(p.dataset.player), p.dataset.front, Number(p.dataset.heading)]),
    cones: document.querySelectorAll('svg.dawgs-map .cone').length,
    rows: rows.length,
    out: rows.filter(r => r.classList.contains('out')).length,
    revealed: rows.map(r => (r.querySelector('td.cards') || {dataset: {}}).dataset.revealed || null),
    waiting: waiting ? waiting.dataset.waiting : null,
    outcome: !document.querySelector('#outcome').hidden,
  };
}"""


def _expected(engine: Any, state: dict[str, Any]) -> dict[str, Any]:
    planes = state["planes"]
    flying = [i for i, p in enumerate(planes) if p["status"] == "flying"]
    waiting = None
    if state["phase"] == "place" and not state["queue"]:
        waiting = ",".join(str(i) for i in flying if planes[i]["chosen"] is None)
    return {
        "planes": [
            [i, ",".join(map(str, planes[i]["front"])), planes[i]["heading"]] for i in flying
        ],
        "cones": len(flying),
        "rows": len(planes),
        "out": sum(p["status"] == "eliminated" for p in planes),
        "revealed": [",".join(p["revealed"]) if p["revealed"] else None for p in planes],
        "waiting": waiting,
        "outcome": engine.outcome(state) is not None,
    }


@pytest.mark.browser
def test_the_table_view_follows_a_whole_team_game(
    live_url: str,
    new_page: Callable[..., Any],
    login: Callable[..., None],
    start_game: Callable[..., dict[str, Any]],
    shot: Callable[[Any, str], None],
) -> None:
    """Six planes in two teams, played by random legal actions to the end: after every
    action the tablet shows each flying plane where the engine has it, the revealed cards,
    who is still choosing, the planes that are out, and no script error."""
    import random

    from rules.dawgs import DawgsOfWar

    options = {"teams": [0, 1, 0, 1, 0, 1]}
    names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]
    engine = DawgsOfWar(options)
    errors: list[str] = []
    tablet = new_page(1280, 800, errors=errors)
    login(tablet)
    start_game(tablet, "dawgs", names, options)
    state = engine.new_state(names)
    rng = random.Random(5)
    shots = {"place": False, "fire": False}
    while engine.outcome(state) is None:
        action = engine.random_action(state, rng)
        state = engine.apply(state, action)
        answer = tablet.request.post(f"{live_url}/api/action", data={"action": action})
        assert answer.ok, answer.text()
        seq = str(answer.json()["log"][-1]["seq"])
        tablet.wait_for_function(
            "s => (document.querySelector('svg.dawgs-map') || {dataset: {}}).dataset.seq === s",
            arg=seq,
        )
        drawn = tablet.evaluate(_DRAWN)
        assert drawn.pop("seq") == seq
        assert drawn == _expected(engine, state), f"after action {seq}: {action}"
        if state["round"] >= 3 and state["phase"] in shots and not shots[state["phase"]]:
            shots[state["phase"]] = True
            shot(tablet, f"10_team_game_{state['phase']}_landscape")
    assert errors == []
    assert "won" in tablet.locator("#outcome").inner_text()
    shot(tablet, "11_team_game_over")


#: A phone's replies come this late (a busy table or a weak Wi-Fi): the live update shows
#: the new position first.
LATE_REPLY_MS = 1500


@pytest.mark.browser
def test_a_phone_move_made_before_the_last_reply_arrived_is_sent(
    live_url: str,
    new_page: Callable[..., Any],
    login: Callable[..., None],
    start_game: Callable[..., dict[str, Any]],
) -> None:
    # Bob fires on his phone and, as soon as his phone shows the roll prompt (drawn by the
    # live update, before the late reply), asks the table to roll: that second tap is his
    # next move, not a double tap, and must reach the table.
    tablet = new_page(800, 1280)
    login(tablet)
    start_game(tablet, "dawgs", ["Ann", "Bob"], {"map_columns": 8, "map_rows": 8})

    def table_act(action: dict[str, Any]) -> dict[str, Any]:
        answer = tablet.request.post(f"{live_url}/api/action", data={"action": action})
        assert answer.ok, answer.text()
        return answer.json()

    for seat, (side, altitude) in enumerate(((1, 3), (2, 3))):
        table_act({"type": "roll", "player": seat, "value": side})
        table_act({"type": "roll", "player": seat, "value": altitude})
    for seat in (0, 1):
        table_act({"type": "draw_special", "player": seat, "index": 0})
    table_act({"type": "choose_cards", "player": 0, "cards": ["1", "counter_clockwise"]})
    snap = table_act({"type": "choose_cards", "player": 1, "cards": ["1", "no_change"]})
    (fire,) = [o["action"] for o in snap["prompt_options"] if o["label"] == "Ann fires at Bob"]
    table_act(fire)
    table_act({"type": "roll", "player": 0, "value": 5})

    links = tablet.request.post(f"{live_url}/api/player/links", data={})
    bob = new_page(390, 844)
    bob.add_init_script(
        "const plain = window.fetch;"
        "window.fetch = async (url, options) => {"
        "  const reply = await plain(url, options);"
        "  if ((options || {}).method === 'POST' && String(url).includes('/api/player/'))"
        f"    await new Promise((done) => setTimeout(done, {LATE_REPLY_MS}));"
        "  return reply; };"
    )
    bob.goto(f"{live_url}{links.json()['links'][1]['path']}")
    bob.get_by_role("button", name="Bob fires at Ann").click()
    bob.wait_for_selector("#phone button.roll-for-me")  # the live update, not the reply
    bob.click("#phone button.roll-for-me")
    tablet.wait_for_selector("svg.dawgs-map[data-round='2']", timeout=8000)
    bob.wait_for_selector("#phone[data-round='2']")
    assert "Bob rolls" in tablet.locator("#log").inner_text()
