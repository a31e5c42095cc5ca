"""Deliberate tampering with append-only rows, for tests and audits that must see it detected.

The triggers of ``games/migrations/0002_event_append_only.py`` refuse every UPDATE and
DELETE (and TRUNCATE on PostgreSQL). Only the table's owner can get past them, and only by
switching them off:

- PostgreSQL: ``ALTER TABLE games_event DISABLE TRIGGER USER`` (the owner or a superuser), then
  put each trigger back in its mode (``ENABLE ALWAYS TRIGGER ...``). ALTER TABLE is transactional
  and holds an exclusive lock on the table until commit, so no other session ever writes while the
  triggers are off.
- SQLite: triggers cannot be disabled, so drop them and create them again from ``sqlite_master``.

``triggers_off`` does either inside a transaction; ``tamper_event`` rewrites one event's columns
behind the store's back. ``allow_flush`` lets Django's test flush (TRUNCATE / DELETE FROM between
transactional tests) empty append-only tables; ``tests/conftest.py`` installs it for the session.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connection as default_connection
from django.db import transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.base.operations import BaseDatabaseOperations

_POSTGRES_MODES = {
    "O": "ENABLE TRIGGER",
    "A": "ENABLE ALWAYS TRIGGER",
    "R": "ENABLE REPLICA TRIGGER",
    "D": "DISABLE TRIGGER",
}


def guarded_tables(connection: BaseDatabaseWrapper = default_connection) -> list[str]:
    """Tables that carry user triggers (ours, and the ledger's), quoted as the database wants them."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT DISTINCT tgrelid::regclass::text FROM pg_trigger WHERE NOT tgisinternal")
        else:
            cursor.execute("SELECT DISTINCT tbl_name FROM sqlite_master WHERE type = 'trigger'")
        return sorted(row[0] for row in cursor.fetchall())


@contextmanager
def triggers_off(*tables: str, connection: BaseDatabaseWrapper = default_connection) -> Iterator[None]:
    """Switch off the user triggers of ``tables`` for the body, then restore them exactly."""
    with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # ALTER TABLE refuses while deferred foreign-key checks of this transaction are pending.
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            restore: list[str] = []
            # Every mode is read before any is switched off: switching off a partitioned table's
            # triggers switches off its partitions' too, which must not be read back as their mode.
            for table in tables:
                cursor.execute(
                    "SELECT tgname, tgenabled FROM pg_trigger WHERE tgrelid = %s::regclass AND NOT tgisinternal",
                    [table],
                )
                for name, mode in cursor.fetchall():
                    restore.append(f'ALTER TABLE {table} {_POSTGRES_MODES[mode]} "{name}"')
            for table in tables:
                cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
            yield
            for statement in restore:
                cursor.execute(statement)
        else:
            placeholders = ",".join("%s" for _ in tables)
            cursor.execute(
                f"SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN ({placeholders})",
                list(tables),
            )
            saved = cursor.fetchall()
            for name, _ in saved:
                cursor.execute(f'DROP TRIGGER "{name}"')
            yield
            for _, sql in saved:
                cursor.execute(sql)


def tamper_event(table_id: Any, seq: int, **columns: Any) -> None:
    """Overwrite columns of one stored event (``data={"amount": 99}``, ``hash="0" * 64``) as an
    attacker with owner rights would. JSON columns take Python values."""
    from games.models import Event

    with triggers_off("games_event"):
        # A queryset update goes through the database, not Event.save, which would refuse it.
        changed = Event.objects.filter(table_id=table_id, seq=seq).update(**columns)
    assert changed == 1, f"no event {seq} on table {table_id}"


def delete_event(table_id: Any, seq: int) -> None:
    """Remove one stored event, leaving a gap in the stream."""
    from games.models import Event

    with triggers_off("games_event"):
        deleted, _ = Event.objects.filter(table_id=table_id, seq=seq).delete()
    assert deleted == 1, f"no event {seq} on table {table_id}"


_original_flush = BaseDatabaseOperations.execute_sql_flush


def _flush_past_triggers(self: BaseDatabaseOperations, sql_list: list[str]) -> None:
    tables = guarded_tables(self.connection)
    if not tables:
        _original_flush(self, sql_list)
        return
    with triggers_off(*tables, connection=self.connection):
        _original_flush(self, sql_list)


def allow_flush() -> None:
    """Let the test runner's flush empty append-only tables (between transactional tests only)."""
    BaseDatabaseOperations.execute_sql_flush = _flush_past_triggers
