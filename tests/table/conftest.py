"""A live server on loopback for tests that need real HTTP (SSE, browsers)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from flask import Flask
from werkzeug.serving import make_server

from webui import create_app


@dataclass
class LiveServer:
    app: Flask
    url: str


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    return create_app(
        {"DATA_DIR": str(tmp_path), "PIN": "1234", "TESTING": True, "SSE_HEARTBEAT_S": 0.5}
    )


@pytest.fixture
def client(app: Flask):
    client = app.test_client()
    assert client.post("/api/login", json={"pin": "1234"}).status_code == 200
    return client


@pytest.fixture
def live_server(app: Flask) -> Iterator[LiveServer]:
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield LiveServer(app, f"http://127.0.0.1:{server.server_port}")
    app.extensions["oche"]["table"].hub.close()
    server.shutdown()
    thread.join(timeout=5)
