"""Limits on what one client can make the server do: login attempts per account and per address,
and waiting requests per person. Every count lives in the default cache (Redis when ``CACHE_URL``
is set), so all web processes share it; the address is the one ``NUM_PROXIES`` trusted proxies
report, never a header the client wrote itself.
"""

from __future__ import annotations

import math
import random
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle, UserRateThrottle

from games.engine.words import N
from ledger.errors import ServiceError

# A count far from its limit is kept by the process and told to the shared cache every
# LOCAL_REQUESTS requests, and when its window ends (the next window's first request adds what was not
# told yet to the ended window's count as it reads it); past LOCAL_SHARE of the limit, every request
# asks the shared count. A person paces their requests seconds apart, spread over the web processes:
# told at every request, or every second, nearly each of theirs would cost a round trip. Requests a
# process has not told yet are unseen by the others, so a batch may let a few through past the limit:
# only limits of LOCAL_LIMIT or more are counted locally, where a batch from each of a few processes
# is a few per cent of it (the people's rate); lower ones, such as the logins' and the anonymous
# rate, are counted in the shared cache at every request, exactly.
LOCAL_REQUESTS = 20
LOCAL_SHARE = 0.5
LOCAL_LIMIT = 10 * LOCAL_REQUESTS
# Budgets of past windows are dropped once a process keeps this many.
MAX_BUDGETS = 10_000


@dataclass
class _Budget:
    """One process's view of one key's count in one window."""

    window: int
    previous: int = 0  # the shared count of the window before, read once
    shared: int | None = None  # the shared count of this window when last told, ours included
    pending: int = 0  # requests allowed here since then, not yet added to the shared count


_budgets: dict[str, _Budget] = {}
_budgets_lock = threading.Lock()


def forget_budgets() -> None:
    """Drop this process's budgets (the tests clear the shared cache between tests)."""
    with _budgets_lock:
        _budgets.clear()


class CountingThrottle(SimpleRateThrottle):
    """DRF's throttle counted in fixed windows of the rate's duration instead of a log of every
    request's time (a list of up to the limit's length, read and written whole at each request).
    The estimate is the sliding window's: this window's count plus the last one's, weighed by how
    much of it still overlaps. The counts live in the default cache, so every process adds to them;
    while a key is far from its limit a process counts locally and adds its requests to the shared
    count every ``LOCAL_REQUESTS`` requests and when the window ends, so most requests cost no round
    trip, and near the limit every request is counted in the cache before it is let through."""

    def allow_request(self, request, view):  # type: ignore[no-untyped-def]
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        self.now = self.timer()
        window, elapsed = divmod(self.now, self.duration)
        self.weight = 1.0 - elapsed / self.duration
        with _budgets_lock:
            budget = self._budget(int(window))
            if self._fits_locally(budget):
                budget.pending += 1
                allowed, used = True, self._estimate(budget.previous, (budget.shared or 0) + budget.pending)
            else:
                allowed = self._tell(budget)
                used = self._estimate(budget.previous, budget.shared or 0) if allowed else self.num_requests
        _note(request, self.scope, self.num_requests, self.duration, used, self.duration - elapsed)
        return allowed

    def _budget(self, window: int) -> _Budget:
        ended = _budgets.get(self.key)
        if ended is not None and ended.window == window:
            return ended
        if len(_budgets) >= MAX_BUDGETS:
            for key in [key for key, kept in _budgets.items() if kept.window < window]:
                del _budgets[key]
        budget = _budgets[self.key] = _Budget(window)
        last = self._window_key(window - 1)
        if ended is not None and ended.window == window - 1 and ended.pending:
            # The ended window's requests not told yet, added as its count is read: one round trip.
            budget.previous = self._add(last, ended.pending)
        else:
            budget.previous = int(self.cache.get(last) or 0)
        return budget

    def _fits_locally(self, budget: _Budget) -> bool:
        if self.num_requests < LOCAL_LIMIT or budget.shared is None or budget.pending >= LOCAL_REQUESTS:
            return False
        return self._estimate(budget.previous, budget.shared + budget.pending + 1) <= self.num_requests * LOCAL_SHARE

    def _add(self, key: str, count: int) -> int:
        """Add ``count`` to the shared count ``key``, made if missing; the count after."""
        try:
            return int(self.cache.incr(key, count))
        except ValueError:  # the window's first request anywhere
            first = self.cache.add(key, count, timeout=2 * self.duration)
            return count if first else int(self.cache.incr(key, count))

    def _tell(self, budget: _Budget) -> bool:
        """Add this request and the ones allowed locally to the shared count; let it through if the
        count before it was under the limit, else take it back out (a refused request costs nothing)."""
        key = self._window_key(budget.window)
        shared = self._add(key, budget.pending + 1)
        budget.shared, budget.pending = shared, 0
        self.counts = (budget.previous, shared - 1)
        if self._estimate(budget.previous, shared - 1) < self.num_requests:
            return True
        budget.shared = self.cache.decr(key, 1)
        return False

    def _estimate(self, previous: int, current: int) -> float:
        return previous * self.weight + current

    def _window_key(self, window: int) -> str:
        return f"{self.key}:{window}"

    def wait(self):  # type: ignore[no-untyped-def]
        """Seconds until the estimate falls under the limit again."""
        previous, current = getattr(self, "counts", (0, self.num_requests))
        elapsed = (1.0 - self.weight) * self.duration
        limit = self.num_requests
        if current < limit and previous:
            # The last window's share has to shrink until the room for one request opens.
            wait = self.duration * (1 - (limit - current) / previous) - elapsed
        else:
            # This window alone is full: its share of the next one has to shrink.
            wait = self.duration - elapsed + self.duration * max(1 - limit / max(current, 1), 0.0)
        # Retry-After is in whole seconds: never tell a refused client to come back at once.
        return max(wait, 1.0)


