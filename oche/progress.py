"""A count of work done, kept on one terminal line while a long command runs."""

from __future__ import annotations

import sys
from typing import TextIO


class Progress:
    """``progress(done, total)`` rewrites one line, ``12/30 sessions``, on the terminal. A log
    file or a pipe gets nothing (they keep only what the command reports). ``clear()``
    blanks the line, so that a report printed meanwhile starts at the left edge."""

    def __init__(self, what: str, stream: TextIO | None = None, every: int = 1) -> None:
        self.what = what
        self.stream = stream if stream is not None else sys.stderr
        self.every = every
        self.shown = self.stream.isatty()
        self._on_screen = False

    def __call__(self, done: int, total: int) -> None:
        if not self.shown or (done % self.every and done != total):
            return
        print(f"\r{done}/{total} {self.what}", end="", file=self.stream, flush=True)
        self._on_screen = True
        if done >= total:
            self.clear()

    def clear(self) -> None:
        if self._on_screen:
            print("\r\033[K", end="", file=self.stream, flush=True)
            self._on_screen = False
