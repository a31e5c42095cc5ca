"""CM-20 for Five-Card Draw over HTTP (FD-13): a person at a table with bots sits out (the table's
bot plays their seat at once, with no turn timer), sits in and plays, then leaves. At a cash table
the leaver's hand is folded and their chips are cashed out when the hand is over, through a payout
opened at once; in a tournament the bot plays the seat to the end and the prize stays theirs."""

from __future__ import annotations

import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Event, Table
from ledger.models import Payout
from tests.api.draw import choose, repeat_deals
from tests.api.play import Game, check_finished_table, person, set_up

pytestmark = pytest.mark.django_db(transaction=True)

FCD = "five-card-draw"
CASH_STAKE = {"currency": "MXN", "chip_value": "0.50"}  # 50 centavos a chip


def url(table_id: str, tail: str = "") -> str:
    return f"/api/v1/tables/{table_id}/{tail}"


def act(client: APIClient, table_id: str, action: dict[str, Any], version: int):
    return client.post(url(table_id, "actions/"), {"action": action, "expected_version": version}, format="json")


def events_of(table_id: str, *type_names: str) -> list[Event]:
    return list(Event.objects.filter(table_id=table_id, type__in=type_names).order_by("seq"))


def turns_of(table_id: str, seat: int) -> list[Event]:
    """The seat's betting actions and draws."""
    return [e for e in events_of(table_id, "PlayerActed", "CardsDrawn") if e.data["seat"] == seat]


def run_bots_until(task_queue, done) -> None:
    """Run queued bot turns one at a time until ``done()``; turn timers never run, so whatever
    moves is moved by a bot."""
    for _ in range(2_000):
        if done():
            return
        assert task_queue.published, "no bot turn queued"
        if task_queue.published[0][0].endswith("expire_deadline"):
            task_queue.published.pop(0)
            continue
        task_queue.run_next()
    pytest.fail("the bots did not get there")


def sit_out_then_in_and_play(alice: APIClient, table_id: str, task_queue) -> None:
    """CM-20's first half, the same in both formats: sitting out on one's turn hands it to the bot
    at once; sitting in before a later turn, the person plays it."""
    task_queue.run_until_idle()
    view = alice.get(url(table_id)).json()
    assert view["to_act"] == [0]
    assert {"sit_out", "leave"} <= {a["type"] for a in view["legal_actions"]}
    before = len(turns_of(table_id, 0))
    sat = act(alice, table_id, {"type": "sit_out"}, view["version"])
    assert sat.status_code == 200, sat.json()
    table = sat.json()["table"]
    assert table["seats"][0]["played_by_bot"] is True and table["state"]["played_by_bot"] == [0]
    assert {"sit_in", "leave"} <= {a["type"] for a in table["legal_actions"]}
    run_bots_until(task_queue, lambda: len(turns_of(table_id, 0)) > before)
    assert [e.actor for e in turns_of(table_id, 0)[before:]] == ["bot:0"]
    assert not [e for e in turns_of(table_id, 0) if e.data["timeout"]]

    view = alice.get(url(table_id)).json()
    back = act(alice, table_id, {"type": "sit_in"}, view["version"])
    assert back.status_code == 200, back.json()
    assert back.json()["table"]["seats"][0]["played_by_bot"] is False
    for _ in range(50):  # the bots play until the hand waits for alice again
        task_queue.run_until_idle()
        view = alice.get(url(table_id)).json()
        if view["to_act"] == [0]:
            break
    assert view["to_act"] == [0] and view["state"]["played_by_bot"] == []
    played = act(alice, table_id, choose(view, random.Random(0)), view["version"])
    assert played.status_code == 200, played.json()
    assert turns_of(table_id, 0)[-1].actor == f"user:{alice.user.pk}"


