"""``Event.hash_version``: which fields an event's hash covers (``games.store.HASH_VERSION``).
Events already recorded keep version 1 (their hash does not cover ``created_at``) and are verified
as they were recorded; events are immutable, so none is re-hashed.

On SQLite, adding the column rebuilds the table, which drops its triggers: they are installed again
here, with a BEFORE INSERT trigger that refuses ``INSERT OR REPLACE`` over a recorded event (the
REPLACE deletes the old row without firing the DELETE trigger; ``ledger.immutability``)."""

from django.db import migrations, models

from ledger.immutability import sqlite_no_replace

SQLITE_TRIGGERS = [
    "DROP TRIGGER IF EXISTS games_event_no_update",
    "DROP TRIGGER IF EXISTS games_event_no_delete",
    """CREATE TRIGGER games_event_no_update BEFORE UPDATE ON games_event
    BEGIN SELECT RAISE(ABORT, 'games_event is append-only: UPDATE refused'); END""",
    """CREATE TRIGGER games_event_no_delete BEFORE DELETE ON games_event
    BEGIN SELECT RAISE(ABORT, 'games_event is append-only: DELETE refused'); END""",
    *sqlite_no_replace("games_event", "games_event is append-only: INSERT over a recorded event refused"),
]


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        for sql in SQLITE_TRIGGERS:
            schema_editor.execute(sql, params=None)


def uninstall(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        schema_editor.execute("DROP TRIGGER IF EXISTS games_event_no_replace", params=None)


class Migration(migrations.Migration):
    dependencies = [("games", "0004_outbox")]

    operations = [
        migrations.AddField(model_name="event", name="hash_version", field=models.PositiveSmallIntegerField(default=1)),
        migrations.RunPython(install, uninstall),
    ]
