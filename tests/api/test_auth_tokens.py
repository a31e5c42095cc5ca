"""Per-device tokens (issue 14): each login is a token of its own with an expiry, listed by device,
revoked one at a time, all at once or by the request itself; an expired or revoked token is 401."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from api.models import TokenDevice

pytestmark = pytest.mark.django_db

PASSWORD = "a long passphrase"
RFC3339_UTC = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")


@pytest.fixture
def alice():
    return get_user_model().objects.create_user(username="alice", password=PASSWORD)


def login(device: str | None = None, username: str = "alice", password: str = PASSWORD):
    body = {"username": username, "password": password}
    if device is not None:
        body["device"] = device
    return APIClient().post("/api/v1/auth/token/", body, format="json")


def with_token(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def test_a_login_returns_a_new_token_with_its_device_and_an_expiry_from_the_ttl(alice, settings):
    answer = login("Alice's phone")
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert set(body) == {"username", "token", "id", "device", "expiry"}
    assert body["username"] == "alice" and body["device"] == "Alice's phone"
    assert RFC3339_UTC.match(body["expiry"]), body["expiry"]
    expiry = datetime.strptime(body["expiry"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    expected = timezone.now() + timedelta(hours=settings.TOKEN_TTL_HOURS)
    assert abs((expiry - expected).total_seconds()) < 60
    # Stored hashed only: the key is nowhere in the table.
    assert not AuthToken.objects.filter(digest=body["token"]).exists()
    assert with_token(body["token"]).get("/api/v1/tables/").status_code == 200


def test_registration_returns_a_token_too():
    answer = APIClient().post(
        "/api/v1/auth/register/", {"username": "bob", "password": PASSWORD, "device": "laptop"}, format="json"
    )
    assert answer.status_code == 201, answer.json()
    assert answer.json()["device"] == "laptop" and RFC3339_UTC.match(answer.json()["expiry"])
    assert with_token(answer.json()["token"]).get("/api/v1/tables/").status_code == 200


def test_the_token_ttl_comes_from_the_settings(alice, settings):
    settings.REST_KNOX = {**settings.REST_KNOX, "TOKEN_TTL": timedelta(hours=2)}
    body = login().json()
    expiry = datetime.strptime(body["expiry"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    assert abs((expiry - (timezone.now() + timedelta(hours=2))).total_seconds()) < 60


def test_each_device_has_its_own_token_and_the_list_shows_devices_never_tokens(alice):
    phone, laptop = login("phone").json(), login("laptop").json()
    assert phone["token"] != laptop["token"]
    listed = with_token(phone["token"]).get("/api/v1/auth/tokens/")
    assert listed.status_code == 200
    assert listed.json()["has_more"] is False and listed.json()["next_cursor"] is None
    rows = listed.json()["results"]
    assert [row["device"] for row in rows] == ["laptop", "phone"]  # newest first
    assert {row["id"] for row in rows} == {phone["id"], laptop["id"]}
    assert [row["current"] for row in rows] == [False, True]
    assert all(set(row) == {"id", "device", "created", "expiry", "current"} for row in rows)
    text = listed.content.decode()
    for token in (phone["token"], laptop["token"]):
        assert token not in text and token[:15] not in text


def test_another_persons_tokens_are_not_listed_nor_revocable(alice):
    mine = login("phone").json()
    get_user_model().objects.create_user(username="bob", password=PASSWORD)
    bob = login("bob's", username="bob").json()
    assert [row["id"] for row in with_token(bob["token"]).get("/api/v1/auth/tokens/").json()["results"]] == [bob["id"]]
    refused = with_token(bob["token"]).delete(f"/api/v1/auth/tokens/{mine['id']}/")
    assert refused.status_code == 404 and refused.json()["code"] == "not_found"
    assert with_token(mine["token"]).get("/api/v1/tables/").status_code == 200


def test_logout_revokes_only_the_token_used(alice):
    phone, laptop = login("phone").json(), login("laptop").json()
    out = with_token(phone["token"]).post("/api/v1/auth/logout/")
    assert out.status_code == 204
    refused = with_token(phone["token"]).get("/api/v1/tables/")
    assert refused.status_code == 401
    assert refused.json()["code"] == "authentication_failed"
    assert "revoked" in refused.json()["detail"]
    assert with_token(laptop["token"]).get("/api/v1/tables/").status_code == 200


def test_logout_all_revokes_every_token_of_the_person_only(alice):
    phone, laptop = login("phone").json(), login("laptop").json()
    get_user_model().objects.create_user(username="bob", password=PASSWORD)
    bob = login(username="bob").json()
    out = with_token(phone["token"]).post("/api/v1/auth/logout-all/")
    assert out.status_code == 200 and out.json() == {"revoked": 2}
    for token in (phone["token"], laptop["token"]):
        assert with_token(token).get("/api/v1/tables/").status_code == 401
    assert with_token(bob["token"]).get("/api/v1/tables/").status_code == 200


def test_revoking_one_device_by_its_id(alice):
    phone, laptop = login("phone").json(), login("laptop").json()
    gone = with_token(laptop["token"]).delete(f"/api/v1/auth/tokens/{phone['id']}/")
    assert gone.status_code == 204
    assert with_token(phone["token"]).get("/api/v1/tables/").status_code == 401
    assert not TokenDevice.objects.filter(name="phone").exists()
    again = with_token(laptop["token"]).delete(f"/api/v1/auth/tokens/{phone['id']}/")
    assert again.status_code == 404 and again.json()["code"] == "not_found"
    bad = with_token(laptop["token"]).delete("/api/v1/auth/tokens/not-an-id/")
    assert bad.status_code == 404 and bad.json()["code"] == "not_found"


def test_an_expired_token_is_refused_with_401_and_left_out_of_the_list(alice):
    old, fresh = login("old").json(), login("fresh").json()
    AuthToken.objects.filter(digest__startswith=old["id"]).update(expiry=timezone.now() - timedelta(seconds=1))
    assert [row["device"] for row in with_token(fresh["token"]).get("/api/v1/auth/tokens/").json()["results"]] == [
        "fresh"
    ]
    refused = with_token(old["token"]).get("/api/v1/tables/")
    assert refused.status_code == 401
    assert refused.json()["code"] == "authentication_failed"
    assert refused.headers["WWW-Authenticate"] == "Token"


def test_an_unknown_or_garbled_token_is_401_in_the_error_shape(alice):
    for header in ("Token 0123456789abcdef", "Token caf\xe9"):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=header)
        refused = client.get("/api/v1/tables/")
        assert refused.status_code == 401, header
        assert refused.json()["code"] == "authentication_failed"


def test_logout_needs_a_token(alice):
    refused = APIClient().post("/api/v1/auth/logout/")
    assert refused.status_code == 401 and refused.json()["code"] == "not_authenticated"


def test_a_wrong_password_gets_no_token(alice):
    refused = login(password="wrong one")
    assert refused.status_code == 400 and refused.json()["code"] == "authentication_failed"
    assert not AuthToken.objects.exists()


def test_a_client_still_sending_its_expired_token_can_log_in_again(alice):
    old = login("phone").json()
    AuthToken.objects.filter(digest__startswith=old["id"]).update(expiry=timezone.now() - timedelta(seconds=1))
    client = with_token(old["token"])
    assert client.get("/api/v1/tables/").status_code == 401
    again = client.post("/api/v1/auth/token/", {"username": "alice", "password": PASSWORD}, format="json")
    assert again.status_code == 200, again.json()
    assert with_token(again.json()["token"]).get("/api/v1/tables/").status_code == 200


def test_beat_purges_expired_tokens_and_their_devices_only(alice, settings):
    from api import tasks

    assert settings.CELERY_BEAT_SCHEDULE["purge-expired-tokens"]["task"] == "api.tasks.purge_expired_tokens"
    old, fresh = login("old").json(), login("fresh").json()
    AuthToken.objects.filter(digest__startswith=old["id"]).update(expiry=timezone.now() - timedelta(seconds=1))
    assert tasks.purge_expired_tokens(batch=1) == 1
    assert list(TokenDevice.objects.values_list("name", flat=True)) == ["fresh"]
    assert with_token(fresh["token"]).get("/api/v1/tables/").status_code == 200
    assert tasks.purge_expired_tokens() == 0


def test_presenting_a_token_deletes_the_persons_other_expired_tokens_with_knoxs_signal(alice):
    """The one statement that reads the token also tells whether the person holds expired tokens
    besides it; knox's cleanup then deletes them (and says ``token_expired`` for each), as before."""
    from knox.signals import token_expired

    old, fresh = login("old").json(), login("fresh").json()
    AuthToken.objects.filter(digest__startswith=old["id"]).update(expiry=timezone.now() - timedelta(seconds=1))
    said = []

    def heard(sender, username, source, **kwargs):
        said.append((username, source))

    token_expired.connect(heard)
    try:
        assert with_token(fresh["token"]).get("/api/v1/tables/").status_code == 200
    finally:
        token_expired.disconnect(heard)
    assert said == [("alice", "other_token")]
    assert not AuthToken.objects.filter(digest__startswith=old["id"]).exists()
    assert AuthToken.objects.filter(digest__startswith=fresh["id"]).exists()


