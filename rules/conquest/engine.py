"""Conquest (Denys Fisher, 1975): two players tumble dice across a 9x8 board.

State (plain JSON)::

    {"players": [name, name], "phase": "choose_first" | "play" | "over",
     "to_move": 0 | 1 | None, "turn_number": moves and passes made so far,
     "quiet_moves": moves since the last capture, "passes": passes in a row,
     "dice": [{"id": "0a", "owner": 0, "key": false, "at": [c, r], "top": 5, "front": 3}, ...],
     "captured": [same fields plus "by" (capturing die id) and "turn"],
     "last_move": null | {"player", "die", "path", "captured"},
     "result": null | Outcome JSON}

``front`` is the face turned south (towards player 0's edge); key dice carry no numbers that
matter, so their ``top`` and ``front`` are ``null``. Actions::

    {"type": "first", "starter": 0|1}           who won the hidden-hands guess
    {"type": "move", "player": p, "path": [[c, r], ...]}   start square first
    {"type": "pass", "player": p}               only when p has no legal move

``docs/rules/conquest.md`` maps every rule paragraph to this code and its tests.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

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
from rules.conquest.board import (
    START_ROWS,
    Square,
    home_row,
    key_square,
    on_board,
    parse_square,
    start_columns,
    start_front,
)
from rules.conquest.dice import HANDEDNESS, STEPS, faces, tumble_along
from rules.conquest.invariants import state_problems
from rules.conquest.paths import Path, check_path, legal_paths
from rules.conquest.text import move_text, result_text

ALL_DIRECTIONS = frozenset(STEPS)
NO_MOVE_CHOICES = ("pass", "lose")


def _square(value: Any, field: str) -> Square:
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise ActionFormatError(
            field, f"a square is [column, row] with two integers, got {value!r}"
        )
    return (value[0], value[1])


class Conquest(Game):
    """The Conquest rules engine (see the module docstring for state and actions)."""

    name: ClassVar[str] = "conquest"
    title: ClassVar[str] = "Conquest"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    default_options: ClassVar[Mapping[str, Any]] = {
        # "standard" 5 1 2 6 K 6 2 1 5, or "older" 5 1 6 2 K 2 6 1 5.
        "start_row": "standard",
        # "right" (usual Western dice) or "left": which way 1-2-3 run round their corner.
        "handedness": "right",
        # None: the table enters who won the hidden-hands guess; 0 or 1: that player starts.
        "first_player": None,
        # May an ordinary die tumble towards its owner's edge? The book says any direction.
        "backward_moves": True,
        # A player with no legal move: "pass" (the game goes on) or "lose".
        "no_move": "pass",
        # Draw after this many moves (both players counted) without a capture; None: never.
        "quiet_move_limit": 100,
    }

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        opts = self.options
        if opts["start_row"] not in START_ROWS:
            raise RulesError(
                "options",
                f"start_row must be one of {', '.join(START_ROWS)}, got {opts['start_row']!r}",
            )
        if opts["handedness"] not in HANDEDNESS:
            raise RulesError(
                "options",
                f"handedness must be one of {', '.join(HANDEDNESS)}, got {opts['handedness']!r}",
            )
        if opts["first_player"] not in (None, 0, 1) or isinstance(opts["first_player"], bool):
            raise RulesError("options", "first_player must be null (ask the table), 0 or 1")
        if not isinstance(opts["backward_moves"], bool):
            raise RulesError("options", "backward_moves must be true or false")
        if opts["no_move"] not in NO_MOVE_CHOICES:
            raise RulesError("options", f"no_move must be one of {', '.join(NO_MOVE_CHOICES)}")
        limit = opts["quiet_move_limit"]
        bad_limit = not isinstance(limit, int) or isinstance(limit, bool) or limit < 1
        if limit is not None and bad_limit:
            raise RulesError("options", "quiet_move_limit must be a positive integer or null")
        self.handedness: str = opts["handedness"]

    # --- set-up ----------------------------------------------------------------------
    @classmethod
    def random_setup(cls, rng: random.Random) -> tuple[Game, list[str]]:
        options = {
            "start_row": rng.choice(sorted(START_ROWS)),
            "handedness": rng.choice(HANDEDNESS),
            "first_player": rng.choice([None, 0, 1]),
            "backward_moves": rng.random() < 0.75,
            "no_move": rng.choice(NO_MOVE_CHOICES),
        }
        return cls(options), ["P1", "P2"]

    def new_state(self, players: Sequence[str]) -> State:
        if len(players) != 2:
            raise RulesError("players", f"Conquest is for exactly 2 players, got {len(players)}")
        dice: list[dict[str, Any]] = []
        for player in (0, 1):
            front = start_front(player)
            for column, top in start_columns(player, self.options["start_row"]):
                is_key = top is None
                dice.append(
                    {
                        "id": f"{player}{'abcdefghi'[column]}",
                        "owner": player,
                        "key": is_key,
                        "at": [column, home_row(player)],
                        "top": top,
                        "front": None if is_key else front,
                    }
                )
        first = self.options["first_player"]
        return {
            "players": [str(p) for p in players],
            "phase": "choose_first" if first is None else "play",
            "to_move": first,
            "turn_number": 0,
            "quiet_moves": 0,
            "passes": 0,
            "dice": dice,
            "captured": [],
            "last_move": None,
            "result": None,
        }

    # --- reading the state -----------------------------------------------------------
    @staticmethod
    def _occupied(state: State) -> dict[Square, int]:
        return {(d["at"][0], d["at"][1]): d["owner"] for d in state["dice"]}

    @staticmethod
    def _die_at(state: State, square: Square) -> int | None:
        for index, die in enumerate(state["dice"]):
            if die["at"][0] == square[0] and die["at"][1] == square[1]:
                return index
        return None

    def _directions(self, die: Mapping[str, Any]) -> frozenset[str]:
        if self.options["backward_moves"] or die["key"]:
            return ALL_DIRECTIONS
        backward = "S" if die["owner"] == 0 else "N"
        return ALL_DIRECTIONS - {backward}

    @staticmethod
    def _distance(die: Mapping[str, Any]) -> int:
        return 1 if die["key"] else die["top"]

    def _die_paths(
        self, state: State, die: Mapping[str, Any], occupied: Mapping[Square, int]
    ) -> Iterator[tuple[Path, tuple[str, ...]]]:
        start = (die["at"][0], die["at"][1])
        return legal_paths(
            start, self._distance(die), occupied, die["owner"], self._directions(die)
        )

    def _moves(self, state: State) -> Iterator[tuple[dict[str, Any], Path]]:
        player = state["to_move"]
        occupied = self._occupied(state)
        for die in state["dice"]:
            if die["owner"] == player:
                for path, _ in self._die_paths(state, die, occupied):
                    yield die, path

    def has_legal_move(self, state: State) -> bool:
        """Whether the player to move can tumble any die."""
        return next(self._moves(state), None) is not None

    def _move_action(self, player: int, path: Path) -> Action:
        return {"type": "move", "player": player, "path": [[c, r] for c, r in path]}

    # --- the state API ---------------------------------------------------------------
    def prompt(self, state: State) -> Prompt:
        phase = state["phase"]
        names = state["players"]
        if phase == "over":
            return Prompt(None, "game_over", self._result_text(state))
        if phase == "choose_first":
            return Prompt(
                None,
                "choose_first",
                "Who starts? One player hides a die of each colour; the other picks a hand.",
                options=tuple({"type": "first", "starter": p} for p in (0, 1)),
                accepts=("first",),
            )
        player = state["to_move"]
        if not self.has_legal_move(state):
            # Only reached with no_move="pass": with "lose" the game ended already.
            return Prompt(
                player,
                "pass",
                f"{names[player]} cannot move any die and must pass.",
                options=({"type": "pass", "player": player},),
                accepts=("pass",),
            )
        occupied = self._occupied(state)
        movable = [
            list(die["at"])
            for die in state["dice"]
            if die["owner"] == player and next(self._die_paths(state, die, occupied), None)
        ]
        return Prompt(
            player,
            "move",
            f"{names[player]}: touch a die, then its destination.",
            accepts=("move",),
            data={
                "movable": movable,
                "key_squares": [list(key_square(0)), list(key_square(1))],
                "front_faces": "south",
            },
        )

    def legal_actions(self, state: State) -> Iterator[Action]:
        phase = state["phase"]
        if phase == "choose_first":
            yield from ({"type": "first", "starter": p} for p in (0, 1))
            return
        if phase != "play":
            return
        player = state["to_move"]
        found = False
        for _, path in self._moves(state):
            found = True
            yield self._move_action(player, path)
        if not found:
            yield {"type": "pass", "player": player}

    def random_action(self, state: State, rng: random.Random) -> Action:
        """A random movable die, then one of its legal paths at random.

        Cheaper than listing every move of every die (self-play spends most of its time
        here); every die that can move is equally likely, not every move.
        """
        if state["phase"] != "play":
            return super().random_action(state, rng)
        player = state["to_move"]
        occupied = self._occupied(state)
        mine = [die for die in state["dice"] if die["owner"] == player]
        rng.shuffle(mine)
        for die in mine:
            paths = [path for path, _ in self._die_paths(state, die, occupied)]
            if paths:
                return self._move_action(player, rng.choice(paths))
        return {"type": "pass", "player": player}

    def destinations(
        self, state: State, square: Sequence[int] | str, any_owner: bool = False
    ) -> list[dict[str, Any]]:
        """Where the die on ``square`` ([column, row] or a name like "e4") may go, one entry
        per legal path.

        Each entry: ``to`` (square), ``path`` (squares, start first), ``top`` and ``front``
        (the faces it will show there; ``None`` for a key), ``captures`` (the id of the enemy
        die taken or ``None``), ``wins`` (the move ends the game) and ``action`` (the move to
        send). Empty for an empty square, and, unless ``any_owner`` (to preview threats),
        for a die whose owner is not the player to move or when the game is not in play.
        """
        if isinstance(square, str):
            try:
                where = parse_square(square)
            except ValueError as exc:
                raise ActionFormatError("square", str(exc)) from None
        else:
            where = _square(square, "square")
        index = self._die_at(state, where)
        if index is None or state["phase"] != "play":
            return []
        die = state["dice"][index]
        if die["owner"] != state["to_move"] and not any_owner:
            return []
        occupied = self._occupied(state)
        enemy_key = key_square(1 - die["owner"])
        result = []
        for path, directions in self._die_paths(state, die, occupied):
            end = path[-1]
            target = self._die_at(state, end) if end in occupied else None
            victim = state["dice"][target] if target is not None else None
            if die["key"]:
                top, front = None, None
            else:
                top, front = tumble_along(die["top"], die["front"], directions, self.handedness)
            result.append(
                {
                    "to": list(end),
                    "path": [list(s) for s in path],
                    "top": top,
                    "front": front,
                    "captures": victim["id"] if victim else None,
                    "wins": bool((victim and victim["key"]) or (die["key"] and end == enemy_key)),
                    "action": self._move_action(die["owner"], path),
                }
            )
        return result

    # --- applying actions ------------------------------------------------------------
    def _check_move(self, state: State, action: Action) -> tuple[int, Path, tuple[str, ...]]:
        """(die index, path, directions) of a legal move, else a RulesError."""
        player = require(action, "player", int)
        raw = require(action, "path", list)
        if len(raw) < 2:
            raise ActionFormatError("path", "a path lists the start square and at least one more")
        path = tuple(_square(s, f"path[{i}]") for i, s in enumerate(raw))
        self._check_turn(state, player)
        start = path[0]
        index = self._die_at(state, start) if on_board(*start) else None
        if index is None or state["dice"][index]["owner"] != player:
            raise RulesError(
                "own-die",
                f"the path must start on one of your dice; {list(start)} holds none of yours",
            )
        die = state["dice"][index]
        directions = check_path(
            path,
            self._distance(die),
            self._occupied(state),
            player,
            self._directions(die),
            "key-one-square" if die["key"] else "exact-distance",
        )
        return index, path, directions

    def _check_turn(self, state: State, player: int) -> None:
        if state["phase"] == "over":
            raise RulesError("game-over", "the game is over")
        if state["phase"] != "play":
            raise RulesError("first-player", "first enter who starts (action 'first')")
        if player != state["to_move"]:
            who = state["players"][state["to_move"]]
            raise RulesError("turn-order", f"it is {who}'s turn (player {state['to_move']})")

    def is_legal(self, state: State, action: Action) -> bool:
        try:
            kind = action.get("type")
            if kind == "move":
                self._check_move(state, action)
                return True
        except RulesError:
            return False
        return super().is_legal(state, action)

    def apply(self, state: State, action: Action) -> State:
        kind = require(action, "type", str)
        if kind == "move":
            index, path, directions = self._check_move(state, action)
            return self._after_move(state, index, path, directions)
        if kind == "pass":
            player = require(action, "player", int)
            self._check_turn(state, player)
            if self.has_legal_move(state):
                raise RulesError("no-pass", "a player who can move a die must move one")
            return self._after_pass(state)
        if kind == "first":
            starter = require(action, "starter", int)
            if state["phase"] != "choose_first":
                raise RulesError("first-player", "the first player has already been chosen")
            if starter not in (0, 1):
                raise ActionFormatError("starter", "starter is 0 or 1")
            new = self._copy(state)
            new["phase"] = "play"
            new["to_move"] = starter
            return new
        raise ActionFormatError("type", f"Conquest has no action {kind!r} (move, pass, first)")

    @staticmethod
    def _copy(state: State) -> State:
        # The state is shallow apart from its lists of small dicts: copy exactly those.
        new = dict(state)
        new["players"] = list(state["players"])
        new["dice"] = [dict(d, at=list(d["at"])) for d in state["dice"]]
        new["captured"] = [dict(d, at=list(d["at"])) for d in state["captured"]]
        if state["last_move"] is not None:
            last = state["last_move"]
            new["last_move"] = dict(last, path=[list(s) for s in last["path"]])
        if state["result"] is not None:
            new["result"] = dict(state["result"], winners=list(state["result"]["winners"]))
        return new

    def _after_move(
        self, state: State, index: int, path: Path, directions: tuple[str, ...]
    ) -> State:
        new = self._copy(state)
        player = state["to_move"]
        mover = new["dice"][index]
        end = path[-1]
        victim_index = self._die_at(new, end)
        victim = None
        if victim_index is not None:
            victim = new["dice"].pop(victim_index)
            victim.update(by=mover["id"], turn=state["turn_number"])
            new["captured"].append(victim)
        mover["at"] = list(end)
        if not mover["key"]:
            mover["top"], mover["front"] = tumble_along(
                mover["top"], mover["front"], directions, self.handedness
            )
        new["turn_number"] = state["turn_number"] + 1
        new["quiet_moves"] = 0 if victim else state["quiet_moves"] + 1
        new["passes"] = 0
        new["last_move"] = {
            "player": player,
            "die": mover["id"],
            "path": [list(s) for s in path],
            "captured": victim["id"] if victim else None,
        }
        new["to_move"] = 1 - player
        if victim and victim["key"]:
            return self._finish(new, Outcome((player,), "key-captured"))
        if mover["key"] and end == key_square(1 - player):
            return self._finish(new, Outcome((player,), "key-square"))
        return self._after_turn(new, player)

    def _after_pass(self, state: State) -> State:
        new = self._copy(state)
        player = state["to_move"]
        new["turn_number"] = state["turn_number"] + 1
        new["quiet_moves"] = state["quiet_moves"] + 1
        new["passes"] = state["passes"] + 1
        new["last_move"] = {"player": player, "die": None, "path": [], "captured": None}
        new["to_move"] = 1 - player
        if new["passes"] >= 2:
            return self._finish(new, Outcome((), "both-blocked", draw=True))
        return self._after_turn(new, player)

    def _after_turn(self, new: State, mover: int) -> State:
        limit = self.options["quiet_move_limit"]
        if limit is not None and new["quiet_moves"] >= limit:
            return self._finish(new, Outcome((), "quiet-move-limit", draw=True))
        if self.options["no_move"] == "lose" and not self.has_legal_move(new):
            return self._finish(new, Outcome((mover,), "no-legal-move"))
        return new

    @staticmethod
    def _finish(new: State, outcome: Outcome) -> State:
        new["phase"] = "over"
        new["to_move"] = None
        new["result"] = outcome.to_json()
        return new

    def outcome(self, state: State) -> Outcome | None:
        result = state.get("result")
        return Outcome.from_json(result) if result else None

    # --- checks and text -------------------------------------------------------------
    def check_invariants(self, state: State) -> list[str]:
        return state_problems(state, self.options["quiet_move_limit"])

    def _result_text(self, state: State) -> str:
        return result_text(state["players"], state["result"])

    def die_faces(self, die: Mapping[str, Any]) -> dict[str, int] | None:
        """All six faces of an ordinary die of a state by side (None for a key)."""
        return None if die["key"] else faces(die["top"], die["front"], self.handedness)

    def describe_action(self, state: State, action: Action) -> str:
        kind = action.get("type")
        names = state["players"]
        if kind == "first":
            return f"{names[action['starter']]} moves first"
        if kind == "pass":
            return f"{names[action['player']]} cannot move and passes"
        if kind != "move":
            return super().describe_action(state, action)
        index, path, directions = self._check_move(state, action)
        die = state["dice"][index]
        top = None
        if not die["key"]:
            top, _ = tumble_along(die["top"], die["front"], directions, self.handedness)
        target = self._die_at(state, path[-1])
        victim = state["dice"][target] if target is not None else None
        return move_text(names, die, path, directions, top, victim)
