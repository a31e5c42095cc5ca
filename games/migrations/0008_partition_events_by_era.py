"""The events partitioned by era on PostgreSQL (``games.partitions``); on SQLite, only the column.

1. ``Table.era``: the month each table was made in (UTC), filled from ``created_at``.
2. ``Event.era``: its table's era. On PostgreSQL ``games_event`` is rebuilt, under an exclusive
   lock, as a table partitioned by range of era: a partition for each era that has tables, the
   current one and ``ERAS_AHEAD`` after it, and a default one; every event copied into it with its
   table's era, ids kept. A partitioned table's keys must hold the partition key: the primary key
   becomes ``(id, era)`` and the unique ``(table, seq)`` becomes ``(table, seq, era)``, the same
   constraints since ids come from one sequence and the era is a function of the table. The
   append-only triggers are made again on it (the row triggers apply to every partition; the
   TRUNCATE trigger is made on each partition too). Nothing else refers to an event by key.
   On SQLite the table gains the column and the wider unique key, and its triggers, which SQLite
   drops when Django rebuilds a table, are installed again (as in 0005).
3. ``DetachedEra``: the eras whose partition was detached (``manage.py partition_history``).

Going back on PostgreSQL makes one plain table again, and is refused while an era is detached.
"""

import importlib

from django.db import migrations, models
from django.db.migrations.operations.base import Operation

import games.models
from games import partitions

TRIGGERS_0005 = importlib.import_module("games.migrations.0005_event_hash_version").SQLITE_TRIGGERS

# The columns of an event before this migration, as 0001 and 0005 made them.
COLUMNS = "id, seq, type, data, secret, actor, hand_no, created_at, prev_hash, hash, table_id, hash_version"
COLUMN_DEFINITIONS = """
    id bigint NOT NULL,
    seq integer NOT NULL CONSTRAINT games_event_seq_check CHECK (seq >= 0),
    type varchar(60) NOT NULL,
    data jsonb NOT NULL,
    secret jsonb NOT NULL,
    actor varchar(60) NOT NULL,
    hand_no integer NOT NULL CONSTRAINT games_event_hand_no_check CHECK (hand_no >= 0),
    created_at timestamp with time zone NOT NULL,
    prev_hash varchar(64) NOT NULL,
    hash varchar(64) NOT NULL,
    table_id uuid NOT NULL,
    hash_version smallint NOT NULL CONSTRAINT games_event_hash_version_check CHECK (hash_version >= 0)
"""
FOREIGN_KEY = (
    "ALTER TABLE games_event ADD CONSTRAINT games_event_table_id_b5eea9a7_fk_games_table_id "
    "FOREIGN KEY (table_id) REFERENCES games_table (id) DEFERRABLE INITIALLY DEFERRED"
)
HAND_INDEX = "CREATE INDEX games_event_table_i_721f5f_idx ON games_event (table_id, hand_no)"
TRIGGERS = [
    "CREATE TRIGGER games_event_no_update BEFORE UPDATE ON games_event "
    "FOR EACH ROW EXECUTE FUNCTION games_event_refuse_change()",
    "CREATE TRIGGER games_event_no_delete BEFORE DELETE ON games_event "
    "FOR EACH ROW EXECUTE FUNCTION games_event_refuse_change()",
    "CREATE TRIGGER games_event_no_truncate BEFORE TRUNCATE ON games_event "
    "FOR EACH STATEMENT EXECUTE FUNCTION games_event_refuse_change()",
    "ALTER TABLE games_event ENABLE ALWAYS TRIGGER games_event_no_update",
    "ALTER TABLE games_event ENABLE ALWAYS TRIGGER games_event_no_delete",
    "ALTER TABLE games_event ENABLE ALWAYS TRIGGER games_event_no_truncate",
]


class OnlyOn(Operation):
    """``operation`` run on the database of ``vendor`` only; the model state is the migration's
    ``state_operations``."""

    reduces_to_sql = False

    def __init__(self, vendor, operation):
        self.vendor = vendor
        self.operation = operation

    def state_forwards(self, app_label, state):
        self.operation.state_forwards(app_label, state)

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == self.vendor:
            self.operation.database_forwards(app_label, schema_editor, from_state, to_state)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == self.vendor:
            self.operation.database_backwards(app_label, schema_editor, from_state, to_state)

    def describe(self):
        return f"On {self.vendor} only: {self.operation.describe()}"


