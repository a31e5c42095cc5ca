"""The broker ``make run`` uses when no server is configured: kombu's filesystem transport, made
safe to share between a web process and a worker; and a guard on kombu's Redis transport.

kombu's own transport creates a message file and then writes it, and the worker reads any file it
finds: a worker that polls in between reads an empty or half-written message, fails to decode it,
and dies (taking ``make run`` down with it). Here a message is written in full to a folder of its
own and then renamed into the queue folder, which is atomic on one filesystem, so the worker only
ever sees whole messages; a file that does not decode anyway (a torn copy, a stray file) is moved
aside to ``rejected/`` with a log line and the worker carries on with the next message.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
import uuid
from pathlib import Path
from queue import Empty
from time import monotonic
from typing import Any

from kombu import Connection
from kombu.exceptions import ChannelError
from kombu.transport import TRANSPORT_ALIASES, filesystem, redis, virtual
from kombu.utils.encoding import bytes_to_str, str_to_bytes
from kombu.utils.json import dumps, loads

log = logging.getLogger(__name__)

ALIAS = "localfs"


class Channel(filesystem.Channel):
    """The filesystem channel with an atomic publish and a worker that drops what it cannot read."""

    def _put(self, queue: str, payload: Any, **kwargs: Any) -> None:
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        staging = Path(self.staging_folder)
        staging.mkdir(parents=True, exist_ok=True)
        part_name = ""
        try:
            with tempfile.NamedTemporaryFile(dir=staging, prefix=".", suffix=".part", delete=False) as part:
                part_name = part.name
                part.write(str_to_bytes(dumps(payload)))
                part.flush()
                os.fsync(part.fileno())
            os.replace(part_name, os.path.join(self.data_folder_out, name))
        except OSError as exc:
            if part_name:
                Path(part_name).unlink(missing_ok=True)
            raise ChannelError(f"Cannot add message {name!r} to the queue folder") from exc

    def _get(self, queue: str) -> Any:
        wanted = f"{queue}.msg"
        for filename in sorted(os.listdir(self.data_folder_in)):
            if filename.partition(".")[2] != wanted:
                continue
            payload = self._take(filename)
            if payload is None:
                continue
            try:
                return loads(bytes_to_str(payload))
            except ValueError:
                self._reject(filename, payload)
        raise Empty()

    def _take(self, filename: str) -> bytes | None:
        """Claim a message by moving it out of the queue folder (another worker may have taken it
        first: then ``None``) and read it."""
        claimed = os.path.join(self.processed_folder if self.store_processed else tempfile.gettempdir(), filename)
        try:
            shutil.move(os.path.join(self.data_folder_in, filename), claimed)
        except OSError:
            return None
        try:
            with open(claimed, "rb") as f:
                payload = f.read()
            if not self.store_processed:
                os.remove(claimed)
        except OSError as exc:
            raise ChannelError(f"Cannot read message {filename!r} from the queue") from exc
        return payload

    def _reject(self, filename: str, payload: bytes) -> None:
        folder = Path(self.rejected_folder)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / filename).write_bytes(payload)
        log.error("Dropped a malformed broker message %s (%d bytes), kept in %s", filename, len(payload), folder)

    @property
    def staging_folder(self) -> str:
        return str(self.transport_options.get("staging_folder", Path(self.data_folder_out).parent / "staging"))

    @property
    def rejected_folder(self) -> str:
        return str(self.transport_options.get("rejected_folder", Path(self.data_folder_in).parent / "rejected"))


class Transport(filesystem.Transport):
    Channel = Channel
    # Folders, not a host: without this kombu warns on every connection that no hostname was given.
    default_connection_params: dict[str, Any] = {}


_restore_unacked = redis.QoS.restore_unacked


def _restore_unacked_or_leave(self: redis.QoS, client: Any = None) -> Any:
    """kombu's ``restore_unacked``, except when the channel's connection is already gone.

    After a Redis drop the worker closes the old connection (kombu sets its transport's ``client``
    to ``None``) and then the old channel, which tries to hand its unacknowledged messages back; with
    no connection pool made yet it builds one from ``client.hostname`` and the worker dies with
    ``AttributeError: 'NoneType' object has no attribute 'hostname'`` ("Unrecoverable error"). Those
    messages are still in Redis's unacked set: Redis returns them after the visibility timeout, and
    the sweep publishes again any bot turn that stalled meanwhile (games.outbox), so leaving them
    is safe and the worker carries on reconnecting.
    """
    if client is None and _connection_gone(self):
        log.warning(
            "Left %d unacknowledged message(s) to Redis's visibility timeout: their connection is closed",
            len(self._delivered),
        )
        self._delivered.clear()
        return None
    return _restore_unacked(self, client)


def _connection_gone(qos: redis.QoS) -> bool:
    """The channel's connection was closed (kombu clears it, or its ``client``) and no pool is left
    to talk to Redis through: any call would build a pool from ``client`` and die."""
    channel = qos.channel
    return channel._pool is None and getattr(getattr(channel, "connection", None), "client", None) is None


_ack = redis.QoS.ack
_reject = redis.QoS.reject


def _ack_or_leave(self: redis.QoS, delivery_tag: Any) -> None:
    """kombu's ``ack``, except on a closed connection: a task that finished while Redis dropped is
    acknowledged on its old channel, which (as ``restore_unacked`` above) would kill the worker.
    Its message stays in Redis's unacked set and comes back after the visibility timeout, when the
    task's version check makes the second run do nothing."""
    if _connection_gone(self):
        log.warning("Left a finished task's message to Redis's visibility timeout: its connection is closed")
        virtual.QoS.ack(self, delivery_tag)
        return
    _ack(self, delivery_tag)


def _reject_or_leave(self: redis.QoS, delivery_tag: Any, requeue: bool = False) -> None:
    """kombu's ``reject``, with the same guard as :func:`_ack_or_leave`."""
    if _connection_gone(self):
        log.warning("Left a rejected message to Redis's visibility timeout: its connection is closed")
        virtual.QoS.ack(self, delivery_tag)
        return
    _reject(self, delivery_tag, requeue)


# A worker that lost the broker tries again after 2, 4, 6, … s (kombu's defaults, up to 30 s), so a
# 10 s outage could keep it away for 8 s more; the sweep that re-drives stalled turns runs in the
# worker too. Every second is cheap against one broker and bounds the delay after an outage.
RECONNECT_INTERVALS = {"interval_start": 0.5, "interval_step": 0.5, "interval_max": 1.0}
_ensure_connection = Connection.ensure_connection


def _ensure_connection_promptly(self: Connection, *args: Any, **kwargs: Any) -> Connection:
    """kombu's ``ensure_connection`` retrying every second at most, unless the caller says otherwise."""
    for name, value in RECONNECT_INTERVALS.items():
        kwargs.setdefault(name, value)
    return _ensure_connection(self, *args, **kwargs)


def install() -> None:
    """Make ``localfs://`` name this transport and guard the Redis one (called before Celery opens
    a connection)."""
    TRANSPORT_ALIASES[ALIAS] = f"{__name__}:Transport"
    redis.QoS.restore_unacked = _restore_unacked_or_leave  # type: ignore[method-assign]
    redis.QoS.ack = _ack_or_leave  # type: ignore[method-assign]
    Connection.ensure_connection = _ensure_connection_promptly  # type: ignore[method-assign]
    redis.QoS.reject = _reject_or_leave  # type: ignore[method-assign]
