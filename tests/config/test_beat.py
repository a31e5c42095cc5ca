"""Beat's scheduler (config/beat.py): the deadline sweep runs in beat itself, so timers fire with no
worker alive and no sweep ever waits in the broker; the other periodic tasks expire unrun rather
than pile up while no worker takes them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from celery.beat import ScheduleEntry
from django.contrib.auth import get_user_model
from django.utils import timezone

from config import beat
from config.celery import app
from games import play
from games.models import Event, Table

pytestmark = pytest.mark.django_db(transaction=True)


def _entry(name: str, spec: dict) -> ScheduleEntry:
    return ScheduleEntry(
        name=name, task=spec["task"], schedule=spec["schedule"], options=dict(spec.get("options", {})), app=app
    )


@pytest.fixture
def scheduler(tmp_path, monkeypatch):
    """config's scheduler, recording what it would publish instead of publishing it."""
    sent: list[str] = []
    monkeypatch.setattr(beat.Scheduler, "apply_async", lambda self, entry, *a, **k: sent.append(entry.task))
    closed: list[int] = []
    # Beat closes a connection the database dropped; in a test that would close the test's own.
    monkeypatch.setattr(beat, "close_old_connections", lambda: closed.append(1))
    made = beat.Scheduler(app, schedule_filename=str(tmp_path / "schedule"), lazy=True)
    made.sent, made.closed = sent, closed
    return made


def test_beat_is_configured_with_the_scheduler_that_sweeps_in_process(settings):
    assert settings.CELERY_BEAT_SCHEDULER == "config.beat:Scheduler"
    assert settings.CELERY_BEAT_SCHEDULE["sweep-deadlines"]["options"][beat.IN_BEAT] is True


def test_every_other_periodic_task_expires_within_its_interval(settings):
    """A task queued for a worker that is gone expires instead of waiting: the worker that comes
    back runs the next one, not every one queued meanwhile."""
    for name, spec in settings.CELERY_BEAT_SCHEDULE.items():
        options = spec.get("options", {})
        if options.get(beat.IN_BEAT):
            continue
        assert 0 < options.get("expires", 0) <= spec["schedule"], name


def test_the_sweep_runs_in_beat_and_expires_a_due_timer_without_any_worker(counter_game, scheduler, settings):
    alice, bob = (get_user_model().objects.create_user(username=n) for n in ("alice", "bob"))
    table = play.create_table(user=alice, game="counter", seats=2)
    play.join_table(table_id=table.pk, user=alice)
    play.join_table(table_id=table.pk, user=bob)
    play.start_table(table_id=table.pk, user=alice)
    table.refresh_from_db()
    Table.objects.filter(pk=table.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))

    scheduler.apply_entry(_entry("sweep-deadlines", settings.CELERY_BEAT_SCHEDULE["sweep-deadlines"]))

    assert Table.objects.get(pk=table.pk).version > table.version
    assert Event.objects.filter(table=table, seq__gt=table.version, actor="system").exists()
    assert scheduler.sent == []  # nothing went to the broker
    assert scheduler.closed == [1, 1]  # a dropped connection is let go before and after


def test_the_other_entries_are_still_sent_to_the_workers(scheduler, settings):
    scheduler.apply_entry(_entry("purge-outbox", settings.CELERY_BEAT_SCHEDULE["purge-outbox"]))
    assert scheduler.sent == ["games.tasks.purge_outbox"]


def test_a_sweep_that_fails_in_beat_is_logged_and_beat_carries_on(scheduler, monkeypatch, caplog):
    def broken(**_):
        raise RuntimeError("database gone")

    task = app.tasks["games.tasks.purge_outbox"]
    monkeypatch.setattr(task, "run", broken)
    entry = ScheduleEntry(name="x", task=task.name, schedule=1.0, options={beat.IN_BEAT: True}, app=app)
    scheduler.apply_entry(entry)  # does not raise
    assert "failed in beat" in caplog.text
    assert scheduler.sent == []
