"""Disputed hands through HTTP (issue 16): a player files, an auditor who played is refused,
another auditor reviews the player's own views of the hand and decides; a compensation above the
two-person limit waits for a second member of staff and is paid through the ledger; a rejected
dispute moves no money; the refusals of filing; no hidden card of another seat in anything a
dispute serves. Every answer is checked against the OpenAPI document (``ContractClient``)."""

from __future__ import annotations

import json
import random
import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.db import DatabaseError, connection, transaction
from django.utils import timezone
from rest_framework.test import APIClient

from games.disputes.models import Dispute, DisputeStep
from games.models import Event, HandSeed
from ledger import keys
from ledger import services as ledger
from ledger.models import Payout, Transaction
from ledger.selectors import balance_of
from tests.api import draw, play
from tests.api.contract import ContractClient, checked
from tests.api.play import Game, person, set_up
from tests.api.test_payouts import admin_client, finished_table
from tests.api.test_tables import started_pair

pytestmark = pytest.mark.django_db(transaction=True)


def plain(client):
    """The same person through an unchecked client: the test game ``counter`` is not in the
    document, so a review's views of its tables and its hand audits are checked with a real game
    instead."""
    twin = APIClient()
    twin.credentials(**client._credentials)
    twin.user = client.user
    return twin


def auditor(name: str, *, staff: bool = False):
    client = checked(person(name, staff=staff))
    client.user.groups.add(Group.objects.get_or_create(name="auditors")[0])
    return client


@pytest.fixture
def hand(counter_game, task_queue, settings):
    return disputed_table(task_queue, settings)


def disputed_table(task_queue, settings) -> dict:
    """A finished counter money table of alice (seat 0) and bob (seat 1, also an auditor), whose
    payouts (about 5,000 minor units each) are above a two-person limit of 100; ada is an auditor who
    did not play, sam, tina and uma are staff (sam funded the players). In hand 1 alice put 7 chips
    of 0.50 MXN in the pot and bob 2: a compensation of hand 1 is at most 3.50 MXN for alice."""
    settings.PAYOUT_TWO_PERSON_LIMIT = 100
    alice, sam = person("alice"), person("sam", staff=True)
    table_id = finished_table(task_queue, alice, sam)
    bob_user = Payout.objects.get(table_id=table_id, seat=1).user
    bob = ContractClient()
    bob.force_authenticate(bob_user)
    bob.user = bob_user
    bob_user.groups.add(Group.objects.get_or_create(name="auditors")[0])
    return {
        "table_id": table_id,
        "alice": checked(alice),
        "bob": bob,
        "ada": auditor("ada"),
        "sam": checked(sam),
        "tina": checked(person("tina", staff=True)),
        "uma": checked(person("uma", staff=True)),
    }


def file(client, table_id, hand_no=1, **body):
    body = {"table_id": table_id, "hand_no": hand_no, "category": "cards", "words": "The deal looked wrong.", **body}
    return client.post("/api/v1/disputes/", body, format="json")


def filed(hand) -> dict:
    response = file(hand["alice"], hand["table_id"])
    assert response.status_code == 201, response.json()
    return response.json()


def kinds(dispute: dict) -> list[str]:
    return [step["kind"] for step in dispute["steps"]]


