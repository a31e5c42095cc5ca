"""post(), reverse(), deposit(): balanced, idempotent, never overdrawn."""

from __future__ import annotations

import uuid

import pytest

from ledger import keys, services
from ledger.errors import (
    AlreadyReversed,
    BadAmount,
    Forbidden,
    IdempotencyMismatch,
    ImmutableRecord,
    InsufficientFunds,
    InvalidRequest,
    UnbalancedTransaction,
    UnknownUnit,
)
from ledger.models import Account, Posting, Transaction
from ledger.selectors import balance_of, balances, transactions_for

MXN = "MXN"


def fund(user, staff, minor, key="fund"):
    return services.deposit(user=user, currency=MXN, amount_minor=minor, by=staff, idempotency_key=key)


def test_unbalanced_transaction_is_refused_and_writes_nothing(alice):
    wallet = keys.wallet_key(alice.pk, MXN)
    with pytest.raises(UnbalancedTransaction, match=r"MXN by \+50"):
        services.post(
            key="k1",
            postings=[(keys.house_cash_key(MXN), MXN, -100), (wallet, MXN, 150)],
            kind="deposit",
        )
    assert not Transaction.objects.exists()
    assert not Posting.objects.exists()


def test_each_unit_must_balance_on_its_own(alice):
    table = uuid.uuid4()
    with pytest.raises(UnbalancedTransaction):
        services.post(
            key="k1",
            postings=[
                (keys.bank_key(table), "CHIP", -100),
                (keys.seat_key(table, 0), "CHIP", 50),
                ("house:cash:MXN", MXN, 50),
            ],
            kind="buy_in",
        )


def test_a_single_posting_is_refused(alice):
    with pytest.raises(UnbalancedTransaction, match="at least two postings"):
        services.post(key="k1", postings=[(keys.wallet_key(alice.pk, MXN), MXN, 100)], kind="deposit")


def test_a_unit_that_is_not_the_accounts_unit_is_refused(alice):
    with pytest.raises(UnbalancedTransaction, match="holds MXN, not USD"):
        services.post(
            key="k1",
            postings=[("house:cash:USD", "USD", -100), (keys.wallet_key(alice.pk, MXN), "USD", 100)],
            kind="deposit",
        )


@pytest.mark.parametrize("amount", [0, 1.5, True, "100"])
def test_amounts_are_non_zero_integers(alice, amount):
    with pytest.raises(BadAmount):
        services.post(
            key="k1",
            postings=[("house:cash:MXN", MXN, amount), (keys.wallet_key(alice.pk, MXN), MXN, amount)],
            kind="x",
        )


def test_posting_moves_balances_and_records_the_reference(alice):
    table = uuid.uuid4()
    txn = services.post(
        key="event:t:1",
        postings=[(keys.bank_key(table), "CHIP", -40), (keys.seat_key(table, 1), "CHIP", 40)],
        kind="buy_in",
        reference="event:t:1",
        table_id=table,
        hand_no=3,
    )
    assert balance_of(key=keys.bank_key(table)) == -40
    assert balance_of(key=keys.seat_key(table, 1)) == 40
    assert (txn.reference, txn.table_id, txn.hand_no) == ("event:t:1", table, 3)
    seat = Account.objects.get(key=keys.seat_key(table, 1))
    assert (seat.kind, seat.seat, seat.table_id) == ("seat", 1, table)


def test_the_same_key_and_postings_return_the_first_transaction(alice, carol):
    first = fund(alice, carol, 10000, key="same")
    again = fund(alice, carol, 10000, key="same")
    assert again.pk == first.pk
    assert Transaction.objects.count() == 1
    assert balance_of(key=keys.wallet_key(alice.pk, MXN)) == 10000


def test_the_same_key_with_other_postings_is_refused(alice, carol):
    fund(alice, carol, 10000, key="same")
    with pytest.raises(IdempotencyMismatch, match="already used for a different transaction"):
        fund(alice, carol, 20000, key="same")
    assert balance_of(key=keys.wallet_key(alice.pk, MXN)) == 10000


def test_the_same_key_with_another_kind_is_refused(alice):
    lines = [("house:cash:MXN", MXN, -5), (keys.wallet_key(alice.pk, MXN), MXN, 5)]
    services.post(key="k", postings=lines, kind="deposit")
    with pytest.raises(IdempotencyMismatch):
        services.post(key="k", postings=lines, kind="prize")


