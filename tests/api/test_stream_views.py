"""A table stream asked with ``view=true`` (issue 24, views pushed): after each wake's events, the
seat's own table view, exactly as ``GET /tables/{id}/`` answers it then, so a client redraws from
the stream without asking again; its hidden cards are the seat's own. Read through real streams,
as tests/api/test_live.py reads them."""

from __future__ import annotations

import json

import pytest
from django.test import AsyncClient

from tests.api import test_live
from tests.api.play import person
from tests.api.test_live import elsewhere, open_stream, run, token_of
from tests.api.test_tables import act, started_pair, table

pytestmark = pytest.mark.django_db(transaction=True)

# The live tests' fixtures: a fresh listener for each test, two people at a counter table.
_listener, alice, bob = test_live._listener, test_live.alice, test_live.bob


async def until_view(stream) -> tuple[list[dict], dict]:
    """The event frames up to the next ``table`` frame, and that frame."""
    events = []
    while True:
        frame = await stream.frame()
        if frame.get("event") == "table":
            assert "id" not in frame  # Last-Event-ID stays the last event's
            return events, frame
        events.append(frame)


def clockless(view: dict) -> dict:
    """A view without ``seconds_left``, which depends on the moment the answer was made."""
    assert view["seconds_left"] is None or view["seconds_left"] >= 0
    return {key: value for key, value in view.items() if key != "seconds_left"}


def test_a_stream_asked_for_views_sends_the_seats_view_after_each_wakes_events(alice, bob):
    table_id = started_pair(alice, bob)
    opening = table(alice, table_id)
    mover = alice if opening["to_act"][0] == 0 else bob

    async def scenario():
        stream = await open_stream(alice, f"/api/v1/tables/{table_id}/stream/?view=true&after=0")
        first_events, first_view = await until_view(stream)
        shown_then = await elsewhere(table)(alice, table_id)
        mine = await elsewhere(table)(mover, table_id)
        sent = await elsewhere(act)(mover, table_id, mine["legal_actions"][0], mine["version"])
        assert sent.status_code == 200, sent.json()
        events, view = await until_view(stream)
        shown_after = await elsewhere(table)(alice, table_id)
        await stream.close()
        return first_events, first_view, shown_then, sent.json()["version"], events, view, shown_after

    first_events, first_view, shown_then, after, events, view, shown_after = run(scenario())
    assert [int(f["id"]) for f in first_events] == list(range(1, opening["version"] + 1))
    # The same view, but for the seconds to the deadline: each answer counts them when it is made.
    assert clockless(first_view["data"]) == clockless(shown_then)
    assert int(events[-1]["id"]) == after
    # The view is never behind the events sent before it, and is alice's own (her cards, her actions).
    assert view["data"]["version"] >= after
    assert clockless(view["data"]) == clockless(shown_after)
    assert view["data"]["your_seat"] == shown_after["your_seat"]


def test_view_is_true_or_false():
    carol = person("carol")

    async def scenario():
        return await AsyncClient().get(
            "/api/v1/tables/00000000-0000-0000-0000-000000000000/stream/?view=yes",
            headers={"Authorization": token_of(carol)},
        )

    refused = run(scenario())
    assert refused.status_code == 400
    body = json.loads(refused.content)
    assert body["code"] == "invalid"
    assert list(body["fields"]) == ["view"]
