"""Payout decisions are append-only in the database too; and the ``auditors`` group exists, whose
members may read every finished hand's audit (read-only)."""

from django.db import migrations

from ledger.immutability import install_sql, uninstall_sql

TABLES = ("ledger_payoutdecision",)


def install(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    statements = install_sql(vendor, TABLES)
    for sql in statements:
        schema_editor.execute(sql, params=None)
    apps.get_model("auth", "Group").objects.get_or_create(name="auditors")


def uninstall(apps, schema_editor):
    for sql in uninstall_sql(schema_editor.connection.vendor, TABLES):
        schema_editor.execute(sql, params=None)


class Migration(migrations.Migration):
    dependencies = [("ledger", "0003_payouts"), ("auth", "0012_alter_user_first_name_max_length")]

    operations = [migrations.RunPython(install, uninstall)]
