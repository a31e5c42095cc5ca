"""Live updates: "table T is at version V" and notices for people, published when a command commits
and fanned out in each web process to the streams and long polls waiting for them.

Publishing (any process that writes: web, worker, beat):

* PostgreSQL: ``pg_notify`` in the command's own transaction, so the notice is delivered exactly
  at commit, and never for a command rolled back.
* elsewhere (SQLite under ``make run``): after the commit, one datagram to each UNIX socket in
  ``DATA_DIR/notify``, which every web process binds; a socket no process holds any longer is
  removed by the first sender that finds it refused. Nothing to install, nothing polled.

Listening (web processes): one thread per process, started by the first stream or long poll,
blocks on the LISTEN connection (psycopg's ``notifies``) or on its socket, and wakes the waiters
of the table or person a notice names: asyncio waiters through their loop's
``call_soon_threadsafe``, threads (the long poll) through a ``threading.Event``. When the listener
has to reconnect it wakes every waiter, since notices may have been missed meanwhile; each waiter
reads the database again, so a notice carries only what tells a waiter whether to read.

A notice is JSON: ``{"k": "table", "table", "v", "status", "deadline", "to_act": [user ids whose
seat the table waits for], "seated": [user ids], "started", "ended"}`` or ``{"k": "payout",
"user", "payout", "table", "status"}`` or ``{"k": "dispute", "user", "dispute", "table", "hand_no",
"state"}`` or ``{"k": "rights", "user"}`` (a token or session of that person was revoked or ended:
each of their open streams checks its own rights again, from the database).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import contextvars
import json
import logging
import os
import socket
import threading
import time
import uuid
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connection, connections, transaction

from ledger.times import rfc3339
from ledger.units import format_amount

log = logging.getLogger(__name__)

CHANNEL = "game_ledger_live"
# Notices are small (a table id, a version, a few user ids); PostgreSQL takes up to 8000 bytes.
MAX_PAYLOAD = 7900


# --- publishing ---------------------------------------------------------------------------------


def table_moved(
    table: Any,
    *,
    to_act_users: list[int],
    seated_users: list[int],
    started: bool = False,
    version: int | None = None,
    status: str | None = None,
    deadline_at: Any = None,
) -> None:
    """Publish, in the current transaction, that ``table`` is now at ``table.version`` (or at
    ``version``, with ``status`` and ``deadline_at``: those of a command about to be written)."""
    status = table.status if status is None else status
    publish(
        {
            "k": "table",
            "table": str(table.pk),
            "v": table.version if version is None else version,
            "status": status,
            "deadline": rfc3339(table.deadline_at if version is None else deadline_at),
            "to_act": sorted(set(to_act_users)),
            "seated": sorted(set(seated_users)),
            "started": started,
            "ended": status == "finished",
        }
    )


# Set by ``riding``: where ``publish`` leaves its ``pg_notify`` for the caller's own statement.
_riding: contextvars.ContextVar[list[tuple[str, dict[str, Any]]] | None] = contextvars.ContextVar(
    "notify_riding", default=None
)


@contextlib.contextmanager
def riding() -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """Within it, ``publish`` on PostgreSQL runs no statement: it leaves its ``pg_notify`` in the
    list yielded, as ``(sql, params)`` (``{p}`` prefixes the parameters, ``{h0}`` is where the
    row is taken from; ``games.store.Rider``), for the caller to make part of its own statement in
    the same transaction. Elsewhere nothing changes (the notice goes after the commit)."""
    statements: list[tuple[str, dict[str, Any]]] = []
    token = _riding.set(statements)
    try:
        yield statements
    finally:
        _riding.reset(token)


def payout_decided(payout: Any) -> None:
    """Publish, in the current transaction, that a person's payout was decided."""
    if payout.user_id is None:
        return
    publish(
        {
            "k": "payout",
            "user": payout.user_id,
            "payout": payout.pk,
            "table": str(payout.table_id) if payout.table_id else None,
            "status": payout.status,
            "amount": format_amount(payout.amount, payout.currency),
            "currency": payout.currency,
        }
    )


def dispute_changed(dispute: Any) -> None:
    """Publish, in the current transaction, that a person's dispute moved (filed, taken, decided, paid)."""
    publish(
        {
            "k": "dispute",
            "user": dispute.user_id,
            "dispute": dispute.pk,
            "table": str(dispute.table_id),
            "hand_no": dispute.hand_no,
            "state": dispute.state,
        }
    )


def rights_changed(user_id: int) -> None:
    """Publish, in the current transaction, that a token or the session of ``user_id`` was revoked,
    logged out or ended: every open stream of theirs, in every web process, checks again whether it
    may go on (a notice rather than a poll, so an idle stream costs nothing meanwhile)."""
    publish({"k": "rights", "user": int(user_id)})


