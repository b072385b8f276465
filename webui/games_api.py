"""Read-only game queries that a board view needs and the generic snapshot does not carry.

Conquest: the tablet shows, for a touched die, every legal destination and the face that
will be on top there. Those come from the engine (``Conquest.destinations``), never from
JavaScript, so the tablet holds no rules.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request

from oche.table import GameSession
from rules.base import ActionFormatError
from rules.conquest.board import COLUMNS, ROWS, key_square, parse_square, square_name
from webui.context import error, table

bp = Blueprint("games_api", __name__, url_prefix="/api")


def _session_playing(game: str) -> tuple[GameSession | None, Any]:
    """The session on the table if it plays ``game``; otherwise ``None`` and the error
    answer that says why (no game at all: 409; another game: 404)."""
    session = table().session
    if session is None:
        return None, error("no game in progress: start one on the New game page", 409)
    if session.record.game != game:
        return None, error(f"the game in progress is {session.record.game}, not {game}", 404)
    return session, None


def _last_seq(session: GameSession) -> int | None:
    """The number of the last logged action (``None`` before the first): it names the
    position, so that a tablet can drop an answer that arrives late. Hold the lock."""
    return session.entries[-1].seq if session.entries else None


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
    session, refusal = _session_playing("conquest")
    if refusal is not None:
        return refusal
    with session.lock:
        state = session.state
        engine = session.engine
        last_seq = _last_seq(session)
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


# --- Sparta ------------------------------------------------------------------------------
#: The box's colours (Spartans yellow, Achaeans red), used when the players kept the generic
#: colours the New game form fills in.
SPARTA_COLOURS = ("#f2b705", "#c62828")


@bp.get("/sparta/moves")
def sparta_moves():
    """What each legal move of the current Sparta position would do, for the tablet.

    Without arguments: for every piece of the player to move that can move (``"row,column"``),
    one entry per square it can stop on: ``to``, ``path`` and ``action`` (the engine's move
    along one shortest path) and ``effects``, what the move would cause, found by applying
    it: ``promotes``, ``conquers``, ``captures`` (``[{square, player, kind}]``) and ``result``
    (``"wins"``, ``"loses"``, ``"draw"`` or ``None`` when the game goes on). With
    ``?square=c3`` (or ``7,2``): that piece only; a piece of the player not to move gets its
    reach (``to``, ``path``) with ``action`` and ``effects`` ``None`` -- what it threatens.
    ``board`` names the files and ranks and gives the colours to draw the two sides in;
    ``last_seq`` names the position (see ``conquest_destinations``).
    """
    session, refusal = _session_playing("sparta")
    if refusal is not None:
        return refusal
    with session.lock:
        state = session.state
        engine = session.engine
        last_seq = _last_seq(session)
        square = request.args.get("square")
        pieces: dict[str, list[dict[str, Any]]] = {}
        try:
            if square is not None:
                where = _sparta_square_arg(square, engine.size)
                pieces[_key(where)] = _sparta_entries(engine, state, where)
            elif state["outcome"] is None:
                for origin, by_dest in engine.all_paths(state).items():
                    where = [int(part) for part in origin.split(",")]
                    pieces[origin] = _sparta_entries(engine, state, where, by_dest)
        except ActionFormatError as exc:
            return error(exc.message, 400, field=exc.field)
        return jsonify(
            {
                "game_id": session.id,
                "last_seq": last_seq,
                "turn_number": state["turn_number"],
                "to_move": state["to_move"],
                "board": _sparta_board_info(engine.size, session.id),
                "pieces": pieces,
            }
        )


def _sparta_entries(
    engine: Any,
    state: dict[str, Any],
    where: list[int],
    by_dest: dict[str, list[list[int]]] | None = None,
) -> list[dict[str, Any]]:
    """One entry per destination of the piece on ``where``, with the move's effects if the
    piece belongs to the player to move (the engine applies each move to find them)."""
    row = state["board"][where[0]]
    letter = row[where[1]]
    movers = "WH" if state["to_move"] == 0 else "wh"
    if by_dest is None:
        reach = engine.destinations(state, where)
        if letter not in movers or state["outcome"] is not None:
            return [{**entry, "action": None, "effects": None} for entry in reach]
        by_dest = {_key(entry["to"]): entry["path"] for entry in reach}
    player = state["to_move"]
    entries = []
    for path in by_dest.values():
        action = {"type": "move", "player": player, "path": path}
        after = engine.apply(state, action)
        last, outcome = after["last"], after["outcome"]
        result = None
        if outcome is not None:
            if outcome["draw"]:
                result = "draw"
            else:
                result = "wins" if player in outcome["winners"] else "loses"
        entries.append(
            {
                "to": path[-1],
                "path": path,
                "action": action,
                "effects": {
                    "promotes": last["promoted"] is not None,
                    "conquers": last["conquered"] is not None,
                    "captures": last["captured"],
                    "result": result,
                },
            }
        )
    return entries


def _sparta_square_arg(text: str, size: int) -> list[int]:
    """``"c3"`` or ``"7,2"`` -> ``[row, column]``; off-board or unreadable: a format error."""
    from rules.sparta.board import as_list, parse_square

    value: Any = text
    if "," in text:
        try:
            value = [int(part) for part in text.split(",")]
        except ValueError:
            raise ActionFormatError(
                "square", f"square {text!r} is not a name like c3 or a pair like 7,2"
            ) from None
    return as_list(parse_square(value, size, "square"), size)


def _sparta_board_info(size: int, game_id: str) -> dict[str, Any]:
    """File letters, rank numbers per row (top row first) and the two sides' colours."""
    import json

    from webui.api import PLAYER_COLORS

    stored = table().store.setting(f"colors:{game_id}")
    chosen = json.loads(stored) if stored else None
    generic = [c.lower() for c in PLAYER_COLORS[:2]]
    if not chosen or [str(c).lower() for c in chosen[:2]] == generic:
        colours = list(SPARTA_COLOURS)
    else:
        colours = [str(c) for c in chosen[:2]]
    return {
        "size": size,
        "files": [chr(ord("a") + c) for c in range(size)],
        "ranks": [str(size - r) for r in range(size)],
        "colours": colours,
    }


