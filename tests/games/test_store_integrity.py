"""Recorded events cannot be changed: not by the model, not by raw SQL (database triggers), and
a change made by someone who switched the triggers off is caught by the hash chain."""

from __future__ import annotations

import threading

import pytest
from django.core.management import CommandError, call_command
from django.db import DatabaseError, connection, connections, transaction

from games import chain, store
from games.errors import Conflict
from games.models import Event, ImmutableRow, Snapshot
from tests.conftest import IN_CI, require
from tests.games.play import make_table, play
from tests.games.tamper import delete_event, tamper_event, triggers_off


@pytest.fixture
def started(counter_table, counter_game):
    play(counter_table, {"type": "start"})
    play(counter_table, {"type": "add", "seat": 0, "amount": 2})
    return counter_table


def refused(sql, params=()):
    """Run ``sql`` in its own savepoint and say whether the database refused it."""
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql, params)
    except DatabaseError as error:
        assert "append-only" in str(error)
        return True
    return False


def test_model_refuses_save_of_a_recorded_event_and_delete(started):
    event = Event.objects.get(table=started, seq=3)
    event.data = {"seat": 0, "amount": 5, "total": 5}
    with pytest.raises(ImmutableRow):
        event.save()
    with pytest.raises(ImmutableRow):
        event.delete()


def test_raw_sql_update_and_delete_of_an_event_fail(started):
    assert refused("UPDATE games_event SET actor = 'forger'")
    assert refused("DELETE FROM games_event WHERE seq = 3")
    assert list(Event.objects.filter(table=started).values_list("seq", flat=True)) == [1, 2, 3]
    assert not Event.objects.filter(actor="forger").exists()


def test_queryset_update_and_delete_bypass_the_model_but_not_the_triggers(started):
    with pytest.raises(DatabaseError), transaction.atomic():
        Event.objects.filter(table=started).update(actor="forger")
    with pytest.raises(DatabaseError), transaction.atomic():
        Event.objects.filter(table=started).delete()
    assert Event.objects.filter(table=started).count() == 3


def test_truncate_fails_on_postgres_even_as_a_replica(postgres, started):
    with connection.cursor() as cursor:
        # Settle the deferred foreign-key checks of this test's inserts, which TRUNCATE would refuse first.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    assert refused("TRUNCATE games_event CASCADE")
    with transaction.atomic(), connection.cursor() as cursor:
        # Replica mode silences ordinary triggers (and foreign keys); ours are ENABLE ALWAYS.
        cursor.execute("SET LOCAL session_replication_role = replica")
        assert refused("TRUNCATE games_event CASCADE")
        assert refused("UPDATE games_event SET actor = 'forger'")
        assert refused("DELETE FROM games_event")
    assert Event.objects.filter(table=started).count() == 3


def test_triggers_come_back_after_deliberate_tampering(started):
    """How an auditor tampers on purpose: tests/games/tamper.py switches the triggers off inside a
    transaction (PostgreSQL: ALTER TABLE games_event DISABLE TRIGGER USER, as the table owner;
    SQLite: drop the triggers and create them again)."""
    with triggers_off("games_event"), connection.cursor() as cursor:
        cursor.execute("UPDATE games_event SET actor = 'auditor' WHERE seq = 3")
    assert Event.objects.get(table=started, seq=3).actor == "auditor"
    assert refused("UPDATE games_event SET actor = 'forger'")


def test_verify_chain_names_a_changed_event(started):
    tamper_event(started.pk, 3, data={"seat": 0, "amount": 5, "total": 5})
    problems = chain.verify_chain(started)
    assert [(p.seq, "contents" in p.what) for p in problems] == [(3, True)]


def test_verify_chain_names_a_rewritten_hash_and_a_missing_event(started):
    tamper_event(started.pk, 2, hash="0" * 64)
    problems = {(p.seq, p.what.split()[0]) for p in chain.verify_chain(started)}
    assert problems == {(2, "hash"), (3, "prev_hash")}
    delete_event(started.pk, 2)
    assert any(p.seq == 3 and "missing" in p.what for p in chain.verify_chain(started))


def test_check_replay_passes_on_intact_tables(started, counter_game, settings, capsys):
    settings.SNAPSHOT_EVERY = 2
    other = make_table("counter", seats=3)
    play(other, {"type": "start"})
    for seat in (0, 1, 2, 0):
        play(other, {"type": "add", "seat": seat, "amount": 1})
    assert Snapshot.objects.filter(table=other).exists()
    call_command("check_replay")
    out = capsys.readouterr().out
    assert f"ok {started.pk}" in out and f"ok {other.pk}" in out and "2 table(s) replay exactly" in out


def test_check_replay_runs_the_system_checks_first_as_manage_py_does(started, counter_game, capsys):
    # call_command skips the system checks unless asked; manage.py runs them, through BaseCommand.check.
    call_command("check_replay", skip_checks=False)
    assert "1 table(s) replay exactly" in capsys.readouterr().out


