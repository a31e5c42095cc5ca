"""The hot reads of a command (the locked table with its owner, the seats with their users) built
from SQL made once: the same instances the ORM's select_related would give."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction

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
