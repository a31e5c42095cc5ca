"""Payout review over HTTP and in the admin: who may decide, the two-person rule, approve and reject
exactly once, automatic decisions for bots and small amounts, and the books after each."""

from __future__ import annotations

import random

import pytest
from django.test import Client

from ledger import keys
from ledger import services as ledger
from ledger.models import FollowUp, Payout, PayoutDecision, Transaction
from ledger.payouts import PAID, RETURNED
from ledger.selectors import balance_of
from tests.api.play import Game, check_finished_table, person, play_to_the_end, set_up

pytestmark = pytest.mark.django_db(transaction=True)


def finished_table(task_queue, owner, staff, *, people=(0, 1), seats=2) -> str:
    spec = Game(
        "counter",
        seats,
        people=people,
        options={"hands": 1, "target": 9},
        stake={"currency": "MXN", "chip_value": "0.50"},
    )
    table_id, clients = set_up(spec, owner, staff)
    play_to_the_end(table_id, clients, task_queue, random.Random(7))
    check_finished_table(table_id)
    return table_id


@pytest.fixture
def review(counter_game, task_queue):
    """A finished counter table of alice (seat 0) and bob (seat 1) with 100 chips of 0.50 MXN each;
    sam funded them; tina and uma are other staff."""
    alice, sam = person("alice"), person("sam", staff=True)
    table_id = finished_table(task_queue, alice, sam)
    bob = next(p for p in Payout.objects.filter(table_id=table_id) if p.seat == 1).user
    return {
        "table_id": table_id,
        "alice": alice,
        "sam": sam,
        "tina": person("tina", staff=True),
        "uma": person("uma", staff=True),
        "payouts": {p.seat: p for p in Payout.objects.filter(table_id=table_id)},
        "bob": bob,
    }


def test_a_finished_money_table_opens_a_pending_payout_per_seat_backed_by_its_account(review):
    payouts = review["payouts"]
    assert sorted(payouts) == [0, 1]
    for seat, payout in payouts.items():
        assert payout.status == Payout.Status.PENDING and not payout.automatic
        assert payout.pending_key == f"payout:{review['table_id']}.{seat}:MXN"
        assert balance_of(key=payout.pending_key) == payout.amount > 0
    assert sum(p.amount for p in payouts.values()) == 2 * 100 * 50  # every chip's worth, nothing more
    assert ledger.reconcile().ok


def test_staff_list_payouts_by_status_with_result_players_audit_and_trail(review):
    sam = review["sam"]
    listed = review["tina"].get("/api/v1/payouts/?status=pending")
    assert listed.status_code == 200, listed.json()
    rows = listed.json()["results"]
    assert {row["seat"] for row in rows} == {0, 1}
    row = next(r for r in rows if r["seat"] == 0)
    assert row["player"] == "alice" and row["table"]["audit"].endswith("/hands/1/audit/")
    assert [p["player"] for p in row["table"]["players"]] == ["alice", review["bob"].username]
    assert sum(line["chips"] for line in row["table"]["result"]) == 0
    assert [t["kind"] for t in row["ledger_trail"]] == ["GameEnded"]
    assert review["tina"].get("/api/v1/payouts/?status=approved").json()["results"] == []
    assert review["tina"].get("/api/v1/payouts/?status=paid").status_code == 400
    assert sam.get("/api/v1/payouts/").status_code == 200


def test_a_player_cannot_list_approve_or_reject_a_payout(review):
    alice, payout = review["alice"], review["payouts"][0]
    assert alice.get("/api/v1/payouts/").status_code == 403
    response = alice.post(f"/api/v1/payouts/{payout.pk}/approve/", {}, format="json")
    assert response.status_code == 403 and response.json()["code"] == "forbidden"
    assert alice.post(f"/api/v1/payouts/{payout.pk}/reject/", {"reason": "mine"}, format="json").status_code == 403
    payout.refresh_from_db()
    assert payout.status == Payout.Status.PENDING and not payout.decisions.exists()


