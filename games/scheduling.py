"""Work for the worker goes through a transactional outbox: ``schedule`` stores the task as a row in
the transaction that made it due, and the row is published once that transaction commits.

A task published inside an open transaction could run before the commit and find nothing, or
run for a command that is then rolled back; a task published only in memory after the commit is
lost if the broker is down or the process dies. A row is neither: it commits with the events or not
at all, and ``games.outbox`` (beat's sweep) publishes whatever is still pending. Publishing after a
commit never fails the request that committed: errors are logged and the row waits for the relay.

A table's bot turn and its deadline task (``schedule_with``) have a second record: the table row
itself says that it awaits a bot or a deadline, and beat's sweeps act on it whatever happened to
the message (``games.outbox.redrive_stalled_bots``, ``games.play.worker.sweep_deadlines``). Their
rows are stored already marked published, so a commit costs no statement after it to mark them; a
publish that fails, or that the process leaves to the relay, marks the row pending again. A process
that dies between the commit and the publish leaves the turn to the sweeps (within
``STALLED_BOT_SECONDS`` for a bot, ``SWEEP_SECONDS`` after a deadline) rather than to the relay.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import json
import logging
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from datetime import timedelta
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from games import telemetry
from games.models import OutboxMessage
from games.riders import Rider, inserted

log = logging.getLogger(__name__)

# (task name, args, countdown, headers): the headers carry the request id and the time the task is
# due (games.telemetry), which the worker restores and measures when the task starts.
Publisher = Callable[[str, tuple[Any, ...], float | None, dict[str, Any]], None]

# One retry, at once: it reconnects a pooled connection that a broker restart left stale. With the
# socket timeouts of CELERY_BROKER_TRANSPORT_OPTIONS this bounds a publish to a few seconds.
PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}


def _publish(task_name: str, args: tuple[Any, ...], countdown: float | None, headers: dict[str, Any]) -> None:
    # The project's app: config/celery.py makes it the default of every thread of every process
    # (config/__init__.py imports it at start), so this layer needs no arrow back up to config.
    current_app.send_task(
        task_name, args=list(args), countdown=countdown, headers=headers, retry=True, retry_policy=PUBLISH_RETRY_POLICY
    )


_publisher: Publisher = _publish
# After a failed publish, this process leaves new rows to the relay until this time (monotonic), so
# a broker that is down or hung costs one request a timeout, not every request.
_broker_down_until = 0.0
_breaker_lock = threading.Lock()


def set_publisher(publisher: Publisher | None) -> None:
    """Replace how due tasks are published (tests queue them to run them one by one)."""
    global _publisher, _broker_down_until
    _publisher = publisher or _publish
    _broker_down_until = 0.0


def task_key(task_name: str, args: Iterable[Any]) -> str:
    """The task and its arguments in one string: how the sweep finds a task's row. Arguments too
    long for the row's key (an address and a page) are named by their SHA-256 instead."""
    key = f"{task_name}:{json.dumps(list(args), separators=(',', ':'))}"
    if len(key) <= _KEY_LENGTH:
        return key
    return f"{task_name}:{hashlib.sha256(key.encode()).hexdigest()}"


_KEY_LENGTH = OutboxMessage._meta.get_field("key").max_length or 200


def schedule(task_name: str, subject: Any, *args: Any, countdown: float | None = None) -> None:
    """Store ``task_name(subject, *args)`` in the outbox, in the current transaction, and publish
    it once that commits. ``subject`` is what the task is about: a table's id for the game's tasks,
    an address for a mail.

    A countdown longer than ``MAX_TASK_COUNTDOWN`` is not stored at all: the broker would deliver
    it again after its visibility timeout, and the deadline in the database covers it anyway.
    """
    if countdown is not None and countdown > settings.MAX_TASK_COUNTDOWN:
        return
    row = _stored(task_name, subject, args, countdown or 0)
    transaction.on_commit(lambda: publish_after_commit(row))


def schedule_later(task_name: str, subject: Any, *args: Any, seconds: float) -> None:
    """Store ``task_name(subject, *args)`` in the outbox, due in ``seconds``, which may be longer
    than ``MAX_TASK_COUNTDOWN``: nothing is published at the commit, and beat's relay publishes the
    row once it is due within that countdown (``games.outbox.relay``, each ``SWEEP_SECONDS``). For
    the rare task that must wait minutes and has no deadline in the database to cover it (a mail
    tried again)."""
    _stored(task_name, subject, args, seconds)


def _stored(task_name: str, subject: Any, args: tuple[Any, ...], seconds: float) -> OutboxMessage:
    """The outbox row of ``task_name(subject, *args)``, due in ``seconds``."""
    # Ids travel as strings: a row's arguments are JSON.
    task_args = [str(subject), *args]
    # The request id is read now, while the request that made the task due is still in hand.
    return OutboxMessage.objects.create(
        task=task_name,
        args=task_args,
        headers=telemetry.task_headers(seconds, telemetry.current_request_id()),
        key=task_key(task_name, task_args),
        due_at=timezone.now() + timedelta(seconds=seconds),
    )


