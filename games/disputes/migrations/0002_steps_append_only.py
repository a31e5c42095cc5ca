"""A dispute's steps are append-only in the database too: triggers refuse UPDATE, DELETE (and
TRUNCATE on PostgreSQL), and on SQLite an INSERT over an existing step (``INSERT OR REPLACE``)."""

from django.db import migrations

from ledger.immutability import install_sql, sqlite_no_replace, uninstall_sql

TABLES = ("disputes_disputestep",)


def install(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for sql in install_sql(vendor, TABLES):
        schema_editor.execute(sql, params=None)
    if vendor == "sqlite":
        for table in TABLES:
            message = f"INSERT over an existing row of {table} refused: rows are immutable; record a new step instead"
            for sql in sqlite_no_replace(table, message):
                schema_editor.execute(sql, params=None)


def uninstall(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for sql in uninstall_sql(vendor, TABLES):
        schema_editor.execute(sql, params=None)
    if vendor == "sqlite":
        for table in TABLES:
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_no_replace", params=None)


class Migration(migrations.Migration):
    dependencies = [("disputes", "0001_initial"), ("ledger", "0005_sqlite_refuses_replace")]

    operations = [migrations.RunPython(install, uninstall)]
