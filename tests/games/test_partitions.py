"""The events partitioned by era on PostgreSQL (``games.partitions``, migration 0008): the
migration moves a played database, the checks stay clean, a finished era's partition detaches and
the live tables play on, an era still playing is refused, and the events stay append-only."""

from __future__ import annotations

import datetime as dt
import random
import types

import pytest
from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.db.utils import DatabaseError

import games.models
from games import partitions, tasks
from games.models import DetachedEra, Event, Snapshot, Table, current_era
from tests.api.play import Game, game_moves, person, play_to_the_end, set_up
from tests.games.test_integrity_commands import run

GUERRA = Game("guerra", 2, people=(0,), options={"max_rounds": 10}, stake={"currency": "MXN", "amount": "10.00"})
BEFORE, PARTITIONED = ("games", "0007_drop_five_card_draw_snapshots"), ("games", "0008_partition_events_by_era")
# Eras long gone, for tables made "then": no test run meets them as the current one.
PAST, PAST_STILL_PLAYING, NEVER_PREPARED = 202001, 202002, 203001


def _sql(statement: str, params: list | None = None) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(statement, params)
        return cursor.fetchall() if cursor.description else []


def _one_move(table_id: str, clients: dict, task_queue) -> int:
    """A person's move at a live table (the bots' turns run first); the version it reached."""
    task_queue.run_until_idle()
    client = next(c for c in clients.values() if c is not None)
    view = client.get(f"/api/v1/tables/{table_id}/").json()
    assert view["status"] == "running", view["status"]
    response = client.post(
        f"/api/v1/tables/{table_id}/actions/",
        {"action": game_moves(view)[0], "expected_version": view["version"]},
        format="json",
    )
    assert response.status_code == 200, response.json()
    return Table.objects.get(pk=table_id).version


def _checks_clean() -> None:
    for args in (("check_replay",), ("reconcile",), ("verify_hands", "--all", "--quiet")):
        ok, out = run(*args)
        assert ok, (args, out)


def _made_in(era: int, monkeypatch) -> None:
    """Tables made from now on belong to ``era``, as if made in that month."""
    year, month = divmod(era, 100)
    then = dt.datetime(year, month, 15, tzinfo=dt.UTC)
    monkeypatch.setattr(games.models, "timezone", types.SimpleNamespace(now=lambda: then))


@pytest.fixture
def eras_made(postgres_tx):
    """Partitions the test makes (and the tables a detach leaves), dropped after it."""
    made: list[int] = []
    yield made
    for era in made:
        _sql(f"DROP TABLE IF EXISTS {partitions.partition_name(era)}")


def test_the_migration_moves_a_played_database_and_the_checks_stay_clean(transactional_db, task_queue):
    """On PostgreSQL into the era's partition; on SQLite the events stay in one table, with the
    era and their append-only triggers."""
    staff = person("staff", staff=True)
    finished, clients = set_up(GUERRA, person("player"), staff)
    play_to_the_end(finished, clients, task_queue, random.Random(1))
    live, live_clients = set_up(GUERRA, person("still-playing"), staff)
    _one_move(live, live_clients, task_queue)
    before = set(Event.objects.values_list("id", "table_id", "seq", "prev_hash", "hash"))
    assert len(before) > 50

    postgres = connection.vendor == "postgresql"
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    if postgres:
        assert _sql("SELECT relkind FROM pg_class WHERE relname = 'games_event'") == [("r",)]
    assert _sql("SELECT count(*) FROM games_event") == [(len(before),)]
    executor.loader.build_graph()
    executor.migrate([PARTITIONED])

    assert set(Event.objects.values_list("id", "table_id", "seq", "prev_hash", "hash")) == before
    assert not Event.objects.exclude(era=current_era()).exists()
    if postgres:
        assert _sql("SELECT relkind FROM pg_class WHERE relname = 'games_event'") == [("p",)]
        # Every event sits in its table's era's partition, none in the default.
        placed = _sql("SELECT DISTINCT tableoid::regclass::text FROM games_event")
        assert placed == [(partitions.partition_name(current_era()),)]
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        _sql("UPDATE games_event SET actor = 'rogue'")
    _checks_clean()
    # The live table plays on, and its new events continue the chain and the ids.
    top = max(pk for pk, *_ in before)
    version = _one_move(live, live_clients, task_queue)
    assert Event.objects.filter(table_id=live, seq=version).get().id > top
    _checks_clean()


