"""Server-sent events: a table's events as each seat sees them, and a person's own notices.

The views are DRF views like the others (the same authentication, permissions, throttles and
error shapes); they answer with a ``StreamingHttpResponse`` over an async iterator, which the ASGI
server drives on its event loop: an idle stream holds no thread and no database connection. The
iterators wait on ``games.notify`` (woken at commit) and read the database on a few threads of
their own (``STREAM_READ_THREADS``).

A stream goes on only while the token or session that opened it does (``api.stream_rights``): it
checks them at every wake and, against the expiry held in memory, at every heartbeat, and ends
with a ``stream_end`` message saying why. A finished table's stream ends the same way once its last
events are sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import threading
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any, TypeVar

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import InterfaceError, OperationalError, connection
from django.http import StreamingHttpResponse
from django.utils import translation
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder
from rest_framework.views import APIView

from api import limits, sentences, stream_rights
from api import serializers as s
from api.stream_rights import Rights
from games import notify, selectors
from games.engine.words import T
from games.errors import InvalidRequest
from games.models import Table
from games.words import say_all
from ledger.times import rfc3339, seconds_left

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
    hours: give it back now (``_StreamView.dispatch``)."""
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


class _Line:
    """What one open stream keeps between wakes: its slot, its heartbeats, its rights and why it
    ended (an ``ENDS`` code) once it has."""

    def __init__(
        self,
        slot: tuple[str, str],
        rights: Rights,
        language: str | None,
        *,
        sentences: bool = False,
        view: bool = False,
    ) -> None:
        self.slot = slot
        self.rights = rights
        self.language = language
        # ``?sentences=true``: each event with its sentence for players (``api.sentences``).
        self.sentences = sentences
        # ``?view=true``: the seat's table view after each wake's events.
        self.view = view
        self.beats = 0
        self.ended: str | None = None

    async def idle(self, waiter: notify.Waiter) -> AsyncIterator[str]:
        """Heartbeats until ``waiter`` wakes. Once the expiry held in memory has passed, the rights'
        exact check (else an idle stream makes no query but its slot's), which may end the line."""
        while not await waiter.wait(settings.STREAM_HEARTBEAT_SECONDS):
            if self.rights.lapsed():
                self.ended = await _db(self.rights.check)
                if self.ended is not None:
                    return
            yield ": keep-alive\n\n"
            self.beats = await _beat(self.beats, self.slot)

    def end(self, code: str) -> str:
        """The stream's last message: why it ends (``stream_rights.ENDS``), with no ``id`` (a table
        stream's ``Last-Event-ID`` stays its last event's)."""
        self.ended = code
        return _frame(stream_rights.END_EVENT, stream_rights.end_data(code, self.language))


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
    def dispatch(self, request, *args, **kwargs):  # type: ignore[no-untyped-def]
        # A stream's synchronous part runs on a thread every stream start shares (config/asgi.py):
        # its connection goes back as soon as the answer is made, a refusal's too, rather than
        # when the answer ends, which for a stream is hours.
        try:
            return super().dispatch(request, *args, **kwargs)
        finally:
            _let_go_of_connection()

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


def ends_described(*, table: bool) -> str:
    """The schema's words for how a stream ends by itself (docs/api.md, "How a stream ends")."""
    codes = (
        "`token_revoked` (the token was revoked or logged out), `token_expired`, `session_ended` (the "
        "browser session logged out or expired), `account_inactive`"
    )
    if table:
        codes += ", `table_finished` (every event of the finished table was sent)"
    return (
        "The stream's last message, when it ends by itself, is `event: stream_end` with `data: "
        '{"code", "detail"}` (no `id`; `detail` in the reader\'s language); `code` says why: '
        + codes
        + ". A revocation ends the token's streams within a second, an expiry at the next heartbeat. "
        "A reconnect after it is refused (401)" + (" or, for a finished table, answered 204." if table else ".")
    )


