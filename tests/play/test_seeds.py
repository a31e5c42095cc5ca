"""Hand seeds made as hands come (CM-5): the command that first needs a hand's seed makes it in one
statement and reads nothing back; once committed, the process remembers it (issue 24)."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

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
