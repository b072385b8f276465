"""Private player views: a secret link per seated player, and dice rolled by the table.

Games with secrets (Dawgs of War's face-down control cards) cannot show a player's hand on
the shared tablet. Each seated player instead gets a link ``/p/<token>`` to open on their own
phone: the page shows ``snapshot(viewer=seat)`` and posts that player's own actions with the
token as the authorisation, no PIN needed. A token acts only as its own seat.

Tokens are random, one per seat per game, made the first time someone in control asks for
the links (``POST /api/player/links``), and kept in the store's settings under
``tokens:<game id>`` so that they survive a restart.

``POST /api/roll`` and ``POST /api/player/<token>/roll`` answer a die prompt with a value the
server draws: the randomness lives in the table, the engine only ever sees a ``roll`` action.
"""

from __future__ import annotations

import hmac
import json
import secrets
import time
from functools import wraps
from typing import Any

from flask import Blueprint, jsonify, render_template, request

from oche.table import GameSession
from rules import RulesError
from webui.context import control_required, error, json_body, json_errors, same_origin, table

bp = Blueprint("player_api", __name__)

#: Token letters: lower case and digits without look-alikes (0/o, 1/l/i), easy to type.
TOKEN_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
#: 10 letters of 31: about 50 bits, far beyond guessing over a table's Wi-Fi.
TOKEN_LENGTH = 10
#: A wrong token costs this long, which slows anyone trying tokens one by one.
WRONG_TOKEN_DELAY_S = 0.3


json_errors(bp)


# --- tokens ---------------------------------------------------------------------------
def _new_token() -> str:
    return "".join(secrets.choice(TOKEN_ALPHABET) for _ in range(TOKEN_LENGTH))


def tokens_for(game_id: str, seats: int, create: bool = False) -> list[str]:
    """The seat tokens of a game (index = seat); made and stored if ``create``."""
    store = table().store
    key = f"tokens:{game_id}"
    stored = store.setting(key)
    tokens: list[str] = json.loads(stored) if stored else []
    if len(tokens) < seats and create:
        tokens += [_new_token() for _ in range(seats - len(tokens))]
        store.set_setting(key, json.dumps(tokens))
    return tokens


def seat_of(token: str) -> tuple[GameSession, int] | None:
    """The game on the table and the seat ``token`` belongs to; None for any other token."""
    session = table().session
    if session is not None:
        tokens = tokens_for(session.id, len(session.record.players))
        seat = None
        for index, known in enumerate(tokens):
            # Compare with every token in constant time, so timing tells nothing about them.
            if hmac.compare_digest(known.encode(), token.encode()):
                seat = index
        if seat is not None:
            return session, seat
    time.sleep(WRONG_TOKEN_DELAY_S)
    return None


WRONG_LINK = (
    "this player link does not belong to the game on the table now: "
    "ask whoever runs the table for your new link"
)


def _player_snapshot(seat: int) -> dict[str, Any]:
    from webui.api import snapshot

    data = snapshot(viewer=seat)
    data["seat"] = seat
    return data


@bp.post("/api/player/links")
@control_required
def player_links():
    """The private link of every seat in the game on the table (made on first request)."""
    session = table().require_session()
    names = session.record.players
    tokens = tokens_for(session.id, len(names), create=True)
    return jsonify(
        {
            "game_id": session.id,
            "links": [
                {"player": seat, "name": name, "token": tokens[seat], "path": f"/p/{tokens[seat]}"}
                for seat, name in enumerate(names)
            ],
        }
    )


# --- the phone page and its API ---------------------------------------------------------
@bp.get("/p")
def code_page():
    """Where a player types the code the tablet shows, instead of the whole link."""
    return render_template("player.html", problem=None, ask_code=True, name=None)


@bp.get("/p/<token>")
def player_page(token: str):
    found = seat_of(token)
    if found is None:
        return render_template("player.html", problem=WRONG_LINK), 404
    session, seat = found
    return render_template(
        "player.html",
        problem=None,
        token=token,
        game=session.record.game,
        name=session.record.players[seat],
    )


