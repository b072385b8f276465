"""The event log: games survive anything, including kill -9 at any instant."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from oche.store import Store
from oche.table import GameSession, Table

CHILD = textwrap.dedent(
    """
    import hashlib, json, random, sys
    from oche.store import Store
    from oche.table import Table
    store = Store(sys.argv[1])
    table = Table(store)
    if table.session is None:
        table.new_game("conquest", ["Ann", "Bob"])
    session = table.session
    rng = random.Random(int(sys.argv[2]))
    while session.engine.outcome(session.state) is None:
        action = session.engine.random_action(session.state, rng)
        session.apply(action, "test")
        digest = hashlib.sha256(json.dumps(session.state, sort_keys=True).encode()).hexdigest()
        # Printed only after apply returned: this is "the state shown to the players".
        print(session.entries[-1].seq, digest, flush=True)
    print("done", flush=True)
    """
)


def _digest(state: dict) -> str:
    import hashlib

    return hashlib.sha256(json.dumps(state, sort_keys=True).encode()).hexdigest()


def test_killing_the_process_at_random_moments_never_loses_a_shown_action(tmp_path: Path) -> None:
    db = tmp_path / "oche.sqlite3"
    rng = random.Random(7)
    shown: dict[int, str] = {}
    for round_number in range(6):
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(db), str(round_number)],
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
        # Wait until the game is being played (imports are slow on a busy machine), then
        # kill it at a random moment.
        first = child.stdout.readline() if child.stdout else ""
        time.sleep(rng.uniform(0.05, 0.6))
        child.send_signal(signal.SIGKILL)
        out, _ = child.communicate(timeout=30)
        for line in [first, *out.splitlines()]:
            if line.strip() and line.strip() != "done":
                seq, digest = line.split()
                shown[int(seq)] = digest
        store = Store(db)
        table = Table(store)
        session = table.session
        assert session is not None
        # Everything the players saw is in the log, and the resumed game is exactly the
        # game they saw at that point.
        assert max(shown) <= session.entries[-1].seq
        replay = session.engine.new_state(session.record.players)
        for entry in session.entries:
            replay = session.engine.apply(replay, entry.action)
            if entry.seq in shown:
                assert _digest(replay) == shown[entry.seq]
        assert replay == session.state
        store.close()
    assert len(shown) > 5


def test_undo_and_correction_keep_history_and_replay(tmp_path: Path) -> None:
    store = Store(tmp_path / "log.sqlite3")
    table = Table(store)
    session = table.new_game("groundround", ["Ann", "Bob"])
    board = session.board
    assert board is not None
    first = session.dart_action_in("hex1")
    session.apply(first)
    second = session.engine.random_action(session.state, random.Random(1))
    session.apply(second)
    before_undo = session.state
    session.undo()
    assert len(session.entries) == 1
    # Resuming from the log gives the same game as the one in memory.
    again = GameSession(store, store.game(session.id))
    assert again.state == session.state != before_undo
    # A correction moves the first dart to another hex; the game is replayed from there.
    dropped = session.correct(session.entries[0].seq, session.dart_action_in("hex3"))
    assert dropped == []
    assert session.entries[0].action["zone"] == "hex3"
    everything = store.actions(session.id, include_undone=True)
    assert any(a.undone_by for a in everything)  # nothing is erased, only marked
    exported = store.export_game(session.id)
    assert exported["format"] == "oche-game" and len(exported["actions"]) == len(everything)


def test_an_illegal_action_changes_nothing(tmp_path: Path) -> None:
    from rules import RulesError

    store = Store(tmp_path / "log.sqlite3")
    session = Table(store).new_game("conquest", ["Ann", "Bob"])
    with pytest.raises(RulesError):
        session.apply({"type": "move", "player": 1, "path": [[0, 0], [5, 5]]})
    assert store.actions(session.id) == []
    assert session.entries == []
