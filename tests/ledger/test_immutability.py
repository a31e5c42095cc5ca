"""The database itself refuses to change or remove a transaction or posting, whatever the SQL."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction

from ledger import keys, services
from ledger.immutability import suspended
from ledger.models import Account, Posting, Transaction


@pytest.fixture
def booked(alice, carol):
    return services.deposit(user=alice, currency="MXN", amount_minor=5000, by=carol, idempotency_key="seed")


def refused(sql: str, params=()) -> DatabaseError:
    # A savepoint, so PostgreSQL's aborted statement does not poison the rest of the test.
    with pytest.raises(DatabaseError, match="immutable") as caught, transaction.atomic(), connection.cursor() as cur:
        cur.execute(sql, params)
    return caught.value


def settle_deferred_checks() -> None:
    """The test's rows are not committed, so PostgreSQL still owes their deferred foreign-key
    checks and would refuse TRUNCATE for that reason; run the checks now so only ours can refuse."""
    with connection.cursor() as cur:
        cur.execute("SET CONSTRAINTS ALL IMMEDIATE")


@pytest.mark.parametrize("table", ["ledger_posting", "ledger_transaction"])
def test_raw_sql_update_is_refused(booked, table):
    column = "amount = amount + 1" if table == "ledger_posting" else "memo = 'edited'"
    refused(f"UPDATE {table} SET {column}")
    assert sorted(Posting.objects.values_list("amount", flat=True)) == [-5000, 5000]
    assert Transaction.objects.get().memo != "edited"


@pytest.mark.parametrize("table", ["ledger_posting", "ledger_transaction"])
def test_raw_sql_delete_is_refused(booked, table):
    refused(f"DELETE FROM {table}")
    assert Posting.objects.count() == 2
    assert Transaction.objects.count() == 1


def test_queryset_update_and_delete_are_refused(booked):
    with pytest.raises(DatabaseError), transaction.atomic():
        Posting.objects.update(amount=1)
    with pytest.raises(DatabaseError), transaction.atomic():
        Transaction.objects.filter(pk=booked.pk)._raw_delete(connection.alias)
    assert Posting.objects.filter(amount=1).count() == 0


def test_the_balance_cache_stays_writable(booked, alice):
    """Only transactions and postings are immutable; reconcile checks the balance cache."""
    Account.objects.filter(key=keys.wallet_key(alice.pk, "MXN")).update(balance=1)
    assert Account.objects.get(key=keys.wallet_key(alice.pk, "MXN")).balance == 1


def test_the_database_refuses_a_negative_wallet(booked, alice):
    """The CHECK constraint stands behind the service's own overdraft check."""
    with pytest.raises(DatabaseError), transaction.atomic():
        Account.objects.filter(key=keys.wallet_key(alice.pk, "MXN")).update(balance=-1)


@pytest.mark.parametrize("table", ["ledger_posting", "ledger_transaction"])
def test_truncate_is_refused_on_postgresql(postgres, booked, table):
    settle_deferred_checks()
    refused(f"TRUNCATE {table} CASCADE")
    assert Posting.objects.count() == 2


@pytest.mark.parametrize(
    "sql",
    ["UPDATE ledger_posting SET amount = 0", "DELETE FROM ledger_posting", "TRUNCATE ledger_posting"],
)
def test_replica_mode_does_not_silence_the_triggers(postgres, booked, sql):
    """``session_replication_role = replica`` skips ordinary triggers; ours are ENABLE ALWAYS."""
    with transaction.atomic(), connection.cursor() as cur:
        settle_deferred_checks()
        cur.execute("SET LOCAL session_replication_role = replica")
        refused(sql)
    assert sorted(Posting.objects.values_list("amount", flat=True)) == [-5000, 5000]


def test_suspended_lifts_the_triggers_for_its_block_only(booked):
    """The owner's maintenance door (used by the test flush): inside it rows can go; after it,
    the triggers are back in force."""
    if connection.vendor == "postgresql":
        settle_deferred_checks()
    with transaction.atomic(), suspended(connection):
        Posting.objects.all()._raw_delete(connection.alias)
        Transaction.objects.all()._raw_delete(connection.alias)
    assert not Posting.objects.exists()
    # Into another wallet: staff may not deposit into their own.
    someone = type(booked.created_by).objects.create_user("someone")
    services.deposit(user=someone, currency="MXN", amount_minor=1, by=booked.created_by)
    refused("DELETE FROM ledger_posting")
    assert Posting.objects.count() == 2


def test_a_transactional_test_can_still_empty_the_books(transactional_db, django_user_model):
    """Rows committed here are removed by Django's flush afterwards; that flush must get past the
    triggers (tests/conftest.py), or this test errors at teardown."""
    carol = django_user_model.objects.create_user("carol", is_staff=True)
    alice = django_user_model.objects.create_user("alice")
    services.deposit(user=alice, currency="MXN", amount_minor=100, by=carol)
    assert Posting.objects.count() == 2


@pytest.mark.parametrize(
    ("statement", "table", "changed"),
    [
        ("INSERT OR REPLACE INTO", "ledger_posting", "amount * 2 AS amount"),
        ("REPLACE INTO", "ledger_posting", "amount * 2 AS amount"),
        ("INSERT OR REPLACE INTO", "ledger_transaction", "'edited' AS memo"),
    ],
)
def test_insert_or_replace_over_a_row_is_refused_on_sqlite(booked, statement, table, changed):
    """Fails on the code before: REPLACE deleted the row in the way without firing the DELETE
    trigger (recursive triggers are off), so an insider rewrote a posting or a transaction."""
    if connection.vendor != "sqlite":
        pytest.skip("INSERT OR REPLACE is SQLite's; PostgreSQL's upsert is an UPDATE, refused by the triggers")
    with connection.cursor() as cur:
        cur.execute(f"SELECT name FROM pragma_table_info('{table}')")
        columns = [row[0] for row in cur.fetchall()]
    target = changed.split(" AS ")[1]
    select = ", ".join(changed if column == target else column for column in columns)
    refused(f"{statement} {table} ({', '.join(columns)}) SELECT {select} FROM {table}")
    assert sorted(Posting.objects.values_list("amount", flat=True)) == [-5000, 5000]
    assert Transaction.objects.get().memo != "edited"