def test_check_replay_detects_a_corrupted_snapshot(started, counter_game, capsys):
    state, version = store.load(table=started, decider=counter_game, cache=False)
    store.save_snapshot(started, version, state)
    # Snapshots are a cache, so they are mutable: corrupt one as a bug would.
    snapshot = Snapshot.objects.get(table=started, version=version)
    snapshot.state = {**snapshot.state, "total": 99}
    snapshot.save()
    with pytest.raises(CommandError, match="1 of 1"):
        call_command("check_replay", str(started.pk))
    assert f"MISMATCH {started.pk}" in capsys.readouterr().out


def test_check_replay_detects_a_tampered_event(started, counter_game, capsys):
    tamper_event(started.pk, 3, actor="forger")
    with pytest.raises(CommandError):
        call_command("check_replay", str(started.pk))
    assert "hash does not match" in capsys.readouterr().out


def test_concurrent_appends_with_the_same_version_leave_one_winner(transactional_db, counter_game):
    """Eight writers race on one version: exactly one wins. On PostgreSQL (always in CI) the row
    lock decides; on SQLite, BEGIN IMMEDIATE serialises the writers and the version check decides."""
    require(connection.vendor == "postgresql" or not IN_CI, "PostgreSQL (DATABASE_URL=postgres://…)")
    race_eight_writers(counter_game)


def race_eight_writers(counter_game):
    table = make_table("counter", seats=2)
    play(table, {"type": "start"})
    writers = 8
    barrier = threading.Barrier(writers)
    outcomes: list[str] = []

    def write(seat_amount: int) -> None:
        try:
            record = store.NewEvent(
                type="Added", data={"seat": 0, "amount": seat_amount, "total": seat_amount}, actor="user:0", hand_no=1
            )
            barrier.wait(timeout=30)
            with transaction.atomic():
                store.append(table=table, expected_version=2, records=[record])
            outcomes.append("won")
        except Conflict:
            outcomes.append("conflict")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=write, args=(1 + i % 5,)) for i in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(outcomes) == ["conflict"] * (writers - 1) + ["won"]
    table.refresh_from_db()
    assert table.version == 3
    assert list(Event.objects.filter(table=table).values_list("seq", flat=True)) == [1, 2, 3]
    assert chain.verify_chain(table) == []


def test_a_changed_created_at_breaks_the_hash(started):
    """Fails on the code before: ``created_at`` was not hashed, so rewriting it passed every check."""
    recorded = Event.objects.get(table=started, seq=3).created_at
    tamper_event(started.pk, 3, created_at=recorded.replace(year=recorded.year - 1))
    problems = chain.verify_chain(started)
    assert [(p.seq, "contents" in p.what) for p in problems] == [(3, True)]


def test_events_recorded_before_created_at_was_hashed_still_verify(started):
    """Version 1 events (no ``created_at`` in the hash) are verified as they were recorded; an
    event downgraded to version 1 after version 2 ones is named."""
    previous = store.GENESIS
    for event in Event.objects.filter(table=started).order_by("seq"):
        # Rewrite the chain as the code before recorded it: version 1, hashes without the time.
        legacy = store.event_hash(
            previous, started.pk, event.seq, event.type, event.hand_no, event.actor, event.data, event.secret
        )
        tamper_event(started.pk, event.seq, hash_version=1, prev_hash=previous, hash=legacy)
        previous = legacy
    assert chain.verify_chain(started) == []
    play(started, {"type": "add", "seat": 1, "amount": 1})
    assert Event.objects.get(table=started, seq=4).hash_version == 2
    assert chain.verify_chain(started) == []
    tamper_event(started.pk, 4, hash_version=1)
    assert any(p.seq == 4 and "hash does not match" in p.what for p in chain.verify_chain(started))


@pytest.mark.parametrize(
    ("table", "columns"),
    [
        (
            "games_event",
            "id, table_id, seq, type, data, secret, actor, hand_no, created_at, prev_hash, hash, hash_version",
        ),
    ],
)
def test_insert_or_replace_over_an_event_is_refused_on_sqlite(started, table, columns):
    """Fails on the code before: REPLACE deleted the recorded row without firing the DELETE
    trigger, so an insider rewrote an event past the append-only triggers."""
    if connection.vendor != "sqlite":
        pytest.skip("INSERT OR REPLACE is SQLite's; PostgreSQL's upsert is an UPDATE, refused by the triggers")
    select = columns.replace("data,", '\'{"seat": 0, "amount": 9, "total": 9}\',')
    assert refused(f"INSERT OR REPLACE INTO {table} ({columns}) SELECT {select} FROM {table} WHERE seq = 3")
    assert refused(f"REPLACE INTO {table} ({columns}) SELECT {columns} FROM {table} WHERE seq = 3")
    assert Event.objects.get(table=started, seq=3).data["amount"] == 2
