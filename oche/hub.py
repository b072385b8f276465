"""Fan-out of table updates to every browser, for Server-Sent Events.

Each message gets an increasing id; a ring buffer keeps the recent ones, so a browser that
reconnects with ``Last-Event-ID`` receives exactly what it missed.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Message:
    id: int
    event: str
    data: dict[str, Any]
    time: float
    #: The wire form, made once at publishing rather than once per listening tablet.
    sse: str = ""

    def to_sse(self) -> str:
        return self.sse


class Hub:
    def __init__(self, keep: int = 500) -> None:
        self._messages: deque[Message] = deque(maxlen=keep)
        self._changed = threading.Condition()
        self._next_id = 1
        self._closed = False

    def publish(self, event: str, data: dict[str, Any]) -> Message:
        with self._changed:
            body = json.dumps(data, separators=(",", ":"))
            wire = f"id: {self._next_id}\nevent: {event}\ndata: {body}\n\n"
            message = Message(self._next_id, event, data, time.time(), wire)
            self._next_id += 1
            self._messages.append(message)
            self._changed.notify_all()
        return message

    @property
    def last_id(self) -> int:
        with self._changed:
            return self._next_id - 1

    def since(self, last_id: int) -> list[Message]:
        with self._changed:
            return [m for m in self._messages if m.id > last_id]

    def close(self) -> None:
        with self._changed:
            self._closed = True
            self._changed.notify_all()

    def listen(self, last_id: int, heartbeat_s: float = 15.0) -> Iterator[Message | None]:
        """Messages after ``last_id`` as they come; ``None`` every ``heartbeat_s`` of quiet
        (the stream sends a comment then, so proxies and browsers keep the connection)."""
        while True:
            with self._changed:
                pending = [m for m in self._messages if m.id > last_id]
                if not pending and not self._closed:
                    self._changed.wait(heartbeat_s)
                    pending = [m for m in self._messages if m.id > last_id]
                closed = self._closed
            if pending:
                yield from pending
                last_id = pending[-1].id
            elif closed:
                return
            else:
                yield None
