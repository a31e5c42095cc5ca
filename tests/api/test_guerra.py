"""Guerra Chevichona over HTTP (GC-2, GC-12): people throw, bots throw by themselves, automatic
rounds run on the worker, and the stakes reach the winners through pending payouts."""

from __future__ import annotations

import random

import pytest

from games import play
from games.models import Event, Seat, Table
from tests.api.play import Game, check_finished_table, person, play_to_the_end, set_up
from tests.fixtures_tasks import wait_until

pytestmark = pytest.mark.django_db(transaction=True)


def test_gc_12_a_money_match_with_a_person_and_bots_pays_every_stake_out(task_queue):
    owner, staff = person("alice"), person("sam", staff=True)
    spec = Game("guerra", 4, people=(0,), options={"max_rounds": 200}, stake={"currency": "MXN", "amount": "10.00"})
    table_id, clients = set_up(spec, owner, staff)
    final = play_to_the_end(table_id, clients, task_queue, random.Random(11))
    assert final["status"] == "finished"
    payouts = check_finished_table(table_id)
    assert sum(payouts.values()) == 4 * 1000


def test_gc_2_an_auto_play_match_of_bots_plays_to_the_end_on_its_own(task_queue):
    """With ``auto_play`` nobody throws: each round is a timed system command."""
    owner = person("alice").user
    table = play.create_table(
        user=owner, game="guerra", seats=3, options={"auto_play": True, "round_seconds": 0, "max_rounds": 60}
    )
    for _ in range(3):
        play.add_bot(table_id=table.pk, user=owner)
    play.start_table(table_id=table.pk, user=owner)
    for _ in range(1000):
        if not task_queue.published:
            break
        task_queue.run_until_idle(skip_timers=False)
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED
    check_finished_table(str(table.pk))


@pytest.mark.worker
def test_gc_12_four_bots_with_money_and_auto_play_finish_on_a_real_worker(celery_worker_process):
    owner = person("alice").user
    table = play.create_table(
        user=owner,
        game="guerra",
        seats=4,
        options={"auto_play": True, "round_seconds": 0, "max_rounds": 80},
        stake={"currency": "MXN", "amount": "25.00"},
    )
    for _ in range(4):
        play.add_bot(table_id=table.pk, user=owner)
    assert Seat.objects.filter(table=table, user__isnull=True).count() == 4
    play.start_table(table_id=table.pk, user=owner)
    wait_until(
        lambda: Table.objects.get(pk=table.pk).status == Table.Status.FINISHED, timeout=120, what="the match to end"
    )
    payouts = check_finished_table(str(table.pk))
    assert sum(payouts.values()) == 4 * 2500


def test_cm_20_a_player_who_leaves_mid_match_hands_the_seat_to_the_bot(task_queue):
    """CM-20 (amended: leaving used to put the player out, GC-10, their pile going to the taker):
    the leaver's seat stays in the match, played by the table's bot to the end."""
    owner, bob = person("alice"), person("bob")
    table = play.create_table(user=owner.user, game="guerra", seats=3, options={"max_rounds": 50})
    play.join_table(table_id=table.pk, user=owner.user)
    play.join_table(table_id=table.pk, user=bob.user)
    play.add_bot(table_id=table.pk, user=owner.user)
    play.start_table(table_id=table.pk, user=owner.user)
    left = bob.post(f"/api/v1/tables/{table.pk}/leave/")
    assert left.status_code == 200, left.json()
    assert 1 in left.json()["to_act"] and left.json()["seats"][1]["played_by_bot"] is True
    assert [e.data for e in Event.objects.filter(table=table, type="LeftTable")] == [{"seat": 1}]
    assert not Event.objects.filter(table=table, type="PlayerOut").exists()
    task_queue.run_until_idle()
    thrown = [e.actor for e in Event.objects.filter(table=table, type="ThrowSent") if e.data["seat"] == 1]
    assert thrown == ["bot:1"]
    final = play_to_the_end(str(table.pk), {0: owner, 1: None, 2: None}, task_queue, random.Random(1))
    assert final["status"] == "finished"
    check_finished_table(str(table.pk))


def test_gc_15_the_games_listing_shows_ace_high_and_the_english_deck_refuses_it():
    """GC-15: ``GET /games/`` lists option ``ace_high`` (boolean, off by default); a table asking
    for it with the English deck is refused with a message naming the option."""
    alice = person("alice")
    (guerra,) = [game for game in alice.get("/api/v1/games/").json() if game["slug"] == "guerra"]
    (option,) = [option for option in guerra["options"] if option["name"] == "ace_high"]
    assert option["type"] == "bool" and option["default"] is False
    refused = alice.post(
        "/api/v1/tables/", {"game": "guerra", "seats": 2, "options": {"ace_high": True}}, format="json"
    )
    assert refused.status_code == 400 and "'Ace high' is for the Spanish decks" in refused.json()["detail"], (
        refused.json()
    )
    created = alice.post(
        "/api/v1/tables/",
        {"game": "guerra", "seats": 2, "options": {"deck": "spanish_40", "ace_high": True}},
        format="json",
    )
    assert created.status_code == 201 and created.json()["config"]["ace_high"] is True, created.json()
