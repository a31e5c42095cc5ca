"""Hot reads with SQL built once per process.

Django compiles a queryset anew every time it runs, and for the few reads on every command's path
that compiling costs several times the round trip. ``select_rows`` is ``filter(...)`` (with one
``select_related``, if asked) for those reads: the SELECT of the model's concrete fields is built
once, the fields' database converters are applied and the instances are made with
``Model.from_db``, the related one cached on its foreign key, as the ORM would.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import psycopg
from django.db import connection, connections, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, ForeignKey, Model
from django.db.models.expressions import Col
from django.db.models.query import get_related_populators  # type: ignore[attr-defined]  # Django's ModelIterable uses it; the stubs leave it out

# A database converter: (value, expression, connection) -> the value as Python sees it.
Converter = Callable[[Any, Any, BaseDatabaseWrapper], Any]
# The model's own columns, then the related model's: each column with the converters it needs.
Converters = list[tuple[Col, list[Converter]]]
# The foreign key and the related model it joins (both None without a join), the attribute names of
# the model's own columns and of the related model's, and where the related primary key is among them.
Join = tuple[ForeignKey[Any, Any] | None, type[Model] | None, list[str], list[str], int]


@dataclass(frozen=True, slots=True)
class Scalar:
    """A scalar subquery read in another statement's select list, so both cost one round trip:
    its SQL (``%s`` for its ``params``) and how its value becomes what the caller wants. It reads
    the statement's snapshot: under a lock that waited, the rows it reads are as they were before
    the wait, not as the writer waited for left them."""

    sql: str
    params: tuple[Any, ...]
    decode: Callable[[Any], Any]


@functools.cache
def _layout(
    model: type[Model], related: str | None, vendor: str, scalars: tuple[str, ...] = ()
) -> tuple[str, Converters, Join]:
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
    select = ", ".join([*columns, *scalars])
    return f"SELECT {select} FROM {sql} WHERE ", converters, (fk, other, names, their_names, their_pk)


# psycopg prepares a statement the first time it runs with ``prepare=True`` and never otherwise.
_ONLY_WHEN_ASKED = 2**31 - 1


def fetch(db: BaseDatabaseWrapper, sql: str, params: Sequence[Any] | Mapping[str, Any]) -> list[Any]:
    """The rows of one statement on the hot path. On PostgreSQL it runs with its parameters bound
    by the server and is prepared once per connection: each run after the first skips the server's
    planning and the client's quoting, most of a short statement's cost. Django's checks come first,
    as its cursors make them (the connection's health, a transaction already broken). A statement
    someone is watching (DEBUG, a test counting queries) goes through Django's cursor instead."""
    if db.vendor != "postgresql" or db.queries_logged or db.execute_wrappers:
        with db.cursor() as watched:
            watched.execute(sql, params)
            return list(watched.fetchall()) if watched.description is not None else []
    db.close_if_health_check_failed()
    db.ensure_connection()
    db.validate_no_broken_transaction()
    raw = db.connection
    # Kept on this thread's connection wrapper until Django connects again (a pooled connection
    # lent anew is another object, and gets a cursor of its own).
    kept = db.__dict__.get("_prepared_cursor")
    cursor: psycopg.Cursor[Any]
    if kept is not None and kept[0] is raw:
        cursor = kept[1]
    else:
        if raw.prepare_threshold is None:
            # Django turns automatic preparing off (for transaction-pooling proxies); only
            # ``prepare=True`` prepares now.
            raw.prepare_threshold = _ONLY_WHEN_ASKED
        cursor = psycopg.Cursor(raw)
        db.__dict__["_prepared_cursor"] = (raw, cursor)
    with db.wrap_database_errors:
        cursor.execute(sql, params, prepare=True)
        return cursor.fetchall() if cursor.description is not None else []


def lock_clause() -> str:
    """``FOR UPDATE`` of the ``a`` table of ``select_rows``, where the database has row locks."""
    if not connection.features.has_select_for_update:
        return ""
    return " FOR UPDATE OF a" if connection.features.has_select_for_update_of else " FOR UPDATE"


def reading(model: type[Model]) -> BaseDatabaseWrapper:
    """The connection a read of ``model`` runs on: the database router's choice, which is the
    primary's unless ``ledger.replica.reads`` sent the reads of the block to the replica (and the
    primary's, in any case, inside a write transaction)."""
    return connections[router.db_for_read(model)]


def placeholders(count: int) -> str:
    return ", ".join(["%s"] * count)


def select_rows(model: type[Model], where: str, params: list[Any], *, related: str | None = None) -> list[Any]:
    """The ``model`` instances matching ``where`` (SQL in which ``a`` is the model's table and ``b``
    the ``related`` one; it may end in ORDER BY and ``lock_clause()``). ``params`` are database
    values (``field.get_db_prep_value``)."""
    return select_rows_and(model, where, params, related=related)[0]


def select_rows_and(
    model: type[Model], where: str, params: list[Any], *, related: str | None = None, scalars: Sequence[Scalar] = ()
) -> tuple[list[Any], list[Any] | None]:
    """``select_rows``, and the value of each of ``scalars`` read in the same statement, decoded
    (``None`` when no row was found to carry them)."""
    db = reading(model)
    texts = tuple(scalar.sql for scalar in scalars)
    sql, converters, (fk, other, names, their_names, their_pk) = _layout(model, related, db.vendor, texts)
    fetched = fetch(db, sql + where, _scalars_first(scalars, params))
    alias, split, found = db.alias, len(names), []
    for row in fetched:
        values = _converted(row[: len(converters)], converters, db)
        instance = model.from_db(alias, names, values[:split])
        if fk is not None and other is not None:  # a join sets both
            theirs = values[split:]
            fk.set_cached_value(
                instance, None if theirs[their_pk] is None else other.from_db(alias, their_names, theirs)
            )
        found.append(instance)
    return found, _scalar_values(scalars, fetched[0], len(converters)) if fetched else None


def _scalars_first(scalars: Sequence[Scalar], params: list[Any]) -> list[Any]:
    """A statement's parameters: the scalars' (in its select list) before ``params``."""
    return [*(param for scalar in scalars for param in scalar.params), *params]


def _scalar_values(scalars: Sequence[Scalar], row: Sequence[Any], width: int) -> list[Any]:
    """The scalars' values, decoded, from a row whose own columns are the first ``width``."""
    return [scalar.decode(value) for scalar, value in zip(scalars, row[width:], strict=True)]


@functools.cache
def _values_layout(model: type[Model], names: tuple[str, ...], vendor: str) -> tuple[str, Converters]:
    qn = connection.ops.quote_name
    columns: list[str] = []
    converters: Converters = []
    for name in names:
        field = model._meta.pk if name == "pk" else model._meta.get_field(name)
        col = field.get_col("a")  # type: ignore[union-attr]  # a concrete field, which has a column
        columns.append(f"a.{qn(col.target.column)}")
        converters.append((col, connection.ops.get_db_converters(col) + col.get_db_converters(connection)))
    return f"SELECT {', '.join(columns)} FROM {qn(model._meta.db_table)} a WHERE ", converters


def select_values(model: type[Model], names: Sequence[str], where: str, params: list[Any]) -> list[tuple[Any, ...]]:
    """``filter(...).values_list(*names)`` of ``model`` for a hot read: the rows matching ``where``
    (SQL in which ``a`` is the model's table; it may end in ORDER BY), each a tuple of the fields
    ``names`` (``"pk"`` for the primary key) through their database converters. ``params`` are
    database values, as for ``select_rows``."""
    db = reading(model)
    sql, converters = _values_layout(model, tuple(names), db.vendor)
    fetched = fetch(db, sql + where, params)
    if not any(steps for _, steps in converters):
        return [tuple(row) for row in fetched]
    return [tuple(_converted(row, converters, db)) for row in fetched]


def _converted(row: Sequence[Any], converters: Converters, db: BaseDatabaseWrapper) -> list[Any]:
    """A fetched row's values, each through its column's database converters."""
    values = list(row)
    for i, (col, steps) in enumerate(converters):
        for step in steps:
            values[i] = step(values[i], col, db)
    return values


@functools.cache
def _insert_layout(model: type[Model], vendor: str, count: int) -> tuple[str, list[Field[Any, Any]]]:
    qn = connection.ops.quote_name
    fields = [
        field for field in model._meta.concrete_fields if not field.generated and field is not model._meta.auto_field
    ]
    columns = ", ".join(qn(field.column) for field in fields)
    values = ", ".join([f"({placeholders(len(fields))})"] * count)
    return f"INSERT INTO {qn(model._meta.db_table)} ({columns}) VALUES {values}", fields


def insert_rows(instances: Sequence[Model]) -> None:
    """``save()`` of new rows of one model, in one statement, when the caller needs no primary key
    back: the INSERT built once per number of rows, each field's value prepared as the ORM prepares
    it (``pre_save``, then ``get_db_prep_save``: ``auto_now_add`` times, JSON). The database's
    errors are Django's, an ``IntegrityError`` on a unique key among them."""
    if not instances:
        return
    model = type(instances[0])
    db = connections[router.db_for_write(model)]
    sql, fields = _insert_layout(model, db.vendor, len(instances))
    fetch(db, sql, [field.get_db_prep_save(field.pre_save(row, True), db) for row in instances for field in fields])


def _foreign_key(model: type[Model], name: str) -> ForeignKey[Any, Any]:
    relation = model._meta.get_field(name)
    if not isinstance(relation, ForeignKey) or not isinstance(relation.related_model, type):
        raise TypeError(f"{model.__name__}.{name} is not a foreign key to a model")
    return relation


def _related(fk: ForeignKey[Any, Any]) -> type[Model]:
    related = fk.related_model
    assert isinstance(related, type) and issubclass(related, Model)
    return related


@functools.cache
def _tree_layout(
    parent: type[Model],
    parent_related: str,
    child: type[Model],
    child_fk: str,
    child_related: str,
    vendor: str,
    inner: bool = False,
    scalars: tuple[str, ...] = (),
) -> tuple[str, Converters, list[tuple[type[Model], list[str], ForeignKey[Any, Any] | None]]]:
    """The SELECT of ``parent`` (a) with its ``parent_related`` row (b), each of its ``child`` rows
    (c, by ``child_fk``) and each child's ``child_related`` row (d), then the ``scalars``, and how to
    split a row."""
    qn = connection.ops.quote_name
    parent_fk, child_parent, child_rel = (
        _foreign_key(parent, parent_related),
        _foreign_key(child, child_fk),
        _foreign_key(child, child_related),
    )
    b_model, d_model = _related(parent_fk), _related(child_rel)
    parts: list[tuple[str, type[Model], ForeignKey[Any, Any] | None]] = [
        ("a", parent, None),
        ("b", b_model, parent_fk),
        ("c", child, None),
        ("d", d_model, child_rel),
    ]
    columns: list[str] = []
    converters: Converters = []
    splits: list[tuple[type[Model], list[str], ForeignKey[Any, Any] | None]] = []
    for alias, model, fk in parts:
        names = []
        for field in model._meta.concrete_fields:
            col = field.get_col(alias)
            columns.append(f"{alias}.{qn(field.column)}")
            converters.append((col, connection.ops.get_db_converters(col) + col.get_db_converters(connection)))
            names.append(field.attname)
        splits.append((model, names, fk))
    sql = (
        f"SELECT {', '.join([*columns, *scalars])} FROM {qn(parent._meta.db_table)} a "
        f"LEFT OUTER JOIN {qn(b_model._meta.db_table)} b ON b.{qn(b_model._meta.pk.column)} = a.{qn(parent_fk.column)} "
        f"{'INNER' if inner else 'LEFT OUTER'} JOIN {qn(child._meta.db_table)} c "
        f"ON c.{qn(child_parent.column)} = a.{qn(parent._meta.pk.column)} "
        f"LEFT OUTER JOIN {qn(d_model._meta.db_table)} d ON d.{qn(d_model._meta.pk.column)} = c.{qn(child_rel.column)} "
        "WHERE "
    )
    return sql, converters, splits


def select_tree(
    parent: type[Model],
    parent_related: str,
    child: type[Model],
    child_fk: str,
    child_related: str,
    where: str,
    params: list[Any],
    *,
    inner: bool = False,
    scalars: Sequence[Scalar] = (),
) -> tuple[Any, list[Any], list[Any]] | None:
    """One row of ``parent`` (``where`` picks it; ``a`` is its table, and ``where`` may end in
    ORDER BY of the children, ``c``, and ``lock_clause()``) with its ``parent_related`` row cached
    on it, and its ``child`` rows (those whose ``child_fk`` is the parent), each with its
    ``child_related`` row cached: in one statement, the instances ``select_rows`` would give.
    ``inner``: only a parent with children is found (its children may then be locked too,
    ``FOR UPDATE OF a, c``, which PostgreSQL refuses on the nullable side of an outer join).
    The third part is the value of each of ``scalars``, decoded (they come before ``where``'s
    parameters). ``None`` when no parent matches."""
    db = reading(parent)
    sql, converters, splits = _tree_layout(
        parent, parent_related, child, child_fk, child_related, db.vendor, inner, tuple(s.sql for s in scalars)
    )
    fetched = fetch(db, sql + where, _scalars_first(scalars, params))
    if not fetched:
        return None
    bounds, start = [], 0
    for _model, names, _ in splits:
        bounds.append((start, start + len(names)))
        start += len(names)
    # The parent and its related row repeat on every row: they are made from the first alone.
    first: list[Any] = _instances(db, fetched[0], converters, splits, bounds, parts=range(2))
    found = first[0]
    splits[1][2].set_cached_value(found, first[1])  # type: ignore[union-attr]
    children: list[Any] = []
    for row in fetched:
        _, _, c, d = _instances(db, row, converters, splits, bounds, parts=range(2, 4))
        if c is not None:
            splits[3][2].set_cached_value(c, d)  # type: ignore[union-attr]
            children.append(c)
    return found, children, _scalar_values(scalars, fetched[0], len(converters))


def _instances(
    db: BaseDatabaseWrapper,
    row: Sequence[Any],
    converters: Converters,
    splits: Any,
    bounds: list[tuple[int, int]],
    *,
    parts: range,
) -> list[Any]:
    """The instances of one row of ``select_tree`` among ``parts`` (a, b, c, d by number; ``None``
    for the others and where the join found none), each column through its database converters
    first."""
    values = list(row)
    made: list[Any] = [None] * len(splits)
    for number in parts:
        model, names, _ = splits[number]
        lo, hi = bounds[number]
        for i in range(lo, hi):
            col, steps = converters[i]
            for step in steps:
                values[i] = step(values[i], col, db)
        part = values[lo:hi]
        pk_at = names.index(model._meta.pk.attname)
        made[number] = None if part[pk_at] is None else model.from_db(db.alias, names, part)
    return made


class Compiled:
    """A queryset of one variable value whose SQL is compiled once per database: ``run(value)``
    gives the instances ``build(value)`` would, with their ``select_related`` rows and annotations,
    without compiling it again. For the reads on every request's path whose joins and subqueries
    ``select_rows`` cannot say (the token with its person, the table with its seeds).

    ``build`` is called with ``examples[0]`` and ``examples[1]``: the parameters that differ between
    the two compilings are the value's places. A call passes the database value
    (``field.get_db_prep_value``), as ``select_rows`` takes its parameters."""

    def __init__(self, build: Callable[[Any], Any], *examples: Any) -> None:
        self.build = build
        self.examples = examples
        self._plans: dict[str, _Plan] = {}
        # The model read, known once the queryset is first built (at a call, once the apps are ready).
        self._model: type[Model] | None = None

    def run(self, value: Any) -> list[Any]:
        if self._model is None:
            self._model = self.build(self.examples[0]).model
        db = reading(self._model)
        plan = self._plans.get(db.alias) or self._plan(db)
        params = list(plan.params)
        for place in plan.places:
            params[place] = value
        rows = fetch(db, plan.sql, params)
        return [plan.instance(row, db) for row in rows]

    def _plan(self, db: BaseDatabaseWrapper) -> _Plan:
        first, second = (self.build(example).query.get_compiler(using=db.alias) for example in self.examples)
        sql, params = first.as_sql()
        other_sql, other_params = second.as_sql()
        places = tuple(i for i, (a, b) in enumerate(zip(params, other_params, strict=True)) if a != b)
        # The value must stand in the parameters, never in the SQL text itself.
        if sql != other_sql or not places:
            raise ValueError("the examples must differ in the query's parameters only")
        plan = self._plans[db.alias] = _Plan(sql, tuple(params), places, first)
        return plan


class _Plan:
    """One compiled queryset: its SQL, its parameters and the places of the value among them, and
    how a row becomes instances (Django's ``ModelIterable``, its compiling done once)."""

    def __init__(self, sql: str, params: tuple[Any, ...], places: tuple[int, ...], compiler: Any) -> None:
        self.sql, self.params, self.places = sql, params, places
        select, klass_info = compiler.select, compiler.klass_info
        self.model = klass_info["model"]
        fields = klass_info["select_fields"]
        self.start, self.end = fields[0], fields[-1] + 1
        self.names = [column[0].target.attname for column in select[self.start : self.end]]
        self.populators = get_related_populators(klass_info, select, compiler.using)
        self.annotations = list(compiler.annotation_col_map.items())
        self.width = compiler.col_count
        self.converters = list(compiler.get_converters([column[0] for column in select[: self.width]]).items())

    def instance(self, fetched: Sequence[Any], db: BaseDatabaseWrapper) -> Any:
        row = list(fetched[: self.width])
        for place, (steps, expression) in self.converters:
            value = row[place]
            for step in steps:
                value = step(value, expression, db)
            row[place] = value
        found = self.model.from_db(db.alias, self.names, row[self.start : self.end])
        for populator in self.populators:
            populator.populate(row, found)
        for name, place in self.annotations:
            setattr(found, name, row[place])
        return found
