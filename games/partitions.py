"""The events table's partitions on PostgreSQL: one per era, the month its tables were made in.

Every event carries its table's era (``Event.era``, copied from ``Table.era`` by the store), and
``games_event`` is partitioned by range of it, one partition per month (``games_event_p202612``),
with a default partition for an era nobody prepared. A table's whole history sits in one partition,
so once every table of an era has finished, that partition can leave the events table whole:
detached, then archived and dropped by the operator, while the live tables' partitions, and their
indexes, hold only recent tables (docs/scaling.md, "Partitioning the events table").

Partitions are made ahead: by the migration that partitioned the table, by beat each day
(``games.tasks.prepare_history_partitions``) and by ``manage.py partition_history --ahead N``.

On SQLite (development, the quick tests) the events table is one table as before: the era is
stored, nothing is partitioned, and these functions say so.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django.db import OperationalError, connection, transaction

from games import store
from games.engine import registry
from games.models import DetachedEra, Snapshot, Table, current_era

EVENTS = "games_event"
DEFAULT_PARTITION = "games_event_default"
# Months made ahead of the current one: beat runs daily, so three months leave time to notice a
# beat that stopped before an era's tables fall into the default partition.
ERAS_AHEAD = 3
# How long a detach waits for the events table's lock before giving up: the detach needs the
# table to itself for a moment, and appends queue behind a waiting lock.
DETACH_LOCK_TIMEOUT = "2s"


class PartitionError(Exception):
    """An operation on the partitions that was refused, with the reason for the operator."""


def partitioned(conn: Any = None) -> bool:
    """Whether the events table is partitioned here (PostgreSQL, after migration 0008)."""
    conn = conn or connection
    if conn.vendor != "postgresql":
        return False
    with conn.cursor() as cursor:
        cursor.execute("SELECT relkind FROM pg_class WHERE oid = to_regclass(%s)", [EVENTS])
        row = cursor.fetchone()
    return row is not None and row[0] == "p"


def next_era(era: int) -> int:
    year, month = divmod(era, 100)
    return (year + 1) * 100 + 1 if month == 12 else era + 1


def eras_from(era: int, count: int) -> list[int]:
    """``era`` and the ``count`` eras after it."""
    eras = [era]
    for _ in range(count):
        eras.append(next_era(eras[-1]))
    return eras


def partition_name(era: int) -> str:
    return f"{EVENTS}_p{int(era)}"


def truncate_guard_sql(partition: str) -> list[str]:
    """The append-only TRUNCATE trigger of one partition. Row triggers declared on the events table
    apply to every partition; a statement trigger does not fire for a partition truncated alone."""
    return [
        f"CREATE OR REPLACE TRIGGER {partition}_no_truncate BEFORE TRUNCATE ON {partition} "
        "FOR EACH STATEMENT EXECUTE FUNCTION games_event_refuse_change()",
        f"ALTER TABLE {partition} ENABLE ALWAYS TRIGGER {partition}_no_truncate",
    ]


def create_partition_sql(era: int) -> list[str]:
    name = partition_name(era)
    return [
        f"CREATE TABLE {name} PARTITION OF {EVENTS} FOR VALUES FROM ({int(era)}) TO ({next_era(era)})",
        *truncate_guard_sql(name),
    ]


def attached_eras(cursor: Any) -> set[int]:
    """The eras that have a partition of their own in the events table now."""
    cursor.execute(
        "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = %s::regclass",
        [EVENTS],
    )
    prefix = partition_name(0)[:-1]
    return {int(name[len(prefix) :]) for (name,) in cursor.fetchall() if name.startswith(prefix)}


def ensure(cursor: Any, eras: list[int]) -> list[int]:
    """Make the partitions of ``eras`` that are missing; the eras made. An era whose events already
    fell into the default partition is refused: its rows would have to move first."""
    have = attached_eras(cursor)
    made = []
    for era in sorted(set(eras) - have):
        cursor.execute(f"SELECT count(*) FROM {DEFAULT_PARTITION} WHERE era = %s", [era])
        (stray,) = cursor.fetchone()
        if stray:
            raise PartitionError(
                f"{stray} event(s) of era {era} are in {DEFAULT_PARTITION} (no partition was made ahead "
                f"for it); move them into a new partition by hand before making {partition_name(era)}."
            )
        cursor.execute("SELECT to_regclass(%s)", [partition_name(era)])
        if cursor.fetchone()[0] is not None:
            raise PartitionError(
                f"A table named {partition_name(era)} exists but is not attached (a detached era not yet "
                "archived and dropped?); attach it again or drop it first."
            )
        for statement in create_partition_sql(era):
            cursor.execute(statement)
        made.append(era)
    return made


def prepare(ahead: int = ERAS_AHEAD) -> list[int]:
    """Make the current era's partition and the next ``ahead`` eras'; the eras made (none on a
    database that is not partitioned)."""
    if not partitioned():
        return []
    with transaction.atomic(), connection.cursor() as cursor:
        return ensure(cursor, eras_from(current_era(), ahead))


@dataclasses.dataclass(frozen=True)
class Era:
    """One era as the operator sees it: its tables, how many still play, where its events are."""

    era: int
    tables: int
    unfinished: int
    where: str  # the partition, "default", "detached" or "one table" (not partitioned)

    @property
    def detachable(self) -> bool:
        return self.where.startswith(EVENTS + "_p") and self.unfinished == 0 and self.era < current_era()


def eras() -> list[Era]:
    """Every era that has tables or a partition, oldest first."""
    counts: dict[int, list[int]] = {}
    for era, status in Table.objects.values_list("era", "status").iterator():
        seen = counts.setdefault(era, [0, 0])
        seen[0] += 1
        seen[1] += status != Table.Status.FINISHED
    detached = set(DetachedEra.objects.values_list("era", flat=True))
    attached: set[int] = set()
    is_partitioned = partitioned()
    if is_partitioned:
        with connection.cursor() as cursor:
            attached = attached_eras(cursor)
    found = []
    for era in sorted(set(counts) | attached | detached):
        tables, unfinished = counts.get(era, [0, 0])
        if era in detached:
            where = "detached"
        elif not is_partitioned:
            where = "one table"
        else:
            where = partition_name(era) if era in attached else "default"
        found.append(Era(era, tables, unfinished, where))
    return found


def detach(era: int) -> DetachedEra:
    """Detach the partition of ``era`` from the events table, once every table of the era has
    finished; its events stay in the partition's own table, for the operator to archive and drop.

    The tables keep their final snapshot (made here if the last one is older), so their view still
    loads; their other snapshots, a cache of the events, go. Refused, with the reason, for an era
    that is current or to come, has a table still open or running, or has no partition of its own.
    """
    if not partitioned():
        raise PartitionError("The events table is not partitioned here (PostgreSQL only, after migration 0008).")
    if era >= current_era():
        raise PartitionError(f"Era {era} is not over: tables may still be made in it.")
    name = partition_name(era)
    with transaction.atomic(), connection.cursor() as cursor:
        if era not in attached_eras(cursor):
            raise PartitionError(f"Era {era} has no partition attached ({name}).")
        unfinished = Table.objects.filter(era=era).exclude(status=Table.Status.FINISHED)
        if unfinished.exists():
            sample = ", ".join(str(pk) for pk in unfinished.values_list("pk", flat=True)[:5])
            raise PartitionError(
                f"Era {era} still has {unfinished.count()} table(s) open or running (for example {sample}); "
                "its history is still being written."
            )
        tables = list(Table.objects.filter(era=era))
        _keep_final_snapshots(tables)
        cursor.execute(f"SET LOCAL lock_timeout = '{DETACH_LOCK_TIMEOUT}'")
        cursor.execute(f"SELECT count(*) FROM {name}")
        (events,) = cursor.fetchone()
        # Not CONCURRENTLY: PostgreSQL refuses that while a default partition exists, and it cannot
        # run in a transaction with the bookkeeping below. The plain detach holds the events table
        # for a moment only, as it moves no rows.
        try:
            cursor.execute(f"ALTER TABLE {EVENTS} DETACH PARTITION {name}")
        except OperationalError as error:
            raise PartitionError(
                f"The events table stayed busy for {DETACH_LOCK_TIMEOUT} ({error}); nothing was detached, try again."
            ) from error
        return DetachedEra.objects.create(era=era, partition=name, tables=len(tables), events=events)


def _keep_final_snapshots(tables: list[Table]) -> None:
    """Each finished table's state at its last version kept as a snapshot, and its others dropped:
    the table view loads from it once its events have left the events table."""
    for table in tables:
        if table.version == 0:
            continue
        if not Snapshot.objects.filter(table_id=table.pk, version=table.version).exists():
            state, version = store.load(table=table, decider=registry.get(table.game), at=table.version, cache=False)
            store.save_snapshot(table, version, state)
        Snapshot.objects.filter(table_id=table.pk, version__lt=table.version).delete()


def archived_table_ids() -> set[str]:
    """The ids of the tables whose era was detached (their events archived)."""
    archived = Table.objects.filter(era__in=DetachedEra.objects.values("era"))
    return {str(pk) for pk in archived.values_list("pk", flat=True)}


def with_history(tables: Any) -> Any:
    """``tables`` (a queryset of ``Table``) less those whose era was detached: their events are no
    longer in the events table, so the checks that replay history pass over them."""
    return tables.exclude(era__in=DetachedEra.objects.values("era"))
