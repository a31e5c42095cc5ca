"""Database triggers that make ``games_event`` append-only, so not even raw SQL rewrites history.

Also drops the event table's own index on ``table_id``: the unique ``(table, seq)`` index covers it.

PostgreSQL: row triggers refuse UPDATE and DELETE, a statement trigger refuses TRUNCATE, and all
three are ``ENABLE ALWAYS`` so they still fire under ``session_replication_role = replica`` (which
silences ordinary triggers). SQLite: BEFORE UPDATE/DELETE triggers that abort. The table owner can
still drop or disable them; the service's database role should not own the table in production.

SQLite drops a table's triggers when Django rebuilds the table, so a later migration that alters
``Event`` on SQLite must install these triggers again (the immutability tests would catch it).
"""

import django.db.models.deletion
from django.db import migrations, models

POSTGRES_INSTALL = """
CREATE FUNCTION games_event_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'games_event is append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
END;
$$;
CREATE TRIGGER games_event_no_update BEFORE UPDATE ON games_event
    FOR EACH ROW EXECUTE FUNCTION games_event_refuse_change();
CREATE TRIGGER games_event_no_delete BEFORE DELETE ON games_event
    FOR EACH ROW EXECUTE FUNCTION games_event_refuse_change();
CREATE TRIGGER games_event_no_truncate BEFORE TRUNCATE ON games_event
    FOR EACH STATEMENT EXECUTE FUNCTION games_event_refuse_change();
ALTER TABLE games_event ENABLE ALWAYS TRIGGER games_event_no_update;
ALTER TABLE games_event ENABLE ALWAYS TRIGGER games_event_no_delete;
ALTER TABLE games_event ENABLE ALWAYS TRIGGER games_event_no_truncate;
"""

POSTGRES_REMOVE = """
DROP TRIGGER IF EXISTS games_event_no_update ON games_event;
DROP TRIGGER IF EXISTS games_event_no_delete ON games_event;
DROP TRIGGER IF EXISTS games_event_no_truncate ON games_event;
DROP FUNCTION IF EXISTS games_event_refuse_change();
"""

SQLITE_INSTALL = [
    """CREATE TRIGGER games_event_no_update BEFORE UPDATE ON games_event
    BEGIN SELECT RAISE(ABORT, 'games_event is append-only: UPDATE refused'); END""",
    """CREATE TRIGGER games_event_no_delete BEFORE DELETE ON games_event
    BEGIN SELECT RAISE(ABORT, 'games_event is append-only: DELETE refused'); END""",
]

SQLITE_REMOVE = ["DROP TRIGGER IF EXISTS games_event_no_update", "DROP TRIGGER IF EXISTS games_event_no_delete"]


def _run(schema_editor, statements):
    with schema_editor.connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


def install(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        _run(schema_editor, [POSTGRES_INSTALL])
    elif vendor == "sqlite":
        _run(schema_editor, SQLITE_INSTALL)
    else:
        raise NotImplementedError(f"No append-only triggers for {vendor}; add them before using it.")


def remove(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        _run(schema_editor, [POSTGRES_REMOVE])
    elif vendor == "sqlite":
        _run(schema_editor, SQLITE_REMOVE)


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [
        # First, because SQLite rebuilds the table to alter it, which would drop the triggers.
        migrations.AlterField(
            model_name="event",
            name="table",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="events",
                to="games.table",
            ),
        ),
        migrations.RunPython(install, remove),
    ]