# --- Ground Round ------------------------------------------------------------------------
@bp.get("/groundround/strength")
def groundround_strength():
    """Attack, defence and powers of the current Ground Round position, for the tablet.

    Everything comes from the engine: ``attack`` is the next dart's attack of the player whose
    turn it is (``None``: unlimited, after a Flaming Fist hit), ``defence`` each symbol hex's
    defence now with ``defence_parts`` saying why (``[reason, amount]``), ``rethrows_left``
    the Dart re-throws left this turn, ``players`` what each player holds (Flags, hexes, Army
    Pins on the board and in hand). ``hits``: while the game waits for a dart, what a dart
    kept in each hex would do (``result`` as in ``last_throw``, ``wins`` when it ends the
    game), found by playing it on a copy of the game. ``last_seq`` names the position (see
    ``conquest_destinations``).
    """
    session, refusal = _session_playing("groundround")
    if refusal is not None:
        return refusal
    with session.lock:
        state = session.state
        engine = session.engine
        last_seq = _last_seq(session)
        return jsonify(
            {
                "game_id": session.id,
                "last_seq": last_seq,
                "current": state["current"],
                "phase": state["phase"],
                **_groundround_strength(engine, state),
            }
        )


def _groundround_strength(engine: Any, state: dict[str, Any]) -> dict[str, Any]:
    from rules.groundround import pins
    from rules.groundround.layout import FLAG
    from rules.groundround.strength import defence_parts, held

    layout = engine.layout
    tower_defends = engine.options["tower_defends"]
    current = state["current"]
    players = []
    for player in range(len(state["players"])):
        players.append(
            {
                "flags": len(held(layout, state, player, FLAG)),
                "hexes": sum(1 for owner in state["owners"].values() if owner == player),
                "pins_on_board": list(state["army_pins"][player]),
                "pins_in_hand": pins.in_hand(layout, state, player),
            }
        )
    return {
        "attack": engine.attack_of(state, current),
        "unlimited": bool(state["flaming"]),
        "darts_left": state["darts_left"],
        "extra_darts": state["extra_darts"],
        "darts_per_turn": engine.options["darts_per_turn"],
        "rethrows_left": engine.rethrows_left(state),
        "flags_total": len(layout.flags),
        "defence": {h: engine.defence_of(state, h) for h in layout.capturable},
        "defence_parts": {
            h: [list(part) for part in defence_parts(layout, state, h, tower_defends)]
            for h in layout.capturable
        },
        "players": players,
        "hits": _groundround_hits(engine, state),
    }


def _groundround_hits(engine: Any, state: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """What a dart kept in each hex would do now (empty unless the game waits for a dart)."""
    from rules.darts import dart_in_zone

    if engine.prompt(state).kind != "dart":
        return {}
    player = state["current"]
    hits = {}
    for hex_id in engine.layout.hexes:
        after = engine.apply(state, dart_in_zone(player, hex_id))
        if engine.prompt(after).kind == "rethrow":
            after = engine.apply(after, {"type": "keep", "player": player})
        record = after["last_throw"] or {}
        hits[hex_id] = {
            "result": record.get("result"),
            "wins": after["winner"] == player,
        }
    return hits
