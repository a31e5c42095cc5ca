"""Riders: statements written with a table's append (``games.store.append``), once its version has
moved: on PostgreSQL parts of the append's one statement, elsewhere statements of their own right
after it. A command's outbox rows, its notice and its hands' seeds ride this way, so they cost no
round trip of their own (issue 24)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any


@dataclasses.dataclass(frozen=True, slots=True)
class Rider:
    """A statement that rides along with an append, written once the version has moved: on
    PostgreSQL a part of the append's one statement (so it costs no round trip of its own),
    elsewhere a statement of its own after it. ``sql`` names its parameters ``%({p}name)s`` and
    reads ``{h0}`` where it takes its one row from the moved version (``FROM h0``, or nothing);
    with ``returning``, the column its statement returns (``RETURNING id``), whose value is handed
    to ``then`` once the append is done."""

    sql: str
    params: Mapping[str, Any]
    returning: str | None = None
    then: Callable[[Any], None] | None = None


class Appended(list):
    """The recorded events, and what each rider returned."""

    rider_values: tuple[Any, ...] = ()


def rider_params(riders: Sequence[Rider]) -> dict[str, Any]:
    return {f"r{i}_{name}": value for i, rider in enumerate(riders) for name, value in rider.params.items()}


def run_apart(cursor, riders: Sequence[Rider]) -> tuple[Any, ...]:
    """The riders as statements of their own (the portable append, or one with no events)."""
    values = []
    for i, rider in enumerate(riders):
        params = {f"r{i}_{name}": value for name, value in rider.params.items()}
        cursor.execute(rider.sql.format(p=f"r{i}_", h0=""), params)
        # Every rider's statement yields rows (a RETURNING clause, a SELECT): read to its end.
        rows = cursor.fetchall()
        values.append(rows[0][0] if rider.returning and rows else None)
    return tuple(values)
