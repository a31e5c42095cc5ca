"""Concurrent decisions on one payout, for real on PostgreSQL: threads with their own connections."""

from __future__ import annotations

from collections import Counter

from ledger import keys
from ledger import services as ledger
from ledger.errors import PayoutDecided
from ledger.models import Payout, PayoutDecision, Transaction
from ledger.payouts import PAID, approve, reject
from ledger.selectors import balance_of
from tests.api.play import person
from tests.api.test_payouts import finished_table
from tests.ledger.test_concurrency import race

STAFF = 6


def test_staff_approving_the_same_payout_at_once_pay_it_once(postgres_tx, counter_game, task_queue):
    table_id = finished_table(task_queue, person("alice"), person("sam", staff=True))
    payout = Payout.objects.get(table_id=table_id, seat=0)
    wallet = keys.wallet_key(payout.user_id, "MXN")
    before = balance_of(key=wallet)
    staff = [person(f"staff{i}", staff=True).user for i in range(STAFF)]

    results = race(STAFF, lambda i: approve(payout_id=payout.pk, by=staff[i]))

    outcomes = Counter(type(result).__name__ for result in results)
    assert outcomes == {"Payout": 1, "PayoutDecided": STAFF - 1}, results
    assert balance_of(key=wallet) == before + payout.amount
    assert Transaction.objects.filter(reference=f"payout:{payout.pk}", kind=PAID).count() == 1
    assert PayoutDecision.objects.filter(payout=payout).count() == 1
    assert ledger.reconcile().ok


def test_approve_and_reject_racing_move_the_money_once(postgres_tx, counter_game, task_queue):
    table_id = finished_table(task_queue, person("alice"), person("sam", staff=True))
    payout = Payout.objects.get(table_id=table_id, seat=1)
    tina, uma = person("tina", staff=True).user, person("uma", staff=True).user

    results = race(
        2,
        lambda i: approve(payout_id=payout.pk, by=tina) if i == 0 else reject(payout_id=payout.pk, by=uma, reason="x"),
    )

    assert sum(isinstance(result, Payout) for result in results) == 1, results
    assert sum(isinstance(result, PayoutDecided) for result in results) == 1, results
    payout.refresh_from_db()
    assert payout.status in (Payout.Status.APPROVED, Payout.Status.REJECTED)
    assert Transaction.objects.filter(reference=f"payout:{payout.pk}").count() == 1
    assert balance_of(key=payout.pending_key) == 0
    assert ledger.reconcile().ok
