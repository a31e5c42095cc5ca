"""How many SQL statements a read costs (issue 24, one read per command): a table of each game,
played a few moves through HTTP, read as a seated person with a token and with a session.

A request reads its token once, with the person and their language preference in the same
statement; a session reads its own row, then the person with their preference. The table GET
then reads the table (with its owner and its newest hand seeds), then its seats, and takes the
state from the process's cache: three statements in all with a token. An ``If-None-Match`` that
matches costs the same and loads no state. Without the cached state (a process that did not serve
the table's last command), the latest snapshot and the events after it are read too. The events
GET reads the table with its version and its events in one statement, then its seats.
"""

from __future__ import annotations

import random
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from api import limits
from games import selectors, store
from games.models import Table
from tests.api import draw, test_contract
from tests.api.play import game_moves, hold_state_at, person, set_up

# Committed transactions, as in production: a command's state reaches the process's cache only
# once its transaction commits.
pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a long passphrase"

# The same seeded tables the contract test plays.
GAMES = test_contract.GAMES

# The statements that say who asks: the token (with the person and their preference); the
# session's row, then its person (with their preference).
WHO = {"token": 1, "session": 2}
# The most statements each read may cost besides: with the state in the process's cache, and without.
TABLE_GET = 2
TABLE_GET_UNCACHED = 4
TABLE_NOT_MODIFIED = 2
EVENTS_GET = 2


@pytest.fixture(autouse=True)
def _no_throttling(monkeypatch):
    monkeypatch.setattr(limits.CountingThrottle, "allow_request", lambda self, request, view: True)


def _play_a_few_moves(game: str, table_id: str, clients: dict, task_queue, moves: int = 6) -> None:
    rng = random.Random(f"query counts {game}")
    made = 0
    for _ in range(100):
        task_queue.run_until_idle()
        view = next(c for c in clients.values() if c is not None).get(f"/api/v1/tables/{table_id}/").json()
        if made >= moves or view["status"] != "running":
            break
        people = [seat for seat in view["to_act"] if clients.get(seat) is not None]
        if not people:
            continue
        client = clients[rng.choice(people)]
        mine = client.get(f"/api/v1/tables/{table_id}/").json()
        mine["legal_actions"] = game_moves(mine)
        if not mine["legal_actions"]:
            continue
        action = draw.choose(mine, rng) if game == "five-card-draw" else rng.choice(mine["legal_actions"])
        answer = client.post(
            f"/api/v1/tables/{table_id}/actions/",
            {"action": action, "expected_version": mine["version"]},
            format="json",
        )
        assert answer.status_code == 200, answer.json()
        made += 1
    task_queue.run_until_idle()
    assert made > 0, "nobody moved"


def _session_of(user) -> APIClient:
    """A browser's client, logged in at auth/session/ as a person does."""
    user.set_password(PASSWORD)
    user.save()
    client = APIClient()
    csrf = client.get("/api/v1/auth/session/").json()["csrf_token"]
    answer = client.post(
        "/api/v1/auth/session/",
        {"username": user.username, "password": PASSWORD},
        format="json",
        HTTP_X_CSRFTOKEN=csrf,
    )
    assert answer.status_code == 200, answer.json()
    client.user = user
    return client


def _counted(client: APIClient, path: str, **headers):
    with CaptureQueriesContext(connection) as queries:
        answer = client.get(path, **headers)
    return answer, [query["sql"] for query in queries.captured_queries]


def _reads_of(statements: list[str], table: str) -> list[str]:
    return [sql for sql in statements if f'FROM "{table}"' in sql]


def _asked_once(statements: list[str], auth: str) -> None:
    """Who asks was read in one statement, their language preference with them."""
    person = "knox_authtoken" if auth == "token" else "auth_user"
    assert len(_reads_of(statements, person)) == 1, "\n".join(statements)
    assert not _reads_of(statements, "api_languagepreference"), "\n".join(statements)


@pytest.fixture
def seated_table(request, task_queue, monkeypatch):
    """A table of ``request.param`` a few moves in, its first person seated, with a token; the same
    deals every run, so it is still running (a finished table's view reads its payouts too)."""
    draw.repeat_deals(monkeypatch, f"query counts {request.param}")
    spec = GAMES[request.param]
    staff, owner = person("sam", staff=True), person("alice")
    table_id, clients = set_up(spec, owner, staff)
    _play_a_few_moves(spec.game, table_id, clients, task_queue)
    assert Table.objects.get(pk=table_id).status == Table.Status.RUNNING
    return table_id, owner


