"""Make transactions and postings append-only in the database itself (see ledger.immutability)."""

from django.db import migrations

from ledger.immutability import LEDGER_TABLES, install_sql, uninstall_sql


def install(apps, schema_editor):
    for sql in install_sql(schema_editor.connection.vendor, LEDGER_TABLES):
        schema_editor.execute(sql, params=None)


def uninstall(apps, schema_editor):
    for sql in uninstall_sql(schema_editor.connection.vendor, LEDGER_TABLES):
        schema_editor.execute(sql, params=None)


class Migration(migrations.Migration):
    dependencies = [("ledger", "0001_books")]

    operations = [migrations.RunPython(install, uninstall)]
