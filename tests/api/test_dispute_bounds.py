"""Bounded compensations through HTTP: a compensation is at most what the disputing player lost (the
hand cost their seat, net of what it took back: a hand's winner lost nothing), or, for a claim on
their payout, what they paid into the table less what came back to them; above it only a referral
remains. The house compensation account pays within ``DISPUTE_COMPENSATION_BUDGET``. The service
refuses both at the decision and at the second approval; ``reconcile`` reports a compensation over
its bound or an account past its budget that was written around the service. Every answer is
checked against the document. (The sums over several disputes: test_dispute_sums.py.)"""

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
    """test_disputes' table: in hand 1 alice put 7 chips of 0.50 MXN in the pot, bob 2, and bob won
    the 9: alice lost 3.50 MXN there, bob won 3.50."""
    return disputed_table(task_queue, settings)


def decide(client, number, compensation, **extra):
    body = {"outcome": "upheld", "reasons": "The timer played for you too early.", "compensation": compensation}
    return client.post(f"/api/v1/disputes/{number}/decide/", {**body, **extra}, format="json")


def found(report) -> set[tuple[str, str]]:
    return {(p.code, p.subject) for p in report.problems}


def test_the_winner_of_a_hand_lost_nothing_so_millions_and_a_cent_are_refused_and_move_nothing(hand):
    """Bob put 2 chips of 0.50 MXN in hand 1 and won the pot of 9: he lost nothing there, so neither
    9,999,999.00 MXN nor 0.01 can be paid him; the dispute can still be referred."""
    number = file(hand["bob"], hand["table_id"]).json()["id"]
    wallet = keys.wallet_key(hand["bob"].user.pk, "MXN")
    before = balance_of(key=wallet)
    for amount in ("9999999.00", "0.01"):
        refused = decide(hand["ada"], number, amount)
        assert refused.status_code == 422, refused.json()
        body = refused.json()
        assert body["code"] == "compensation_over_bound" and body["currency"] == "MXN"
        assert (body["bound"], body["lost"], body["compensated"]) == ("0.00", "0.00", "0.00")
        assert "lost nothing" in body["detail"] and "compensation" in body["fields"]
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
    assert bounds.lost(dispute) == 350 and bounds.bound(dispute) == 350
    review = plain(hand["ada"]).get(f"/api/v1/disputes/{number}/review/").json()  # what the auditor reads
    assert review["compensation_limits"] == {
        "currency": "MXN",
        "bound": "3.50",
        "bound_minor": 350,
        "lost": "3.50",
        "lost_minor": 350,
        "compensated": "0.00",
        "compensated_minor": 0,
        "budget_left": "200000.00",
        "budget_left_minor": 20_000_000,
        "two_person_limit": "1.00",
        "two_person_limit_minor": 100,
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


def test_a_claim_on_a_payout_is_bounded_by_what_the_player_lost_at_the_table(hand):
    """A table-level claim: alice paid 50.00 MXN into the table (100 chips of 0.50) and her payout
    of 46.50 is pending: she lost 3.50 there, not the 50.00 she paid in."""
    payout = Payout.objects.get(table_id=hand["table_id"], seat=0)
    assert payout.amount == 4650
    number = file(hand["alice"], hand["table_id"], payout_id=payout.pk, category="money").json()["id"]
    over = decide(hand["ada"], number, "3.51")
    assert over.status_code == 422 and (over.json()["bound"], over.json()["lost"]) == ("3.50", "3.50")
    exact = decide(hand["ada"], number, "3.50")
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
    settings.DISPUTE_COMPENSATION_BUDGET = "MXN=1.00"
    first = filed(hand)["id"]
    paid = decide(hand["ada"], first, "0.80")  # within the two-person limit of 1.00: paid at once
    assert paid.status_code == 200 and paid.json()["state"] == "upheld", paid.json()
    # Her claim on her payout: 3.50 lost at the table, 0.80 of it compensated, 2.70 left.
    payout = Payout.objects.get(table_id=hand["table_id"], seat=0)
    second = file(hand["alice"], hand["table_id"], payout_id=payout.pk, category="money").json()["id"]
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
    settings.DISPUTE_COMPENSATION_BUDGET = "MXN=2.00"
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
    """An operator moves 1.01 MXN out of the compensation account, back to the house's cash, past a
    budget of 1.00: reported until the budget is raised."""
    settings.DISPUTE_COMPENSATION_BUDGET = "MXN=1.00,*=1000"
    ledger.post(
        key="around-the-service",
        postings=[
            (keys.house_compensation_key("MXN"), "MXN", -101),
            (keys.house_cash_key("MXN"), "MXN", 101),
        ],
        kind="adjustment",
    )
    report = ledger.reconcile()
    assert ("compensation_budget_exceeded", f"account:{keys.house_compensation_key('MXN')}") in found(report)
    settings.DISPUTE_COMPENSATION_BUDGET = "MXN=1.01,*=1000"
    assert ledger.reconcile().ok
