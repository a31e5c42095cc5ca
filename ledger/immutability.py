"""Database triggers that refuse UPDATE, DELETE and TRUNCATE of append-only tables.

The models refuse changes too, but raw SQL, ``QuerySet.update()`` and ``delete()`` skip the models;
the triggers do not. On PostgreSQL they are ``ENABLE ALWAYS`` so that
``SET session_replication_role = replica`` (which silences ordinary triggers) does not silence them.
Only the tables' owner can get past them, by DDL: see ``suspended``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from django.db.backends.base.base import BaseDatabaseWrapper

LEDGER_TABLES = ("ledger_transaction", "ledger_posting")

# The keys (column sets) that identify a row of each append-only table, for ``sqlite_no_replace``.
SQLITE_KEYS: dict[str, tuple[tuple[str, ...], ...]] = {
    "ledger_transaction": (("id",), ("idempotency_key",), ("reverses_id",)),
    "ledger_posting": (("id",),),
    "ledger_payoutdecision": (("id",), ("payout_id", "by_id", "decision")),
    "games_event": (("id",), ("table_id", "seq")),
    "disputes_disputestep": (("id",), ("dispute_id", "n")),
}

_PG_FUNCTION = """
CREATE OR REPLACE FUNCTION append_only_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% on % refused: rows are immutable; post a reversing transaction instead', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END;
$$
"""


def _pg_triggers(table: str) -> list[tuple[str, str]]:
    return [
        (f"{table}_no_change", f"BEFORE UPDATE OR DELETE ON {table} FOR EACH ROW"),
        (f"{table}_no_truncate", f"BEFORE TRUNCATE ON {table} FOR EACH STATEMENT"),
    ]


def _sqlite_triggers(table: str) -> list[tuple[str, str]]:
    return [(f"{table}_no_update", "UPDATE"), (f"{table}_no_delete", "DELETE")]


def install_sql(vendor: str, tables: Sequence[str]) -> list[str]:
    """Statements that make ``tables`` append-only on ``vendor`` (``postgresql`` or ``sqlite``)."""
    if vendor == "postgresql":
        statements = [_PG_FUNCTION]
        for table in tables:
            for name, when in _pg_triggers(table):
                statements.append(f"CREATE TRIGGER {name} {when} EXECUTE FUNCTION append_only_refuse()")
                statements.append(f"ALTER TABLE {table} ENABLE ALWAYS TRIGGER {name}")
        return statements
    if vendor == "sqlite":
        return [
            f"CREATE TRIGGER {name} BEFORE {op} ON {table} BEGIN "
            f"SELECT RAISE(ABORT, '{op} on {table} refused: rows are immutable; post a reversing transaction instead'); "
            "END"
            for table in tables
            for name, op in _sqlite_triggers(table)
        ]
    raise NotImplementedError(f"append-only triggers are not written for {vendor}")


def uninstall_sql(vendor: str, tables: Sequence[str]) -> list[str]:
    if vendor == "postgresql":
        return [f"DROP TRIGGER IF EXISTS {name} ON {table}" for table in tables for name, _ in _pg_triggers(table)]
    if vendor == "sqlite":
        return [f"DROP TRIGGER IF EXISTS {name}" for table in tables for name, _ in _sqlite_triggers(table)]
    raise NotImplementedError(f"append-only triggers are not written for {vendor}")


@contextmanager
def suspended(connection: BaseDatabaseWrapper, tables: Sequence[str] = LEDGER_TABLES) -> Iterator[None]:
    """Lift the triggers for the block and put them back; call it inside ``transaction.atomic``.

    For wiping a test or staging database only. It needs the DDL rights of the tables' owner,
    which is the real line of trust: whoever holds them could drop the triggers anyway.
    """
    vendor = connection.vendor
    with connection.cursor() as cursor:
        if vendor == "postgresql":
            for table in tables:
                for name, _ in _pg_triggers(table):
                    cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER {name}")
        else:
            for sql in uninstall_sql(vendor, tables):
                cursor.execute(sql)
    # No try/finally: if the block fails, the caller's transaction rolls back, and with it the DDL.
    yield
    with connection.cursor() as cursor:
        if vendor == "postgresql":
            for table in tables:
                for name, _ in _pg_triggers(table):
                    cursor.execute(f"ALTER TABLE {table} ENABLE ALWAYS TRIGGER {name}")
        else:
            for sql in install_sql(vendor, tables):
                cursor.execute(sql)


def sqlite_no_replace(table: str, message: str) -> list[str]:
    """Statements giving an SQLite table a BEFORE INSERT trigger that refuses an insert whose key
    (``SQLITE_KEYS``) is taken.

    ``INSERT OR REPLACE`` (and ``REPLACE``) resolves the conflict by deleting the row in the way,
    and SQLite fires no DELETE trigger for that unless ``PRAGMA recursive_triggers`` is on, which an
    insider's own connection need not set; so the UPDATE/DELETE triggers alone let it rewrite a row.
    An insert is checked before the conflict is resolved, on every connection. A NULL key column
    (a payout decision made by a rule) never matches, as in the unique constraint itself.
    """
    taken = " OR ".join(
        f"EXISTS (SELECT 1 FROM {table} WHERE " + " AND ".join(f"{column} = NEW.{column}" for column in key) + ")"
        for key in SQLITE_KEYS[table]
    )
    return [
        f"DROP TRIGGER IF EXISTS {table}_no_replace",
        f"CREATE TRIGGER {table}_no_replace BEFORE INSERT ON {table} WHEN {taken} "
        f"BEGIN SELECT RAISE(ABORT, '{message}'); END",
    ]