@pytest.mark.postgres
def test_a_finished_era_detaches_and_every_live_table_plays_on(eras_made, task_queue, monkeypatch, tmp_path):
    staff = person("staff", staff=True)
    with connection.cursor() as cursor:
        eras_made.extend(partitions.ensure(cursor, [PAST, PAST_STILL_PLAYING]))
    assert eras_made == [PAST, PAST_STILL_PLAYING]
    _made_in(PAST, monkeypatch)
    old = []
    for seed in (3, 4):
        table_id, clients = set_up(GUERRA, person(f"then-{seed}"), staff)
        play_to_the_end(table_id, clients, task_queue, random.Random(seed))
        old.append(table_id)
    _made_in(PAST_STILL_PLAYING, monkeypatch)
    unfinished, unfinished_clients = set_up(GUERRA, person("then-playing"), staff)
    monkeypatch.undo()
    live, live_clients = set_up(GUERRA, person("now-playing"), staff)
    _one_move(live, live_clients, task_queue)
    assert {Table.objects.get(pk=pk).era for pk in old} == {PAST}
    in_past = Event.objects.filter(era=PAST).count()
    assert _sql(f"SELECT count(*) FROM {partitions.partition_name(PAST)}") == [(in_past,)]

    ok, out = run("partition_history", "--detach", str(PAST_STILL_PLAYING))
    assert not ok and f"Era {PAST_STILL_PLAYING} still has 1 table(s) open or running (for example {unfinished})" in out
    ok, out = run("partition_history", "--detach", str(current_era()))
    assert not ok and "is not over" in out
    ok, out = run("partition_history")
    assert f"{PAST}  {partitions.partition_name(PAST)}" in out and "detachable" in out

    checkpoint = tmp_path / "checkpoint.json"
    assert run("publish_checkpoint", str(checkpoint))[0]
    ok, out = run("partition_history", "--detach", str(PAST))
    assert ok, out
    assert f"Detached {partitions.partition_name(PAST)}: {in_past} event(s) of 2 finished table(s)" in out
    assert PAST not in partitions.attached_eras(connection.cursor())
    assert DetachedEra.objects.get(era=PAST).events == in_past
    # The history left the events table whole, into the partition's own table, to be archived.
    assert not Event.objects.filter(era=PAST).exists()
    assert _sql(f"SELECT count(*) FROM {partitions.partition_name(PAST)}") == [(in_past,)]

    # Live tables of other eras play on; the finished ones still show their end from their snapshot.
    _one_move(live, live_clients, task_queue)
    _one_move(unfinished, unfinished_clients, task_queue)
    for table_id in old:
        table = Table.objects.get(pk=table_id)
        assert list(Snapshot.objects.filter(table_id=table_id).values_list("version", flat=True)) == [table.version]
        view = staff.get(f"/api/v1/tables/{table_id}/")
        assert view.status_code == 200 and view.json()["status"] == "finished"
        # Its hands left with its events: none is listed, none audited, until the archive is back.
        hands = staff.get(f"/api/v1/tables/{table_id}/hands/")
        assert hands.status_code == 200 and hands.json()["results"] == []
        assert staff.get(f"/api/v1/tables/{table_id}/hands/1/audit/").status_code == 404
    _checks_clean()
    ok, out = run("verify_checkpoint", str(checkpoint))
    assert ok, out
    ok, out = run("partition_history")
    assert f"{PAST}  detached" in out