def test_cm_20_fd_13_cash_sit_out_sit_in_and_leave_through_http(task_queue, monkeypatch):
    repeat_deals(monkeypatch, "cm-20 cash")
    alice, sam = person("alice"), person("sam", staff=True)
    spec = Game(FCD, 3, people=(0,), options={"format": "cash", "opening": "anything_opens"}, stake=CASH_STAKE)
    table_id, _ = set_up(spec, alice, sam)
    sit_out_then_in_and_play(alice, table_id, task_queue)

    # Alice leaves mid-hand: her hand is folded (at once if it is her turn, else at her next one)
    # and she is cashed out when the hand is over; the bots alone do not play on for nobody.
    left = alice.post(url(table_id, "leave/"))
    assert left.status_code == 200, left.json()
    hand_no = events_of(table_id, "LeaveRequested")[0].hand_no
    assert [e.data for e in events_of(table_id, "LeftTable")] == [{"seat": 0}]
    assert left.json()["seats"][0]["played_by_bot"] is False  # the engine folds it, not the bot
    task_queue.run_until_idle()
    assert Table.objects.get(pk=table_id).status == Table.Status.FINISHED
    after = [e for e in turns_of(table_id, 0) if e.seq > events_of(table_id, "LeftTable")[0].seq]
    assert all((e.type == "CardsDrawn" and e.data["count"] == 0) or e.data["action"] == "fold" for e in after)
    assert all(not e.data["timeout"] and e.hand_no == hand_no for e in after)
    (departed,) = events_of(table_id, "PlayerLeft")
    assert departed.data["seat"] == 0 and departed.hand_no == hand_no and departed.data["reason"] == "left"
    ended = events_of(table_id, "TableEnded")[0].data
    assert ended["reason"] == "no_people_left" and ended["cash_out"][0] == 0

    pending = check_finished_table(table_id)
    chips = departed.data["chips"]
    assert sum(pending.values()) == 3 * 200 * 50  # every seat bought max_buy_in at 50 centavos
    paid = {p.seat: (p.user, p.amount) for p in Payout.objects.filter(table_id=table_id)}
    assert paid[0] == (alice.user, chips * 50) and chips > 0
    assert {seat: amount for seat, (_, amount) in paid.items() if seat != 0} == {
        seat: chips_out * 50 for seat, chips_out in enumerate(ended["cash_out"]) if chips_out
    }


def test_cm_20_fd_13_tournament_sit_out_sit_in_and_leave_through_http(task_queue, monkeypatch):
    repeat_deals(monkeypatch, "cm-20 tournament b")  # deals under which the leaver's seat wins
    alice, sam = person("alice"), person("sam", staff=True)
    options = {"format": "tournament", "starting_stack": 20, "forced_bets": "blinds"}
    spec = Game(FCD, 3, people=(0,), options=options, stake={"currency": "MXN", "amount": "10.00"})
    table_id, _ = set_up(spec, alice, sam)
    sit_out_then_in_and_play(alice, table_id, task_queue)

    # Alice leaves the tournament: the bot plays her seat to the end; the result stays hers.
    left = alice.post(url(table_id, "leave/"))
    assert left.status_code == 200, left.json()
    assert left.json()["seats"][0]["played_by_bot"] is True
    assert [e.data for e in events_of(table_id, "LeftTable")] == [{"seat": 0}]
    assert not events_of(table_id, "LeaveRequested", "PlayerLeft")
    refused = act(alice, table_id, {"type": "sit_in"}, left.json()["version"])
    assert refused.status_code == 422, refused.json()
    task_queue.run_until_idle()
    assert Table.objects.get(pk=table_id).status == Table.Status.FINISHED
    later = [e for e in turns_of(table_id, 0) if e.seq > events_of(table_id, "LeftTable")[0].seq]
    assert later and {e.actor for e in later} == {"bot:0"}

    ended = events_of(table_id, "TableEnded")[0].data
    places = {e.data["seat"]: e.data["place"] for e in events_of(table_id, "PlayerEliminated")}
    (winner,) = ended["winners"]
    assert sorted(places.values()) == [2, 3] and winner not in places and ended["prize"] == 3 * 10_00
    pending = check_finished_table(table_id)
    assert sum(pending.values()) == 3 * 10_00
    payouts = [(p.seat, p.user, p.amount) for p in Payout.objects.filter(table_id=table_id)]
    assert payouts == [(winner, alice.user if winner == 0 else None, 3 * 10_00)]
    assert winner == 0  # under these deals the leaver's seat wins: the prize is still hers