def publish(notice: dict[str, Any]) -> None:
    """Send ``notice`` to every web process once the current transaction commits (at once outside
    one)."""
    payload = _payload(notice)
    if connection.vendor == "postgresql":
        riding = _riding.get()
        if riding is not None:
            riding.append(
                ("SELECT pg_notify(%({p}channel)s, %({p}payload)s) {h0}", {"channel": CHANNEL, "payload": payload})
            )
            return
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, payload])
        return
    transaction.on_commit(lambda: send_datagrams(payload.encode()))


def _payload(notice: dict[str, Any]) -> str:
    payload = json.dumps(notice, separators=(",", ":"))
    if len(payload) > MAX_PAYLOAD:
        # Only the user lists can grow; without them a waiter still reads the table again.
        notice = {**notice, "to_act": [], "seated": [], "truncated": True}
        payload = json.dumps(notice, separators=(",", ":"))
    return payload


def socket_folder() -> Path:
    return Path(settings.DATA_DIR) / "notify"


def send_datagrams(data: bytes) -> None:
    """One datagram to each listener's socket; a refused one (its process is gone) is removed."""
    folder = socket_folder()
    try:
        paths = [p for p in folder.iterdir() if p.suffix == ".sock"]
    except FileNotFoundError:
        return
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sender:
        sender.setblocking(False)
        for path in paths:
            try:
                sender.sendto(data, str(path))
            except (ConnectionRefusedError, FileNotFoundError):
                with contextlib.suppress(OSError):
                    path.unlink()
            except OSError:
                # A full queue (a listener not reading): that process misses one notice, never
                # the writer's time.
                log.debug("notice not delivered to %s", path, exc_info=True)


# --- waiting ------------------------------------------------------------------------------------