STREAM_RESPONSE = OpenApiResponse(
    description="text/event-stream: one message per event (`id:` its seq, `event:` its type, `data:` "
    "the caller's view of the event, as the events endpoint gives it) and a comment every "
    "STREAM_HEARTBEAT_SECONDS. With `view=true`, after the events of each wake one message `event: "
    "table` (no `id`) whose `data` is the caller's view of the table, as `GET /tables/{id}/` answers "
    "it, at a version no older than the last event sent: a client redraws from it without asking "
    "again. " + ends_described(table=True)
)

VIEW_PARAMETER = OpenApiParameter(
    "view",
    bool,
    required=False,
    description="`true`: after the events of each wake, the caller's view of the table (`event: table`).",
)


def wants_view(request) -> bool:  # type: ignore[no-untyped-def]
    """Whether a table stream was asked for the table's view after its events (``?view=true``)."""
    raw = request.query_params.get("view", "false")
    if raw not in ("true", "false"):
        raise InvalidRequest(T("'view' is true or false."), field="view")
    return raw == "true"


FINISHED_RESPONSE = OpenApiResponse(
    description="The table has finished and nothing after the resume point is left to send: no stream "
    "(an EventSource stops reconnecting on 204)."
)


class TableStreamView(_StreamView):
    @extend_schema(
        parameters=[
            OpenApiParameter("after", int, required=False),
            OpenApiParameter(
                "sentences",
                bool,
                required=False,
                description="`true`: each event carries its `sentence` for players, in the request's "
                "language, as the events endpoint gives it with `sentences=true`.",
            ),
            VIEW_PARAMETER,
            OpenApiParameter("Last-Event-ID", str, OpenApiParameter.HEADER, required=False),
        ],
        responses={
            200: STREAM_RESPONSE,
            204: FINISHED_RESPONSE,
            400: s.ErrorSerializer,
            404: s.ErrorSerializer,
            429: s.ErrorSerializer,
        },
    )
    def get(self, request, table_id):
        after = resume_point(request)
        view = wants_view(request)
        wanted = s.SentencesQuerySerializer(data=request.query_params)
        wanted.is_valid(raise_exception=True)
        table = selectors.get_table(table_id)
        if table.status == Table.Status.FINISHED and after >= table.version:
            # A reconnect after the stream's table_finished end: nothing more will ever come.
            return Response(status=204)
        rights = stream_rights.rights_of(request)
        slot = limits.take_stream_slot(request.user.pk)
        # The stream outlives the request, and its language with it: each read is said in this one.
        line = _Line(slot, rights, translation.get_language(), sentences=wanted.validated_data["sentences"], view=view)
        return _stream(table_events(table.pk, request.user, after, line))


def _read_events(
    table_id: Any, user: Any, after: int, line: _Line
) -> tuple[list[dict[str, Any]], bool, str | None, str | None]:
    """The events after ``after`` as ``user``'s seat sees them, whether the table has finished, why
    the stream must end instead (an ``ENDS`` code) if its rights are gone, and, for a line that
    asked for views, the seat's table view as JSON text when there were events (and no more than a
    read's worth). One read of the table row and its seats serves the events and the view; the view's
    state is loaded after the events, so its version is never behind the last of them."""
    table = selectors.table_to_view(table_id) if line.view else selectors.get_table(table_id)
    # The seats are read for the events' player names anyway; the reader's seat is found among them.
    seat = selectors.seat_among_rows(table, user)
    events = selectors.events_view(table, seat, after=after, limit=READ_LIMIT)
    view = selectors.table_view(table, seat, viewer=user) if line.view and 0 < len(events) < READ_LIMIT else None
    # Checked after the reads: rights that still hold now held while it read (a token revoked or
    # expired never comes back), so no event read after a revocation is ever sent.
    ended = line.rights.check()
    if ended is not None:
        return [], False, ended, None
    if line.sentences:
        with translation.override(line.language) if line.language else contextlib.nullcontext():
            events = sentences.with_sentences(table, events)
    text = None
    if view is not None:
        # Written as the table's own answer writes it (DRF's encoder).
        with translation.override(line.language):
            text = json.dumps(say_all(view), cls=JSONEncoder, ensure_ascii=False, separators=(",", ":"))
    return say_all(events, line.language), table.status == Table.Status.FINISHED, None, text


