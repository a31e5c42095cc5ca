"""Beat's side of the outbox: the relay that publishes what the commits could not, the nudge of bot
turns whose message was lost, and the purge of published rows.

Together with the deadline sweep these bound every wait, and beat runs all three in its own process
(config/beat.py), so they keep going while no worker is alive: a row a commit could not publish
(broker down, process killed after the commit) goes out on the next sweep after the broker is back;
a bot turn whose message a killed worker took with it (Redis gives it back only after
``BROKER_VISIBILITY_TIMEOUT``, and the local broker of ``make run`` never does) is published again
once the table has not moved for ``STALLED_BOT_SECONDS``, and waits in the queue for the next worker
to take it. Publishing twice is harmless: every task checks the table's version.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from games import scheduling
from games.models import OutboxMessage, Table

log = logging.getLogger(__name__)

PLAY_BOT = "games.tasks.play_bot"


def relay(*, batch: int = 100) -> int:
    """Publish pending rows, oldest first, ``batch`` at most; stop at the first failure (the broker
    is down: the next sweep tries again). Rows younger than ``OUTBOX_RELAY_AFTER_SECONDS`` are left
    to the commit that made them, which is publishing them now. A row is published with what is
    left of its countdown, so one due further off than ``MAX_TASK_COUNTDOWN``
    (``scheduling.schedule_later``) waits until it is that close. Returns how many were published."""
    now = timezone.now()
    cutoff = now - timedelta(seconds=settings.OUTBOX_RELAY_AFTER_SECONDS)
    near = now + timedelta(seconds=settings.MAX_TASK_COUNTDOWN)
    pending = OutboxMessage.objects.filter(published_at__isnull=True, created_at__lte=cutoff, due_at__lte=near)
    pending = pending.order_by("created_at")
    if not connection.features.has_select_for_update_skip_locked:
        # SQLite (make run, one beat): no row locks, and a transaction would hold the database's
        # one write lock while publishing.
        return _publish_all(list(pending[:batch]))
    # Two relays (a second beat, an overlapping sweep) skip each other's rows instead of both
    # publishing them; the lock is held while publishing, which the broker timeouts keep short.
    with transaction.atomic():
        return _publish_all(list(pending.select_for_update(skip_locked=True)[:batch]))


def _publish_all(rows: list[OutboxMessage]) -> int:
    published = 0
    for row in rows:
        if not scheduling.publish(row):
            break
        published += 1
    if published:
        log.info("outbox relay published %d pending task(s)", published)
    return published


def redrive_stalled_bots(*, limit: int = 100) -> int:
    """Publish again the bot turns of tables that await a bot and have not moved for
    ``STALLED_BOT_SECONDS`` since their message was last published, or since it was due if that
    is later (a paced turn); or store one, if the row is gone. Returns how many were sent (or
    stored, for the relay)."""
    cutoff = timezone.now() - timedelta(seconds=settings.STALLED_BOT_SECONDS)
    stalled = list(
        Table.objects.filter(status=Table.Status.RUNNING, awaits_bot=True, updated_at__lte=cutoff)
        .order_by("updated_at")
        .values_list("pk", "version")[:limit]
    )
    if not stalled:
        return 0
    keys = {scheduling.task_key(PLAY_BOT, [str(pk), version]): (pk, version) for pk, version in stalled}
    rows = {row.key: row for row in OutboxMessage.objects.filter(key__in=keys).order_by("created_at")}
    nudged = 0
    for key, (pk, version) in keys.items():
        row = rows.get(key)
        # A paced turn (``games.play.execute.bot_pace``) is not stalled before it is due: it
        # counts from its due time, not from when it was published.
        if row is not None and (row.published_at is None or max(row.published_at, row.due_at) > cutoff):
            continue  # pending (the relay has it), or sent (or due) moments ago
        log.warning("bot turn of table %s at version %s stalled; publishing it again", pk, version)
        if row is None:
            # Purged, or the table stalled before the outbox existed: a new row, sent on commit.
            with transaction.atomic():
                scheduling.schedule(PLAY_BOT, pk, version)
        elif not scheduling.publish(row):
            break  # the broker is down; the next sweep tries again
        nudged += 1
    return nudged


def purge(*, batch: int = 1000, max_batches: int = 100) -> int:
    """Delete rows published more than ``OUTBOX_KEEP_SECONDS`` ago, ``batch`` per statement."""
    cutoff = timezone.now() - timedelta(seconds=settings.OUTBOX_KEEP_SECONDS)
    purged = 0
    for _ in range(max_batches):
        ids = list(OutboxMessage.objects.filter(published_at__lt=cutoff).values_list("pk", flat=True)[:batch])
        if not ids:
            break
        purged += OutboxMessage.objects.filter(pk__in=ids).delete()[0]
        if len(ids) < batch:
            break
    return purged