def schedule_with(task_name: str, table_id: Any, *args: Any, countdown: float | None = None) -> Rider | None:
    """``schedule``'s row as a statement written with the caller's append (a ``Rider``; ``None``
    for a countdown ``schedule`` would not store), which publishes the row after the commit. For a
    table's own tasks, which the table row covers (the module's docstring): the row is stored
    marked published."""
    if countdown is not None and countdown > settings.MAX_TASK_COUNTDOWN:
        return None
    task_args = [str(table_id), *args]
    headers = telemetry.task_headers(countdown, telemetry.current_request_id())
    now = timezone.now()
    row = OutboxMessage(
        task=task_name,
        args=task_args,
        headers=headers,
        key=task_key(task_name, task_args),
        due_at=now + timedelta(seconds=countdown or 0),
        created_at=now,
        published_at=now,
        attempts=0,
    )

    def then(pk: Any) -> None:
        row.pk = pk
        row._state.adding = False
        held = _holding.get()
        if held is not None and held[0] == task_name:
            kept = held[1]
            transaction.on_commit(lambda: kept.append(row))
        else:
            transaction.on_commit(lambda: publish_after_commit(row))

    written = {name: getattr(row, name) for name in _WRITTEN}
    return inserted(OutboxMessage, [written], then=then)


_WRITTEN = ("task", "args", "headers", "key", "due_at", "created_at", "published_at", "attempts")


# Set by ``holding``: the task whose rows are kept, not published, and where they are kept.
_holding: contextvars.ContextVar[tuple[str, list[OutboxMessage]] | None] = contextvars.ContextVar(
    "scheduling_holding", default=None
)


@contextlib.contextmanager
def holding(task_name: str) -> Iterator[list[OutboxMessage]]:
    """Within it, the rows of ``task_name`` that ``schedule_with`` stores are not published once
    their transaction commits: they are kept in the list yielded, for the caller, who means to do
    that task itself (the rows, stored marked published, are then never sent) or else publishes
    them (``publish_after_commit``). A process that dies meanwhile leaves the turn to the sweeps."""
    kept: list[OutboxMessage] = []
    token = _holding.set((task_name, kept))
    try:
        yield kept
    finally:
        _holding.reset(token)


def publish_after_commit(row: OutboxMessage) -> None:
    """Publish a row its transaction just committed, unless this process saw the broker fail
    moments ago; on any error the row is pending for the relay. A row stored marked published
    (``schedule_with``) is not marked again; one left to the relay is marked pending."""
    if time.monotonic() < _broker_down_until:
        if row.published_at is not None:
            _count_attempt(row, published=False, tried=False)
        return
    publish(row, mark=row.published_at is None)


def publish(row: OutboxMessage, *, mark: bool = True) -> bool:
    """Publish ``row`` and (``mark``) mark it published; ``False`` (logged, the row pending) if
    either fails.

    Marking comes after publishing: a process that dies between the two leaves the row pending and
    the relay sends it again, which is harmless because every task checks the table's version.
    """
    global _broker_down_until
    countdown = (row.due_at - timezone.now()).total_seconds()
    try:
        _publisher(row.task, tuple(row.args), countdown if countdown > 0 else None, dict(row.headers))
    except Exception:
        with _breaker_lock:
            _broker_down_until = time.monotonic() + settings.OUTBOX_BROKER_BACKOFF_SECONDS
        log.warning("could not publish %s; the outbox relay will retry it", row.key, exc_info=True)
        _count_attempt(row, published=False)
        return False
    return _count_attempt(row, published=True) if mark else True


def _count_attempt(row: OutboxMessage, *, published: bool, tried: bool = True) -> bool:
    """Mark ``row`` published, or pending (for the relay), counting the attempt if it was ``tried``."""
    # In SQL of its own: the ORM's update cost more to compile than the statement costs to run.
    qn = connection.ops.quote_name
    attempts, published_at = (OutboxMessage._meta.get_field(name) for name in ("attempts", "published_at"))
    sql = (
        f"UPDATE {qn(OutboxMessage._meta.db_table)} SET {qn(attempts.column)} = %s, {qn(published_at.column)} = %s "
        f"WHERE {qn(OutboxMessage._meta.pk.column)} = %s"
    )
    params = [row.attempts + (1 if tried else 0)]
    params.append(published_at.get_db_prep_save(timezone.now(), connection) if published else None)
    params.append(OutboxMessage._meta.pk.get_db_prep_value(row.pk, connection))
    try:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
    except DatabaseError:
        # The database went away after the commit: a pending row stays so and is sent again; a
        # table's own row left marked is the sweeps' to cover (the module's docstring).
        log.warning("could not mark %s; the relay or the sweeps will send it again", row.key, exc_info=True)
        return False
    return published