def clockless(body: bytes) -> bytes:
    """An answer's bytes with ``seconds_left``'s value blanked: it depends on the moment."""
    return re.sub(rb'"seconds_left": ?[0-9.]+', b'"seconds_left": 0', body)


@pytest.mark.parametrize("seated_table", list(GAMES), indirect=True)
@pytest.mark.parametrize("auth", ["token", "session"])
def test_a_table_get_reads_the_table_its_seats_and_the_person_once(seated_table, auth):
    """Guards the table GET's statements: who asks, then at most ``TABLE_GET`` with the state cached
    (3 in all with a token; 304 the same, loading no state), ``TABLE_GET_UNCACHED`` without; the
    answer is the same either way."""
    table_id, owner = seated_table
    client = owner if auth == "token" else _session_of(owner.user)
    path = f"/api/v1/tables/{table_id}/"
    client.get(path)  # the state is in this process's cache from here on

    answer, statements = _counted(client, path)
    assert answer.status_code == 200 and answer.json()["your_seat"] is not None
    assert len(statements) <= WHO[auth] + TABLE_GET, "\n".join(statements)
    _asked_once(statements, auth)
    # The next hand's commitment, found among the seeds read with the row, is the one a read of
    # the seed itself finds.
    table = selectors.get_table(table_id)
    alone = selectors.table_view(table, answer.json()["your_seat"])["next_commitment"]
    assert alone is not None and answer.json()["next_commitment"] == alone

    unchanged, statements = _counted(client, path, HTTP_IF_NONE_MATCH=answer["ETag"])
    assert unchanged.status_code == 304
    assert len(statements) <= WHO[auth] + TABLE_NOT_MODIFIED, "\n".join(statements)
    assert not _reads_of(statements, "games_snapshot") and not _reads_of(statements, "games_event"), "\n".join(
        statements
    )

    store.forget()
    uncached, statements = _counted(client, path)
    # The same bytes, but for the seconds to the deadline, counted when each answer is made.
    assert uncached.status_code == 200 and clockless(uncached.content) == clockless(answer.content)
    assert len(statements) <= WHO[auth] + TABLE_GET_UNCACHED, "\n".join(statements)


@pytest.mark.parametrize("seated_table", list(GAMES), indirect=True)
def test_a_table_get_behind_another_process_reads_the_newer_events_with_the_seats(seated_table):
    """Guards the table GET where this process's state is behind the row (another process, the
    worker or another web process, moved the table): on PostgreSQL the events after it are read in
    the seats' statement, so the GET still costs who asks and ``TABLE_GET``; the answer is the one
    a process holding the current state gives."""
    table_id, owner = seated_table
    path = f"/api/v1/tables/{table_id}/"
    answer = owner.get(path)
    hold_state_at(table_id, answer.json()["version"] - 2)

    behind, statements = _counted(owner, path)
    assert behind.status_code == 200 and clockless(behind.content) == clockless(answer.content)
    if connection.vendor == "postgresql":
        assert len(statements) <= WHO["token"] + TABLE_GET, "\n".join(statements)
        (seats,) = _reads_of(statements, "games_seat")
        assert 'FROM "games_event"' in seats, seats
        assert [sql for sql in _reads_of(statements, "games_event") if sql != seats] == [], "\n".join(statements)


@pytest.mark.parametrize("seated_table", list(GAMES), indirect=True)
@pytest.mark.parametrize("auth", ["token", "session"])
def test_an_events_get_reads_the_table_with_its_events_then_its_seats(seated_table, auth):
    """Guards the events GET's statements (who asks, then at most ``EVENTS_GET``), the first page
    and a page after the last event (none carried, the version still said)."""
    table_id, owner = seated_table
    client = owner if auth == "token" else _session_of(owner.user)
    path = f"/api/v1/tables/{table_id}/events/"

    answer, statements = _counted(client, path)
    assert answer.status_code == 200 and answer.json()["results"]
    assert len(statements) <= WHO[auth] + EVENTS_GET, "\n".join(statements)
    _asked_once(statements, auth)

    version = answer.json()["version"]
    empty, statements = _counted(client, f"{path}?after={version}")
    assert empty.status_code == 200 and empty.json()["results"] == [] and empty.json()["version"] == version
    assert len(statements) <= WHO[auth] + EVENTS_GET, "\n".join(statements)
