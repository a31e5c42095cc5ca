"""Celery tasks: each takes ids, calls one service and is idempotent by the table's version."""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import InterfaceError, OperationalError

from games import idempotency, outbox, partitions, play
from games.errors import Conflict

log = logging.getLogger(__name__)

# A database blip is retried a few times, quickly (1, 2, 4, 4, 4 s at most); a longer outage
# outlasts the retries on purpose: once the database is back, beat's sweep expires the deadlines
# and publishes again every bot turn that has not moved (games.outbox), so nothing waits for a timer.
_DB_RETRY = {
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": True,
    "retry_backoff_max": 4,
    "max_retries": 5,
}


@shared_task(acks_late=True, **_DB_RETRY)
def play_bot(table_id: str, expected_version: int) -> bool:
    """A bot's turn at ``expected_version``, and the bots' turns right after it (``play_bot_turns``);
    does nothing if the table has moved on."""
    try:
        played = play.play_bot_turns(table_id=table_id, expected_version=expected_version) > 0
    except Conflict:
        played = False
    log.info("bot turn at table %s version %s: %s", table_id, expected_version, "played" if played else "moved on")
    return played


@shared_task(acks_late=True, **_DB_RETRY)
def expire_deadline(table_id: str, expected_version: int) -> bool:
    """The fast path of a deadline: runs at its time; the sweep catches any that are missed."""
    try:
        expired = play.expire_deadline(table_id=table_id, expected_version=expected_version) is not None
    except Conflict:
        expired = False
    log.info("deadline of table %s version %s: %s", table_id, expected_version, "expired" if expired else "moved on")
    return expired


@shared_task(acks_late=True, ignore_result=True)
def sweep_deadlines() -> int:
    """The periodic sweep: expire the deadlines stored in the database, publish again the bot
    turns that stalled, and relay the outbox rows no commit could publish. Each step runs even if
    another fails, so one bad table cannot hold up the relay.

    Beat runs it in its own process every ``SWEEP_SECONDS`` (config/beat.py), never through the
    broker: the timers and the relay need no worker alive, and no sweep waits in a queue. A task
    still, so ``celery call`` can run one on a worker."""
    done = 0
    for step in (play.sweep_deadlines, outbox.redrive_stalled_bots, outbox.relay):
        try:
            done += step()
        except Exception:
            log.exception("sweep step %s failed; the next sweep tries again", step.__name__)
    # Every SWEEP_SECONDS (1 s): at DEBUG, or it drowns everything else.
    log.debug("swept: %d deadlines expired or tasks published", done)
    return done


@shared_task(acks_late=True, ignore_result=True)
def purge_outbox() -> int:
    """Beat's periodic purge of outbox rows published more than OUTBOX_KEEP_SECONDS ago."""
    purged = outbox.purge()
    if purged:
        log.info("purged %d published outbox rows", purged)
    return purged


@shared_task(acks_late=True, ignore_result=True)
def purge_idempotency_records() -> int:
    """Beat's periodic purge of idempotency records past IDEMPOTENCY_TTL_SECONDS."""
    purged = idempotency.purge()
    log.info("purged %d idempotency records past their TTL", purged)
    return purged


@shared_task(acks_late=True, ignore_result=True)
def prepare_history_partitions() -> int:
    """Beat's daily making of the events' partitions of this era and the next ``ERAS_AHEAD``
    (``games.partitions``), so a new month's tables never fall into the default partition."""
    made = partitions.prepare()
    if made:
        log.info("made the events' partitions of eras %s", ", ".join(map(str, made)))
    return len(made)
