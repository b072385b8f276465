"""``DawgsOfWar``: the rules engine (state API, actions, prompts, views, invariants).

Actions (every one names the acting ``player``; for ``roll`` it may be left out):

- ``{"type": "choose_side", "player": i, "side": "left"|"right"}`` -- team games, setup
- ``{"type": "roll", "player": i, "value": 1..6}`` -- any die the prompt asks for
- ``{"type": "draw_special", "player": i, "index": k}`` (or ``"card": id`` for a real card)
- ``{"type": "choose_cards", "player": i, "cards": ["2", "clockwise"]}`` -- secret choice;
  the special card is named ``"special"`` so that no prompt tells which one a player holds
- ``{"type": "fire", "player": i, "target": j}`` / ``{"type": "hold_fire", "player": i}``
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

from rules.base import Action, ActionFormatError, Game, Outcome, Prompt, RulesError, State, require
from rules.dawgs import cards, combat, data, flow, invariants, movement, setup, views
from rules.dawgs.config import Config, build_config
from rules.dawgs.planes import targets_in_cone

ROLL_TASKS = {
    "side_roll": "roll for your starting side (even: right, odd: left)",
    "altitude_roll": "roll for your starting altitude",
    "respawn_roll": "roll for your altitude re-entering the map",
    "fire_roll": "roll to hit",
    "breakup_roll": "roll for breakup",
}
ACTION_TYPES = ("choose_side", "roll", "draw_special", "choose_cards", "fire", "hold_fire")


def _copy(state: State) -> State:
    # A JSON round trip is a deep copy several times faster than copy.deepcopy here.
    return json.loads(json.dumps(state))


class DawgsOfWar(Game):
    name: ClassVar[str] = "dawgs"
    title: ClassVar[str] = "Dawgs of War"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    default_options: ClassVar[Mapping[str, Any]] = data.DEFAULT_OPTIONS

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        # Own copies, so that nobody can change the shared defaults through ``options``.
        self.options = copy.deepcopy(self.options)
        self.config: Config = build_config(self.options)

    # --- setup ---------------------------------------------------------------------
    def new_state(self, players: Sequence[str]) -> State:
        if not self.min_players <= len(players) <= self.max_players:
            raise RulesError("players", f"{self.title} needs 2 to 8 players, got {len(players)}")
        state = setup.new_game_state(list(players), self.config)
        flow.advance(state, self.config)
        return state

    @classmethod
    def random_setup(cls, rng: random.Random) -> tuple[Game, list[str]]:
        count = rng.randint(cls.min_players, cls.max_players)
        options: dict[str, Any] = {name: rng.random() < 0.3 for name in data.OPTIONAL_RULES}
        if count >= 3 and rng.random() < 0.5:
            team_count = rng.randint(2, min(4, count))
            labels = [seat % team_count for seat in range(count)]
            rng.shuffle(labels)
            options["teams"] = labels
        if rng.random() < 0.2:
            options["special_cards"] = {}
        if rng.random() < 0.1:
            options["round_limit"] = rng.randint(1, 12)
        if rng.random() < 0.2:
            options["map_columns"] = rng.randint(8, 30)
            options["map_rows"] = rng.randint(8, 20)
        return cls(options), [f"P{i + 1}" for i in range(count)]

    # --- what the game waits for -----------------------------------------------------
    def prompt(self, state: State) -> Prompt:
        names = state["players"]
        if state["phase"] == "over":
            return Prompt(None, "game_over", "The game is over.", data=dict(state["outcome"]))
        if state["queue"]:
            task = state["queue"][0]
            player = task["player"]
            options = tuple(self._task_actions(state, task))
            kind = task["task"]
            if kind in ROLL_TASKS:
                text = f"{names[player]}: {ROLL_TASKS[kind]}."
                info = self._roll_data(state, task)
                return Prompt(player, "roll", text, options, ("roll",), info)
            if kind == "choose_side":
                text = f"{names[player]}: choose the side your team starts on."
                return Prompt(player, kind, text, options, ("choose_side",))
            if kind == "draw_special":
                text = f"{names[player]}: draw a special ability card."
                data_ = {"deck_size": len(state["deck"])}
                return Prompt(player, kind, text, options, ("draw_special",), data_)
            text = f"{names[player]}: fire at one enemy plane in your cone, or hold fire."
            return Prompt(player, "choose_target", text, options, ("fire", "hold_fire"))
        # Every pilot still choosing may answer, each on his own phone, so the prompt names
        # no single player and offers no buttons (a shared tablet must not show anyone's
        # cards); each phone takes its buttons from view(state, seat)["display"].
        waiting = flow.undecided(state)
        who = ", ".join(names[i] for i in waiting)
        return Prompt(
            None,
            "choose_cards",
            f"Waiting for {who} to choose two control cards in secret.",
            (),
            ("choose_cards",),
            {"waiting_for": waiting, "round": state["round"]},
        )

    def _roll_data(self, state: State, task: dict[str, Any]) -> dict[str, Any]:
        info: dict[str, Any] = {"purpose": task["task"]}
        planes = state["planes"]
        if task["task"] == "fire_roll":
            shooter, target = task["player"], task["target"]
            info.update(
                target=target,
                needed=self.config.vuln(planes[target]["speed"]),
                bonus=combat.fire_bonus(state, shooter, target, self.config),
            )
        elif task["task"] == "breakup_roll":
            bonus, needed = combat.breakup_target(planes[task["player"]], self.config)
            info.update(bonus=bonus, needed=needed)
        return info

    def card_choices(self, state: State, player: int) -> Iterator[Action]:
        """Every card pair ``player`` may choose now (the buttons of a private hand)."""
        return cards.card_choices(state, player)

    def hand(self, state: State, player: int) -> list[str]:
        """The control cards in ``player``'s hand, special by its real id (private)."""
        return cards.hand(state, player)

    def _task_actions(self, state: State, task: dict[str, Any]) -> Iterator[Action]:
        player, kind = task["player"], task["task"]
        if kind in ROLL_TASKS:
            for value in range(1, 7):
                yield {"type": "roll", "player": player, "value": value}
        elif kind == "choose_side":
            for side in setup.SIDES:
                if setup.side_fits(state, task["team"], side):
                    yield {"type": "choose_side", "player": player, "side": side}
        elif kind == "draw_special":
            for index in range(len(state["deck"])):
                yield {"type": "draw_special", "player": player, "index": index}
        elif kind == "choose_target":
            for target in targets_in_cone(state, player, self.config):
                yield {"type": "fire", "player": player, "target": target}
            yield {"type": "hold_fire", "player": player}

    def legal_actions(self, state: State) -> Iterator[Action]:
        if state["phase"] == "over":
            return
        if state["queue"]:
            yield from self._task_actions(state, state["queue"][0])
            return
        for player in flow.undecided(state):
            yield from self.card_choices(state, player)

    def random_action(self, state: State, rng: random.Random) -> Action:
        if state["phase"] == "place" and not state["queue"]:
            player = rng.choice(flow.undecided(state))
            return rng.choice(list(self.card_choices(state, player)))
        return super().random_action(state, rng)

    def outcome(self, state: State) -> Outcome | None:
        result = state.get("outcome")
        return Outcome.from_json(result) if result else None

    # --- applying actions ------------------------------------------------------------
    def apply(self, state: State, action: Action) -> State:
        if not isinstance(action, Mapping):
            raise ActionFormatError("type", "an action is a JSON object with a string type")
        kind = require(action, "type", str)
        if kind not in ACTION_TYPES:
            raise ActionFormatError("type", f"unknown action {kind!r}; one of {ACTION_TYPES}")
        if state["phase"] == "over":
            raise RulesError("game-over", "the game is over; no more actions")
        new = _copy(state)
        if kind == "choose_cards":
            self._choose_cards(new, action)
        else:
            self._answer_task(new, action, kind)
        flow.advance(new, self.config)
        return new

    def _player(self, state: State, action: Mapping[str, Any], optional: bool = False) -> int:
        if optional and "player" not in action:
            return state["queue"][0]["player"]
        player = require(action, "player", int)
        if not 0 <= player < len(state["players"]):
            raise ActionFormatError("player", f"player must be 0 to {len(state['players']) - 1}")
        return player

    def _choose_cards(self, state: State, action: Mapping[str, Any]) -> None:
        player = self._player(state, action)
        if state["phase"] != "place" or state["queue"]:
            raise RulesError("phase", "cards are chosen only in the Place Cards phase")
        plane = state["planes"][player]
        if plane["status"] != "flying":
            raise RulesError("place-cards", "only a pilot whose plane is on the map chooses cards")
        if plane["chosen"] is not None:
            raise RulesError("place-cards", "you have already chosen your cards this round")
        plane["chosen"] = cards.check_choice(plane, require(action, "cards", list))

    def _answer_task(self, state: State, action: Mapping[str, Any], kind: str) -> None:
        if not state["queue"]:
            raise RulesError("phase", f"the game waits for card choices, not {kind}")
        task = state["queue"][0]
        player = self._player(state, action, optional=kind == "roll")
        if player != task["player"]:
            who = state["players"][task["player"]]
            raise RulesError("turn", f"it is {who}'s turn to act ({task['task']})")
        expected = {
            "choose_side": ("choose_side",),
            "draw_special": ("draw_special",),
            "choose_target": ("fire", "hold_fire"),
        }.get(task["task"], ("roll",))
        if kind not in expected:
            raise RulesError("phase", f"the game waits for {task['task']}, not {kind}")
        if kind == "roll":
            self._roll(state, task, action)
        elif kind == "choose_side":
            side = require(action, "side", str)
            if side not in setup.SIDES:
                raise ActionFormatError("side", 'side must be "left" or "right"')
            if not setup.side_fits(state, task["team"], side):
                raise RulesError("setup-side", f"the {side} side has no room for your team")
            setup.choose_side(state, task["team"], side)
            state["queue"].pop(0)
        elif kind == "draw_special":
            setup.draw(state, player, self._draw_index(state, action))
            state["queue"].pop(0)
        elif kind == "fire":
            target = require(action, "target", int)
            if target not in targets_in_cone(state, player, self.config):
                raise RulesError("fire-target", "that plane is not an enemy in your cone of fire")
            state["queue"][0] = {"task": "fire_roll", "player": player, "target": target}
        else:
            state["events"].append(f"{state['players'][player]} holds fire")
            state["queue"].pop(0)

    def _draw_index(self, state: State, action: Mapping[str, Any]) -> int:
        deck = state["deck"]
        if "card" in action:
            card = require(action, "card", str)
            if card not in deck:
                raise RulesError("draw", f"no {card!r} card is left in the special deck")
            return deck.index(card)
        index = require(action, "index", int)
        if not 0 <= index < len(deck):
            raise ActionFormatError("index", f"index must be 0 to {len(deck) - 1}")
        return index

    def _roll(self, state: State, task: dict[str, Any], action: Mapping[str, Any]) -> None:
        value = require(action, "value", int)
        if not 1 <= value <= 6:
            raise ActionFormatError("value", "a die roll is 1 to 6")
        player, kind, config = task["player"], task["task"], self.config
        if kind == "side_roll":
            setup.side_from_roll(state, player, value)
        elif kind == "altitude_roll":
            if not setup.place_from_roll(state, player, value, config):
                return  # the spot is taken: the same task asks for a reroll
        elif kind == "respawn_roll":
            movement.respawn(state, player, value, config)
        elif kind == "fire_roll":
            combat.resolve_fire(state, player, task["target"], value, config)
        elif kind == "breakup_roll":
            combat.resolve_breakup(state, player, value, config)
            if state["planes"][player]["status"] == "eliminated":
                return  # eliminate() already dropped this player's tasks
        state["queue"].pop(0)

    # --- views, logs and checks -------------------------------------------------------
    def view(self, state: State, viewer: int | None) -> State:
        """What ``viewer`` may see (``None``: spectator), plus geometry for drawing."""
        return views.player_view(state, viewer, self.config)

    def action_view(self, action: Action, viewer: int | None) -> Action:
        """A logged action as ``viewer`` may see it: another pilot's card choice and the
        card he drew are left out (the state shows them once they are public)."""
        return views.action_view(action, viewer)

    def describe_action(self, state: State, action: Action) -> str:
        return views.describe(state, action) or super().describe_action(state, action)

    def check_invariants(self, state: State) -> list[str]:
        return invariants.check(state, self.config)
