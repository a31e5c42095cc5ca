"""Hot reads with SQL built once per process.

Django compiles a queryset anew every time it runs, and for the few reads on every command's path
that compiling costs several times the round trip. ``select_rows`` is ``filter(...)`` (with one
``select_related``, if asked) for those reads: the SELECT of the model's concrete fields is built
once, the fields' database converters are applied and the instances are made with
``Model.from_db``, the related one cached on its foreign key, as the ORM would.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from django.db import connection
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, ForeignKey, Model
from django.db.models.expressions import Col

# A database converter: (value, expression, connection) -> the value as Python sees it.
Converter = Callable[[Any, Any, BaseDatabaseWrapper], Any]
# The model's own columns, then the related model's: each column with the converters it needs.
Converters = list[tuple[Col, list[Converter]]]
# The foreign key and the related model it joins (both None without a join), the attribute names of
# the model's own columns and of the related model's, and where the related primary key is among them.
Join = tuple[ForeignKey[Any, Any] | None, type[Model] | None, list[str], list[str], int]


@functools.cache
def _layout(model: type[Model], related: str | None, vendor: str) -> tuple[str, Converters, Join]:
    qn = connection.ops.quote_name
    own = model._meta.concrete_fields
    sources: list[tuple[str, Sequence[Field[Any, Any]]]] = [("a", own)]
    sql = f"{qn(model._meta.db_table)} a"
    fk: ForeignKey[Any, Any] | None = None
    other: type[Model] | None = None
    if related is not None:
        relation = model._meta.get_field(related)
        # A related name that is not a resolved foreign key is a programming error, found on first use.
        if not isinstance(relation, ForeignKey) or not isinstance(relation.related_model, type):
            raise TypeError(f"{model.__name__}.{related} is not a foreign key to a model")
        fk, other = relation, relation.related_model
        sources.append(("b", other._meta.concrete_fields))
        sql += f" LEFT OUTER JOIN {qn(other._meta.db_table)} b ON b.{qn(other._meta.pk.column)} = a.{qn(fk.column)}"
    columns: list[str] = []
    converters: Converters = []
    for alias, fields in sources:
        for field in fields:
            col = field.get_col(alias)
            columns.append(f"{alias}.{qn(field.column)}")
            converters.append((col, connection.ops.get_db_converters(col) + col.get_db_converters(connection)))
    names = [f.attname for f in own]
    their_names = [f.attname for f in other._meta.concrete_fields] if other is not None else []
    their_pk = their_names.index(other._meta.pk.attname) if other is not None else 0
    return f"SELECT {', '.join(columns)} FROM {sql} WHERE ", converters, (fk, other, names, their_names, their_pk)


def lock_clause() -> str:
    """``FOR UPDATE`` of the ``a`` table of ``select_rows``, where the database has row locks."""
    if not connection.features.has_select_for_update:
        return ""
    return " FOR UPDATE OF a" if connection.features.has_select_for_update_of else " FOR UPDATE"


def placeholders(count: int) -> str:
    return ", ".join(["%s"] * count)


def select_rows(model: type[Model], where: str, params: list[Any], *, related: str | None = None) -> list[Any]:
    """The ``model`` instances matching ``where`` (SQL in which ``a`` is the model's table and ``b``
    the ``related`` one; it may end in ORDER BY and ``lock_clause()``). ``params`` are database
    values (``field.get_db_prep_value``)."""
    sql, converters, (fk, other, names, their_names, their_pk) = _layout(model, related, connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql + where, params)
        fetched = cursor.fetchall()
    alias, split, found = connection.alias, len(names), []
    for row in fetched:
        values = list(row)
        for i, (col, steps) in enumerate(converters):
            for step in steps:
                values[i] = step(values[i], col, connection)
        instance = model.from_db(alias, names, values[:split])
        if fk is not None and other is not None:  # a join sets both
            theirs = values[split:]
            fk.set_cached_value(
                instance, None if theirs[their_pk] is None else other.from_db(alias, their_names, theirs)
            )
        found.append(instance)
    return found
