"""Session login for a same-origin browser app (issue 14): the CSRF token comes from
``GET auth/session/``, every write made with the session (the login included) must carry it as
``X-CSRFToken``, and logins are limited like token logins."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.settings import api_settings
from rest_framework.test import APIClient

from api import limits

pytestmark = pytest.mark.django_db

PASSWORD = "a long passphrase"
NEW_TABLE = {"game": "counter", "seats": 2, "options": {}}


@pytest.fixture
def alice():
    return get_user_model().objects.create_user(username="alice", password=PASSWORD)


def browser() -> APIClient:
    """A client that checks CSRF as a browser's requests are checked."""
    return APIClient(enforce_csrf_checks=True)


def logged_in(client: APIClient) -> str:
    csrf = client.get("/api/v1/auth/session/").json()["csrf_token"]
    answer = client.post(
        "/api/v1/auth/session/", {"username": "alice", "password": PASSWORD}, format="json", HTTP_X_CSRFTOKEN=csrf
    )
    assert answer.status_code == 200, answer.json()
    assert answer.json()["username"] == "alice"
    return answer.json()["csrf_token"]


def test_get_says_nobody_and_sets_the_csrf_cookie(alice):
    client = browser()
    answer = client.get("/api/v1/auth/session/")
    assert answer.status_code == 200
    assert answer.json()["username"] is None
    assert answer.cookies["csrftoken"].value
    assert answer.json()["csrf_token"]


def test_a_session_write_without_the_csrf_token_is_refused_and_with_it_succeeds(alice, counter_game):
    client = browser()
    csrf = logged_in(client)
    assert client.get("/api/v1/auth/session/").json()["username"] == "alice"
    assert client.get("/api/v1/tables/").status_code == 200  # reads need no token
    refused = client.post("/api/v1/tables/", NEW_TABLE, format="json")
    assert refused.status_code == 403
    assert refused.json()["code"] == "forbidden" and "CSRF" in refused.json()["detail"]
    made = client.post("/api/v1/tables/", NEW_TABLE, format="json", HTTP_X_CSRFTOKEN=csrf)
    assert made.status_code == 201, made.json()


def test_the_login_itself_needs_the_csrf_token(alice):
    client = browser()
    client.get("/api/v1/auth/session/")
    refused = client.post("/api/v1/auth/session/", {"username": "alice", "password": PASSWORD}, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"
    assert client.get("/api/v1/auth/session/").json()["username"] is None


def test_a_wrong_password_opens_no_session(alice):
    client = browser()
    csrf = client.get("/api/v1/auth/session/").json()["csrf_token"]
    refused = client.post(
        "/api/v1/auth/session/", {"username": "alice", "password": "wrong"}, format="json", HTTP_X_CSRFTOKEN=csrf
    )
    assert refused.status_code == 400 and refused.json()["code"] == "authentication_failed"
    assert client.get("/api/v1/tables/").status_code == 401


def test_logout_ends_the_session_and_needs_the_csrf_token(alice):
    client = browser()
    csrf = logged_in(client)
    refused = client.delete("/api/v1/auth/session/")
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"
    assert client.delete("/api/v1/auth/session/", HTTP_X_CSRFTOKEN=csrf).status_code == 204
    assert client.get("/api/v1/auth/session/").json()["username"] is None
    assert client.get("/api/v1/tables/").status_code == 401


def test_session_logins_are_throttled_with_retry_after_in_the_error_shape(alice, monkeypatch):
    rates = {**api_settings.DEFAULT_THROTTLE_RATES, "login_account": "2/minute", "login_address": "100/minute"}
    monkeypatch.setattr(limits.LoginAccountThrottle, "THROTTLE_RATES", rates)
    monkeypatch.setattr(limits.LoginAddressThrottle, "THROTTLE_RATES", rates)
    client = browser()
    csrf = client.get("/api/v1/auth/session/").json()["csrf_token"]

    def attempt():
        return client.post(
            "/api/v1/auth/session/", {"username": "alice", "password": "wrong"}, format="json", HTTP_X_CSRFTOKEN=csrf
        )

    assert [attempt().status_code for _ in range(2)] == [400, 400]
    throttled = attempt()
    assert throttled.status_code == 429
    body = throttled.json()
    assert body["code"] == "throttled" and body["retry_after"] > 0
    assert int(throttled.headers["Retry-After"]) > 0
    # The right password is held up too: the limit is on attempts, not on failures.
    right = client.post(
        "/api/v1/auth/session/", {"username": "alice", "password": PASSWORD}, format="json", HTTP_X_CSRFTOKEN=csrf
    )
    assert right.status_code == 429
    # Asking who one is costs no password hash and is not a login.
    assert client.get("/api/v1/auth/session/").status_code == 200
