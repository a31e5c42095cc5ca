"""CM-20 over HTTP in Euchre: a person sits out (the bot plays their seat at once, no timer), sits
in and plays, then leaves out of turn; the match plays on to the end, the books reconcile and the
leaver's side is paid as the match says, the leaver's share in their own name."""

from __future__ import annotations

import random

import pytest
from django.core.management import call_command

from games.models import Seat, Table
from ledger.models import Payout
from tests.api.play import Game, check_finished_table, person, play_to_the_end, set_up
from tests.api.presence import send, sit_out_sit_in_leave, view

pytestmark = pytest.mark.django_db(transaction=True)


def test_cm_20_euchre_sit_out_sit_in_leave_and_the_match_plays_on(task_queue):
    """CM-20, EU-14, EU-21: seat 0's player sits out, sits in, plays and leaves; the bot plays
    seat 0 to the end of the match; the winning side shares every stake, and seat 0's share (if
    its side won) is a payout in its player's name."""
    owner, staff = person("alice"), person("sam", staff=True)
    spec = Game("euchre", 4, people=(0, 1), options={"target_points": 5}, stake={"currency": "MXN", "amount": "10.00"})
    table_id, clients = set_up(spec, owner, staff)
    rng = random.Random(7)
    sit_out_sit_in_leave(table_id, clients, 0, task_queue, rng)
    final = play_to_the_end(table_id, {**clients, 0: None}, task_queue, rng)
    assert final["status"] == "finished"
    payouts = check_finished_table(table_id)
    call_command("reconcile")
    assert sum(payouts.values()) == 4 * 1000
    winners = set(final["state"]["winners"])
    assert winners in ({0, 2}, {1, 3})
    owners = dict(Seat.objects.filter(table_id=table_id).values_list("number", "user_id"))
    opened = {payout.seat: payout for payout in Payout.objects.filter(table_id=table_id)}
    assert set(opened) == winners and all(opened[seat].user_id == owners[seat] for seat in opened)
    assert (0 in opened) == (0 in winners) and owners[0] == owner.user.pk  # the leaver keeps the result


def test_cm_20_euchre_leave_out_of_turn_is_accepted(task_queue):
    """CM-20: leaving while another seat is awaited is accepted (it used to answer "It is seat 3's
    turn"); the bot plays the seat at once when its turn comes."""
    owner, staff = person("alice"), person("sam", staff=True)
    table_id, clients = set_up(Game("euchre", 4, people=(0, 1, 2, 3)), owner, staff)
    awaited = view(owner, table_id)["to_act"][0]
    leaver = (awaited + 1) % 4
    left = clients[leaver].post(f"/api/v1/tables/{table_id}/leave/")
    assert left.status_code == 200, left.json()
    assert left.json()["seats"][leaver]["played_by_bot"] and left.json()["to_act"] == [awaited]
    refused = send(clients[leaver], table_id, {"type": "sit_in"})
    assert refused.status_code == 422 and refused.json()["code"] == "seat_left"
    assert refused.json()["detail"] == "You have left this table."
    # The awaited seat passes; the leaver's turn is the bot's, played at once.
    mine = view(clients[awaited], table_id)
    assert (
        send(
            clients[awaited],
            table_id,
            {"type": "pass"} if {"type": "pass"} in mine["legal_actions"] else mine["legal_actions"][0],
        ).status_code
        == 200
    )
    task_queue.run_until_idle()
    after = view(owner, table_id)
    assert leaver not in after["to_act"] and Table.objects.get(pk=table_id).status == Table.Status.RUNNING