def test_an_upheld_dispute_above_the_limit_waits_for_a_second_approver_then_pays_through_the_ledger(hand):
    alice, bob, ada, sam = hand["alice"], hand["bob"], hand["ada"], hand["sam"]
    dispute = filed(hand)
    assert dispute["state"] == "open" and dispute["seat"] == 0 and dispute["player"] == "alice"
    assert kinds(dispute) == ["filed", "payouts_held"]
    number = dispute["id"]

    refused = bob.post(f"/api/v1/disputes/{number}/take/")
    assert refused.status_code == 403 and refused.json()["code"] == "played_at_table"
    assert bob.get(f"/api/v1/disputes/{number}/review/").json()["code"] == "played_at_table"

    queue = ada.get("/api/v1/disputes/queue/").json()["results"]
    assert [d["id"] for d in queue] == [number] and queue[0]["you_played"] is False
    review = plain(ada).get(f"/api/v1/disputes/{number}/review/")
    assert review.status_code == 200, review.json()
    views = review.json()["player_views"]
    assert views and {v["table"]["your_seat"] for v in views} == {0}
    assert [v["version"] for v in views] == [e["seq"] for e in review.json()["audit"]["events"]]
    assert review.json()["audit"]["verification"]["ok"] is True

    taken = ada.post(f"/api/v1/disputes/{number}/take/")
    assert taken.status_code == 200 and taken.json()["state"] == "under_review"
    wallet = keys.wallet_key(alice.user.pk, "MXN")
    before = balance_of(key=wallet)
    decided = ada.post(
        f"/api/v1/disputes/{number}/decide/",
        {"outcome": "upheld", "reasons": "The timer played for you too early.", "compensation": "2.50"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="decide-1",
    )
    assert decided.status_code == 200, decided.json()
    assert decided.json()["state"] == "awaiting_approval" and decided.json()["approvals_needed"] == 2
    assert balance_of(key=wallet) == before  # nothing paid yet

    again = ada.post(
        f"/api/v1/disputes/{number}/decide/",
        {"outcome": "upheld", "reasons": "The timer played for you too early.", "compensation": "2.50"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="decide-1",
    )
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert ada.post(f"/api/v1/disputes/{number}/approve/", {}, format="json").json()["code"] == "not_staff"

    approved = sam.post(f"/api/v1/disputes/{number}/approve/", {"reason": "Checked."}, format="json")
    assert approved.status_code == 200, approved.json()
    body = approved.json()
    assert body["state"] == "upheld" and body["compensation"] == "2.50" and body["transaction_id"]
    assert balance_of(key=wallet) == before + 250
    assert balance_of(key=keys.house_compensation_key("MXN")) == -250
    txn = Transaction.objects.get(pk=body["transaction_id"])
    assert txn.reference == f"dispute:{number}" and txn.kind == "dispute_compensation"
    listed = alice.get("/api/v1/ledger/transactions/").json()["results"]
    assert [t["kind"] for t in listed if t["id"] == txn.pk] == ["dispute_compensation"]
    report = ledger.reconcile()
    assert report.ok, report.lines()

    mine = alice.get(f"/api/v1/disputes/{number}/").json()
    assert kinds(mine) == [
        "filed",
        "payouts_held",
        "taken",
        "decided",
        "compensation_approved",
        "payouts_released",
        "compensation_approved",
        "compensation_paid",
    ]
    assert mine["reasons"] == "The timer played for you too early."
    assert [s["by"] for s in mine["steps"] if s["kind"] == "compensation_approved"] == ["ada", "sam"]
    assert "upheld" in mine["state_text"] and "2.50 MXN" in mine["state_text"]
    assert "review" not in mine["links"] and "you_played" not in mine
    assert mine["links"]["audit"] == f"/api/v1/tables/{hand['table_id']}/hands/1/audit/"
    # The audit she may read already (unchecked: a hand audit is typed by its game, and the
    # test game is not in the document).
    assert plain(alice).get(mine["links"]["audit"]).status_code == 200


def test_a_rejected_dispute_moves_no_money_and_releases_the_held_payouts(hand):
    ada, tina = hand["ada"], hand["tina"]
    number = filed(hand)["id"]
    payout = Payout.objects.get(table_id=hand["table_id"], seat=0)
    held = tina.post(f"/api/v1/payouts/{payout.pk}/approve/", {}, format="json")
    assert held.status_code == 409 and held.json()["code"] == "payout_held"
    assert held.json()["dispute_id"] == number
    transactions = Transaction.objects.count()
    decided = ada.post(
        f"/api/v1/disputes/{number}/decide/", {"outcome": "rejected", "reasons": "The deal verifies."}, format="json"
    )
    assert decided.status_code == 200, decided.json()
    assert decided.json()["state"] == "rejected" and decided.json()["transaction_id"] is None
    assert Transaction.objects.count() == transactions
    assert kinds(decided.json()) == ["filed", "payouts_held", "taken", "decided", "payouts_released"]
    assert decided.json()["steps"][-1]["data"]["payouts"] == sorted(
        Payout.objects.filter(table_id=hand["table_id"], status="pending").values_list("pk", flat=True)
    )
    assert tina.post(f"/api/v1/payouts/{payout.pk}/approve/", {}, format="json").status_code == 200
    again = ada.post(
        f"/api/v1/disputes/{number}/decide/",
        {"outcome": "upheld", "reasons": "x", "compensation": "1.00"},
        format="json",
    )
    assert again.status_code == 409 and again.json()["code"] == "dispute_decided"
    assert ledger.reconcile().ok


def test_the_same_person_cannot_give_both_approvals_of_a_compensation(hand):
    tina = hand["tina"]
    tina.user.groups.add(Group.objects.get_or_create(name="auditors")[0])
    number = filed(hand)["id"]
    decided = tina.post(
        f"/api/v1/disputes/{number}/decide/",
        {"outcome": "upheld", "reasons": "Short-paid.", "compensation": "2.00"},
        format="json",
    )
    assert decided.status_code == 200 and decided.json()["state"] == "awaiting_approval"
    twice = tina.post(f"/api/v1/disputes/{number}/approve/", {}, format="json")
    assert twice.status_code == 409 and twice.json()["code"] == "second_approver_needed"
    refiled = file(hand["alice"], hand["table_id"])  # not settled while its compensation waits
    assert refiled.status_code == 409 and refiled.json()["code"] == "dispute_already_open"
    player = hand["alice"].post(f"/api/v1/disputes/{number}/approve/", {}, format="json")
    assert player.status_code == 403
    assert Dispute.objects.get(pk=number).transaction_id is None


def test_a_compensation_within_the_limit_is_paid_on_the_decision(hand):
    number = filed(hand)["id"]
    decided = hand["ada"].post(
        f"/api/v1/disputes/{number}/decide/",
        {"outcome": "upheld", "reasons": "Small error.", "compensation": "0.50", "referral": "void_table"},
        format="json",
    )
    assert decided.status_code == 200, decided.json()
    body = decided.json()
    assert body["state"] == "upheld" and body["approvals_needed"] == 1 and body["transaction_id"]
    assert body["referral"] == "void_table"
    assert "referred" in kinds(body) and "compensation_paid" in kinds(body)
    assert ledger.reconcile().ok


def test_an_upheld_dispute_must_name_its_remedy_and_a_rejected_one_none(hand):
    number = filed(hand)["id"]
    ada = hand["ada"]
    bare = ada.post(f"/api/v1/disputes/{number}/decide/", {"outcome": "upheld", "reasons": "Yes."}, format="json")
    assert bare.status_code == 400 and "compensation" in bare.json()["fields"]
    paid = ada.post(
        f"/api/v1/disputes/{number}/decide/",
        {"outcome": "rejected", "reasons": "No.", "compensation": "1.00"},
        format="json",
    )
    assert paid.status_code == 400
    assert Dispute.objects.get(pk=number).state == "open"


def test_filing_refusals_twice_not_played_outside_the_window_and_no_such_hand(hand):
    table_id = hand["table_id"]
    filed(hand)
    twice = file(hand["alice"], table_id, category="money")
    assert twice.status_code == 409 and twice.json()["code"] == "dispute_already_open"

    stranger = file(person("carol"), table_id)
    assert stranger.status_code == 403 and stranger.json()["code"] == "not_your_hand"

    missing = file(hand["bob"], table_id, hand_no=9)
    assert missing.status_code == 404 and missing.json()["code"] == "no_such_hand"

    # Make the window pass: the hand ended 31 days ago (DISPUTE_WINDOW_DAYS is 30).
    HandSeed.objects.filter(table_id=table_id, hand_no=1).update(revealed_at=timezone.now() - timedelta(days=31))
    late = file(hand["bob"], table_id)
    assert late.status_code == 409 and late.json()["code"] == "dispute_window_closed"
    assert Dispute.objects.count() == 1


def test_a_hand_still_in_progress_cannot_be_disputed(counter_game):
    alice, bob = person("alice"), person("bob")
    table_id = started_pair(alice, bob)
    refused = file(checked(alice), table_id)
    assert refused.status_code == 409 and refused.json()["code"] == "hand_in_progress"
    assert Dispute.objects.count() == 0


def test_the_queue_and_the_review_are_for_auditors_and_a_dispute_for_its_player(hand):
    number = filed(hand)["id"]
    carol = person("carol")
    assert carol.get("/api/v1/disputes/queue/").json()["code"] == "not_auditor"
    assert hand["alice"].get("/api/v1/disputes/queue/").status_code == 403
    assert carol.get(f"/api/v1/disputes/{number}/").status_code == 404
    assert hand["alice"].get(f"/api/v1/disputes/{number}/review/").status_code == 403
    assert hand["alice"].get("/api/v1/disputes/").json()["results"][0]["id"] == number
    assert carol.get("/api/v1/disputes/").json()["results"] == []
    assert hand["ada"].get(f"/api/v1/disputes/{number}/").status_code == 200


def test_nothing_a_dispute_serves_shows_another_seats_hidden_card(hand):
    """Bob's secret card and the server seed are in the stored events; before the hand's end
    reveals them, no view served for alice's dispute may hold them."""
    table_id = hand["table_id"]
    number = filed(hand)["id"]
    dealt = Event.objects.get(table_id=table_id, type="HandStarted", hand_no=1)
    alice_card, bob_card = dealt.secret["cards"]
    seed = dealt.secret["server_seed"]
    ended = Event.objects.get(table_id=table_id, type="HandEnded", hand_no=1).seq
    review = plain(hand["ada"]).get(f"/api/v1/disputes/{number}/review/").json()
    before_end = [v for v in review["player_views"] if v["version"] < ended]
    assert before_end, "the hand has versions before its end"
    for view in before_end:
        assert not shows(json.dumps(view), bob_card, seed), view["version"]
    assert any(v["table"]["state"]["your_card"] == alice_card for v in before_end)
    for client in (hand["alice"], hand["ada"]):
        for path in (f"/api/v1/disputes/{number}/", "/api/v1/disputes/"):
            assert not shows(client.get(path).content.decode(), bob_card, seed)


def shows(text: str, card: str, seed: str) -> bool:
    """Whether ``text`` holds the card code standing alone (not inside a hash) or the seed."""
    return seed in text or re.search(rf"(?<![0-9A-Za-z]){re.escape(card)}(?![0-9A-Za-z])", text) is not None


def test_the_staff_report_counts_categories_decisions_and_money(hand):
    ada, sam = hand["ada"], hand["sam"]
    number = filed(hand)["id"]
    ada.post(
        f"/api/v1/disputes/{number}/decide/",
        {"outcome": "upheld", "reasons": "Yes.", "compensation": "0.50"},
        format="json",
    )
    other = file(hand["bob"], hand["table_id"], category="timer").json()["id"]
    ada.post(f"/api/v1/disputes/{other}/decide/", {"outcome": "rejected", "reasons": "No."}, format="json")
    assert ada.get("/api/v1/disputes/report/").json()["code"] == "not_staff"
    report = sam.get("/api/v1/disputes/report/").json()
    assert report["total"] == 2 and report["by_category"]["cards"] == 1 and report["by_category"]["timer"] == 1
    assert report["decided"] == 2 and report["upheld"] == 1 and report["share_upheld"] == 0.5
    assert report["time_to_decision_seconds"]["median"] >= 0
    assert report["compensated"] == [{"currency": "MXN", "amount": "0.50", "amount_minor": 50, "disputes": 1}]


def test_a_dispute_step_is_refused_by_the_database_when_changed_or_deleted(hand):
    number = filed(hand)["id"]
    step = DisputeStep.objects.filter(dispute_id=number).first()
    for sql in (
        "UPDATE disputes_disputestep SET reason = 'rewritten' WHERE id = %s",
        "DELETE FROM disputes_disputestep WHERE id = %s",
    ):
        with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql, [step.pk])
    assert DisputeStep.objects.get(pk=step.pk).reason == step.reason


def test_a_five_card_draw_review_answers_as_documented_and_shows_no_other_seats_cards(task_queue):
    """A real game, whose views are in the document: alice and two bots play hand 1 of a
    tournament; ada's review of alice's dispute validates against the document, and no view
    before the showdown holds a card dealt or drawn to a bot's seat, the stock, or the seed."""
    alice, sam = person("alice"), person("sam", staff=True)
    spec = Game(
        "five-card-draw",
        3,
        people=(0,),
        options={"format": "tournament", "starting_stack": 10, "forced_bets": "blinds"},
        stake={"currency": "MXN", "amount": "10.00"},
    )
    table_id, _clients = set_up(spec, alice, sam)
    rng = random.Random(16)
    for _ in range(300):
        task_queue.run_until_idle()
        if HandSeed.objects.filter(table_id=table_id, hand_no=1).exclude(revealed_at=None).exists():
            break
        view = alice.get(f"/api/v1/tables/{table_id}/").json()
        if view["status"] == "finished":
            break
        if view["legal_actions"]:
            body = {"action": draw.choose(view, rng), "expected_version": view["version"]}
            assert alice.post(f"/api/v1/tables/{table_id}/actions/", body, format="json").status_code == 200
        elif not task_queue.published:
            play._run_due_system_command(table_id)
    number = filed({"alice": checked(alice), "table_id": table_id})["id"]
    review = auditor("ada").get(f"/api/v1/disputes/{number}/review/")  # checked against the document
    assert review.status_code == 200, review.json()

    rows = list(Event.objects.filter(table_id=table_id, hand_no__in=[0, 1]).order_by("seq"))
    public = {card for row in rows if row.type == "FirstDealerDrawn" for _, card in row.data["draws"]}
    hidden: set[str] = set()
    for row in rows:
        if row.type == "CardsDealt":
            hidden |= {card for seat, cards in enumerate(row.secret["hands"]) if seat != 0 for card in cards}
            hidden |= set(row.secret["stock"])
        if row.type == "CardsDrawn":
            hidden |= set(row.secret["discarded"]) | set(row.secret["received"])
            if row.data["seat"] == 0:
                hidden -= set(row.secret["received"]) | set(row.secret["discarded"])
    dealt = next(row for row in rows if row.type == "CardsDealt")
    hidden -= set(dealt.secret["hands"][0]) | public
    seed = next(row for row in rows if row.type == "HandStarted").secret["server_seed"]
    shown = next((row.seq for row in rows if row.type in ("ShowdownHeld", "HandEnded")), rows[-1].seq)
    views = [v for v in review.json()["player_views"] if v["version"] < shown]
    assert views and hidden
    for view in views:
        text = json.dumps(view)
        assert not any(shows(text, card, seed) for card in hidden), view["version"]
    assert {v["table"]["your_seat"] for v in review.json()["player_views"]} == {0}


def test_staff_read_disputes_and_their_steps_in_the_admin_and_change_nothing(hand):
    number = filed(hand)["id"]
    tina = admin_client(hand["tina"])
    listing = tina.get("/admin/disputes/dispute/")
    assert listing.status_code == 200 and "alice" in listing.content.decode()
    detail = tina.get(f"/admin/disputes/dispute/{number}/change/")
    assert detail.status_code == 200 and "payouts_held" in detail.content.decode()
    assert tina.get("/admin/disputes/dispute/add/").status_code == 403
    assert tina.post(f"/admin/disputes/dispute/{number}/delete/", {"post": "yes"}).status_code == 403
    assert Dispute.objects.filter(pk=number).exists()


def test_the_players_stream_hears_their_dispute_decided(hand):
    from tests.api.test_live import elsewhere, open_stream, run

    number = filed(hand)["id"]
    body = {"outcome": "rejected", "reasons": "The deal verifies."}

    async def scenario():
        stream = await open_stream(hand["alice"], "/api/v1/me/stream/")
        decide = elsewhere(lambda: hand["ada"].post(f"/api/v1/disputes/{number}/decide/", body, format="json"))
        assert (await decide()).status_code == 200
        notices = [await stream.frame(), await stream.frame()]  # taken on the way, then decided
        await stream.close()
        return notices

    notices = run(scenario())
    assert [n["event"] for n in notices] == ["dispute_changed", "dispute_changed"]
    assert [n["data"]["state"] for n in notices] == ["under_review", "rejected"]
    assert notices[1]["data"] == {"dispute": number, "table": hand["table_id"], "hand_no": 1, "state": "rejected"}


def test_a_declined_compensation_goes_back_to_its_auditor_who_decides_again(hand):
    ada, sam, tina, uma = hand["ada"], hand["sam"], hand["tina"], hand["uma"]
    number = filed(hand)["id"]
    body = {"outcome": "upheld", "reasons": "Short-paid.", "compensation": "3.00"}
    assert ada.post(f"/api/v1/disputes/{number}/decide/", body, format="json").json()["state"] == "awaiting_approval"
    assert sam.post(f"/api/v1/disputes/{number}/decline/", {"reason": ""}, format="json").status_code == 400
    declined = sam.post(f"/api/v1/disputes/{number}/decline/", {"reason": "Too much for a timer."}, format="json")
    assert declined.status_code == 200, declined.json()
    assert declined.json()["state"] == "under_review" and declined.json()["taken_by"] == "ada"
    assert declined.json()["compensation_minor"] == 0 and declined.json()["outcome"] is None
    payout = Payout.objects.get(table_id=hand["table_id"], seat=0)
    held = tina.post(f"/api/v1/payouts/{payout.pk}/approve/", {}, format="json")
    assert held.status_code == 409 and held.json()["code"] == "payout_held"
    taken = tina.post(f"/api/v1/disputes/{number}/decide/", body, format="json")
    assert taken.status_code == 409 and taken.json()["code"] == "dispute_taken"  # ada's to decide again

    again = ada.post(f"/api/v1/disputes/{number}/decide/", {**body, "compensation": "1.20"}, format="json")
    assert again.status_code == 200 and again.json()["state"] == "awaiting_approval"
    # sam's refusal of the first compensation is no approval of the second: uma's approval pays it.
    paid = uma.post(f"/api/v1/disputes/{number}/approve/", {}, format="json")
    assert paid.status_code == 200 and paid.json()["state"] == "upheld" and paid.json()["compensation"] == "1.20"
    assert kinds(paid.json()) == [
        "filed",
        "payouts_held",
        "taken",
        "decided",
        "compensation_approved",
        "payouts_released",
        "compensation_declined",
        "payouts_held",
        "decided",
        "compensation_approved",
        "payouts_released",
        "compensation_approved",
        "compensation_paid",
    ]
    assert Transaction.objects.filter(reference=f"dispute:{number}").count() == 1
    assert ledger.reconcile().ok
