"""Bots in a row played by one task (issue 24): each turn its own command (transaction, events,
outbox row, notice), the turn a task would have published kept back and marked done by the next
command instead, and a crash between two turns leaving the table as one turn would have."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import outbox, play, tasks
from games.models import Event, OutboxMessage, Table
from games.play import worker
from tests.api.play import Game, game_moves, person, set_up

pytestmark = pytest.mark.django_db(transaction=True)

# A person and two bots: after the person's move, two bots' turns in a row.
GUERRA = Game("guerra", 3, people=(0,), options={"max_rounds": 30})


@pytest.fixture(autouse=True)
def _chained(settings):
    """The chain on, as BOT_MOVES_IN_A_ROW allows it (20 by default; set here so that the tests do not depend on the default)."""
    settings.BOT_MOVES_IN_A_ROW = 20


def _person_awaited(table_id: str, client, task_queue) -> dict:
    """Run the queued bot turns until the person is awaited; their view."""
    for _ in range(50):
        task_queue.run_until_idle()
        view = client.get(f"/api/v1/tables/{table_id}/").json()
        if 0 in view["to_act"] and game_moves(view):
            return view
    pytest.fail("the person was never awaited")


def _act(table_id: str, client, view: dict) -> None:
    body = {"action": game_moves(view)[0], "expected_version": view["version"]}
    assert client.post(f"/api/v1/tables/{table_id}/actions/", body, format="json").status_code == 200


def _actors_after(table_id: str, version: int) -> list[str]:
    return list(
        Event.objects.filter(table_id=table_id, seq__gt=version).order_by("seq").values_list("actor", flat=True)
    )


def test_one_task_plays_the_bots_in_a_row_each_its_own_command(task_queue, monkeypatch):
    owner, staff = person("alice"), person("sam", staff=True)
    table_id, clients = set_up(GUERRA, owner, staff)
    view = _person_awaited(table_id, clients[0], task_queue)
    _act(table_id, clients[0], view)
    bot_tasks = [entry for entry in task_queue.published if entry[0] == "games.tasks.play_bot"]
    assert len(bot_tasks) == 1
    task_queue.published.clear()
    before = Table.objects.get(pk=table_id).version
    notices: list[dict] = []
    monkeypatch.setattr("games.notify.publish", notices.append)
    assert tasks.play_bot(*bot_tasks[0][1]) is True
    after = Table.objects.get(pk=table_id)
    actors = _actors_after(table_id, before)
    # Both bots played, one after the other, each its own command: a notice each.
    assert {"bot:1", "bot:2"} <= set(actors) <= {"bot:1", "bot:2", "system"}, actors
    table_notices = [n for n in notices if n["k"] == "table"]
    assert len(table_notices) >= 2 and [n["v"] for n in table_notices] == sorted({n["v"] for n in table_notices})
    assert table_notices[-1]["v"] == after.version
    # Each turn stored the next bot's turn; the task played it itself, so none was published: each
    # is marked done, never sent. The person is awaited now, and no bot turn is queued.
    bot_rows = OutboxMessage.objects.filter(task="games.tasks.play_bot", args__0=table_id).order_by("pk")
    stored_by_bots = [row for row in bot_rows if row.args[1] > before]
    assert stored_by_bots and all(row.published_at is not None and row.attempts == 0 for row in stored_by_bots)
    assert "games.tasks.play_bot" not in task_queue.names()
    assert not after.awaits_bot and 0 in clients[0].get(f"/api/v1/tables/{table_id}/").json()["to_act"]


def test_a_crash_between_two_bot_turns_leaves_the_table_as_one_turn_would(task_queue, monkeypatch, settings):
    owner, staff = person("alice"), person("sam", staff=True)
    table_id, clients = set_up(GUERRA, owner, staff)
    view = _person_awaited(table_id, clients[0], task_queue)
    _act(table_id, clients[0], view)
    (bot_task,) = [entry for entry in task_queue.published if entry[0] == "games.tasks.play_bot"]
    task_queue.published.clear()
    version = bot_task[1][1]
    chose = worker.choose_for
    calls = []

    def crash_on_the_second(seen, seat):
        calls.append(seat)
        if len(calls) == 2:
            raise SystemExit("the worker died")
        return chose(seen, seat)

    monkeypatch.setattr(worker, "choose_for", crash_on_the_second)
    # A process that dies publishes nothing after its last commit.
    monkeypatch.setattr("games.scheduling.publish_after_commit", lambda row: None)
    with pytest.raises(SystemExit):
        play.play_bot_turns(table_id=table_id, expected_version=version)
    monkeypatch.undo()
    table = Table.objects.get(pk=table_id)
    # One turn committed: the first bot's, whose own command stored the second bot's turn.
    assert len(calls) == 2 and table.version > version
    assert set(_actors_after(table_id, version)) <= {"bot:1", "bot:2", "system"}
    (unsent,) = OutboxMessage.objects.filter(task="games.tasks.play_bot", args=[table_id, table.version])
    assert unsent.published_at is not None and table.awaits_bot
    # Its row was stored marked published: not the relay's. The table row says it awaits a bot, and
    # once it has not moved for STALLED_BOT_SECONDS beat's sweep sends the turn; the next worker
    # plays on.
    settings.OUTBOX_RELAY_AFTER_SECONDS = 0
    assert outbox.relay() == 0
    settings.STALLED_BOT_SECONDS = 0
    assert outbox.redrive_stalled_bots() == 1
    assert ("games.tasks.play_bot", (table_id, table.version)) in [(n, tuple(a)) for n, a, _, _ in task_queue.published]
    task_queue.run_until_idle()
    assert Table.objects.get(pk=table_id).version > table.version


def test_a_chained_turn_costs_no_more_than_a_turn_of_its_own(task_queue):
    owner, staff = person("alice"), person("sam", staff=True)
    table_id, clients = set_up(GUERRA, owner, staff)
    view = _person_awaited(table_id, clients[0], task_queue)
    _act(table_id, clients[0], view)
    (bot_task,) = [entry for entry in task_queue.published if entry[0] == "games.tasks.play_bot"]
    task_queue.published.clear()
    with CaptureQueriesContext(connection) as captured:
        played = play.play_bot_turns(table_id=table_id, expected_version=bot_task[1][1])
    assert played >= 2
    # Per turn: BEGIN, the table read under its lock, the append (with its riders), COMMIT (on
    # SQLite the append is two statements and the riders their own); the published rows' marks.
    most = 4 if connection.vendor == "postgresql" else 8
    assert len(captured.captured_queries) <= most * played, [q["sql"][:120] for q in captured.captured_queries]
