"""Reads from a real streaming replica (ledger/replica.py): a PostgreSQL primary and a standby
made from it with ``pg_basebackup -R``, both of the test's own on free ports, and a web process
with ``DATABASE_REPLICA_URL`` pointing at the standby beside one without it.

Three people play Whiskey Poker with no bot, so that nothing but the test moves the table. With
the standby caught up, their event pages and hand lists are read from it (its own statement
statistics show it answered). With its replay delayed (``recovery_min_apply_delay``), each person
who has just acted reads their own action in the events page, and the hand list the primary holds,
though the standby has not replayed it yet. Then ``check_replay``, ``reconcile`` and
``verify_hands --all`` run on the replica, clean."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from django.conf import settings

from tests.benchmarks.servers import OwnPostgres
from tests.conftest import require
from tests.production.players import Person, TableSpec, moves, register, set_up_table
from tests.production.shape import Shape, redis_answers
from tests.production.standby import Replicated, primary_and_standby, reads, wait_for

pytestmark = pytest.mark.production

SPEC = TableSpec("whiskey-poker", 3, people=3, options={"scoring": "points", "target_points": 50, "turn_seconds": 3600})
DELAY = "4s"
# Long enough for a caught-up standby to answer, much shorter than DELAY.
WAIT_SECONDS = "0.3"


@pytest.fixture
def replicated() -> Iterator[tuple[Shape, Replicated]]:
    broker_url = settings.CELERY_BROKER_URL
    require(redis_answers(broker_url), "Redis (CELERY_BROKER_URL=redis://…)")
    with (
        primary_and_standby() as servers,
        Shape.create(servers.primary.url(), broker_url, prefix="test_replica") as shape,
    ):
        servers.catch_up()
        replica_url = servers.replica_url(shape.database_name)
        shape.start_web("web", env={"DATABASE_REPLICA_URL": replica_url, "REPLICA_WAIT_SECONDS": WAIT_SECONDS})
        shape.start_web("plain")
        yield shape, servers


def test_reads_come_from_the_replica_and_a_person_reads_their_own_writes_when_it_lags(replicated):
    shape, servers = replicated
    standby = servers.standby
    web, plain = shape.processes["web"], shape.processes["plain"]
    people = [register([web], f"replica{n}") for n in range(3)]
    table = set_up_table(SPEC, people)
    by_seat = {seat: person for seat, person in table.people.items()}
    # The same people through the web process that reads only the primary.
    on_primary = {seat: Person(p.username, p.token, [plain]) for seat, p in by_seat.items()}
    rng = random.Random(28)
    events, hands = f"/api/v1/tables/{table.id}/events/", f"/api/v1/tables/{table.id}/hands/"

    # Caught up: the standby answers the events page and the hand list.
    servers.catch_up()
    before = reads(standby, shape.database_name)
    status, page = by_seat[0].request("GET", f"{events}?after=0")
    assert status == 200 and page["results"]
    assert by_seat[0].request("GET", hands)[0] == 200
    read = reads(standby, shape.database_name) - before
    assert read >= 2, f"the standby ran {read} reads of events for the two pages"

    # Replay delayed: whoever has just acted still reads their action and the primary's hand list.
    servers.delay(DELAY)
    behind = finished = 0
    for _ in range(120):
        status, view = on_primary[0].request("GET", f"/api/v1/tables/{table.id}/")
        assert status == 200, view
        seat = view["to_act"][0]
        status, mine = on_primary[seat].request("GET", f"/api/v1/tables/{table.id}/")
        sent = by_seat[seat].act(table.id, rng.choice(moves(mine["legal_actions"])), mine["version"])
        assert sent.status == 200, sent.answer
        version = sent.answer["version"]

        status, page = by_seat[seat].request("GET", f"{events}?after={version - 1}")
        assert status == 200 and [item["seq"] for item in page["results"]] == [version], page
        status, listed = by_seat[seat].request("GET", hands)
        assert status == 200
        assert listed == on_primary[seat].request("GET", hands)[1]

        behind += _standby_version(standby, shape.database_name, table.id) < version
        finished = len(listed["results"])
        if finished >= 2 and behind >= 10:
            break
    assert behind >= 10, f"the standby was behind the person's own action only {behind} times"
    assert finished >= 2, "no two hands finished while replay was delayed"

    # The integrity commands read one snapshot of the caught-up replica, and find nothing wrong.
    servers.delay("0")
    wait_for(lambda: _standby_version(standby, shape.database_name, table.id) >= version, "the standby to catch up")
    before = reads(standby, shape.database_name)
    replica_url = servers.replica_url(shape.database_name)
    for command in (["check_replay"], ["reconcile"], ["verify_hands", "--all"]):
        shape.manage(*command, check=True, env={"DATABASE_REPLICA_URL": replica_url})
    assert reads(standby, shape.database_name) > before


def _standby_version(standby: OwnPostgres, database: str, table_id: str) -> int:
    ((version,),) = standby.execute("SELECT version FROM games_table WHERE id = %s", [table_id], database=database)
    return int(version)
