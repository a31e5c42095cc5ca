"""Server-sent events: a table's events as each seat sees them, and a person's own notices.

The views are DRF views like the others (the same authentication, permissions, throttles and
error shapes); they answer with a ``StreamingHttpResponse`` over an async iterator, which the ASGI
server drives on its event loop: an idle stream holds no thread and no database connection. The
iterators wait on ``games.notify`` (woken at commit) and read the database on a few threads of
their own (``STREAM_READ_THREADS``).
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import threading
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Any, TypeVar

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import InterfaceError, OperationalError, connection
from django.http import StreamingHttpResponse
from django.utils import translation
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.views import APIView

from api import limits
from api import serializers as s
from games import notify, selectors
from games.engine.words import T
from games.errors import InvalidRequest
from games.words import say_all
from ledger.times import rfc3339

log = logging.getLogger(__name__)

R = TypeVar("R")
READ_LIMIT = 500

_executor: ThreadPoolExecutor | None = None
_executor_lock = threading.Lock()


def _reader() -> ThreadPoolExecutor:
    # Made on first use, in the process that serves (never before a fork).
    global _executor
    with _executor_lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(max_workers=settings.STREAM_READ_THREADS, thread_name_prefix="stream-read")
        return _executor


def _guarded(fn: Callable[..., R], *args: Any) -> R:
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


async def _db(fn: Callable[..., R], *args: Any) -> R:
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_reader(), functools.partial(_guarded, fn, *args))


def _in_background(fn: Callable[..., Any], *args: Any) -> None:
    """Run ``fn`` on a reading thread without waiting for it (a stream's last words, said while it
    is being cancelled)."""
    _reader().submit(_guarded, fn, *args)


# The stream's slot (api/limits.py) is refreshed every this many heartbeats: with a thousand idle
# streams, a cache call each per heartbeat was most of the process's idle CPU.
STREAM_SLOT_REFRESH_BEATS = 4


async def _beat(beats: int, slot: tuple[str, str]) -> int:
    beats += 1
    if beats % STREAM_SLOT_REFRESH_BEATS == 0:
        await _db(limits.refresh_stream_slot, *slot)
    return beats


def _let_go_of_connection() -> None:
    """The request's thread keeps its connection until the response ends, which for a stream is
    hours: give it back now."""
    if not connection.in_atomic_block:
        connection.close()


def _frame(event: str | None, data: Any, event_id: int | None = None) -> str:
    lines = []
    if event_id is not None:
        lines.append(f"id: {event_id}")
    if event:
        lines.append(f"event: {event}")
    lines.append("data: " + json.dumps(data, cls=DjangoJSONEncoder, separators=(",", ":")))
    return "\n".join(lines) + "\n\n"


def wire_time(value: str | None) -> str | None:
    """A time of a stream's payload as every answer writes one: RFC 3339 ending in ``Z``."""
    return rfc3339(datetime.fromisoformat(value)) if value else None


def _stream(iterator: AsyncIterator[str]) -> StreamingHttpResponse:
    response = StreamingHttpResponse(iterator, content_type="text/event-stream; charset=utf-8")
    response["Cache-Control"] = "no-cache, no-transform"
    # nginx buffers responses unless told not to (docs/operations.md).
    response["X-Accel-Buffering"] = "no"
    return response


class _StreamView(APIView):
    def perform_content_negotiation(self, request, force=False):  # type: ignore[no-untyped-def]
        # EventSource asks for text/event-stream only; refusals are still answered in JSON.
        return super().perform_content_negotiation(request, force=True)


def resume_point(request) -> int:  # type: ignore[no-untyped-def]
    """Where a table stream starts: after ``Last-Event-ID`` (a reconnecting EventSource sends the
    last ``id`` it saw), else after ``?after=``, else from the first event."""
    raw = request.headers.get("Last-Event-ID") or request.query_params.get("after") or "0"
    try:
        after = int(raw)
    except ValueError:
        raise InvalidRequest(T("Last-Event-ID and 'after' are event numbers (integers, 0 or more).")) from None
    if after < 0:
        raise InvalidRequest(T("Last-Event-ID and 'after' are event numbers (integers, 0 or more)."))
    return after


