"""post_many(): several transactions in a few statements, as post() one after the other would
record them: the same rows, the same balances, the same refusals (issue 24)."""

from __future__ import annotations

import uuid

import pytest
from django.db import transaction

from ledger import batch, keys, services
from ledger.errors import InsufficientFunds, UnbalancedTransaction
from ledger.models import Account, Posting, Transaction

CHIP = "CHIP"


def entries(table: uuid.UUID, wallet: str) -> list[batch.Entry]:
    bank, seat0, seat1, pot = (
        keys.bank_key(table),
        keys.seat_key(table, 0),
        keys.seat_key(table, 1),
        keys.pot_key(table),
    )
    return [
        batch.Entry(f"event:{table}:1", [(bank, CHIP, -10), (seat0, CHIP, 10)], "buy_in", "one", "r1", table, 1),
        batch.Entry(f"event:{table}:2", [(seat0, CHIP, -4), (pot, CHIP, 4), (bank, CHIP, -3), (seat1, CHIP, 3)], "bet"),
        batch.Entry(f"event:{table}:3", [(pot, CHIP, -4), (seat1, CHIP, 4)], "win", hand_no=1),
        batch.Entry(f"event:{table}:4", [("house:cash:MXN", "MXN", -500), (wallet, "MXN", 500)], "deposit"),
    ]


def recorded(table: uuid.UUID) -> list[tuple]:
    rows = Transaction.objects.filter(idempotency_key__startswith=f"event:{table}:").order_by("idempotency_key")
    return [
        (
            t.idempotency_key.rsplit(":", 1)[1],
            t.kind,
            t.memo,
            t.reference,
            t.table_id == table,
            t.hand_no,
            sorted((p.account.key.replace(str(table), "T"), p.unit, p.amount) for p in t.postings.all()),
        )
        for t in rows
    ]


def balances() -> dict[str, int]:
    return {a.key.split(":", 2)[-1] if a.key.startswith("table:") else a.key: a.balance for a in Account.objects.all()}


def test_the_same_rows_and_balances_as_posting_one_by_one(alice, django_assert_max_num_queries):
    wallet = keys.wallet_key(alice.pk, "MXN")
    one, many = uuid.uuid4(), uuid.uuid4()
    with transaction.atomic():
        for entry in entries(one, wallet):
            services.post(**{name: getattr(entry, name) for name in entry.__dataclass_fields__})
    by_one = balances()
    Account.objects.filter(key=wallet).update(balance=0)
    Account.objects.filter(key="house:cash:MXN").update(balance=0)
    with transaction.atomic():
        # Its accounts are new: made one by one, then the transactions in a few statements.
        batch.post_many(entries(many, wallet))
    assert [row[1:] for row in recorded(one)] == [row[1:] for row in recorded(many)]
    assert {k: v for k, v in balances().items()} == by_one
    pot, seat = keys.pot_key(many), keys.seat_key(many, 1)
    more = [
        batch.Entry(f"event:{many}:{seq}", [(seat, CHIP, -1), (pot, CHIP, 1)], "bet", hand_no=2) for seq in (5, 6, 7)
    ]
    with transaction.atomic(), django_assert_max_num_queries(5):
        # Accounts that exist: locked in one statement; then the keys, the transactions, their
        # postings and the balances, one statement each however many transactions.
        batch.post_many(more)
    assert Account.objects.get(key=seat).balance == 7 - 3


def test_an_overdraft_is_refused_as_post_refuses_it(alice):
    table = uuid.uuid4()
    wallet = keys.wallet_key(alice.pk, "MXN")
    spend = batch.Entry(f"event:{table}:9", [(wallet, "MXN", -600), ("house:cash:MXN", "MXN", 600)], "spend")
    with pytest.raises(InsufficientFunds) as refused, transaction.atomic():
        batch.post_many([*entries(table, wallet), spend])
    # The balance it names is the one after the transactions before it in the batch.
    assert refused.value.extra["balance"] == "5.00"
    assert not Transaction.objects.exists() and not Posting.objects.exists()


def test_a_malformed_entry_is_refused_after_those_before_it(alice):
    table = uuid.uuid4()
    bad = batch.Entry(f"event:{table}:5", [(keys.pot_key(table), CHIP, 5)], "bad")
    with pytest.raises(UnbalancedTransaction):
        batch.post_many([*entries(table, keys.wallet_key(alice.pk, "MXN"))[:2], bad])
    assert Transaction.objects.count() == 2


def test_a_key_already_used_is_answered_as_post_answers_it(alice):
    table = uuid.uuid4()
    first = entries(table, keys.wallet_key(alice.pk, "MXN"))
    batch.post_many(first[:2])
    batch.post_many(first)  # the first two are repeats with the same postings
    assert Transaction.objects.count() == 4
    assert Account.objects.get(key=keys.seat_key(table, 1)).balance == 7
