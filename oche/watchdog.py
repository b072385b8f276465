"""systemd readiness and watchdog messages, with a plain socket (no dependency).

systemd starts ``oche serve`` with ``$NOTIFY_SOCKET`` (for ``Type=notify``) and, when the unit
has ``WatchdogSec=``, with ``$WATCHDOG_USEC``. The service says ``READY=1`` once the web UI is
up, then must send ``WATCHDOG=1`` more often than ``WatchdogSec`` or systemd kills and restarts
it (``Restart=always``).

A thread that pings blindly would keep a hung camera pipeline alive for ever, so
:class:`Watchdog` pings only while the pipeline proves it is alive: the pipeline calls
:meth:`Watchdog.beat` for every frame, and when the beats stop for ``max_silence_s`` the pings
stop and systemd restarts the service. A known, self-healing wait (the camera source
reconnecting) can be excused so that it does not cause restarts.

Without ``$NOTIFY_SOCKET`` (run by hand, in tests, in ``oche demo``) every call is a cheap no-op.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Mapping
from types import TracebackType

log = logging.getLogger(__name__)


def _address(environ: Mapping[str, str]) -> str | None:
    path = environ.get("NOTIFY_SOCKET", "")
    if path.startswith("@"):  # Linux abstract socket namespace
        return "\0" + path[1:]
    if path.startswith("/"):
        return path
    return None  # unset, or a kind of address this module does not speak (vsock)


def notify(message: str, environ: Mapping[str, str] | None = None) -> bool:
    """Send one sd_notify message (e.g. ``"READY=1"``); False when there is no one to tell.

    Never raises: losing contact with systemd must not stop a game.
    """
    address = _address(os.environ if environ is None else environ)
    if address is None:
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.connect(address)
            sock.sendall(message.encode("utf-8"))
    except OSError as exc:
        log.warning("could not tell systemd %r: %s", message, exc)
        return False
    return True


def notify_ready(status: str = "", environ: Mapping[str, str] | None = None) -> bool:
    """``READY=1``: call once the web UI accepts connections (``Type=notify`` waits for it)."""
    return notify("READY=1" + (f"\nSTATUS={status}" if status else ""), environ)


def notify_stopping(environ: Mapping[str, str] | None = None) -> bool:
    return notify("STOPPING=1", environ)


def watchdog_timeout(environ: Mapping[str, str] | None = None) -> float | None:
    """The unit's ``WatchdogSec`` in seconds if it applies to this process, else None."""
    environ = os.environ if environ is None else environ
    try:
        usec = int(environ.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    pid = environ.get("WATCHDOG_PID")
    if usec <= 0 or (pid and pid != str(os.getpid())):
        return None
    return usec / 1e6


class Watchdog:
    """Pings systemd's watchdog while :meth:`beat` is called often enough.

    ``max_silence_s``: how long without a beat counts as stuck (default: half the watchdog
    timeout). ``startup_grace_s``: the time allowed before the first beat (camera start-up
    and settling take a while on a Pi). ``excused``: returns True while a wait is expected
    (e.g. ``lambda: source.status.state == "reconnecting"``), so it does not count as stuck.
    """

    def __init__(
        self,
        max_silence_s: float | None = None,
        startup_grace_s: float = 60.0,
        excused: Callable[[], bool] | None = None,
        environ: Mapping[str, str] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._environ = dict(os.environ if environ is None else environ)
        self.timeout_s = watchdog_timeout(self._environ)
        self.enabled = self.timeout_s is not None and _address(self._environ) is not None
        timeout = self.timeout_s or 30.0
        self.ping_interval_s = timeout / 2  # what sd_watchdog_enabled(3) advises
        self.max_silence_s = max_silence_s if max_silence_s is not None else timeout / 2
        self._excused = excused or (lambda: False)
        self._clock = clock
        self._started = clock()
        self._grace_until = self._started + startup_grace_s
        self._last_beat: float | None = None
        self._stuck_reported = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.pings = 0

    def beat(self) -> None:
        """The pipeline is alive (called for every frame: only a float is stored)."""
        self._last_beat = self._clock()

    def silence_s(self) -> float:
        """Seconds since the last beat (or since the start, before the first one)."""
        return self._clock() - (self._last_beat if self._last_beat is not None else self._started)

    def healthy(self) -> bool:
        """True while the pipeline beats, is excused, or is still starting up."""
        now = self._clock()
        if self._last_beat is None and now < self._grace_until:
            return True
        return self.silence_s() <= self.max_silence_s or bool(self._excused())

    def check(self) -> bool:
        """One round of the thread: ping systemd if healthy. Returns whether it pinged."""
        if not self.healthy():
            if not self._stuck_reported:
                self._stuck_reported = True
                message = (
                    f"camera pipeline stuck: no frame for {self.silence_s():.0f} s; "
                    "systemd will restart Oche"
                )
                log.error(message)
                notify(f"STATUS={message}", self._environ)
            return False
        if self._stuck_reported:
            self._stuck_reported = False
            log.warning("camera pipeline alive again")
            notify("STATUS=camera pipeline running", self._environ)
        if self.enabled and notify("WATCHDOG=1", self._environ):
            self.pings += 1
            return True
        return False

    def start(self) -> Watchdog:
        """Start the pinging thread (nothing happens when systemd has no watchdog for us)."""
        if self.enabled and self._thread is None:
            self._thread = threading.Thread(target=self._run, name="oche-watchdog", daemon=True)
            self._thread.start()
        return self

    def _run(self) -> None:
        self.check()
        while not self._stop.wait(self.ping_interval_s):
            self.check()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> Watchdog:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
