"""What the web UI tests share: the app and a client holding the PIN, the app served live in a
thread, Debian's headless Chromium, and the steps every browser test takes (open a page, log
in with the PIN, start a game, save a screenshot).

The page-level helpers are fixtures that hand back small functions, because a conftest is not
a module the tests may import. A test module sets ``SCREENSHOT_PREFIX`` to name its pictures.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.serving import make_server

from webui import create_app

PIN = "1234"
SCREENSHOTS = Path(__file__).resolve().parents[1] / "screenshots"
CHROMIUM = "/usr/bin/chromium"  # the distribution's build: no browser download needed
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PAGE_TIMEOUT_MS = 8000


@pytest.fixture
def sse_heartbeat_s() -> float:
    """Seconds between keep-alive messages on the live stream; a module may override it."""
    return 0.5


@pytest.fixture
def app(tmp_path: Path, sse_heartbeat_s: float) -> Flask:
    return create_app(
        {
            "DATA_DIR": str(tmp_path),
            "PIN": PIN,
            "TESTING": True,
            "SSE_HEARTBEAT_S": sse_heartbeat_s,
        }
    )


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """The tablet, in control."""
    tablet = app.test_client()
    assert tablet.post("/api/login", json={"pin": PIN}).status_code == 200
    return tablet


@pytest.fixture
def live_url(app: Flask) -> Iterator[str]:
    """The app served on a free local port for a real browser."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    app.extensions["oche"]["table"].hub.close()
    server.shutdown()
    thread.join(timeout=5)


@pytest.fixture
def browser(live_url: str) -> Iterator[Any]:
    """Headless Chromium; it asks for the live server only so that it closes before the
    server stops (pytest tears fixtures down in the reverse order of their needs)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def new_page(browser: Any) -> Callable[..., Any]:
    """``new_page(width, height, errors=None, **options)``: a fresh page of that viewport.

    Script errors on the page are appended to ``errors`` when a list is given; other keyword
    options (e.g. ``device_scale_factor``) go to Playwright.
    """

    def open_page(width: int, height: int, errors: list[str] | None = None, **options: Any) -> Any:
        page = browser.new_page(viewport={"width": width, "height": height}, **options)
        if errors is not None:
            page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.set_default_timeout(PAGE_TIMEOUT_MS)
        return page

    return open_page


@pytest.fixture
def login(live_url: str) -> Callable[..., None]:
    """``login(page, path="/play")``: open the path and take control with the PIN."""

    def log_in(page: Any, path: str = "/play") -> None:
        page.goto(f"{live_url}{path}")
        page.fill("#pin", PIN)
        page.click("#login button")
        page.wait_for_selector("#control-badge", state="visible")

    return log_in


@pytest.fixture
def start_game(live_url: str) -> Callable[..., dict[str, Any]]:
    """``start_game(page, game, players, options=None)``: a new game by the API, as the page's
    session (which must be in control); gives the new game's snapshot."""

    def start(
        page: Any, game: str, players: list[str], options: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        body: dict[str, Any] = {"game": game, "players": players}
        if options is not None:
            body["options"] = options
        created = page.request.post(f"{live_url}/api/games", data=body)
        assert created.ok, created.text()
        return created.json()

    return start


@pytest.fixture
def new_game_form(live_url: str) -> Callable[..., None]:
    """``new_game_form(page, game, names, colours=None)``: fill in the New game page already
    open on ``page`` (one row per name) and wait for the play screen."""

    def submit(page: Any, game: str, names: list[str], colours: list[str] | None = None) -> None:
        page.select_option("#game", game)
        rows = page.locator("#players .player-row")
        assert rows.count() == len(names)
        assert page.locator("#players input[type=text]").count() == len(names)
        for i, name in enumerate(names):
            rows.nth(i).locator("input[type=text]").fill(name)
            if colours:
                rows.nth(i).locator("input[type=color]").fill(colours[i])
        page.click("#new-game button[type=submit]")
        page.wait_for_url(f"{live_url}/play")

    return submit


@pytest.fixture
def shot(request: pytest.FixtureRequest) -> Callable[[Any, str], None]:
    """``shot(page, name)``: a full-page screenshot in tests/screenshots, named
    ``<SCREENSHOT_PREFIX>_<name>.png`` after the test module's prefix."""
    prefix = request.module.SCREENSHOT_PREFIX

    def save(page: Any, name: str) -> None:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{prefix}_{name}.png"), full_page=True)

    return save
