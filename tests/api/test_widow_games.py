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


def test_wp_5_money_is_refused_outside_pot_scoring_and_in_options():
    owner = person("alice")
    loser_pays = owner.post(
        "/api/v1/tables/",
        {
            "game": "whiskey-poker",
            "seats": 3,
            "options": {"scoring": "loser_pays"},
            "stake": {"currency": "MXN", "chip_value": "1.00"},
        },
        format="json",
    )
    assert loser_pays.status_code == 400
    assert "scoring" in loser_pays.json()["detail"]
    smuggled = owner.post(
        "/api/v1/tables/",
        {"game": "la-viuda", "seats": 4, "options": {"chip_value": 500, "currency": "MXN"}},
        format="json",
    )
    assert smuggled.status_code == 400
    assert "stake" in smuggled.json()["detail"]


def test_wp_6_only_the_owner_ends_a_pot_match_and_every_chip_is_cashed_out(task_queue):
    owner, staff = person("alice"), person("sam", staff=True)
    spec = Game(
        "whiskey-poker",
        3,
        people=(0, 1),
        options={"scoring": "pot", "chips_per_player": 20},
        stake={"currency": "MXN", "chip_value": "1.00"},
    )
    table_id, clients = set_up(spec, owner, staff)
    version = owner.get(f"/api/v1/tables/{table_id}/").json()["version"]
    refused = clients[1].post(
        f"/api/v1/tables/{table_id}/actions/",
        {"action": {"type": "end_match"}, "expected_version": version},
        format="json",
    )
    assert refused.status_code == 403
    ended = owner.post(
        f"/api/v1/tables/{table_id}/actions/",
        {"action": {"type": "end_match"}, "expected_version": version},
        format="json",
    )
    assert ended.status_code == 200, ended.json()
    final = play_to_the_end(table_id, clients, task_queue, random.Random(2))
    assert final["status"] == "finished"
    payouts = check_finished_table(table_id)
    assert sum(payouts.values()) == 3 * 20 * 100


def test_lv_6_reconcile_proves_the_chip_accounts_against_the_replayed_state(task_queue):
    """A chip moved in the ledger behind the game's back is found: the account no longer holds
    what the events imply, nor what the replayed state says."""
    from ledger import keys
    from ledger import services as ledger

    spec = Game("la-viuda", 4, people=(0,), options={"chips_per_player": 2})
    table_id, _ = play(spec, 3, task_queue)[0:2]
    ledger.post(
        key="rogue",
        postings=[(keys.pot_key(table_id), "CHIP", -1), (keys.seat_key(table_id, 1), "CHIP", 1)],
        kind="correction",
    )
    report = ledger.reconcile()
    codes = {(problem.code, problem.subject) for problem in report.problems}
    assert ("table_account_mismatch", f"table:{table_id}") in codes
    assert ("table_chips_mismatch", f"table:{table_id}") in codes
