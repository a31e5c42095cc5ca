"""The edges of the API (issue 22): a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` is a JSON 413, not
a 500 with a traceback; an unknown ``/api/`` URL is a 404 before any CSRF check, for a client with
a token too; and every request field takes only the JSON type the document gives it (DRF's fields
coerce a number into a string, ``"7"`` into an integer). Each failed on the code before."""

from __future__ import annotations

import json
import logging

import pytest
from knox.models import AuthToken
from rest_framework.test import APIClient

from games.models import Seat
from tests.api.contract import ContractClient
from tests.api.play import person
from tests.api.test_tables import new_table, started_pair

pytestmark = pytest.mark.django_db


def checked(client: APIClient) -> ContractClient:
    twin = ContractClient()
    twin.credentials(**client._credentials)
    twin.user = client.user
    return twin


# --- bodies over the limit ---------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/v1/auth/register/", "/api/v1/auth/token/", "/api/v1/tables/"])
def test_a_body_over_the_upload_limit_is_a_json_413_without_a_traceback(path, settings, caplog):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    client = ContractClient()  # checked against the document: 413 is in it
    if path == "/api/v1/tables/":
        client = checked(person("alice"))
    client.raise_request_exception = False
    body = json.dumps({"username": "alice", "password": "x" * 20_000})
    with caplog.at_level(logging.ERROR):
        response = client.post(path, body, content_type="application/json")
    assert response.status_code == 413, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    answer = response.json()
    assert answer["code"] == "request_too_large" and answer["limit"] == 10_000 and answer["status"] == 413
    assert "10000 bytes" in answer["detail"]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], "no crash is logged"


def test_the_default_upload_limit_is_djangos_and_a_body_within_it_is_read():
    from django.conf import settings

    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE == 2_621_440
    client = ContractClient()
    client.raise_request_exception = False
    body = json.dumps({"username": "alice", "password": "x" * 1_000_000})  # 1 MB: read, then refused
    response = client.post("/api/v1/auth/token/", body, content_type="application/json")
    assert response.status_code in (400, 401) and response.json()["code"] != "request_too_large"


def test_django_answers_a_body_over_the_limit_outside_drf_with_the_413_too(rf, settings):
    from django.core.exceptions import RequestDataTooBig

    from api import errors

    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    answer = errors.bad_request(rf.post("/admin/login/"), RequestDataTooBig("too big"))
    assert answer.status_code == 413 and json.loads(answer.content)["code"] == "request_too_large"


# --- unknown URLs before CSRF ------------------------------------------------------------------


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
@pytest.mark.parametrize("path", ["/api/v1/nothing-here/", "/api/v1/tables/x/nothing/", "/api/nothing/"])
def test_an_unknown_api_url_is_a_404_for_a_token_client_before_any_csrf_check(method, path):
    user = person("alice").user
    client = APIClient(enforce_csrf_checks=True)  # as a real server: CsrfViewMiddleware runs
    client.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(user)[1]}")
    response = getattr(client, method)(path, {"x": 1}, format="json")
    assert response.status_code == 404, response.content
    assert response.json()["code"] == "not_found"


def test_a_known_url_still_checks_csrf_for_a_browser_session():
    """The exemption is the unknown URLs' alone: a session's write without its token is refused."""
    user = person("alice").user
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)
    response = client.post("/api/v1/tables/", {"game": "counter", "seats": 2}, format="json")
    assert response.status_code == 403 and response.json()["code"] == "csrf_failed"


# --- strict types ------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [12345, 1.5, True, ["abc"], {"seed": "abc"}], ids=repr)
def test_a_client_seed_is_only_a_string(counter_game, seed):
    alice = person("alice")
    table_id = new_table(alice)
    assert alice.post(f"/api/v1/tables/{table_id}/join/", {}, format="json").status_code == 200
    before = Seat.objects.get(table_id=table_id, user=alice.user).client_seed
    response = checked(alice).put(f"/api/v1/tables/{table_id}/client-seed/", {"client_seed": seed}, format="json")
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == "invalid" and list(response.json()["fields"]) == ["client_seed"]
    assert "string" in response.json()["fields"]["client_seed"][0]
    assert Seat.objects.get(table_id=table_id, user=alice.user).client_seed == before
    fine = checked(alice).put(f"/api/v1/tables/{table_id}/client-seed/", {"client_seed": "12345"}, format="json")
    assert fine.status_code == 200 and fine.json()["client_seed"] == "12345"


