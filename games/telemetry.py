"""What the service tells its operators: the request id of the work in hand, and the Prometheus
metrics the write path, the bots and the tasks move.

Nothing here touches the database or Django's models: logging is configured (and imports the
request id from here) before the apps are ready. The gauges read from the database at scrape time
live with the ``/metrics`` view in ``config.observability``.

With ``PROMETHEUS_MULTIPROC_DIR`` set before this module is first imported, prometheus_client keeps
every value in files under that folder, so web and worker processes add up on one scrape
(docs/operations.md); without it each process counts on its own.
"""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from prometheus_client import Counter, Histogram

# --- the request id -------------------------------------------------------------------------------

_request_id: ContextVar[str | None] = ContextVar("request_id", default=None)
_SANE_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")


def sane_request_id(value: str | None) -> str | None:
    """``value`` if it is fit to copy into logs and headers (at most 64 of ``[A-Za-z0-9-_.]``)."""
    return value if value and _SANE_ID.fullmatch(value) else None


def new_request_id() -> str:
    return uuid.uuid4().hex


def current_request_id() -> str | None:
    return _request_id.get()


def bind_request_id(value: str | None) -> None:
    """Tag everything logged from now on in this context (and every task scheduled) with ``value``;
    ``None`` tags nothing. Set, never reset by token: a token resets only in the context that made
    it, and a worker's signals around one task need not run in one (config/celery.py)."""
    _request_id.set(value)


# --- metrics -------------------------------------------------------------------------------------

# Buckets from a fast read to a long poll (LONG_POLL_MAX_SECONDS is 25 by default).
REQUEST_LATENCY = Histogram(
    "http_request_duration_seconds",
    "Time from a request reaching Django to its answer, by resolved route name, method and status class.",
    ["route", "method", "status"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
)
ACTIONS = Counter(
    "game_actions", "Commands applied to tables (committed), by game and who sent them.", ["game", "actor"]
)
EVENTS = Counter("game_events", "Events appended to tables (committed), by game.", ["game"])
BOT_DECISION = Histogram(
    "bot_decision_seconds",
    "Time a bot takes to choose its action, by game.",
    ["game"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5),
)
TASK_QUEUE_DELAY = Histogram(
    "task_queue_delay_seconds",
    "Time from when a task was due (published, plus its countdown) to when a worker started it, by task.",
    ["task"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300),
)


def actor_kind(actor: str) -> str:
    """``user``, ``bot`` or ``system``: the actor's kind, not the actor, keeps the label set small."""
    return actor.partition(":")[0] or "system"


def count_command(game: str, actor: str, events: int) -> None:
    ACTIONS.labels(game=game, actor=actor_kind(actor)).inc()
    EVENTS.labels(game=game).inc(events)


@contextmanager
def timing_bot(game: str) -> Iterator[None]:
    started = time.perf_counter()
    try:
        yield
    finally:
        BOT_DECISION.labels(game=game).observe(time.perf_counter() - started)


# --- task headers ----------------------------------------------------------------------------------

# Carried in the headers of every task that ``games.scheduling`` publishes, read back when it starts.
HEADER_REQUEST_ID = "request_id"
HEADER_DUE_AT = "due_at"


def task_headers(countdown: float | None, request_id: str | None) -> dict[str, str | float]:
    """The headers of a task published now: the request that made it due and when it is due."""
    headers: dict[str, str | float] = {HEADER_DUE_AT: time.time() + (countdown or 0.0)}
    if request_id:
        headers[HEADER_REQUEST_ID] = request_id
    return headers


def observe_task_start(task: str, due_at: float | None) -> None:
    if due_at is not None:
        TASK_QUEUE_DELAY.labels(task=task).observe(max(0.0, time.time() - float(due_at)))
