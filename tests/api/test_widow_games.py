"""La Viuda and Whiskey Poker played whole over HTTP by random legal clients and bots, with money
through the ledger (LV-2, LV-8, LV-11, WP-5..WP-8)."""

from __future__ import annotations

import random

import pytest

from games.models import Event
from tests.api.play import Game, check_finished_table, person, play_to_the_end, set_up

pytestmark = pytest.mark.django_db(transaction=True)


def play(spec: Game, seed: int, task_queue):
    owner, staff = person("alice"), person("sam", staff=True)
    table_id, clients = set_up(spec, owner, staff)
    final = play_to_the_end(table_id, clients, task_queue, random.Random(seed))
    return table_id, final, check_finished_table(table_id)


@pytest.mark.parametrize("seed", [1, 2])
def test_lv_11_five_seats_two_people_three_bots_the_winner_takes_every_chip_bought(seed, task_queue):
    spec = Game("la-viuda", 5, people=(0, 2), stake={"currency": "MXN", "chip_value": "5.00"})
    table_id, final, payouts = play(spec, seed, task_queue)
    bought = 5 * 3 * 500
    widow = [e for e in Event.objects.filter(table_id=table_id, type="WidowBought")]
    prize = bought + sum(e.data.get("price", 0) for e in widow)
    winners = {key: amount for key, amount in payouts.items() if amount}
    assert len(winners) == 1
    assert sum(winners.values()) == prize
    assert final["state"]["winner"] is not None


@pytest.mark.parametrize(
    ("options", "stake"),
    [
        ({"scoring": "pot", "chips_per_player": 4}, {"currency": "MXN", "chip_value": "2.00"}),
        ({"scoring": "loser_pays"}, None),
        ({"reduced_pack": True, "scoring": "points"}, None),
    ],
    ids=["pot", "loser_pays", "reduced_pack"],
)
def test_wp_5_wp_7_wp_8_whiskey_poker_plays_to_the_end_in_every_scoring(options, stake, task_queue):
    spec = Game("whiskey-poker", 4, people=(1, 3), options=options, stake=stake)
    _, final, payouts = play(spec, 5, task_queue)
    assert final["status"] == "finished"
    if stake:
        assert sum(payouts.values()) == 4 * 4 * 200
