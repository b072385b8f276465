"""The event log: every game and every action in SQLite, so that no game is ever lost.

An action is committed (WAL, synchronous=FULL, one transaction per action) *before* the
table shows it as applied, so killing the process at any instant resumes the exact game:
the state is always ``replay(new_state, actions)``. Undo and corrections never rewrite
history silently: an undone action stays in the log, marked with the sequence number of the
undo that removed it.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    board TEXT,
    players TEXT NOT NULL,
    options TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    outcome TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    source TEXT NOT NULL,
    created REAL NOT NULL,
    undone_by INTEGER,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS detections (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id TEXT,
    seq INTEGER,
    created REAL NOT NULL,
    info TEXT NOT NULL,
    crop BLOB
);
CREATE TABLE IF NOT EXISTS settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


@dataclass(frozen=True)
class GameRecord:
    id: str
    game: str
    board: str | None
    players: list[str]
    options: dict[str, Any]
    created: float
    updated: float
    finished: bool
    outcome: dict[str, Any] | None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game,
            "board": self.board,
            "players": self.players,
            "options": self.options,
            "created": self.created,
            "updated": self.updated,
            "finished": self.finished,
            "outcome": self.outcome,
        }


@dataclass(frozen=True)
class LoggedAction:
    seq: int
    action: dict[str, Any]
    source: str
    created: float
    undone_by: int | None


class Store:
    """A thread-safe handle on the SQLite event log."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    # --- games ----------------------------------------------------------------------
    def create_game(
        self, game: str, board: str | None, players: list[str], options: dict[str, Any]
    ) -> str:
        game_id = time.strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]
        now = time.time()
        with self._transaction() as db:
            db.execute(
                "INSERT INTO games (id, game, board, players, options, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, game, board, json.dumps(players), json.dumps(options), now, now),
            )
        return game_id

    def game(self, game_id: str) -> GameRecord:
        with self._lock:
            row = self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise KeyError(f"no game {game_id!r} in {self.path}")
        return _record(row)

    def games(self) -> list[GameRecord]:
        with self._lock:
            rows = self._db.execute("SELECT * FROM games ORDER BY created DESC").fetchall()
        return [_record(r) for r in rows]

    def set_finished(self, game_id: str, outcome: dict[str, Any] | None) -> None:
        with self._transaction() as db:
            db.execute(
                "UPDATE games SET finished = ?, outcome = ?, updated = ? WHERE id = ?",
                (
                    1 if outcome else 0,
                    json.dumps(outcome) if outcome else None,
                    time.time(),
                    game_id,
                ),
            )

    # --- actions --------------------------------------------------------------------
    def append(self, game_id: str, action: dict[str, Any], source: str) -> int:
        """Commit one action; returns its sequence number."""
        with self._transaction() as db:
            (last,) = db.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = ?", (game_id,)
            ).fetchone()
            seq = last + 1
            now = time.time()
            db.execute(
                "INSERT INTO actions (game_id, seq, action, source, created) VALUES (?, ?, ?, ?, ?)",
                (game_id, seq, json.dumps(action, sort_keys=True), source, now),
            )
            db.execute("UPDATE games SET updated = ? WHERE id = ?", (now, game_id))
        return seq

    def mark_undone(self, game_id: str, seqs: list[int], by: int) -> None:
        with self._transaction() as db:
            db.executemany(
                "UPDATE actions SET undone_by = ? WHERE game_id = ? AND seq = ?",
                [(by, game_id, s) for s in seqs],
            )

    def replace_log(
        self, game_id: str, undo: list[int], new_actions: list[tuple[dict[str, Any], str]]
    ) -> list[int]:
        """Atomically mark ``undo`` as undone and append ``new_actions`` (a correction)."""
        with self._transaction() as db:
            (last,) = db.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = ?", (game_id,)
            ).fetchone()
            marker = last + 1
            now = time.time()
            db.execute(
                "INSERT INTO actions (game_id, seq, action, source, created, undone_by) VALUES (?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    marker,
                    json.dumps({"type": "_correction", "undo": undo}),
                    "system",
                    now,
                    marker,
                ),
            )
            db.executemany(
                "UPDATE actions SET undone_by = ? WHERE game_id = ? AND seq = ?",
                [(marker, game_id, s) for s in undo],
            )
            seqs = []
            for offset, (action, source) in enumerate(new_actions, start=1):
                db.execute(
                    "INSERT INTO actions (game_id, seq, action, source, created) VALUES (?, ?, ?, ?, ?)",
                    (game_id, marker + offset, json.dumps(action, sort_keys=True), source, now),
                )
                seqs.append(marker + offset)
            db.execute("UPDATE games SET updated = ? WHERE id = ?", (now, game_id))
        return seqs

    def actions(self, game_id: str, include_undone: bool = False) -> list[LoggedAction]:
        query = "SELECT seq, action, source, created, undone_by FROM actions WHERE game_id = ?"
        if not include_undone:
            query += " AND undone_by IS NULL"
        with self._lock:
            rows = self._db.execute(query + " ORDER BY seq", (game_id,)).fetchall()
        return [LoggedAction(r[0], json.loads(r[1]), r[2], r[3], r[4]) for r in rows]

    # --- detections -----------------------------------------------------------------
    def add_detection(
        self, game_id: str | None, info: dict[str, Any], crop_png: bytes | None
    ) -> int:
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO detections (game_id, created, info, crop) VALUES (?, ?, ?, ?)",
                (game_id, time.time(), json.dumps(info), crop_png),
            )
        return int(cursor.lastrowid)

    def link_detection(self, detection_id: int, seq: int) -> None:
        with self._transaction() as db:
            db.execute("UPDATE detections SET seq = ? WHERE id = ?", (seq, detection_id))

    def detection(self, detection_id: int) -> tuple[dict[str, Any], bytes | None]:
        with self._lock:
            row = self._db.execute(
                "SELECT info, crop FROM detections WHERE id = ?", (detection_id,)
            ).fetchone()
        if row is None:
            raise KeyError(f"no detection {detection_id}")
        return json.loads(row[0]), row[1]

    # --- settings -------------------------------------------------------------------
    def setting(self, key: str, default: str | None = None) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return default if row is None else row[0]

    def set_setting(self, key: str, value: str) -> None:
        with self._transaction() as db:
            db.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, value))

    def export_game(self, game_id: str) -> dict[str, Any]:
        """The whole game as JSON: its record and every action, undone ones included."""
        return {
            "format": "oche-game",
            "version": 1,
            **self.game(game_id).to_json(),
            "actions": [
                {
                    "seq": a.seq,
                    "action": a.action,
                    "source": a.source,
                    "created": a.created,
                    "undone_by": a.undone_by,
                }
                for a in self.actions(game_id, include_undone=True)
            ],
        }


def _record(row: tuple) -> GameRecord:
    return GameRecord(
        id=row[0],
        game=row[1],
        board=row[2],
        players=json.loads(row[3]),
        options=json.loads(row[4]),
        created=row[5],
        updated=row[6],
        finished=bool(row[7]),
        outcome=json.loads(row[8]) if row[8] else None,
    )