@pytest.mark.postgres
def test_events_stay_append_only_in_every_partition(eras_made, task_queue):
    staff = person("staff", staff=True)
    table_id, clients = set_up(GUERRA, person("alice"), staff)
    _one_move(table_id, clients, task_queue)
    partition = partitions.partition_name(current_era())
    for statement in (
        "UPDATE games_event SET actor = 'rogue' WHERE table_id = %s",
        "DELETE FROM games_event WHERE table_id = %s",
        f"UPDATE {partition} SET actor = 'rogue' WHERE table_id = %s",
        f"DELETE FROM {partition} WHERE table_id = %s",
    ):
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
            _sql(statement, [table_id])
    for table in ("games_event", partition, partitions.DEFAULT_PARTITION):
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
            _sql(f"TRUNCATE {table}")
    assert Event.objects.filter(table_id=table_id, actor="rogue").count() == 0


@pytest.mark.postgres
def test_an_era_whose_events_fell_into_the_default_partition_is_not_made_over_them(eras_made, task_queue, monkeypatch):
    _made_in(NEVER_PREPARED, monkeypatch)
    table_id, clients = set_up(GUERRA, person("alice"), person("staff", staff=True))
    monkeypatch.undo()
    assert _sql("SELECT DISTINCT tableoid::regclass::text FROM games_event WHERE table_id = %s", [table_id]) == [
        (partitions.DEFAULT_PARTITION,)
    ]
    refused = f"of era {NEVER_PREPARED} are in games_event_default"
    with pytest.raises(partitions.PartitionError, match=refused), connection.cursor() as cursor:
        partitions.ensure(cursor, [NEVER_PREPARED])
    # The table still plays, from the default partition.
    _one_move(table_id, clients, task_queue)


@pytest.mark.postgres
def test_the_coming_eras_partitions_are_made_ahead(eras_made):
    coming = partitions.eras_from(current_era(), 5)
    for era in coming[4:]:
        _sql(f"DROP TABLE IF EXISTS {partitions.partition_name(era)}")
    eras_made.extend(coming[4:])
    ok, out = run("partition_history", "--ahead", "5")
    assert ok, out
    assert f"made: {', '.join(partitions.partition_name(era) for era in coming[4:])}" in out
    assert set(coming) <= partitions.attached_eras(connection.cursor())
    ok, out = run("partition_history", "--ahead", "5")
    assert "made: nothing" in out


@pytest.mark.postgres
def test_a_detach_that_cannot_have_the_events_table_gives_up_and_detaches_nothing(eras_made, monkeypatch):
    import psycopg

    with connection.cursor() as cursor:
        eras_made.extend(partitions.ensure(cursor, [PAST]))
    monkeypatch.setattr(partitions, "DETACH_LOCK_TIMEOUT", "200ms")
    # Another session in the middle of reading the events: the detach must wait for it.
    with psycopg.connect(**connection.get_connection_params()) as reader:
        reader.execute("SELECT count(*) FROM games_event")
        with pytest.raises(partitions.PartitionError, match="stayed busy for 200ms"):
            partitions.detach(PAST)
    assert PAST in partitions.attached_eras(connection.cursor())
    assert not DetachedEra.objects.exists()
    # An era that never had a table is over once its month is.
    assert partitions.detach(PAST).tables == 0


@pytest.mark.postgres
def test_beat_makes_the_coming_months_partition(postgres_tx):
    furthest = partitions.eras_from(current_era(), partitions.ERAS_AHEAD)[-1]
    _sql(f"DROP TABLE {partitions.partition_name(furthest)}")
    assert tasks.prepare_history_partitions.apply().get() == 1
    assert furthest in partitions.attached_eras(connection.cursor())
    assert tasks.prepare_history_partitions.apply().get() == 0


def test_era_arithmetic():
    assert partitions.next_era(202612) == 202701
    assert partitions.eras_from(202611, 3) == [202611, 202612, 202701, 202702]
    assert games.models.era_of(dt.datetime(2026, 12, 31, 23, 30, tzinfo=dt.timezone(dt.timedelta(hours=-6)))) == 202701


def test_without_partitions_nothing_detaches(db):
    if connection.vendor == "postgresql":
        pytest.skip("SQLite keeps the events in one table")
    ok, out = run("partition_history", "--detach", "202001")
    assert not ok and "not partitioned" in out
    assert partitions.prepare() == []
