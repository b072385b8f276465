"""The table: one game at a time, its engine, its log, and the updates sent to tablets.

Every change goes the same way: the engine computes the new state (an illegal action raises
and changes nothing), the action is committed to the event log, and only then is the new
state shown. Undo and corrections replay the game from its log.
"""

from __future__ import annotations

import inspect
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import boards
from boards.model import Board
from oche.errors import UserError
from oche.hub import Hub
from oche.store import GameRecord, Store
from rules import GAMES, Game, RulesError, State, game_class
from rules.darts import dart_at, dart_in_zone

#: The board each dart game is played on unless the players pick another.
DEFAULT_BOARDS = {"dartwars": "dartwars", "groundround": "groundround"}


def build_engine(game: str, board: Board | None, options: Mapping[str, Any] | None) -> Game:
    """The engine for ``game``; dart games get their board."""
    if game not in GAMES:
        raise UserError(f"unknown game {game!r}: choose one of {', '.join(GAMES)}")
    cls = game_class(game)
    kwargs: dict[str, Any] = {"options": dict(options or {})}
    if "board" in inspect.signature(cls.__init__).parameters:
        kwargs["board"] = board
    return cls(**kwargs)


@dataclass
class LogEntry:
    seq: int
    action: dict[str, Any]
    source: str
    text: str


class GameSession:
    """One game in progress (or finished), kept in step with its event log."""

    def __init__(self, store: Store, record: GameRecord) -> None:
        self.store = store
        self.record = record
        self.board = boards.load(record.board) if record.board else None
        self.engine = build_engine(record.game, self.board, record.options)
        self.lock = threading.RLock()
        self.state: State = {}
        self.entries: list[LogEntry] = []
        self.replay_problem: str | None = None
        self._rebuild()

    @property
    def id(self) -> str:
        return self.record.id

    def _rebuild(self) -> None:
        """Replay the log from the start (resume, undo, correction)."""
        state = self.engine.new_state(self.record.players)
        entries = []
        self.replay_problem = None
        logged_actions = self.store.actions(self.id, include_undone=True)
        # Every change (an action, an undo, a correction) adds to the log, so the highest
        # number logged orders the snapshots a tablet receives, whatever way they come.
        self.version = max((a.seq for a in logged_actions), default=0)
        for logged in logged_actions:
            if logged.undone_by is not None or logged.action.get("type", "").startswith("_"):
                continue
            try:
                text = self.engine.describe_action(state, logged.action)
                state = self.engine.apply(state, logged.action)
            except RulesError as exc:
                # The log holds an action this version of the rules refuses: keep what
                # replays, say so, and never throw the game away.
                self.replay_problem = f"action {logged.seq} no longer replays: {exc}"
                break
            entries.append(LogEntry(logged.seq, logged.action, logged.source, text))
        self.state = state
        self.entries = entries

    def apply(self, action: dict[str, Any], source: str = "tablet") -> State:
        with self.lock:
            text = self.engine.describe_action(self.state, action)
            new_state = self.engine.apply(self.state, action)  # raises before anything is written
            seq = self.store.append(self.id, action, source)
            self.version = seq
            self.state = new_state
            self.entries.append(LogEntry(seq, action, source, text))
            self._record_outcome()
            return new_state

    def undo(self) -> None:
        with self.lock:
            if not self.entries:
                raise UserError("nothing to undo")
            last = self.entries[-1]
            self.store.replace_log(self.id, [last.seq], [])
            self._rebuild()
            self._record_outcome()

    def correct(self, seq: int, replacement: dict[str, Any] | None) -> list[str]:
        """Replace (or delete, with ``None``) logged action ``seq`` and replay what followed.

        Later actions that the corrected game no longer allows are dropped; their
        descriptions are returned so the tablet can say what was undone.
        """
        with self.lock:
            index = next((i for i, e in enumerate(self.entries) if e.seq == seq), None)
            if index is None:
                raise UserError(f"there is no action {seq} in this game")
            state = self.engine.new_state(self.record.players)
            for entry in self.entries[:index]:
                state = self.engine.apply(state, entry.action)
            kept: list[tuple[dict[str, Any], str]] = []
            dropped: list[str] = []
            if replacement is not None:
                state = self.engine.apply(
                    state, replacement
                )  # an illegal correction changes nothing
                kept.append((replacement, "correction"))
            for entry in self.entries[index + 1 :]:
                try:
                    state = self.engine.apply(state, entry.action)
                    kept.append((entry.action, entry.source))
                except RulesError:
                    dropped.append(entry.text)
            self.store.replace_log(self.id, [e.seq for e in self.entries[index:]], kept)
            self._rebuild()
            self._record_outcome()
            return dropped

    def _record_outcome(self) -> None:
        outcome = self.engine.outcome(self.state)
        finished = outcome is not None
        if finished != self.record.finished:
            self.store.set_finished(self.id, outcome.to_json() if outcome else None)
            self.record = self.store.game(self.id)

    # --- what tablets see ---------------------------------------------------------------
    def snapshot(self, viewer: int | None = None) -> dict[str, Any]:
        with self.lock:
            outcome = self.engine.outcome(self.state)
            prompt = self.engine.prompt(self.state)
            return {
                "id": self.id,
                "version": self.version,
                "game": self.record.game,
                "title": self.engine.title,
                "board": self.record.board,
                "players": self.record.players,
                "options": self.engine.options,
                "state": self.engine.view(self.state, viewer),
                "prompt": prompt.to_json(),
                "prompt_options": [
                    {"action": o, "label": self.engine.describe_action(self.state, dict(o))}
                    for o in prompt.options
                ],
                "outcome": outcome.to_json() if outcome else None,
                "log": [
                    {
                        "seq": e.seq,
                        "text": e.text,
                        "source": e.source,
                        "action": self._action_view(e.action, viewer),
                    }
                    for e in self.entries[-200:]
                ],
                "replay_problem": self.replay_problem,
            }

    def _action_view(self, action: dict[str, Any], viewer: int | None) -> dict[str, Any]:
        """A logged action as ``viewer`` may see it (secret card choices stay hidden)."""
        hide = getattr(self.engine, "action_view", None)
        return hide(action, viewer) if hide else action

    def dart_action_at(self, x_mm: float, y_mm: float, sigma_mm: float = 0.0) -> dict[str, Any]:
        """The dart action for the player the game waits for, at a board position."""
        if self.board is None:
            raise UserError(f"{self.engine.title} is not played with darts")
        player = self.engine.prompt(self.state).player
        return dart_at(self.board, player if player is not None else 0, x_mm, y_mm, sigma_mm)

    def dart_action_in(self, zone_id: str) -> dict[str, Any]:
        if self.board is None or zone_id not in self.board.zones:
            raise UserError(f"no zone {zone_id!r} on this board")
        player = self.engine.prompt(self.state).player
        return dart_in_zone(player if player is not None else 0, zone_id)


