"""Times in a person's stream (issue 22): RFC 3339 in UTC ending in ``Z``, as every answer
writes a time (``ledger.times.rfc3339``), whether the time came from the database on opening or
from a table's notice."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import notify
from games.models import Table
from tests.api.play import person
from tests.api.test_live import elsewhere, open_stream, run
from tests.api.test_tables import act, started_pair, table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _listener():
    notify.shutdown()
    yield
    notify.shutdown()


@pytest.fixture
def alice(counter_game):
    return person("alice")


@pytest.fixture
def bob(counter_game):
    return person("bob")


def play_one(client, table_id) -> int:
    mine = table(client, table_id)
    sent = act(client, table_id, mine["legal_actions"][0], mine["version"])
    assert sent.status_code == 200, sent.json()
    return sent.json()["version"]


def test_times_in_a_persons_stream_end_in_z(alice, bob, settings):
    """``deadline`` of ``your_turn`` (on opening, and from a table's notice) and of the warning
    before it are RFC 3339 in UTC ending in ``Z``, as every answer writes a time."""
    settings.DEADLINE_WARNING_SECONDS = 3 * 3600  # past the deadline's two hours: warned at once
    table_id = started_pair(alice, bob)
    now = timezone.now()
    deadline = now.replace(microsecond=250000) + timedelta(hours=2)
    # The most seconds any frame made from now on can count (the quarter second can add to two hours).
    most = round((deadline - now).total_seconds(), 1)
    Table.objects.filter(pk=table_id).update(deadline_at=deadline)
    mover, idle = (alice, bob) if table(alice, table_id)["to_act"][0] == 0 else (bob, alice)

    def move_with_a_deadline():
        play_one(mover, table_id)
        Table.objects.filter(pk=table_id).update(deadline_at=deadline)
        moved = Table.objects.get(pk=table_id)
        # What a command publishes as it commits, with the table's deadline.
        notify.table_moved(moved, to_act_users=[idle.user.pk], seated_users=[alice.user.pk, bob.user.pk])

    async def scenario():
        opening = await open_stream(mover, "/api/v1/me/stream/")
        first = await opening.frame()
        warned = await opening.frame()
        await opening.close()
        waiting = await open_stream(idle, "/api/v1/me/stream/")
        await elsewhere(move_with_a_deadline)()
        # The command's own notice, then the one above: the first turn announced with a deadline.
        turn = await waiting.frame()
        while turn["event"] != "your_turn" or turn["data"]["deadline"] is None:
            turn = await waiting.frame()
        await waiting.close()
        return first, warned, turn

    first, warned, turn = run(scenario())
    wire = deadline.strftime("%Y-%m-%dT%H:%M:%S.250000Z")
    assert (first["event"], first["data"]["deadline"]) == ("your_turn", wire)
    assert (warned["event"], warned["data"]["deadline"]) == ("deadline", wire)
    assert turn["data"]["deadline"] == wire
    # Beside each deadline, the seconds left to it by the server's clock when the frame was made.
    for frame in (first, warned, turn):
        assert 7000 < frame["data"]["seconds_left"] <= most, (frame, most)


def test_a_table_view_says_the_seconds_left_by_the_server_s_clock(alice, bob):
    """A view carries ``seconds_left`` beside ``deadline``: a client counts down from it, so a
    phone whose clock is off still shows the right time; ``null`` without a deadline."""
    table_id = started_pair(alice, bob)
    Table.objects.filter(pk=table_id).update(deadline_at=timezone.now() + timedelta(seconds=90))
    view = table(alice, table_id)
    assert view["deadline"] is not None
    assert 85 < view["seconds_left"] <= 90
    Table.objects.filter(pk=table_id).update(deadline_at=timezone.now() - timedelta(seconds=5))
    assert table(alice, table_id)["seconds_left"] == 0
    Table.objects.filter(pk=table_id).update(deadline_at=None)
    view = table(alice, table_id)
    assert (view["deadline"], view["seconds_left"]) == (None, None)


def test_a_notice_from_an_older_process_is_written_with_z_too():
    from api.streams import wire_time

    assert wire_time("2026-12-01T10:00:00.500000+00:00") == "2026-12-01T10:00:00.500000Z"
    assert wire_time("2026-12-01T11:00:00+01:00") == "2026-12-01T10:00:00.000000Z"
    assert wire_time(None) is None