STREAM_RESPONSE = OpenApiResponse(
    description="text/event-stream: one message per event (`id:` its seq, `event:` its type, `data:` "
    "the caller's view of the event, as the events endpoint gives it) and a comment every "
    "STREAM_HEARTBEAT_SECONDS."
)


class TableStreamView(_StreamView):
    @extend_schema(
        parameters=[
            OpenApiParameter("after", int, required=False),
            OpenApiParameter("Last-Event-ID", str, OpenApiParameter.HEADER, required=False),
        ],
        responses={200: STREAM_RESPONSE, 400: s.ErrorSerializer, 404: s.ErrorSerializer, 429: s.ErrorSerializer},
    )
    def get(self, request, table_id):
        after = resume_point(request)
        table = selectors.get_table(table_id)
        slot = limits.take_stream_slot(request.user.pk)
        _let_go_of_connection()
        # The stream outlives the request, and its language with it: each read is said in this one.
        return _stream(table_events(table.pk, request.user, after, slot, translation.get_language()))


def _read_events(table_id: Any, user: Any, after: int, language: str | None = None) -> list[dict[str, Any]]:
    table = selectors.get_table(table_id)
    events = selectors.events_view(table, selectors.seat_of(table, user), after=after, limit=READ_LIMIT)
    return say_all(events, language)


async def table_events(
    table_id: Any, user: Any, after: int, slot: tuple[str, str], language: str | None = None
) -> AsyncIterator[str]:
    """Every event after ``after`` as ``user``'s seat sees it, then each new one as it commits,
    its words in ``language`` (the request's)."""
    waiter: notify.Waiter | None = None
    live: notify.Hub | None = None
    try:
        live = await asyncio.to_thread(notify.hub)
        waiter = live.watch_table(table_id, notify.Waiter(asyncio.get_running_loop()))
        yield f"retry: {settings.STREAM_RETRY_MS}\n\n"
        beats = 0
        while True:
            # Cleared before reading: a notice that lands during the read wakes the next wait.
            waiter.clear()
            items = await _db(_read_events, table_id, user, after, language)
            for item in items:
                yield _frame(item["type"], item, item["seq"])
                after = item["seq"]
            if len(items) >= READ_LIMIT:
                continue
            while not await waiter.wait(settings.STREAM_HEARTBEAT_SECONDS):
                yield ": keep-alive\n\n"
                beats = await _beat(beats, slot)
    finally:
        if live is not None and waiter is not None:
            live.forget(waiter)
        _in_background(limits.release_stream_slot, *slot)


class MyStreamView(_StreamView):
    @extend_schema(
        responses={
            200: OpenApiResponse(
                description="text/event-stream of notices for the caller (times in RFC 3339, ending in Z)."
            ),
            429: s.ErrorSerializer,
        }
    )
    def get(self, request):
        slot = limits.take_stream_slot(request.user.pk)
        _let_go_of_connection()
        return _stream(user_notices(request.user, slot))


