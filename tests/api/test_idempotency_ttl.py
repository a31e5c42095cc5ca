"""Idempotency keys live for IDEMPOTENCY_TTL_SECONDS: a repeat within it is replayed (and says so),
a repeat after it is a new command, and the beat task purges the expired records."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import idempotency, tasks
from games.models import CommandRecord
from tests.api.play import person
from tests.api.test_tables import act, started_pair, table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def pair(counter_game):
    return person("alice"), person("bob")


def first_move(alice, bob, key):
    table_id = started_pair(alice, bob)
    view = table(alice, table_id)
    mover = alice if view["to_act"][0] == 0 else bob
    first = act(mover, table_id, {"type": "add", "amount": 2}, view["version"], key=key)
    assert first.status_code == 200, first.json()
    return table_id, mover, view["version"], first


def age(key, seconds):
    CommandRecord.objects.filter(key=key).update(created_at=timezone.now() - timedelta(seconds=seconds))


def test_a_replayed_answer_says_so_and_the_first_does_not(pair):
    table_id, mover, version, first = first_move(*pair, key="k-replay")
    again = act(mover, table_id, {"type": "add", "amount": 2}, version, key="k-replay")
    assert again.status_code == 200
    assert again.json() == first.json()
    assert "Idempotent-Replayed" not in first.headers
    assert again.headers["Idempotent-Replayed"] == "true"


def test_a_record_within_its_ttl_is_replayed(pair, settings):
    settings.IDEMPOTENCY_TTL_SECONDS = 600
    table_id, mover, version, _ = first_move(*pair, key="k-young")
    age("k-young", 590)
    again = act(mover, table_id, {"type": "add", "amount": 2}, version, key="k-young")
    assert again.status_code == 200
    assert again.headers["Idempotent-Replayed"] == "true"


def test_a_repeat_after_the_ttl_is_a_new_command_and_gets_the_stale_version_409(pair, settings):
    settings.IDEMPOTENCY_TTL_SECONDS = 600
    table_id, mover, version, first = first_move(*pair, key="k-old")
    age("k-old", 601)
    again = act(mover, table_id, {"type": "add", "amount": 2}, version, key="k-old")
    assert again.status_code == 409, again.json()
    assert again.json()["current_version"] == first.json()["version"]
    assert "Idempotent-Replayed" not in again.headers
    # The refused command stored nothing: the old record is still there, for the purge to take.
    assert CommandRecord.objects.filter(key="k-old").count() == 1


def test_an_expired_key_can_carry_a_new_command(pair, settings):
    settings.IDEMPOTENCY_TTL_SECONDS = 600
    alice, bob = pair
    table_id, mover, _, _ = first_move(alice, bob, key="k-reuse")
    age("k-reuse", 601)
    # The counter game alternates turns: the other player moves, then the same key comes back.
    other = bob if mover is alice else alice
    view = table(other, table_id)
    assert act(other, table_id, {"type": "add", "amount": 1}, view["version"]).status_code == 200
    view = table(mover, table_id)
    fresh = act(mover, table_id, {"type": "add", "amount": 1}, view["version"], key="k-reuse")
    assert fresh.status_code == 200, fresh.json()
    assert "Idempotent-Replayed" not in fresh.headers
    assert CommandRecord.objects.get(key="k-reuse").response == fresh.json()


def test_the_purge_deletes_only_expired_records_in_batches(pair, settings):
    settings.IDEMPOTENCY_TTL_SECONDS = 600
    first_move(*pair, key="k-1")
    record = CommandRecord.objects.get(key="k-1")
    old = timezone.now() - timedelta(seconds=700)
    for n in range(5):
        CommandRecord.objects.create(
            key=f"old-{n}", user=record.user, table=record.table, request_hash="x", status_code=200, response={}
        )
    CommandRecord.objects.filter(key__startswith="old-").update(created_at=old)
    assert idempotency.purge(batch=2) == 5
    assert list(CommandRecord.objects.values_list("key", flat=True)) == ["k-1"]
    assert tasks.purge_idempotency_records() == 0


def test_beat_runs_the_purge(settings):
    schedule = settings.CELERY_BEAT_SCHEDULE
    assert any(entry["task"] == "games.tasks.purge_idempotency_records" for entry in schedule.values())
