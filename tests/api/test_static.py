"""Static files with DEBUG off, as production serves them: collected with the production storage
(hashed, compressed names) and answered by whitenoise from the web process."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.test import Client

from tests.static_files import collected_into

# What each kind of asset must be served as, for browsers that refuse a mistyped stylesheet or script.
CONTENT_TYPES = {".css": "text/css", ".js": "text/javascript", ".png": "image/png", ".ico": "image/"}


@pytest.fixture(scope="module")
def collected(tmp_path_factory) -> Iterator[Path]:
    """The static files collected into a fresh STATIC_ROOT, as `make run` and operators do."""
    with collected_into(tmp_path_factory.mktemp("static")) as root:
        yield root


def assets(page: str) -> list[str]:
    return re.findall(r'<script[^>]*\ssrc="([^"]+)"', page) + re.findall(r'<link[^>]*\shref="([^"]+)"', page)


def assert_served(client: Client, url: str) -> None:
    path = urlsplit(url).path
    response = client.get(url)
    assert response.status_code == 200, url
    suffix = next((s for s in CONTENT_TYPES if path.endswith(s)), None)
    if suffix is not None:
        assert response["Content-Type"].startswith(CONTENT_TYPES[suffix]), (url, response["Content-Type"])
    body = b"".join(response.streaming_content) if response.streaming else response.content
    assert body, url


@pytest.mark.django_db
def test_docs_page_and_every_asset_it_names_load_with_debug_off(collected):
    client = Client()  # a new client loads the middleware, so whitenoise reads the collected root
    response = client.get("/api/docs/")
    assert response.status_code == 200
    assert not settings.DEBUG
    urls = assets(response.content.decode())
    # The sidecar's Swagger UI: its bundle, its preset and its stylesheet, by their hashed names.
    assert any(re.search(r"swagger-ui-bundle\.[0-9a-f]{12}\.js$", url) for url in urls), urls
    assert any(re.search(r"swagger-ui\.[0-9a-f]{12}\.css$", url) for url in urls), urls
    for url in urls:
        assert_served(client, url)


@pytest.mark.django_db
def test_admin_login_page_css_loads_with_debug_off(collected):
    client = Client()
    response = client.get("/admin/login/")
    assert response.status_code == 200
    stylesheets = [url for url in assets(response.content.decode()) if url.endswith(".css")]
    assert any("/static/admin/css/base." in url for url in stylesheets), stylesheets
    for url in stylesheets:
        assert_served(client, url)


@pytest.mark.django_db
def test_collected_files_are_cached_for_good(collected):
    """Hashed names never change content, so whitenoise lets browsers keep them for a year."""
    client = Client()
    page = client.get("/admin/login/").content.decode()
    url = next(url for url in assets(page) if "/static/admin/css/base." in url)
    response = client.get(url)
    assert "immutable" in response["Cache-Control"]