class _Notices:
    """A person's stream: what notices become, and the deadline timers of the turns it announced."""

    def __init__(self, user_id: int, waiter: notify.Waiter) -> None:
        self.user_id = user_id
        self.waiter = waiter
        self.loop = asyncio.get_running_loop()
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.fired: list[str] = []

    def your_turn(self, table: str, version: int, deadline: str | None) -> str:
        deadline = wire_time(deadline)
        self.watch_deadline(table, version, deadline)
        return _frame("your_turn", {"table": table, "version": version, "deadline": deadline})

    def drain(self) -> tuple[list[str], bool]:
        """The frames of the notices that came and the deadline warnings that fired, and whether
        the listener asked for a resync (it reconnected, so notices may be missing)."""
        frames: list[str] = []
        resync = False
        for notice in self.waiter.take():
            if notice.get("k") == "resync":
                resync = True
            else:
                frames.extend(self.frames(notice))
        frames.extend(self.fired)
        self.fired.clear()
        return frames, resync

    def frames(self, notice: dict[str, Any]) -> list[str]:
        if notice.get("k") == "payout":
            fields = ("payout", "table", "status", "amount", "currency")
            return [_frame("payout_decided", {key: notice.get(key) for key in fields})]
        if notice.get("k") == "dispute":
            fields = ("dispute", "table", "hand_no", "state")
            return [_frame("dispute_changed", {key: notice.get(key) for key in fields})]
        table, version = notice["table"], notice["v"]
        self.cancel(table)
        out = []
        brief = {"table": table, "version": version}
        if notice.get("started") and self.user_id in notice.get("seated", ()):
            out.append(_frame("table_started", brief))
        if self.user_id in notice.get("to_act", ()):
            out.append(self.your_turn(table, version, notice.get("deadline")))
        if notice.get("ended") and self.user_id in notice.get("seated", ()):
            out.append(_frame("table_ended", brief))
        return out

    def watch_deadline(self, table: str, version: int, deadline: str | None) -> None:
        """An asyncio timer ``DEADLINE_WARNING_SECONDS`` before the deadline; any later notice of
        the table cancels it (the table moved, so that deadline is gone)."""
        self.cancel(table)
        if deadline is None:
            return
        at = datetime.fromisoformat(deadline).timestamp()
        now = self.loop.time()
        wall = datetime.now().timestamp()
        left = at - wall
        if left <= 0:
            return
        delay = max(0.0, left - settings.DEADLINE_WARNING_SECONDS)
        self.timers[table] = self.loop.call_at(now + delay, self._warn, table, version, deadline, at)

    def _warn(self, table: str, version: int, deadline: str, at: float) -> None:
        self.timers.pop(table, None)
        seconds = max(0.0, at - datetime.now().timestamp())
        self.fired.append(
            _frame(
                "deadline",
                {"table": table, "version": version, "deadline": deadline, "seconds_left": round(seconds, 1)},
            )
        )
        self.waiter.event.set()

    def cancel(self, table: str) -> None:
        timer = self.timers.pop(table, None)
        if timer is not None:
            timer.cancel()

    def close(self) -> None:
        for timer in self.timers.values():
            timer.cancel()
        self.timers.clear()


async def user_notices(user: Any, slot: tuple[str, str]) -> AsyncIterator[str]:
    """Your turn, a table you sit at started or ended, your turn's deadline nearing, a payout of
    yours decided. On opening (and after the listener reconnected) the tables awaiting you now."""
    waiter: notify.Waiter | None = None
    live: notify.Hub | None = None
    notices: _Notices | None = None
    try:
        live = await asyncio.to_thread(notify.hub)
        waiter = live.watch_user(user.pk, notify.Waiter(asyncio.get_running_loop()))
        notices = _Notices(user.pk, waiter)
        yield f"retry: {settings.STREAM_RETRY_MS}\n\n"
        beats = 0
        resync = True
        while True:
            waiter.clear()
            if resync:
                resync = False
                for row in await _db(selectors.awaiting, user):
                    if row["your_turn"]:
                        yield notices.your_turn(row["table"], row["version"], row["deadline"])
            frames, resync = notices.drain()
            for frame in frames:
                yield frame
            if resync:
                continue
            while not await waiter.wait(settings.STREAM_HEARTBEAT_SECONDS):
                yield ": keep-alive\n\n"
                beats = await _beat(beats, slot)
    finally:
        if notices is not None:
            notices.close()
        if live is not None and waiter is not None:
            live.forget(waiter)
        _in_background(limits.release_stream_slot, *slot)
