"""Bounded compensations (issue 22) through HTTP: a compensation is at most what the hand cost the
disputing player (their chips put in the pot at the table's chip value), or, for a claim on their
payout, what they paid into the table; above it only a referral remains. The house compensation
account pays within ``DISPUTE_COMPENSATION_BUDGET``. The service refuses both at the decision and
at the second approval; ``reconcile`` reports a compensation over its bound or an account past its
budget that was written around the service. Every answer is checked against the document."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from games.disputes import bounds
from games.disputes.models import Dispute
from ledger import keys
from ledger import services as ledger
from ledger.models import Payout
from ledger.selectors import balance_of
from tests.api.test_disputes import disputed_table, file, filed, plain

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def hand(counter_game, task_queue, settings):
    """test_disputes' table: in hand 1 alice put 7 chips of 0.50 MXN in the pot, bob 2."""
    return disputed_table(task_queue, settings)


def decide(client, number, compensation, **extra):
    body = {"outcome": "upheld", "reasons": "The timer played for you too early.", "compensation": compensation}
    return client.post(f"/api/v1/disputes/{number}/decide/", {**body, **extra}, format="json")


def found(report) -> set[tuple[str, str]]:
    return {(p.code, p.subject) for p in report.problems}


def test_a_compensation_of_millions_for_a_two_chip_hand_is_refused_and_moves_nothing(hand):
    """The issue's case: bob put 2 chips of 0.50 MXN in hand 1 (he bought in for 50.00 MXN); 9,999,999.00
    MXN is refused with the bound, and the dispute can still be referred."""
    number = file(hand["bob"], hand["table_id"]).json()["id"]
    wallet = keys.wallet_key(hand["bob"].user.pk, "MXN")
    before = balance_of(key=wallet)
    refused = decide(hand["ada"], number, "9999999.00")
    assert refused.status_code == 422, refused.json()
    body = refused.json()
    assert body["code"] == "compensation_over_bound" and body["bound"] == "1.00" and body["currency"] == "MXN"
    assert "1.00 MXN" in body["detail"] and "compensation" in body["fields"]
    assert balance_of(key=wallet) == before
    assert Dispute.objects.get(pk=number).state == "open" and Dispute.objects.get(pk=number).compensation == 0
    referred = hand["ada"].post(
        f"/api/v1/disputes/{number}/decide/",
        {"outcome": "upheld", "reasons": "Too much for a hand.", "referral": "other"},
        format="json",
    )
    assert referred.status_code == 200 and referred.json()["state"] == "upheld"
    assert balance_of(key=wallet) == before
    assert ledger.reconcile().ok


def test_a_compensation_of_exactly_the_hands_cost_is_accepted_and_a_cent_more_is_not(hand):
    number = filed(hand)["id"]
    dispute = Dispute.objects.get(pk=number)
    assert bounds.chips_put_in(dispute) == 7 and bounds.bound(dispute) == 350
    review = plain(hand["ada"]).get(f"/api/v1/disputes/{number}/review/").json()  # what the auditor reads
    assert review["compensation_limits"] == {
        "currency": "MXN",
        "bound": "3.50",
        "bound_minor": 350,
        "budget_left": "200000.00",  # the default budget in MXN
        "budget_left_minor": 20_000_000,
    }
    over = decide(hand["ada"], number, "3.51")
    assert over.status_code == 422 and over.json()["code"] == "compensation_over_bound"
    assert over.json()["bound"] == "3.50"
    wallet = keys.wallet_key(hand["alice"].user.pk, "MXN")
    before = balance_of(key=wallet)
    exact = decide(hand["ada"], number, "3.50")
    assert exact.status_code == 200, exact.json()
    assert exact.json()["state"] == "awaiting_approval" and exact.json()["compensation"] == "3.50"
    paid = hand["sam"].post(f"/api/v1/disputes/{number}/approve/", {}, format="json")
    assert paid.status_code == 200, paid.json()
    assert paid.json()["state"] == "upheld" and balance_of(key=wallet) == before + 350
    report = ledger.reconcile()
    assert report.ok, report.lines()


def test_a_claim_on_a_payout_is_bounded_by_what_the_player_paid_into_the_table(hand):
    """A table-level claim: alice bought in for 50.00 MXN (100 chips of 0.50)."""
    payout = Payout.objects.get(table_id=hand["table_id"], seat=0)
    number = file(hand["alice"], hand["table_id"], payout_id=payout.pk, category="money").json()["id"]
    over = decide(hand["ada"], number, "50.01")
    assert over.status_code == 422 and over.json()["bound"] == "50.00"
    exact = decide(hand["ada"], number, "50.00")
    assert exact.status_code == 200 and exact.json()["state"] == "awaiting_approval", exact.json()
    paid = hand["sam"].post(f"/api/v1/disputes/{number}/approve/", {}, format="json")
    assert paid.status_code == 200 and paid.json()["state"] == "upheld", paid.json()
    assert ledger.reconcile().ok


