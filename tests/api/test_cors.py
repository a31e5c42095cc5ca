"""CORS (issue 14): a browser app on an origin in ``CORS_ALLOWED_ORIGINS`` may call the API (its
preflight is answered without a token, then the request itself), one on any other origin gets no
allow header, so the browser refuses it. Before, the preflight got 401 and no browser app worked."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.api.play import person

pytestmark = pytest.mark.django_db

APP = "https://app.example.com"
OTHER = "https://evil.example.net"


@pytest.fixture(autouse=True)
def allowed(settings):
    settings.CORS_ALLOWED_ORIGINS = [APP]


def preflight(origin: str, method: str = "POST", headers: str = "authorization, content-type, idempotency-key"):
    return APIClient().options(
        "/api/v1/tables/",
        HTTP_ORIGIN=origin,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD=method,
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS=headers,
    )


def test_the_preflight_from_an_allowed_origin_is_answered_without_a_token():
    answer = preflight(APP)
    assert answer.status_code == 200
    assert answer["Access-Control-Allow-Origin"] == APP
    assert "POST" in answer["Access-Control-Allow-Methods"]
    allowed = {h.strip().lower() for h in answer["Access-Control-Allow-Headers"].split(",")}
    assert {"authorization", "content-type", "idempotency-key", "if-none-match", "last-event-id"} <= allowed
    # Tokens travel in a header: no cookies across origins.
    assert "Access-Control-Allow-Credentials" not in answer


def test_the_request_itself_from_an_allowed_origin_succeeds_and_exposes_the_headers_a_client_reads(counter_game):
    alice = person("alice")
    answer = alice.post(
        "/api/v1/tables/",
        {"game": "counter", "seats": 2, "options": {}},
        format="json",
        HTTP_ORIGIN=APP,
        HTTP_IDEMPOTENCY_KEY="cors-1",
    )
    assert answer.status_code == 201, answer.json()
    assert answer["Access-Control-Allow-Origin"] == APP
    exposed = {h.strip().lower() for h in answer["Access-Control-Expose-Headers"].split(",")}
    assert {"etag", "idempotent-replayed", "retry-after"} <= exposed


def test_another_origin_gets_no_allow_header_so_the_browser_refuses(counter_game):
    answer = preflight(OTHER)
    assert "Access-Control-Allow-Origin" not in answer
    assert "Access-Control-Allow-Headers" not in answer
    alice = person("alice")
    read = alice.get("/api/v1/tables/", HTTP_ORIGIN=OTHER)
    assert "Access-Control-Allow-Origin" not in read


def test_no_origin_is_allowed_unless_listed(settings):
    settings.CORS_ALLOWED_ORIGINS = []
    assert "Access-Control-Allow-Origin" not in preflight(APP)


def test_an_error_to_an_allowed_origin_carries_the_allow_header_so_the_app_can_read_it():
    refused = APIClient().get("/api/v1/tables/", HTTP_ORIGIN=APP)
    assert refused.status_code == 401
    assert refused["Access-Control-Allow-Origin"] == APP
    assert refused.json()["code"] == "not_authenticated"


def test_only_the_api_answers_cors():
    answer = APIClient().options("/admin/login/", HTTP_ORIGIN=APP, HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST")
    assert "Access-Control-Allow-Origin" not in answer
