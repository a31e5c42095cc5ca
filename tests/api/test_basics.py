"""Accounts, tokens, the game list, the schema and the docs page, and the error shape."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient


@pytest.fixture
def client():
    return APIClient()


def register(client, username="alice", password="a long passphrase"):
    return client.post("/api/v1/auth/register/", {"username": username, "password": password}, format="json")


@pytest.mark.django_db
def test_register_then_token_then_list_games(client):
    created = register(client)
    assert created.status_code == 201
    token = created.json()["token"]
    again = client.post("/api/v1/auth/token/", {"username": "alice", "password": "a long passphrase"}, format="json")
    assert again.status_code == 200
    # Per-device tokens: each login is another token, and the first stays valid.
    assert again.json()["token"] != token
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    games = client.get("/api/v1/games/")
    assert games.status_code == 200
    for game in games.json():
        assert {"slug", "name", "players", "options"} <= set(game)


@pytest.mark.django_db
def test_register_refuses_a_taken_name_and_a_weak_password(client):
    assert register(client).status_code == 201
    taken = register(client)
    assert taken.status_code == 400
    assert taken.json()["code"] == "invalid"
    assert "taken" in taken.json()["detail"]
    weak = register(client, username="bob", password="password")
    assert weak.status_code == 400
    assert "password" in weak.json()["fields"]


@pytest.mark.django_db
def test_wrong_password_gets_no_token(client):
    register(client)
    response = client.post("/api/v1/auth/token/", {"username": "alice", "password": "wrong one"}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "authentication_failed"


@pytest.mark.django_db
def test_malformed_json_is_a_400_with_the_error_shape(client):
    response = client.post("/api/v1/auth/register/", data="{not json", content_type="application/json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "malformed_request"
    assert "JSON" in body["detail"]


@pytest.mark.django_db
def test_unknown_fields_are_refused(client):
    response = client.post(
        "/api/v1/auth/register/", {"username": "carol", "password": "a long passphrase", "admin": True}, format="json"
    )
    assert response.status_code == 400
    assert "admin" in response.json()["fields"]


@pytest.mark.django_db
def test_tables_need_a_token(client):
    response = client.get("/api/v1/tables/")
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


@pytest.mark.django_db
def test_unknown_table_is_404(client):
    client.credentials(HTTP_AUTHORIZATION=f"Token {register(client).json()['token']}")
    for path in ("/api/v1/tables/nope/", "/api/v1/tables/00000000-0000-0000-0000-000000000000/"):
        response = client.get(path)
        assert response.status_code == 404
        assert response.json()["code"] == "not_found"


@pytest.mark.django_db
def test_anonymous_requests_are_throttled(client, settings, monkeypatch):
    from rest_framework.settings import api_settings
    from rest_framework.throttling import AnonRateThrottle

    from api import limits

    # One moment for every request: across a window's end the last window's count is weighed down.
    monkeypatch.setattr(limits.CountingThrottle, "timer", staticmethod(lambda: 6_000_010.0))
    AnonRateThrottle.THROTTLE_RATES = {**api_settings.DEFAULT_THROTTLE_RATES, "anon": "3/minute"}
    try:
        from django.core.cache import cache

        cache.clear()
        responses = [client.get("/api/v1/games/") for _ in range(4)]
    finally:
        AnonRateThrottle.THROTTLE_RATES = api_settings.DEFAULT_THROTTLE_RATES
    assert [r.status_code for r in responses] == [200, 200, 200, 429]
    assert responses[3].json()["code"] == "throttled"
    assert responses[3].json()["retry_after"] > 0


@pytest.mark.django_db
def test_openapi_schema_validates(tmp_path):
    target = tmp_path / "schema.json"
    call_command("spectacular", "--validate", "--fail-on-warn", "--format", "openapi-json", "--file", str(target))
    schema = json.loads(target.read_text())
    assert schema["openapi"].startswith("3.")
    assert "/api/v1/tables/{table_id}/actions/" in schema["paths"]


@pytest.mark.django_db
def test_docs_page_loads_nothing_from_outside(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "swagger-ui" in page
    assert "http://" not in page.replace("http://testserver", "")
    assert "https://" not in page
