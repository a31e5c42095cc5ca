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
import json
import logging
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.db import connection
from django.http import StreamingHttpResponse
from django.urls import reverse
from django.utils import translation
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder
from rest_framework.views import APIView

from api import limits, parsers, sentences, stream_feed, stream_rights
from api import serializers as s
from api.stream_feed import READ_LIMIT, Alarm, Member
from api.stream_io import db, frame, in_background, text_frame
from api.stream_rights import Rights
from api.stream_schema import FINISHED_RESPONSE, STREAM_RESPONSE, VIEW_PARAMETER, ends_described
from games import notify, selectors
from games.engine.words import T
from games.errors import InvalidRequest, ServiceError
from games.models import Table
from games.words import say_all
from ledger.times import rfc3339, seconds_left

log = logging.getLogger(__name__)

# The stream's slot (api/limits.py) is refreshed every this many heartbeats: with a thousand idle
# streams, a cache call each per heartbeat was most of the process's idle CPU.
STREAM_SLOT_REFRESH_BEATS = 4


async def _beat(beats: int, slot: tuple[str, str]) -> int:
    beats += 1
    if beats % STREAM_SLOT_REFRESH_BEATS == 0:
        await db(limits.refresh_stream_slot, *slot)
    return beats


def _let_go_of_connection() -> None:
    """The request's thread keeps its connection until the response ends, which for a stream is
    hours: give it back now (``_StreamView.dispatch``)."""
    if not connection.in_atomic_block:
        connection.close()


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
        # A table stream's position: the last event (or the view's version) it has sent.
        self.after = 0
        self.beats = 0
        self.ended: str | None = None

    async def idle(self, waiter: notify.Waiter) -> AsyncIterator[str]:
        """Heartbeats until ``waiter`` wakes. Once the expiry held in memory has passed, the rights'
        exact check (else an idle stream makes no query but its slot's), which may end the line."""
        while not await waiter.wait(settings.STREAM_HEARTBEAT_SECONDS):
            if self.rights.lapsed():
                self.ended = await db(self.rights.check)
                if self.ended is not None:
                    return
            yield ": keep-alive\n\n"
            self.beats = await _beat(self.beats, self.slot)

    def end(self, code: str) -> str:
        """The stream's last message: why it ends (``stream_rights.ENDS``), with no ``id`` (a table
        stream's ``Last-Event-ID`` stays its last event's)."""
        self.ended = code
        return frame(stream_rights.END_EVENT, stream_rights.end_data(code, self.language))


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


def resume_point(request) -> int | None:  # type: ignore[no-untyped-def]
    """Where a table stream starts: after ``Last-Event-ID`` (a reconnecting EventSource sends the
    last ``id`` it saw), else after ``?after=``; ``None`` when neither is given (the stream starts
    from the seat's view of the table)."""
    raw = request.headers.get("Last-Event-ID") or request.query_params.get("after")
    if raw is None or raw == "":
        return None
    # ASCII digits alone, as every integer parameter: int() would take " 1", "+1", "1_0" and other scripts' digits.
    if not parsers.is_whole_number(raw) or raw.startswith("-"):
        raise InvalidRequest(T("Last-Event-ID and 'after' are event numbers (integers, 0 or more)."))
    return int(raw)


class ResumeTooOld(ServiceError):
    status_code = 409
    code = "resume_too_old"


def check_resumable(table: Table, after: int) -> None:
    """A position more than ``STREAM_RESUME_LIMIT`` events behind the table is not streamed: the
    answer names the paged events endpoint to catch up with, after which the stream is opened
    again from the last event read."""
    limit = int(settings.STREAM_RESUME_LIMIT)
    if table.version - after <= limit:
        return
    catch_up = f"{reverse('table-events', args=[table.pk])}?after={after}"
    raise ResumeTooOld(
        T(
            "The stream resumes at most {limit} events back, and this table is {behind} events past "
            "the position asked for. Read them from the events endpoint, then open the stream again.",
            limit=limit,
            behind=table.version - after,
        ),
        current_version=table.version,
        catch_up=catch_up,
    )


def wants_view(request) -> bool:  # type: ignore[no-untyped-def]
    """Whether a table stream was asked for the table's view after its events (``?view=true``)."""
    raw = request.query_params.get("view", "false")
    if raw not in ("true", "false"):
        raise InvalidRequest(T("'view' is true or false."), field="view")
    return raw == "true"