# The answer's RateLimit and RateLimit-Policy headers (IETF draft-ietf-httpapi-ratelimit-headers):
# one list item per throttle that counted the request, named by its scope. A count kept locally is
# told to the others in batches, so `r` is this process's estimate.
RATE_LIMITS = "rate_limits"


def _note(request, scope: str, quota: int, window: int, used: float, reset: float) -> None:  # type: ignore[no-untyped-def]
    holder = getattr(request, "_request", request)  # the Django request under DRF's
    if holder is None:
        return
    notes = holder.__dict__.setdefault(RATE_LIMITS, {})
    notes[scope] = (quota, window, max(0, int(quota - math.ceil(used))), max(1, math.ceil(reset)))


def rate_limit_headers(request: HttpRequest) -> dict[str, str]:
    """The headers of what the request's throttles counted, or none if none counted it."""
    notes = request.__dict__.get(RATE_LIMITS) or {}
    if not notes:
        return {}
    return {
        "RateLimit-Policy": ", ".join(f'"{scope}";q={q};w={w}' for scope, (q, w, _, _) in notes.items()),
        "RateLimit": ", ".join(f'"{scope}";r={r};t={t}' for scope, (_, _, r, t) in notes.items()),
    }


class RateLimitMiddleware:
    """Writes ``rate_limit_headers`` on the answer (DRF's throttles cannot touch it)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        for name, value in rate_limit_headers(request).items():
            response[name] = value
        return response


class AnonThrottle(CountingThrottle, AnonRateThrottle):
    """Requests of a client with no account, by address (``THROTTLE_ANON``)."""


class UserThrottle(CountingThrottle, UserRateThrottle):
    """Requests of a signed-in person (``THROTTLE_USER``)."""


class LoginAddressThrottle(CountingThrottle):
    """Logins and registrations from one address (``THROTTLE_LOGIN_ADDRESS``): each login costs a
    password hash, the dearest thing an anonymous client can ask for."""

    scope = "login_address"

    def get_cache_key(self, request, view):  # type: ignore[no-untyped-def]
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class LoginAccountThrottle(CountingThrottle):
    """Logins and registrations naming one username (``THROTTLE_LOGIN_ACCOUNT``), from any number
    of addresses: guessing one person's password from many machines is still slow."""

    scope = "login_account"
    field = "username"

    def get_cache_key(self, request, view):  # type: ignore[no-untyped-def]
        # A body that cannot be read is refused here as the view would (400/415), before any
        # password is hashed, so it need not be counted.
        data = request.data
        named = data.get(self.field) if isinstance(data, dict) else None
        if not isinstance(named, str) or not named:
            return None  # the serializer refuses it; nothing to count against
        ident = (
            f"{self.field}:{named.strip().lower()[:150]}" if self.field != "username" else named.strip().lower()[:150]
        )
        return self.cache_format % {"scope": self.scope, "ident": ident}


LOGIN_THROTTLES = [AnonThrottle, UserThrottle, LoginAddressThrottle, LoginAccountThrottle]


class ResetAddressThrottle(LoginAccountThrottle):
    """Password reset links asked for one mail address (``THROTTLE_RESET_ADDRESS``, a few an hour),
    from any number of client addresses: a mailbox is not flooded. Every address is counted alike,
    whether or not an account has it, so a refusal (429) tells nothing about which ones do."""

    scope = "reset_address"
    field = "email"


RESET_THROTTLES = [AnonThrottle, LoginAddressThrottle, ResetAddressThrottle]


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
