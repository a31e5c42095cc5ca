"""reconcile proves the books and names what does not add up."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from ledger import keys, services
from ledger.models import Account, Posting
from ledger.reconcile import CHECKERS, Problem


@pytest.fixture
def books(alice, bob, carol):
    services.deposit(user=alice, currency="MXN", amount_minor=5000, by=carol, idempotency_key="a")
    services.deposit(user=bob, currency="USD", amount_minor=700, by=carol, idempotency_key="b")
    services.withdraw(user=alice, currency="MXN", amount_minor=1200, by=carol, idempotency_key="c")


def test_clean_books_reconcile(books, capsys):
    report = services.reconcile()
    assert report.ok
    assert (report.transactions, report.accounts) == (3, 4)
    call_command("reconcile")
    assert "3 transactions, 4 accounts checked: the books balance." in capsys.readouterr().out


def test_a_tampered_balance_is_reported(books, alice, capsys):
    wallet = keys.wallet_key(alice.pk, "MXN")
    Account.objects.filter(key=wallet).update(balance=999_999)
    report = services.reconcile()
    assert [(p.code, p.subject) for p in report.problems] == [("balance_mismatch", f"account:{wallet}")]
    assert "postings sum to 3800" in report.problems[0].detail
    with pytest.raises(CommandError, match="1 problem"):
        call_command("reconcile")
    assert f"balance_mismatch account:{wallet}" in capsys.readouterr().out


def test_an_unbalanced_transaction_slipped_in_by_sql_is_reported(books, alice):
    """Inserts cannot be refused by the triggers; reconcile is what catches a forged posting."""
    txn = services.deposit(user=alice, currency="MXN", amount_minor=1, by=alice.__class__.objects.get(username="carol"))
    wallet = Account.objects.get(key=keys.wallet_key(alice.pk, "MXN"))
    Posting.objects.bulk_create([Posting(transaction=txn, account=wallet, unit="MXN", amount=50)])
    codes = {(p.code, p.subject) for p in services.reconcile().problems}
    assert ("unbalanced", f"transaction:{txn.pk}") in codes
    assert ("balance_mismatch", f"account:{wallet.key}") in codes


def test_registered_checkers_join_the_report(books):
    def table_chips():
        yield Problem("chips_mismatch", "table:t1", "seat 2 holds 40, replay says 30")

    services.register_checker(table_chips)
    try:
        report = services.reconcile()
    finally:
        CHECKERS.remove(table_chips)
    assert [p.code for p in report.problems] == ["chips_mismatch"]
    assert services.reconcile().ok
