"""Publishing Celery tasks only after the transaction that made them due has committed.

A task published inside an open transaction could run before the commit and find nothing, or
run for a command that is then rolled back. Everything goes through ``schedule``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import transaction

from games import telemetry

# (task name, args, countdown, headers): the headers carry the request id and the time the task is
# due (games.telemetry), which the worker restores and measures when the task starts.
Publisher = Callable[[str, tuple[Any, ...], float | None, dict[str, Any]], None]


def _publish(task_name: str, args: tuple[Any, ...], countdown: float | None, headers: dict[str, Any]) -> None:
    from config.celery import app

    app.send_task(task_name, args=[str(a) for a in args[:1]] + list(args[1:]), countdown=countdown, headers=headers)


_publisher: Publisher = _publish


def set_publisher(publisher: Publisher | None) -> None:
    """Replace how due tasks are published (tests queue them to run them one by one)."""
    global _publisher
    _publisher = publisher or _publish


def schedule(task_name: str, *args: Any, countdown: float | None = None) -> None:
    """Publish ``task_name(*args)`` once the current transaction commits.

    A countdown longer than ``MAX_TASK_COUNTDOWN`` is not sent at all: the broker would deliver
    it again after its visibility timeout, and the deadline in the database covers it anyway.
    """
    if countdown is not None and countdown > settings.MAX_TASK_COUNTDOWN:
        return
    # The request id is read now, while the request that made the task due is still in hand; the due
    # time at commit, when the task is really published.
    request_id = telemetry.current_request_id()

    transaction.on_commit(lambda: _publisher(task_name, args, countdown, telemetry.task_headers(countdown, request_id)))
