"""The Celery application: bot turns, turn timers and eliminations."""

from __future__ import annotations

import os
from typing import Any

from celery import Celery, Task
from celery.signals import setup_logging, task_postrun, task_prerun

from config import broker
from games import telemetry

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
broker.install()

app = Celery("config")
# The default app of every thread, which is what ``celery.current_app`` gives where no app was made
# current (games.scheduling publishes through it). Celery's Django fixup does this too, but only if
# no other app became the default first.
app.set_default()
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@setup_logging.connect
def _log_as_django_does(**_: Any) -> None:
    """Workers and beat log through the project's LOGGING (JSON, with the request id, LOG_LEVEL)
    instead of Celery's own handlers and ``--loglevel``: one format for every process."""
    from logging.config import dictConfig

    from django.conf import settings

    dictConfig(settings.LOGGING)


def _header(task: Task, name: str) -> Any:
    # A worker finds custom headers on the request itself (protocol 2 merges them into the
    # message's headers); a task run with ``apply(headers=...)`` keeps them under ``headers``.
    request = task.request
    value = getattr(request, name, None)
    return value if value is not None else (getattr(request, "headers", None) or {}).get(name)


# Where a run keeps the request id that was current before its own: on the run's request, which
# Celery keeps per thread and per run. Not in a registry keyed by task id, which two runs of one id
# at once (a redelivered task still running) would share, each then resetting the other's token in
# the wrong thread's context (ValueError: "... was created in a different Context").
_PREVIOUS = "request_id_before"


@task_prerun.connect
def _task_started(task: Task, **_: Any) -> None:
    """The task logs under the id of the request that scheduled it, and its wait is measured."""
    telemetry.observe_task_start(task.name, _header(task, telemetry.HEADER_DUE_AT))
    setattr(task.request, _PREVIOUS, telemetry.current_request_id())
    telemetry.bind_request_id(telemetry.sane_request_id(_header(task, telemetry.HEADER_REQUEST_ID)))


@task_postrun.connect
def _task_finished(task: Task, **_: Any) -> None:
    """The id before the run is current again (a task run eagerly inside a request gives the
    request its own back). Set, not reset by token: setting cannot fail in any context."""
    telemetry.bind_request_id(getattr(task.request, _PREVIOUS, None))
