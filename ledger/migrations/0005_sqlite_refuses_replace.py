"""On SQLite, refuse ``INSERT OR REPLACE`` over a transaction, posting or payout decision: the
conflict resolution deletes the old row without firing the DELETE triggers (see
``ledger.immutability.sqlite_no_replace``). PostgreSQL has no such statement (its upsert is an
UPDATE, which the triggers refuse), so nothing changes there."""

from django.db import migrations

from ledger.immutability import sqlite_no_replace

TABLES = ("ledger_transaction", "ledger_posting", "ledger_payoutdecision")


def install(apps, schema_editor):
    if schema_editor.connection.vendor != "sqlite":
        return
    for table in TABLES:
        message = (
            f"INSERT over an existing row of {table} refused: rows are immutable; post a reversing transaction instead"
        )
        for sql in sqlite_no_replace(table, message):
            schema_editor.execute(sql, params=None)


def uninstall(apps, schema_editor):
    if schema_editor.connection.vendor != "sqlite":
        return
    for table in TABLES:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_no_replace", params=None)


class Migration(migrations.Migration):
    dependencies = [("ledger", "0004_payout_decisions_append_only_and_auditors")]

    operations = [migrations.RunPython(install, uninstall)]
