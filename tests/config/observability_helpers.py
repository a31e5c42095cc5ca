"""A counter table of one person (seat 0) and one bot, played over HTTP with the in-test task queue."""

from __future__ import annotations

from tests.api.play import person


def bot_table(task_queue, **headers):
    """A started table at which it is the person's turn; returns ``(client, table id)``."""
    alice = person("alice")
    table_id = alice.post("/api/v1/tables/", {"game": "counter", "seats": 2}, format="json").json()["id"]
    assert alice.post(f"/api/v1/tables/{table_id}/join/", {"seat": 0}, format="json").status_code == 200
    assert alice.post(f"/api/v1/tables/{table_id}/bots/", {"seat": 1}, format="json").status_code == 201
    assert alice.post(f"/api/v1/tables/{table_id}/start/", **headers).status_code == 200
    task_queue.run_until_idle()  # the bot's first move, if the bot opens
    return alice, table_id


def person_moves(alice, table_id, **headers):
    view = alice.get(f"/api/v1/tables/{table_id}/").json()
    assert view["to_act"] == [0], view
    response = alice.post(
        f"/api/v1/tables/{table_id}/actions/",
        {"action": {"type": "add", "amount": 1}, "expected_version": view["version"]},
        format="json",
        **headers,
    )
    assert response.status_code == 200, response.json()
    return response
