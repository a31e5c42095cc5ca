"""The event store: appends, conflicts, the hash chain, snapshots and replay."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from games import chain, store
from games.engine.codec import decode_event, encode_state
from games.engine.decider import event_types_by_name, replay
from games.errors import Conflict
from games.models import Event, Snapshot, Table
from tests.games.play import make_table, play


def add(table, seat, amount=3):
    return play(table, {"type": "add", "seat": seat, "amount": amount}, actor=f"user:{seat}")


def test_append_then_load_gives_the_state_the_events_fold_to(counter_table, counter_game):
    play(counter_table, {"type": "start"})
    add(counter_table, 0, 5)
    add(counter_table, 1, 2)
    state, version = store.load(table=counter_table, decider=counter_game)
    assert version == counter_table.version == 4
    assert (state.total, state.pot, state.chips, state.turn) == (7, 7, (95, 98), 0)
    stored = list(Event.objects.filter(table=counter_table).values_list("seq", "type", "actor", "hand_no"))
    assert stored == [
        (1, "GameStarted", "system", 0),
        (2, "HandStarted", "system", 1),
        (3, "Added", "user:0", 1),
        (4, "Added", "user:1", 1),
    ]


def test_secret_parts_are_stored_apart_from_public_data(counter_table, counter_game):
    play(counter_table, {"type": "start"})
    dealt = Event.objects.get(table=counter_table, seq=2)
    assert set(dealt.secret) == {"server_seed", "cards"}
    assert "server_seed" not in dealt.data and "cards" not in dealt.data


def test_stale_expected_version_is_a_conflict_and_writes_nothing(counter_table, counter_game):
    play(counter_table, {"type": "start"})
    record = store.NewEvent(type="Added", data={"seat": 0, "amount": 1, "total": 1}, actor="user:0", hand_no=1)
    with pytest.raises(Conflict) as conflict, transaction.atomic():
        store.append(table=counter_table, expected_version=1, records=[record, record])
    assert conflict.value.extra == {"current_version": 2}
    assert Event.objects.filter(table=counter_table).count() == 2
    counter_table.refresh_from_db()
    assert counter_table.version == 2


def test_append_outside_a_transaction_is_refused(transactional_db, counter_game):
    table = make_table("counter")
    with pytest.raises(RuntimeError, match="atomic"):
        store.append(table=table, expected_version=0, records=[])


def test_a_writer_that_bypassed_the_lock_is_stopped_by_the_unique_seq(counter_table, counter_game):
    play(counter_table, {"type": "start"})
    # A row at seq 3 that did not move the version, as a buggy writer would leave it.
    Event.objects.create(table=counter_table, seq=3, type="Added", actor="rogue", prev_hash="x", hash="y")
    record = store.NewEvent(type="Added", data={"seat": 0, "amount": 1, "total": 1}, actor="user:0", hand_no=1)
    with pytest.raises(Conflict), transaction.atomic():
        store.append(table=counter_table, expected_version=2, records=[record])
    counter_table.refresh_from_db()
    assert counter_table.version == 2


def test_events_chain_by_hash_from_genesis(counter_table, counter_game):
    play(counter_table, {"type": "start"})
    add(counter_table, 0)
    events = list(Event.objects.filter(table=counter_table).order_by("seq"))
    prev = store.GENESIS
    for event in events:
        assert event.prev_hash == prev
        assert event.hash_version == store.HASH_VERSION == 2
        assert event.hash == store.event_hash(
            prev,
            counter_table.pk,
            event.seq,
            event.type,
            event.hand_no,
            event.actor,
            event.data,
            event.secret,
            event.created_at,
        )
        prev = event.hash
    assert chain.verify_chain(counter_table) == []


def test_canonical_json_sorts_keys_and_keeps_unicode():
    assert store.canonical_json({"b": 1, "a": ["ñ", None]}) == '{"a":["ñ",null],"b":1}'


def test_events_after_pages_in_order(counter_table, counter_game):
    play(counter_table, {"type": "start"})
    add(counter_table, 0)
    add(counter_table, 1)
    assert [e.seq for e in store.events_after(counter_table, 1)] == [2, 3, 4]
    assert [e.seq for e in store.events_after(counter_table, 1, limit=2)] == [2, 3]


def test_snapshot_plus_tail_equals_replay_from_scratch(counter_table, counter_game, settings):
    settings.SNAPSHOT_EVERY = 3
    play(counter_table, {"type": "start"})
    for turn in range(6):
        add(counter_table, turn % 2, 1)
    assert Snapshot.objects.filter(table=counter_table).exists()
    snapshot_version = Snapshot.objects.filter(table=counter_table).order_by("-version").first().version
    assert 0 < snapshot_version < counter_table.version
    loaded, version = store.load(table=counter_table, decider=counter_game, cache=False)
    scratch, scratch_version = store.replay_from_scratch(counter_table, counter_game)
    assert (version, encode_state(loaded)) == (scratch_version, encode_state(scratch))
    # An earlier point in history, from an earlier snapshot plus its tail.
    at = snapshot_version + 1
    past, past_version = store.load(table=counter_table, decider=counter_game, at=at)
    types = event_types_by_name(counter_game)
    stored = Event.objects.filter(table=counter_table, seq__lte=at).order_by("seq")
    events = [decode_event(types, e.type, e.data, e.secret) for e in stored]
    assert past_version == at
    assert past == replay(counter_game, counter_table.config, events)


def test_the_cache_serves_the_committed_state_without_reading_snapshots(
    counter_table, counter_game, django_capture_on_commit_callbacks, django_assert_num_queries
):
    with django_capture_on_commit_callbacks(execute=True):
        play(counter_table, {"type": "start"})
        add(counter_table, 0)
    with django_assert_num_queries(1):  # only the events after the cached version
        state, version = store.load(table=counter_table, decider=counter_game)
    assert version == 3 and state == store.replay_from_scratch(counter_table, counter_game)[0]


def test_a_tail_read_with_the_row_is_folded_and_only_what_it_missed_is_read(
    counter_table, counter_game, django_capture_on_commit_callbacks, django_assert_num_queries
):
    """``Tail``: the events after the cached state as the lock's statement read them. One that
    holds them all costs no statement; one that missed the newest (the writer the lock waited for)
    is completed by one read of those alone; rows the cache already holds are skipped."""
    with django_capture_on_commit_callbacks(execute=True):
        play(counter_table, {"type": "start"})
        store.load(table=counter_table, decider=counter_game)  # the cache holds version 2
    add(counter_table, 0)
    add(counter_table, 1)
    counter_table.refresh_from_db()
    rows = [store.Recorded(*row) for row in store._tail_now(counter_table, 1, None)]
    truth = store.replay_from_scratch(counter_table, counter_game)
    with django_assert_num_queries(0):
        assert store.load(table=counter_table, decider=counter_game, tail=store.Tail(1, rows)) == truth
    store.forget(counter_table)
    with django_capture_on_commit_callbacks(execute=True):
        store.remember(counter_table, counter_game, 2, store.load(table=counter_table, decider=counter_game, at=2)[0])
    with django_assert_num_queries(1):
        assert store.load(table=counter_table, decider=counter_game, tail=store.Tail(1, rows[:2])) == truth


def test_an_empty_append_only_checks_the_version(counter_table, counter_game):
    play(counter_table, {"type": "start"})
    with transaction.atomic():
        assert store.append(table=counter_table, expected_version=2, records=[]) == []
    with pytest.raises(Conflict), transaction.atomic():
        store.append(table=counter_table, expected_version=1, records=[])


def test_saving_a_stale_table_does_not_move_its_version_back(counter_table, counter_game):
    stale = type(counter_table).objects.get(pk=counter_table.pk)
    play(counter_table, {"type": "start"})
    stale.status = "running"
    stale.save()
    counter_table.refresh_from_db()
    assert (counter_table.version, counter_table.status) == (2, "running")
    assert chain.verify_chain(counter_table) == []


def test_a_rolled_back_command_leaves_nothing_in_the_cache(
    counter_table, counter_game, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        play(counter_table, {"type": "start"})
        with pytest.raises(RuntimeError), transaction.atomic():
            add(counter_table, 0)
            store.load(table=counter_table, decider=counter_game)  # offers version 3 to the cache
            raise RuntimeError("the ledger refused, say")
    counter_table.refresh_from_db()
    state, version = store.load(table=counter_table, decider=counter_game)
    assert version == counter_table.version == 2
    assert state.total == 0


@pytest.mark.parametrize("events", [0, 1, 2])
def test_append_sets_other_fields_of_the_table_row_with_its_version(counter_table, counter_game, events):
    play(counter_table, {"type": "start"})
    record = store.NewEvent(type="Added", data={"seat": 0, "amount": 1, "total": 1}, actor="user:0", hand_no=1)
    due = timezone.now() + timedelta(seconds=30)
    changes = {"deadline_at": due, "deadline_version": 2 + events, "deadline_command": {"type": "timeout", "seat": 1}}
    with transaction.atomic():
        store.append(table=counter_table, expected_version=2, records=[record] * events, also=changes)
    assert (counter_table.version, counter_table.deadline_at, counter_table.deadline_command) == (
        2 + events,
        due,
        {"type": "timeout", "seat": 1},
    )
    row = Table.objects.get(pk=counter_table.pk)
    assert (row.version, row.deadline_at, row.deadline_version, row.deadline_command) == (
        2 + events,
        due,
        2 + events,
        {"type": "timeout", "seat": 1},
    )
    with transaction.atomic():
        store.append(table=counter_table, expected_version=2 + events, records=[], also={"deadline_command": None})
    assert Table.objects.get(pk=counter_table.pk).deadline_command is None


def test_append_refuses_to_set_the_version_through_other_fields(counter_table, counter_game):
    with pytest.raises(ValueError, match="version"), transaction.atomic():
        store.append(table=counter_table, expected_version=0, records=[], also={"version": 7})


def test_riders_are_written_with_the_append_and_only_when_the_version_moves(counter_table, counter_game):
    """A rider (the command's outbox row, its notice) is written with the events, in the same
    statement on PostgreSQL; when the compare-and-set finds the version moved, nothing is."""
    from games import scheduling
    from games.models import OutboxMessage

    play(counter_table, {"type": "start"})
    record = store.NewEvent(type="Added", data={"seat": 0, "amount": 1}, actor="user:1", hand_no=1)

    def rider(into: list):
        row = scheduling.schedule_with("games.tasks.play_bot", counter_table.pk, 3)
        return store.Rider(row.sql, row.params, row.returning, into.append)

    got: list = []
    with pytest.raises(Conflict), transaction.atomic():
        store.append(table=counter_table, expected_version=1, records=[record], riders=[rider(got)])
    assert got == [] and not OutboxMessage.objects.exists()
    with transaction.atomic():
        rows = store.append(table=counter_table, expected_version=2, records=[record], riders=[rider(got)])
    (row,) = OutboxMessage.objects.all()
    assert [r.seq for r in rows] == [3] and got == [row.pk]
    assert (row.task, row.args, row.key, row.published_at, row.attempts) == (
        "games.tasks.play_bot",
        [str(counter_table.pk), 3],
        scheduling.task_key("games.tasks.play_bot", [str(counter_table.pk), 3]),
        row.created_at,  # a table's own task is stored marked published (games.scheduling)
        0,
    )
    assert row.due_at == row.created_at and row.headers["due_at"] > 0
