"""Random legal play to the end, checking every engine's invariants on the way.

Used by ``oche rules selfplay`` and by the property tests: after each action the state must
survive a JSON round trip, the prompt must have a legal answer, and ``check_invariants``
must find nothing wrong.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from rules.base import Game, RulesError, State

#: A game that has not ended after this many actions counts as unfinished (a violation).
DEFAULT_MAX_ACTIONS = 20_000


@dataclass
class SelfplayReport:
    game: str
    games: int = 0
    finished: int = 0
    actions: int = 0
    turns: int = 0
    seconds: float = 0.0
    violations: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {
            "game": self.game,
            "games": self.games,
            "finished": self.finished,
            "actions": self.actions,
            "average_actions": self.actions / self.games if self.games else 0.0,
            "average_turns": self.turns / self.games if self.games else 0.0,
            "violations": len(self.violations),
            "violation_examples": self.violations[:10],
            "seconds": round(self.seconds, 3),
        }


def check_state(game: Game, state: State) -> list[str]:
    """Invariants every engine must keep, plus the engine's own."""
    problems = list(game.check_invariants(state))
    if json.loads(json.dumps(state)) != state:
        problems.append("state does not survive a JSON round trip")
    if game.outcome(state) is None and next(iter(game.legal_actions(state)), None) is None:
        problems.append(f"prompt {game.prompt(state).kind!r} has no legal answer")
    return problems


def play_one(
    game: Game,
    players: list[str],
    rng: random.Random,
    max_actions: int = DEFAULT_MAX_ACTIONS,
    on_state: Callable[[State], None] | None = None,
) -> tuple[State, int, list[str]]:
    """Play one random game; returns (final state, actions, violations)."""
    state = game.new_state(players)
    violations = check_state(game, state)
    actions = 0
    while game.outcome(state) is None and actions < max_actions and not violations:
        action = game.random_action(state, rng)
        before = json.dumps(state, sort_keys=True)
        try:
            new_state = game.apply(state, action)
        except RulesError as exc:
            violations.append(f"random legal action {action} was refused: {exc}")
            break
        if json.dumps(state, sort_keys=True) != before:
            violations.append(f"apply mutated its input state on {action}")
        state = new_state
        actions += 1
        violations.extend(check_state(game, state))
        if on_state is not None:
            on_state(state)
    if game.outcome(state) is None and not violations:
        violations.append(f"game not finished after {actions} actions")
    return state, actions, violations


def selfplay(
    name: str,
    games: int,
    seed: int,
    make_game: Callable[[random.Random], tuple[Game, list[str]]],
    progress: Callable[[int, int], None] | None = None,
) -> SelfplayReport:
    """Play ``games`` random games; ``make_game`` picks the game setup for each one."""
    report = SelfplayReport(game=name)
    start = time.perf_counter()
    for index in range(games):
        rng = random.Random(f"{seed}:{index}")
        game, players = make_game(rng)
        state, actions, violations = play_one(game, players, rng)
        report.games += 1
        report.actions += actions
        report.turns += int(state.get("turn_number", 0))
        if game.outcome(state) is not None and not violations:
            report.finished += 1
        report.violations.extend(f"game {index}: {v}" for v in violations)
        if progress is not None:
            progress(index + 1, games)
    report.seconds = time.perf_counter() - start
    return report
