"""Riders: statements written with a table's append (``games.store.append``), once its version has
moved: on PostgreSQL parts of the append's one statement, elsewhere statements of their own right
after it. A command's outbox rows, its notice and its hands' seeds ride this way, so they cost no
round trip of their own (issue 24)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.db import connection
from django.db.models import Model


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


def inserted(
    model: type[Model], rows: Sequence[Mapping[str, Any]], *, ignore_conflicts: bool = False, then=None
) -> Rider:
    """New rows of ``model`` as a rider: each row's fields by name (every value given, nothing
    filled in), prepared as the ORM prepares them for a save. ``then``: for one row, handed its
    primary key. ``ignore_conflicts``: a row that meets a unique key is left out."""
    fields = [model._meta.get_field(name) for name in rows[0]]
    qn = connection.ops.quote_name
    postgres = connection.vendor == "postgresql"
    params: dict[str, Any] = {}
    selects = []
    for i, row in enumerate(rows):
        values = []
        for field in fields:
            # Server-side binding types a parameter by where it stands: in a select list, by a cast.
            cast = f"::{field.cast_db_type(connection)}" if postgres else ""
            values.append(f"%({{p}}v{i}_{field.column})s{cast}")
            params[f"v{i}_{field.column}"] = field.get_db_prep_save(row[field.name], connection)
        selects.append(f"SELECT {', '.join(values)} {{h0}}")
    # SQLite reads ON CONFLICT after INSERT … SELECT only once a WHERE ends the SELECT.
    conflicts = " WHERE true ON CONFLICT DO NOTHING" if ignore_conflicts else ""
    sql = (
        f"INSERT INTO {qn(model._meta.db_table)} ({', '.join(qn(field.column) for field in fields)}) "
        f"{' UNION ALL '.join(selects)}{conflicts} RETURNING {qn(model._meta.pk.column)}"
    )
    return Rider(sql, params, qn(model._meta.pk.column) if then is not None else None, then)


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
