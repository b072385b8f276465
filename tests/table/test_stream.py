"""Server-Sent Events: every tablet gets every update quickly, and catches up after a drop."""

from __future__ import annotations

import http.client
import json
import threading
import time
import urllib.request
from urllib.parse import urlparse

import pytest


class SseClient(threading.Thread):
    """Reads one event stream, noting when each state message arrived."""

    def __init__(self, url: str, last_event_id: int | None = None) -> None:
        super().__init__(daemon=True)
        parsed = urlparse(url)
        self.connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=10)
        headers = {"Accept": "text/event-stream"}
        if last_event_id is not None:
            headers["Last-Event-ID"] = str(last_event_id)
        self.connection.request("GET", "/api/stream", headers=headers)
        self.response = self.connection.getresponse()
        self.received: list[tuple[int, float, dict]] = []
        self.ready = threading.Event()

    def run(self) -> None:
        event_id, data = None, None
        self.ready.set()
        try:
            for raw in self.response:
                line = raw.decode().rstrip("\n")
                if line.startswith("id: "):
                    event_id = int(line[4:])
                elif line.startswith("data: "):
                    data = json.loads(line[6:])
                elif line == "" and event_id is not None and data is not None:
                    self.received.append((event_id, time.perf_counter(), data))
                    event_id, data = None, None
        except (OSError, ValueError):
            return

    def close(self) -> None:
        self.connection.close()


def _post(url: str, path: str, body: dict) -> dict:
    request = urllib.request.Request(
        url + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "X-Oche-Pin": "1234"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def test_twenty_tablets_each_get_every_update_in_order(live_server) -> None:
    """How fast they get it is `oche bench table`'s business (a time bound here would fail
    on a busy machine, not on slow code)."""
    _post(live_server.url, "/api/games", {"game": "groundround", "players": ["Ann", "Bob"]})
    clients = [SseClient(live_server.url) for _ in range(20)]
    for c in clients:
        c.start()
        c.ready.wait(5)
    time.sleep(0.3)
    sent = ["hex2", "hex3", "hex4", "hex5", "hex6", "hex7"]
    for zone in sent:
        _post(live_server.url, "/api/dart", {"zone": zone})
        time.sleep(0.05)

    def updates_of(client: SseClient) -> list:
        return [r for r in client.received if r[2].get("snapshot")]

    # however busy the machine, every update reaches every tablet within this long
    deadline = time.time() + 20
    while time.time() < deadline and any(len(updates_of(c)) < len(sent) for c in clients):
        time.sleep(0.05)
    time.sleep(0.2)  # and nothing more comes after them
    for c in clients:
        c.close()
    for client in clients:
        updates = updates_of(client)
        assert len(updates) == len(sent), "a tablet missed an update"
        assert [u[2]["snapshot"]["log"][-1]["action"]["zone"] for u in updates] == sent


def test_a_tablet_that_reconnects_gets_what_it_missed(live_server) -> None:
    _post(live_server.url, "/api/games", {"game": "groundround", "players": ["Ann", "Bob"]})
    hub = live_server.app.extensions["oche"]["table"].hub
    seen = hub.last_id
    _post(live_server.url, "/api/dart", {"zone": "hex2"})
    _post(live_server.url, "/api/dart", {"zone": "hex3"})
    client = SseClient(live_server.url, last_event_id=seen)
    client.start()
    deadline = time.time() + 3
    while time.time() < deadline and len(client.received) < 2:
        time.sleep(0.05)
    client.close()
    assert [r[0] for r in client.received[:2]] == [seen + 1, seen + 2]


@pytest.mark.parametrize("option", ["--darts", "--tablets"])
def test_the_latency_benchmark_refuses_to_measure_nothing(option, capsys) -> None:
    from oche.cli import main

    with pytest.raises(SystemExit) as refused:
        main(["bench", "table", option, "0"])
    assert refused.value.code == 2
    assert f"argument {option}: 0 runs nothing" in capsys.readouterr().err