def coerced_requests(table_id: str) -> list[tuple[str, str, dict, str]]:
    """(method, path, body, the field refused): each value is what DRF's field would coerce."""
    return [
        ("post", "/api/v1/tables/", {"game": "counter", "seats": "2"}, "seats"),
        ("post", "/api/v1/tables/", {"game": "counter", "seats": 2.0}, "seats"),
        ("post", "/api/v1/tables/", {"game": "counter", "seats": True}, "seats"),
        ("post", "/api/v1/tables/", {"game": 7, "seats": 2}, "game"),
        ("post", f"/api/v1/tables/{table_id}/join/", {"seat": "0"}, "seat"),
        ("post", f"/api/v1/tables/{table_id}/join/", {"chips": "10"}, "chips"),
        (
            "post",
            f"/api/v1/tables/{table_id}/actions/",
            {"action": {"type": "add"}, "expected_version": "3"},
            "expected_version",
        ),
        (
            "post",
            "/api/v1/disputes/",
            {"table_id": table_id, "hand_no": "1", "category": "cards", "words": "x"},
            "hand_no",
        ),
        ("post", "/api/v1/disputes/", {"table_id": table_id, "hand_no": 1, "category": "cards", "words": 5}, "words"),
        ("post", "/api/v1/disputes/", {"table_id": table_id, "hand_no": 1, "category": True, "words": "x"}, "category"),
        ("post", "/api/v1/disputes/1/decline/", {"reason": 12}, "reason"),
        ("post", "/api/v1/payouts/1/reject/", {"reason": False}, "reason"),
        ("post", "/api/v1/wallets/alice/deposits/", {"currency": 484, "amount": "1.00"}, "currency"),
        ("put", "/api/v1/me/language/", {"language": 1}, "language"),
    ]


def test_no_request_field_coerces_another_json_type(counter_game):
    alice = person("alice", staff=True)
    table_id = new_table(alice)
    client = checked(alice)
    for method, path, body, field in coerced_requests(table_id):
        response = getattr(client, method)(path, body, format="json")
        assert response.status_code == 400, (path, body, response.json())
        assert field in response.json().get("fields", {}), (path, body, response.json())


@pytest.mark.parametrize("path", ["/api/v1/auth/register/", "/api/v1/auth/token/"])
def test_a_username_is_only_a_string_at_register_and_token(path):
    client = ContractClient()
    response = client.post(path, {"username": 12345678, "password": "a long enough secret"}, format="json")
    assert response.status_code == 400, response.json()
    assert "username" in response.json()["fields"]


def test_the_documented_types_are_still_taken(counter_game):
    alice, bob = person("alice"), person("bob")
    table_id = started_pair(alice, bob)
    view = alice.get(f"/api/v1/tables/{table_id}/").json()  # counter is no game of the document
    mover = alice if view["to_act"] == [0] else bob
    body = {"action": {"type": "add", "amount": 1}, "expected_version": view["version"]}
    assert mover.post(f"/api/v1/tables/{table_id}/actions/", body, format="json").status_code == 200
    # At a game of the document: a table is one of its games' tables, and its answer is checked.
    euchre = new_table(alice, game="euchre", seats=4)
    nulls = checked(person("carol")).post(f"/api/v1/tables/{euchre}/join/", {"seat": None}, format="json")
    assert nulls.status_code == 200, nulls.json()


@pytest.mark.parametrize("method", ["post", "put", "delete"])
@pytest.mark.parametrize("path", ["/api/v1/nothing-here", "/api/v1/tables/x/nothing", "/api/nothing"])
def test_an_unknown_api_url_without_its_slash_is_a_404_too(method, path):
    """APPEND_SLASH answered these with a redirect to another unknown URL (and a write, with DEBUG
    on, with a 500); they are the JSON 404 like the rest."""
    user = person("alice").user
    client = APIClient(enforce_csrf_checks=True)
    client.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(user)[1]}")
    response = getattr(client, method)(path, {"x": 1}, format="json")
    assert response.status_code == 404, response.content
    assert response.json()["code"] == "not_found"


def test_a_known_api_url_without_its_slash_is_redirected_keeping_the_method():
    """A write is sent on with 308, which keeps its method and body; a read with 301, as before."""
    client = APIClient()
    write = client.post("/api/v1/auth/register?next=1", {"username": "bob"}, format="json")
    assert write.status_code == 308 and write["Location"] == "/api/v1/auth/register/?next=1"
    read = client.get("/api/v1/games")
    assert read.status_code == 301 and read["Location"] == "/api/v1/games/"


def test_a_write_without_its_slash_is_not_a_500_with_debug_on(settings):
    settings.DEBUG = True
    client = APIClient()
    client.raise_request_exception = False
    assert client.post("/api/v1/auth/token", {}, format="json").status_code == 308
    assert client.post("/api/v1/nowhere", {}, format="json").status_code == 404
