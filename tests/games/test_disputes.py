"""Disputes through the service layer: filing on a payout, the window measured by the service's
clock, the live notice to the player, the model's refusal to change a step, and reconcile naming
a compensation changed behind the service's back."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group

from games.disputes import bounds, services
from games.disputes.models import Dispute, DisputeStep
from games.errors import Conflict, NotFound
from ledger import keys
from ledger import services as ledger
from ledger.errors import ImmutableRecord
from ledger.models import Payout, Transaction
from ledger.selectors import balance_of
from ledger.units import format_amount
from tests.api.play import Game, check_finished_table, person, play_to_the_end, set_up
from tests.api.test_payouts import finished_table
from tests.ledger.test_concurrency import race

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table(counter_game, task_queue):
    """A finished counter money table of alice (seat 0) and bob (seat 1), and ada, an auditor."""
    alice = person("alice")
    table_id = finished_table(task_queue, alice, person("sam", staff=True))
    ada = person("ada").user
    ada.groups.add(Group.objects.get_or_create(name="auditors")[0])
    payouts = {p.seat: p for p in Payout.objects.filter(table_id=table_id)}
    return {"id": table_id, "alice": alice.user, "bob": payouts[1].user, "ada": ada, "payouts": payouts}


def file(table, who="alice", **extra):
    return services.file(
        user=table[who], table_id=table["id"], hand_no=1, category="money", words="Short-paid.", **extra
    )


def test_a_player_disputes_their_own_payout_but_not_another_players(table):
    dispute = file(table, payout_id=table["payouts"][0].pk)
    assert dispute.payout_id == table["payouts"][0].pk
    assert dispute.steps.first().data["payout"] == table["payouts"][0].pk
    with pytest.raises(NotFound) as refused:
        file(table, who="bob", payout_id=table["payouts"][0].pk)
    assert refused.value.code == "no_such_payout"


def test_the_window_closes_dispute_window_days_after_the_hand_ended(table, monkeypatch, settings):
    settings.DISPUTE_WINDOW_DAYS = 2
    real_now = services.now
    monkeypatch.setattr(services, "now", lambda: real_now() + timedelta(days=2, minutes=1))
    with pytest.raises(Conflict) as refused:
        file(table)
    assert refused.value.code == "dispute_window_closed" and "closed_at" in refused.value.extra
    monkeypatch.setattr(services, "now", lambda: real_now() + timedelta(days=1))
    assert file(table).state == Dispute.State.OPEN


def test_every_move_of_a_dispute_is_published_to_its_player(table, monkeypatch):
    notices = []
    monkeypatch.setattr("games.notify.publish", notices.append)
    dispute = file(table)
    services.decide(dispute_id=dispute.pk, by=table["ada"], outcome="rejected", reasons="The payout is right.")
    mine = [(n["k"], n["user"], n["dispute"], n["state"]) for n in notices if n["k"] == "dispute"]
    assert mine == [
        ("dispute", table["alice"].pk, dispute.pk, "open"),
        ("dispute", table["alice"].pk, dispute.pk, "under_review"),
        ("dispute", table["alice"].pk, dispute.pk, "rejected"),
    ]


def test_the_model_refuses_to_change_or_delete_a_step(table):
    step = file(table).steps.first()
    step.reason = "rewritten"
    with pytest.raises(ImmutableRecord):
        step.save()
    with pytest.raises(ImmutableRecord):
        step.delete()
    assert DisputeStep.objects.get(pk=step.pk).reason == "Short-paid."


def test_reconcile_names_a_compensation_changed_behind_the_service(table, settings):
    settings.PAYOUT_TWO_PERSON_LIMIT = "MXN=1000.00"
    dispute = file(table)
    services.decide(dispute_id=dispute.pk, by=table["ada"], outcome="upheld", reasons="Yes.", compensation="3.00")
    assert ledger.reconcile().ok
    Dispute.objects.filter(pk=dispute.pk).update(compensation=300_000)  # above the two-person limit of 1000.00
    found = {(p.code, p.subject) for p in ledger.reconcile().problems}
    assert ("compensation_mismatch", f"transaction:{Dispute.objects.get(pk=dispute.pk).transaction_id}") in found
    assert ("compensation_approvals_mismatch", f"dispute:{dispute.pk}") in found


# --- races, for real on PostgreSQL --------------------------------------------------------------


def test_two_filings_of_one_hand_at_once_open_one_dispute(postgres_tx, table):
    results = race(4, lambda i: file(table))
    assert sum(isinstance(r, Dispute) for r in results) == 1, results
    refused = [r for r in results if not isinstance(r, Dispute)]
    assert {(type(r).__name__, r.code) for r in refused} == {("Conflict", "dispute_already_open")}, results
    assert Dispute.objects.count() == 1
    assert DisputeStep.objects.filter(kind=DisputeStep.Kind.FILED).count() == 1


@pytest.fixture
def small_limit(settings):
    """A two-person limit of 100 minor units, set before the table's payouts open."""
    settings.PAYOUT_TWO_PERSON_LIMIT = 100


