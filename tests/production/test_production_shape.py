"""The production shape, played end to end: two web processes that share no memory, two Celery
workers and one beat, on a PostgreSQL database and a Redis db of the test's own. People registered
over HTTP play a table of every game with bots, each person's requests alternating between the two
web processes; then every table has finished, every action happened exactly once, and the books,
the replays and the hands all check out.

Twice: on the suite's PostgreSQL, and ("replica") on a primary and a streaming standby of the
test's own (tests/production/standby.py) with every process given ``DATABASE_REPLICA_URL``, the
web processes connecting to both as the role "web". There the integrity commands read the replica
too, and each table's hand list, a hand's audit and its history, asked by a person who played,
are shown to come from the standby: it ran their reads of the hand's events and seed, and the web
processes ran none of them on the primary. (A person reading their own action while the standby's
replay is delayed is tests/production/test_replica.py's.)"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator

import pytest
from django.conf import settings

from tests.benchmarks.servers import role_url
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
from tests.production.standby import Replicated, primary_and_standby, reads

pytestmark = pytest.mark.production

# Small tables and short matches: the whole test stays well under two minutes on two cores.
TABLES = tables_of_every_game(1)
PLAY_SECONDS = 90
REPLAYED_PER_TABLE = 2
# The role the web processes connect as in the replica variant, so that the servers' statement
# statistics tell their reads from the workers', beat's and the test's own.
WEB_ROLE = "web"


def _postgres() -> str:
    """The PostgreSQL server the suite is configured with, reachable."""
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
    return database_url


def _broker() -> str:
    """The Redis server the suite is configured with, reachable, and the production web server."""
    broker_url = settings.CELERY_BROKER_URL
    require(redis_answers(broker_url), "Redis (CELERY_BROKER_URL=redis://…)")
    try:
        import uvicorn_worker  # noqa: F401
    except ImportError:
        require(False, "the production web server (pip install gunicorn uvicorn uvicorn-worker)")
    return broker_url


def _services() -> tuple[str, str]:
    """The PostgreSQL server and the Redis server the suite is configured with, both reachable."""
    return _postgres(), _broker()


@pytest.fixture(params=["primary", "replica"])
def servers(request) -> Iterator[Replicated | None]:
    """None: the suite's PostgreSQL alone; "replica": a primary and a streaming standby of the test's own."""
    if request.param == "primary":
        yield None
        return
    # The suite's services first: where they are missing the test skips (or fails, in CI) before a
    # standby cluster of its own is made for nothing.
    _postgres()
    _broker()
    with primary_and_standby(roles=[WEB_ROLE]) as pair:
        yield pair


@pytest.fixture
def shape(servers: Replicated | None) -> Iterator[Shape]:
    postgres_url = _postgres() if servers is None else servers.primary.url()
    broker_url = _broker()
    with Shape.create(postgres_url, broker_url, prefix="test_shape") as running:
        web_env = {}
        if servers is not None:
            # Every process started from here on (and manage.py) reads the replica where it may.
            servers.catch_up()
            running.base_env["DATABASE_REPLICA_URL"] = servers.replica_url(running.database_name)
            web_env = {
                "DATABASE_URL": role_url(running.database_url, WEB_ROLE),
                "DATABASE_REPLICA_URL": servers.replica_url(running.database_name, WEB_ROLE),
            }
        running.start_web("web1", env=web_env)
        running.start_web("web2", env=web_env)
        running.start_worker("worker1", concurrency=2)
        running.start_worker("worker2", concurrency=2)
        # A short sweep: timed commands (offers, automatic rounds) fire soon after they are due.
        running.start_beat(sweep_seconds=0.5)
        yield running


def test_the_production_shape_plays_every_game_to_the_end_and_every_action_happens_once(shape, servers):
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
    if servers is not None:
        _check_audits_and_histories_come_from_the_replica(shape, servers, tables)


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


def _check_audits_and_histories_come_from_the_replica(
    shape: Shape, servers: Replicated, tables: list[PlayedTable]
) -> None:
    """With the standby caught up, each request of a table's hand list, its newest hand's audit and
    that hand's history is answered from the standby (the web role's statements over the hand's
    events and seed ran there) and not from the primary (the web role ran none of them there)."""
    servers.catch_up()
    database = shape.database_name
    for table in tables:
        person = table.people[0]
        hands = f"/api/v1/tables/{table.id}/hands/"
        status, listed = person.request("GET", hands)
        assert status == 200 and listed["results"], f"{table.spec.game}: {status} {listed}"
        newest = listed["results"][0]
        for path in (hands, newest["audit"], newest["history"]):
            on_standby = reads(servers.standby, database, role=WEB_ROLE)
            on_primary = reads(servers.primary, database, role=WEB_ROLE)
            status, body = person.request("GET", path)
            assert status == 200, f"{table.spec.game} {path}: {status} {body}"
            answered = reads(servers.standby, database, role=WEB_ROLE) - on_standby
            assert answered > 0, f"{table.spec.game} {path}: the standby ran none of its reads"
            assert reads(servers.primary, database, role=WEB_ROLE) == on_primary, (
                f"{table.spec.game} {path}: the primary answered reads the replica should have"
            )
