"""Hand seeds made as hands come (CM-5): the command that first needs a hand's seed makes it in one
statement and reads nothing back; once committed, the process remembers it (issue 24)."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games import store
from games.engine import fairness
from games.models import HandSeed
from games.play import seeds

pytestmark = pytest.mark.django_db(transaction=True)


def test_cm_5_a_missing_hands_seed_costs_a_read_and_one_insert_then_nothing(counter_table):
    seeds.make_seeds(counter_table, [1, 2])
    with transaction.atomic(), CaptureQueriesContext(connection) as made:
        given = seeds.hand_seeds(counter_table, 2, 3)
    statements = [query["sql"] for query in made.captured_queries if query["sql"].split()[0] in ("SELECT", "INSERT")]
    assert [sql.split()[0] for sql in statements] == ["SELECT", "INSERT"], statements

    stored = {
        row.hand_no: (bytes(row.server_seed), row.commitment) for row in HandSeed.objects.filter(table=counter_table)
    }
    assert sorted(stored) == [1, 2, 3]
    assert given == {2: stored[2], 3: stored[3]}
    assert fairness.commitment(given[3][0]) == given[3][1]

    with CaptureQueriesContext(connection) as again:
        assert seeds.hand_seeds(counter_table, 2, 3) == given
    assert again.captured_queries == []


def test_cm_5_a_rolled_back_commands_seeds_are_neither_stored_nor_remembered(counter_table):
    seeds.make_seeds(counter_table, [1, 2])
    with pytest.raises(RuntimeError), transaction.atomic():
        seeds.hand_seeds(counter_table, 3)
        raise RuntimeError("the command is refused")
    assert not HandSeed.objects.filter(table=counter_table, hand_no=3).exists()
    with transaction.atomic():
        made = seeds.hand_seeds(counter_table, 3)
    assert HandSeed.objects.get(table=counter_table, hand_no=3).commitment == made[3][1]


def _newest(table) -> seeds.Newest:
    """The table's newest seeds as the statement that locks it reads them (PostgreSQL)."""
    read = seeds.newest_read(table.pk)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {read.sql}", read.params)
        return read.decode(cursor.fetchone()[0])


def test_cm_5_the_newest_seeds_read_with_the_lock_serve_and_the_next_is_made_without_a_look(postgres_tx, counter_table):
    """A process that does not hold the seeds takes them from the newest two read with the table's
    lock; a hand above them has none yet and is made with no read; a later step of the same command
    finds the one it made instead of making it twice. What it made is written with its events, in
    the append's statement (``stored_with``)."""
    made = seeds.make_seeds(counter_table, [1, 2])
    seeds.forget_seeds()
    newest = _newest(counter_table).as_of(counter_table.version)
    assert (newest.seeds, newest.top) == (made, 2)
    with transaction.atomic():
        with CaptureQueriesContext(connection) as captured:
            given = seeds.hand_seeds(counter_table, 2, 3, newest=newest)
            assert seeds.hand_seeds(counter_table, 3, 4, newest=newest)[3] == given[3]
        assert captured.captured_queries == []
        assert given[2] == made[2] and sorted(newest.unwritten) == [3, 4]
        rider = seeds.stored_with(counter_table, newest, [])
        with transaction.atomic():
            store.append(table=counter_table, expected_version=0, records=[], riders=[rider])
    stored = {
        row.hand_no: (bytes(row.server_seed), row.commitment) for row in HandSeed.objects.filter(table=counter_table)
    }
    assert (
        sorted(stored) == [1, 2, 3, 4] and stored[3] == given[3] and fairness.commitment(stored[4][0]) == stored[4][1]
    )


def test_cm_5_seeds_made_by_a_command_that_deals_them_are_stored_before_its_events(postgres_tx, counter_table):
    """A seed the command made and its own events deal (or reveal) has its row updated with them
    (``recorded_with``): a statement beside the insert would not see the row, so it is stored
    first, and nothing rides."""
    seeds.make_seeds(counter_table, [1, 2])
    newest = _newest(counter_table).as_of(counter_table.version)
    with transaction.atomic():
        made = seeds.hand_seeds(counter_table, 3, newest=newest)
        dealt = store.NewEvent(type="HandStarted", data={"client_seed": "c", "commitment": made[3][1]}, hand_no=3)
        assert seeds.stored_with(counter_table, newest, [dealt]) is None
        assert HandSeed.objects.filter(table=counter_table, hand_no=3).exists()


def test_cm_5_newest_seeds_read_before_a_wait_for_the_lock_are_not_trusted_to_be_all(postgres_tx, counter_table):
    """Read at another version than the lock holds (the statement waited for a writer, who may have
    made seeds since), the newest seeds still serve, but a hand above them is looked for before one
    is made."""
    seeds.make_seeds(counter_table, [1, 2])
    newest = _newest(counter_table)
    seeds.make_seeds(counter_table, [3])  # the writer the lock waited for
    seeds.forget_seeds()
    newest = newest.as_of(counter_table.version + 1)
    assert newest.top is None
    with transaction.atomic(), CaptureQueriesContext(connection) as captured:
        given = seeds.hand_seeds(counter_table, 2, 3, newest=newest)
    statements = [query["sql"].split()[0] for query in captured.captured_queries]
    assert statements.count("SELECT") == 1 and "INSERT" not in statements, statements
    assert given[3][1] == HandSeed.objects.get(table=counter_table, hand_no=3).commitment
