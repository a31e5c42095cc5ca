"""The hot reads of a command (the locked table with its owner, the seats with their users) built
from SQL made once: the same instances the ORM's select_related would give."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games import selectors
from games.errors import NotFound
from games.models import Seat, Table
from games.play import unit


def _fields(instance) -> list:
    return [getattr(instance, field.attname) for field in type(instance)._meta.concrete_fields]


def test_seat_rows_are_the_orm_seats_with_their_users(counter_table):
    person = get_user_model().objects.create_user(username="seated")
    Seat.objects.create(table=counter_table, number=1, user=person, client_seed="abc")
    Seat.objects.create(table=counter_table, number=0, bot="counter")
    table = Table.objects.get(pk=counter_table.pk)
    rows = selectors.seat_rows(table)
    expected = list(Seat.objects.filter(table=counter_table).select_related("user"))
    assert [_fields(row) for row in rows] == [_fields(row) for row in expected]
    assert [row.number for row in rows] == [0, 1]
    assert rows[0].user is None and rows[1].user.username == "seated"
    assert _fields(rows[1].user) == _fields(person)
    assert not rows[0]._state.adding and rows[0]._state.db == "default"


def test_the_locked_table_is_the_orm_table_with_its_owner(counter_table):
    with transaction.atomic():
        table = unit.lock(str(counter_table.pk))
    assert _fields(table) == _fields(Table.objects.get(pk=counter_table.pk))
    assert table.owner.username == counter_table.owner.username
    assert table.config == counter_table.config


def test_a_missing_table_is_not_found(db):
    with pytest.raises(NotFound), transaction.atomic():
        unit.lock(uuid.uuid4())


def test_the_opened_table_is_the_locked_table_with_its_seats_in_one_statement(counter_table, django_assert_num_queries):
    person = get_user_model().objects.create_user(username="seated")
    Seat.objects.create(table=counter_table, number=1, user=person, client_seed="abc")
    Seat.objects.create(table=counter_table, number=0, bot="counter")
    with transaction.atomic():
        expected_table = unit.lock(str(counter_table.pk))
        expected_seats = selectors.seat_rows(expected_table)
        with CaptureQueriesContext(connection) as captured:
            locked = unit.open_table(str(counter_table.pk))
    # One statement reads the table, its owner, its seats and their users; the others are the
    # state's (its snapshot and events: there is no cached state here).
    reads = [q["sql"] for q in captured.captured_queries if "games_seat" in q["sql"] or "auth_user" in q["sql"]]
    assert len(reads) == 1 and "games_table" in reads[0]
    assert _fields(locked.table) == _fields(expected_table)
    assert _fields(locked.table.owner) == _fields(expected_table.owner)
    assert [_fields(s) for s in locked.seats] == [_fields(s) for s in expected_seats]
    assert [_fields(s.user) if s.user else None for s in locked.seats] == [None, _fields(person)]
    assert selectors.seat_rows(locked.table) == list(locked.seats)


def test_a_table_without_seats_opens_with_none(counter_table):
    with transaction.atomic():
        locked = unit.open_table(counter_table.pk)
    assert locked.seats == () and locked.table.pk == counter_table.pk
    with pytest.raises(NotFound), transaction.atomic():
        unit.open_table(uuid.uuid4())


def test_a_command_that_waited_for_the_lock_reads_the_seats_as_the_writer_left_them(
    postgres_tx, counter_game, transactional_db
):
    """A client seed set while a command waits for the table's lock is the one the command reads
    (PostgreSQL reads again, after the wait, only the rows a statement locks)."""
    import threading
    import time

    from django.db import connections

    from tests.games.play import make_table

    table = make_table("counter", seats=2)
    person = get_user_model().objects.create_user(username="seeded")
    Seat.objects.create(table=table, number=0, user=person, client_seed="old")
    Seat.objects.create(table=table, number=1, bot="counter")
    locked, read = threading.Event(), {}

    def reader() -> None:
        try:
            locked.wait(10)
            with transaction.atomic():
                read["seed"] = unit.open_table(table.pk).seats[0].client_seed
        finally:
            connections.close_all()

    thread = threading.Thread(target=reader)
    thread.start()
    with transaction.atomic():
        unit.lock(table.pk)
        locked.set()
        time.sleep(0.5)  # the reader's statement is waiting for the lock now
        Seat.objects.filter(table=table, number=0).update(client_seed="new")
    thread.join(20)
    assert not thread.is_alive()
    assert read == {"seed": "new"}


def test_a_compiled_read_gives_the_orm_s_instances_annotations_and_related_rows(counter_table):
    """``Compiled`` (the table GET's read, the token's): compiled once, run for another value, it
    gives what the queryset built for that value gives, its select_related rows and annotations
    included, and nothing for a value that matches no row."""
    from django.db.models import Count

    from ledger.rows import Compiled

    def build(pk):
        return Table.objects.select_related("owner").annotate(seats_taken=Count("seat_set")).filter(pk=pk)

    other = Table.objects.create(game=counter_table.game, seats=3, owner=counter_table.owner, config={})
    Seat.objects.create(table=other, number=0, bot="counter")
    compiled = Compiled(build, uuid.UUID(int=1), uuid.UUID(int=2))
    for table in (counter_table, other):
        key = Table._meta.pk.get_db_prep_value(table.pk, connection)
        with CaptureQueriesContext(connection) as captured:
            (found,) = compiled.run(key)
        (expected,) = build(table.pk)
        assert len(captured.captured_queries) == 1
        assert _fields(found) == _fields(expected)
        assert found.seats_taken == expected.seats_taken == (1 if table is other else 0)
        assert _fields(found.owner) == _fields(expected.owner)
        assert not found._state.adding
    assert compiled.run(Table._meta.pk.get_db_prep_value(uuid.uuid4(), connection)) == []


def test_a_compiled_read_refuses_examples_that_change_its_sql(db):
    from ledger.rows import Compiled

    def build(pk):
        # A value that changes the statement's text (here, the number of values) cannot be compiled once.
        return Table.objects.filter(pk__in=pk)

    with pytest.raises(ValueError):
        Compiled(build, [uuid.UUID(int=1)], [uuid.UUID(int=2), uuid.UUID(int=3)]).run(None)


def test_selected_values_are_the_orm_values_list(counter_table):
    """``select_values``: the rows ``values_list`` gives, the JSON and the times converted alike."""
    from games import store
    from games.models import Event
    from ledger.rows import select_values

    added = store.NewEvent(type="Added", data={"seat": 0, "amount": 1, "total": 1}, actor="user:0", hand_no=1)
    hidden = store.NewEvent(type="Added", data={"seat": 1, "amount": 2, "total": 3}, secret={"hidden": [1]}, hand_no=1)
    with transaction.atomic():
        store.append(table=counter_table, expected_version=0, records=[added, hidden])
    names = ("pk", "seq", "data", "secret", "created_at")
    expected = list(Event.objects.filter(table_id=counter_table.pk, seq__gt=0).order_by("seq").values_list(*names))
    key = Table._meta.pk.get_db_prep_value(counter_table.pk, connection)
    rows = select_values(Event, names, "a.table_id = %s AND a.seq > %s ORDER BY a.seq", [key, 0])
    assert rows == expected and len(rows) == 2
    assert rows[1][3] == {"hidden": [1]} and rows[0][4].tzinfo is not None


def test_inserted_rows_are_the_rows_save_would_make(counter_table):
    """``insert_rows``: several rows in one statement, the fields prepared as ``save`` prepares them
    (``auto_now_add``, JSON); a row under a unique key already taken is refused with Django's
    IntegrityError, and nothing of its statement is kept."""
    from django.db import IntegrityError

    from games.models import CommandRecord
    from ledger.rows import insert_rows

    owner = counter_table.owner
    other = get_user_model().objects.create_user(username="other")
    with CaptureQueriesContext(connection) as captured:
        insert_rows(
            [
                CommandRecord(
                    key="k1",
                    user=owner,
                    table=counter_table,
                    request_hash="h",
                    status_code=200,
                    response={"a": [1, "b"]},
                ),
                CommandRecord(key="k1", user=other, table=None, request_hash="g", status_code=409, response={}),
            ]
        )
    assert len(captured) == 1
    stored = CommandRecord.objects.get(key="k1", user=owner)
    assert (stored.user_id, stored.table_id, stored.status_code) == (owner.pk, counter_table.pk, 200)
    assert stored.response == {"a": [1, "b"]} and stored.created_at is not None
    assert CommandRecord.objects.get(key="k1", user=other).status_code == 409
    twin = CommandRecord(key="k1", user=owner, table=None, request_hash="g", status_code=201, response={})
    fresh = CommandRecord(key="k2", user=owner, table=None, request_hash="g", status_code=201, response={})
    with pytest.raises(IntegrityError), transaction.atomic():
        insert_rows([fresh, twin])
    assert CommandRecord.objects.filter(user=owner).count() == 1


@pytest.mark.postgres
def test_a_hot_read_is_prepared_once_and_reads_what_django_reads(postgres, counter_table):
    """``ledger.rows.fetch`` on PostgreSQL: the statement is prepared on the connection at its first
    run and reused after, and its rows are the rows Django's own cursor gives."""
    from ledger.rows import fetch

    key = Table._meta.pk.get_db_prep_value(counter_table.pk, connection)
    sql = 'SELECT a."id", a."game", a."version", a."config" FROM "games_table" a WHERE a."id" = %s'
    with connection.cursor() as cursor:
        cursor.execute(sql, [key])
        expected = cursor.fetchall()
    assert fetch(connection, sql, [key]) == expected == fetch(connection, sql, [key])
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s",
            ['%FROM "games_table" a WHERE a."id" = $1'],
        )
        assert cursor.fetchone()[0] == 1
