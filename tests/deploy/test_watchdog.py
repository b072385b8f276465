"""The systemd notify protocol against a fake NOTIFY_SOCKET (a unix datagram socket)."""

from __future__ import annotations

import os
import socket
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from oche.watchdog import Watchdog, notify, notify_ready, watchdog_timeout


class FakeSystemd:
    """The receiving end of $NOTIFY_SOCKET, as systemd holds it."""

    def __init__(self, address: str, bind_to: str) -> None:
        self.address = address
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(bind_to)

    def messages(self, wait_s: float = 0.0) -> list[str]:
        """What arrived: waits up to ``wait_s`` for the first message, briefly for more."""
        out: list[str] = []
        self.sock.settimeout(max(0.001, wait_s))
        while True:
            try:
                out.append(self.sock.recv(4096).decode())
            except TimeoutError:
                return out
            self.sock.settimeout(0.05)

    def env(self, watchdog_usec: int | None = None) -> dict[str, str]:
        env = {"NOTIFY_SOCKET": self.address}
        if watchdog_usec is not None:
            env |= {"WATCHDOG_USEC": str(watchdog_usec), "WATCHDOG_PID": str(os.getpid())}
        return env


@pytest.fixture
def systemd() -> Iterator[FakeSystemd]:
    # A short folder: unix socket paths are limited to about 100 bytes.
    with tempfile.TemporaryDirectory(dir="/tmp", prefix="oche-") as folder:
        path = str(Path(folder) / "notify")
        fake = FakeSystemd(path, path)
        yield fake
        fake.sock.close()


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_ready_reaches_systemd(systemd: FakeSystemd) -> None:
    assert notify_ready("web UI on port 80", systemd.env())
    assert systemd.messages(0.5) == ["READY=1\nSTATUS=web UI on port 80"]


def test_abstract_socket_names_work() -> None:
    name = f"oche-test-{os.getpid()}-{time.monotonic_ns()}"
    fake = FakeSystemd("@" + name, "\0" + name)
    try:
        assert notify("WATCHDOG=1", fake.env())
        assert fake.messages(0.5) == ["WATCHDOG=1"]
    finally:
        fake.sock.close()


def test_without_systemd_nothing_is_sent_and_nothing_fails(tmp_path: Path) -> None:
    assert notify("READY=1", {}) is False
    assert notify("READY=1", {"NOTIFY_SOCKET": "vsock:2:1234"}) is False
    # systemd's socket vanished: a warning, never an exception that would stop a game.
    assert notify("READY=1", {"NOTIFY_SOCKET": str(tmp_path / "gone")}) is False


def test_watchdog_timeout_only_for_this_process() -> None:
    assert watchdog_timeout({"WATCHDOG_USEC": "30000000"}) == 30.0
    assert watchdog_timeout({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}) is None
    assert watchdog_timeout({"WATCHDOG_USEC": "nonsense"}) is None
    assert watchdog_timeout({}) is None


def test_pings_only_while_the_pipeline_beats(systemd: FakeSystemd) -> None:
    clock = FakeClock()
    dog = Watchdog(startup_grace_s=20, environ=systemd.env(30_000_000), clock=clock)
    assert dog.enabled and dog.max_silence_s == 15 and dog.ping_interval_s == 15
    # Starting up (camera settling): no beat yet, but within the grace period.
    assert dog.check()
    clock.now += 19
    assert dog.check()
    # The pipeline runs.
    for _ in range(5):
        clock.now += 1
        dog.beat()
        assert dog.check()
    assert systemd.messages(0.3) == ["WATCHDOG=1"] * 7
    # The pipeline hangs: after max_silence_s the pings stop, so systemd will restart us.
    clock.now += 14
    assert dog.check()
    clock.now += 2
    assert not dog.check()
    assert not dog.healthy()
    clock.now += 20
    assert not dog.check()
    messages = systemd.messages(0.3)
    assert messages[0] == "WATCHDOG=1"
    assert "WATCHDOG=1" not in messages[1:]
    assert any(m.startswith("STATUS=camera pipeline stuck: no frame for 16 s") for m in messages)
    # Frames flow again before systemd acted: pinging resumes.
    dog.beat()
    assert dog.check()
    assert systemd.messages(0.3) == ["STATUS=camera pipeline running", "WATCHDOG=1"]


def test_no_first_frame_after_the_grace_period_is_stuck(systemd: FakeSystemd) -> None:
    clock = FakeClock()
    dog = Watchdog(startup_grace_s=60, environ=systemd.env(30_000_000), clock=clock)
    clock.now += 61
    assert not dog.check()


def test_a_reconnecting_camera_is_excused(systemd: FakeSystemd) -> None:
    clock = FakeClock()
    state = {"camera": "live"}
    dog = Watchdog(
        max_silence_s=5,
        startup_grace_s=0,
        excused=lambda: state["camera"] == "reconnecting",
        environ=systemd.env(30_000_000),
        clock=clock,
    )
    dog.beat()
    clock.now += 6
    assert not dog.check()
    state["camera"] = "reconnecting"
    clock.now += 100
    assert dog.check()


def test_thread_pings_systemd_in_real_time(systemd: FakeSystemd) -> None:
    # WatchdogSec=0.4 s: pings every 0.2 s while beating, none once the beats stop.
    with Watchdog(max_silence_s=0.3, environ=systemd.env(400_000)) as dog:
        end = time.monotonic() + 0.9
        while time.monotonic() < end:
            dog.beat()
            time.sleep(0.02)
        beating = systemd.messages(0.05)
        assert beating.count("WATCHDOG=1") >= 3
        time.sleep(0.5)  # silence: the thread notices and stops pinging
        systemd.messages(0.05)
        assert "WATCHDOG=1" not in systemd.messages(0.6)
    assert dog.pings >= 3


def test_disabled_without_watchdog_in_the_unit(systemd: FakeSystemd) -> None:
    dog = Watchdog(environ=systemd.env())  # NOTIFY_SOCKET but no WatchdogSec
    assert not dog.enabled
    dog.start()
    dog.beat()
    assert not dog.check()
    dog.stop()
    assert systemd.messages(0.2) == []
