"""The browser harness: Debian's Chromium driven headless by Playwright against the service served
as `make run` serves it (uvicorn with a Celery worker and beat, so bots and timers play; static
files found by whitenoise). Every test here is marked ``browser``: without Chromium (or Playwright)
it is skipped on a developer's machine and fails in CI, as tests/conftest.py treats PostgreSQL.

No browser is ever downloaded: Playwright launches /usr/bin/chromium, which .ci/run installs with
apt-get when it is missing."""

from __future__ import annotations

import json
import re
import secrets
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.api.server import ROOT, Server, serve
from tests.conftest import require
from tests.web.chromium import CHROMIUM, CHROMIUM_FLAGS

SCREENSHOTS = ROOT / "var" / "screenshots"


def pytest_collection_modifyitems(config, items):
    """Every test under tests/web is a browser test."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="module")
def chromium():
    """Debian's Chromium, launched once for each test module (Playwright gives it a fresh profile).

    Not once for the session: Playwright's sync API runs an event loop while it is started, and a
    test module that starts its own (tests/web/test_game_modules.py) cannot while another is."""
    require(CHROMIUM.exists(), "Chromium (/usr/bin/chromium: apt-get install chromium chromium-driver)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        require(False, "Playwright for Python (requirements/dev.txt)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=[*CHROMIUM_FLAGS], chromium_sandbox=False
        )
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def web_server(tmp_path_factory) -> Iterator[Server]:
    """The service with its worker and beat (bots play, timers fire), on a free port, with a staff token."""
    with serve(tmp_path_factory.mktemp("web-server"), worker=True) as server:
        yield server


@pytest.fixture
def page(chromium, web_server):
    """A fresh browser context (no cookies) and page, phone-sized screens aside: a laptop's 1280x800."""
    context = chromium.new_context(viewport={"width": 1280, "height": 800}, base_url=web_server.url)
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors  # type: ignore[attr-defined]
    yield page
    context.close()


@pytest.fixture
def screenshot():
    """``screenshot(page, name)`` keeps a full-page PNG under var/screenshots/ (CI keeps var/ as the run's artefacts)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str) -> Path:
        path = SCREENSHOTS / (re.sub(r"[^A-Za-z0-9_.-]+", "-", name) + ".png")
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


def staff_call(server: Server, method: str, path: str, body: dict | None = None) -> dict:
    """One call to the API as the harness's staff member (deposits and other set-up a person cannot do)."""
    request = urllib.request.Request(
        server.url + path,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={
            "Authorization": f"Token {server.token}",
            "Content-Type": "application/json",
            "Idempotency-Key": secrets.token_hex(16),
        },
    )
    with urllib.request.urlopen(request, timeout=15) as response:
        text = response.read()
    return json.loads(text) if text else {}


@pytest.fixture
def deposit(web_server):
    """``deposit(username, "MXN", "100.00")``: a staff deposit into a person's wallet, through the API."""

    def give(username: str, currency: str = "MXN", amount: str = "100.00") -> dict:
        return staff_call(
            web_server, "POST", f"/api/v1/wallets/{username}/deposits/", {"currency": currency, "amount": amount}
        )

    return give
