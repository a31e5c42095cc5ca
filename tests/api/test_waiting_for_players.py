"""CM-21 over HTTP, where hands stand alone (a Whiskey Poker ``pot`` match, a Five-Card Draw cash
table): with no person dealt in the table deals no hand and waits, and says so in its view; a
person sitting in lets the next hand be dealt; after ``idle_minutes`` with nobody dealt in the
table ends as if its owner had ended it, everyone cashed out. Time is driven through the table's
deadline and beat's sweep with a controlled ``now``, as the timer tests do."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import play
from games.models import Event, Table
from ledger.models import Payout
from tests.api import contract
from tests.api.play import Game, check_finished_table, set_up

pytestmark = pytest.mark.django_db(transaction=True)

POT = Game(
    "whiskey-poker",
    3,
    people=(0,),
    options={"scoring": "pot", "chips_per_player": 30},
    stake={"currency": "MXN", "chip_value": "1.00"},
)
CASH = Game(
    "five-card-draw",
    3,
    people=(0,),
    options={"format": "cash", "opening": "anything_opens", "idle_minutes": 2},
    stake={"currency": "MXN", "chip_value": "0.50"},
)


def url(table_id: str, tail: str = "") -> str:
    return f"/api/v1/tables/{table_id}/{tail}"


def types_after(table_id: str, seq: int) -> list[str]:
    return list(Event.objects.filter(table_id=table_id, seq__gt=seq).order_by("seq").values_list("type", flat=True))


def sat_out_until_waiting(client, table_id: str, task_queue) -> tuple[dict, int]:
    """The person sits out and the bots finish the hand in play: the table's view once it waits,
    and the version the person sat out at."""
    view = client.get(url(table_id)).json()
    sat = client.post(
        url(table_id, "actions/"), {"action": {"type": "sit_out"}, "expected_version": view["version"]}, format="json"
    )
    assert sat.status_code == 200, sat.json()
    task_queue.run_until_idle()
    return client.get(url(table_id)).json(), sat.json()["version"]


def at(moment, monkeypatch) -> None:
    monkeypatch.setattr(timezone, "now", lambda: moment)


@pytest.mark.parametrize("spec", [POT, CASH], ids=["whiskey-poker-pot", "five-card-draw-cash"])
def test_cm_21_a_table_with_no_person_dealt_in_waits_and_deals_again_once_one_sits_in(spec, task_queue):
    alice, sam = contract.person("alice"), contract.person("sam", staff=True)
    table_id, _ = set_up(spec, alice, sam)
    view, sat_out = sat_out_until_waiting(alice, table_id, task_queue)
    hand_no = view["state"]["hand_no"]
    # The hand in play was finished by the bots; the next is not dealt: the table waits, says so,
    # and no bot plays for nobody.
    assert view["status"] == "running" and view["state"]["waiting_for_players"] is True
    assert view["to_act"] == [] and not task_queue.published
    assert types_after(table_id, sat_out)[-1] == "DealPostponed"
    assert "HandStarted" not in types_after(
        table_id, Event.objects.filter(table_id=table_id, type="HandEnded").last().seq
    )
    table = Table.objects.get(pk=table_id)
    assert not table.awaits_bot and table.deadline_command == {"type": "idle_end"}
    assert {a["type"] for a in view["legal_actions"]} >= {"sit_in"}
    # Nobody else may send the system's end of the wait.
    refused = alice.post(
        url(table_id, "actions/"), {"action": {"type": "idle_end"}, "expected_version": view["version"]}, format="json"
    )
    assert refused.status_code == 422, refused.json()

    back = alice.post(
        url(table_id, "actions/"), {"action": {"type": "sit_in"}, "expected_version": view["version"]}, format="json"
    )
    assert back.status_code == 200, back.json()
    state = back.json()["table"]["state"]
    assert state["waiting_for_players"] is False and state["hand_no"] == hand_no + 1
    dealt = types_after(table_id, view["version"])
    assert dealt[0] == "SatIn" and "HandStarted" in dealt[1:4]
    assert Table.objects.get(pk=table_id).deadline_command != {"type": "idle_end"}


@pytest.mark.parametrize(
    ("spec", "minutes", "ended"),
    [(POT, 10, "GameEnded"), (CASH, 2, "TableEnded")],
    ids=["whiskey-poker-pot", "five-card-draw-cash"],
)
def test_cm_21_after_idle_minutes_with_nobody_dealt_in_the_table_ends_as_its_owner_would(
    spec, minutes, ended, task_queue, monkeypatch
):
    alice, sam = contract.person("alice"), contract.person("sam", staff=True)
    table_id, _ = set_up(spec, alice, sam)
    view, _ = sat_out_until_waiting(alice, table_id, task_queue)
    assert view["state"]["waiting_for_players"] is True
    table = Table.objects.get(pk=table_id)
    # The wait's end is the table's deadline, idle_minutes on (10 by default; 2 asked for here).
    assert table.deadline_at - table.updated_at == timedelta(minutes=minutes)
    assert view["deadline"] is not None
    at(table.deadline_at - timedelta(seconds=1), monkeypatch)
    assert play.sweep_deadlines() == 0
    assert Table.objects.get(pk=table_id).status == Table.Status.RUNNING
    at(table.deadline_at + timedelta(seconds=1), monkeypatch)
    assert play.sweep_deadlines() == 1
    monkeypatch.undo()
    assert types_after(table_id, table.version)[0] == "IdleEnded" and ended in types_after(table_id, table.version)
    finished = alice.get(url(table_id)).json()
    assert finished["status"] == "finished" and finished["state"]["waiting_for_players"] is False
    # Everyone cashed out, as when the owner ends the table: the person's chips wait in a payout.
    pending = check_finished_table(table_id)
    assert sum(pending.values()) > 0
    assert Payout.objects.filter(table_id=table_id, user=alice.user).exists()


def test_cm_21_the_owner_ends_a_waiting_match_at_once(task_queue):
    alice, sam = contract.person("alice"), contract.person("sam", staff=True)
    table_id, _ = set_up(POT, alice, sam)
    view, _ = sat_out_until_waiting(alice, table_id, task_queue)
    assert {"type": "end_match"} in view["legal_actions"]
    ended = alice.post(
        url(table_id, "actions/"), {"action": {"type": "end_match"}, "expected_version": view["version"]}, format="json"
    )
    assert ended.status_code == 200, ended.json()
    # No hand is in play while the match waits: "after this hand" is now.
    assert types_after(table_id, view["version"]) == ["MatchEndRequested", "GameEnded"]
    check_finished_table(table_id)


def test_cm_21_idle_minutes_is_an_option_of_the_games_whose_hands_stand_alone(db):
    listed = contract.person("alice").get("/api/v1/games/").json()
    for slug in ("whiskey-poker", "five-card-draw"):
        (option,) = [o for o in next(g for g in listed if g["slug"] == slug)["options"] if o["name"] == "idle_minutes"]
        assert option["default"] == 10 and option["min"] == 1 and "CM-21" in option["rules"]
