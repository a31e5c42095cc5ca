"""Euchre played whole over HTTP by two people (random legal clients) and two bots (EU-1, EU-14),
with stakes shared by the winning side through pending payouts."""

from __future__ import annotations

import random

import pytest

from tests.api.play import Game, check_finished_table, person, play_to_the_end, set_up

pytestmark = pytest.mark.django_db(transaction=True)


def test_eu_14_a_match_of_two_people_and_two_bots_plays_to_the_target(task_queue):
    owner, staff = person("alice"), person("sam", staff=True)
    spec = Game("euchre", 4, people=(0, 1), options={"target_points": 5}, stake={"currency": "MXN", "amount": "10.00"})
    table_id, clients = set_up(spec, owner, staff)
    final = play_to_the_end(table_id, clients, task_queue, random.Random(4))
    assert final["status"] == "finished"
    payouts = check_finished_table(table_id)
    winners = {key for key, amount in payouts.items() if amount}
    assert sum(payouts.values()) == 4 * 1000
    # Partners sit opposite (EU-1): the prize goes to seats 0 and 2, or to 1 and 3.
    assert {key.rsplit(".", 1)[1].split(":")[0] for key in winners} in ({"0", "2"}, {"1", "3"})


def test_eu_19_cutthroat_for_three_has_one_winner(task_queue):
    owner, staff = person("alice"), person("sam", staff=True)
    spec = Game(
        "euchre",
        3,
        people=(1,),
        options={"cutthroat": True, "target_points": 5},
        stake={"currency": "MXN", "amount": "7.00"},
    )
    table_id, clients = set_up(spec, owner, staff)
    play_to_the_end(table_id, clients, task_queue, random.Random(9))
    payouts = check_finished_table(table_id)
    assert len([a for a in payouts.values() if a]) == 1
    assert sum(payouts.values()) == 3 * 700


def test_eu_22_a_timed_out_seat_passes_or_plays_once_even_when_the_task_runs_twice(task_queue):
    from datetime import timedelta

    from django.utils import timezone

    from games import tasks
    from games.models import Event, Table

    owner, staff = person("alice"), person("sam", staff=True)
    spec = Game("euchre", 4, people=(0, 1, 2, 3))
    table_id, _ = set_up(spec, owner, staff)
    for _ in range(30):
        table = Table.objects.get(pk=table_id)
        Table.objects.filter(pk=table_id).update(deadline_at=timezone.now() - timedelta(seconds=1))
        assert tasks.expire_deadline(table_id, table.version) is True
        assert tasks.expire_deadline(table_id, table.version) is False
        made = list(Event.objects.filter(table_id=table_id, seq__gt=table.version).order_by("seq"))
        assert made[0].actor == "system"
        assert made[0].type in {"Passed", "TrumpMade", "CardPlayed", "DealerDiscarded", "ClaimDeclined"}
        assert made[0].data.get("seat") == table.deadline_command["seat"]
