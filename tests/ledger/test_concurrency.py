"""Real races on PostgreSQL: threads, each with its own connection, hit the same accounts at once."""

from __future__ import annotations

import threading
import uuid
from collections import Counter
from collections.abc import Callable

from django.contrib.auth import get_user_model
from django.db import connections

from ledger import keys, services
from ledger.errors import DepositDecided, InsufficientFunds
from ledger.models import Account, Transaction
from ledger.selectors import balance_of

THREADS = 10


def race(n: int, attempt: Callable[[int], object]) -> list[object]:
    """Run ``attempt(i)`` in ``n`` threads released together; each result or the exception raised."""
    barrier = threading.Barrier(n)
    results: list[object] = [None] * n

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = attempt(i)
        except Exception as exc:
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), "a thread is stuck (deadlock?)"
    return results


def people():
    users = get_user_model().objects
    return users.create_user("alice"), users.create_user("bob"), users.create_user("carol", is_staff=True)


def test_concurrent_withdrawals_cannot_overdraw(postgres_tx):
    alice, _, carol = people()
    services.deposit(user=alice, currency="MXN", amount_minor=1000, by=carol, idempotency_key="seed")

    results = race(
        THREADS,
        lambda i: services.withdraw(user=alice, currency="MXN", amount_minor=300, by=carol, idempotency_key=f"w{i}"),
    )

    outcomes = Counter(type(r).__name__ for r in results)
    assert outcomes == {"Transaction": 3, "InsufficientFunds": THREADS - 3}, results
    assert all(isinstance(r, Transaction | InsufficientFunds) for r in results)
    assert balance_of(key=keys.wallet_key(alice.pk, "MXN")) == 100
    assert services.reconcile().ok


def test_opposite_transfers_do_not_deadlock(postgres_tx):
    """Accounts are locked in id order, so A->B and B->A at once queue instead of deadlocking."""
    alice, bob, carol = people()
    for who in (alice, bob):
        services.deposit(user=who, currency="MXN", amount_minor=10_000, by=carol, idempotency_key=f"seed-{who.pk}")
    a, b = keys.wallet_key(alice.pk, "MXN"), keys.wallet_key(bob.pk, "MXN")

    def transfer(i: int) -> list[Transaction]:
        source, target = (a, b) if i % 2 else (b, a)
        return [
            services.post(key=f"t{i}-{round_}", postings=[(source, "MXN", -100), (target, "MXN", 100)], kind="transfer")
            for round_ in range(5)
        ]

    results = race(8, transfer)

    assert all(isinstance(r, list) for r in results), results
    assert Transaction.objects.filter(kind="transfer").count() == 40
    assert balance_of(key=a) == balance_of(key=b) == 10_000
    assert services.reconcile().ok


def test_the_same_idempotency_key_racing_acts_once(postgres_tx):
    alice, _, carol = people()

    results = race(
        8, lambda i: services.deposit(user=alice, currency="MXN", amount_minor=500, by=carol, idempotency_key="once")
    )

    assert all(isinstance(r, Transaction) for r in results), results
    assert len({r.pk for r in results}) == 1
    assert Transaction.objects.count() == 1
    assert balance_of(key=keys.wallet_key(alice.pk, "MXN")) == 500
    assert services.reconcile().ok


def test_racing_posts_create_each_new_account_once(postgres_tx):
    """Brand-new accounts named in opposite orders: created in key order, once each, no deadlock."""
    table = uuid.uuid4()
    bank, cash = keys.bank_key(table), keys.house_bots_key("MXN")

    def buy(i: int) -> Transaction:
        lines = [(bank, "CHIP", -10), (keys.seat_key(table, i), "CHIP", 10)]
        money = [(cash, "MXN", -100), (keys.escrow_key(table, "MXN"), "MXN", 100)]
        return services.post(key=f"buy{i}", postings=(lines + money)[:: 1 if i % 2 else -1], kind="buy_in")

    results = race(8, buy)

    assert all(isinstance(r, Transaction) for r in results), results
    assert Account.objects.filter(table_id=table).count() == 8 + 2
    assert balance_of(key=bank) == -80
    assert balance_of(key=keys.escrow_key(table, "MXN")) == 800
    assert services.reconcile().ok


def test_approvals_and_rejections_of_one_large_deposit_racing_decide_it_once(postgres_tx, settings):
    settings.DEPOSIT_TWO_PERSON_LIMIT = 100
    alice, _, carol = people()
    staff = [get_user_model().objects.create_user(f"staff{i}", is_staff=True) for i in range(THREADS)]
    opened = services.deposit(user=alice, currency="MXN", amount_minor=5000, by=carol, idempotency_key="large")
    deposit_id = opened.reference.split(":")[1]
    cash = balance_of(key=keys.house_cash_key("MXN"))

    def decide(i: int) -> object:
        if i % 2:
            return services.approve_deposit(deposit_id=deposit_id, by=staff[i])
        return services.reject_deposit(deposit_id=deposit_id, by=staff[i], reason=f"refused by {i}")

    results = race(THREADS, decide)

    decided = {r.pk for r in results if isinstance(r, Transaction)}
    assert len(decided) == 1, results  # every winner answers the one transaction
    refused = [r for r in results if not isinstance(r, Transaction)]
    assert all(isinstance(r, DepositDecided) for r in refused), refused
    [winner] = Transaction.objects.filter(pk__in=decided)
    approved = winner.kind == "deposit"
    assert balance_of(key=keys.wallet_key(alice.pk, "MXN")) == (5000 if approved else 0)
    assert balance_of(key=keys.house_cash_key("MXN")) == (cash if approved else cash + 5000)
    assert services.reconcile().ok, services.reconcile().lines()
