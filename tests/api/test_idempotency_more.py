"""Idempotency-Key on table creation and payout decisions (issue 14), as on actions: a repeat with
the same key and body answers the first answer again (``Idempotent-Replayed: true``) and does
nothing twice; another body under the key is refused; a refused command leaves the key unused;
after IDEMPOTENCY_TTL_SECONDS the key is new again."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import idempotency, play
from games.models import CommandRecord, Table
from ledger import keys
from ledger.models import FollowUp, Payout, PayoutDecision, Transaction
from ledger.payouts import PAID, approve
from ledger.selectors import balance_of
from tests.api.play import person
from tests.api.test_payouts import finished_table
from tests.ledger.test_concurrency import race

NEW_TABLE = {"game": "counter", "seats": 2, "options": {}}


def create(client, body=NEW_TABLE, key: str | None = None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return client.post("/api/v1/tables/", body, format="json", **headers)


@pytest.mark.django_db
def test_a_repeated_table_creation_opens_one_table_and_replays_the_first_answer(counter_game):
    alice = person("alice")
    first = create(alice, key="new-table-1")
    again = create(alice, key="new-table-1")
    assert first.status_code == again.status_code == 201, (first.json(), again.json())
    assert again.json() == first.json()
    assert "Idempotent-Replayed" not in first.headers
    assert again.headers["Idempotent-Replayed"] == "true"
    assert Table.objects.count() == 1
    assert CommandRecord.objects.get(key="new-table-1").table_id == Table.objects.get().pk


@pytest.mark.django_db
def test_without_a_key_each_creation_is_a_new_table(counter_game):
    alice = person("alice")
    assert create(alice).json()["id"] != create(alice).json()["id"]
    assert Table.objects.count() == 2


@pytest.mark.django_db
def test_the_same_key_with_another_body_is_refused_and_opens_nothing(counter_game):
    alice = person("alice")
    assert create(alice, key="k").status_code == 201
    other = create(alice, {**NEW_TABLE, "seats": 3}, key="k")
    assert other.status_code == 422
    assert other.json()["code"] == "idempotency_key_reused"
    assert Table.objects.count() == 1


@pytest.mark.django_db
def test_keys_are_per_person(counter_game):
    alice, bob = person("alice"), person("bob")
    assert create(alice, key="shared").status_code == 201
    theirs = create(bob, key="shared")
    assert theirs.status_code == 201 and "Idempotent-Replayed" not in theirs.headers
    assert Table.objects.count() == 2


@pytest.mark.django_db
def test_a_refused_creation_leaves_the_key_unused(counter_game):
    alice = person("alice")
    refused = create(alice, {**NEW_TABLE, "game": "no-such-game"}, key="k-refused")
    assert refused.status_code == 400
    assert not CommandRecord.objects.filter(key="k-refused").exists()
    made = create(alice, key="k-refused")
    assert made.status_code == 201 and "Idempotent-Replayed" not in made.headers


@pytest.mark.django_db
def test_a_key_used_for_one_kind_of_command_is_refused_for_another(counter_game):
    alice = person("alice")
    made = create(alice, key="k-kind")
    assert made.status_code == 201
    action = alice.post(
        f"/api/v1/tables/{made.json()['id']}/actions/",
        {"action": {"type": "add", "amount": 1}, "expected_version": made.json()["version"]},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k-kind",
    )
    assert action.status_code == 422 and action.json()["code"] == "idempotency_key_reused"


@pytest.mark.django_db
def test_after_the_ttl_the_key_opens_a_new_table(counter_game, settings):
    settings.IDEMPOTENCY_TTL_SECONDS = 600
    alice = person("alice")
    first = create(alice, key="k-old").json()
    CommandRecord.objects.filter(key="k-old").update(created_at=timezone.now() - timedelta(seconds=601))
    later = create(alice, key="k-old")
    assert later.status_code == 201 and "Idempotent-Replayed" not in later.headers
    assert later.json()["id"] != first["id"]
    assert Table.objects.count() == 2


@pytest.mark.django_db
def test_an_over_long_key_is_refused(counter_game):
    refused = create(person("alice"), key="k" * 201)
    assert refused.status_code == 400 and refused.json()["code"] == "invalid"
    assert Table.objects.count() == 0


# --- payout decisions ---------------------------------------------------------------------------


@pytest.fixture
def payout(counter_game, task_queue):
    alice, sam = person("alice"), person("sam", staff=True)
    table_id = finished_table(task_queue, alice, sam)
    return Payout.objects.get(table_id=table_id, seat=0)


def decide(client, payout, action: str, body: dict, key: str | None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return client.post(f"/api/v1/payouts/{payout.pk}/{action}/", body, format="json", **headers)


@pytest.mark.django_db(transaction=True)
def test_a_repeated_approval_is_one_decision_and_one_payment(payout):
    tina = person("tina", staff=True)
    wallet = keys.wallet_key(payout.user_id, "MXN")
    before = balance_of(key=wallet)
    first = decide(tina, payout, "approve", {"reason": "clean"}, "approve-1")
    again = decide(tina, payout, "approve", {"reason": "clean"}, "approve-1")
    assert first.status_code == again.status_code == 200, (first.json(), again.json())
    assert again.json() == first.json() and again.json()["status"] == "approved"
    assert "Idempotent-Replayed" not in first.headers
    assert again.headers["Idempotent-Replayed"] == "true"
    assert PayoutDecision.objects.filter(payout=payout).count() == 1
    assert Transaction.objects.filter(reference=f"payout:{payout.pk}", kind=PAID).count() == 1
    assert balance_of(key=wallet) == before + payout.amount
    # Without the key a repeat is the usual refusal: the payout is decided.
    plain = decide(tina, payout, "approve", {"reason": "clean"}, None)
    assert plain.status_code == 409 and plain.json()["code"] == "payout_decided"


@pytest.mark.django_db(transaction=True)
def test_a_repeated_rejection_is_one_decision_and_one_follow_up(payout):
    tina = person("tina", staff=True)
    first = decide(tina, payout, "reject", {"reason": "suspicious"}, "reject-1")
    again = decide(tina, payout, "reject", {"reason": "suspicious"}, "reject-1")
    assert first.status_code == again.status_code == 200, (first.json(), again.json())
    assert again.json() == first.json() and again.json()["status"] == "rejected"
    assert again.headers["Idempotent-Replayed"] == "true"
    assert PayoutDecision.objects.filter(payout=payout).count() == 1
    assert FollowUp.objects.filter(payout=payout).count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_same_key_for_another_decision_is_refused(payout):
    tina = person("tina", staff=True)
    assert decide(tina, payout, "approve", {}, "decision-1").status_code == 200
    for action, body in (("reject", {"reason": "changed my mind"}), ("approve", {"reason": "other words"})):
        refused = decide(tina, payout, action, body, "decision-1")
        assert refused.status_code == 422, refused.json()
        assert refused.json()["code"] == "idempotency_key_reused"
    payout.refresh_from_db()
    assert payout.status == Payout.Status.APPROVED
    assert PayoutDecision.objects.filter(payout=payout).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_refused_decision_leaves_the_key_unused(payout):
    tina = person("tina", staff=True)
    refused = decide(tina, payout, "reject", {"reason": "  "}, "reject-2")
    assert refused.status_code == 400
    assert not CommandRecord.objects.filter(key="reject-2").exists()
    assert decide(tina, payout, "reject", {"reason": "now with a reason"}, "reject-2").status_code == 200


# --- twins: the same key sent twice at once, for real on PostgreSQL ------------------------------


def test_twin_table_creations_with_one_key_open_one_table(postgres_tx, counter_game):
    alice = person("alice")
    results = race(
        4, lambda i: idempotency.once(user=alice.user, key="twin", request={"n": 1}, run=lambda: _new(alice))
    )
    assert all(isinstance(result, tuple) for result in results), results
    assert sorted(replayed for _, _, replayed in results) == [False, True, True, True]
    assert len({body["id"] for _, body, _ in results}) == 1
    assert Table.objects.count() == 1


def _new(client):
    table = play.create_table(user=client.user, game="counter", seats=2)
    return 201, {"id": str(table.pk)}, table


def test_twin_approvals_with_one_key_decide_once_and_both_get_the_answer(postgres_tx, counter_game, task_queue):
    alice, sam = person("alice"), person("sam", staff=True)
    payout = Payout.objects.get(table_id=finished_table(task_queue, alice, sam), seat=0)
    tina = person("tina", staff=True)

    def approve_once(_: int):
        return idempotency.once(
            user=tina.user,
            key="twin-approval",
            request={"operation": "approve_payout", "payout": payout.pk, "reason": ""},
            run=lambda: (200, {"status": approve(payout_id=payout.pk, by=tina.user).status}, None),
        )

    results = race(3, approve_once)
    assert all(isinstance(result, tuple) for result in results), results
    assert sorted(replayed for _, _, replayed in results) == [False, True, True]
    assert {body["status"] for _, body, _ in results} == {"approved"}
    assert PayoutDecision.objects.filter(payout=payout).count() == 1
    assert Transaction.objects.filter(reference=f"payout:{payout.pk}", kind=PAID).count() == 1
