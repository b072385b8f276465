"""Ground Round (Rules D0.01): two or three players capture symbol hexes with darts.

State (plain JSON)::

    {"game": "groundround", "board": board id, "players": [names], "options": {...},
     "owners": {hex: player | null} for every symbol hex (blank hexes are never owned),
     "army_pins": [[hex, ...] per player],           Army Pins on the board
     "current": player, "turn_number": 1.., "phase": see PHASES,
     "darts_left": regular darts still to throw this turn,
     "extra_darts": Crossed Darts extra darts still to throw (thrown first),
     "darts_thrown": darts arrived this turn (cancelled ones too),
     "rethrows_used": Dart re-throws used this turn,
     "flaming": the next throw has unlimited attack, "crossed_used": extra darts taken,
     "pin_moves": {"window": null | "before" | "after" | "barred", "moved": [hex]},
     "pending": null | the throw waiting for a zone choice or a keep/re-throw decision,
     "removals": [players who must take an Army Pin off], "last_throw": null | {...},
     "winner": null | player, "result": null | Outcome JSON}

Actions (besides the shared ``dart`` / ``miss`` / ``bounceout`` / ``choose_zone`` of
``rules.darts``)::

    {"type": "keep", "player": p}            keep the throw just made
    {"type": "rethrow", "player": p}         cancel it with a Dart hex and throw again
    {"type": "place_pin", "player": p, "zone": hex}
    {"type": "move_pin", "player": p, "from": hex, "to": hex}
    {"type": "remove_pin", "player": p, "zone": hex}   after losing a Pin hex
    {"type": "stop", "player": p}            give up the rest of this turn's darts
    {"type": "end_turn", "player": p}        after the last dart (pins placed/moved)

``docs/rules/ground-round.md`` maps every rule paragraph to this code and its tests.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, ClassVar

import boards
from boards.model import Board
from rules.base import (
    Action,
    ActionFormatError,
    Game,
    Outcome,
    Prompt,
    RulesError,
    State,
    require,
)
from rules.darts import dart_in_zone
from rules.groundround import pins, throws
from rules.groundround.layout import DART, Layout, layout_from_board
from rules.groundround.strength import TOWER_DEFENDS, attack, defence, held

THROW = "throw"
CHOOSE = "choose_zone"
CONFIRM = "rethrow"
REMOVE = "remove_pin"
END = "end_turn"
OVER = "over"
PHASES = (THROW, CHOOSE, CONFIRM, REMOVE, END, OVER)

#: Action types each phase accepts.
ACCEPTS: Mapping[str, tuple[str, ...]] = {
    THROW: ("dart", "miss", "bounceout", "stop", "place_pin", "move_pin"),
    CHOOSE: ("choose_zone",),
    CONFIRM: ("keep", "rethrow"),
    REMOVE: ("remove_pin",),
    END: ("place_pin", "move_pin", "end_turn"),
    OVER: (),
}
ACTION_TYPES = tuple(sorted({t for types in ACCEPTS.values() for t in types}))
ORDERS = ("clockwise", "anticlockwise")


def _deep_copy(value: Any) -> Any:
    """A copy of a JSON value (faster than copy.deepcopy for the small states used here)."""
    if isinstance(value, dict):
        return {k: _deep_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_deep_copy(v) for v in value]
    return value


def _copy_state(state: State) -> State:
    """A deep copy of a Ground Round state, field by field (apply runs this on every action)."""
    new = dict(state)
    new["players"] = list(state["players"])
    new["options"] = dict(state["options"])
    new["owners"] = dict(state["owners"])
    new["army_pins"] = [list(placed) for placed in state["army_pins"]]
    new["removals"] = list(state["removals"])
    new["pin_moves"] = {
        "window": state["pin_moves"]["window"],
        "moved": list(state["pin_moves"]["moved"]),
    }
    for key in ("pending", "last_throw", "result"):
        new[key] = _deep_copy(state[key])
    return new


def _zone_field(action: Mapping[str, Any], name: str) -> str:
    return require(action, name, str)


class GroundRound(Game):
    """The Ground Round rules engine (see the module docstring for state and actions)."""

    name: ClassVar[str] = "groundround"
    title: ClassVar[str] = "Ground Round"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 3
    default_options: ClassVar[Mapping[str, Any]] = {
        # Darts each player throws per turn (the book does not say; 3 as in most dart games).
        "darts_per_turn": 3,
        # "clockwise" = seating order (player 0, 1, 2, 0...), "anticlockwise" = reversed.
        "order": "clockwise",
        # Index of the player who throws first.
        "first_player": 0,
        # Whose hexes next to a held Tower get +1 defence: "own" (the Tower owner's) or "all".
        "tower_defends": "own",
        # May a Dart hex re-throw cancel a miss or a bounce-out too (not only a hit)?
        "rethrow_misses": True,
        # End the game as a draw after this many turns; None: play until someone wins.
        "max_turns": None,
    }

    def __init__(
        self, board: Board | str | None = None, options: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(options)
        if board is None:
            board = boards.load("groundround")
        elif isinstance(board, str):
            board = boards.load(board)
        self.board: Board = board
        self.layout: Layout = layout_from_board(board)
        self._check_options()
        self._line_points = self._find_line_points()

    def _check_options(self) -> None:
        opts = self.options

        def positive_int(name: str, allow_none: bool = False) -> None:
            value = opts[name]
            if value is None and allow_none:
                return
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                extra = " or null" if allow_none else ""
                raise RulesError("options", f"{name} must be a positive integer{extra}")

        positive_int("darts_per_turn")
        positive_int("max_turns", allow_none=True)
        if opts["order"] not in ORDERS:
            raise RulesError("options", f"order must be one of {', '.join(ORDERS)}")
        if opts["tower_defends"] not in TOWER_DEFENDS:
            raise RulesError("options", f"tower_defends must be one of {', '.join(TOWER_DEFENDS)}")
        if not isinstance(opts["rethrow_misses"], bool):
            raise RulesError("options", "rethrow_misses must be true or false")
        first = opts["first_player"]
        if not isinstance(first, int) or isinstance(first, bool) or first < 0:
            raise RulesError("options", "first_player must be a player index (0, 1 or 2)")

    def _find_line_points(self) -> tuple[tuple[str, ...], ...]:
        """Pairs of touching hexes, and triples meeting at a corner: representative line hits."""
        adj = self.layout.neighbours
        pairs = sorted((a, b) for a in adj for b in adj[a] if a < b)
        triples = sorted((a, b, c) for a, b in pairs for c in adj[a] & adj[b] if b < c)
        return tuple(pairs) + tuple(triples)

    # --- set-up ----------------------------------------------------------------------
    @classmethod
    def random_setup(cls, rng: random.Random) -> tuple[Game, list[str]]:
        count = rng.randint(cls.min_players, cls.max_players)
        options = {
            "darts_per_turn": rng.choice([3, 3, 3, 1, 2, 4]),
            "order": rng.choice(ORDERS),
            "first_player": rng.randrange(count),
            "tower_defends": rng.choice(TOWER_DEFENDS),
            "rethrow_misses": rng.random() < 0.7,
        }
        return cls(options=options), [f"P{i + 1}" for i in range(count)]

    def new_state(self, players: Sequence[str]) -> State:
        if not self.min_players <= len(players) <= self.max_players:
            raise RulesError("players", f"Ground Round is for 2 or 3 players, got {len(players)}")
        first = self.options["first_player"]
        if first >= len(players):
            raise RulesError(
                "options", f"first_player is {first} but there are only {len(players)} players"
            )
        state: State = {
            "game": self.name,
            "board": self.board.id,
            "players": [str(p) for p in players],
            "options": dict(self.options),
            "owners": dict.fromkeys(self.layout.capturable),
            "army_pins": [[] for _ in players],
            "current": first,
            "turn_number": 0,
            "removals": [],
            "last_throw": None,
            "winner": None,
            "result": None,
        }
        self._start_turn(state, first)
        return state

    def _start_turn(self, state: State, player: int) -> None:
        state.update(
            current=player,
            turn_number=state["turn_number"] + 1,
            phase=THROW,
            darts_left=self.options["darts_per_turn"],
            extra_darts=0,
            darts_thrown=0,
            rethrows_used=0,
            flaming=False,
            crossed_used=False,
            pin_moves={"window": None, "moved": []},
            pending=None,
        )

    # --- reading the state -----------------------------------------------------------
    def _name(self, state: State, player: int) -> str:
        return state["players"][player]

    def _hex(self, hex_id: str) -> str:
        return self.layout.describe(hex_id)

    def acting_player(self, state: State) -> int | None:
        if state["phase"] == OVER:
            return None
        if state["phase"] == REMOVE:
            return state["removals"][0]
        return state["current"]

    def rethrows_left(self, state: State) -> int:
        player = state["current"]
        return len(held(self.layout, state, player, DART)) - state["rethrows_used"]

    def attack_of(self, state: State, player: int) -> int | None:
        """The attack of ``player``'s next dart (``None``: unlimited)."""
        return attack(self.layout, state, player)

    def defence_of(self, state: State, hex_id: str) -> int:
        """The defence of a hex right now."""
        return defence(self.layout, state, hex_id, self.options["tower_defends"])

    def _window(self, state: State) -> str | None:
        """The pin-moving window open now: before the first dart or after the last."""
        if state["phase"] == THROW and state["darts_thrown"] == 0:
            return pins.BEFORE
        if state["phase"] == END:
            return pins.AFTER
        return None

    def outcome(self, state: State) -> Outcome | None:
        result = state.get("result")
        return None if result is None else Outcome.from_json(result)

    # --- acting ----------------------------------------------------------------------
    def apply(self, state: State, action: Action) -> State:
        if not isinstance(action, Mapping):
            raise ActionFormatError("type", "an action is an object with a string field type")
        kind = require(action, "type", str)
        if state.get("board") != self.board.id:
            raise RulesError(
                "board",
                f"this state is for board {state.get('board')!r}, the game uses {self.board.id!r}",
            )
        if state["phase"] == OVER:
            raise RulesError("game-over", "the game is over; no more actions are accepted")
        if kind not in ACTION_TYPES:
            raise ActionFormatError(
                "type",
                f"unknown action type {kind!r}; Ground Round knows {', '.join(ACTION_TYPES)}",
            )
        player = require(action, "player", int)
        if not 0 <= player < len(state["players"]):
            raise RulesError("player", f"there is no player {player} in this game")
        acting = self.acting_player(state)
        if player != acting:
            raise RulesError(
                "turn-order",
                f"{self._name(state, acting)} must act now ({self.prompt(state).text}), "
                f"not {self._name(state, player)}",
            )
        if kind not in ACCEPTS[state["phase"]]:
            raise RulesError(
                "phase",
                f"the game waits for {' / '.join(ACCEPTS[state['phase']])}, not {kind}",
            )
        new = _copy_state(state)
        self._handlers[kind](self, new, action, player)
        return new

    def _on_throw(self, state: State, action: Action, player: int) -> None:
        throw = throws.aim(self.layout, self.board, action)
        state["darts_thrown"] += 1
        if throw["kind"] == "line":
            state["pending"] = throw
            state["phase"] = CHOOSE
            return
        self._offer_rethrow(state, throw)

    def _on_choose(self, state: State, action: Action, player: int) -> None:
        zone = self.layout.hex_of(_zone_field(action, "zone"))
        pending = state["pending"]
        if zone not in pending["candidates"]:
            names = ", ".join(f"{c} ({self._hex(c)})" for c in pending["candidates"])
            raise RulesError("line-hit", f"the dart touches only {names}; choose one of them")
        self._offer_rethrow(state, {"kind": "hit", "zone": zone, "red": zone in pending["red"]})

    def _offer_rethrow(self, state: State, throw: dict[str, Any]) -> None:
        can_cancel = throw["kind"] == "hit" or self.options["rethrow_misses"]
        if can_cancel and self.rethrows_left(state) > 0:
            state["pending"] = throw
            state["phase"] = CONFIRM
            return
        self._resolve(state, throw)

    def _resolve(self, state: State, throw: dict[str, Any]) -> None:
        throws.resolve(self.layout, state, throw, self.options["tower_defends"])
        champion = throws.winner(self.layout, state)
        if champion is not None:
            self._finish(state, Outcome((champion,), "all-flags"), champion)
            return
        self._advance(state)

    def _on_keep(self, state: State, action: Action, player: int) -> None:
        self._resolve(state, state["pending"])

    def _on_rethrow(self, state: State, action: Action, player: int) -> None:
        state["rethrows_used"] += 1
        state["last_throw"] = {
            "player": player,
            "kind": state["pending"]["kind"],
            "zone": state["pending"].get("zone"),
            "result": "cancelled",
        }
        state["pending"] = None
        state["phase"] = THROW

    def _on_place(self, state: State, action: Action, player: int) -> None:
        zone = _zone_field(action, "zone")
        if pins.in_hand(self.layout, state, player) == 0:
            raise RulesError("pin-place", "no Army Pin in hand: you get one per Pin hex you hold")
        self._check_own_free(state, player, zone, "pin-place")
        state["army_pins"][player] = sorted([*state["army_pins"][player], zone])
        if state["phase"] == END:
            self._advance(state)

    def _on_move(self, state: State, action: Action, player: int) -> None:
        source = _zone_field(action, "from")
        target = _zone_field(action, "to")
        window = self._window(state)
        if window is None:
            raise RulesError(
                "pin-move", "Army Pins move only before the first dart or after the last one"
            )
        refusal = pins.move_window_refusal(state, window)
        if refusal is not None:
            raise RulesError("pin-move", refusal)
        if source not in state["army_pins"][player]:
            raise RulesError("pin-move", f"you have no Army Pin on {source!r}")
        if source in state["pin_moves"]["moved"]:
            raise RulesError("pin-move", f"the Army Pin on {source!r} has already moved this turn")
        self._check_own_free(state, player, target, "pin-move")
        mine = [p for p in state["army_pins"][player] if p != source]
        state["army_pins"][player] = sorted([*mine, target])
        state["pin_moves"] = {"window": window, "moved": [*state["pin_moves"]["moved"], target]}
        if state["phase"] == END:
            self._advance(state)

    def _check_own_free(self, state: State, player: int, zone: str, rule: str) -> None:
        if zone not in self.layout.symbol:
            raise RulesError("unknown-zone", f"board {self.board.id!r} has no hex {zone!r}")
        if state["owners"].get(zone) != player:
            raise RulesError(rule, f"an Army Pin goes on one of your own hexes, not {zone!r}")
        if zone in state["army_pins"][player]:
            raise RulesError(rule, f"{zone!r} already has one of your Army Pins")

    def _on_remove(self, state: State, action: Action, player: int) -> None:
        zone = _zone_field(action, "zone")
        if zone not in state["army_pins"][player]:
            raise RulesError("pin-loss", f"you have no Army Pin on {zone!r} to take off")
        state["army_pins"][player].remove(zone)
        state["removals"].pop(0)
        state["last_throw"] = {**(state["last_throw"] or {}), "pin_removed": zone}
        self._advance(state)

    def _on_stop(self, state: State, action: Action, player: int) -> None:
        state["darts_left"] = 0
        state["extra_darts"] = 0
        state["flaming"] = False
        self._advance(state)

    def _on_end(self, state: State, action: Action, player: int) -> None:
        if pins.in_hand(self.layout, state, player) > 0:
            raise RulesError(
                "pin-place", "place your Army Pin on one of your hexes before ending the turn"
            )
        self._next_turn(state)

    _handlers: ClassVar[dict[str, Callable[..., None]]] = {
        "dart": _on_throw,
        "miss": _on_throw,
        "bounceout": _on_throw,
        "choose_zone": _on_choose,
        "keep": _on_keep,
        "rethrow": _on_rethrow,
        "place_pin": _on_place,
        "move_pin": _on_move,
        "remove_pin": _on_remove,
        "stop": _on_stop,
        "end_turn": _on_end,
    }

    # --- turn flow ---------------------------------------------------------------------
    def _advance(self, state: State) -> None:
        """Set the phase after a step: losses to settle, darts to throw, or the turn's end."""
        if state["removals"]:
            state["phase"] = REMOVE
            return
        if state["darts_left"] + state["extra_darts"] > 0:
            state["phase"] = THROW
            return
        player = state["current"]
        if pins.in_hand(self.layout, state, player) > 0 or pins.can_move(
            self.layout, state, player, pins.AFTER
        ):
            state["phase"] = END
            return
        self._next_turn(state)

    def _next_turn(self, state: State) -> None:
        step = 1 if self.options["order"] == "clockwise" else -1
        limit = self.options["max_turns"]
        if limit is not None and state["turn_number"] >= limit:
            self._finish(state, Outcome((), "turn-limit", draw=True), None)
            return
        self._start_turn(state, (state["current"] + step) % len(state["players"]))

    def _finish(self, state: State, outcome: Outcome, champion: int | None) -> None:
        state.update(phase=OVER, winner=champion, result=outcome.to_json(), pending=None)
        state["removals"] = []

    # --- what the game waits for ---------------------------------------------------------
    def prompt(self, state: State) -> Prompt:
        phase = state["phase"]
        if phase == OVER:
            return self._prompt_over(state)
        player = self.acting_player(state)
        options = tuple(self._finite_options(state))
        accepts = ACCEPTS[phase]
        name = self._name(state, player)
        data: dict[str, Any] = {"phase": phase}
        if phase == THROW:
            return Prompt(
                player, "dart", self._throw_text(state), options, accepts, self._throw_data(state)
            )
        if phase == CHOOSE:
            names = " or ".join(self._hex(c) for c in state["pending"]["candidates"])
            text = f"{name}: the dart sits on a line; choose which hex it hit: {names}"
            data["candidates"] = list(state["pending"]["candidates"])
            return Prompt(player, "choose_zone", text, options, accepts, data)
        if phase == CONFIRM:
            preview = self._preview(state)
            text = (
                f"{name}: {preview}. Keep this throw, or cancel it with a Dart re-throw "
                f"({self.rethrows_left(state)} left this turn)?"
            )
            data.update(pending=dict(state["pending"]), rethrows_left=self.rethrows_left(state))
            return Prompt(player, "rethrow", text, options, accepts, data)
        if phase == REMOVE:
            text = (
                f"{name}: you lost a Pin hex; take one of your Army Pins off the board "
                f"(on {', '.join(self._hex(p) for p in state['army_pins'][player])})"
            )
            return Prompt(player, "remove_pin", text, options, accepts, data)
        in_hand = pins.in_hand(self.layout, state, player)
        if in_hand:
            text = f"{name}: place your Army Pin on one of your hexes ({in_hand} in hand)"
            return Prompt(player, "place_pin", text, options, accepts, data)
        text = f"{name}: move your Army Pins now if you like, or end the turn"
        return Prompt(player, "end_turn", text, options, accepts, data)

    def _prompt_over(self, state: State) -> Prompt:
        if state["winner"] is None:
            text = "The game is over: a draw (turn limit reached)"
        else:
            text = f"{self._name(state, state['winner'])} holds every Flag and wins"
        return Prompt(None, "game_over", text, (), (), {"result": state["result"]})

    def _throw_text(self, state: State) -> str:
        player = state["current"]
        name = self._name(state, player)
        strength = self.attack_of(state, player)
        power = "unlimited attack" if strength is None else f"attack {strength}"
        if state["extra_darts"]:
            what = f"throw an extra dart ({state['extra_darts']} extra left, {power})"
        else:
            total = self.options["darts_per_turn"]
            number = total - state["darts_left"] + 1
            what = f"throw dart {number} of {total} ({power})"
        notes = []
        if pins.in_hand(self.layout, state, player):
            notes.append("you may place your Army Pin")
        if self._window(state) == pins.BEFORE and pins.can_move(
            self.layout, state, player, pins.BEFORE
        ):
            notes.append("you may move your Army Pins before throwing")
        return f"{name}: {what}" + (f"; {'; '.join(notes)}" if notes else "")

    def _throw_data(self, state: State) -> dict[str, Any]:
        player = state["current"]
        return {
            "phase": THROW,
            "darts_left": state["darts_left"],
            "extra_darts": state["extra_darts"],
            "attack": self.attack_of(state, player),
            "unlimited": state["flaming"],
            "rethrows_left": self.rethrows_left(state),
            "pins_in_hand": pins.in_hand(self.layout, state, player),
            "defence": {h: self.defence_of(state, h) for h in self.layout.capturable},
        }

    def _preview(self, state: State) -> str:
        """What keeping the pending throw would do, in words."""
        trial = _copy_state(state)
        throws.resolve(self.layout, trial, state["pending"], self.options["tower_defends"])
        return self._throw_result_text(trial["last_throw"])

    def _throw_result_text(self, record: Mapping[str, Any]) -> str:
        kind = record["kind"]
        if kind == "miss":
            return "the dart missed the board"
        if kind == "bounceout":
            return "the dart bounced out"
        place = self._hex(record["zone"])
        result = record["result"]
        text = {
            "blank": f"{place} is blank and cannot be taken",
            "held": f"{place} is already yours",
            "tower-protected": f"{place} is a held Tower: only a Flaming Fist dart takes it",
            "captured": f"{place} is captured",
            "repelled": f"{place} holds (defence {record.get('defence')} is not below the attack)",
        }.get(result, f"{place}: {result}")
        if record.get("flaming"):
            text += "; the next dart has unlimited attack"
        if record.get("extra_darts"):
            text += f"; {record['extra_darts']} extra darts"
        return text

    # --- legal actions -------------------------------------------------------------------
    def _finite_options(self, state: State) -> Iterator[Action]:
        """The button choices of the current prompt (all complete legal actions)."""
        phase = state["phase"]
        player = self.acting_player(state)
        if phase == THROW:
            yield {"type": "miss", "player": player}
            yield {"type": "bounceout", "player": player, "cause": None}
            yield {"type": "stop", "player": player}
            yield from self._pin_actions(state, player)
        elif phase == CHOOSE:
            for zone in state["pending"]["candidates"]:
                yield {"type": "choose_zone", "player": player, "zone": zone}
        elif phase == CONFIRM:
            yield {"type": "keep", "player": player}
            yield {"type": "rethrow", "player": player}
        elif phase == REMOVE:
            for zone in state["army_pins"][player]:
                yield {"type": "remove_pin", "player": player, "zone": zone}
        elif phase == END:
            yield from self._pin_actions(state, player)
            if pins.in_hand(self.layout, state, player) == 0:
                yield {"type": "end_turn", "player": player}

    def _pin_actions(self, state: State, player: int) -> Iterator[Action]:
        if pins.in_hand(self.layout, state, player):
            for zone in pins.free_hexes(self.layout, state, player):
                yield {"type": "place_pin", "player": player, "zone": zone}
        window = self._window(state)
        if window is not None:
            for source, target in pins.pin_moves(self.layout, state, player, window):
                yield {"type": "move_pin", "player": player, "from": source, "to": target}

    def _dart_actions(self, player: int) -> Iterator[Action]:
        for hex_id in self.layout.hexes:
            yield dart_in_zone(player, hex_id)
        for red, parent in sorted(self.layout.red_parent.items()):
            yield {**dart_in_zone(player, parent), "subzones": [red]}
        for point in self._line_points:
            yield self._line_dart(player, point)

    @staticmethod
    def _line_dart(player: int, point: Sequence[str]) -> Action:
        return {**dart_in_zone(player, point[0]), "candidates": list(point), "on_line": True}

    def legal_actions(self, state: State) -> Iterator[Action]:
        if state["phase"] == OVER:
            return
        if state["phase"] == THROW:
            yield from self._dart_actions(state["current"])
        yield from self._finite_options(state)

    def random_action(self, state: State, rng: random.Random) -> Action:
        """A random legal action, weighted so that games end: most darts hit a hex."""
        if state["phase"] != THROW:
            options = list(self._finite_options(state))
            # Mostly end the turn / keep the throw, as players mostly do; the rest at random.
            usual = [o for o in options if o["type"] in ("end_turn", "keep")]
            if usual and rng.random() < 0.7:
                return usual[0]
            return rng.choice(options)
        player = state["current"]
        housekeeping = list(self._pin_actions(state, player))
        if housekeeping and rng.random() < 0.3:
            return rng.choice(housekeeping)
        roll = rng.random()
        if roll < 0.04:
            return {"type": "miss", "player": player}
        if roll < 0.07:
            return {"type": "bounceout", "player": player, "cause": rng.choice([None, "other"])}
        if roll < 0.08:
            return {"type": "stop", "player": player}
        if roll < 0.16 and self._line_points:
            return self._line_dart(player, rng.choice(self._line_points))
        if roll < 0.24 and self.layout.red_parent:
            red = rng.choice(sorted(self.layout.red_parent))
            return {**dart_in_zone(player, self.layout.red_parent[red]), "subzones": [red]}
        wanted = [f for f in self.layout.flags if state["owners"][f] != player]
        if roll < 0.4 and wanted:
            # Players aim at the Flags they lack: this keeps random games short.
            return dart_in_zone(player, rng.choice(wanted))
        return dart_in_zone(player, rng.choice(self.layout.hexes))

    # --- checks and log ------------------------------------------------------------------
    def check_invariants(self, state: State) -> list[str]:
        problems: list[str] = []
        layout = self.layout
        count = len(state["players"])
        if state["phase"] not in PHASES:
            problems.append(f"unknown phase {state['phase']!r}")
            return problems
        if set(state["owners"]) != set(layout.capturable):
            problems.append("owners must list exactly the symbol hexes (never blank ones)")
        for hex_id, owner in state["owners"].items():
            if owner is not None and not 0 <= owner < count:
                problems.append(f"{hex_id} owned by unknown player {owner}")
        seen: set[str] = set()
        for player, placed in enumerate(state["army_pins"]):
            for zone in placed:
                if state["owners"].get(zone) != player:
                    problems.append(f"Army Pin of player {player} on {zone}, not his hex")
                if zone in seen:
                    problems.append(f"two Army Pins on {zone}")
                seen.add(zone)
            allowed = pins.entitled(layout, state, player) + state["removals"].count(player)
            if len(placed) > allowed:
                problems.append(f"player {player} has more Army Pins than Pin hexes")
        if not 0 <= state["current"] < count:
            problems.append(f"current player {state['current']} out of range")
        if state["darts_left"] < 0 or state["extra_darts"] < 0:
            problems.append("negative dart count")
        if (
            state["phase"] in (THROW, CHOOSE, CONFIRM)
            and state["darts_left"] + state["extra_darts"] < 1
        ):
            problems.append(f"phase {state['phase']} with no dart left")
        if state["phase"] in (CHOOSE, CONFIRM) and state["pending"] is None:
            problems.append(f"phase {state['phase']} without a pending throw")
        if state["phase"] == REMOVE and not state["removals"]:
            problems.append("remove_pin phase with nobody to remove a pin")
        if self.rethrows_left(state) < 0:
            problems.append("more Dart re-throws used than Dart hexes held")
        champion = throws.winner(layout, state)
        if state["phase"] == OVER:
            if state["result"] is None:
                problems.append("game over without a result")
            elif state["winner"] is not None and champion != state["winner"]:
                problems.append("the winner does not hold every Flag")
        elif champion is not None:
            problems.append(f"player {champion} holds every Flag but the game goes on")
        return problems

    def describe_action(self, state: State, action: Action) -> str:
        player = action.get("player")
        name = (
            self._name(state, player)
            if isinstance(player, int) and 0 <= player < len(state["players"])
            else "?"
        )
        kind = action.get("type")
        if kind == "dart":
            zone = action.get("zone")
            candidates = action.get("candidates") or []
            if action.get("on_line") and len(candidates) >= 2:
                return f"{name}'s dart sits on the line between " + ", ".join(
                    self._hex(c) for c in candidates
                )
            red = " (red area)" if action.get("subzones") else ""
            return f"{name} hits {self._hex(zone) if zone else 'nothing'}{red}"
        simple = {
            "miss": f"{name} misses the board",
            "bounceout": f"{name}'s dart bounces out",
            "keep": f"{name} keeps the throw",
            "rethrow": f"{name} cancels the throw with a Dart re-throw",
            "stop": f"{name} stops throwing this turn",
            "end_turn": f"{name} ends the turn",
        }
        if kind in simple:
            return simple[kind]
        if kind == "choose_zone":
            return f"{name} takes {self._hex(str(action.get('zone')))} for the line hit"
        if kind == "place_pin":
            return f"{name} places an Army Pin on {self._hex(str(action.get('zone')))}"
        if kind == "move_pin":
            return (
                f"{name} moves an Army Pin from {self._hex(str(action.get('from')))} "
                f"to {self._hex(str(action.get('to')))}"
            )
        if kind == "remove_pin":
            return f"{name} takes the Army Pin off {self._hex(str(action.get('zone')))}"
        return super().describe_action(state, action)


__all__ = ["GroundRound"]
