"""Bots, timers and the publishing of tasks (DESIGN "Timers, bots and eliminations")."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games import play, scheduling, tasks
from games.models import Event, Table
from tests.fixtures_tasks import wait_until

pytestmark = pytest.mark.django_db(transaction=True)


def user(name):
    return get_user_model().objects.create_user(username=name)


def bot_table(owner, *, person_seat: int = 0, **options):
    table = play.create_table(user=owner, game="counter", seats=2, options=options)
    play.join_table(table_id=table.pk, user=owner, seat=person_seat)
    play.add_bot(table_id=table.pk, user=owner)
    return table


def test_no_task_is_published_inside_an_open_transaction(counter_game, task_queue, settings):
    alice, bob = user("alice"), user("bob")
    # A turn timer short enough to go out as a countdown task (a longer one is left to the sweep).
    assert settings.MAX_TASK_COUNTDOWN >= 5
    table = play.create_table(user=alice, game="counter", seats=2, options={"turn_seconds": 5})
    play.join_table(table_id=table.pk, user=alice)
    play.join_table(table_id=table.pk, user=bob)
    with transaction.atomic():
        play.start_table(table_id=table.pk, user=alice)
        assert task_queue.published == []
    assert task_queue.names() == ["games.tasks.expire_deadline"]


def test_a_bot_seat_moves_by_itself(counter_game, task_queue):
    alice = user("alice")
    table = bot_table(alice, person_seat=0)
    play.start_table(table_id=table.pk, user=alice)
    table.refresh_from_db()
    state, _ = play.table_state(table)
    if state.turn == 0:  # let alice move so the bot is next
        play.act(table_id=table.pk, user=alice, action={"type": "add", "amount": 1}, expected_version=table.version)
    assert "games.tasks.play_bot" in task_queue.names()
    before = Table.objects.get(pk=table.pk).version
    task_queue.run_until_idle()
    last = Event.objects.filter(table=table).order_by("-seq").first()
    assert last.actor == "bot:1"
    assert Table.objects.get(pk=table.pk).version > before


def test_a_bot_task_for_an_old_version_does_nothing(counter_game, task_queue):
    alice = user("alice")
    table = bot_table(alice, person_seat=0)
    play.start_table(table_id=table.pk, user=alice)
    table.refresh_from_db()
    assert tasks.play_bot(str(table.pk), table.version - 1) is False
    assert Table.objects.get(pk=table.pk).version == table.version


def test_a_deadline_expires_exactly_once_when_the_task_runs_twice(counter_game, task_queue):
    alice, bob = user("alice"), user("bob")
    table = play.create_table(user=alice, game="counter", seats=2)
    play.join_table(table_id=table.pk, user=alice)
    play.join_table(table_id=table.pk, user=bob)
    play.start_table(table_id=table.pk, user=alice)
    table.refresh_from_db()
    version = table.version
    assert table.deadline_version == version
    assert table.deadline_command["type"] == "timeout"
    assert tasks.expire_deadline(str(table.pk), version) is False  # not due yet
    Table.objects.filter(pk=table.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    assert tasks.expire_deadline(str(table.pk), version) is True
    assert tasks.expire_deadline(str(table.pk), version) is False
    assert play.sweep_deadlines() == 0  # the next deadline belongs to the next version and is not due
    timed_out = Event.objects.filter(table=table, seq__gt=version)
    assert timed_out.filter(actor="system").count() >= 1
    assert [e.data.get("by_timeout") for e in timed_out if e.type == "Added"] == [True]


def test_the_sweep_expires_what_is_due(counter_game, task_queue):
    alice, bob = user("alice"), user("bob")
    table = play.create_table(user=alice, game="counter", seats=2)
    play.join_table(table_id=table.pk, user=alice)
    play.join_table(table_id=table.pk, user=bob)
    play.start_table(table_id=table.pk, user=alice)
    assert play.sweep_deadlines() == 0
    Table.objects.filter(pk=table.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    assert play.sweep_deadlines() == 1
    assert play.sweep_deadlines() == 0


def test_no_countdown_outlives_the_broker_visibility_timeout(counter_game, task_queue, settings):
    """A countdown longer than MAX_TASK_COUNTDOWN is not sent: the sweep covers it."""
    assert settings.MAX_TASK_COUNTDOWN <= settings.BROKER_VISIBILITY_TIMEOUT
    with transaction.atomic():
        scheduling.schedule("games.tasks.expire_deadline", "t", 1, countdown=settings.MAX_TASK_COUNTDOWN + 1)
        scheduling.schedule("games.tasks.expire_deadline", "t", 2, countdown=settings.MAX_TASK_COUNTDOWN)
    assert [args for _, args, _, _ in task_queue.published] == [("t", 2)]


@pytest.mark.worker
def test_a_real_worker_plays_the_bot_and_expires_deadlines(counter_game, celery_worker_process):
    """With a real worker process on the configured broker (Redis in CI), a bot moves by itself
    and an expired deadline is swept by beat into one timeout."""
    alice = user("alice")
    table = bot_table(alice, person_seat=0)
    play.start_table(table_id=table.pk, user=alice)
    table.refresh_from_db()
    state, _ = play.table_state(table)
    if state.turn == 0:
        play.act(table_id=table.pk, user=alice, action={"type": "add", "amount": 1}, expected_version=table.version)
    wait_until(lambda: Event.objects.filter(table=table, actor="bot:1").exists(), what="the bot's move")
    table.refresh_from_db()
    version = table.version
    state, _ = play.table_state(table)
    assert state.turn == 0, "after the bot it is alice's turn"
    Table.objects.filter(pk=table.pk).update(deadline_at=timezone.now())
    wait_until(lambda: Event.objects.filter(table=table, seq__gt=version, actor="system").exists(), what="the timeout")
    timeouts = [
        e for e in Event.objects.filter(table=table, seq__gt=version) if e.type == "Added" and e.data.get("seat") == 0
    ]
    assert len(timeouts) == 1
