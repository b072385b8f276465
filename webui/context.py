"""Access to the table and camera of the running app, and the PIN check for control."""

from __future__ import annotations

import hmac
from functools import wraps
from typing import Any
from urllib.parse import urlparse

from flask import Blueprint, current_app, jsonify, request, session

from oche.errors import UserError
from oche.table import Table
from rules import RulesError


def table() -> Table:
    return current_app.extensions["oche"]["table"]


def camera() -> Any:
    return current_app.extensions["oche"]["camera"]


def error(message: str, status: int = 400, **extra: Any):
    return jsonify({"error": message, **extra}), status


def pin_matches(pin: str) -> bool:
    expected = table().store.setting("pin") or ""
    return hmac.compare_digest(str(pin).encode(), expected.encode())


def has_control() -> bool:
    return bool(session.get("control")) and session.get("pin_version") == table().store.setting(
        "pin"
    )


def same_origin() -> bool:
    """Browsers send Origin on cross-site POSTs; refuse any that is not this server."""
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    return urlparse(origin).netloc == request.host


def control_required(view):
    """POST endpoints: same origin, JSON body, and the table's PIN (cookie or header)."""

    @wraps(view)
    def wrapper(*args, **kwargs):
        if not same_origin():
            return error("cross-site request refused", 403)
        if not request.is_json:
            return error("send the command as JSON (Content-Type: application/json)", 415)
        header_pin = request.headers.get("X-Oche-Pin")
        if not (has_control() or (header_pin is not None and pin_matches(header_pin))):
            return error(
                "enter the table's PIN to control the game (spectators can only watch)", 403
            )
        return view(*args, **kwargs)

    return wrapper


def json_body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise ValueError("the request body must be a JSON object")
    return data


def json_errors(blueprint: Blueprint) -> None:
    """Answer a blueprint's user mistakes and refused moves as JSON errors, not error pages."""

    @blueprint.errorhandler(UserError)
    def _user_error(exc: UserError):
        return error(str(exc), 400)

    @blueprint.errorhandler(RulesError)
    def _rules_error(exc: RulesError):
        return error(exc.message, 409, rule=exc.rule)

    @blueprint.errorhandler(ValueError)
    def _value_error(exc: ValueError):
        return error(str(exc), 400)
