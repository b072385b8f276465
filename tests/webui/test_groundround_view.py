"""The Ground Round tablet view: the strength endpoint and a whole game played in a browser."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from rules.groundround import GroundRound

SCREENSHOT_PREFIX = "groundround"


def _start(client: FlaskClient, **options: Any) -> dict[str, Any]:
    started = client.post(
        "/api/games", json={"game": "groundround", "players": ["Ann", "Bob"], "options": options}
    )
    assert started.status_code == 200, started.json
    return started.json


def _hit(client: FlaskClient, zone: str) -> dict[str, Any]:
    answer = client.post("/api/dart", json={"zone": zone})
    assert answer.status_code == 200, answer.json
    return answer.json


def _act(client: FlaskClient, snap: dict[str, Any], kind: str, **fields: Any) -> dict[str, Any]:
    action = {"type": kind, "player": snap["prompt"]["player"], **fields}
    answer = client.post("/api/action", json={"action": action})
    assert answer.status_code == 200, answer.json
    return answer.json


# --- the endpoint ------------------------------------------------------------------------
def test_without_a_ground_round_game_the_endpoint_says_why(client: FlaskClient) -> None:
    none = client.get("/api/groundround/strength")
    assert none.status_code == 409 and "no game" in none.json["error"]
    client.post("/api/games", json={"game": "conquest", "players": ["Ann", "Bob"]})
    other = client.get("/api/groundround/strength")
    assert other.status_code == 404 and "conquest" in other.json["error"]


def test_a_fresh_game_attack_one_flags_hold_and_other_hexes_fall(client: FlaskClient) -> None:
    snap = _start(client)
    data = client.get("/api/groundround/strength").json
    assert data["game_id"] == snap["id"] and data["last_seq"] is None and data["current"] == 0
    assert data["attack"] == 1 and data["unlimited"] is False and data["rethrows_left"] == 0
    assert (data["darts_left"], data["extra_darts"], data["darts_per_turn"]) == (3, 0, 3)
    assert data["flags_total"] == 3
    # Flags start with defence 1 (and say why); every other symbol hex with 0.
    assert data["defence"]["hex2"] == 1 and data["defence_parts"]["hex2"] == [["flag", 1]]
    assert data["defence"]["hex3"] == 0 and data["defence_parts"]["hex3"] == []
    assert "hex8" not in data["defence"]  # a blank hex has no defence to show
    # What a dart would do in each hex: a plain dart bounces off a Flag, takes a Fist.
    assert data["hits"]["hex2"] == {"result": "repelled", "wins": False}
    assert data["hits"]["hex3"] == {"result": "captured", "wins": False}
    assert data["hits"]["hex8"]["result"] == "blank"
    assert len(data["hits"]) == 19
    assert data["players"] == [
        {"flags": 0, "hexes": 0, "pins_on_board": [], "pins_in_hand": 0},
        {"flags": 0, "hexes": 0, "pins_on_board": [], "pins_in_hand": 0},
    ]
    # Spectators may read it too, and reading changes nothing.
    spectator = client.application.test_client()
    assert spectator.get("/api/groundround/strength").json["defence"] == data["defence"]
    assert client.get("/api/state").json["log"] == []


def test_numbers_follow_the_engine_through_fists_pins_and_re_throws(
    client: FlaskClient,
) -> None:
    _start(client)
    _hit(client, "hex3")  # Ann takes the Fist: attack 2, so the Flag would fall now
    data = client.get("/api/groundround/strength").json
    assert data["attack"] == 2 and data["hits"]["hex2"]["result"] == "captured"
    assert data["players"][0]["hexes"] == 1 and data["last_seq"] is not None
    _hit(client, "hex2")
    snap = _hit(client, "hex12")  # the second Fist ends Ann's turn
    assert snap["prompt"]["player"] == 1
    snap = _hit(client, "hex5")  # Bob takes the Pin hex and places his Army Pin on it
    snap = _act(client, snap, "place_pin", zone="hex5")
    snap = _hit(client, "hex7")  # and a Dart hex: from now on he may throw again
    data = client.get("/api/groundround/strength").json
    engine = GroundRound()
    state = snap["state"]
    assert data["defence"] == {h: engine.defence_of(state, h) for h in engine.layout.capturable}
    assert data["defence"]["hex4"] == 2  # a free Flag next to Bob's pin gets +1
    assert data["defence"]["hex6"] == 2 and ["pin:hex5", 1] in data["defence_parts"]["hex6"]
    assert data["rethrows_left"] == 1 and data["attack"] == 1
    assert data["players"][1] == {
        "flags": 0,
        "hexes": 2,
        "pins_on_board": ["hex5"],
        "pins_in_hand": 0,
    }
    assert data["players"][0]["flags"] == 1
    # While the game asks keep or re-throw there is no dart to preview.
    snap = _hit(client, "hex6")
    assert snap["prompt"]["kind"] == "rethrow"
    assert client.get("/api/groundround/strength").json["hits"] == {}


def test_a_flaming_fist_hit_shows_unlimited_attack_and_a_win_is_foreseen(
    client: FlaskClient,
) -> None:
    _start(client, darts_per_turn=4)
    _hit(client, "hex2")  # repelled
    _hit(client, "hex1")  # the free Flaming Fist falls: the next dart is unlimited
    data = client.get("/api/groundround/strength").json
    assert data["attack"] is None and data["unlimited"] is True
    assert data["hits"]["hex2"]["result"] == "captured"
    assert data["hits"]["hex10"]["result"] == "captured"  # even a Tower, were it held
    snap = client.get("/api/state").json
    assert snap["state"]["flaming"] is True
    # Ann holding two Flags: a dart on the third is marked as the winning one.
    _hit(client, "hex2")
    snap = _hit(client, "hex3")
    assert snap["prompt"]["player"] == 1
    snap = _act(client, snap, "stop")
    _hit(client, "hex4")
    data = client.get("/api/groundround/strength").json
    assert data["players"][0]["flags"] == 2 and data["attack"] == 2
    assert data["hits"]["hex6"] == {"result": "captured", "wins": True}
    assert data["hits"]["hex4"] == {"result": "held", "wins": False}


# --- the browser -------------------------------------------------------------------------
class Tablet:
    """A page on the play screen, with taps placed in board millimetres."""

    def __init__(
        self,
        page: Any,
        centres: dict[str, list[float]],
        name: str,
        shot: Callable[[Any, str], None],
    ) -> None:
        self.page = page
        self.centres = centres
        self.name = name
        self._shot = shot

    def position(self) -> str:
        return self.page.locator("g.gr-view").get_attribute("data-position")

    def wait_ready(self, old: str | None = None) -> None:
        self.page.wait_for_function(
            "old => { const g = document.querySelector('g.gr-view');"
            " return g && g.dataset.ready === 'yes' && g.dataset.position !== old; }",
            arg=old,
        )

    def tap_mm(self, x: float, y: float) -> None:
        point = self.page.evaluate(
            "([x, y]) => { const svg = document.querySelector('#board svg');"
            " const p = svg.createSVGPoint(); p.x = x; p.y = y;"
            " const q = p.matrixTransform(svg.getScreenCTM()); return [q.x, q.y]; }",
            [x, y],
        )
        self.page.mouse.click(point[0], point[1])

    def tap_hex(self, zone: str) -> None:
        """A tap in the lower part of a hex (clear of the Crossed Darts' red areas)."""
        x, y = self.centres[zone]
        self.tap_mm(x, y + 20)

    def move(self, do: Any) -> None:
        """Do something that changes the game, and wait until the view has caught up."""
        old = self.position()
        do()
        self.wait_ready(old)

    def dart(self, zone: str) -> None:
        self.move(lambda: self.tap_hex(zone))

    def click(self, label: str) -> None:
        self.page.get_by_role("button", name=label, exact=True).click()

    def attr(self, selector: str, name: str) -> str | None:
        return self.page.locator(selector).get_attribute(name)

    def defence(self, zone: str) -> tuple[str | None, str | None]:
        badge = f"g.defence[data-zone='{zone}']"
        return self.attr(badge, "data-defence"), self.attr(badge, "data-hit")

    def owner(self, zone: str) -> str | None:
        pins = self.page.locator(f"g.owner-pin[data-zone='{zone}']")
        return pins.get_attribute("data-owner") if pins.count() else None

    def army_pins(self) -> dict[str, str]:
        return {
            p.get_attribute("data-zone"): p.get_attribute("data-owner")
            for p in self.page.locator("g.army-pin").all()
        }

    def chip(self, kind: str) -> str:
        return self.page.locator(f"#gr-status .gr-chip[data-kind='{kind}']").inner_text()

    def shot(self, name: str) -> None:
        self._shot(self.page, name)


@pytest.mark.browser
def test_a_whole_game_is_played_by_tapping_the_board(
    live_url: str,
    new_page: Callable[..., Any],
    login: Callable[..., None],
    start_game: Callable[..., dict[str, Any]],
    new_game_form: Callable[..., None],
    shot: Callable[[Any, str], None],
) -> None:
    script_errors: list[str] = []
    page = new_page(1280, 800, errors=script_errors)
    centres = {
        zone: info["center"]
        for zone, info in page.request.get(f"{live_url}/api/boards/groundround.json")
        .json()["zones"]
        .items()
    }
    login(page, "/new")  # the New game page asks for the PIN itself
    new_game_form(page, "groundround", ["Ann", "Bob"])
    ann = Tablet(page, centres, "tablet", shot)
    ann.wait_ready()
    spectator_page = new_page(390, 844)
    spectator_page.goto(f"{live_url}/play")
    spectator = Tablet(spectator_page, centres, "phone", shot)
    spectator.wait_ready()

    # A fresh board: every symbol hex shows its defence, the thrower's attack is 1.
    assert page.locator("g.defence").count() == 13
    assert ann.defence("hex2") == ("1", "repelled") and ann.defence("hex3") == ("0", "captured")
    assert ann.attr("g.attack", "data-attack") == "1"
    assert ann.chip("attack") == "Attack 1" and ann.chip("darts") == "Dart 1 of 3"
    assert page.locator("g.owner-pin").count() == 0
    ann.shot("1_start_landscape")

    # Ann's first dart is logged on the Dart hex by mistake; she moves it to the Fist.
    ann.dart("hex7")
    assert ann.owner("hex7") == "0"
    page.locator("#darts li", has_text="Dart 1").get_by_role("button", name="Move").click()
    ann.move(lambda: ann.tap_hex("hex3"))
    assert ann.owner("hex7") is None and ann.owner("hex3") == "0"
    assert page.locator("#darts li").all_inner_texts()[0].startswith("Fist 1")
    assert ann.attr("g.attack", "data-attack") == "2" and ann.chip("attack") == "Attack 2"
    assert ann.defence("hex2") == ("1", "captured")  # attack 2 beats the Flag's 1 now
    assert ann.chip("darts") == "Dart 2 of 3"
    ann.dart("hex2")
    assert ann.owner("hex2") == "0"

    # A dart on the border of Flag 2 and Pin 1, added by hand: Ann says which hex it hit.
    page.click("#manual-toggle")
    x4, y4 = centres["hex4"]
    x5, y5 = centres["hex5"]
    ann.move(lambda: ann.tap_mm((x4 + x5) / 2, (y4 + y5) / 2))
    assert page.locator("#board .zone.candidate").count() == 2
    assert "choose which hex" in page.locator("#prompt").inner_text()
    ann.shot("2_line_hit_choice")
    ann.move(lambda: ann.click("Ann takes Flag 2 for the line hit"))
    assert ann.owner("hex4") == "0"
    assert "Bob" in page.locator("#turn").inner_text()
    assert ann.chip("attack") == "Attack 1"

    # Bob takes the Pin hex and places his Army Pin by tapping the lit hex.
    ann.dart("hex5")
    assert ann.chip("pins") == "1 Army Pin to place"
    ann.click("Place Army Pin")
    page.wait_for_selector("g.gr-view[data-pin-mode='yes'] .pin-target[data-zone='hex5']")
    assert page.locator(".pin-target").count() == 1
    ann.shot("3_army_pin_to_place")
    ann.move(lambda: ann.tap_hex("hex5"))
    assert ann.army_pins() == {"hex5": "1"}
    assert ann.attr("g.gr-view", "data-pin-mode") == "no"
    # Bob's pin weakens Ann's Flag next to it and shields the free Flag 3.
    assert ann.defence("hex4")[0] == "0" and ann.defence("hex6")[0] == "2"

    # Bob takes a Dart hex; his next dart bounces off Flag 3 and he throws it again.
    ann.dart("hex7")
    ann.dart("hex6")
    assert page.locator(".pending[data-zone='hex6']").count() == 1
    assert "holds" in page.locator("#prompt").inner_text()
    assert ann.chip("rethrows") == "1 Dart re-throw left"
    ann.shot("4_keep_or_rethrow")
    ann.move(lambda: ann.click("Throw again (1 re-throw left)"))
    assert "cancelled" in page.locator(".gr-last").inner_text()
    ann.dart("hex4")  # no re-throw left: Ann's weakened Flag 2 falls at once
    assert ann.owner("hex4") == "1"
    assert "Ann" in page.locator("#turn").inner_text()

    # Ann: Bob's Flag 2 holds (his own pin next to it), then she takes his Pin hex.
    assert ann.defence("hex4") == ("2", "repelled")
    ann.dart("hex4")
    assert page.locator(".gr-last").inner_text().endswith("Flag 2: holds")
    ann.dart("hex5")
    assert ann.army_pins() == {}  # Bob lost his Army Pin with the Pin hex
    assert ann.defence("hex4") == ("1", "captured")
    ann.dart("hex4")
    # After her last dart she must place her new Army Pin: her hexes light up.
    page.wait_for_selector(".pin-target[data-zone='hex5']")
    lit = {t.get_attribute("data-zone") for t in page.locator(".pin-target").all()}
    assert lit == {"hex2", "hex3", "hex4", "hex5"}
    ann.shot("5_place_after_last_dart")
    ann.move(lambda: ann.tap_hex("hex5"))
    assert ann.army_pins() == {"hex5": "0"}
    spectator.page.wait_for_selector("g.army-pin[data-zone='hex5']")
    assert spectator.page.locator("#choices button").count() == 0  # spectators only watch
    assert (
        spectator.page.locator("#gr-status tr[data-player='0'] [data-kind='flags']").inner_text()
        == "⚑ 2/3"
    )
    spectator.shot("6_spectator_phone")

    # Bob keeps a throw that did nothing, then stops.
    ann.dart("hex6")
    ann.move(lambda: ann.click("Keep the throw"))
    ann.move(lambda: ann.click("Stop throwing this turn"))

    # Ann moves her Army Pin before throwing: tap the pin, then where it goes.
    ann.click("Move Army Pins")
    page.wait_for_selector(".pin-source[data-zone='hex5']")
    ann.tap_hex("hex5")
    page.wait_for_selector("g.gr-view[data-source='hex5'] .pin-target[data-zone='hex2']")
    ann.move(lambda: ann.tap_hex("hex2"))
    assert ann.army_pins() == {"hex2": "0"}
    assert ann.attr("g.defence[data-zone='hex6']", "data-wins") == "yes"
    assert [w.get_attribute("data-zone") for w in page.locator(".winning").all()] == ["hex6"]
    ann.shot("7_winning_dart_marked")

    # The third Flag: Ann holds all three and the game ends.
    ann.dart("hex6")
    page.wait_for_selector("#outcome", state="visible")
    assert page.locator("#outcome").inner_text() == "Ann won. Ann holds every Flag and wins"
    assert {ann.owner(f) for f in ("hex2", "hex4", "hex6")} == {"0"}
    assert page.locator("g.attack").count() == 0
    ann.shot("8_game_over")

    _flaming_fist_and_a_lost_pin(ann, live_url, start_game)
    assert script_errors == []


def _flaming_fist_and_a_lost_pin(
    ann: Tablet, url: str, start_game: Callable[..., dict[str, Any]]
) -> None:
    """A second game, set up by commands: the Flaming Fist power, then an Army Pin taken off."""
    page = ann.page
    created = start_game(page, "groundround", ["Ann", "Bob"])

    def send(body: dict[str, Any], path: str = "dart") -> None:
        answer = page.request.post(f"{url}/api/{path}", data=body)
        assert answer.ok, answer.text()

    page.wait_for_function(
        "id => { const g = document.querySelector('g.gr-view');"
        " return g && g.dataset.ready === 'yes' && g.dataset.position === id + '|null'; }",
        arg=created["id"],
    )
    assert page.locator("g.owner-pin").count() == 0 and page.locator("#outcome").is_hidden()

    # Ann takes the Flaming Fist: her next dart has unlimited attack.
    ann.move(lambda: send({"zone": "hex1"}))
    assert ann.attr("g.attack", "data-attack") == "unlimited"
    assert ann.chip("attack") == "Flaming Fist: this dart has unlimited attack"
    assert ann.defence("hex2") == ("1", "captured")
    ann.shot("9_flaming_fist")
    ann.move(lambda: send({"action": {"type": "stop", "player": 0}}, "action"))
    assert ann.chip("attack") == "Attack 1"

    # Bob takes both Pin hexes and a Dart hex and puts his two Army Pins on hexes 7 and 16.
    for zone in ("hex5", "hex16", "hex7"):
        send({"zone": zone})
    for zone in ("hex7", "hex16"):
        ann.move(
            lambda z=zone: send({"action": {"type": "place_pin", "player": 1, "zone": z}}, "action")
        )
    assert ann.army_pins() == {"hex7": "1", "hex16": "1"}

    # Ann takes Pin 1 from him: Bob chooses, by tapping, which Army Pin comes off.
    ann.move(lambda: send({"zone": "hex5"}))
    assert "take one of your Army Pins off" in page.locator("#prompt").inner_text()
    removable = {t.get_attribute("data-zone") for t in page.locator(".pin-target").all()}
    assert removable == {"hex7", "hex16"}
    assert ann.chip("thrower") == "Ann's turn:"
    ann.shot("10_remove_a_pin")
    ann.move(lambda: ann.tap_hex("hex16"))
    assert ann.army_pins() == {"hex7": "1"}
    assert "Ann" in page.locator("#turn").inner_text()

    # A 10-inch tablet in portrait: the board spans the width, the panel goes below it.
    page.set_viewport_size({"width": 800, "height": 1280})
    box = page.locator("#board svg").bounding_box()
    assert box is not None and 600 <= box["width"] <= 800
    ann.shot("11_tablet_portrait")
