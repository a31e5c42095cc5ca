"""Commands write a snapshot whenever the table's version passes a multiple of SNAPSHOT_EVERY, so a
process with no cached state loads from a recent snapshot however long the history (DESIGN
"Event store": loading does not grow with history)."""

from __future__ import annotations

from importlib import import_module

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model

from games import play, store
from games.engine.codec import encode_state
from games.models import Snapshot, Table
from tests.games.play import make_table

pytestmark = pytest.mark.django_db


def test_commands_snapshot_each_time_the_version_passes_a_multiple(
    counter_game, settings, django_capture_on_commit_callbacks
):
    # Larger than any command's events: loads served from the cache never write one themselves.
    settings.SNAPSHOT_EVERY = 5
    alice, bob = (get_user_model().objects.create_user(username=name) for name in ("alice", "bob"))
    table = play.create_table(user=alice, game="counter", seats=2)
    play.join_table(table_id=table.pk, user=alice)
    play.join_table(table_id=table.pk, user=bob)
    play.start_table(table_id=table.pk, user=alice)
    people = {0: alice, 1: bob}
    versions = []
    for _ in range(16):
        table = Table.objects.get(pk=table.pk)
        state, version = play.table_state(table)
        (seat,) = counter_game.to_act(state)
        action = counter_game.legal_actions(state, seat)[0]
        # The commit callbacks run, so the cache holds each command's state as in a live process.
        with django_capture_on_commit_callbacks(execute=True):
            play.act(table_id=table.pk, user=people[seat], action=action, expected_version=version)
        versions.append(version)
    table = Table.objects.get(pk=table.pk)
    snapshots = sorted(Snapshot.objects.filter(table=table).values_list("version", flat=True))
    # One snapshot for each command that moved the version past a multiple of 5, at the version
    # that command ended on (the next command's starting version, or the final one).
    ends = [*versions[1:], table.version]
    expected = [end for start, end in zip(versions, ends, strict=True) if start // 5 != end // 5]
    assert snapshots == expected and len(expected) >= 2
    store.forget()
    loaded, version = store.load(table=table, decider=counter_game, cache=False)
    scratch, scratch_version = store.replay_from_scratch(table, counter_game)
    assert (version, encode_state(loaded)) == (scratch_version, encode_state(scratch))


def test_the_migration_drops_five_card_draw_snapshots_only(counter_game):
    """FD-6, FD-13: Five-Card Draw's state gained fields, so its snapshots from before are dropped
    (a load rebuilds them from the events); other games' stay."""
    draw = make_table("five_card_draw", 2, owner_name="dealer")
    counter = make_table("counter", 2, owner_name="counter-owner")
    for table in (draw, counter):
        Snapshot.objects.create(table=table, version=1, state={"old": True})
    migration = import_module("games.migrations.0007_drop_five_card_draw_snapshots")
    migration.drop_snapshots(apps, None)
    assert not Snapshot.objects.filter(table=draw).exists()
    assert Snapshot.objects.filter(table=counter).count() == 1


def test_a_state_held_since_long_ago_is_loaded_from_the_snapshot_not_its_tail(
    counter_game, settings, django_capture_on_commit_callbacks, monkeypatch
):
    """A process whose cached state is more than SNAPSHOT_EVERY events behind the table (it moved on
    in other processes) loads from the latest snapshot, folding only the events after it, not every
    event since its old state: a stream's view of a table of 100,000 events costs a snapshot."""
    settings.SNAPSHOT_EVERY = 5
    alice, bob = (get_user_model().objects.create_user(username=name) for name in ("alice", "bob"))
    table = play.create_table(user=alice, game="counter", seats=2)
    play.join_table(table_id=table.pk, user=alice)
    play.join_table(table_id=table.pk, user=bob)
    play.start_table(table_id=table.pk, user=alice)
    people = {0: alice, 1: bob}
    table = Table.objects.get(pk=table.pk)
    old_state, old_version = play.table_state(table)
    for _ in range(16):
        table = Table.objects.get(pk=table.pk)
        state, version = play.table_state(table)
        (seat,) = counter_game.to_act(state)
        action = counter_game.legal_actions(state, seat)[0]
        with django_capture_on_commit_callbacks(execute=True):
            play.act(table_id=table.pk, user=people[seat], action=action, expected_version=version)
    table = Table.objects.get(pk=table.pk)
    newest = Snapshot.objects.filter(table=table).order_by("-version").values_list("version", flat=True).first()
    assert newest is not None and table.version - old_version > settings.SNAPSHOT_EVERY
    store.forget()
    with django_capture_on_commit_callbacks(execute=True):
        store.remember(table, counter_game, old_version, old_state)
    folded = []
    real_tail = store._tail_now

    def counted(table, after, at):
        folded.append(after)
        return real_tail(table, after, at)

    monkeypatch.setattr(store, "_tail_now", counted)
    loaded, version = store.load(table=table, decider=counter_game)
    scratch, scratch_version = store.replay_from_scratch(table, counter_game)
    assert (version, encode_state(loaded)) == (scratch_version, encode_state(scratch))
    assert folded == [newest]
