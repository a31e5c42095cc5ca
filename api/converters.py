"""Path converters. A number in a URL is at most nine digits: anything longer names nothing, and
would overflow the database's integer columns if it reached a query."""

from __future__ import annotations


class SmallNumber:
    regex = "[0-9]{1,9}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)
