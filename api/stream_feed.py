"""The fan-out of a table's streams in one web process: one read per wake serves them all.

A table followed by streams in this process has one ``Feed``. The feed alone waits for the table's
notices (``games.notify``); at each wake it reads, on a reading thread, the table's row and seats,
the events after the last it read, and then the rights of every stream it serves (one statement
for all their tokens), and makes each kind of reader's frames once: the events as one seat sees
them (every spectator shares one), in the reader's language, with sentences if asked, and that
seat's table view for the streams that asked for views. Each stream takes its own frames from the
shared ``Batch``, chosen by the seat its person holds in the rows read: a hidden card is only ever
in the frames made for its own seat.

The feed goes with the last stream of its table in the process: nothing of a table is kept once
nobody here follows it. Spectators of a table (neither seated nor its owner) are counted here:
at most ``STREAM_SPECTATORS_PER_TABLE`` in each process.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
import json
import logging
import threading
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from django.conf import settings
from django.utils import translation
from rest_framework.utils.encoders import JSONEncoder

from api import sentences, stream_rights
from api.stream_io import db, frame
from api.stream_rights import Rights
from games import notify, selectors, store
from games.engine.words import N
from games.models import Table
from games.words import say_all
from ledger.errors import ServiceError

log = logging.getLogger(__name__)

# Events one read takes at most, the feed's and a stream's own.
READ_LIMIT = 500
# Batches a stream that is slow to send may fall behind by; older ones are dropped, and the stream
# reads what it missed itself (as on a resume) when it comes to the next.
INBOX_LIMIT = 64
# A stream admitted whose iterator never started (its client went during the start) is forgotten
# after this long, its place among the spectators free again.
UNSTARTED_SECONDS = 60.0
# Seconds after a table's last stream here has gone that the memory streams freed is given back.
RELEASE_DELAY = 2.0


class Reading(Protocol):
    """How a stream reads its table (``api.streams._Line``)."""

    rights: Rights
    language: str | None
    sentences: bool
    view: bool


class TooManySpectators(ServiceError):
    status_code = 429
    code = "too_many_spectators"


class Alarm(notify.Waiter):
    """A stream's own waiter: the hub wakes it when its person's rights changed (or notices may
    have been missed), and says so in ``alarmed``; the feed wakes it, without the flag, when a
    batch came."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(loop)
        self.alarmed = False

    def wake(self, notice: dict[str, Any] | None = None) -> None:
        self.alarmed = True
        super().wake(notice)

    def take_alarm(self) -> bool:
        """Whether the rights are to be checked again; the flag is reset."""
        alarmed, self.alarmed = self.alarmed, False
        return alarmed


class Member:
    """One table stream served by a feed: who reads and how, and the batches not sent yet."""

    def __init__(self, user: Any, line: Reading, *, spectator: bool, owner: bool) -> None:
        self.user = user
        self.line = line
        self.spectator = spectator
        self.owner = owner
        self.inbox: deque[Batch] = deque()
        self.waiter: Alarm | None = None
        self.feed: Feed | None = None
        self.admitted = time.monotonic()
        self.gone = False

    def take(self) -> list[Batch]:
        """The batches that came since the last take (on the event loop, as the feed gives them)."""
        taken = list(self.inbox)
        self.inbox.clear()
        return taken

    def close(self) -> None:
        """Leave the feed (``leave``); also the response's closer, should its iterator never run."""
        leave(self)


@dataclass
class Rendered:
    """What one kind of reader is sent of a batch: each event's frame by its seq, and its table
    view as JSON text (for a stream that asked for views and read events)."""

    frames: list[tuple[int, str]]
    view: str | None = None


