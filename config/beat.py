"""Beat's scheduler: the periodic entries marked ``run_in_beat`` run here, in beat's own process, on
its tick; the others are sent to the workers as usual.

The deadline sweep (turn timers, stalled bot turns, the outbox relay: ``games.tasks.sweep_deadlines``)
is what keeps a table moving when a message is lost or a worker is gone. Sent through the broker it
needed a live worker to run, so with every worker down no timer fired, and the sweeps queued once a
second ran as a burst when one came back. Run by beat itself it keeps the timers on time with no
worker at all, never queues, and never overlaps itself (beat runs one entry at a time): a sweep
that takes longer than ``SWEEP_SECONDS`` only delays the next one.
"""

from __future__ import annotations

import logging
from typing import Any

from celery.beat import PersistentScheduler, ScheduleEntry
from django.db import close_old_connections

log = logging.getLogger(__name__)

# The key of an entry's ``options`` that keeps it in beat (config/settings.py's CELERY_BEAT_SCHEDULE).
IN_BEAT = "run_in_beat"


class Scheduler(PersistentScheduler):
    """Celery's default scheduler (its schedule kept in ``--schedule``'s file), running the entries
    marked ``run_in_beat`` in process instead of publishing them."""

    def apply_entry(self, entry: ScheduleEntry, producer: Any = None) -> None:
        if not entry.options.get(IN_BEAT):
            super().apply_entry(entry, producer=producer)
            return
        run_in_beat(self.app.tasks[entry.task], entry.args, entry.kwargs)


def run_in_beat(task: Any, args: Any = (), kwargs: Any = None) -> None:
    """Run ``task``'s body here and now; an error is logged and the next tick tries again.

    Beat's connection is given back before the run and after it, as a worker does around each
    task: with the pool (PostgreSQL) it returns to beat's pool, which checks it before lending it
    again, so a run after an outage or a restart gets a live connection instead of a dead socket;
    without one (SQLite, ``DATABASE_POOL=false``) it is closed unless ``CONN_MAX_AGE`` keeps it and
    it still works."""
    close_old_connections()
    try:
        task(*(args or ()), **(kwargs or {}))
    except Exception:
        log.exception("%s failed in beat; the next tick runs it again", task.name)
    finally:
        close_old_connections()