def test_overdraft_is_refused_and_writes_nothing(alice, carol):
    fund(alice, carol, 1000)
    with pytest.raises(InsufficientFunds, match=r"MXN wallet holds 10.00 MXN; this needs 10.01 MXN") as refused:
        services.withdraw(user=alice, currency=MXN, amount_minor=1001, by=carol, idempotency_key="w")
    assert refused.value.extra["balance"] == "10.00"
    assert balance_of(key=keys.wallet_key(alice.pk, MXN)) == 1000
    assert Transaction.objects.count() == 1


def test_spending_the_whole_wallet_is_allowed(alice, carol):
    fund(alice, carol, 1000)
    services.withdraw(user=alice, currency=MXN, amount_minor=1000, by=carol, idempotency_key="w")
    assert balance_of(key=keys.wallet_key(alice.pk, MXN)) == 0
    assert balance_of(key=keys.house_cash_key(MXN)) == 0


def test_house_cash_goes_negative_as_money_comes_in(alice, carol):
    fund(alice, carol, 2500)
    assert balance_of(key="house:cash:MXN") == -2500


def test_reversal_mirrors_the_original_once(alice, carol):
    original = fund(alice, carol, 2500)
    reversal = services.reverse(transaction=original, reason="wrong user", by=carol)
    assert reversal.reverses_id == original.pk
    assert sorted(reversal.postings.values_list("amount", flat=True)) == [-2500, 2500]
    assert balance_of(key=keys.wallet_key(alice.pk, MXN)) == 0
    assert balance_of(key="house:cash:MXN") == 0
    with pytest.raises(AlreadyReversed):
        services.reverse(transaction=original, reason="again", by=carol)
    with pytest.raises(InvalidRequest, match="itself a reversal"):
        services.reverse(transaction=reversal, reason="undo the undo", by=carol)
    assert Transaction.objects.count() == 2


def test_reversal_cannot_take_back_money_already_spent(alice, carol):
    original = fund(alice, carol, 2500)
    services.withdraw(user=alice, currency=MXN, amount_minor=2000, by=carol, idempotency_key="w")
    with pytest.raises(InsufficientFunds):
        services.reverse(transaction=original, reason="late correction", by=carol)
    assert not Transaction.objects.filter(reverses=original).exists()


def test_only_staff_record_deposits(alice, bob):
    with pytest.raises(Forbidden):
        services.deposit(user=alice, currency=MXN, amount_minor=100, by=bob)
    assert not Transaction.objects.exists()


@pytest.mark.parametrize(
    ("currency", "amount", "error"), [("CHIP", 100, UnknownUnit), ("MXN", 0, BadAmount), ("MXN", -5, BadAmount)]
)
def test_deposit_refuses_chips_and_non_positive_amounts(alice, carol, currency, amount, error):
    with pytest.raises(error):
        services.deposit(user=alice, currency=currency, amount_minor=amount, by=carol)


def test_client_keys_are_scoped_to_the_staff_member(alice, bob, carol):
    dave = type(carol).objects.create_user("dave", is_staff=True)
    fund(alice, carol, 100, key="k")
    fund(bob, dave, 300, key="k")  # another staff member's "k" is another deposit
    assert balance_of(key=keys.wallet_key(bob.pk, MXN)) == 300


def test_transactions_and_postings_refuse_changes_through_the_models(alice, carol):
    txn = fund(alice, carol, 100)
    posting = txn.postings.first()
    txn.memo = "edited"
    with pytest.raises(ImmutableRecord):
        txn.save()
    with pytest.raises(ImmutableRecord):
        posting.delete()
    with pytest.raises(ImmutableRecord):
        txn.delete()


def test_balances_and_transactions_for_a_user(alice, bob, carol):
    fund(alice, carol, 1000, key="a")
    services.deposit(user=alice, currency="USD", amount_minor=250, by=carol, idempotency_key="b")
    fund(bob, carol, 700, key="c")
    assert [(b.currency, b.minor, b.amount) for b in balances(user=alice)] == [
        ("MXN", 1000, "10.00"),
        ("USD", 250, "2.50"),
    ]
    mine = list(transactions_for(user=alice))
    assert [t.memo for t in mine] == [
        "Deposit of 2.50 USD recorded by carol",
        "Deposit of 10.00 MXN recorded by carol",
    ]
    assert {p.account.key for p in mine[0].postings.all()} == {keys.wallet_key(alice.pk, "USD"), "house:cash:USD"}