def test_an_expired_token_presented_is_deleted_and_said_expired(alice):
    from knox.signals import token_expired

    old = login("old").json()
    AuthToken.objects.filter(digest__startswith=old["id"]).update(expiry=timezone.now() - timedelta(seconds=1))
    said = []

    def heard(sender, username, source, **kwargs):
        said.append((username, source))

    token_expired.connect(heard)
    try:
        assert with_token(old["token"]).get("/api/v1/tables/").status_code == 401
    finally:
        token_expired.disconnect(heard)
    assert said == [("alice", "auth_token")]
    assert not AuthToken.objects.filter(digest__startswith=old["id"]).exists()


def test_an_inactive_persons_token_is_refused_in_knoxs_words(alice):
    token = login().json()["token"]
    get_user_model().objects.filter(pk=alice.pk).update(is_active=False)
    refused = with_token(token).get("/api/v1/tables/")
    assert refused.status_code == 401
    assert refused.json()["code"] == "authentication_failed"
    assert refused.json()["detail"] == "User inactive or deleted."


def test_auto_refresh_renews_the_expiry_only_past_the_min_refresh_interval(alice, settings):
    """knox's AUTO_REFRESH, kept: a token presented gets a new expiry a TTL from now, written only
    when that moves it by more than MIN_REFRESH_INTERVAL seconds."""
    settings.REST_KNOX = {**settings.REST_KNOX, "AUTO_REFRESH": True, "MIN_REFRESH_INTERVAL": 600}
    ttl = settings.REST_KNOX["TOKEN_TTL"]
    body = login().json()
    row = AuthToken.objects.filter(digest__startswith=body["id"])
    near = timezone.now() + ttl - timedelta(seconds=300)
    row.update(expiry=near)
    assert with_token(body["token"]).get("/api/v1/tables/").status_code == 200
    assert row.get().expiry == near  # moved by about 300 s: not written
    far = timezone.now() + ttl - timedelta(hours=1)
    row.update(expiry=far)
    assert with_token(body["token"]).get("/api/v1/tables/").status_code == 200
    renewed = row.get().expiry
    assert abs((renewed - (timezone.now() + ttl)).total_seconds()) < 60