class Waiter:
    """One stream or long poll waiting: woken from the listener thread, read from its own."""

    def __init__(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        self.loop = loop
        self.event: asyncio.Event | threading.Event = asyncio.Event() if loop is not None else threading.Event()
        self.notices: deque[dict[str, Any]] = deque(maxlen=1000)

    def wake(self, notice: dict[str, Any] | None = None) -> None:
        if notice is not None:
            self.notices.append(notice)
        if self.loop is None:
            self.event.set()  # type: ignore[union-attr]
            return
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody is waiting
            self.loop.call_soon_threadsafe(self.event.set)

    def clear(self) -> None:
        self.event.clear()

    async def wait(self, timeout: float) -> bool:
        """Until woken (``True``) or ``timeout`` seconds (``False``); asyncio waiters only."""
        assert isinstance(self.event, asyncio.Event)
        try:
            await asyncio.wait_for(self.event.wait(), timeout)
        except TimeoutError:
            return False
        return True

    def wait_blocking(self, timeout: float) -> bool:
        assert isinstance(self.event, threading.Event)
        return self.event.wait(timeout)

    def take(self) -> list[dict[str, Any]]:
        taken = []
        while self.notices:
            taken.append(self.notices.popleft())
        return taken


class Hub:
    """This process's listener and its waiters, by table id and by user id."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.tables: dict[str, set[Waiter]] = {}
        self.users: dict[int, set[Waiter]] = {}
        # Every open stream by the person it is read with, table streams too: a rights notice
        # wakes them all.
        self.holders: dict[int, set[Waiter]] = {}
        self.ready = threading.Event()
        self.stopping = threading.Event()
        self.thread: threading.Thread | None = None
        self.received = 0
        self._socket: socket.socket | None = None
        self._socket_path: Path | None = None
        self._pg: Any = None

    # registration

    def watch_table(self, table_id: Any, waiter: Waiter) -> Waiter:
        with self.lock:
            self.tables.setdefault(str(table_id), set()).add(waiter)
        return waiter

    def watch_user(self, user_id: int, waiter: Waiter) -> Waiter:
        with self.lock:
            self.users.setdefault(int(user_id), set()).add(waiter)
        return waiter

    def watch_rights(self, user_id: int, waiter: Waiter) -> Waiter:
        """``waiter`` is woken (with no notice) whenever a token or session of ``user_id`` ends."""
        with self.lock:
            self.holders.setdefault(int(user_id), set()).add(waiter)
        return waiter

    def forget(self, waiter: Waiter) -> None:
        with self.lock:
            for index in (self.tables, self.users, self.holders):
                for key in [key for key, waiters in index.items() if waiter in waiters]:
                    index[key].discard(waiter)
                    if not index[key]:
                        del index[key]

    def counts(self) -> tuple[int, int]:
        with self.lock:
            return sum(map(len, self.tables.values())), sum(map(len, self.users.values()))

    # fan-out

    def dispatch(self, payload: str | bytes) -> None:
        try:
            notice = json.loads(payload)
        except ValueError:
            log.warning("an unreadable notice was dropped: %r", payload[:200])
            return
        self.received += 1
        with self.lock:
            if notice.get("k") == "table":
                table_waiters = list(self.tables.get(notice["table"], ()))
                people = set(notice.get("to_act", ())) | set(notice.get("seated", ()))
                user_waiters = [w for user in people for w in self.users.get(user, ())]
            elif notice.get("k") in ("payout", "dispute"):
                table_waiters, user_waiters = [], list(self.users.get(notice.get("user"), ()))
            elif notice.get("k") == "rights":
                # Woken without the notice: each stream reads its rights from the database.
                table_waiters, user_waiters = list(self.holders.get(notice.get("user"), ())), []
            else:
                return
        for waiter in table_waiters:
            waiter.wake()
        for waiter in user_waiters:
            waiter.wake(notice)

    def wake_all(self) -> None:
        """Notices may have been missed (the listener reconnected): every waiter reads again."""
        with self.lock:
            tables = [w for waiters in self.tables.values() for w in waiters]
            users = [w for waiters in self.users.values() for w in waiters]
            # A rights notice may be among those missed; a woken stream checks its rights anew.
            tables += [w for waiters in self.holders.values() for w in waiters]
        for waiter in tables:
            waiter.wake()
        for waiter in users:
            waiter.wake({"k": "resync"})

    # the listener thread

    def start(self) -> None:
        with self.lock:
            if self.thread is not None and self.thread.is_alive():
                return
            self.stopping.clear()
            self.ready.clear()
            target = self._listen_postgres if connection.vendor == "postgresql" else self._listen_socket
            self.thread = threading.Thread(target=target, name="live-notices", daemon=True)
            self.thread.start()

    def stop(self) -> None:
        self.stopping.set()
        thread = self.thread
        if thread is not None:
            thread.join(timeout=5)
        self.thread = None
        self._close_socket()

    def _listen_postgres(self) -> None:
        import psycopg

        params = _postgres_params()
        backoff = 0.2
        while not self.stopping.is_set():
            try:
                with psycopg.connect(**params, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self._pg = conn
                    backoff = 0.2
                    self._listening()
                    while not self.stopping.is_set():
                        # Blocks until a notice comes; the timeout only lets a stop be noticed.
                        for note in conn.notifies(timeout=1.0):
                            self.dispatch(note.payload)
            except Exception:
                if self.stopping.is_set():
                    break
                log.warning("the LISTEN connection failed; reconnecting in %.1fs", backoff, exc_info=True)
                self.ready.clear()
                self.stopping.wait(backoff)
                backoff = min(backoff * 2, 5.0)
            finally:
                self._pg = None

    def _listen_socket(self) -> None:
        folder = socket_folder()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{os.getpid()}-{uuid.uuid4().hex[:8]}.sock"
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(str(path))
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
        sock.settimeout(1.0)
        self._socket, self._socket_path = sock, path
        # A process that exits normally removes its socket; a killed one leaves it to the first
        # writer it refuses.
        atexit.register(_unlink, path)
        self._listening()
        try:
            while not self.stopping.is_set():
                try:
                    data = sock.recv(65536)
                except TimeoutError:
                    continue
                except OSError:
                    break
                self.dispatch(data)
        finally:
            self._close_socket()

    def _listening(self) -> None:
        # Ready is said only after the catch-up wake: a waiter registered once ``hub()`` has
        # returned is woken by notices alone, never by a wake meant for those that came before.
        if not self.ready.is_set():
            self.wake_all()
        self.ready.set()

    def _close_socket(self) -> None:
        sock, path = self._socket, self._socket_path
        self._socket = self._socket_path = None
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.close()
        if path is not None:
            with contextlib.suppress(OSError):
                path.unlink()


def _unlink(path: Path) -> None:
    with contextlib.suppress(OSError):
        path.unlink()


def _postgres_params() -> dict[str, Any]:
    """How the listener reaches the database Django uses (the test database in tests)."""
    params = connections["default"].get_connection_params()
    # Django's own connection machinery, not libpq's.
    for key in ("cursor_factory", "context", "prepare_threshold", "server_side_binding", "pool"):
        params.pop(key, None)
    return params


_hub: Hub | None = None
_hub_lock = threading.Lock()


def hub(*, wait: float = 5.0) -> Hub:
    """This process's hub, its listener started (and listening, or ``wait`` seconds passed)."""
    global _hub
    with _hub_lock:
        if _hub is None:
            _hub = Hub()
        current = _hub
    current.start()
    current.ready.wait(wait)
    return current


def shutdown() -> None:
    """Stop the listener (tests, so the test database can be dropped)."""
    global _hub
    with _hub_lock:
        current, _hub = _hub, None
    if current is not None:
        current.stop()


def wait_for_version(table: Any, after: int, seconds: float) -> Any:
    """Block this thread until ``table`` is past version ``after`` or ``seconds`` pass, woken by
    notices (the long poll); ``table`` is refreshed from the database and returned."""
    deadline = time.monotonic() + seconds
    live = hub()
    waiter = live.watch_table(table.pk, Waiter())
    try:
        while True:
            waiter.clear()
            table.refresh_from_db(fields=["version", "status", "deadline_at"])
            left = deadline - time.monotonic()
            if table.version > after or left <= 0:
                return table
            if not connection.in_atomic_block:
                # No connection held idle while nothing happens.
                connection.close()
            waiter.wait_blocking(left)
    finally:
        live.forget(waiter)


def on_payout_decided(sender: Any, payout: Any, **_: Any) -> None:
    payout_decided(payout)
