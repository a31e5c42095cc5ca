"""What the streams share to reach the database and the wire: a few reading threads of their own
(``STREAM_READ_THREADS``), each read giving its connection back when done, and the text of one
server-sent message.

An idle stream holds no thread and no connection: it waits on the event loop, and borrows a
reading thread (and, with the pool, a connection) only for the length of a read."""

from __future__ import annotations

import asyncio
import functools
import json
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import InterfaceError, OperationalError, connection

R = TypeVar("R")

_executor: ThreadPoolExecutor | None = None
_executor_lock = threading.Lock()


def reader() -> ThreadPoolExecutor:
    """The process's reading threads, made on first use in the process that serves (never before
    a fork)."""
    global _executor
    with _executor_lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(max_workers=settings.STREAM_READ_THREADS, thread_name_prefix="stream-read")
        return _executor


def guarded(fn: Callable[..., R], *args: Any) -> R:
    """``fn(*args)`` on a reading thread: once more on a new connection if the kept one was closed
    by the database, and the connection given back after (unless ``STREAM_KEEP_CONNECTIONS``)."""
    try:
        try:
            return fn(*args)
        except (InterfaceError, OperationalError):
            # A kept connection the database closed meanwhile: once more on a new one.
            connection.close()
            return fn(*args)
    finally:
        if not settings.STREAM_KEEP_CONNECTIONS:
            connection.close()


async def db(fn: Callable[..., R], *args: Any) -> R:
    """``fn(*args)`` on a reading thread, awaited from the event loop."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(reader(), functools.partial(guarded, fn, *args))


def in_background(fn: Callable[..., Any], *args: Any) -> None:
    """Run ``fn`` on a reading thread without waiting for it (a stream's last words, said while it
    is being cancelled)."""
    reader().submit(guarded, fn, *args)


def frame(event: str | None, data: Any, event_id: int | None = None) -> str:
    """One server-sent message: its ``id``, its ``event`` and its ``data`` as compact JSON."""
    lines = []
    if event_id is not None:
        lines.append(f"id: {event_id}")
    if event:
        lines.append(f"event: {event}")
    lines.append("data: " + json.dumps(data, cls=DjangoJSONEncoder, separators=(",", ":")))
    return "\n".join(lines) + "\n\n"


def text_frame(event: str, text: str, event_id: int | None = None) -> str:
    """A message whose ``data`` is JSON text already written."""
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {text}\n\n"