@dataclass(eq=False)
class Batch:
    """One read of a feed: the events after ``base`` as stored, the rows they are shown with, and
    each kind of reader's frames, made once (``render``)."""

    base: int
    table: Table | None = None
    rows: list[tuple[Any, ...]] = field(default_factory=list)
    # By member (``id``): why its stream must end (an ``ENDS`` code), or None to go on, as its
    # rights were read after the rows. A stream missing here checks its own.
    ended: dict[int, str | None] = field(default_factory=dict)
    error: BaseException | None = None
    events: dict[tuple[Any, ...], list[tuple[int, str]]] = field(default_factory=dict)
    views: dict[tuple[Any, ...], str] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def version(self) -> int:
        """The last event read, where the next read starts."""
        return self.rows[-1][0] if self.rows else self.base

    @property
    def more(self) -> bool:
        """A full read: another follows at once."""
        return len(self.rows) >= READ_LIMIT

    @property
    def finished(self) -> bool:
        return self.table is not None and self.table.status == Table.Status.FINISHED

    def seat_of(self, member: Member) -> int | None:
        """The member's seat in the seats read with the rows (the seat decides the hidden cards)."""
        assert self.table is not None
        return selectors.seat_among_rows(self.table, member.user)

    def wants_view(self, member: Member) -> bool:
        return member.line.view and 0 < len(self.rows) < READ_LIMIT

    def keys(self, member: Member) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        seat = self.seat_of(member)
        line = member.line
        return (seat, line.language, line.sentences), (seat, member.owner, line.language)

    def cached(self, member: Member) -> Rendered | None:
        """The member's frames if they are made already (no thread needed), else ``None``."""
        events_key, view_key = self.keys(member)
        with self.lock:
            made = self.events.get(events_key)
            view = self.views.get(view_key)
        if made is None or (view is None and self.wants_view(member)):
            return None
        return Rendered(made, view if self.wants_view(member) else None)

    def render(self, member: Member) -> Rendered:
        """The member's frames, made now if no other reader of its kind has had them made (on a
        reading thread: a view may read the table's result)."""
        self.render_all([member])
        found = self.cached(member)
        assert found is not None
        return found

    def render_all(self, members: Sequence[Member]) -> None:
        """Every kind of reader among ``members`` made once: the events per seat, language and
        sentences; the views per seat, ownership and language, from one load of the state."""
        assert self.table is not None
        wanted_views: dict[tuple[Any, ...], Member] = {}
        for member in members:
            events_key, view_key = self.keys(member)
            with self.lock:
                known = events_key in self.events
            if not known:
                made = _event_frames(self.table, events_key[0], self.rows, member.line)
                with self.lock:
                    self.events.setdefault(events_key, made)
            if self.wants_view(member) and view_key not in self.views:
                wanted_views.setdefault(view_key, member)
        if not wanted_views:
            return
        readers = [(key[0], member.user) for key, member in wanted_views.items()]
        shown = selectors.table_views(self.table, readers)
        for (key, member), view in zip(wanted_views.items(), shown, strict=True):
            text = _view_text(view, member.line.language)
            with self.lock:
                self.views.setdefault(key, text)


def _event_frames(table: Table, seat: int | None, rows: list[tuple[Any, ...]], line: Reading) -> list[tuple[int, str]]:
    events = selectors.event_items(table, seat, rows)
    if line.sentences:
        with translation.override(line.language) if line.language else contextlib.nullcontext():
            events = sentences.with_sentences(table, events)
    return [(item["seq"], frame(item["type"], item, item["seq"])) for item in say_all(events, line.language)]


def _view_text(view: dict[str, Any], language: str | None) -> str:
    """A table view as the table's own answer writes it (DRF's encoder), in ``language``."""
    with translation.override(language):
        return json.dumps(say_all(view), cls=JSONEncoder, ensure_ascii=False, separators=(",", ":"))


def read_batch(table_id: str, after: int, members: Sequence[Member]) -> Batch:
    """The one read of a wake, on a reading thread: the table's row and seats, its events after
    ``after``, then the rights of ``members`` (read after the events, so rights that hold now held
    while they were read: no event read after a revocation is ever sent); and each kind of
    reader's frames."""
    batch = Batch(base=after)
    wants_views = any(member.line.view for member in members)
    table = selectors.table_to_view(table_id) if wants_views else selectors.get_table(table_id)
    batch.table = table
    batch.rows = list(store.events_after(table, after, limit=READ_LIMIT).values_list(*selectors.EVENT_FIELDS))
    selectors.seat_rows(table)
    answers = stream_rights.check_all([member.line.rights for member in members])
    batch.ended = {id(member): answer for member, answer in zip(members, answers, strict=True)}
    batch.render_all([member for member in members if batch.ended[id(member)] is None])
    return batch


class Feed:
    """One table's fan-out in this process: its members, the version it has read to, and the task
    that waits for the table's notices and reads once for them all."""

    def __init__(self, table_id: str, version: int) -> None:
        self.table_id = table_id
        self.version = version
        self.members: dict[int, Member] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.task: asyncio.Task[None] | None = None
        self.waiter: notify.Waiter | None = None
        self.live: notify.Hub | None = None

    def spectators(self) -> int:
        return sum(1 for member in self.members.values() if member.spectator)

    def start(self, live: notify.Hub) -> None:
        """Listen for the table and read at each notice, on the running loop (once)."""
        loop = asyncio.get_running_loop()
        if self.task is not None and self.loop is loop and not self.task.done():
            return
        self.loop, self.live = loop, live
        self.waiter = live.watch_table(self.table_id, notify.Waiter(loop))
        self.task = loop.create_task(self._run(self.waiter), name=f"table-feed-{self.table_id}")

    async def _run(self, waiter: notify.Waiter) -> None:
        assert isinstance(waiter.event, asyncio.Event)
        while True:
            await waiter.event.wait()
            # Cleared before reading: a notice that lands during the read wakes the next one.
            waiter.clear()
            more = True
            while more:
                members = [member for member in self.members.values() if member.waiter is not None]
                try:
                    batch = await db(read_batch, self.table_id, self.version, members)
                except asyncio.CancelledError:
                    raise
                except Exception as error:
                    log.warning("a table's streams could not read it", exc_info=True)
                    self.deliver(Batch(base=self.version, error=error))
                    break
                self.version = batch.version
                self.deliver(batch)
                more = batch.more

    def deliver(self, batch: Batch) -> None:
        """Give ``batch`` to every started member and wake it (on the loop)."""
        for member in list(self.members.values()):
            if member.waiter is None:
                continue
            if len(member.inbox) >= INBOX_LIMIT:
                member.inbox.popleft()
            member.inbox.append(batch)
            member.waiter.event.set()

    def close(self) -> None:
        """Stop listening and reading (from any thread)."""
        if self.live is not None and self.waiter is not None:
            self.live.forget(self.waiter)
        task, loop = self.task, self.loop
        self.task = self.loop = self.waiter = self.live = None
        if task is not None and loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop has closed: nothing runs
                loop.call_soon_threadsafe(task.cancel)


