"""CM-20 over HTTP in La Viuda and Whiskey Poker: a person sits out (the bot plays their seat at
once, no timer), sits in and plays, then leaves; the game plays on to the end, the books reconcile
and the payouts name the right players and amounts."""

from __future__ import annotations

import random

import pytest
from django.core.management import call_command

from games.models import Event, Seat, Table
from ledger.models import Payout
from tests.api.play import Game, check_finished_table, person, play_to_the_end, set_up
from tests.api.presence import send, sit_out_sit_in_leave, view

pytestmark = pytest.mark.django_db(transaction=True)


def _play_out(spec: Game, seed: int, task_queue, me: int = 0):
    owner, staff = person("alice"), person("sam", staff=True)
    table_id, clients = set_up(spec, owner, staff)
    rng = random.Random(seed)
    sit_out_sit_in_leave(table_id, clients, me, task_queue, rng)
    # The leaver's seat is the bot's now; the other person plays on.
    final = play_to_the_end(table_id, {**clients, me: None}, task_queue, rng)
    assert final["status"] == "finished"
    payouts = check_finished_table(table_id)
    call_command("reconcile")
    return table_id, clients, final, payouts


def _payouts_name_the_seats_players(table_id: str) -> dict[int, Payout]:
    """Every payout belongs to its seat's player (nobody for a bot), the leaver's included."""
    owners = dict(Seat.objects.filter(table_id=table_id).values_list("number", "user_id"))
    opened = {payout.seat: payout for payout in Payout.objects.filter(table_id=table_id)}
    for seat, payout in opened.items():
        assert payout.user_id == owners[seat], (seat, payout.user_id, owners[seat])
    return opened


def test_cm_20_la_viuda_sit_out_sit_in_leave_and_the_match_plays_on(task_queue):
    """CM-20, LV-11: the leaver's seat is played by the bot to the end; the winner, whoever it
    is, takes every chip bought through a payout in its own player's name."""
    spec = Game(
        "la-viuda", 4, people=(0, 1), options={"chips_per_player": 4}, stake={"currency": "MXN", "chip_value": "5.00"}
    )
    table_id, _, final, payouts = _play_out(spec, 3, task_queue)
    winner = final["state"]["winner"]
    opened = _payouts_name_the_seats_players(table_id)
    bought = Event.objects.filter(table_id=table_id, type="WidowBought").values_list("data__price", flat=True)
    assert list(opened) == [winner] and opened[winner].amount == 4 * 4 * 500 + sum(bought)
    assert sum(payouts.values()) == opened[winner].amount


def test_cm_20_la_viuda_leave_is_no_unknown_action_on_a_running_table(task_queue):
    """CM-20: POST leave on a running La Viuda table is answered 200 with the seat the bot's (it
    used to answer "Unknown action 'leave'"), whoever's turn it is."""
    owner, staff = person("alice"), person("sam", staff=True)
    table_id, clients = set_up(Game("la-viuda", 4, people=(0, 1)), owner, staff)
    task_queue.run_until_idle()
    left = clients[1].post(f"/api/v1/tables/{table_id}/leave/")
    assert left.status_code == 200, left.json()
    assert left.json()["seats"][1]["played_by_bot"]
    assert Table.objects.get(pk=table_id).status == Table.Status.RUNNING


@pytest.mark.parametrize(
    ("options", "stake"),
    [
        ({"scoring": "pot", "chips_per_player": 8}, {"currency": "MXN", "chip_value": "2.00"}),
        ({"scoring": "loser_pays", "lives": 8}, None),
    ],
    ids=["pot", "loser_pays"],
)
def test_cm_20_whiskey_poker_sit_out_sit_in_leave_and_the_game_plays_on(options, stake, task_queue):
    """CM-20, WP-6, WP-7: pot scoring cashes the leaver out when the hand ends, through a payout in
    their name opened at once, and deals them no more; loser_pays plays their seat to the end."""
    spec = Game("whiskey-poker", 4, people=(0, 1), options=options, stake=stake)
    table_id, clients, final, payouts = _play_out(spec, 5, task_queue)
    opened = _payouts_name_the_seats_players(table_id)
    if options["scoring"] == "pot":
        cashed = Event.objects.get(table_id=table_id, type="PlayerCashedOut")
        assert cashed.data["seat"] == 0
        assert opened[0].amount == cashed.data["chips"] * 200 and opened[0].user_id == clients[0].user.pk
        later = Event.objects.filter(table_id=table_id, seq__gt=cashed.seq, type="AntesPaid")
        assert all(0 not in event.data["seats"] for event in later)
        assert sum(payouts.values()) == 4 * 8 * 200
    else:
        assert final["state"]["winners"] or final["state"]["losers"]
        assert not opened


def test_cm_20_a_pot_table_ends_when_its_only_person_leaves(task_queue):
    """CM-20, WP-6: the bots do not play on for nobody: the hand is played out, the leaver cashed
    out, and the match ends as the owner's end would, every chip cashed out."""
    owner, staff = person("alice"), person("sam", staff=True)
    spec = Game(
        "whiskey-poker",
        3,
        people=(0,),
        options={"scoring": "pot", "chips_per_player": 20},
        stake={"currency": "MXN", "chip_value": "1.00"},
    )
    table_id, _ = set_up(spec, owner, staff)
    task_queue.run_until_idle()
    left = owner.post(f"/api/v1/tables/{table_id}/leave/")
    assert left.status_code == 200, left.json()
    task_queue.run_until_idle()
    assert view(owner, table_id)["status"] == "finished"
    payouts = check_finished_table(table_id)
    assert sum(payouts.values()) == 3 * 20 * 100
    assert Payout.objects.get(table_id=table_id, seat=0).user_id == owner.user.pk


def test_cm_20_a_seat_the_bot_plays_cannot_move_until_its_player_sits_in(task_queue):
    """CM-20: a person sits out on their turn and sends a move before the bot has played it:
    refused (``sitting_out``), the move is the bot's; after sitting in it is theirs again."""
    owner, staff = person("alice"), person("sam", staff=True)
    table_id, clients = set_up(Game("whiskey-poker", 3, people=(0, 1), options={"scoring": "points"}), owner, staff)
    task_queue.run_until_idle()
    awaited = view(owner, table_id)["to_act"][0]
    me = clients[awaited]
    assert send(me, table_id, {"type": "sit_out"}).status_code == 200
    refused = send(me, table_id, {"type": "knock"})
    assert refused.status_code == 422, refused.json()
    assert refused.json()["code"] == "sitting_out"
    assert refused.json()["legal_actions"] == [{"type": "sit_in"}, {"type": "leave"}]
    assert send(me, table_id, {"type": "sit_in"}).status_code == 200
    assert send(me, table_id, {"type": "knock"}).status_code == 200
