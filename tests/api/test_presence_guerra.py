"""CM-20 for Guerra Chevichona over HTTP: a person at a money table with bots sits out (the table's
bot throws for them at once, with no turn timer), sits in and throws again, then leaves; the bot
plays their seat to the end of the match, whose result and money stay theirs."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Event, Table
from games.rules.guerra.settlements import split
from ledger.models import Payout
from tests.api.draw import repeat_deals
from tests.api.play import Game, check_finished_table, person, set_up

pytestmark = pytest.mark.django_db(transaction=True)

STAKE = {"currency": "MXN", "amount": "10.00"}


def url(table_id: str, tail: str = "") -> str:
    return f"/api/v1/tables/{table_id}/{tail}"


def act(client: APIClient, table_id: str, action: dict[str, Any], version: int):
    return client.post(url(table_id, "actions/"), {"action": action, "expected_version": version}, format="json")


def events_of(table_id: str, type_name: str) -> list[Event]:
    return list(Event.objects.filter(table_id=table_id, type=type_name).order_by("seq"))


def run_bot_turns_until(task_queue, done) -> None:
    """Run the queued bot turns one at a time until ``done()``; turn timers are never run, so
    whatever moves was moved by a bot."""
    for _ in range(100):
        if done():
            return
        assert task_queue.published, "no bot turn queued"
        name = task_queue.published[0][0]
        if name.endswith("expire_deadline"):
            task_queue.published.pop(0)
            continue
        task_queue.run_next()
    pytest.fail("the bots did not get there")


def test_cm_20_guerra_sit_out_sit_in_and_leave_through_http(task_queue, monkeypatch):
    repeat_deals(monkeypatch, "cm-20 guerra c")  # deals under which the leaver's seat wins
    alice, sam = person("alice"), person("sam", staff=True)
    table_id, _ = set_up(Game("guerra", 3, people=(0,), options={"max_rounds": 60}, stake=STAKE), alice, sam)
    task_queue.run_until_idle()
    view = alice.get(url(table_id)).json()
    assert view["to_act"] == [0]
    assert [a["type"] for a in view["legal_actions"]] == ["throw", "sit_out", "leave"]

    # Alice sits out while the round waits for her: the bot throws for her at once.
    sat = act(alice, table_id, {"type": "sit_out"}, view["version"])
    assert sat.status_code == 200, sat.json()
    table = sat.json()["table"]
    assert table["seats"][0]["played_by_bot"] is True and table["state"]["played_by_bot"] == [0]
    # The throw is the bot's now: she is offered only what she may send, sitting in or leaving.
    assert [a["type"] for a in table["legal_actions"]] == ["sit_in", "leave"]
    assert [e.data for e in events_of(table_id, "SatOut")] == [{"seat": 0}]
    run_bot_turns_until(task_queue, lambda: any(e.data["seat"] == 0 for e in events_of(table_id, "ThrowSent")))
    thrown = [e for e in events_of(table_id, "ThrowSent") if e.data["seat"] == 0]
    assert [(e.actor, e.data["by_timeout"]) for e in thrown] == [("bot:0", False)]
    assert events_of(table_id, "RoundTaken"), "the round was played with the bot's throw"

    # She sits in before her next turn and throws herself.
    view = alice.get(url(table_id)).json()
    back = act(alice, table_id, {"type": "sit_in"}, view["version"])
    assert back.status_code == 200, back.json()
    assert back.json()["table"]["seats"][0]["played_by_bot"] is False
    task_queue.run_until_idle()
    view = alice.get(url(table_id)).json()
    assert view["to_act"] == [0] and view["state"]["played_by_bot"] == []
    own = act(alice, table_id, {"type": "throw"}, view["version"])
    assert own.status_code == 200, own.json()
    mine = [e for e in events_of(table_id, "ThrowSent") if e.data["seat"] == 0]
    assert mine[-1].actor == f"user:{alice.user.pk}"

    # She leaves: the match is one game, so the bot plays her seat to the end (no PlayerOut).
    left = alice.post(url(table_id, "leave/"))
    assert left.status_code == 200, left.json()
    assert left.json()["seats"][0]["played_by_bot"] is True
    assert [e.data for e in events_of(table_id, "LeftTable")] == [{"seat": 0}]
    refused = act(alice, table_id, {"type": "sit_in"}, left.json()["version"])
    assert refused.status_code == 422 and refused.json()["code"] == "seat_left", refused.json()
    task_queue.run_until_idle()

    assert Table.objects.get(pk=table_id).status == Table.Status.FINISHED
    assert not [e for e in events_of(table_id, "PlayerOut") if e.data["reason"] == "left"]
    assert len([e for e in events_of(table_id, "ThrowSent") if e.data["seat"] == 0]) > len(mine)
    ended = events_of(table_id, "MatchEnded")[0].data
    pending = check_finished_table(table_id)
    assert sum(pending.values()) == 3 * 10_00
    paid = {p.seat: (p.user, p.amount) for p in Payout.objects.filter(table_id=table_id)}
    people = {0: alice.user, 1: None, 2: None}
    assert paid == {seat: (people[seat], amount) for seat, amount in split(3 * 10_00, ended["winners"])}
    assert 0 in ended["winners"] and paid[0][0] == alice.user  # the leaver's seat won: the prize is hers