class TableStreamView(_StreamView):
    @extend_schema(
        parameters=[
            OpenApiParameter(
                "after",
                int,
                required=False,
                description="Stream the events after this one (at most STREAM_RESUME_LIMIT behind the "
                "table); without it (or `Last-Event-ID`) the stream starts from your view of the table.",
            ),
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
            409: s.ErrorSerializer,
            429: s.ErrorSerializer,
        },
    )
    def get(self, request, table_id):
        after = resume_point(request)
        view = wants_view(request)
        wanted = s.SentencesQuerySerializer(data=request.query_params)
        wanted.is_valid(raise_exception=True)
        table = selectors.get_table(table_id)
        if after is not None:
            if table.status == Table.Status.FINISHED and after >= table.version:
                # A reconnect after the stream's table_finished end: nothing more will ever come.
                return Response(status=204)
            check_resumable(table, after)
        rights = stream_rights.rights_of(request)
        # The stream outlives the request, and its language with it: each read is said in this one.
        line = _Line(
            ("", ""), rights, translation.get_language(), sentences=wanted.validated_data["sentences"], view=view
        )
        seated = selectors.seat_of(table, request.user) is not None
        owner = table.owner_id == request.user.pk
        member = Member(request.user, line, spectator=not (seated or owner), owner=owner)
        stream_feed.admit(table, member)
        try:
            line.slot = limits.take_stream_slot(request.user.pk)
        except BaseException:
            member.close()
            raise
        response = _stream(table_events(table.pk, request.user, after, line, member))
        # Should the iterator never run (the client went during the start), closing the response
        # still gives the place in the table's feed back.
        response._resource_closers.append(member.close)
        return response


def _read_view(table_id: Any, user: Any, line: _Line) -> tuple[str, int, bool, str | None]:
    """The seat's view of the table as JSON text, its version, whether the table has finished, and
    why the stream must end instead (an ``ENDS`` code) if its rights are gone (checked after the
    read, as ``_read_events`` does)."""
    table = selectors.table_to_view(table_id)
    seat = selectors.seat_among_rows(table, user)
    view = selectors.table_view(table, seat, viewer=user)
    ended = line.rights.check()
    if ended is not None:
        return "", 0, False, ended
    with translation.override(line.language):
        text = json.dumps(say_all(view), cls=JSONEncoder, ensure_ascii=False, separators=(",", ":"))
    return text, view["version"], table.status == Table.Status.FINISHED, None


def _read_events(
    table_id: Any, user: Any, after: int, line: _Line
) -> tuple[list[dict[str, Any]], bool, str | None, str | None]:
    """The events after ``after`` as ``user``'s seat sees them, whether the table has finished, why
    the stream must end instead (an ``ENDS`` code) if its rights are gone, and, for a line that
    asked for views, the seat's table view as JSON text when there were events (and no more than a
    read's worth). A stream's own read, as it resumes from a position (the table's feed serves the
    rest). One read of the table row and its seats serves the events and the view; the view's state
    is loaded after the events, so its version is never behind the last of them."""
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


async def _read_on(table_id: Any, user: Any, line: _Line, upto: int | None = None) -> AsyncIterator[str]:
    """The stream's own reads from its position, until it has read everything (or past ``upto``):
    its start from a position, or what it missed while it was slow. Ends the line once the table
    has finished and its last event is sent, or when its rights are gone."""
    while True:
        items, finished, ended, view = await db(_read_events, table_id, user, line.after, line)
        if ended is not None:
            yield line.end(ended)
            return
        for item in items:
            yield frame(item["type"], item, item["seq"])
            line.after = item["seq"]
        if len(items) >= READ_LIMIT and (upto is None or line.after < upto):
            continue
        if view is not None:
            yield text_frame("table", view)
        if finished and len(items) < READ_LIMIT:
            yield line.end(stream_rights.TABLE_FINISHED)
        return


async def _from_batch(
    table_id: Any, user: Any, line: _Line, member: Member, batch: stream_feed.Batch
) -> AsyncIterator[str]:
    """What one read of the table's feed sends on this stream: the events after its position, as
    its own seat sees them, then its view if it asked for views; its end if the rights that opened
    it are gone, or once the table has finished and its last event is sent."""
    if batch.error is not None:
        raise RuntimeError("the table's feed could not read it") from batch.error
    if line.after < batch.base:
        # Batches were dropped while this stream was slow to send: it reads what lies between.
        async for chunk in _read_on(table_id, user, line, upto=batch.base):
            yield chunk
        if line.ended is not None:
            return
    ended = batch.ended[id(member)] if id(member) in batch.ended else await db(line.rights.check)
    if ended is not None:
        yield line.end(ended)
        return
    rendered = batch.cached(member) or await db(batch.render, member)
    # One chunk for the batch: with hundreds of streams of a table, each send is the cost.
    chunk = [text for seq, text in rendered.frames if seq > line.after]
    if chunk:
        line.after = rendered.frames[-1][0]
        if rendered.view is not None:
            chunk.append(text_frame("table", rendered.view))
        yield "".join(chunk)
    if batch.finished and not batch.more and line.after >= batch.version:
        yield line.end(stream_rights.TABLE_FINISHED)


