"""The production shape, played end to end: two web processes that share no memory, two Celery
workers and one beat, on a PostgreSQL database and a Redis db of the test's own. People registered
over HTTP play a table of every game with bots, each person's requests alternating between the two
web processes; then every table has finished, every action happened exactly once, and the books,
the replays and the hands all check out."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator

import pytest
from django.conf import settings

from tests.conftest import require
from tests.production.players import (
    PlayedTable,
    deposit,
    play_all,
    register,
    set_up_table,
    staff_member,
    tables_of_every_game,
)
from tests.production.shape import Shape, redis_answers

pytestmark = pytest.mark.production

# Small tables and short matches: the whole test stays well under two minutes on two cores.
TABLES = tables_of_every_game(1)
PLAY_SECONDS = 90
REPLAYED_PER_TABLE = 2


def _services() -> tuple[str, str]:
    """The PostgreSQL server and the Redis server the suite is configured with, both reachable."""
    database_url = os.environ.get("DATABASE_URL", "")
    reachable = False
    if database_url.startswith("postgres"):
        import psycopg

        try:
            psycopg.connect(database_url.rsplit("/", 1)[0] + "/postgres", connect_timeout=3).close()
            reachable = True
        except psycopg.Error:
            pass
    require(reachable, "PostgreSQL (DATABASE_URL=postgres://…)")
    broker_url = settings.CELERY_BROKER_URL
    require(redis_answers(broker_url), "Redis (CELERY_BROKER_URL=redis://…)")
    try:
        import uvicorn_worker  # noqa: F401
    except ImportError:
        require(False, "the production web server (pip install gunicorn uvicorn uvicorn-worker)")
    return database_url, broker_url


@pytest.fixture
def shape() -> Iterator[Shape]:
    database_url, broker_url = _services()
    with Shape.create(database_url, broker_url, prefix="test_shape") as running:
        running.start_web("web1")
        running.start_web("web2")
        running.start_worker("worker1", concurrency=2)
        running.start_worker("worker2", concurrency=2)
        # A short sweep: timed commands (offers, automatic rounds) fire soon after they are due.
        running.start_beat(sweep_seconds=0.5)
        yield running


def test_the_production_shape_plays_every_game_to_the_end_and_every_action_happens_once(shape):
    webs = [shape.processes["web1"], shape.processes["web2"]]
    staff = staff_member(shape, webs)
    tables: list[PlayedTable] = []
    for n, spec in enumerate(TABLES):
        people = [register(webs, f"p{n}-{seat}") for seat in range(spec.people)]
        if spec.stake:
            for person in people:
                deposit(staff, person, spec.stake["currency"], "100.00")
        tables.append(set_up_table(spec, people))

    play_all(tables, seconds=PLAY_SECONDS)

    unfinished = [f"{t.spec.game} {t.id}: {t.error or 'still running'}" for t in tables if not t.finished]
    assert not unfinished, "tables that did not finish:\n" + "\n".join(unfinished) + "\n" + shape.logs()
    assert shape.dead() == [], shape.logs()
    for table in tables:
        ((version,),) = shape.sql("SELECT version FROM games_table WHERE id = %s", [table.id])
        sent = [s for p in table.people.values() for s in p.sent if s.table_id == table.id]
        print(f"{table.spec.game}: version {version}, {sum(s.status == 200 for s in sent)} actions, {len(sent)} sent")
    for table in tables:
        _check_every_action_happened_once(shape, table)
    _check_replayed_keys_answer_the_same_without_a_new_event(shape, tables)
    for command in (["reconcile"], ["check_replay"], ["verify_hands", "--all"]):
        result = shape.manage(*command)
        assert result.returncode == 0, f"manage.py {' '.join(command)}:\n{result.stdout}{result.stderr}"


def _check_every_action_happened_once(shape: Shape, table: PlayedTable) -> None:
    """Each accepted key's events are the person's events at the table, each exactly once; a
    refused key (409) left neither an event nor a stored answer."""
    for person in table.people.values():
        ((person.pk,),) = shape.sql("SELECT id FROM auth_user WHERE username = %s", [person.username])
        actor = f"user:{person.pk}"
        sent = [s for s in person.sent if s.table_id == table.id]
        accepted = [s for s in sent if s.status == 200]
        assert accepted, f"{person.username} never acted at {table.spec.game}"
        claimed: Counter[int] = Counter()
        for s in accepted:
            seqs = [event["seq"] for event in s.answer["events"] if event["actor"] == person.username]
            assert seqs, f"key {s.key} appended no event of {actor}"
            claimed.update(seqs)
        # The events the person's own commands appended after the start (the owner's start is theirs too).
        recorded = Counter(
            seq
            for (seq,) in shape.sql(
                "SELECT seq FROM games_event WHERE table_id = %s AND actor = %s AND seq > %s",
                [table.id, actor, table.start_version],
            )
        )
        assert claimed == recorded, f"{table.spec.game}: events of {actor} differ from the accepted keys"
        assert max(claimed.values()) == 1
        records = dict(
            shape.sql(
                "SELECT key, count(*) FROM games_commandrecord WHERE user_id = %s GROUP BY key",
                [person.pk],
            )
        )
        for s in sent:
            assert records.get(s.key, 0) == (1 if s.status == 200 else 0), (s.key, s.status)


def _check_replayed_keys_answer_the_same_without_a_new_event(shape: Shape, tables: list[PlayedTable]) -> None:
    """Sending a key again, to the other web process, returns the first answer and appends nothing."""
    for table in tables:
        ((before,),) = shape.sql("SELECT count(*) FROM games_event WHERE table_id = %s", [table.id])
        replayed = 0
        for person in table.people.values():
            for s in [s for s in person.sent if s.table_id == table.id and s.status == 200][:REPLAYED_PER_TABLE]:
                other = person.webs[1 - s.web]
                status, answer = other.request(
                    "POST",
                    f"/api/v1/tables/{table.id}/actions/",
                    s.body,
                    token=person.token,
                    headers={"Idempotency-Key": s.key},
                )
                assert (status, answer) == (200, s.answer), f"replay of {s.key} at {table.spec.game}"
                replayed += 1
        assert replayed
        ((after,),) = shape.sql("SELECT count(*) FROM games_event WHERE table_id = %s", [table.id])
        assert after == before, f"{table.spec.game}: a replayed key appended {after - before} event(s)"
