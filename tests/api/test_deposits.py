"""Large deposits on the staff desk (issue 26, item 2): listed while they wait for a second member of
staff, approved or rejected with a reason by that second person only, each decision once, every
answer as the document says, and the books balanced after a rejection."""

from __future__ import annotations

import pytest

from ledger import keys
from ledger import services as ledger
from ledger.models import Account, Transaction
from ledger.selectors import balance_of
from tests.api.contract import person

pytestmark = pytest.mark.django_db

LIMIT = 100_00


@pytest.fixture
def desk(settings):
    """alice receives; sam records a deposit above the limit; tina and uma are other staff."""
    settings.DEPOSIT_TWO_PERSON_LIMIT = LIMIT
    people = {name: person(name, staff=name != "alice") for name in ("alice", "sam", "tina", "uma")}
    large = people["sam"].post(
        "/api/v1/wallets/alice/deposits/", {"currency": "MXN", "amount": "150.00"}, format="json"
    )
    assert large.status_code == 202, large.json()
    return {**people, "pending": large.json()["pending_deposit"]}


def wallet(client) -> int:
    return balance_of(key=keys.wallet_key(client.user.pk, "MXN"))


def test_staff_list_the_deposits_waiting_for_a_second_member_of_staff(desk):
    listed = desk["tina"].get("/api/v1/deposits/?state=pending")
    assert listed.status_code == 200, listed.json()
    [row] = listed.json()["results"]
    assert row["id"] == desk["pending"] and row["state"] == "pending"
    assert (row["user"], row["recorded_by"], row["amount"], row["amount_minor"]) == ("alice", "sam", "150.00", 150_00)
    assert row["decided_by"] is None and row["reason"] is None
    assert desk["tina"].get("/api/v1/deposits/?state=rejected").json()["results"] == []
    bad = desk["tina"].get("/api/v1/deposits/?state=paid")
    assert bad.status_code == 400 and "state" in bad.json()["fields"]