async def _start(table_id: Any, user: Any, after: int | None, line: _Line) -> AsyncIterator[str]:
    """The stream's own first read: the seat's view with no position, else the events after it."""
    if after is not None:
        line.after = after
        async for chunk in _read_on(table_id, user, line):
            yield chunk
        return
    text, line.after, finished, ended = await db(_read_view, table_id, user, line)
    if ended is not None:
        yield line.end(ended)
        return
    yield text_frame("table", text, line.after)
    if finished:
        yield line.end(stream_rights.TABLE_FINISHED)


async def _follow(table_id: Any, user: Any, line: _Line, member: Member, waiter: Alarm) -> AsyncIterator[str]:
    """Each batch of the table's feed as it comes, heartbeats between, until the line ends."""
    while line.ended is None:
        # Cleared before looking: a batch or an alarm that comes meanwhile wakes the next wait.
        waiter.clear()
        if waiter.take_alarm():
            # The person's rights changed, or notices may have been missed: checked exactly.
            ended = await db(line.rights.check)
            if ended is not None:
                yield line.end(ended)
                return
        for batch in member.take():
            async for chunk in _from_batch(table_id, user, line, member, batch):
                yield chunk
            if line.ended is not None:
                return
        async for beat in line.idle(waiter):
            yield beat
        if line.ended is not None:
            yield line.end(line.ended)


async def table_events(table_id: Any, user: Any, after: int | None, line: _Line, member: Member) -> AsyncIterator[str]:
    """The table as ``user``'s seat sees it: from ``after``, every event after it; with no position,
    the seat's view of the table first (its ``id`` the view's version). Then each new event as it
    commits, from the table's feed (one read for every stream of the table in the process), its
    words in the line's language (the request's); ends (``stream_end``) when the rights that opened
    it do, or once the table has finished and its last event is sent."""
    waiter: Alarm | None = None
    live: notify.Hub | None = None
    try:
        live = await asyncio.to_thread(notify.hub)
        waiter = Alarm(asyncio.get_running_loop())
        live.watch_rights(line.rights.user_id, waiter)
        # Joined before the stream's own first read: every event after it comes through the feed.
        if not stream_feed.attach(member, waiter, live):
            return
        yield f"retry: {settings.STREAM_RETRY_MS}\n\n"
        async for chunk in _start(table_id, user, after, line):
            yield chunk
        async for chunk in _follow(table_id, user, line, member, waiter):
            yield chunk
    finally:
        if live is not None and waiter is not None:
            live.forget(waiter)
        member.close()
        in_background(limits.release_stream_slot, *line.slot)


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
        return frame("your_turn", {"table": table, "version": version, "deadline": deadline, "seconds_left": left})

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
            return [frame("payout_decided", {key: notice.get(key) for key in fields})]
        if notice.get("k") == "dispute":
            fields = ("dispute", "table", "hand_no", "state")
            return [frame("dispute_changed", {key: notice.get(key) for key in fields})]
        table, version = notice["table"], notice["v"]
        self.cancel(table)
        out = []
        brief = {"table": table, "version": version}
        if notice.get("started") and self.user_id in notice.get("seated", ()):
            out.append(frame("table_started", brief))
        if self.user_id in notice.get("to_act", ()):
            out.append(self.your_turn(table, version, notice.get("deadline")))
        if notice.get("ended") and self.user_id in notice.get("seated", ()):
            out.append(frame("table_ended", brief))
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
            frame(
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
                for row in await db(selectors.awaiting, user):
                    if row["your_turn"]:
                        frames.append(notices.your_turn(row["table"], row["version"], row["deadline"]))
            drained, resync = notices.drain()
            frames.extend(drained)
            # Every wake (a notice, a deadline, a revocation, a reconnected listener) checks the
            # rights exactly before anything gathered is sent.
            ended = await db(line.rights.check)
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
        in_background(limits.release_stream_slot, *line.slot)