def test_a_token_request_reads_the_token_once_with_the_language_preference(alice):
    """One statement reads the token, the person and their language preference (issue 24)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from api.models import LanguagePreference

    token = login().json()["token"]
    LanguagePreference.objects.create(user=alice, language="es-mx")
    with CaptureQueriesContext(connection) as queries:
        answer = with_token(token).get("/api/v1/tables/", HTTP_ACCEPT_LANGUAGE="fa")
    assert answer.status_code == 200 and answer["Content-Language"] == "es-mx"
    statements = [query["sql"] for query in queries.captured_queries]
    assert len([sql for sql in statements if 'FROM "knox_authtoken"' in sql]) == 1, statements
    assert not [sql for sql in statements if 'FROM "api_languagepreference"' in sql], statements


def test_the_token_check_follows_the_knox_it_was_read_from():
    """api/authentication.py's TokenAuthentication repeats knox 5.1's ``authenticate_credentials``
    (with one statement for its two reads): another knox needs its knox/auth.py read again first."""
    from importlib.metadata import version

    assert version("django-rest-knox") == "5.1.0"


# --- bounded per person -------------------------------------------------------------------------


def test_a_login_past_the_cap_revokes_the_oldest_token_first(alice, settings):
    settings.MAX_TOKENS_PER_PERSON = 3
    first, second, third = login("first").json(), login("second").json(), login("third").json()
    fourth = login("fourth").json()
    assert with_token(first["token"]).get("/api/v1/tables/").status_code == 401
    for kept in (second, third, fourth):
        assert with_token(kept["token"]).get("/api/v1/tables/").status_code == 200
    listed = with_token(fourth["token"]).get("/api/v1/auth/tokens/").json()["results"]
    assert [row["device"] for row in listed] == ["fourth", "third", "second"]
    assert AuthToken.objects.filter(user=alice).count() == 3
    assert not TokenDevice.objects.filter(name="first").exists()


def test_registration_counts_against_the_cap_too(settings):
    settings.MAX_TOKENS_PER_PERSON = 1
    made = APIClient().post("/api/v1/auth/register/", {"username": "bob", "password": PASSWORD}, format="json")
    assert made.status_code == 201
    again = login(username="bob")
    assert with_token(made.json()["token"]).get("/api/v1/tables/").status_code == 401
    assert with_token(again.json()["token"]).get("/api/v1/tables/").status_code == 200


def test_the_token_list_is_paged_newest_first(alice):
    devices = [f"device {n}" for n in range(5)]
    tokens = [login(device).json() for device in devices]
    client = with_token(tokens[-1]["token"])
    first = client.get("/api/v1/auth/tokens/?limit=2").json()
    assert [row["device"] for row in first["results"]] == ["device 4", "device 3"] and first["has_more"]
    rest = client.get(f"/api/v1/auth/tokens/?limit=3&cursor={first['next_cursor']}").json()
    assert [row["device"] for row in rest["results"]] == ["device 2", "device 1", "device 0"]
    assert not rest["has_more"] and rest["next_cursor"] is None
    refused = client.get("/api/v1/auth/tokens/?limit=101")
    assert refused.status_code == 400 and refused.json()["code"] == "invalid"


def test_logins_at_once_never_pass_the_cap(postgres_tx, settings):
    """Eight logins of one person race at a cap of three: the person's row lock makes each count
    the others' tokens, so three remain, the newest."""
    from api.auth_views import issue_token
    from tests.ledger.test_concurrency import race

    settings.MAX_TOKENS_PER_PERSON = 3
    alice = get_user_model().objects.create_user(username="alice", password=PASSWORD)
    results = race(8, lambda i: issue_token(None, alice, f"device {i}"))
    assert all(isinstance(result, dict) for result in results), results
    assert AuthToken.objects.filter(user=alice).count() == 3
    assert TokenDevice.objects.count() == 3
