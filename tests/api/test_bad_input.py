"""Every endpoint answers bad input with the error shape and a 4xx, never a 500, and writes
nothing when it refuses."""

from __future__ import annotations

import itertools
import json

import pytest
from django.contrib.auth import get_user_model
from knox.models import AuthToken
from rest_framework.test import APIClient
from rest_framework.views import APIView

from games import play
from games.models import Event, Seat, Table
from ledger.models import Transaction

pytestmark = pytest.mark.django_db(transaction=True)

PATHS = [
    "/api/v1/auth/register/",
    "/api/v1/auth/token/",
    # Not auth/logout/ nor logout-all/: they take no body, and would revoke the clients' tokens.
    "/api/v1/auth/session/",
    "/api/v1/auth/tokens/{q}/",
    "/api/v1/games/",
    "/api/v1/tables/",
    "/api/v1/tables/{t}/",
    "/api/v1/tables/{t}/join/",
    "/api/v1/tables/{t}/leave/",
    "/api/v1/tables/{t}/bots/",
    "/api/v1/tables/{t}/start/",
    "/api/v1/tables/{t}/client-seed/",
    "/api/v1/tables/{t}/actions/",
    "/api/v1/tables/{t}/events/?after={q}&wait=0",
    "/api/v1/tables/{t}/hands/?limit={q}",
    "/api/v1/tables/{t}/hands/{q}/audit/",
    "/api/v1/tables/{t}/hands/1/verify/",
    "/api/v1/tables/{t}/hands/1/history.txt",
    "/api/v1/tables/{t}/replay/?version={q}",
    "/api/v1/wallets/me/",
    "/api/v1/wallets/{q}/deposits/",
    "/api/v1/ledger/transactions/?limit={q}",
    "/api/v1/payouts/?status={q}",
    "/api/v1/payouts/{q}/approve/",
    "/api/v1/payouts/{q}/reject/",
    "/api/v1/payouts/?older_than={q}&order=oldest",
    "/api/v1/deposits/{q}/reject/",
    "/api/v1/disputes/queue/?older_than={q}&table={t}",
]
TABLE_IDS = ["{table}", "00000000-0000-0000-0000-000000000000", "not-a-uuid"]
QUERY = ["1", "-1", "abc", "99999999999999999999"]
BODIES = [
    "{not json",
    "[]",
    "null",
    '"a string"',
    "12",
    '{"action": {"type": ["pass"]}, "expected_version": -3}',
    '{"action": null, "expected_version": "7"}',
    '{"game": {"x": 1}, "seats": 1e999, "options": [], "stake": "MXN"}',
    '{"seat": "one", "client_seed": 5, "currency": 1, "amount": {"v": 1}, "reason": []}',
    '{"username": "", "password": null, "extra": true}',
]


def client_for(name: str, *, staff: bool = False) -> APIClient:
    user = get_user_model().objects.create_user(username=name, is_staff=staff)
    client = APIClient(raise_request_exception=False)
    client.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(user)[1]}")
    client.user = user
    return client


# One test a path, each a few seconds, so that the suite's workers share them.
@pytest.mark.parametrize("template", PATHS)
def test_no_endpoint_answers_bad_input_with_a_500(template, task_queue, monkeypatch):
    # Throttling would answer most of these thousands of requests with 429 and hide the rest.
    monkeypatch.setattr(APIView, "get_throttles", lambda self: [])
    alice, staff = client_for("alice"), client_for("sam", staff=True)
    anonymous = APIClient(raise_request_exception=False)
    table = play.create_table(user=alice.user, game="la-viuda", seats=4)
    play.join_table(table_id=table.pk, user=alice.user, seat=0)
    for _ in range(3):
        play.add_bot(table_id=table.pk, user=alice.user)
    play.start_table(table_id=table.pk, user=alice.user)
    table.refresh_from_db()
    before = (
        Event.objects.count(),
        Seat.objects.count(),
        Table.objects.count(),
        Transaction.objects.count(),
        table.version,
    )

    checked = 0
    # The distinct paths the template makes: one without {t} or {q} is the same request whatever they are.
    paths = list(dict.fromkeys(template.format(t=t.format(table=table.pk), q=q) for t in TABLE_IDS for q in QUERY))
    for client, path in itertools.product((alice, staff, anonymous), paths):
        for method in ("get", "post", "put", "delete"):
            bodies = BODIES if method in ("post", "put") else [None]
            for body in bodies:
                call = getattr(client, method)
                response = call(path, data=body, content_type="application/json") if body is not None else call(path)
                checked += 1
                assert response.status_code < 500, (method, path, body, response.content[:300])
                assert response.status_code != 429
                if response.status_code >= 400 and response["Content-Type"].startswith("application/json"):
                    error = json.loads(response.content)
                    assert error["code"] and error["detail"], (method, path, body, error)
    table.refresh_from_db()
    after = (
        Event.objects.count(),
        Seat.objects.count(),
        Table.objects.count(),
        Transaction.objects.count(),
        table.version,
    )
    # Every body sent here is bad, so leave/ too refuses each one (it takes none) and nothing moves.
    assert after == before
    assert checked == 3 * len(paths) * (2 + 2 * len(BODIES))
