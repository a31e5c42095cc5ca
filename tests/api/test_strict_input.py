"""Strict input and errors always in the JSON shape (issue 12, item 7).

Each test failed on the code before: deep JSON and a 5,000-digit amount answered a 500, amounts
took ``"1.00\\n"``, Arabic-Indic digits and JSON numbers, one idempotency key at two tables at once
met the unique constraint as a 500, there was no connection health check, and Django's 404 and 500
pages were HTML."""

from __future__ import annotations

import json

import pytest
from django.db import OperationalError
from django.test import override_settings
from django.urls import path
from rest_framework.test import APIClient

from api import views
from games import idempotency
from games.models import CommandRecord, Event
from tests.api.play import person
from tests.api.test_tables import started_pair, table

pytestmark = pytest.mark.django_db


def quiet(client: APIClient) -> APIClient:
    """The client answers a crash as the server would, instead of raising it into the test."""
    client.raise_request_exception = False
    return client


def post_raw(client: APIClient, url: str, text: str):
    return client.post(url, text, content_type="application/json")


# --- the parser --------------------------------------------------------------------------------


def test_deeply_nested_json_is_a_400_not_a_500():
    alice = quiet(person("alice"))
    for depth in (21, 100_000):
        response = post_raw(alice, "/api/v1/tables/", "[" * depth + "]" * depth)
        assert response.status_code == 400, depth
        assert response.json()["code"] == "malformed_request"
        assert "nested deeper than 20" in response.json()["detail"]


def test_json_within_the_depth_limit_and_brackets_in_strings_are_fine():
    alice = person("alice")
    nested = {"a": [[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]}
    body = {"game": "counter-nope", "seats": 2, "options": {"x": "[[[[[[[[[[[[[[[[[[[[[[[[[", "n": nested}}
    response = alice.post("/api/v1/tables/", body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"  # the unknown game, not the parser


def short(value) -> str:
    return repr(value)[:16]


@pytest.mark.parametrize("number", ["1" * 31, "1" * 5000, "1." + "0" * 40, "1e999", "NaN", "-Infinity"], ids=short)
def test_long_or_non_finite_json_numbers_are_refused(number):
    alice = quiet(person("alice"))
    response = post_raw(alice, "/api/v1/tables/", f'{{"game": "la-viuda", "seats": {number}}}')
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "malformed_request"


# --- amounts -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "amount",
    ["1.00\n", "\u0661\u0660\u0660", "\uff11\uff10\uff10", "1" * 5000, 100, 1.5, "1.00 ", "+1.00", "1e2"],
    ids=short,
)
def test_a_deposit_amount_is_only_a_decimal_string_of_ascii_digits(amount):
    staff = quiet(person("sam", staff=True))
    person("alice")
    response = staff.post("/api/v1/wallets/alice/deposits/", {"currency": "MXN", "amount": amount}, format="json")
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "invalid"
    assert "amount" in body["fields"], body


@pytest.mark.parametrize("chip_value", [5, 5.0, "5.00\n", "\u0665.00", "9" * 5000], ids=short)
def test_a_stake_is_only_a_decimal_string_and_the_refusal_names_the_field(chip_value):
    alice = quiet(person("alice"))
    response = alice.post(
        "/api/v1/tables/",
        {"game": "la-viuda", "seats": 4, "stake": {"currency": "MXN", "chip_value": chip_value}},
        format="json",
    )
    assert response.status_code == 400, response.content
    assert list(response.json()["fields"]) == ["stake"]
    assert "stake.chip_value" in response.json()["detail"]


# --- one key, two tables -----------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_one_idempotency_key_at_two_tables_at_once_is_a_409_not_a_500(counter_game, monkeypatch):
    """The race itself needs two connections; here the second request misses the first one's
    record exactly as it does when both look before either commits."""
    alice, bob = quiet(person("alice")), quiet(person("bob"))
    first_table, second_table = started_pair(alice, bob), started_pair(alice, bob)
    # The same person must act at both tables: where bob (seat 1) is to act first, he adds once
    # with a key of his own, and the counter game's turn passes to alice.
    for table_id in (first_table, second_table):
        view = table(bob, table_id)
        if view["to_act"] == [1]:
            moved = bob.post(
                f"/api/v1/tables/{table_id}/actions/",
                {"action": {"type": "add", "amount": 1}, "expected_version": view["version"]},
                format="json",
                headers={"Idempotency-Key": f"bob-{table_id}"},
            )
            assert moved.status_code == 200, moved.content
    views_of = {t: table(alice, t) for t in (first_table, second_table)}
    assert all(view["to_act"] == [0] for view in views_of.values())
    mover = alice
    body = {"action": {"type": "add", "amount": 1}, "expected_version": views_of[first_table]["version"]}
    headers = {"Idempotency-Key": "same"}
    first = mover.post(f"/api/v1/tables/{first_table}/actions/", body, format="json", headers=headers)
    assert first.status_code == 200, first.json()
    # Whether read with the table's lock or on its own, the record is missed.
    monkeypatch.setattr(idempotency, "_live", lambda previous: None)
    before = Event.objects.filter(table_id=second_table).count()
    body["expected_version"] = views_of[second_table]["version"]
    second = mover.post(f"/api/v1/tables/{second_table}/actions/", body, format="json", headers=headers)
    assert second.status_code == 409, second.content
    assert second.json()["code"] == "idempotency_key_in_use"
    assert Event.objects.filter(table_id=second_table).count() == before
    assert CommandRecord.objects.filter(key="same").count() == 1


# --- the database ------------------------------------------------------------------------------


def test_connections_are_health_checked_before_reuse(settings, monkeypatch):
    from config.databases import database

    assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] is True
    monkeypatch.setenv("DATABASE_URL", "postgres://u:p@db.example:5432/games")
    for pool in (True, False):
        assert database(data_dir=settings.DATA_DIR, pool=pool)["CONN_HEALTH_CHECKS"] is True


