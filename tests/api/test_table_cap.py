"""How many tables one person may own at once (``MAX_RUNNING_TABLES_PER_PERSON``): one more than
that, open or running, is refused ``409 too_many_tables`` as the document says; a finished table
no longer counts; and two creations at once never both pass the cap."""

from __future__ import annotations

import threading

import pytest
from django.db import connections

from games import play
from games.errors import Conflict
from games.models import Table
from tests.api import contract
from tests.conftest import IN_CI, require

pytestmark = pytest.mark.django_db(transaction=True)

TABLE = {"game": "whiskey-poker", "seats": 2}


@pytest.fixture(autouse=True)
def _cap(settings):
    """A cap of three, so that the tests do not depend on the default."""
    settings.MAX_RUNNING_TABLES_PER_PERSON = 3


def _open(client):
    return client.post("/api/v1/tables/", TABLE, format="json")


def test_one_table_past_the_cap_is_refused_in_the_documented_shape():
    alice, bob = contract.person("alice"), contract.person("bob")
    for _ in range(3):
        assert _open(alice).status_code == 201
    refused = _open(alice)
    # The contract client has checked the answer against the document (409, the error shape).
    assert refused.status_code == 409
    body = refused.json()
    assert body["code"] == "too_many_tables" and body["limit"] == 3
    assert "3 tables" in body["detail"]
    assert Table.objects.filter(owner=alice.user).count() == 3
    # The cap is each person's own: bob opens his.
    assert _open(bob).status_code == 201


def test_a_running_table_counts_and_a_finished_one_does_not():
    alice = contract.person("alice")
    ids = [_open(alice).json()["id"] for _ in range(3)]
    running = Table.objects.get(pk=ids[0])
    play.add_bot(table_id=running.pk, user=alice.user)
    play.add_bot(table_id=running.pk, user=alice.user)
    play.start_table(table_id=running.pk, user=alice.user)
    assert Table.objects.get(pk=running.pk).status == Table.Status.RUNNING
    assert _open(alice).status_code == 409
    Table.objects.filter(pk=ids[1]).update(status=Table.Status.FINISHED)
    assert _open(alice).status_code == 201
    assert _open(alice).status_code == 409


def test_an_idempotent_repeat_past_the_cap_answers_the_first_table():
    alice = contract.person("alice")
    for _ in range(2):
        assert _open(alice).status_code == 201
    first = alice.post("/api/v1/tables/", TABLE, format="json", HTTP_IDEMPOTENCY_KEY="third")
    assert first.status_code == 201
    again = alice.post("/api/v1/tables/", TABLE, format="json", HTTP_IDEMPOTENCY_KEY="third")
    assert again.status_code == 201 and again.json()["id"] == first.json()["id"]


def test_two_creations_at_once_cannot_both_pass_the_cap():
    """Eight creations race with room for one: exactly one table is opened. On PostgreSQL (always
    in CI) the owner's row lock decides; on SQLite, BEGIN IMMEDIATE serialises the writers."""
    require(connections["default"].vendor == "postgresql" or not IN_CI, "PostgreSQL (DATABASE_URL=postgres://…)")
    alice = contract.person("alice")
    for _ in range(2):
        assert _open(alice).status_code == 201
    writers = 8
    barrier = threading.Barrier(writers)
    outcomes: list[str] = []

    def create() -> None:
        try:
            barrier.wait(timeout=30)
            play.create_table(user=alice.user, game="whiskey-poker", seats=2)
            outcomes.append("opened")
        except Conflict as refused:
            outcomes.append(refused.code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=create) for _ in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(outcomes) == ["opened"] + ["too_many_tables"] * (writers - 1)
    assert Table.objects.filter(owner=alice.user).count() == 3