class Table:
    """What the server holds: the store, the hub, and the game being played."""

    def __init__(self, store: Store, hub: Hub | None = None) -> None:
        self.store = store
        self.hub = hub or Hub()
        self.lock = threading.RLock()
        self.session: GameSession | None = None
        current = store.setting("current_game")
        if current:
            try:
                self.session = GameSession(store, store.game(current))
            except KeyError:
                self.session = None

    def new_game(
        self, game: str, players: list[str], board: str | None = None, options: dict | None = None
    ) -> GameSession:
        cls = game_class(game) if game in GAMES else None
        if cls is None:
            raise UserError(f"unknown game {game!r}: choose one of {', '.join(GAMES)}")
        names = [p.strip() for p in players if p and p.strip()]
        if not cls.min_players <= len(names) <= cls.max_players:
            raise UserError(
                f"{cls.title} needs {cls.min_players} to {cls.max_players} players, not {len(names)}"
            )
        if len(set(names)) != len(names):
            raise UserError("two players have the same name: give each player a different name")
        board_id = board or DEFAULT_BOARDS.get(game)
        board_obj = boards.load(board_id) if board_id else None
        build_engine(game, board_obj, options)  # refuse bad options before anything is stored
        with self.lock:
            game_id = self.store.create_game(
                game, board_obj.id if board_obj else None, names, dict(options or {})
            )
            self.store.set_setting("current_game", game_id)
            self.session = GameSession(self.store, self.store.game(game_id))
            self.publish()
            return self.session

    def resume(self, game_id: str) -> GameSession:
        with self.lock:
            try:
                record = self.store.game(game_id)
            except KeyError:
                raise UserError(f"no game {game_id!r} in the log") from None
            self.store.set_setting("current_game", game_id)
            self.session = GameSession(self.store, record)
            self.publish()
            return self.session

    def require_session(self) -> GameSession:
        if self.session is None:
            raise UserError("no game in progress: start one on the New game page")
        return self.session

    def act(self, action: dict[str, Any], source: str = "tablet") -> GameSession:
        session = self.require_session()
        session.apply(action, source)
        self.publish()
        return session

    def publish(self, extra: dict[str, Any] | None = None) -> None:
        """Send the spectator's view to every tablet (players with secrets fetch their own)."""
        data: dict[str, Any] = {"snapshot": self.session.snapshot() if self.session else None}
        if extra:
            data.update(extra)
        self.hub.publish("state", data)