def test_a_database_out_of_reach_is_a_503_in_the_json_shape(monkeypatch):
    def down(self, request):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(views.GamesView, "get", down)
    response = quiet(APIClient()).get("/api/v1/games/")
    assert response.status_code == 503
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "service_unavailable"
    assert response["Retry-After"]


def test_the_cache_out_of_reach_is_a_503_in_the_json_shape(monkeypatch):
    """The chaos test's Redis cut answered 500s: throttles count in the shared cache, and a cache
    that cannot be reached is, like the database, worth a retry rather than a bug report."""
    from django.core.cache import cache
    from redis.exceptions import ConnectionError as RedisConnectionError

    def unreachable(*args, **kwargs):
        raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    for method in ("get", "get_many", "add", "incr", "decr", "set"):
        monkeypatch.setattr(cache, method, unreachable)
    response = quiet(APIClient()).get("/api/v1/games/")
    assert response.status_code == 503
    assert response.json()["code"] == "service_unavailable"
    assert "cache" in response.json()["detail"]


# --- every error in the JSON shape ------------------------------------------------------------


def test_a_crash_in_an_api_view_is_a_json_500(monkeypatch):
    def crash(self, request):
        raise RuntimeError("boom")

    monkeypatch.setattr(views.GamesView, "get", crash)
    response = quiet(APIClient()).get("/api/v1/games/")
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["code"] == "server_error"
    assert "boom" not in json.dumps(body)  # nothing of the crash's insides reaches the client


def _crashing_view(request):
    raise RuntimeError("boom outside DRF")


urlpatterns = [path("boom/", _crashing_view)]
handler500 = "api.errors.server_error"
handler404 = "api.errors.not_found"


@override_settings(ROOT_URLCONF=__name__)
def test_a_crash_outside_drf_is_a_json_500_through_handler500():
    response = quiet(APIClient()).get("/boom/")
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "server_error"


def test_the_project_names_json_error_handlers():
    from config import urls

    assert urls.handler500 == "api.errors.server_error"
    assert urls.handler404 == "api.errors.not_found"


@pytest.mark.parametrize("url", ["/api/v1/nothing-here/", "/api/v2/", "/api/v1/tables/x/y/z/"])
def test_an_unknown_api_url_is_a_json_404(url):
    response = quiet(person("alice")).get(url)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "not_found"


@pytest.mark.parametrize("url", ["/api/v1/nothing-here/", "/api/v2/", "/api/v1/tables/x/y/z/"])
def test_an_unknown_api_url_is_a_json_404_with_debug_on_too(url, settings):
    """With DEBUG on Django answers an unresolved URL with its HTML page; /api/ has a catch-all."""
    settings.DEBUG = True
    response = quiet(person("alice")).post(url, {}, format="json")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "not_found"


def test_a_method_an_endpoint_does_not_allow_is_a_json_405():
    response = quiet(person("alice")).delete("/api/v1/games/")
    assert response.status_code == 405
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "method_not_allowed"