async def table_events(table_id: Any, user: Any, after: int, line: _Line) -> AsyncIterator[str]:
    """Every event after ``after`` as ``user``'s seat sees it, then each new one as it commits,
    its words in the line's language (the request's); ends (``stream_end``) when the rights that
    opened it do, or once the table has finished and its last event is sent."""
    waiter: notify.Waiter | None = None
    live: notify.Hub | None = None
    try:
        live = await asyncio.to_thread(notify.hub)
        waiter = live.watch_table(table_id, notify.Waiter(asyncio.get_running_loop()))
        live.watch_rights(line.rights.user_id, waiter)
        yield f"retry: {settings.STREAM_RETRY_MS}\n\n"
        while True:
            # Cleared before reading: a notice that lands during the read wakes the next wait.
            waiter.clear()
            items, finished, ended, view = await _db(_read_events, table_id, user, after, line)
            if ended is not None:
                yield line.end(ended)
                return
            for item in items:
                yield _frame(item["type"], item, item["seq"])
                after = item["seq"]
            if len(items) >= READ_LIMIT:
                continue
            if view is not None:
                yield f"event: table\ndata: {view}\n\n"
            if finished:
                yield line.end(stream_rights.TABLE_FINISHED)
                return
            async for beat in line.idle(waiter):
                yield beat
            if line.ended is not None:
                yield line.end(line.ended)
                return
    finally:
        if live is not None and waiter is not None:
            live.forget(waiter)
        _in_background(limits.release_stream_slot, *line.slot)


class MyStreamView(_StreamView):
    @extend_schema(
        responses={
            200: OpenApiResponse(
                description="text/event-stream of notices for the caller (times in RFC 3339, ending in Z). "
                + ends_described(table=False)
            ),
            429: s.ErrorSerializer,
        }
    )
    def get(self, request):
        rights = stream_rights.rights_of(request)
        slot = limits.take_stream_slot(request.user.pk)
        return _stream(user_notices(request.user, _Line(slot, rights, translation.get_language())))


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
        left = seconds_left(datetime.fromisoformat(deadline)) if deadline else None
        return _frame("your_turn", {"table": table, "version": version, "deadline": deadline, "seconds_left": left})

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
        self.fired.append(
            _frame(
                "deadline",
                {
                    "table": table,
                    "version": version,
                    "deadline": deadline,
                    "seconds_left": seconds_left(datetime.fromtimestamp(at, UTC)),
                },
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


async def user_notices(user: Any, line: _Line) -> AsyncIterator[str]:
    """Your turn, a table you sit at started or ended, your turn's deadline nearing, a payout of
    yours decided. On opening (and after the listener reconnected) the tables awaiting you now.
    Ends (``stream_end``) when the rights that opened it do."""
    waiter: notify.Waiter | None = None
    live: notify.Hub | None = None
    notices: _Notices | None = None
    try:
        live = await asyncio.to_thread(notify.hub)
        waiter = live.watch_user(user.pk, notify.Waiter(asyncio.get_running_loop()))
        live.watch_rights(line.rights.user_id, waiter)
        notices = _Notices(user.pk, waiter)
        yield f"retry: {settings.STREAM_RETRY_MS}\n\n"
        resync = True
        while True:
            waiter.clear()
            frames: list[str] = []
            if resync:
                resync = False
                for row in await _db(selectors.awaiting, user):
                    if row["your_turn"]:
                        frames.append(notices.your_turn(row["table"], row["version"], row["deadline"]))
            drained, resync = notices.drain()
            frames.extend(drained)
            # Every wake (a notice, a deadline, a revocation, a reconnected listener) checks the
            # rights exactly before anything gathered is sent.
            ended = await _db(line.rights.check)
            if ended is not None:
                yield line.end(ended)
                return
            for frame in frames:
                yield frame
            if resync:
                continue
            async for beat in line.idle(waiter):
                yield beat
            if line.ended is not None:
                yield line.end(line.ended)
                return
    finally:
        if notices is not None:
            notices.close()
        if live is not None and waiter is not None:
            live.forget(waiter)
        _in_background(limits.release_stream_slot, *line.slot)
