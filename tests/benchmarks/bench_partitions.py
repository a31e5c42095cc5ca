"""The events table's indexes before and after finished eras are detached (``games.partitions``).

Run with the project's Python: ``python tests/benchmarks/bench_partitions.py``. Needs PostgreSQL: a
database of its own, ``postgres://postgres@127.0.0.1:5432/bench_partitions`` (or
``BENCH_PARTITIONS_URL``), made anew and migrated. Writes ``ERAS`` months of history, ``TABLES`` tables
an era of ``EVENTS`` events each (rows shaped like a hand's events, written by SQL, not played: the
indexes are what is measured), then prints:

- how long migration 0008 takes to move them from one table into the partitions;
- the indexes of the same rows in one unpartitioned table (a copy with the keys it had before
  migration 0008, built after the rows as the migration builds them), and of the partitioned
  events table: the whole, and what stays attached once
  every era but the last has finished and been detached;
- how long each detach took, and the read of a live table's tail before and after: naming its era
  (as the store does: one partition read) and without it (every attached partition's index probed).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

URL = os.environ.get("BENCH_PARTITIONS_URL", "postgres://postgres@127.0.0.1:5432/bench_partitions")
ERAS = 12
TABLES = 100
EVENTS = 200
FIRST_ERA = 202001
BEFORE, PARTITIONED = ("games", "0007_drop_five_card_draw_snapshots"), ("games", "0008_partition_events_by_era")


def prepare() -> None:
    import psycopg

    parts = urlparse(URL)
    name = parts.path.lstrip("/")
    with psycopg.connect(parts._replace(path="/postgres").geturl(), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    os.environ["DATABASE_URL"] = URL
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "0")
    os.environ.setdefault("SECRET_KEY", "bench-only-key-not-secret-0123456789-abcdefghijklmnopqrstuvwxyz")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def write_history(cursor, eras: list[int]) -> None:
    from games import partitions

    partitions.ensure(cursor, eras)
    cursor.execute(
        "INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, email, is_staff, "
        "is_active, date_joined) VALUES ('', false, 'bench', '', '', '', false, true, now()) RETURNING id"
    )
    (owner,) = cursor.fetchone()
    for era in eras:
        # Version 0 and finished: a detach keeps no snapshot of a table it cannot replay.
        cursor.execute(
            "INSERT INTO games_table (id, game, seats, config, status, version, owner_id, currency, chip_value, "
            "stake, awaits_bot, created_at, updated_at, era) SELECT gen_random_uuid(), 'guerra', 2, '{}', "
            "'finished', 0, %s, '', 0, 0, false, make_timestamptz(%s, %s, 15, 12, 0, 0, 'UTC'), now(), %s "
            "FROM generate_series(1, %s)",
            [owner, era // 100, era % 100, era, TABLES],
        )
        cursor.execute(
            "INSERT INTO games_event (seq, type, data, secret, actor, hand_no, created_at, prev_hash, hash, table_id, "
            "hash_version, era) SELECT s, 'CardPlayed', jsonb_build_object('seat', s %% 2, 'card', 'KH'), '{}', "
            "'user:' || (s %% 2), 1 + s / 20, now(), md5(t.id::text || (s - 1)) || md5((s - 1)::text), "
            "md5(t.id::text || s) || md5(s::text), t.id, 2, t.era "
            "FROM games_table t, generate_series(1, %s) s WHERE t.era = %s",
            [EVENTS, era],
        )


def index_bytes(cursor, tables: list[str]) -> int:
    cursor.execute("SELECT coalesce(sum(pg_indexes_size(c::regclass)), 0) FROM unnest(%s::text[]) c", [tables])
    return int(cursor.fetchone()[0])


def attached(cursor) -> list[str]:
    cursor.execute("SELECT inhrelid::regclass::text FROM pg_inherits WHERE inhparent = 'games_event'::regclass")
    return [name for (name,) in cursor.fetchall()]


def tail_probe_ms(cursor, table_id, era: int | None) -> float:
    """The median time of the store's read of a table's tail: its era's partition alone, or
    (``era`` None) every partition's index, as a read that does not name the era."""
    times = []
    pruned = "" if era is None else f" AND era = {int(era)}"
    for _ in range(200):
        started = time.perf_counter()
        cursor.execute(
            f"SELECT seq, hash FROM games_event WHERE table_id = %s{pruned} AND seq > %s ORDER BY seq",
            [table_id, EVENTS - 5],
        )
        cursor.fetchall()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def main() -> None:
    prepare()
    from django.db import connection, transaction
    from django.db.migrations.executor import MigrationExecutor

    from games import partitions
    from games.models import Table

    eras = partitions.eras_from(FIRST_ERA, ERAS - 1)
    with transaction.atomic(), connection.cursor() as cursor:
        write_history(cursor, eras)
    # The migration itself, timed: back to one table, then partitioned again.
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    executor.loader.build_graph()
    started = time.perf_counter()
    executor.migrate([PARTITIONED])
    migrated = time.perf_counter() - started
    with connection.cursor() as cursor:
        for statement in (
            # Its keys built after its rows, as the migration builds the partitions' keys.
            "CREATE TABLE events_unpartitioned AS SELECT * FROM games_event",
            "ALTER TABLE events_unpartitioned ADD PRIMARY KEY (id)",
            "CREATE UNIQUE INDEX ON events_unpartitioned (table_id, seq)",
            "CREATE INDEX ON events_unpartitioned (table_id, hand_no)",
            "VACUUM ANALYZE games_event, events_unpartitioned",
        ):
            cursor.execute(statement)
        rows = ERAS * TABLES * EVENTS
        live = Table.objects.filter(era=eras[-1]).values_list("pk", flat=True).first()
        whole = index_bytes(cursor, attached(cursor))
        single = index_bytes(cursor, ["events_unpartitioned"])
        before = tail_probe_ms(cursor, live, eras[-1]), tail_probe_ms(cursor, live, None)
    took = []
    for era in eras[:-1]:
        started = time.perf_counter()
        partitions.detach(era)
        took.append((time.perf_counter() - started) * 1000)
    with connection.cursor() as cursor:
        kept = index_bytes(cursor, attached(cursor))
        after = tail_probe_ms(cursor, live, eras[-1]), tail_probe_ms(cursor, live, None)
    mb = 1024 * 1024
    print(f"{rows:,} events: {ERAS} eras x {TABLES} tables x {EVENTS} events")
    print(f"migration 0008 on them: {migrated:.1f} s")
    print(f"indexes, one unpartitioned table:            {single / mb:8.1f} MB")
    print(f"indexes, partitioned, every era attached:    {whole / mb:8.1f} MB")
    print(f"indexes, partitioned, {ERAS - 1} finished eras detached: {kept / mb:8.1f} MB")
    print(f"detach of one era ({TABLES * EVENTS:,} events): median {statistics.median(took):.0f} ms")
    for name, was, now in (("naming its era", before[0], after[0]), ("without its era", before[1], after[1])):
        print(f"a live table's tail read {name}: {was:.3f} ms before the detaches, {now:.3f} ms after (median of 200)")


if __name__ == "__main__":
    main()