def test_the_second_approval_checks_the_bound_again(hand):
    """A compensation raised behind the service after the decision is refused at the approval."""
    number = filed(hand)["id"]
    assert decide(hand["ada"], number, "3.00").json()["state"] == "awaiting_approval"
    Dispute.objects.filter(pk=number).update(compensation=999_999_900)
    refused = hand["sam"].post(f"/api/v1/disputes/{number}/approve/", {}, format="json")
    assert refused.status_code == 422 and refused.json()["code"] == "compensation_over_bound"
    assert Dispute.objects.get(pk=number).transaction_id is None
    declined = hand["sam"].post(f"/api/v1/disputes/{number}/decline/", {"reason": "Far too much."}, format="json")
    assert declined.status_code == 200 and declined.json()["state"] == "under_review"


def test_the_budget_refuses_a_compensation_that_does_not_fit_at_decision_and_at_approval(hand, settings):
    settings.DISPUTE_COMPENSATION_BUDGET = 100  # 1.00 MXN
    first = filed(hand)["id"]
    paid = decide(hand["ada"], first, "0.80")  # within the two-person limit of 1.00: paid at once
    assert paid.status_code == 200 and paid.json()["state"] == "upheld", paid.json()
    second = file(hand["bob"], hand["table_id"]).json()["id"]
    refused = decide(hand["ada"], second, "0.50")
    assert refused.status_code == 422, refused.json()
    body = refused.json()
    assert body["code"] == "compensation_budget_exceeded"
    assert (body["budget"], body["left"], body["currency"]) == ("1.00", "0.20", "MXN")
    assert decide(hand["ada"], second, "0.20").json()["state"] == "upheld"
    assert balance_of(key=keys.house_compensation_key("MXN")) == -100
    assert ledger.reconcile().ok


def test_the_budget_is_checked_again_when_the_second_member_of_staff_approves(hand, settings):
    number = filed(hand)["id"]
    assert decide(hand["ada"], number, "3.00").json()["state"] == "awaiting_approval"
    wallet = keys.wallet_key(hand["alice"].user.pk, "MXN")
    before = balance_of(key=wallet)
    settings.DISPUTE_COMPENSATION_BUDGET = 200
    refused = hand["sam"].post(f"/api/v1/disputes/{number}/approve/", {}, format="json")
    assert refused.status_code == 422 and refused.json()["code"] == "compensation_budget_exceeded"
    assert refused.json()["left"] == "2.00"
    assert balance_of(key=wallet) == before
    assert Dispute.objects.get(pk=number).state == "awaiting_approval"


def test_reconcile_reports_a_compensation_over_its_bound_written_around_the_service(hand):
    """Two insiders bypass the service: they post 9,999,999.00 MXN to alice's wallet as her hand's
    compensation and make the dispute say so. The books balance; reconcile still fails."""
    number = filed(hand)["id"]
    alice = hand["alice"].user
    amount = 999_999_900
    txn = ledger.post(
        key=f"dispute:{number}:compensation",
        postings=[
            (keys.house_compensation_key("MXN"), "MXN", -amount),
            (keys.wallet_key(alice.pk, "MXN"), "MXN", amount),
        ],
        kind="dispute_compensation",
        reference=f"dispute:{number}",
        table_id=Dispute.objects.get(pk=number).table_id,
    )
    Dispute.objects.filter(pk=number).update(
        state="upheld", outcome="upheld", compensation=amount, currency="MXN", approvals_needed=2, transaction=txn
    )
    report = ledger.reconcile()
    assert not report.ok
    assert ("compensation_over_bound", f"dispute:{number}") in found(report)
    with pytest.raises(CommandError):
        call_command("reconcile")


def test_reconcile_reports_the_compensation_account_past_its_budget(hand, settings):
    settings.DISPUTE_COMPENSATION_BUDGET = 100
    ledger.post(
        key="around-the-service",
        postings=[
            (keys.house_compensation_key("MXN"), "MXN", -101),
            (keys.wallet_key(hand["alice"].user.pk, "MXN"), "MXN", 101),
        ],
        kind="adjustment",
    )
    report = ledger.reconcile()
    assert ("compensation_budget_exceeded", f"account:{keys.house_compensation_key('MXN')}") in found(report)
    settings.DISPUTE_COMPENSATION_BUDGET = 101
    assert ledger.reconcile().ok