def test_staff_approving_one_compensation_at_once_pay_it_once(postgres_tx, small_limit, table):
    dispute = file(table)
    # Above the two-person limit of 100 minor units, within the hand's cost to alice (3.50 MXN):
    # it waits for a second approver.
    services.decide(dispute_id=dispute.pk, by=table["ada"], outcome="upheld", reasons="Yes.", compensation="3.00")
    staff = [person(f"staff{i}", staff=True).user for i in range(5)]
    wallet = keys.wallet_key(table["alice"].pk, "MXN")
    before = balance_of(key=wallet)

    results = race(5, lambda i: services.approve_compensation(dispute_id=dispute.pk, by=staff[i]))

    assert sum(isinstance(r, Dispute) for r in results) == 1, results
    assert {r.code for r in results if not isinstance(r, Dispute)} == {"dispute_not_awaiting_approval"}, results
    assert balance_of(key=wallet) == before + 300
    assert Transaction.objects.filter(reference=f"dispute:{dispute.pk}").count() == 1
    assert ledger.reconcile().ok


# --- a table's claims share its loss ------------------------------------------------------------


@pytest.fixture
def two_hands(counter_game, task_queue):
    """A finished counter money table of two hands, alice and bob each buying 100 chips of 0.50 MXN;
    ``loser`` is the one whose payout is less than the 50.00 they paid in, ``lost`` by how much;
    ada and eve are auditors."""
    alice, sam = person("alice"), person("sam", staff=True)
    spec = Game(
        "counter", 2, people=(0, 1), options={"hands": 2, "target": 9}, stake={"currency": "MXN", "chip_value": "0.50"}
    )
    table_id, clients = set_up(spec, alice, sam)
    play_to_the_end(table_id, clients, task_queue, random.Random(11))
    check_finished_table(table_id)
    payout = min(Payout.objects.filter(table_id=table_id), key=lambda p: p.amount)
    assert payout.amount < 5000, "nobody lost at this table: choose another seed"
    auditors = []
    for name in ("ada", "eve"):
        user = person(name).user
        user.groups.add(Group.objects.get_or_create(name="auditors")[0])
        auditors.append(user)
    return {"id": table_id, "loser": payout.user, "payout": payout, "lost": 5000 - payout.amount, "auditors": auditors}


def claim(table, hand_no):
    """The loser's claim on their payout, filed on hand ``hand_no``: measured over the whole table."""
    return services.file(
        user=table["loser"],
        table_id=table["id"],
        hand_no=hand_no,
        category="money",
        words="Short-paid.",
        payout_id=table["payout"].pk,
    )


def test_claims_on_one_table_share_its_loss_a_waiting_compensation_counting(two_hands, settings):
    settings.PAYOUT_TWO_PERSON_LIMIT = "MXN=0.01"  # every compensation waits for a second approver
    lost, ada = two_hands["lost"], two_hands["auditors"][0]
    first, second = claim(two_hands, 1), claim(two_hands, 2)
    assert bounds.bound(first) == bounds.bound(second) == lost
    whole = format_amount(lost, "MXN")
    decided = services.decide(dispute_id=first.pk, by=ada, outcome="upheld", reasons="Yes.", compensation=whole)
    assert decided.state == Dispute.State.AWAITING_APPROVAL
    assert bounds.bound(Dispute.objects.get(pk=second.pk)) == 0
    with pytest.raises(bounds.CompensationRefused) as refused:
        services.decide(dispute_id=second.pk, by=ada, outcome="upheld", reasons="Yes.", compensation="0.01")
    assert refused.value.extra["bound"] == "0.00" and refused.value.extra["compensated"] == whole


def test_a_loss_paid_back_over_the_table_is_not_paid_again_over_a_hand(two_hands):
    """A claim on the payout upheld for the whole loss at the table counts against every later claim on
    one of its hands: a hand claim is bounded by what the hand lost less what the table claims paid,
    so one loss is never paid twice; reconcile agrees."""
    lost, ada = two_hands["lost"], two_hands["auditors"][0]
    services.decide(
        dispute_id=claim(two_hands, 1).pk,
        by=ada,
        outcome="upheld",
        reasons="Yes.",
        compensation=format_amount(lost, "MXN"),
    )
    for hand_no in (1, 2):
        hand_claim = services.file(
            user=two_hands["loser"], table_id=two_hands["id"], hand_no=hand_no, category="cards", words="Misdealt."
        )
        assert not bounds.per_table(hand_claim)
        assert bounds.compensated(hand_claim) == lost
        left = max(bounds.lost(hand_claim) - lost, 0)
        assert bounds.bound(hand_claim) == left
        with pytest.raises(bounds.CompensationRefused):
            over = format_amount(left + 1, "MXN")
            services.decide(dispute_id=hand_claim.pk, by=ada, outcome="upheld", reasons="Yes.", compensation=over)
        services.decide(dispute_id=hand_claim.pk, by=ada, outcome="rejected", reasons="Paid over the table.")
    report = ledger.reconcile()
    assert report.ok, report.lines()


def test_two_claims_on_one_table_decided_at_once_pay_its_loss_once(postgres_tx, two_hands):
    """Two auditors uphold the loser's two claims on one table at the same moment, each for the whole
    loss: the player's lock lets one decision read the other's, so one is paid and one refused."""
    lost = two_hands["lost"]
    disputes = [claim(two_hands, 1), claim(two_hands, 2)]
    wallet = keys.wallet_key(two_hands["loser"].pk, "MXN")
    before = balance_of(key=wallet)

    results = race(
        2,
        lambda i: services.decide(
            dispute_id=disputes[i].pk,
            by=two_hands["auditors"][i],
            outcome="upheld",
            reasons="Yes.",
            compensation=format_amount(lost, "MXN"),
        ),
    )

    assert sum(isinstance(r, Dispute) for r in results) == 1, results
    assert [r.code for r in results if not isinstance(r, Dispute)] == ["compensation_over_bound"], results
    assert balance_of(key=wallet) == before + lost
    report = ledger.reconcile()
    assert report.ok, report.lines()
