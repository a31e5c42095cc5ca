"""CM-20 over HTTP: sitting out, sitting in and leaving mean the same at any version of the table,
so they are taken at the version the table is at when they arrive, however many moves the bots
made since the sender's view; a seat's move sent from a stale view is still refused (409)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.api.play import Game, person, set_up

pytestmark = pytest.mark.django_db(transaction=True)


def act(client: APIClient, table_id: str, action: dict[str, Any], version: int):
    return client.post(
        f"/api/v1/tables/{table_id}/actions/", {"action": action, "expected_version": version}, format="json"
    )


def test_cm_20_presence_is_taken_at_the_table_s_version_and_a_stale_move_is_not(task_queue):
    alice, sam = person("alice"), person("sam", staff=True)
    table_id, _ = set_up(Game("guerra", 3, people=(0,), options={"max_rounds": 60}), alice, sam)
    task_queue.run_until_idle()
    first = alice.get(f"/api/v1/tables/{table_id}/").json()
    assert first["to_act"] == [0]

    sat = act(alice, table_id, {"type": "sit_out"}, first["version"])
    assert sat.status_code == 200, sat.json()
    for _ in range(3):  # the bots play on, her seat too
        task_queue.run_next()
    now = alice.get(f"/api/v1/tables/{table_id}/").json()
    assert now["version"] > sat.json()["version"], "the bots made no move"

    # From the view she saw before sitting out, her sit-in is taken where the table now is.
    back = act(alice, table_id, {"type": "sit_in"}, first["version"])
    assert back.status_code == 200, back.json()
    assert back.json()["version"] == now["version"] + 1
    assert back.json()["table"]["seats"][0]["played_by_bot"] is False

    # A move is chosen from the state shown: sent from a stale view, it is refused.
    task_queue.run_until_idle()
    view = alice.get(f"/api/v1/tables/{table_id}/").json()
    assert view["to_act"] == [0]
    stale = act(alice, table_id, {"type": "throw"}, first["version"])
    assert stale.status_code == 409 and stale.json()["current_version"] == view["version"]

    # Leaving from the same stale view is taken too.
    left = act(alice, table_id, {"type": "leave"}, first["version"])
    assert left.status_code == 200, left.json()
