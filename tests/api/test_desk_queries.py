"""What the payout and dispute desks ask of the API (issue 26, items 2 and 4): pending payouts by
age, oldest first, with the decisions so far; the report of what waits, by age; the dispute queue
filtered by category, state, table, game and age. Every answer is checked against the document."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from games.disputes.models import Dispute
from ledger.models import Payout
from tests.api import contract
from tests.api.play import person
from tests.api.test_disputes import disputed_table, file
from tests.api.test_payouts import finished_table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def waiting(counter_game, task_queue):
    """A finished counter money table's two pending payouts: seat 0's opened two hours ago, seat 1's
    just now; tina is staff who did not play."""
    table_id = finished_table(task_queue, person("alice"), person("sam", staff=True))
    Payout.objects.filter(table_id=table_id, seat=0).update(created_at=timezone.now() - timedelta(hours=2))
    return {
        "table_id": table_id,
        "tina": contract.person("tina", staff=True),
        "payouts": Payout.objects.filter(table_id=table_id),
    }


def ids(answer) -> list[int]:
    assert answer.status_code == 200, answer.json()
    return [row["id"] for row in answer.json()["results"]]


def test_pending_payouts_by_age_and_the_longest_waiting_first(waiting):
    tina = waiting["tina"]
    old, new = waiting["payouts"].get(seat=0).pk, waiting["payouts"].get(seat=1).pk
    assert ids(tina.get("/api/v1/payouts/?status=pending")) == [new, old]
    assert ids(tina.get("/api/v1/payouts/?status=pending&order=oldest")) == [old, new]
    assert ids(tina.get("/api/v1/payouts/?status=pending&older_than=3600")) == [old]
    assert ids(tina.get("/api/v1/payouts/?older_than=86400")) == []
    paged = tina.get("/api/v1/payouts/?order=oldest&limit=1").json()
    assert [r["id"] for r in paged["results"]] == [old] and paged["has_more"]
    assert ids(tina.get(f"/api/v1/payouts/?order=oldest&limit=1&cursor={paged['next_cursor']}")) == [new]
    for bad in ("older_than=-1", "order=sideways", "older_than=soon"):
        refused = tina.get(f"/api/v1/payouts/?{bad}")
        assert refused.status_code == 400 and bad.split("=")[0] in refused.json()["fields"], bad


def test_a_listed_payout_shows_its_table_result_audit_link_and_approvals_so_far(waiting, settings):
    settings.PAYOUT_TWO_PERSON_LIMIT = 1000
    waiting["payouts"].update(approvals_needed=2)
    tina, payout = waiting["tina"], waiting["payouts"].get(seat=0)
    assert tina.post(f"/api/v1/payouts/{payout.pk}/approve/", {}, format="json").status_code == 200
    row = next(r for r in tina.get("/api/v1/payouts/?status=pending").json()["results"] if r["id"] == payout.pk)
    assert row["table"]["audit"].endswith("/hands/1/audit/") and row["table"]["result"]
    assert [(d["decision"], d["by"]) for d in row["decisions"]] == [("approve", "tina")]
    assert row["approvals_needed"] == 2


def test_the_payouts_report_counts_what_waits_by_age(waiting, settings):
    settings.PAYOUT_TWO_PERSON_LIMIT = 1000
    waiting["payouts"].update(approvals_needed=2)
    tina = waiting["tina"]
    old, new = waiting["payouts"].get(seat=0), waiting["payouts"].get(seat=1)
    tina.post(f"/api/v1/payouts/{new.pk}/approve/", {}, format="json")
    assert person("carol").get("/api/v1/payouts/report/").status_code == 403
    report = tina.get("/api/v1/payouts/report/").json()
    assert report["pending"] == 2 and report["awaiting_second_approval"] == 1
    assert report["oldest_age_seconds"] >= 7200
    ages = {group["age"]: group for group in report["by_age"]}
    assert list(ages) == ["under_1h", "1h_to_1d", "1d_to_7d", "over_7d"]
    assert ages["under_1h"]["payouts"] == 1 and ages["1h_to_1d"]["payouts"] == 1
    assert ages["1h_to_1d"]["amounts"] == [
        {"currency": "MXN", "amount": f"{old.amount // 100}.{old.amount % 100:02d}", "amount_minor": old.amount}
    ]
    assert ages["over_7d"] == {
        "age": "over_7d",
        "from_seconds": 604800,
        "to_seconds": None,
        "payouts": 0,
        "amounts": [],
    }


@pytest.fixture
def queue(counter_game, task_queue, settings):
    """Two disputes on one finished counter table: alice's (cards, filed two hours ago) and bob's
    (timer, just filed); ada is an auditor who did not play."""
    hand = disputed_table(task_queue, settings)
    cards = file(hand["alice"], hand["table_id"]).json()["id"]
    timer = file(hand["bob"], hand["table_id"], category="timer").json()["id"]
    Dispute.objects.filter(pk=cards).update(filed_at=timezone.now() - timedelta(hours=2))
    return {**hand, "cards": cards, "timer": timer}


def test_the_dispute_queue_filters_by_category_state_table_game_and_age(queue):
    ada, table_id = queue["ada"], queue["table_id"]
    both = [queue["cards"], queue["timer"]]
    assert ids(ada.get("/api/v1/disputes/queue/")) == both  # oldest first
    assert ids(ada.get("/api/v1/disputes/queue/?category=timer")) == [queue["timer"]]
    assert ids(ada.get(f"/api/v1/disputes/queue/?table={table_id}")) == both
    assert ids(ada.get(f"/api/v1/disputes/queue/?table={uuid.uuid4()}")) == []
    assert ids(ada.get("/api/v1/disputes/queue/?game=counter")) == both
    assert ids(ada.get("/api/v1/disputes/queue/?game=euchre")) == []
    assert ids(ada.get("/api/v1/disputes/queue/?older_than=3600")) == [queue["cards"]]
    assert ada.post(f"/api/v1/disputes/{queue['timer']}/take/").status_code == 200
    assert ids(ada.get("/api/v1/disputes/queue/?state=under_review")) == [queue["timer"]]
    assert ids(ada.get("/api/v1/disputes/queue/?state=open&category=cards&older_than=60")) == [queue["cards"]]
    for bad in ("category=luck", "table=not-a-table", "older_than=-5", "state=upheld"):
        refused = ada.get(f"/api/v1/disputes/queue/?{bad}")
        assert refused.status_code == 400 and bad.split("=")[0] in refused.json()["fields"], bad


def test_an_empty_filter_is_refused_not_ignored(queue):
    """``?table=`` is no table: answering the whole queue would show more than was asked for."""
    for path in (
        "/api/v1/disputes/queue/?table=",
        "/api/v1/disputes/queue/?state=",
        "/api/v1/disputes/queue/?older_than=",
        "/api/v1/payouts/?status=",
        "/api/v1/payouts/?order=",
        "/api/v1/deposits/?state=",
    ):
        client = queue["ada"] if "disputes" in path else queue["tina"]
        refused = client.get(path)
        assert refused.status_code == 400, path
        assert path.split("?")[1].rstrip("=") in refused.json()["fields"], path


def test_a_rejected_payout_answers_with_its_follow_up_as_documented(waiting):
    """The document said ``follow_up`` was a string; the answer has always been an object."""
    tina, payout = waiting["tina"], waiting["payouts"].get(seat=0)
    rejected = tina.post(f"/api/v1/payouts/{payout.pk}/reject/", {"reason": "chip dumping"}, format="json")
    assert rejected.status_code == 200 and rejected.json()["follow_up"]["reason"] == "chip dumping"
    [row] = tina.get("/api/v1/payouts/?status=rejected").json()["results"]
    assert row["follow_up"]["resolved"] is False