def test_approve_pays_the_wallet_once_and_the_audit_shows_who_when_and_why(review):
    tina, payout = review["tina"], review["payouts"][0]
    wallet = keys.wallet_key(payout.user_id, "MXN")
    before = balance_of(key=wallet)
    response = tina.post(f"/api/v1/payouts/{payout.pk}/approve/", {"reason": "clean game"}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "approved"
    assert balance_of(key=wallet) == before + payout.amount
    assert balance_of(key=payout.pending_key) == 0
    again = review["uma"].post(f"/api/v1/payouts/{payout.pk}/approve/", {}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "payout_decided"
    assert balance_of(key=wallet) == before + payout.amount
    assert Transaction.objects.filter(reference=f"payout:{payout.pk}", kind=PAID).count() == 1
    audit = review["alice"].get(f"/api/v1/tables/{review['table_id']}/hands/1/audit/").json()
    decided = next(p for p in audit["payouts"] if p["id"] == payout.pk)
    assert decided["decisions"][0]["by"] == "tina" and decided["decisions"][0]["reason"] == "clean game"
    assert decided["decisions"][0]["at"] and decided["status"] == "approved"
    assert ledger.reconcile().ok


def test_staff_who_played_at_the_table_cannot_decide_its_payouts(counter_game, task_queue):
    sam = person("sam", staff=True)  # plays seat 0 (funded by other staff: none deposit to themselves)
    table_id = finished_table(task_queue, sam, person("vera", staff=True))
    payout = Payout.objects.get(table_id=table_id, seat=1)
    for action, body in (("approve", {}), ("reject", {"reason": "suspicious"})):
        response = sam.post(f"/api/v1/payouts/{payout.pk}/{action}/", body, format="json")
        assert response.status_code == 403, response.json()
        assert "played at this table" in response.json()["detail"]
    assert (
        person("tina", staff=True).post(f"/api/v1/payouts/{payout.pk}/approve/", {}, format="json").status_code == 200
    )


def test_above_the_two_person_limit_two_different_staff_must_approve(review, settings):
    # The limit is read when a payout opens (see the next test); this one is made as if it had
    # opened above it, with the limit to match (reconcile checks the two agree).
    settings.PAYOUT_TWO_PERSON_LIMIT = 1000
    payout = review["payouts"][0]
    Payout.objects.filter(table_id=review["table_id"]).update(approvals_needed=2)
    tina, uma = review["tina"], review["uma"]
    wallet = keys.wallet_key(payout.user_id, "MXN")
    before = balance_of(key=wallet)
    first = tina.post(f"/api/v1/payouts/{payout.pk}/approve/", {}, format="json")
    assert first.status_code == 200 and first.json()["status"] == "pending"
    assert balance_of(key=wallet) == before  # one approval moves nothing
    twice = tina.post(f"/api/v1/payouts/{payout.pk}/approve/", {}, format="json")
    assert twice.status_code == 409 and twice.json()["code"] == "second_approver_needed"
    second = uma.post(f"/api/v1/payouts/{payout.pk}/approve/", {}, format="json")
    assert second.status_code == 200 and second.json()["status"] == "approved"
    assert [d["by"] for d in second.json()["decisions"]] == ["tina", "uma"]
    assert balance_of(key=wallet) == before + payout.amount
    assert ledger.reconcile().ok


def test_payouts_opened_above_the_limit_need_two_approvals(counter_game, task_queue, settings):
    settings.PAYOUT_TWO_PERSON_LIMIT = 1000
    table_id = finished_table(task_queue, person("alice"), person("sam", staff=True))
    assert set(Payout.objects.filter(table_id=table_id).values_list("approvals_needed", flat=True)) == {2}


def test_reject_needs_a_reason_returns_the_money_to_escrow_and_cannot_be_approved_after(review):
    tina, payout = review["tina"], review["payouts"][1]
    escrow = keys.escrow_key(review["table_id"], "MXN")
    assert balance_of(key=escrow) == 0
    blank = tina.post(f"/api/v1/payouts/{payout.pk}/reject/", {"reason": "  "}, format="json")
    assert blank.status_code == 400 and "reason" in blank.json()["detail"]
    rejected = tina.post(f"/api/v1/payouts/{payout.pk}/reject/", {"reason": "collusion suspected"}, format="json")
    assert rejected.status_code == 200 and rejected.json()["status"] == "rejected"
    assert balance_of(key=escrow) == payout.amount and balance_of(key=payout.pending_key) == 0
    follow_up = FollowUp.objects.get(payout=payout)
    assert follow_up.reason == "collusion suspected" and str(follow_up.table_id) == review["table_id"]
    late = review["uma"].post(f"/api/v1/payouts/{payout.pk}/approve/", {}, format="json")
    assert late.status_code == 409 and late.json()["code"] == "payout_decided"
    assert "rejected" in late.json()["detail"]
    assert Transaction.objects.filter(reference=f"payout:{payout.pk}", kind=RETURNED).count() == 1
    audit = review["alice"].get(f"/api/v1/tables/{review['table_id']}/hands/1/audit/").json()
    listed = next(p for p in audit["payouts"] if p["id"] == payout.pk)
    assert listed["follow_up"]["reason"] == "collusion suspected"
    assert listed["decisions"][0]["decision"] == "reject" and listed["decisions"][0]["by"] == "tina"
    # The books: the escrow holds exactly what the rejection returned; everything balances.
    assert ledger.reconcile().ok


def test_reconcile_names_a_pending_payout_whose_account_was_emptied_behind_its_back(review):
    payout = review["payouts"][0]
    ledger.post(
        key="sneaky",
        postings=[(payout.pending_key, "MXN", -payout.amount), (keys.house_cash_key("MXN"), "MXN", payout.amount)],
        kind="withdrawal",
    )
    report = ledger.reconcile()
    assert not report.ok
    assert any(p.code == "payout_unbacked" and p.subject == f"payout:{payout.pk}" for p in report.problems)


def test_reconcile_proves_a_finished_tables_escrow_is_empty(review):
    escrow = keys.escrow_key(review["table_id"], "MXN")
    ledger.post(key="stray", postings=[(keys.house_cash_key("MXN"), "MXN", -100), (escrow, "MXN", 100)], kind="deposit")
    codes = {(p.code, p.subject) for p in ledger.reconcile().problems}
    assert ("escrow_not_empty", f"table:{review['table_id']}") in codes


def test_bot_winnings_and_small_payouts_are_decided_automatically_and_recorded(counter_game, task_queue, settings):
    settings.PAYOUT_AUTO_APPROVE_BELOW = 1_000_000
    alice = person("alice")
    table_id = finished_table(task_queue, alice, person("sam", staff=True), people=(0,))
    bot, mine = Payout.objects.get(table_id=table_id, seat=1), Payout.objects.get(table_id=table_id, seat=0)
    assert bot.user is None and bot.status == Payout.Status.APPROVED and bot.automatic
    assert "bot bankroll" in bot.decisions.get().reason and bot.decisions.get().by is None
    assert mine.status == Payout.Status.APPROVED and mine.automatic
    assert "automatically" in mine.decisions.get().reason
    buy_in = 100 * 50  # 100 chips of 0.50 MXN
    assert balance_of(key=keys.wallet_key(alice.user.pk, "MXN")) == 1000_00 - buy_in + mine.amount
    assert ledger.reconcile().ok


# --- the admin -----------------------------------------------------------------------------------


def admin_client(api_client) -> Client:
    client = Client()
    client.force_login(api_client.user)
    return client


def test_admin_lists_payouts_by_status_and_approves_and_rejects_with_a_reason(review):
    tina = admin_client(review["tina"])
    first, second = review["payouts"][0], review["payouts"][1]
    listing = tina.get("/admin/ledger/payout/?status__exact=pending")
    assert listing.status_code == 200
    page = listing.content.decode()
    # The table links to its admin page, not to the raw API.
    assert f"/admin/games/table/{review['table_id']}/change/" in page and "alice" in page
    assert f"/api/v1/tables/{review['table_id']}/hands/" not in page
    detail = tina.get(f"/admin/ledger/payout/{first.pk}/change/").content.decode()
    assert "ledger trail" in detail.lower() and "audit of the last hand" in detail and "GameEnded" in detail

    approved = tina.post(
        "/admin/ledger/payout/", {"action": "approve_payouts", "_selected_action": [first.pk]}, follow=True
    )
    assert approved.status_code == 200
    first.refresh_from_db()
    assert first.status == Payout.Status.APPROVED
    assert first.decisions.get().by == review["tina"].user

    form = tina.post("/admin/ledger/payout/", {"action": "reject_payouts", "_selected_action": [second.pk]})
    assert form.status_code == 200 and "Say why" in form.content.decode()
    second.refresh_from_db()
    assert second.status == Payout.Status.PENDING  # nothing happens without a reason
    tina.post(
        "/admin/ledger/payout/",
        {"action": "reject_payouts", "_selected_action": [second.pk], "apply": "1", "reason": "chip dumping"},
        follow=True,
    )
    second.refresh_from_db()
    assert second.status == Payout.Status.REJECTED
    assert PayoutDecision.objects.get(payout=second).reason == "chip dumping"
    # Approving the rejected payout in the admin is refused with the service's message.
    refused = tina.post(
        "/admin/ledger/payout/", {"action": "approve_payouts", "_selected_action": [second.pk]}, follow=True
    )
    assert "cannot be approved" in refused.content.decode()
    second.refresh_from_db()
    assert second.status == Payout.Status.REJECTED
    assert ledger.reconcile().ok
