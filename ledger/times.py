"""Timestamps on the wire: RFC 3339 in UTC with ``Z`` ("2025-01-31T12:00:00.123456Z", always six decimals), one way
everywhere a client sees a time."""

from __future__ import annotations

import datetime as dt


def rfc3339(value: dt.datetime | None) -> str | None:
    """``value`` as an RFC 3339 UTC string ending in ``Z``; ``None`` stays ``None``. A naive time
    is taken to be UTC already (the database keeps UTC)."""
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=dt.UTC)
    return value.astimezone(dt.UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def seconds_left(deadline: dt.datetime | None, now: dt.datetime | None = None) -> float | None:
    """The seconds from ``now`` (the server's clock by default) to ``deadline``, to a tenth of a
    second and never below zero; ``None`` without a deadline. Sent beside every ``deadline`` so a
    client whose own clock is off still counts down right."""
    if deadline is None:
        return None
    if deadline.tzinfo is None:
        deadline = deadline.replace(tzinfo=dt.UTC)
    now = now or dt.datetime.now(dt.UTC)
    return round(max(0.0, (deadline - now).total_seconds()), 1)
