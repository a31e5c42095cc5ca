"""Turn timers and the La Viuda offer deadline run through the worker's tasks (WX-7, LV-10): a
player who never acts is passed or knocked for, and a broke player who never answers the offer is
eliminated, each exactly once even when the task is delivered twice."""

from __future__ import annotations

import hashlib
import uuid
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import play, tasks
from games.engine import registry
from games.models import Event, Table
from games.play import seeds

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def fixed_randomness(monkeypatch):
    """Table ids and server seeds from a counter, so each game below is the same on every run."""
    state = {"salt": 0, "n": 0}

    def next_bytes(n: int) -> bytes:
        state["n"] += 1
        return hashlib.sha256(f"seed:{state['salt']}:{state['n']}".encode()).digest()[:n]

    monkeypatch.setattr(seeds.secrets, "token_bytes", next_bytes)
    monkeypatch.setattr(Table._meta.get_field("id"), "default", lambda: uuid.UUID(int=state["salt"] + 1))
    return state


def expire_twice(table: Table) -> list[Event]:
    """Bring the deadline forward and deliver its task twice; return the events it made."""
    table.refresh_from_db()
    version = table.version
    Table.objects.filter(pk=table.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    assert tasks.expire_deadline(str(table.pk), version) is True
    assert tasks.expire_deadline(str(table.pk), version) is False
    return list(Event.objects.filter(table=table, seq__gt=version).order_by("seq"))


def absent_player_game(owner, task_queue, options, stake=None):
    """Alice at seat 0 never acts; three bots play. Returns the table and what her timers did."""
    table = play.create_table(user=owner, game="la-viuda", seats=4, options=options, stake=stake)
    play.join_table(table_id=table.pk, user=owner, seat=0)
    for _ in range(3):
        play.add_bot(table_id=table.pk, user=owner)
    play.start_table(table_id=table.pk, user=owner)
    timed: list[list[Event]] = []
    for _ in range(500):
        task_queue.run_until_idle()
        table.refresh_from_db()
        if table.status == Table.Status.FINISHED:
            return table, timed
        state, _ = play.table_state(table)
        assert 0 in registry.get("la-viuda").to_act(state), "only alice can be awaited"
        timed.append(expire_twice(table))
    pytest.fail("the game did not finish")


def test_wx_7_lv_10_an_absent_player_is_passed_knocked_for_and_eliminated_once(fixed_randomness, task_queue):
    owner = get_user_model().objects.create_user(username="alice")
    seen: set[str] = set()
    for salt in range(30):
        fixed_randomness["salt"] = salt
        table, timed = absent_player_game(owner, task_queue, {"chips_per_player": 1})
        for events in timed:
            first = events[0]
            # One command per pair of deliveries, and it is alice's, made by the system.
            assert first.actor == "system"
            assert first.data["seat"] == 0
            if first.type == "Passed":
                assert first.data["timed_out"] is True
                seen.add("pass in phase 1")
            elif first.type == "Knocked":
                assert first.data["timed_out"] is True
                assert first.data["phase"] == 2, "a timeout knocks only in phase 2 (WX-7)"
                seen.add("knock in phase 2")
            else:
                assert first.type == "WidowDeclined"
                assert first.data["reason"] == "expired"
                assert [e.data["seat"] for e in events if e.type == "PlayerEliminated"] == [0]
                assert Event.objects.filter(table=table, type="PlayerEliminated", data__seat=0).count() == 1
                seen.add("offer expired")
        if len(seen) == 3:
            return
    pytest.fail(f"30 games did not show every timer; they showed {sorted(seen)}")


def test_lv_8_a_broke_player_whose_wallet_cannot_pay_la_viuda_is_declined_at_once(fixed_randomness, task_queue):
    """The service tells the game what the wallet holds: with exactly the buy-in deposited, alice
    cannot pay twice the chip value when she goes broke, so the offer is declined at once."""
    from ledger import services as ledger

    owner = get_user_model().objects.create_user(username="alice")
    staff = get_user_model().objects.create_user(username="sam", is_staff=True)
    for salt in range(30):
        fixed_randomness["salt"] = salt
        ledger.deposit(user=owner, currency="MXN", amount_minor=100, by=staff, idempotency_key=f"buy-in {salt}")
        table, _ = absent_player_game(
            owner, task_queue, {"chips_per_player": 1}, {"currency": "MXN", "chip_value": "1.00"}
        )
        declined = [e for e in Event.objects.filter(table=table, type="WidowDeclined") if e.data["seat"] == 0]
        if declined:
            assert [e.data["reason"] for e in declined] == ["cannot_afford"]
            assert not Event.objects.filter(table=table, type="WidowOffered", data__seat=0).exists()
            return
    pytest.fail("in 30 games alice never went broke while La Viuda was on offer")
