"""Limits on what one client can make the server do: login attempts per account and per address,
and waiting requests per person. Every count lives in the default cache (Redis when ``CACHE_URL``
is set), so all web processes share it; the address is the one ``NUM_PROXIES`` trusted proxies
report, never a header the client wrote itself.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.core.cache import cache
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle, UserRateThrottle

from games.engine.words import N
from ledger.errors import ServiceError


class LoginAddressThrottle(SimpleRateThrottle):
    """Logins and registrations from one address (``THROTTLE_LOGIN_ADDRESS``): each login costs a
    password hash, the dearest thing an anonymous client can ask for."""

    scope = "login_address"

    def get_cache_key(self, request, view):  # type: ignore[no-untyped-def]
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class LoginAccountThrottle(SimpleRateThrottle):
    """Logins and registrations naming one username (``THROTTLE_LOGIN_ACCOUNT``), from any number
    of addresses: guessing one person's password from many machines is still slow."""

    scope = "login_account"

    def get_cache_key(self, request, view):  # type: ignore[no-untyped-def]
        # A body that cannot be read is refused here as the view would (400/415), before any
        # password is hashed, so it need not be counted.
        data = request.data
        username = data.get("username") if isinstance(data, dict) else None
        if not isinstance(username, str) or not username:
            return None  # the serializer refuses it; nothing to count against
        return self.cache_format % {"scope": self.scope, "ident": username.strip().lower()[:150]}


LOGIN_THROTTLES = [AnonRateThrottle, UserRateThrottle, LoginAddressThrottle, LoginAccountThrottle]


class TooManyWaiting(ServiceError):
    status_code = 429
    code = "too_many_waiting_requests"


@contextmanager
def waiting_slot(user_id: int) -> Iterator[None]:
    """One of ``LONG_POLL_MAX_PER_USER`` slots for a waiting request of this person, or
    ``TooManyWaiting``. Each slot is a cache key taken with an atomic add and expiring on its own
    (a process killed mid-wait frees its slot after ``LONG_POLL_MAX_SECONDS`` and a margin)."""
    token = uuid.uuid4().hex
    expiry = int(settings.LONG_POLL_MAX_SECONDS) + 10
    limit = int(settings.LONG_POLL_MAX_PER_USER)
    held = None
    for slot in range(limit):
        key = f"longpoll:{user_id}:{slot}"
        if cache.add(key, token, timeout=expiry):
            held = key
            break
    if held is None:
        raise TooManyWaiting(
            N(
                "You already have {count} request waiting for events; wait for it to answer, or ask without 'wait'.",
                "You already have {count} requests waiting for events; wait for one to answer, or ask without 'wait'.",
                limit,
            ),
            retry_after=1,
        )
    try:
        yield
    finally:
        # Only our own slot: if it expired and another request took it, that one keeps it.
        if cache.get(held) == token:
            cache.delete(held)


class TooManyStreams(ServiceError):
    status_code = 429
    code = "too_many_streams"


def _stream_slot_expiry() -> int:
    # Refreshed every STREAM_SLOT_REFRESH_BEATS heartbeats (api/streams.py); a stream whose process
    # died frees its slot after ten heartbeats.
    return int(settings.STREAM_HEARTBEAT_SECONDS * 10) + 5


def take_stream_slot(user_id: int) -> tuple[str, str]:
    """One of ``STREAMS_MAX_PER_USER`` slots for an open stream of this person, as ``(key,
    token)``, or ``TooManyStreams``. The stream refreshes it (``refresh_stream_slot``) at each
    heartbeat and gives it back when it closes."""
    token = uuid.uuid4().hex
    limit = int(settings.STREAMS_MAX_PER_USER)
    # In a random order: with a large limit the first free slot is found in a few tries, not after
    # every taken one.
    for slot in random.sample(range(limit), limit):
        key = f"stream:{user_id}:{slot}"
        if cache.add(key, token, timeout=_stream_slot_expiry()):
            return key, token
    raise TooManyStreams(
        N(
            "You already have {count} live stream open; close it before opening another.",
            "You already have {count} live streams open; close one before opening another.",
            limit,
        ),
        retry_after=5,
    )


def refresh_stream_slot(key: str, token: str) -> None:
    if cache.get(key) == token:
        cache.touch(key, _stream_slot_expiry())
    else:
        # Expired (the process was too busy to beat) and perhaps taken: take it back if free.
        cache.add(key, token, timeout=_stream_slot_expiry())


def release_stream_slot(key: str, token: str) -> None:
    if cache.get(key) == token:
        cache.delete(key)
