"""The Dart Wars rules engine: metadata, options, dispatch, prompts and legal actions.

See ``rules/dartwars/state.py`` for the state layout and ``docs/rules/dart-wars.md`` for the
rule-by-rule map to this code and its tests. Actions (beyond the shared darts of
``rules/darts.py``: ``dart``, ``miss``, ``bounceout``, ``choose_zone``)::

    {"type": "bounce_cause", "player": p, "cause": "magnet"|"dart"|"other"}
    {"type": "stop", "player": p}                      no more darts this turn
    {"type": "dart_fell", "player": p, "dart": i}      recorded hit i fell off: it does not count
    {"type": "move", "player": p, "from": zone, "to": zone, "attack": bool (enemy zones only)}
    {"type": "end_moves", "player": p}
    {"type": "next_attack", "player": p, "attack": i}  index in the turn's pending attacks
    {"type": "choose_target", "player": p, "camp": head of the camp to fight}
    {"type": "choose_defender", "player": master, "defender": colour that defends}
    {"type": "first_thrower", "player": p, "thrower": attacker or defender}
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
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
from rules.dartwars import autoplay, combat, start, turn
from rules.dartwars.flow import start_turn
from rules.dartwars.mapinfo import MapInfo, map_info
from rules.dartwars.state import (
    allied,
    fast_copy,
    free_players,
    initial_state,
    name,
)
from rules.dartwars.throws import answer_pending

THROW_ACCEPTS = ("dart", "miss", "bounceout")
BOUNCES = ("magnet", "dart", "other")
PER_COLOUR = 15


class DartWars(Game):
    """Dart Wars for 2-5 players on a board with territories, water squares and a target."""

    name: ClassVar[str] = "dartwars"
    title: ClassVar[str] = "Dart Wars"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    default_options: ClassVar[Mapping[str, Any]] = {
        # The rulebook's "(or island)" is unclear; a review says islands cannot be homelands.
        "islands_as_homelands": False,
        "darts_per_turn": 3,
        "start_magnets": 3,
        "homeland_limit": 4,
        # Failed homeland throws before the next player in seating order throws instead.
        "stand_in_after": 4,
        # Magnets taken off the map go back to their colour's box (True) or leave the game.
        "lost_magnets_return": True,
        # A conquered player with no magnet left gets one back on his lost homeland.
        "pardon": True,
        # The lone player whose troops are all at home surrenders (see homelands.py).
        "surrender_rule": True,
    }

    def __init__(self, board: Board | None = None, options: Mapping[str, Any] | None = None):
        super().__init__(options)
        self._check_options()
        self.board = board if board is not None else boards.load("dartwars")
        self.info: MapInfo = map_info(self.board)
        if self.info.target_center is None:
            raise RulesError("board-target", f"board {self.board.id!r} has no combat target")
        if len(self.info.eligible_homelands(self.options["islands_as_homelands"])) < 5:
            raise RulesError("board-homelands", f"board {self.board.id!r} has too few homelands")
        self._combat_darts = autoplay.target_darts(self.info)

    def _check_options(self) -> None:
        for key in ("islands_as_homelands", "lost_magnets_return", "pardon", "surrender_rule"):
            if not isinstance(self.options[key], bool):
                raise RulesError("options", f"option {key} must be true or false")
        limits = {"darts_per_turn": 1, "start_magnets": 1, "homeland_limit": 1, "stand_in_after": 1}
        for key, low in limits.items():
            value = self.options[key]
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise RulesError("options", f"option {key} must be a whole number >= {low}")
        if self.options["start_magnets"] > self.options["homeland_limit"]:
            raise RulesError("options", "start_magnets cannot exceed homeland_limit")

    @classmethod
    def random_setup(cls, rng: random.Random) -> tuple[Game, list[str]]:
        count = rng.randint(cls.min_players, cls.max_players)
        options = {
            "islands_as_homelands": rng.random() < 0.2,
            "lost_magnets_return": rng.random() < 0.8,
            "surrender_rule": rng.random() < 0.8,
            "pardon": rng.random() < 0.9,
        }
        return cls(options=options), [f"P{i + 1}" for i in range(count)]

    # --- state ---------------------------------------------------------------------------
    def new_state(self, players: Sequence[str]) -> State:
        if not self.min_players <= len(players) <= self.max_players:
            raise RulesError("players", "Dart Wars is played by 2 to 5 players")
        return initial_state(self.board.id, [str(p) for p in players], PER_COLOUR)

    def whose_move(self, state: State) -> int | None:
        """The player who must act now (cheap; the prompt says the same with more words)."""
        if state["pending"] is not None:
            return state["pending"]["player"]
        phase = state["phase"]
        if phase == "order":
            return start.order_thrower(state)
        if phase == "homeland":
            return start.homeland_thrower(state, self.options)
        if phase == "play":
            if state["turn"]["stage"] == "combat":
                return combat.step(state)[1]
            return state["turn"]["player"]
        return None

    def apply(self, state: State, action: Action) -> State:
        if not isinstance(action, Mapping):
            raise ActionFormatError("type", "an action is a JSON object with a string type")
        kind = require(action, "type", str)
        if state.get("board") != self.board.id:
            raise RulesError(
                "board",
                f"this state was made on board {state.get('board')!r}, "
                f"this engine plays on {self.board.id!r}",
            )
        if state["phase"] == "over":
            raise RulesError("game-over", "the game is over: no more actions")
        player = require(action, "player", int)
        if not 0 <= player < len(state["players"]):
            raise ActionFormatError("player", f"no player {player} in this game")
        expected = self.whose_move(state)
        if player != expected:
            raise RulesError(
                "not-your-turn",
                f"the game waits for {name(state, expected)}, not {name(state, player)}",
            )
        new = fast_copy(state)
        new["events"] = []
        if new["pending"] is not None:
            action = answer_pending(new, dict(action))
        elif kind in ("choose_zone", "bounce_cause"):
            raise RulesError("no-question", f'nobody asked for "{kind}" now')
        self._dispatch(new, action)
        return new

    def _dispatch(self, state: State, action: Action) -> None:
        phase = state["phase"]
        kind = action["type"]
        if phase == "order":
            start.apply_order_throw(self.board, self.info, state, action)
        elif phase == "homeland":
            if start.apply_homeland_throw(self.board, self.info, state, action, self.options):
                state["phase"] = "play"
                start_turn(state, state["play_order"][0], self.options)
        else:
            stage = state["turn"]["stage"]
            if stage == "darts":
                turn.apply_dart(self.board, self.info, state, action, self.options)
            elif stage == "moves":
                if kind == "move":
                    turn.apply_move(self.info, state, action, self.options)
                elif kind == "end_moves":
                    turn.apply_end_moves(self.info, state, self.options)
                elif kind == "dart_fell":
                    turn.remove_fallen(state, action)
                    turn.settle_moves(self.info, state, self.options)
                else:
                    raise RulesError(
                        "moves-stage", f'the darts are over: "move" or "end_moves", not "{kind}"'
                    )
            else:
                combat.apply_combat_action(self.board, self.info, state, action, self.options)

    def outcome(self, state: State) -> Outcome | None:
        result = state.get("result")
        return None if result is None else Outcome.from_json(result)

    # --- prompts and legal actions -----------------------------------------------------
    def prompt(self, state: State) -> Prompt:
        if state["phase"] == "over":
            winner = state["result"]["winners"][0]
            return Prompt(
                None, "over", f"{name(state, winner)} wins: nobody else still holds a homeland"
            )
        pending = state["pending"]
        if pending is not None:
            who = name(state, pending["player"])
            if pending["kind"] == "choose_zone":
                return Prompt(
                    pending["player"],
                    "choose_zone",
                    f"{who}: the dart sits on a line; which zone do you take?",
                    tuple(self._answers(state)),
                    ("choose_zone",),
                    {"candidates": list(pending["candidates"])},
                )
            return Prompt(
                pending["player"],
                "bounce_cause",
                f"{who}: the dart fell off; did it hit a troop magnet, another dart, or neither?",
                tuple(self._answers(state)),
                ("bounce_cause",),
            )
        phase = state["phase"]
        if phase == "order":
            p = start.order_thrower(state)
            return Prompt(
                p,
                "throw_for_order",
                f"{name(state, p)}: one dart at the target to decide who starts (nearest the bull)",
                self._throw_buttons(p),
                THROW_ACCEPTS,
                {"contenders": list(state["order"]["contenders"])},
            )
        if phase == "homeland":
            owner = state["homeland_turn"]
            p = start.homeland_thrower(state, self.options)
            stead = "" if p == owner else f" in the stead of {name(state, owner)}"
            return Prompt(
                p,
                "throw_homeland",
                f"{name(state, p)}: throw a dart at the map to win a homeland{stead}",
                self._throw_buttons(p),
                THROW_ACCEPTS,
                {
                    "for_player": owner,
                    "failures": state["failures"][owner],
                    "free_homelands": start.free_homelands(self.info, state, self.options),
                },
            )
        t = state["turn"]
        p = t["player"]
        if t["stage"] == "darts":
            left = self.options["darts_per_turn"] - t["thrown"]
            return Prompt(
                p,
                "dart",
                f"{name(state, p)}: throw a dart at the map ({left} left) or stop",
                (*self._throw_buttons(p), {"type": "stop", "player": p}),
                (*THROW_ACCEPTS, "stop", "dart_fell"),
                {"darts_left": left, "hits": list(t["hits"])},
            )
        if t["stage"] == "moves":
            options = tuple(self._move_options(state))
            owed = turn.owed_attacks(self.info, state, self.options)
            text = f"{name(state, p)}: move magnets into the zones you hit"
            if owed:
                text += f"; you must attack {', '.join(self._zone_name(z) for z in owed)}"
            return Prompt(
                p,
                "move",
                text,
                options,
                ("move", "end_moves", "dart_fell"),
                {"hits": turn.unused_hits(t), "owed_attacks": owed},
            )
        kind, who = combat.step(state)
        c = t["combat"]
        texts = {
            "order_attacks": f"{name(state, p)}: which attack is fought next?",
            "choose_target": f"{name(state, p)}: which camp do you attack in {c and self._zone_name(c['zone'])}?",
            "choose_defender": f"{name(state, who)}: which of your camp defends {c and self._zone_name(c['zone'])}?",
            "who_throws_first": f"{name(state, p)}: who throws first at the target?",
            "combat_throw": f"{name(state, who)}: throw a dart at the target",
        }
        data: dict[str, Any] = {"attacks": [list(a) for a in t["attacks"]]}
        if c is not None:
            data["combat"] = {k: c[k] for k in ("zone", "magnet", "defender", "defender_player")}
            data["combat"]["throws"] = list(c["throws"])
        if kind == "combat_throw":
            return Prompt(who, kind, texts[kind], self._throw_buttons(who), THROW_ACCEPTS, data)
        answers = tuple(self._answers(state))
        return Prompt(who, kind, texts[kind], answers, (answers[0]["type"],), data)

    def _throw_buttons(self, player: int) -> tuple[Action, ...]:
        return (
            {"type": "miss", "player": player},
            *({"type": "bounceout", "player": player, "cause": c} for c in BOUNCES),
        )

    def _move_options(self, state: State) -> Iterator[Action]:
        yield from turn.legal_moves(self.info, state, self.options)
        if not turn.owed_attacks(self.info, state, self.options):
            yield {"type": "end_moves", "player": state["turn"]["player"]}

    def _answers(self, state: State) -> Iterator[Action]:
        """The finite answers to a question (line choice, bounce cause, combat choices)."""
        pending = state["pending"]
        if pending is not None:
            p = pending["player"]
            if pending["kind"] == "choose_zone":
                for zone in pending["candidates"]:
                    yield {"type": "choose_zone", "player": p, "zone": zone}
            else:
                for cause in BOUNCES:
                    yield {"type": "bounce_cause", "player": p, "cause": cause}
            return
        kind, who = combat.step(state)
        t = state["turn"]
        if kind == "order_attacks":
            for index in range(len(t["attacks"])):
                yield {"type": "next_attack", "player": who, "attack": index}
        elif kind == "choose_target":
            for head in combat.camps_to_fight(state):
                yield {"type": "choose_target", "player": who, "camp": head}
        elif kind == "choose_defender":
            for owner in combat.defenders_in_camp(state):
                yield {"type": "choose_defender", "player": who, "defender": owner}
        elif kind == "who_throws_first":
            for thrower in (who, t["combat"]["defender_player"]):
                yield {"type": "first_thrower", "player": who, "thrower": thrower}

    def legal_actions(self, state: State) -> Iterator[Action]:
        if state["phase"] == "over":
            return
        player = self.whose_move(state)
        if state["pending"] is not None:
            yield from self._answers(state)
            return
        if state["phase"] == "order":
            yield from self._target_throws(player)
            return
        if state["phase"] == "homeland":
            yield from self._map_throws(player)
            return
        t = state["turn"]
        if t["stage"] == "darts":
            yield from self._map_throws(player)
            yield {"type": "stop", "player": player}
            for index in range(len(t["hits"])):
                yield {"type": "dart_fell", "player": player, "dart": index}
        elif t["stage"] == "moves":
            yield from self._move_options(state)
            if not any(t["used"]):
                for index in range(len(t["hits"])):
                    yield {"type": "dart_fell", "player": player, "dart": index}
        elif combat.step(state)[0] == "combat_throw":
            yield from self._target_throws(player)
        else:
            yield from self._answers(state)

    def _map_throws(self, player: int) -> Iterator[Action]:
        for zone in self.info.kinds:
            yield dart_in_zone(player, zone)
        yield {"type": "miss", "player": player}
        for cause in (*BOUNCES, None):
            yield {"type": "bounceout", "player": player, "cause": cause}

    def _target_throws(self, player: int) -> Iterator[Action]:
        for dart in self._combat_darts:
            yield {**dart, "player": player}
        yield {"type": "miss", "player": player}
        for cause in (*BOUNCES, None):
            yield {"type": "bounceout", "player": player, "cause": cause}

    def random_action(self, state: State, rng: random.Random) -> Action:
        return autoplay.random_action(self, state, rng)

    # --- checks and display ------------------------------------------------------------
    def check_invariants(self, state: State) -> list[str]:
        problems = []
        count = len(state["players"])
        on_board = [0] * count
        at_home = [0] * count
        homes = state["homelands"]
        territories = self.info.neighbours
        for magnet_id, (owner, zone) in state["magnets"].items():
            on_board[owner] += 1
            if zone == homes[owner]:
                at_home[owner] += 1
            if zone not in territories:
                problems.append(f"magnet {magnet_id} stands on {zone!r}, not a territory")
        limit = self.options["homeland_limit"]
        for p in range(count):
            total = on_board[p] + state["supply"][p] + state["removed"][p]
            if total != PER_COLOUR or state["supply"][p] < 0:
                problems.append(f"colour {p}: {total} magnets instead of {PER_COLOUR}")
            if at_home[p] > limit:
                problems.append(f"{name(state, p)} has {at_home[p]} magnets on his homeland")
            seen, chain = set(), p
            while chain is not None and chain not in seen:
                seen.add(chain)
                chain = state["master"][chain]
            if chain is not None:
                problems.append(f"{name(state, p)} is in a cycle of masters")
        free = free_players(state)
        if state["phase"] == "over":
            winners = state["result"]["winners"]
            if len(winners) != 1 or free != winners:
                problems.append(f"game over with winners {winners} and free players {free}")
        elif not free or (state["phase"] == "play" and len(free) == 1):
            problems.append(f"game goes on with free players {free}")
        if state["phase"] == "play" and state["turn"]["stage"] == "combat":
            c = state["turn"]["combat"]
            if (
                c is not None
                and c["defender"] is not None
                and allied(state, state["turn"]["player"], c["defender_player"])
            ):
                problems.append("a combat between allies")
        return problems

    def describe_action(self, state: State, action: Action) -> str:
        who = name(state, action.get("player"))
        kind = action.get("type")
        if kind == "dart":
            if action.get("on_line") and len(action.get("candidates") or []) > 1:
                return f"{who}'s dart is on the line between {self._names(action['candidates'])}"
            zone = action.get("zone")
            return f"{who} hits {self._zone_name(zone)}" if zone else f"{who} hits no zone"
        if kind == "move":
            verb = "attacks" if action.get("attack") else "moves"
            return f"{who} {verb} from {self._zone_name(action.get('from'))} to {self._zone_name(action.get('to'))}"
        words = {
            "miss": "misses the board",
            "bounceout": "'s dart falls out",
            "stop": "stops throwing",
            "end_moves": "ends the moves",
            "choose_zone": f"takes {self._zone_name(action.get('zone'))}",
        }
        text = words.get(str(kind), str(kind).replace("_", " "))
        return f"{who}{text}" if text.startswith("'") else f"{who} {text}"

    def _zone_name(self, zone_id: Any) -> str:
        zone = self.board.zones.get(zone_id) if isinstance(zone_id, str) else None
        return zone.name if zone is not None else str(zone_id)

    def _names(self, zone_ids: list[str]) -> str:
        return " and ".join(self._zone_name(z) for z in zone_ids)
