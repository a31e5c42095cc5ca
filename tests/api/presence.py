"""CM-20 over HTTP: a person sits out, sits in and leaves at a table played with another person and
bots, the queued bot tasks standing in for the worker (no timer ever runs here)."""

from __future__ import annotations

import random
from typing import Any

from rest_framework.test import APIClient

from games.engine import presence, registry
from games.models import Event, Seat


def view(client: APIClient, table_id: str) -> dict[str, Any]:
    response = client.get(f"/api/v1/tables/{table_id}/")
    assert response.status_code == 200, response.json()
    return response.json()


def send(client: APIClient, table_id: str, action: dict[str, Any]):
    """Post ``action`` at the table's current version."""
    return client.post(
        f"/api/v1/tables/{table_id}/actions/",
        {"action": action, "expected_version": view(client, table_id)["version"]},
        format="json",
    )


def moves(legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The game's moves among ``legal``: not sitting out, in or leaving, nor ending the table."""
    return [action for action in legal if not presence.is_presence_action(action) and action["type"] not in OWNERS]


def as_sent(option: dict[str, Any]) -> dict[str, Any]:
    """An offered action as a client sends it: a range's least (a bet's or raise's ``amount``,
    a top-up's ``chips``), and a draw standing pat."""
    if option["type"] == "draw":
        return {"type": "draw", "discard": []}
    if "min" in option and "max" in option and "amount" not in option:
        field = "chips" if option["type"] == "top_up" else "amount"
        return {"type": option["type"], field: option["min"]}
    return option


# The owner's commands of every game, which ``legal_actions`` offers the owner.
OWNERS = frozenset().union(*(decider.owner_commands for decider in registry.all_games()))


def until_turn(table_id: str, clients: dict, me: int, task_queue, rng: random.Random, limit: int = 500) -> dict:
    """The other people play random moves (bots their own) until ``me`` is awaited; ``me``'s view."""
    for _ in range(limit):
        task_queue.run_until_idle()
        mine = view(clients[me], table_id)
        assert mine["status"] == "running", "the game ended before the test's turn came"
        if me in mine["to_act"]:
            return mine
        other = next(seat for seat in mine["to_act"] if clients.get(seat) is not None)
        theirs = view(clients[other], table_id)
        sent = send(clients[other], table_id, as_sent(rng.choice(moves(theirs["legal_actions"]))))
        assert sent.status_code == 200, sent.json()
    raise AssertionError(f"seat {me} was never awaited")


def bot_moved_for(table_id: str, seat: int, after: int) -> bool:
    """True when the table's bot made a move for ``seat`` after version ``after``."""
    return Event.objects.filter(table_id=table_id, seq__gt=after, actor=f"bot:{seat}").exists()


def sit_out_sit_in_leave(table_id: str, clients: dict, me: int, task_queue, rng: random.Random) -> None:
    """CM-20, the whole round trip for the person at ``me``: sitting out on their turn hands the
    seat to the bot, which moves at once; sitting in gives it back and the person plays a move
    of their own; leaving is accepted out of turn, and sitting in after it is refused."""
    client = clients[me]
    mine = until_turn(table_id, clients, me, task_queue, rng)
    assert {"type": "sit_out"} in mine["legal_actions"] and {"type": "leave"} in mine["legal_actions"]
    before = mine["version"]
    sat_out = send(client, table_id, {"type": "sit_out"})
    assert sat_out.status_code == 200, sat_out.json()
    assert sat_out.json()["events"][0]["type"] == "SatOut"
    assert task_queue.names()[:1] == ["games.tasks.play_bot"]  # scheduled now, not at the turn timer
    task_queue.run_until_idle()
    assert bot_moved_for(table_id, me, before)
    away = view(client, table_id)
    assert away["seats"][me]["played_by_bot"] and away["state"]["played_by_bot"] == [me]
    assert {"type": "sit_in"} in away["legal_actions"]

    sat_in = send(client, table_id, {"type": "sit_in"})
    assert sat_in.status_code == 200, sat_in.json()
    back = view(client, table_id)
    assert not back["seats"][me]["played_by_bot"] and back["state"]["played_by_bot"] == []
    mine = until_turn(table_id, clients, me, task_queue, rng)
    played = send(client, table_id, rng.choice(moves(mine["legal_actions"])))
    assert played.status_code == 200, played.json()
    assert Event.objects.filter(table_id=table_id, seq__gt=mine["version"], actor=f"user:{client.user.pk}").exists()

    task_queue.run_until_idle()
    others_turn = view(client, table_id)
    while me in others_turn["to_act"]:  # leave while another seat is awaited
        assert send(client, table_id, rng.choice(moves(others_turn["legal_actions"]))).status_code == 200
        task_queue.run_until_idle()
        others_turn = view(client, table_id)
    left = client.post(f"/api/v1/tables/{table_id}/leave/")
    assert left.status_code == 200, left.json()
    assert others_turn["status"] == "running" and me not in others_turn["to_act"]  # leaving needs no turn
    assert left.json()["seats"][me]["played_by_bot"] and me in left.json()["state"]["played_by_bot"]
    assert Event.objects.filter(table_id=table_id, type="LeftTable", data__seat=me).count() == 1
    again = send(client, table_id, {"type": "sit_in"})
    assert again.status_code == 422, again.json()
    assert again.json()["code"] == "seat_left" and "left" in again.json()["detail"]
    assert Seat.objects.get(table_id=table_id, number=me).user_id == client.user.pk  # the seat stays theirs
