"""Session login for a same-origin browser app (issue 14): the CSRF token comes from
``GET auth/session/``, every write made with the session (the login included) must carry it as
``X-CSRFToken``, and logins are limited like token logins."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from rest_framework.settings import api_settings
from rest_framework.test import APIClient

from api import limits
from tests.api.contract import ContractClient

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
    assert refused.json()["code"] == "csrf_failed" and "CSRF" in refused.json()["detail"]
    made = client.post("/api/v1/tables/", NEW_TABLE, format="json", HTTP_X_CSRFTOKEN=csrf)
    assert made.status_code == 201, made.json()


def test_the_login_itself_needs_the_csrf_token(alice):
    client = browser()
    client.get("/api/v1/auth/session/")
    refused = client.post("/api/v1/auth/session/", {"username": "alice", "password": PASSWORD}, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "csrf_failed"
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
    assert refused.status_code == 403 and refused.json()["code"] == "csrf_failed"
    assert client.delete("/api/v1/auth/session/", HTTP_X_CSRFTOKEN=csrf).status_code == 204
    assert client.get("/api/v1/auth/session/").json()["username"] is None
    assert client.get("/api/v1/tables/").status_code == 401


def test_session_logins_are_throttled_with_retry_after_in_the_error_shape(alice, monkeypatch):
    rates = {**api_settings.DEFAULT_THROTTLE_RATES, "login_account": "2/minute", "login_address": "100/minute"}
    monkeypatch.setattr(limits.LoginAccountThrottle, "THROTTLE_RATES", rates)
    monkeypatch.setattr(limits.LoginAddressThrottle, "THROTTLE_RATES", rates)
    # One moment for every attempt: across a window's end the estimate weighs the last window's count
    # down, and the third attempt would slip through.
    monkeypatch.setattr(limits.CountingThrottle, "timer", staticmethod(lambda: 6_000_010.0))
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


def test_a_session_reads_its_person_once_with_the_language_preference(alice):
    """A session opened at auth/session/ loads its person with their language preference in one
    statement (issue 24), and the preference still wins over ``Accept-Language``."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from api.models import LanguagePreference

    client = browser()
    logged_in(client)
    LanguagePreference.objects.create(user=alice, language="fa")
    with CaptureQueriesContext(connection) as queries:
        answer = client.get("/api/v1/tables/", HTTP_ACCEPT_LANGUAGE="es-MX")
    assert answer.status_code == 200 and answer["Content-Language"] == "fa"
    statements = [query["sql"] for query in queries.captured_queries]
    assert len([sql for sql in statements if 'FROM "auth_user"' in sql]) == 1, statements
    assert not [sql for sql in statements if 'FROM "api_languagepreference"' in sql], statements
    LanguagePreference.objects.filter(user=alice).delete()
    assert client.get("/api/v1/tables/", HTTP_ACCEPT_LANGUAGE="es-MX")["Content-Language"] == "es-mx"


def test_a_session_of_a_person_made_inactive_is_nobody(alice):
    """As Django's ModelBackend has it: the session authenticates nobody once its person is inactive."""
    client = browser()
    logged_in(client)
    assert client.get("/api/v1/tables/").status_code == 200
    get_user_model().objects.filter(pk=alice.pk).update(is_active=False)
    assert client.get("/api/v1/tables/").status_code == 401
    assert client.get("/api/v1/auth/session/").json()["username"] is None


def test_a_session_opened_before_its_backend_loads_its_person_as_before(alice):
    """Sessions that name Django's ModelBackend (opened before, or by the admin's login) still
    authenticate: ModelBackend stays first in AUTHENTICATION_BACKENDS."""
    client = browser()
    client.force_login(alice, backend="django.contrib.auth.backends.ModelBackend")
    assert client.get("/api/v1/auth/session/").json()["username"] == "alice"
    assert client.get("/api/v1/tables/").status_code == 200


def test_a_password_change_ends_the_session(alice):
    client = browser()
    logged_in(client)
    alice.set_password("another long passphrase")
    alice.save()
    assert client.get("/api/v1/tables/").status_code == 401


def test_the_session_says_which_desks_its_person_may_use(alice):
    """The web client offers the desks from this answer (the desks' API checks again); the answer
    is held against the OpenAPI document."""
    client = ContractClient(enforce_csrf_checks=True)
    nobody = client.get("/api/v1/auth/session/").json()
    assert (nobody["is_staff"], nobody["is_auditor"]) == (False, False)
    csrf = nobody["csrf_token"]
    client.post(
        "/api/v1/auth/session/", {"username": "alice", "password": PASSWORD}, format="json", HTTP_X_CSRFTOKEN=csrf
    )
    assert {k: v for k, v in client.get("/api/v1/auth/session/").json().items() if k.startswith("is_")} == {
        "is_staff": False,
        "is_auditor": False,
    }
    alice.groups.add(Group.objects.get_or_create(name="auditors")[0])
    assert client.get("/api/v1/auth/session/").json()["is_auditor"] is True
    alice.groups.clear()
    alice.is_staff = True
    alice.save(update_fields=["is_staff"])
    mine = client.get("/api/v1/auth/session/").json()
    assert (mine["is_staff"], mine["is_auditor"]) == (True, True)