def fill_table_eras(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        month = "created_at AT TIME ZONE 'UTC'"
        sql = f"UPDATE games_table SET era = (extract(year FROM {month}) * 100 + extract(month FROM {month}))::integer"
    else:
        sql = "UPDATE games_table SET era = CAST(strftime('%Y%m', created_at) AS INTEGER)"
    schema_editor.execute(sql, params=None)


def _run(schema_editor, statements):
    with schema_editor.connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


def partition_events(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        # The column was added by the rebuilds before this, which dropped the triggers.
        _run(
            schema_editor,
            [
                "UPDATE games_event SET era = (SELECT era FROM games_table WHERE games_table.id = games_event.table_id)",
                *TRIGGERS_0005,
            ],
        )
        return
    if schema_editor.connection.vendor != "postgresql":
        raise NotImplementedError(f"No events table for {schema_editor.connection.vendor}.")
    with schema_editor.connection.cursor() as cursor:
        # ALTER TABLE refuses while deferred foreign-key checks of this transaction are pending.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("LOCK TABLE games_event IN ACCESS EXCLUSIVE MODE")
        cursor.execute("ALTER TABLE games_event RENAME TO games_event_unpartitioned")
        cursor.execute(
            f"CREATE TABLE games_event ({COLUMN_DEFINITIONS}, "
            "era integer NOT NULL CONSTRAINT games_event_era_check CHECK (era >= 0)) PARTITION BY RANGE (era)"
        )
        cursor.execute(f"CREATE TABLE {partitions.DEFAULT_PARTITION} PARTITION OF games_event DEFAULT")
        for statement in partitions.truncate_guard_sql(partitions.DEFAULT_PARTITION):
            cursor.execute(statement)
        cursor.execute("SELECT DISTINCT era FROM games_table")
        eras = [era for (era,) in cursor.fetchall()]
        partitions.ensure(cursor, eras + partitions.eras_from(games.models.current_era(), partitions.ERAS_AHEAD))
        cursor.execute(
            f"INSERT INTO games_event ({COLUMNS}, era) SELECT {', '.join(f'e.{c.strip()}' for c in COLUMNS.split(','))}, "
            "t.era FROM games_event_unpartitioned e JOIN games_table t ON t.id = e.table_id"
        )
        # Its identity sequence, indexes and triggers go with it; the names are free again.
        cursor.execute("DROP TABLE games_event_unpartitioned")
        cursor.execute("CREATE SEQUENCE games_event_id_seq OWNED BY games_event.id")
        cursor.execute("SELECT setval('games_event_id_seq', coalesce(max(id), 0) + 1, false) FROM games_event")
        for statement in [
            "ALTER TABLE games_event ALTER COLUMN id SET DEFAULT nextval('games_event_id_seq')",
            "ALTER TABLE games_event ADD CONSTRAINT games_event_pkey PRIMARY KEY (id, era)",
            "ALTER TABLE games_event ADD CONSTRAINT event_seq_unique UNIQUE (table_id, seq, era)",
            HAND_INDEX,
            FOREIGN_KEY,
            *TRIGGERS,
        ]:
            cursor.execute(statement)


def unpartition_events(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM games_detachedera")
        if cursor.fetchone()[0]:
            raise RuntimeError("Eras are detached from the events table: attach them again before going back.")
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("LOCK TABLE games_event IN ACCESS EXCLUSIVE MODE")
        cursor.execute("ALTER TABLE games_event RENAME TO games_event_partitioned")
        cursor.execute(f"CREATE TABLE games_event ({COLUMN_DEFINITIONS})")
        cursor.execute(f"INSERT INTO games_event ({COLUMNS}) SELECT {COLUMNS} FROM games_event_partitioned")
        cursor.execute("DROP TABLE games_event_partitioned")
        for statement in [
            "ALTER TABLE games_event ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY",
            "SELECT setval(pg_get_serial_sequence('games_event', 'id'), coalesce(max(id), 0) + 1, false) FROM games_event",
            "ALTER TABLE games_event ADD CONSTRAINT games_event_pkey PRIMARY KEY (id)",
            "ALTER TABLE games_event ADD CONSTRAINT event_seq_unique UNIQUE (table_id, seq)",
            HAND_INDEX,
            FOREIGN_KEY,
            *TRIGGERS,
        ]:
            cursor.execute(statement)


def reinstall_sqlite_triggers(apps, schema_editor):
    """Going back: the rebuilds that drop the column dropped the triggers too."""
    if schema_editor.connection.vendor == "sqlite":
        _run(schema_editor, TRIGGERS_0005)


EVENT_ERA = models.PositiveIntegerField()
SEQ_UNIQUE = models.UniqueConstraint(fields=("table", "seq", "era"), name="event_seq_unique")


class Migration(migrations.Migration):
    dependencies = [("games", "0007_drop_five_card_draw_snapshots")]

    operations = [
        migrations.AddField(model_name="table", name="era", field=models.PositiveIntegerField(null=True)),
        migrations.RunPython(fill_table_eras, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="table",
            name="era",
            field=models.PositiveIntegerField(default=games.models.current_era, editable=False),
        ),
        migrations.CreateModel(
            name="DetachedEra",
            fields=[
                ("era", models.PositiveIntegerField(primary_key=True, serialize=False)),
                ("partition", models.CharField(max_length=63)),
                ("tables", models.PositiveIntegerField()),
                ("events", models.BigIntegerField()),
                ("detached_at", models.DateTimeField(auto_now_add=True)),
            ],
        ),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AddField(model_name="event", name="era", field=EVENT_ERA),
                migrations.RemoveConstraint(model_name="event", name="event_seq_unique"),
                migrations.AddConstraint(model_name="event", constraint=SEQ_UNIQUE),
            ],
            database_operations=[
                migrations.RunPython(migrations.RunPython.noop, reinstall_sqlite_triggers),
                OnlyOn(
                    "sqlite",
                    migrations.AddField(
                        model_name="event",
                        name="era",
                        field=models.PositiveIntegerField(default=0),
                        preserve_default=False,
                    ),
                ),
                OnlyOn("sqlite", migrations.RemoveConstraint(model_name="event", name="event_seq_unique")),
                OnlyOn("sqlite", migrations.AddConstraint(model_name="event", constraint=SEQ_UNIQUE)),
                migrations.RunPython(partition_events, unpartition_events),
            ],
        ),
    ]
