"""The tablet web UI: a Flask application factory, as in Flask's tutorial.

``create_app(test_config)`` builds the app; the table (store + hub + game) and, for
``oche serve``/``oche demo``, the camera pipeline are attached to ``app.extensions["oche"]``.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from flask import Flask

from oche.store import Store
from oche.table import Table


def create_app(
    test_config: dict[str, Any] | None = None, table: Table | None = None, camera: Any = None
) -> Flask:
    app = Flask(__name__)
    app.config.from_mapping(
        DATA_DIR=None,
        PIN=None,
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_HTTPONLY=True,
        MAX_CONTENT_LENGTH=1_000_000,
        SSE_HEARTBEAT_S=15.0,
        DEMO=False,
    )
    if test_config:
        app.config.from_mapping(test_config)
    if table is None:
        data_dir = Path(app.config["DATA_DIR"] or _default_data_dir())
        table = Table(Store(data_dir / "oche.sqlite3"))
    store = table.store
    # The signing key and the PIN live in the store, so they survive restarts.
    key = store.setting("secret_key")
    if key is None:
        key = secrets.token_hex(32)
        store.set_setting("secret_key", key)
    app.config["SECRET_KEY"] = key
    if app.config["PIN"]:
        store.set_setting("pin", str(app.config["PIN"]))
    elif store.setting("pin") is None:
        store.set_setting("pin", f"{secrets.randbelow(10_000):04d}")
    app.extensions["oche"] = {"table": table, "camera": camera}

    from webui import api, games_api, pages, player_api, stream

    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(games_api.bp)
    app.register_blueprint(stream.bp)
    app.register_blueprint(player_api.bp)
    return app


def _default_data_dir() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("oche"))