def test_a_player_cannot_list_or_reject_deposits(desk):
    assert desk["alice"].get("/api/v1/deposits/").status_code == 403
    refused = desk["alice"].post(f"/api/v1/deposits/{desk['pending']}/reject/", {"reason": "no"}, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"
    assert desk["tina"].get("/api/v1/deposits/?state=pending").json()["results"][0]["state"] == "pending"


def test_a_rejection_needs_a_second_person_and_a_reason_and_returns_the_money_to_house_cash(desk):
    pending, house = desk["pending"], keys.house_cash_key("MXN")
    cash_before = balance_of(key=house)
    own = desk["sam"].post(f"/api/v1/deposits/{pending}/reject/", {"reason": "typo"}, format="json")
    assert own.status_code == 409 and own.json()["code"] == "second_approver_needed"
    blank = desk["tina"].post(f"/api/v1/deposits/{pending}/reject/", {"reason": "   "}, format="json")
    assert blank.status_code == 400 and "reason" in blank.json()["fields"]
    rejected = desk["tina"].post(f"/api/v1/deposits/{pending}/reject/", {"reason": "no bank record"}, format="json")
    assert rejected.status_code == 201, rejected.json()
    assert rejected.json()["kind"] == "deposit_rejected" and rejected.json()["memo"] == "no bank record"
    assert wallet(desk["alice"]) == 0
    assert balance_of(key=house) == cash_before + 150_00
    [row] = desk["uma"].get("/api/v1/deposits/?state=rejected").json()["results"]
    assert (row["decided_by"], row["reason"]) == ("tina", "no bank record")
    assert desk["uma"].get("/api/v1/deposits/?state=pending").json()["results"] == []
    assert ledger.reconcile().ok, ledger.reconcile().lines()


def test_a_deposit_is_decided_once_approved_or_rejected_never_both(desk):
    pending = desk["pending"]
    first = desk["tina"].post(f"/api/v1/deposits/{pending}/reject/", {"reason": "duplicate"}, format="json")
    retried = desk["tina"].post(f"/api/v1/deposits/{pending}/reject/", {"reason": "duplicate"}, format="json")
    assert retried.status_code == 201 and retried.json()["id"] == first.json()["id"]  # a retry: the same, once
    again = desk["uma"].post(f"/api/v1/deposits/{pending}/reject/", {"reason": "duplicate"}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "deposit_decided"
    assert again.json()["deposit_state"] == "rejected" and "tina" in again.json()["detail"]
    other_reason = desk["tina"].post(f"/api/v1/deposits/{pending}/reject/", {"reason": "typo"}, format="json")
    assert other_reason.status_code == 409 and other_reason.json()["code"] == "deposit_decided"
    late = desk["uma"].post(f"/api/v1/deposits/{pending}/approve/")
    assert late.status_code == 409 and late.json()["code"] == "deposit_decided"
    assert late.json()["deposit_state"] == "rejected"
    assert wallet(desk["alice"]) == 0
    assert Transaction.objects.filter(kind="deposit_rejected").count() == 1
    assert ledger.reconcile().ok, ledger.reconcile().lines()


def test_an_approved_deposit_cannot_be_rejected(desk):
    pending = desk["pending"]
    approved = desk["tina"].post(f"/api/v1/deposits/{pending}/approve/")
    assert approved.status_code == 201
    assert desk["tina"].post(f"/api/v1/deposits/{pending}/approve/").json()["id"] == approved.json()["id"]
    twice = desk["uma"].post(f"/api/v1/deposits/{pending}/approve/")
    assert twice.status_code == 409 and twice.json()["deposit_state"] == "approved"
    refused = desk["uma"].post(f"/api/v1/deposits/{pending}/reject/", {"reason": "too late"}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "deposit_decided"
    assert wallet(desk["alice"]) == 150_00
    [row] = desk["uma"].get("/api/v1/deposits/?state=approved").json()["results"]
    assert row["decided_by"] == "tina" and row["reason"] is None
    assert desk["uma"].post("/api/v1/deposits/not-a-deposit/reject/", {"reason": "x"}, format="json").status_code == 404


def test_the_deposit_list_pages_oldest_first(desk):
    second = desk["sam"].post("/api/v1/wallets/alice/deposits/", {"currency": "MXN", "amount": "200.00"}, format="json")
    first_page = desk["tina"].get("/api/v1/deposits/?state=pending&limit=1").json()
    assert [r["id"] for r in first_page["results"]] == [desk["pending"]] and first_page["has_more"]
    rest = desk["tina"].get(f"/api/v1/deposits/?state=pending&limit=1&cursor={first_page['next_cursor']}").json()
    assert [r["id"] for r in rest["results"]] == [second.json()["pending_deposit"]] and not rest["has_more"]


def test_a_deposit_refusal_is_said_in_the_readers_language(desk):
    url = f"/api/v1/deposits/{desk['pending']}/reject/"
    persian = desk["sam"].post(url, {"reason": "typo"}, format="json", HTTP_ACCEPT_LANGUAGE="fa")
    assert persian.json()["detail"].startswith("واریز بزرگ به کارمند دومی نیاز دارد")
    spanish = desk["sam"].post(url, {"reason": "typo"}, format="json", HTTP_ACCEPT_LANGUAGE="es-mx")
    assert spanish.json()["detail"].startswith("Un depósito grande necesita a una segunda persona")
    desk["tina"].post(url, {"reason": "typo"}, format="json")
    late = desk["uma"].post(f"/api/v1/deposits/{desk['pending']}/approve/", HTTP_ACCEPT_LANGUAGE="es-mx")
    assert late.json()["detail"] == f"El depósito {desk['pending']} ya fue rechazado; no se puede aprobar."


def test_reconcile_names_a_pending_deposit_emptied_without_a_decision(desk):
    account = next(a for a in Account.objects.filter(kind="pending_deposit"))
    ledger.post(
        key="sneaky",
        postings=[(account.key, "MXN", -150_00), (keys.house_cash_key("MXN"), "MXN", 150_00)],
        kind="withdrawal",
    )
    codes = {(p.code, p.subject) for p in ledger.reconcile().problems}
    assert codes == {("deposit_emptied_undecided", f"deposit:{desk['pending']}")}