@bp.get("/api/player/<token>/state")
def player_state(token: str):
    """What this seat may see: its own hand and card choices, nobody else's."""
    found = seat_of(token)
    if found is None:
        return error(WRONG_LINK, 404)
    return jsonify(_player_snapshot(found[1]))


def _phone_command(view):
    """A phone's POST: same origin and JSON, as the tablet's commands, but authorised by the
    seat token instead of the PIN. The view is called with the token's session and seat."""

    @wraps(view)
    def wrapper(token: str):
        if not same_origin():
            return error("cross-site request refused", 403)
        if not request.is_json:
            return error("send the command as JSON (Content-Type: application/json)", 415)
        found = seat_of(token)
        if found is None:
            return error(WRONG_LINK, 404)
        return view(*found)

    return wrapper


@bp.post("/api/player/<token>/action")
@_phone_command
def player_action(session: GameSession, seat: int):
    """An action of the token's own seat (e.g. its secret ``choose_cards``)."""
    act = json_body().get("action")
    if not isinstance(act, dict) or not isinstance(act.get("type"), str):
        return error('"action" must be an object with a "type"')
    player = act.get("player")
    if isinstance(player, bool) or player != seat:
        name = session.record.players[seat]
        return error(f'this link acts only for {name}: the action needs "player": {seat}', 403)
    table().act(act, "phone")
    return jsonify(_player_snapshot(seat))


@bp.post("/api/player/<token>/roll")
@_phone_command
def player_roll(session: GameSession, seat: int):
    """The server rolls the die this seat is asked to roll."""
    value = _roll(session, seat)
    return jsonify({**_player_snapshot(seat), "rolled": value})


@bp.post("/api/roll")
@control_required
def table_roll():
    """ "Roll for me" on the tablet: the server rolls the die the game waits for."""
    from webui.api import snapshot

    value = _roll(table().require_session(), None)
    return jsonify({**snapshot(), "rolled": value})


def _roll(session: GameSession, seat: int | None) -> int:
    """Roll a fair die for the roll prompt (only ``seat``'s own, if given) and apply it."""
    with session.lock:
        prompt = session.engine.prompt(session.state)
        if "roll" not in prompt.accepts:
            raise RulesError("roll", f"the game does not wait for a die roll: {prompt.text}")
        if seat is not None and prompt.player != seat:
            raise RulesError("turn", f"it is not your roll: {prompt.text}")
        value = secrets.randbelow(6) + 1
        table().act({"type": "roll", "player": prompt.player, "value": value}, "table die")
        return value


@bp.post("/api/player/<token>/draw")
@_phone_command
def player_draw(session: GameSession, seat: int):
    """The server draws this seat's face-down special card at random."""
    _draw(session, seat)
    return jsonify(_player_snapshot(seat))


@bp.post("/api/draw")
@control_required
def table_draw():
    """ "Draw for me" on the tablet: the server picks the face-down card at random, so that
    nobody can pick a card by its place in the deck."""
    from webui.api import snapshot

    _draw(table().require_session(), None)
    return jsonify(snapshot())


def _draw(session: GameSession, seat: int | None) -> None:
    with session.lock:
        prompt = session.engine.prompt(session.state)
        if "draw_special" not in prompt.accepts or not prompt.options:
            raise RulesError("draw", f"the game does not wait for a card draw: {prompt.text}")
        if seat is not None and prompt.player != seat:
            raise RulesError("turn", f"it is not your draw: {prompt.text}")
        choice = prompt.options[secrets.randbelow(len(prompt.options))]
        table().act(dict(choice), "table deck")


@bp.get("/api/dawgs/cards")
def dawgs_cards():
    """Titles and texts of the special ability cards (public: the box's rules)."""
    from rules.dawgs import data

    return jsonify(
        {
            card.id: {"title": card.title, "text": card.text, "stays": card.stay_in_play}
            for card in data.SPECIAL_CARDS.values()
        }
    )
