"""Read-only game queries that a board view needs and the generic snapshot does not carry.

Conquest: the tablet shows, for a touched die, every legal destination and the face that
will be on top there. Those come from the engine (``Conquest.destinations``), never from
JavaScript, so the tablet holds no rules.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request

from rules.base import ActionFormatError
from rules.conquest.board import COLUMNS, ROWS, key_square, parse_square, square_name
from webui.context import error, table

bp = Blueprint("games_api", __name__, url_prefix="/api")


@bp.get("/conquest/destinations")
def conquest_destinations():
    """Legal destinations of the current Conquest position.

    Without arguments: for every die of the player to move, keyed by ``"column,row"``.
    With ``?square=e2`` (or ``4,1``): that die only; ``any_owner=1`` also answers for a die
    of the player not to move (what it threatens). Each entry is one legal path, as
    ``Conquest.destinations`` gives it (``to``, ``path``, ``top``, ``front``, ``captures``,
    ``wins``, ``action``). ``last_seq`` names the position: the number of the last logged
    action (``None`` before the first), so a tablet can drop an answer that arrived late.
    """
    session = table().session
    if session is None:
        return error("no game in progress: start one on the New game page", 409)
    if session.record.game != "conquest":
        return error(f"the game in progress is {session.record.game}, not conquest", 404)
    with session.lock:
        state = session.state
        engine = session.engine
        last_seq = session.entries[-1].seq if session.entries else None
        square = request.args.get("square")
        any_owner = request.args.get("any_owner") in ("1", "true", "yes")
        dice: dict[str, list[dict[str, Any]]] = {}
        try:
            if square is not None:
                where = _parse_square_arg(square)
                dice[_key(where)] = engine.destinations(state, where, any_owner=any_owner)
            elif state["phase"] == "play":
                for die in state["dice"]:
                    if die["owner"] == state["to_move"]:
                        found = engine.destinations(state, die["at"])
                        if found:
                            dice[_key(die["at"])] = found
        except ActionFormatError as exc:
            return error(exc.message, 400, field=exc.field)
        return jsonify(
            {
                "game_id": session.id,
                "last_seq": last_seq,
                "turn_number": state["turn_number"],
                "to_move": state["to_move"],
                "board": _board_info(),
                "dice": dice,
            }
        )


def _key(square: Any) -> str:
    return f"{square[0]},{square[1]}"


def _parse_square_arg(text: str) -> list[int]:
    """``"e2"`` or ``"4,1"`` -> ``[4, 1]`` (the engine answers for squares off the board)."""
    try:
        if "," not in text:
            return list(parse_square(text))
        column, row = (int(part) for part in text.split(","))
    except ValueError:
        raise ActionFormatError(
            "square", f"square {text!r} is not a name like e4 or a pair like 4,3"
        ) from None
    return [column, row]


def _board_info() -> dict[str, Any]:
    return {
        "columns": COLUMNS,
        "rows": ROWS,
        "key_squares": [list(key_square(0)), list(key_square(1))],
        "column_names": [square_name((c, 0))[0] for c in range(COLUMNS)],
    }
