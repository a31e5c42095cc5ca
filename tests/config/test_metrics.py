"""/metrics: the write path's counters per game, the latency by route, the bots' decision time, the
tasks' queue delay and the gauges read from the database at scrape time."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from games.models import Table
from ledger.models import Payout
from tests.config.observability_helpers import bot_table, person_moves

pytestmark = pytest.mark.django_db(transaction=True)


def scrape() -> dict[tuple[str, frozenset], float]:
    response = Client().get("/metrics")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(response.content.decode())
        for sample in family.samples
    }


def value(samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def test_an_action_and_a_bot_turn_move_the_counters_of_their_game(counter_game, task_queue):
    alice, table_id = bot_table(task_queue)
    before = scrape()
    person_moves(alice, table_id)
    assert task_queue.names()[0] == "games.tasks.play_bot"
    task_queue.run_until_idle()
    after = scrape()

    def moved(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert moved("game_actions_total", game="counter", actor="user") == 1
    assert moved("game_actions_total", game="counter", actor="bot") == 1
    assert moved("game_events_total", game="counter") >= 2
    assert moved("bot_decision_seconds_count", game="counter") == 1
    assert moved("task_queue_delay_seconds_count", task="games.tasks.play_bot") == 1
    assert moved("http_request_duration_seconds_count", route="table-actions", method="POST", status="2xx") == 1
    assert value(after, "http_request_duration_seconds_count", route="table", method="GET", status="2xx") >= 1


def test_a_refused_action_counts_nothing(counter_game, task_queue):
    alice, table_id = bot_table(task_queue)
    before = scrape()
    stale = alice.post(
        f"/api/v1/tables/{table_id}/actions/",
        {"action": {"type": "add", "amount": 1}, "expected_version": 0},
        format="json",
    )
    assert stale.status_code == 409
    after = scrape()
    assert value(after, "game_actions_total", game="counter", actor="user") == value(
        before, "game_actions_total", game="counter", actor="user"
    )
    assert value(after, "http_request_duration_seconds_count", route="table-actions", method="POST", status="4xx") >= 1


def test_the_gauges_count_overdue_deadlines_and_pending_payouts(counter_game, task_queue):
    _, table_id = bot_table(task_queue)
    samples = scrape()
    assert samples[("game_deadlines_overdue", frozenset())] == 0
    assert samples[("payouts_pending", frozenset())] == 0

    Table.objects.filter(pk=table_id).update(deadline_at=timezone.now() - timedelta(seconds=30))
    Payout.objects.create(table_id=table_id, seat=0, currency="MXN", amount=500, pending_key=f"payout:{table_id}.0:MXN")
    samples = scrape()
    assert samples[("game_deadlines_overdue", frozenset())] == 1
    assert samples[("game_deadline_oldest_overdue_seconds", frozenset())] >= 30
    assert samples[("payouts_pending", frozenset())] == 1


def test_metrics_need_no_token():
    assert Client().get("/metrics").status_code == 200