_feeds: dict[str, Feed] = {}
_lock = threading.Lock()


def admit(table: Table, member: Member) -> None:
    """Count ``member`` in its table's feed (made if the table has none here), from the stream's
    start; a spectator over ``STREAM_SPECTATORS_PER_TABLE`` is refused (``TooManySpectators``).
    The feed's first read starts after the version of ``table`` as read: the stream reads up to
    that itself."""
    key = str(table.pk)
    limit = int(settings.STREAM_SPECTATORS_PER_TABLE)
    with _lock:
        feed = _feeds.get(key)
        if feed is None:
            feed = _feeds[key] = Feed(key, table.version)
        _forget_unstarted(feed)
        if member.spectator and feed.spectators() >= limit:
            if not feed.members:
                del _feeds[key]
            raise TooManySpectators(
                N(
                    "This table already has {count} spectator here; try again later.",
                    "This table already has {count} spectators here; try again later.",
                    limit,
                ),
                retry_after=5,
            )
        feed.members[id(member)] = member
        member.feed = feed


def _forget_unstarted(feed: Feed) -> None:
    old = time.monotonic() - UNSTARTED_SECONDS
    for key, member in list(feed.members.items()):
        if member.waiter is None and member.admitted < old:
            member.gone = True
            del feed.members[key]


def attach(member: Member, waiter: Alarm, live: notify.Hub) -> bool:
    """Start ``member``'s deliveries (on the loop its stream runs on): from now on every batch its
    feed reads comes to it. ``False`` if it was forgotten meanwhile (its stream then ends)."""
    with _lock:
        if member.gone or member.feed is None:
            return False
        member.waiter = waiter
        feed = member.feed
    feed.start(live)
    return True


def leave(member: Member) -> None:
    """``member``'s stream has ended (from any thread, once or more): its feed forgets it, and goes
    with its last member."""
    with _lock:
        if member.gone:
            return
        member.gone = True
        member.inbox.clear()
        feed = member.feed
        if feed is None:
            return
        feed.members.pop(id(member), None)
        if feed.members:
            return
        if _feeds.get(feed.table_id) is feed:
            del _feeds[feed.table_id]
    feed.close()
    give_memory_back_soon()


_release_lock = threading.Lock()
_release_due = False


def give_memory_back_soon() -> None:
    """``give_memory_back`` ``RELEASE_DELAY`` seconds from now, on a timer's thread: a table's
    streams are gone, and what they held (requests, connections, buffers) is freed a moment after
    their feed. Once per delay however many tables' streams go meanwhile (from any thread)."""
    global _release_due
    with _release_lock:
        if _release_due:
            return
        _release_due = True
    timer = threading.Timer(RELEASE_DELAY, give_memory_back)
    timer.name = "give-memory-back"
    timer.daemon = True
    timer.start()


def give_memory_back() -> None:
    """The memory streams freed goes back to the system. Freed memory is otherwise kept for reuse:
    a process that held hundreds of streams would stay that large. Only with the C allocator doing
    Python's allocations too (``PYTHONMALLOC=malloc``, docs/operations.md): Python's own allocator
    frees a 1 MiB arena only once nothing at all is left in it, and the few objects that outlive
    the streams (a reading thread's connection, a cache entry) keep nearly every arena they were
    made in; glibc's ``malloc_trim`` gives back each free page (glibc only; elsewhere nothing)."""
    global _release_due
    with _release_lock:
        _release_due = False
    gc.collect()
    if _libc is not None:
        _libc.malloc_trim(0)


def _c_library() -> Any:
    try:
        return ctypes.CDLL("libc.so.6")
    except OSError:
        return None


_libc = _c_library()


def followed() -> dict[str, int]:
    """The tables this process has a feed for, each with its members (``/metrics``, the tests)."""
    with _lock:
        return {key: len(feed.members) for key, feed in _feeds.items()}
