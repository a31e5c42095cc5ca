"""Wallets, transactions and staff deposits over HTTP."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from ledger import keys, services
from ledger.models import Transaction
from ledger.selectors import balance_of


@pytest.fixture
def people(db):
    users = get_user_model().objects
    return {
        "alice": users.create_user("alice"),
        "bob": users.create_user("bob"),
        "carol": users.create_user("carol", is_staff=True),
    }


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def deposit(as_user, username, body, **headers):
    return client_for(as_user).post(f"/api/v1/wallets/{username}/deposits/", body, format="json", headers=headers)


def test_staff_deposit_fills_the_wallet(people):
    response = deposit(people["carol"], "alice", {"currency": "MXN", "amount": "100.00"})
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["wallet"] == {"currency": "MXN", "balance": "100.00", "balance_minor": 10000}
    wallet = keys.wallet_key(people["alice"].pk, "MXN")
    assert {(p["account"], p["amount"], p["amount_minor"]) for p in body["transaction"]["postings"]} == {
        (wallet, "100.00", 10000),
        ("house:cash:MXN", "-100.00", -10000),
    }
    assert balance_of(key=wallet) == 10000


def test_a_player_cannot_deposit(people):
    response = deposit(people["alice"], "alice", {"currency": "MXN", "amount": "100.00"})
    assert response.status_code == 403
    assert response.json()["code"] == "forbidden"
    assert not Transaction.objects.exists()


def test_anonymous_cannot_deposit(people):
    response = APIClient().post("/api/v1/wallets/alice/deposits/", {"currency": "MXN", "amount": "1"}, format="json")
    assert response.status_code == 401


def test_deposit_to_an_unknown_user_is_404(people):
    response = deposit(people["carol"], "nobody", {"currency": "MXN", "amount": "1.00"})
    assert response.status_code == 404
    body = response.json()
    assert (body["code"], body["detail"], body["status"]) == ("not_found", "No user named 'nobody'.", 404)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"currency": "MXN", "amount": "100.001"}, "amount: '100.001' has 3 decimal places; MXN allows 2"),
        ({"currency": "MXN", "amount": 100.5}, 'amount: Send the amount as a decimal string such as "100.00"'),
        ({"currency": "MXN", "amount": "ten"}, "amount: 'ten' is not a decimal amount"),
        ({"currency": "MXN", "amount": "0.00"}, "amount: A deposit must be more than zero."),
        ({"currency": "MXN", "amount": "-5.00"}, "amount: A deposit must be more than zero."),
        ({"currency": "XYZ", "amount": "1.00"}, "currency: Unknown currency 'XYZ'"),
        ({"currency": "CHIP", "amount": "1"}, "currency: Unknown currency 'CHIP'"),
        ({"currency": "MXN"}, "amount: This field is required."),
        ({"currency": "MXN", "amount": "1.00", "user": "bob"}, "user: Unknown field."),
    ],
)
def test_bad_deposits_are_400_with_a_clear_message(people, body, message):
    response = deposit(people["carol"], "alice", body)
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == "invalid"
    assert message in response.json()["detail"]
    # One shape for every validation error: fields maps each field at fault to its messages.
    name = message.split(":")[0]
    assert isinstance(response.json()["fields"][name], list), response.json()
    assert not Transaction.objects.exists()


def test_malformed_json_is_400(people):
    response = client_for(people["carol"]).post(
        "/api/v1/wallets/alice/deposits/", "{not json", content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "malformed_request"


def test_a_repeated_idempotency_key_deposits_once(people):
    body = {"currency": "MXN", "amount": "25.00"}
    first = deposit(people["carol"], "alice", body, **{"Idempotency-Key": "abc"})
    again = deposit(people["carol"], "alice", body, **{"Idempotency-Key": "abc"})
    assert first.status_code == again.status_code == 201
    assert again.json()["transaction"]["id"] == first.json()["transaction"]["id"]
    assert balance_of(key=keys.wallet_key(people["alice"].pk, "MXN")) == 2500

    changed = deposit(people["carol"], "alice", {"currency": "MXN", "amount": "30.00"}, **{"Idempotency-Key": "abc"})
    assert changed.status_code == 422
    assert changed.json()["code"] == "idempotency_key_reused"
    assert balance_of(key=keys.wallet_key(people["alice"].pk, "MXN")) == 2500


def test_wallets_me_lists_each_currency(people):
    carol, alice = people["carol"], people["alice"]
    services.deposit(user=alice, currency="MXN", amount_minor=12345, by=carol)
    services.deposit(user=alice, currency="JPY", amount_minor=500, by=carol)
    response = client_for(alice).get("/api/v1/wallets/me/")
    assert response.status_code == 200
    assert response.json() == {
        "wallets": [
            {"currency": "JPY", "balance": "500", "balance_minor": 500},
            {"currency": "MXN", "balance": "123.45", "balance_minor": 12345},
        ]
    }
    assert client_for(people["bob"]).get("/api/v1/wallets/me/").json() == {"wallets": []}


def test_transactions_are_the_callers_own_and_paginated(people):
    carol, alice, bob = people["carol"], people["alice"], people["bob"]
    for i in range(3):
        services.deposit(user=alice, currency="MXN", amount_minor=100 * (i + 1), by=carol)
    services.deposit(user=bob, currency="MXN", amount_minor=999, by=carol)

    page = client_for(alice).get("/api/v1/ledger/transactions/?limit=2").json()
    assert [t["memo"] for t in page["results"]] == [
        "Deposit of 3.00 MXN recorded by carol",
        "Deposit of 2.00 MXN recorded by carol",
    ]
    assert page["has_more"] is True and page["next_cursor"]
    assert len(page["results"][0]["postings"]) == 2
    rest = client_for(alice).get(f"/api/v1/ledger/transactions/?limit=2&cursor={page['next_cursor']}").json()
    assert [t["memo"] for t in rest["results"]] == ["Deposit of 1.00 MXN recorded by carol"]
    assert rest["has_more"] is False and rest["next_cursor"] is None
    assert len(client_for(bob).get("/api/v1/ledger/transactions/").json()["results"]) == 1


def test_the_schema_documents_the_ledger_endpoints(people):
    schema = client_for(people["alice"]).get("/api/schema/", HTTP_ACCEPT="application/json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    assert {"/api/v1/wallets/me/", "/api/v1/ledger/transactions/", "/api/v1/wallets/{username}/deposits/"} <= set(paths)
    deposit_op = paths["/api/v1/wallets/{username}/deposits/"]["post"]
    assert {"Idempotency-Key"} <= {p["name"] for p in deposit_op["parameters"]}
    assert {"201", "400", "403", "404"} <= set(deposit_op["responses"])
