"""A person's action under an ``Idempotency-Key`` (``games.play.act``): on PostgreSQL the key's
record is read in the very statement that locks the table (issue 24), with the events and the hand
seeds this process lacks, and a twin that waited for that lock still gets the first answer
replayed."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext

from games import idempotency, play
from games.models import CommandRecord, Event, Table
from games.play import seeds
from tests.api.play import hold_state_at, person
from tests.api.test_tables import started_pair, table

pytestmark = pytest.mark.django_db(transaction=True)

ADD = {"type": "add", "amount": 1}


def _mover(alice, bob, table_id):
    view = table(alice, table_id)
    return (alice if view["to_act"] == [0] else bob), view["version"]


def _locks_awaited() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0]


def test_a_twin_that_waited_for_the_lock_gets_the_first_answer(postgres_tx, counter_game, monkeypatch):
    """The first of two twins holds the table's lock, its events appended and its answer kept but
    not yet committed; the second's statement waits for the lock, having read no record. Once the
    first commits, the second finds the table moved past the request's version, looks the key up
    again and answers the first answer, replayed: one command, not a 409."""
    alice, bob = person("alice"), person("bob")
    table_id = started_pair(alice, bob)
    mover, version = _mover(alice, bob, table_id)
    appended, release = threading.Event(), threading.Event()
    keep = idempotency.Keyed.keep

    def keep_then_hold(self, *args, **kwargs):
        kept = keep(self, *args, **kwargs)
        if threading.current_thread().name == "first":
            appended.set()
            assert release.wait(30), "the test never let the first twin commit"
        return kept

    monkeypatch.setattr(idempotency.Keyed, "keep", keep_then_hold)
    answers: dict[str, object] = {}

    def send(name: str) -> None:
        try:
            answers[name] = play.act(
                table_id=table_id, user=mover.user, action=ADD, expected_version=version, idempotency_key="twin"
            )
        except Exception as error:
            answers[name] = error
        finally:
            connections.close_all()

    first = threading.Thread(target=send, args=("first",), name="first")
    first.start()
    assert appended.wait(30), answers
    second = threading.Thread(target=send, args=("second",), name="second")
    second.start()
    deadline = time.monotonic() + 30
    while _locks_awaited() == 0:
        assert second.is_alive(), answers
        assert time.monotonic() < deadline, "the second twin never waited for the table's lock"
        time.sleep(0.005)
    release.set()
    for thread in (first, second):
        thread.join(30)
        assert not thread.is_alive()

    status, body, replayed = answers["first"]
    assert (status, replayed) == (200, False), answers
    assert answers["second"] == (200, body, True), answers
    assert Table.objects.get(pk=table_id).version == body["version"] == version + len(body["events"])
    assert Event.objects.filter(table_id=table_id, seq__gt=version).count() == len(body["events"])
    assert CommandRecord.objects.filter(key="twin").count() == 1


def test_a_keyed_action_reads_its_record_the_newer_events_and_seeds_with_the_lock(postgres_tx, counter_game):
    """Neither the key's record, nor the events this process has not folded yet (another process
    moved the table), nor the hand seeds it does not hold cost a statement of their own: they ride
    the statement that locks the table. A repeat is answered from the record that statement read."""
    alice, bob = person("alice"), person("bob")
    table_id = started_pair(alice, bob)
    mover, version = _mover(alice, bob, table_id)
    hold_state_at(table_id, version - 1)
    seeds.forget_seeds()

    with CaptureQueriesContext(connection) as captured:
        status, body, replayed = play.act(
            table_id=table_id, user=mover.user, action=ADD, expected_version=version, idempotency_key="k1"
        )
    assert (status, replayed) == (200, False) and body["version"] > version
    reads = _reads_of_what_rides(captured)
    assert len(reads) == 1 and "FOR UPDATE" in reads[0], reads
    assert "games_commandrecord" in reads[0] and "games_event" in reads[0], reads

    with CaptureQueriesContext(connection) as captured:
        again = play.act(table_id=table_id, user=mover.user, action=ADD, expected_version=version, idempotency_key="k1")
    assert again == (200, body, True)
    reads = _reads_of_what_rides(captured)
    assert len(reads) == 1 and "FOR UPDATE" in reads[0], reads


def _reads_of_what_rides(captured: CaptureQueriesContext) -> list[str]:
    statements = (query["sql"] for query in captured.captured_queries)
    read = ("games_commandrecord", "games_event", "games_handseed")
    return [sql for sql in statements if sql.startswith("SELECT") and any(name in sql for name in read)]
