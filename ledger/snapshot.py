"""One consistent snapshot of the database for a whole read-only check.

The integrity checks (``reconcile``, ``check_replay``, ``verify_hands``) compare rows of several
tables with each other: events with postings, postings with balances, payouts with accounts. Read
at different moments of a live system, they disagree for no fault of the books (a command commits
between two reads), so each check runs inside ``one_snapshot``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import DEFAULT_DB_ALIAS, connections, transaction


@contextmanager
def one_snapshot(using: str = DEFAULT_DB_ALIAS) -> Iterator[None]:
    """Run the block in one read-only transaction that sees one moment of the database.

    PostgreSQL: ``REPEATABLE READ, READ ONLY``; every statement sees the snapshot taken at the
    first one, and a write (a bug in a check) is refused. SQLite (WAL): a ``DEFERRED`` transaction,
    whose first read pins the snapshot; not the configured ``IMMEDIATE``, which would take the
    write lock and stall the service's writers for the length of the check.

    Inside a transaction already (a test's, a caller's), that transaction is the snapshot: the
    isolation level can no longer be chosen there.
    """
    connection = connections[using]
    if connection.in_atomic_block:
        yield
        return
    connection.ensure_connection()
    if connection.vendor == "sqlite":
        configured = connection.transaction_mode  # type: ignore[attr-defined]
        connection.transaction_mode = "DEFERRED"  # type: ignore[attr-defined]
        try:
            with transaction.atomic(using=using):
                connection.transaction_mode = configured  # type: ignore[attr-defined]
                yield
        finally:
            connection.transaction_mode = configured  # type: ignore[attr-defined]
        return
    with transaction.atomic(using=using):
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield
