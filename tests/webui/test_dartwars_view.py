"""The Dart Wars tablet view in a browser: a whole two-player game through the web UI.

The first turns are played with real taps on the world map (the start throw at the target,
homeland darts, map darts, a dart on a border line and its choice, a correction from the
Darts list, moves by touching a magnet and then a zone, a combat at the target); the long
middle of the game is driven through POST /api/action with the engine's own random player
(seeded), and the end is checked on the page again.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

import boards
from rules.darts import dart_at, dart_in_zone
from rules.dartwars import DartWars
from rules.dartwars.flow import start_turn
from rules.dartwars.state import add_magnet, initial_state

SCREENSHOT_PREFIX = "dartwars"
BOARD = boards.load("dartwars")
TARGET = BOARD.target.center


# --- page helpers ----------------------------------------------------------------------------
#: Saves a screenshot: the ``shot`` fixture of conftest.py.
Shot = Callable[[Any, str], None]


def _position(page: Any) -> str:
    return page.locator("#board svg").get_attribute("data-position") or ""


def _wait_change(page: Any, old: str) -> None:
    page.wait_for_function(
        "old => { const s = document.querySelector('#board svg');"
        " return s && s.dataset.position && s.dataset.position !== old; }",
        arg=old,
    )


def _screen_point(page: Any, x_mm: float, y_mm: float) -> tuple[float, float]:
    """Where board point (x_mm, y_mm) is on the screen (the SVG's own transform)."""
    point = page.evaluate(
        "([x, y]) => { const svg = document.querySelector('#board svg');"
        " const p = svg.createSVGPoint(); p.x = x; p.y = y;"
        " const s = p.matrixTransform(svg.getScreenCTM()); return [s.x, s.y]; }",
        [x_mm, y_mm],
    )
    return point[0], point[1]


def _tap(page: Any, x_mm: float, y_mm: float, wait: bool = True) -> None:
    old = _position(page)
    page.mouse.click(*_screen_point(page, x_mm, y_mm))
    if wait:
        _wait_change(page, old)


def _tap_zone(page: Any, zone: str, wait: bool = True) -> None:
    _tap(page, *BOARD.zones[zone].centroid, wait=wait)


def _click(page: Any, selector: str) -> None:
    old = _position(page)
    page.locator(selector).first.click()
    _wait_change(page, old)


def _prompt(page: Any) -> str:
    return page.locator("#board svg").get_attribute("data-prompt") or ""


def _tap_border(page: Any, a: str, b: str) -> None:
    """Tap the printed line between zones a and b.

    A browser reports taps in whole screen pixels (about a millimetre of the map here, and
    the line is 1.2 mm wide), so the tap goes to a pixel whose centre lies on the line.
    """
    shared = BOARD.zones[a].geometry.boundary.intersection(BOARD.zones[b].geometry.boundary)
    border = max(
        (g for g in getattr(shared, "geoms", [shared]) if g.length > 0), key=lambda g: g.length
    )
    samples = [border.interpolate(i / 80, normalized=True) for i in range(10, 71)]
    pixels = page.evaluate(
        "points => { const svg = document.querySelector('#board svg');"
        " const ctm = svg.getScreenCTM(); const back = ctm.inverse();"
        " return points.map(([x, y]) => { const p = svg.createSVGPoint(); p.x = x; p.y = y;"
        " const s = p.matrixTransform(ctm); const q = svg.createSVGPoint();"
        " q.x = Math.round(s.x); q.y = Math.round(s.y); const m = q.matrixTransform(back);"
        " return [q.x, q.y, m.x, m.y]; }); }",
        [[pt.x, pt.y] for pt in samples],
    )
    for sx, sy, x_mm, y_mm in pixels:
        where = BOARD.locate(x_mm, y_mm)
        if where.on_line and set(where.candidates) == {a, b}:
            old = _position(page)
            page.mouse.click(sx, sy)
            _wait_change(page, old)
            return
    raise AssertionError(f"no screen pixel falls on the line between {a} and {b}")


def _stack(page: Any, zone: str, owner: int) -> Any:
    return page.locator(f"g.magnets[data-zone='{zone}'][data-owner='{owner}']")


def _count(page: Any, zone: str, owner: int) -> int:
    stack = _stack(page, zone, owner)
    return int(stack.get_attribute("data-count")) if stack.count() else 0


def _shown_mm(page: Any, player: int) -> float:
    """The distance the panel shows for a player's throw at the target."""
    text = page.locator(f".dw-throw[data-player='{player}']").inner_text()
    assert text.endswith(" mm"), text
    return float(text.rsplit(": ", 1)[1].removesuffix(" mm"))


def _legend(page: Any, player: int) -> dict[str, str]:
    row = page.locator(f".dw-player[data-player='{player}']")
    return {
        k: row.get_attribute(f"data-{k}") or ""
        for k in ("onboard", "supply", "removed", "homeland", "master")
    }


# --- the game --------------------------------------------------------------------------------
#: Seed of the engine's random player for the middle of the game: with the opening below it
#: meets a combat after 14 actions and an attack order later, and ends after about 50.
SEED = 5


@pytest.mark.browser
def test_a_two_player_game_is_played_through_the_tablet(
    live_url: str,
    new_page: Callable[..., Any],
    login: Callable[..., None],
    new_game_form: Callable[..., None],
    shot: Shot,
) -> None:
    errors: list[str] = []
    page = new_page(800, 1280, errors=errors, device_scale_factor=2)
    login(page)
    page.goto(f"{live_url}/new")
    new_game_form(page, "dartwars", ["Ann", "Bob"])
    _check_the_start(page, shot)
    spectator = new_page(390, 844)
    spectator.goto(f"{live_url}/play")
    _first_throws(page)
    _first_turn_by_taps(page, shot)
    rng = random.Random(SEED)
    shots: set[str] = set()
    _play_randomly(page, live_url, rng, "who_throws_first", shots, shot)
    _combat_by_taps(page, shot)
    _play_randomly(page, live_url, rng, "over", shots, shot)
    assert shots == {"move", "order_attacks"}
    _check_the_end(page, live_url, shot)
    _check_the_spectator(spectator, page, shot)
    assert errors == []


def _check_the_start(page: Any, shot: Shot) -> None:
    page.wait_for_selector("#board svg[data-prompt='throw_for_order']")
    # Nobody has a magnet yet; the legend lists both players with a full box of 15.
    assert page.locator("g.magnets").count() == 0
    assert _legend(page, 0)["supply"] == "15" and _legend(page, 1)["supply"] == "15"
    labels = page.locator("#choices button").all_inner_texts()
    assert "Missed the board" in labels and "Fell off a magnet (throw again)" in labels
    shot(page, "1_start")


def _first_throws(page: Any) -> None:
    cx, cy = TARGET
    # Ann hits the bull's centre, Bob 30 mm out: the distances are shown, Ann starts.
    _tap(page, cx, cy)
    assert _shown_mm(page, 0) < 1.5  # a screen pixel is about a millimetre of the map
    assert "to throw" in page.locator(".dw-throw[data-player='1']").inner_text()
    _tap(page, cx + 30, cy)
    assert page.locator(".dw-result").inner_text() == "Ann goes first"
    assert _shown_mm(page, 1) == pytest.approx(30, abs=1.5)
    rings = {
        r.get_attribute("data-player"): float(r.get_attribute("data-mm"))
        for r in page.locator("circle.distance-ring").all()
    }
    assert rings.keys() == {"0", "1"}
    assert all(rings[str(p)] == pytest.approx(_shown_mm(page, p), abs=0.06) for p in (0, 1))
    assert _prompt(page) == "throw_homeland"
    # Free homelands are outlined; a dart in the sea forfeits, then Brazil and North Africa.
    assert page.locator(".free-homeland").count() == 31
    _tap_zone(page, "brazil")
    _tap_zone(page, "sea_0_0")
    assert _legend(page, 1)["homeland"] == ""
    _tap_zone(page, "north_africa")
    assert page.locator("g.flag[data-zone='brazil'][data-owner='0']").count() == 1
    assert page.locator("g.flag[data-zone='north_africa'][data-owner='1']").count() == 1
    assert _count(page, "brazil", 0) == 3 and _count(page, "north_africa", 1) == 3
    assert _legend(page, 0) == {
        "onboard": "3",
        "supply": "12",
        "removed": "0",
        "homeland": "brazil",
        "master": "",
    }
    assert _prompt(page) == "dart" and "Ann" in page.locator("#turn").inner_text()


def _first_turn_by_taps(page: Any, shot: Shot) -> None:
    # Dart 1: Colombia & Venezuela, a country nobody has visited.
    _tap_zone(page, "colombia_venezuela")
    assert page.locator(".dw-hits path.hit[data-zone='colombia_venezuela']").count() == 1
    # Dart 2, added by hand on the line between Brazil and the sea: the thrower chooses.
    page.click("#manual-toggle")
    _tap_border(page, "brazil", "sea_5_5")
    assert _prompt(page) == "choose_zone"
    assert page.locator(".zone.candidate").count() == 2
    assert sorted(page.locator("#choices .dw-zone").all_inner_texts()) == ["Brazil", "Sea F6"]
    _click(page, "#choices .dw-zone[data-zone='sea_5_5']")
    page.click("#manual-toggle")
    # Dart 3 is read in Peru by mistake; the Darts list moves it to Argentina & Chile.
    _tap_zone(page, "peru_bolivia")
    assert _prompt(page) == "move"
    darts = page.locator("#darts li")
    assert darts.count() == 3 and darts.nth(2).inner_text().startswith("Peru & Bolivia")
    darts.nth(2).get_by_role("button", name="Move").click()
    _tap_zone(page, "argentina_chile")
    hits = page.locator(".dw-hits path.hit")
    assert sorted(h.get_attribute("data-zone") for h in hits.all()) == [
        "argentina_chile",
        "colombia_venezuela",
        "sea_5_5",
    ]
    assert page.locator(".dw-moves circle.source").count() == 1
    assert page.locator(".dw-moves circle.source[data-zone='brazil']").count() == 1
    shot(page, "2_move_prompt")

    # Touch Brazil's magnets: the three zones hit light up.
    page.mouse.click(*_screen_point(page, *BOARD.zones["brazil"].centroid))
    page.wait_for_selector("#board svg[data-selected='brazil']")
    dests = {
        d.get_attribute("data-zone"): d.get_attribute("class")
        for d in page.locator(".dw-moves path.dest").all()
    }
    assert dests == {
        "argentina_chile": "dest move",
        "colombia_venezuela": "dest move",
        "sea_5_5": "dest move",
    }
    shot(page, "3_magnet_touched")
    # Two new countries: each magnet that enters one wins one more there.
    _tap_zone(page, "colombia_venezuela")
    assert _count(page, "colombia_venezuela", 0) == 2
    assert page.locator(".visited[data-zone='colombia_venezuela'][data-by='0']").count() == 1
    page.mouse.click(*_screen_point(page, *BOARD.zones["brazil"].centroid))
    page.wait_for_selector("#board svg[data-selected='brazil']")
    _tap_zone(page, "argentina_chile")
    assert _count(page, "argentina_chile", 0) == 2 and _count(page, "brazil", 0) == 1
    assert _legend(page, 0)["onboard"] == "5"
    # The dart in the sea need not be used: Ann keeps her last magnet at home.
    assert page.locator("#choices .dw-move").all_inner_texts() == ["Brazil → Sea F6"]
    _click(page, "#choices .dw-end")
    assert _prompt(page) == "dart" and "Bob" in page.locator("#turn").inner_text()


def _play_randomly(
    page: Any, url: str, rng: random.Random, until: str, shots: set[str], shot: Shot
) -> None:
    """Legal actions from the engine's random player, posted like the tablet posts them,
    until the game asks for ``until``; the page follows by its live updates (a screenshot of
    the first move and attack-order prompts on the way)."""
    engine = DartWars()
    snap = page.request.get(f"{url}/api/state").json()
    for _ in range(500):
        if snap["prompt"]["kind"] == until:
            break
        action = engine.random_action(snap["state"], rng)
        answer = page.request.post(f"{url}/api/action", data={"action": action})
        assert answer.ok, answer.text()
        snap = answer.json()
        kind = snap["prompt"]["kind"]
        if kind in ("order_attacks", "move") and kind not in shots:
            _wait_for_seq(page, snap["log"][-1]["seq"])
            shots.add(kind)
            shot(page, f"6_{kind}")
    assert snap["prompt"]["kind"] == until, f"the seeded game never asked for {until}"
    _wait_for_seq(page, snap["log"][-1]["seq"])


def _wait_for_seq(page: Any, seq: int) -> None:
    page.wait_for_function(
        "seq => (document.querySelector('#board svg') || {dataset: {}})"
        ".dataset.position.endsWith('|' + seq)",
        arg=seq,
    )


def _combat_by_taps(page: Any, shot: Shot) -> None:
    snap = page.evaluate("Oche.snapshot")
    attacker = snap["prompt"]["player"]
    combat = snap["prompt"]["data"]["combat"]
    defender = combat["defender_player"]
    names = snap["players"]
    zone = BOARD.zones[combat["zone"]].name
    assert page.locator(f".dw-combat .combat-zone[data-zone='{combat['zone']}']").count() == 1
    labels = page.locator("#choices button").all_inner_texts()
    assert labels == [
        f"{names[attacker]} (attacker) throws first",
        f"{names[defender]} (defender) throws first",
    ]
    _click(page, f"#choices button[data-thrower='{attacker}']")
    cx, cy = TARGET
    _tap(page, cx, cy - 40)  # the attacker: 40 mm from the centre
    assert f"Combat in {zone}" in page.locator(".dw-throwbox").inner_text()
    assert _shown_mm(page, attacker) == pytest.approx(40, abs=1.5)
    waiting = page.locator(f".dw-throw[data-player='{defender}']").inner_text()
    assert waiting == f"{names[defender]} (defender): to throw"
    shot(page, "4_combat")
    _tap(page, cx + 12, cy + 5)  # the defender: 13 mm, closer: he wins
    result = page.locator(".dw-result").inner_text()
    assert result.startswith(f"{names[defender]} beats {names[attacker]} in {zone}: ")
    won = page.locator(f".dw-throw[data-player='{defender}']").inner_text()
    assert won.startswith(f"{names[defender]} (winner): ")
    assert _shown_mm(page, defender) == pytest.approx(13, abs=1.5)
    shot(page, "5_combat_result")


def _check_the_end(page: Any, url: str, shot: Shot) -> None:
    snap = page.request.get(f"{url}/api/state").json()
    assert snap["outcome"] is not None
    winner = snap["outcome"]["winners"][0]
    loser = 1 - winner
    page.wait_for_selector("#board svg[data-prompt='over']")
    page.wait_for_selector("#outcome", state="visible")
    assert snap["players"][winner] in page.locator("#outcome").inner_text()
    # The loser serves the winner: chained in the legend, his flag ringed in the winner's
    # colour; every magnet on the map is drawn with its count.
    assert _legend(page, loser)["master"] == str(winner)
    assert "slave of" in page.locator(f".dw-player[data-player='{loser}'] .dw-slave").inner_text()
    flag = page.locator(f"g.flag[data-owner='{loser}']")
    assert flag.get_attribute("data-master") == str(winner)
    drawn = sum(int(g.get_attribute("data-count")) for g in page.locator("g.magnets").all())
    assert drawn == len(snap["state"]["magnets"])
    assert page.locator(".dw-moves *").count() == 0
    shot(page, "7_end")


def _check_the_spectator(spectator: Any, tablet: Any, shot: Shot) -> None:
    """A phone without the PIN follows the same game: same magnets, no buttons to press."""
    spectator.wait_for_selector("#board svg[data-prompt='over']")
    stacks = [
        (g.get_attribute("data-zone"), g.get_attribute("data-owner"), g.get_attribute("data-count"))
        for g in spectator.locator("g.magnets").all()
    ]
    assert stacks == [
        (g.get_attribute("data-zone"), g.get_attribute("data-owner"), g.get_attribute("data-count"))
        for g in tablet.locator("g.magnets").all()
    ]
    assert spectator.locator("#choices button").count() == 0
    assert spectator.locator(".dw-player").count() == 2
    box = spectator.locator("#board svg").bounding_box()
    assert box is not None and box["width"] <= 390
    shot(spectator, "9_spectator_phone")


# --- the combat questions of a three-player position --------------------------------------
def _three_player_position(
    masters: list[int | None], bob_in_mexico: bool = True, attacks: int = 2
) -> tuple[DartWars, dict[str, Any]]:
    """Ann has two magnets in Colombia and darts twice in Mexico, Cid's homeland, where Cid
    (and Bob) stand; Cid may be Bob's slave; Ann has made ``attacks`` attacks there. Built
    with the engine, as a rules test would."""
    engine = DartWars()
    state = initial_state("dartwars", ["Ann", "Bob", "Cid"], 15)
    state.update(phase="play", first_player=0, play_order=[0, 1, 2], master=masters)
    state["homelands"] = ["brazil", "usa", "mexico"]
    state["visited"] = {**dict.fromkeys(state["homelands"]), "colombia_venezuela": 0, "cuba": 2}
    for owner, zone in [
        (0, "brazil"),
        (0, "brazil"),
        (0, "colombia_venezuela"),
        (0, "colombia_venezuela"),
        (1, "usa"),
        *([(1, "mexico")] if bob_in_mexico else []),
        (2, "mexico"),
        (2, "cuba"),
    ]:
        add_magnet(state, owner, zone)
    start_turn(state, 0, engine.options)
    for zone in ("mexico", "mexico"):
        state = engine.apply(state, dart_in_zone(0, zone))
    state = engine.apply(state, {"type": "stop", "player": 0})
    attack = {"type": "move", "player": 0, "from": "colombia_venezuela", "to": "mexico"}
    for _ in range(attacks):
        state = engine.apply(state, {**attack, "attack": True})
    return engine, state


def _snapshot(engine: DartWars, state: dict[str, Any]) -> dict[str, Any]:
    """What GET /api/state would give for this position (the shape of oche.table's snapshot)."""
    prompt = engine.prompt(state)
    return {
        "id": "scenario",
        "game": "dartwars",
        "title": engine.title,
        "board": "dartwars",
        "players": state["players"],
        "options": engine.options,
        "state": state,
        "prompt": prompt.to_json(),
        "prompt_options": [
            {"action": o, "label": engine.describe_action(state, dict(o))} for o in prompt.options
        ],
        "outcome": None,
        "log": [],
        "replay_problem": None,
        "colors": ["#d62828", "#1d4ed8", "#15803d"],
        "control": True,
    }


def _show(page: Any, engine: DartWars, state: dict[str, Any]) -> list[str]:
    page.evaluate("snap => Oche.render(snap)", _snapshot(engine, state))
    page.wait_for_selector(f"#board svg[data-prompt='{engine.prompt(state).kind}']")
    return page.locator("#choices button").all_inner_texts()


@pytest.mark.browser
def test_attack_order_target_and_defender_are_big_labelled_buttons(
    new_page: Callable[..., Any], login: Callable[..., None], shot: Shot
) -> None:
    page = new_page(1280, 800, device_scale_factor=2)
    login(page)

    engine, state = _three_player_position([None, None, 1])
    assert _show(page, engine, state) == [
        "Fight in Mexico & Central America (attack 1)",
        "Fight in Mexico & Central America (attack 2)",
    ]
    assert page.locator(".dw-combat .attack-waiting[data-zone='mexico']").count() == 2
    # Cid serves Bob: the legend chains him to Bob, his flag wears Bob's ring.
    assert _legend(page, 2)["master"] == "1"
    assert "slave of Bob" in page.locator(".dw-player[data-player='2']").inner_text()
    assert "master of Cid" in page.locator(".dw-player[data-player='1']").inner_text()
    flag = page.locator("g.flag[data-zone='mexico']")
    assert flag.get_attribute("data-owner") == "2"
    assert flag.get_attribute("data-master") == "1"
    assert _count(page, "mexico", 0) == 2 and _count(page, "mexico", 1) == 1
    assert page.locator(".visited[data-zone='cuba'][data-by='2']").count() == 1

    state = engine.apply(state, {"type": "next_attack", "player": 0, "attack": 0})
    assert _show(page, engine, state) == ["Bob defends", "Cid defends"]
    assert "Bob" in page.locator("#turn").inner_text()  # the master decides
    assert page.locator(".dw-combat .combat-zone[data-zone='mexico']").count() == 1
    height = page.locator("#choices button").first.bounding_box()["height"]
    assert height >= 48  # a thumb's width on a tablet
    shot(page, "8_choose_defender_landscape")

    engine, state = _three_player_position([None, None, None])
    state = engine.apply(state, {"type": "next_attack", "player": 0, "attack": 1})
    assert _show(page, engine, state) == [
        "Fight Bob's camp (Bob)",
        "Fight Cid's camp (Cid)",
    ]

    # Equal darts: the panel says why everybody throws again.
    cx, cy = TARGET
    state = engine.apply(state, {"type": "choose_target", "player": 0, "camp": 2})
    state = engine.apply(state, {"type": "first_thrower", "player": 0, "thrower": 0})
    for player in (0, 2):
        state = engine.apply(state, dart_at(BOARD, player, cx + 20, cy))
    _show(page, engine, state)
    assert page.locator(".dw-result").inner_text() == (
        "Both darts equally far, or both off the target: both throw again."
    )
    assert page.locator(".dw-throw").all_inner_texts() == [
        "Ann (attacker): to throw",
        "Cid (defender): to throw",
    ]
    engine = DartWars()
    state = engine.new_state(["Ann", "Bob", "Cid"])
    for player in (0, 1, 2):
        state = engine.apply(state, dart_at(BOARD, player, cx, cy + 5 + 5 * (player == 1)))
    _show(page, engine, state)
    assert page.locator(".dw-result").inner_text() == "A tie: Ann and Cid throw again."

    # One attacker is enough against Cid alone: the second magnet may attack too or
    # go through. Touching it and then Mexico asks which.
    engine, state = _three_player_position([None, None, None], False, attacks=1)
    _show(page, engine, state)
    page.mouse.click(*_screen_point(page, *BOARD.zones["colombia_venezuela"].centroid))
    page.wait_for_selector("#board svg[data-selected='colombia_venezuela']")
    page.mouse.click(*_screen_point(page, *BOARD.zones["mexico"].centroid))
    page.wait_for_selector("#choices .dw-move >> nth=1")
    assert page.locator("#choices button").all_inner_texts() == [
        "Attack: Colombia & Venezuela → Mexico & Central America",
        "Pass through: Colombia & Venezuela → Mexico & Central America (no attack)",
        "Cancel",
    ]
    page.get_by_role("button", name="Cancel").click()
    page.wait_for_selector("#choices .dw-move >> text=Attack:")
    assert page.locator("#board svg").get_attribute("data-selected") == "colombia_venezuela"
