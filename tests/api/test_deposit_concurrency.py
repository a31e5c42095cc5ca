"""Two staff deciding one large deposit at once, for real on PostgreSQL: threads with their own
connections, as tests/api/test_payout_concurrency.py races payouts."""

from __future__ import annotations

from collections import Counter

from ledger import keys
from ledger import services as ledger
from ledger.errors import DepositDecided
from ledger.models import Transaction
from ledger.selectors import balance_of
from tests.api.play import person
from tests.ledger.test_concurrency import race


def pending_deposit(settings) -> tuple[str, int]:
    settings.DEPOSIT_TWO_PERSON_LIMIT = 100_00
    alice, sam = person("alice"), person("sam", staff=True)
    large = sam.post("/api/v1/wallets/alice/deposits/", {"currency": "MXN", "amount": "150.00"}, format="json")
    assert large.status_code == 202, large.json()
    return large.json()["pending_deposit"], alice.user.pk


def test_two_staff_rejecting_one_deposit_at_once_one_wins_the_other_is_told(postgres_tx, settings):
    """The pending account's row lock serialises them: one rejection moves the money back to house
    cash with its reason; the other answers 409 ``deposit_decided`` instead of a 201 whose reason
    was dropped."""
    deposit, _ = pending_deposit(settings)
    staff = [person(name, staff=True).user for name in ("tina", "uma")]
    cash = balance_of(key=keys.house_cash_key("MXN"))

    results = race(2, lambda i: ledger.reject_deposit(deposit_id=deposit, by=staff[i], reason=f"reason {i}"))

    assert Counter(type(result).__name__ for result in results) == {"Transaction": 1, "DepositDecided": 1}, results
    [won] = [result for result in results if isinstance(result, Transaction)]
    [lost] = [result for result in results if isinstance(result, DepositDecided)]
    assert won.memo in ("reason 0", "reason 1") and lost.extra["deposit_state"] == "rejected"
    assert Transaction.objects.filter(kind=ledger.REJECTED_DEPOSIT).count() == 1
    assert balance_of(key=keys.house_cash_key("MXN")) == cash + 150_00
    assert ledger.reconcile().ok, ledger.reconcile().lines()


def test_an_approval_and_a_rejection_at_once_move_the_money_once(postgres_tx, settings):
    deposit, alice = pending_deposit(settings)
    tina, uma = person("tina", staff=True).user, person("uma", staff=True).user

    results = race(
        2,
        lambda i: (
            ledger.approve_deposit(deposit_id=deposit, by=tina)
            if i == 0
            else ledger.reject_deposit(deposit_id=deposit, by=uma, reason="no bank record")
        ),
    )

    assert sum(isinstance(result, Transaction) for result in results) == 1, results
    assert sum(isinstance(result, DepositDecided) for result in results) == 1, results
    approved = isinstance(results[0], Transaction)
    assert balance_of(key=keys.wallet_key(alice, "MXN")) == (150_00 if approved else 0)
    assert ledger.reconcile().ok, ledger.reconcile().lines()
