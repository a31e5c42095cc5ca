"""A person may send exactly the legal actions of their seat (issue 12, item 4): the system's
commands (``timeout``, ``play_round``, ``start``, ``offer_expired``) come only from the server.

Each test here failed before the gate in ``games.play.gate``: Guerra took a
person's ``timeout`` for another seat and their ``play_round``, and every game took ``timeout``
for one's own seat."""

from __future__ import annotations

import pytest

from games.engine import registry
from games.models import Event, Table
from tests.api.play import Game, person, set_up

pytestmark = pytest.mark.django_db

SYSTEM_COMMANDS = [
    {"type": "timeout"},
    {"type": "timeout", "seat": "other"},
    {"type": "play_round"},
    {"type": "start"},
    {"type": "start_hand"},
    {"type": "offer_expired"},
    {"type": "expired"},
]
OPTIONS = {"guerra": {"max_rounds": 60}, "whiskey-poker": {}, "la-viuda": {}, "euchre": {}}


def _people_only(game: str):
    seats = 4 if game == "euchre" else registry.get(game).min_players
    owner, staff = person("alice"), person("sam", staff=True)
    table_id, clients = set_up(Game(game, seats, people=tuple(range(seats)), options=OPTIONS[game]), owner, staff)
    return table_id, clients


@pytest.mark.parametrize("game", list(OPTIONS))
def test_a_person_cannot_send_a_system_command_and_nothing_is_appended(game, task_queue):
    table_id, clients = _people_only(game)
    view = clients[0].get(f"/api/v1/tables/{table_id}/").json()
    assert view["to_act"], view
    seat = view["to_act"][0]
    other = next(n for n in clients if n != seat)
    client = clients[seat]
    before = Event.objects.filter(table_id=table_id).count()
    for command in SYSTEM_COMMANDS:
        action = {**command, "seat": other} if command.get("seat") == "other" else dict(command)
        # Sent for another seat: refused as not one's own seat (403) or as not a legal action (422).
        response = client.post(
            f"/api/v1/tables/{table_id}/actions/",
            {"action": action, "expected_version": view["version"]},
            format="json",
        )
        assert response.status_code in (403, 422), (command, response.json())
        body = response.json()
        assert body["code"] in ("illegal_action", "forbidden"), body
        if body["code"] == "illegal_action":
            assert "legal_actions" in body
    assert Event.objects.filter(table_id=table_id).count() == before
    assert Table.objects.get(pk=table_id).version == view["version"]


@pytest.mark.parametrize("game", list(OPTIONS))
def test_a_timeout_for_ones_own_seat_is_refused_with_the_legal_actions(game, task_queue):
    table_id, clients = _people_only(game)
    view = clients[0].get(f"/api/v1/tables/{table_id}/").json()
    seat = view["to_act"][0]
    mine = clients[seat].get(f"/api/v1/tables/{table_id}/").json()
    response = clients[seat].post(
        f"/api/v1/tables/{table_id}/actions/",
        {"action": {"type": "timeout"}, "expected_version": view["version"]},
        format="json",
    )
    assert response.status_code == 422, response.json()
    assert response.json()["code"] == "illegal_action"
    assert response.json()["legal_actions"] == mine["legal_actions"]
    assert Table.objects.get(pk=table_id).version == view["version"]


def test_guerra_a_timeout_for_another_seat_is_refused(task_queue):
    """Guerra's ``timeout`` threw for the seat it named, recorded as the sender."""
    table_id, clients = _people_only("guerra")
    view = clients[0].get(f"/api/v1/tables/{table_id}/").json()
    awaited = view["to_act"][0]
    sender = next(n for n in clients if n != awaited)
    response = clients[sender].post(
        f"/api/v1/tables/{table_id}/actions/",
        {"action": {"type": "timeout", "seat": awaited}, "expected_version": view["version"]},
        format="json",
    )
    assert response.status_code in (403, 422)
    response = clients[sender].post(
        f"/api/v1/tables/{table_id}/actions/",
        {"action": {"type": "timeout"}, "expected_version": view["version"]},
        format="json",
    )
    assert response.status_code == 422
    assert Table.objects.get(pk=table_id).version == view["version"]


def test_a_legal_type_at_the_wrong_time_keeps_the_games_own_refusal(task_queue):
    """A seat whose turn it is not gets the game's sentence, not the gate's generic one."""
    table_id, clients = _people_only("euchre")
    view = clients[0].get(f"/api/v1/tables/{table_id}/").json()
    awaited = view["to_act"][0]
    legal = clients[awaited].get(f"/api/v1/tables/{table_id}/").json()["legal_actions"]
    sender = next(n for n in clients if n != awaited)
    response = clients[sender].post(
        f"/api/v1/tables/{table_id}/actions/",
        {"action": legal[0], "expected_version": view["version"]},
        format="json",
    )
    assert response.status_code == 422
    assert "is not an action of your seat now" not in response.json()["detail"], response.json()
