"""The transactional outbox (issue 12, item 1): work for the worker is stored with the events and
published after the commit; a broker that is down or hung never fails or stalls a committed action,
and beat's sweep publishes what is pending and what stalled."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from config import settings as config_settings
from games import outbox, scheduling, tasks, telemetry
from games.models import Event, OutboxMessage, Table
from tests.api.play import person
from tests.fixtures_tasks import TaskQueue

pytestmark = pytest.mark.django_db(transaction=True)


class Broker(TaskQueue):
    """The in-test queue behind a broker that can be down (every publish raises) or drop messages
    it accepted (a worker killed with them)."""

    def __init__(self) -> None:
        super().__init__()
        self.down = False
        self.dropping = False

    def publish(self, name, args, countdown, headers) -> None:
        if self.down:
            raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        if not self.dropping:
            super().publish(name, args, countdown, headers)


@pytest.fixture
def broker():
    queue = Broker()
    scheduling.set_publisher(queue.publish)
    yield queue
    scheduling.set_publisher(None)


def bot_table_awaiting_the_bot(client) -> str:
    """A counter table of ``client`` (seat 0) and a bot (seat 1), at the bot's turn; its bot turn
    may or may not have reached the broker. Its turn timer (5 s) is short enough to be sent as a
    countdown task (MAX_TASK_COUNTDOWN), so each turn stores a timer row too."""
    body = {"game": "counter", "seats": 2, "options": {"turn_seconds": 5}}
    response = client.post("/api/v1/tables/", body, format="json")
    table_id = response.json()["id"]
    assert client.post(f"/api/v1/tables/{table_id}/join/", {"seat": 0}, format="json").status_code == 200
    assert client.post(f"/api/v1/tables/{table_id}/bots/", {}, format="json").status_code == 201
    assert client.post(f"/api/v1/tables/{table_id}/start/").status_code == 200
    return table_id


def person_to_act(client, table_id):
    view = client.get(f"/api/v1/tables/{table_id}/").json()
    return view if view["to_act"] == [0] else None


def act(client, table_id, version):
    return client.post(
        f"/api/v1/tables/{table_id}/actions/",
        {"action": {"type": "add", "amount": 1}, "expected_version": version},
        format="json",
    )


def age_everything(seconds: float = 60) -> None:
    """Make every row look ``seconds`` older, as if that much time had passed without a move."""
    past = timedelta(seconds=seconds)
    for row in OutboxMessage.objects.all():
        OutboxMessage.objects.filter(pk=row.pk).update(
            created_at=row.created_at - past,
            due_at=row.due_at - past,
            published_at=row.published_at - past if row.published_at else None,
        )
    for table in Table.objects.all():
        Table.objects.filter(pk=table.pk).update(updated_at=table.updated_at - past)


def a_move_to_the_bot(client, broker) -> tuple[str, int]:
    """Play until the person's move hands the turn to the bot; the table's id and version then."""
    table_id = bot_table_awaiting_the_bot(client)
    broker.run_until_idle()
    view = person_to_act(client, table_id)
    assert view is not None, "after the bot's moves it is the person's turn"
    response = act(client, table_id, view["version"])
    assert response.status_code == 200, response.json()
    return table_id, response.json()["version"]


def test_an_action_answers_200_with_the_broker_down_and_the_relay_publishes_its_task_later(counter_game, broker):
    """Fails on the code before the outbox: the publish error escaped ``on_commit`` and the
    committed action answered a 500 (and the bot's turn was gone)."""
    alice = person("alice")
    table_id = bot_table_awaiting_the_bot(alice)
    broker.run_until_idle()
    version = person_to_act(alice, table_id)["version"]

    broker.down = True
    response = act(alice, table_id, version)
    assert response.status_code == 200
    body = response.json()
    assert body["version"] > version and body["events"]
    # The bot's turn and the turn timer; after the first failure the process left the second to
    # the relay without trying.
    pending = OutboxMessage.objects.filter(published_at__isnull=True).order_by("pk")
    assert [(row.task, row.attempts) for row in pending] == [
        ("games.tasks.play_bot", 1),
        ("games.tasks.expire_deadline", 0),
    ]
    assert broker.published == []

    # The broker comes back; the next sweep after the relay's grace publishes the rows.
    broker.down = False
    age_everything(seconds=2)
    assert outbox.relay() == 2
    assert broker.names() == ["games.tasks.play_bot", "games.tasks.expire_deadline"]
    assert not OutboxMessage.objects.filter(published_at__isnull=True).exists()
    broker.run_until_idle()
    assert Event.objects.filter(table_id=table_id, actor="bot:1", seq__gt=body["version"]).exists()


def test_a_tables_own_tasks_are_stored_marked_published_and_cost_no_statement_after_the_commit(counter_game, broker):
    """The bot's turn and the turn timer an action makes due are recorded by the table row too
    (``awaits_bot``, ``deadline_at``), which beat's sweeps act on: their rows are stored marked
    published, published once the action commits and never written again. Fails on the code
    before: each was marked published by an UPDATE of its own after the commit."""
    alice = person("alice")
    table_id = bot_table_awaiting_the_bot(alice)
    broker.run_until_idle()
    version = person_to_act(alice, table_id)["version"]
    since = OutboxMessage.objects.order_by("-pk").values_list("pk", flat=True).first()
    with CaptureQueriesContext(connection) as captured:
        assert act(alice, table_id, version).status_code == 200
    statements = [query["sql"] for query in captured.captured_queries]
    assert not [sql for sql in statements if sql.startswith("UPDATE") and "games_outboxmessage" in sql], statements
    rows = OutboxMessage.objects.filter(pk__gt=since).order_by("pk")
    assert [(row.task, row.published_at == row.created_at, row.attempts) for row in rows] == [
        ("games.tasks.play_bot", True, 0),
        ("games.tasks.expire_deadline", True, 0),
    ]
    assert broker.names() == ["games.tasks.play_bot", "games.tasks.expire_deadline"]
    assert outbox.relay() == 0


def test_the_relay_leaves_young_rows_to_their_commit_and_stops_at_the_first_failure(counter_game, broker):
    """Fails on the code before the outbox (no rows, no relay)."""
    with transaction.atomic():
        for version in (1, 2, 3):
            scheduling.schedule("games.tasks.play_bot", "t", version)
        broker.down = True  # the commit's own publish fails for the first row, then backs off
    assert OutboxMessage.objects.filter(published_at__isnull=True).count() == 3
    assert outbox.relay() == 0, "rows younger than OUTBOX_RELAY_AFTER_SECONDS are the commit's"
    age_everything(seconds=2)
    assert outbox.relay() == 0, "the broker is still down"
    broker.down = False
    assert outbox.relay() == 3
    assert [args for _, args, _, _ in broker.published] == [("t", 1), ("t", 2), ("t", 3)], "oldest first"


def test_a_task_scheduled_later_waits_for_its_time_then_the_relay_sends_it(broker, django_capture_on_commit_callbacks):
    """``schedule_later``: nothing is published at the commit, however long the wait; the relay
    leaves the row until it is due within ``MAX_TASK_COUNTDOWN``, then sends it with what is left."""
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        scheduling.schedule_later("games.tasks.play_bot", "t", 7, seconds=600)
    assert broker.published == []
    age_everything(seconds=60)
    assert outbox.relay() == 0
    (row,) = OutboxMessage.objects.filter(published_at__isnull=True)
    OutboxMessage.objects.filter(pk=row.pk).update(
        due_at=timezone.now() + timedelta(seconds=settings.MAX_TASK_COUNTDOWN / 2)
    )
    assert outbox.relay() == 1
    ((name, args, countdown, headers),) = broker.published
    assert (name, args) == ("games.tasks.play_bot", ("t", 7))
    assert countdown is not None and 0 < countdown <= settings.MAX_TASK_COUNTDOWN / 2
    # The worker measures a task's queue delay from the time it was meant for, not when it was stored.
    assert headers[telemetry.HEADER_DUE_AT] > time.time() + 500


def test_a_password_reset_asked_with_the_broker_down_is_mailed_once_it_is_back(broker, mailoutbox):
    """A reset link asked for while the broker is down is stored, under a key that fits its column
    however long the address and the page (the digest of its arguments), and the relay sends it."""
    from django.contrib.auth import get_user_model

    address = "a" * 230 + "@example.com"
    get_user_model().objects.create_user(username="alice", email=address, password="first password 1")
    broker.down = True
    page = "https://cards.example/" + "p" * 120
    with transaction.atomic():
        scheduling.schedule("api.tasks.send_reset_link", address, page, "en")
    (row,) = OutboxMessage.objects.all()
    assert row.published_at is None and row.args == [address, page, "en"]
    assert len(row.key) <= OutboxMessage._meta.get_field("key").max_length
    assert row.key == scheduling.task_key(row.task, row.args) != scheduling.task_key(row.task, [address, page, "es"])
    broker.down = False
    age_everything(seconds=2)
    assert outbox.relay() == 1
    broker.run_until_idle()
    assert [mail.to for mail in mailoutbox] == [[address]]


def test_a_lost_bot_turn_is_published_again_by_the_sweep_and_played(counter_game, broker):
    """Fails on the code before the outbox: a bot turn whose message was lost (a worker killed
    with it unacked) waited for the turn timer; now the sweep publishes it again once the table
    has not moved for STALLED_BOT_SECONDS."""
    alice = person("alice")
    table_id = bot_table_awaiting_the_bot(alice)
    broker.run_until_idle()
    version = person_to_act(alice, table_id)["version"]
    broker.dropping = True
    response = act(alice, table_id, version)
    assert response.status_code == 200
    version = response.json()["version"]
    broker.dropping = False
    assert broker.published == [], "the broker took the message and lost it"
    assert Table.objects.get(pk=table_id).awaits_bot

    tasks.sweep_deadlines.apply()
    assert broker.published == [], "not stalled yet: the worker may still be on it"
    age_everything(seconds=settings.STALLED_BOT_SECONDS + 1)
    tasks.sweep_deadlines.apply()
    assert broker.names() == ["games.tasks.play_bot"]
    assert broker.published[0][1] == (str(table_id), version)
    tasks.sweep_deadlines.apply()
    assert len(broker.published) == 1, "published again only after another STALLED_BOT_SECONDS"

    broker.run_until_idle()
    assert Event.objects.filter(table_id=table_id, actor="bot:1", seq__gt=version).exists()
    assert not Table.objects.get(pk=table_id).awaits_bot


def test_a_stalled_bot_turn_without_a_row_gets_one(counter_game, broker):
    """Fails on the code before the outbox. A table that stalled before the outbox existed, or
    whose row was purged, still gets its bot turn."""
    alice = person("alice")
    table_id, version = a_move_to_the_bot(alice, broker)
    broker.published.clear()
    OutboxMessage.objects.all().delete()
    age_everything(seconds=settings.STALLED_BOT_SECONDS + 1)
    assert outbox.redrive_stalled_bots() == 1
    assert [args for _, args, _, _ in broker.published] == [(str(table_id), version)]


def test_a_bot_turn_published_twice_plays_once(counter_game, broker):
    """A guard, not a fix (it passes on the code before the outbox too): the relay and the stalled
    turn check may publish a message twice, and the second run does nothing."""
    alice = person("alice")
    table_id, version = a_move_to_the_bot(alice, broker)
    [(name, args, _, headers)] = [item for item in broker.published if item[0].endswith("play_bot")]
    broker.published.append((name, args, None, headers))
    broker.run_until_idle()
    bot_moves = Event.objects.filter(table_id=table_id, actor="bot:1", seq=version + 1)
    assert bot_moves.count() == 1
    assert Event.objects.filter(table_id=table_id, seq__gt=version, actor="bot:1").count() == 1


def test_published_rows_are_purged_after_outbox_keep_seconds(counter_game, broker):
    """Fails on the code before the outbox (nothing to purge)."""
    with transaction.atomic():
        scheduling.schedule("games.tasks.play_bot", "t", 1)
        scheduling.schedule("games.tasks.play_bot", "t", 2)
    OutboxMessage.objects.filter(args=["t", 2]).update(published_at=None)
    assert tasks.purge_outbox.apply().get() == 0
    age_everything(seconds=settings.OUTBOX_KEEP_SECONDS + 1)
    assert tasks.purge_outbox.apply().get() == 1
    assert list(OutboxMessage.objects.values_list("args", flat=True)) == [["t", 2]], "pending rows stay"


def test_two_relays_never_publish_the_same_row(counter_game, broker, postgres_tx):
    """Fails on the code before the outbox. A relay holding rows (a second beat, an overlapping
    sweep) makes the other skip them (SELECT … FOR UPDATE SKIP LOCKED)."""
    broker.down = True
    with transaction.atomic():
        scheduling.schedule("games.tasks.play_bot", "t", 1)
    broker.down = False
    age_everything(seconds=2)
    holding, release = threading.Event(), threading.Event()

    def slow_relay() -> None:
        with transaction.atomic():
            list(OutboxMessage.objects.select_for_update().filter(published_at__isnull=True))
            holding.set()
            release.wait(10)
        connection.close()

    other = threading.Thread(target=slow_relay)
    other.start()
    try:
        assert holding.wait(10)
        assert outbox.relay() == 0
    finally:
        release.set()
        other.join()
    assert outbox.relay() == 1
    assert len(broker.published) == 1


# --- a broker that hangs -------------------------------------------------------------------------


class HungRedis:
    """A TCP server that accepts connections and never answers: Redis stopped (SIGSTOP), or a
    proxy whose far side is gone."""

    def __init__(self) -> None:
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(16)
        self.port = self.server.getsockname()[1]
        self.accepted: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            self.accepted.append(conn)

    def close(self) -> None:
        self.server.close()
        for conn in self.accepted:
            conn.close()


@pytest.fixture
def hung_broker(monkeypatch):
    """The project's real publisher, on an app built from the settings' broker options for a Redis
    that hangs."""
    from celery import Celery

    import config.celery

    hung = HungRedis()
    url = f"redis://127.0.0.1:{hung.port}/0"
    monkeypatch.setenv("CELERY_BROKER_URL", url)
    _, options = config_settings._broker()
    app = Celery("hung", set_as_current=False)
    app.conf.update(
        broker_url=url,
        broker_transport_options=options,
        broker_connection_timeout=settings.CELERY_BROKER_CONNECTION_TIMEOUT,
    )
    # The publisher sends through celery.current_app: the hung app is the default of every thread
    # (the action runs in one of its own) until the test ends, then the project's app is again.
    app.set_default()
    scheduling.set_publisher(None)
    yield hung
    scheduling.set_publisher(None)
    config.celery.app.set_default()
    hung.close()


def timed_action(client, table_id, version, *, limit: float) -> tuple[float, int]:
    """The action's (seconds, status), failing if it takes longer than ``limit``."""
    result: dict[str, float | int] = {}

    def run() -> None:
        started = time.monotonic()
        try:
            result["status"] = act(client, table_id, version).status_code
        finally:
            result["seconds"] = time.monotonic() - started
            connection.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(limit)
    if thread.is_alive():
        pytest.fail(f"the action still hangs on the broker after {limit:.0f}s")
    return float(result["seconds"]), int(result["status"])


def test_an_action_with_the_broker_hung_answers_within_the_publish_timeout(counter_game, hung_broker):
    """Fails on the code before the outbox: with no socket timeouts the publish after the commit
    waited on the hung broker for good (the probe saw 60 s). Now it gives up within the timeouts,
    the action answers 200, and the next ones do not wait at all while the process backs off."""
    queue = TaskQueue()
    scheduling.set_publisher(queue.publish)
    alice = person("alice")
    table_id = bot_table_awaiting_the_bot(alice)
    queue.run_until_idle()
    version = person_to_act(alice, table_id)["version"]
    scheduling.set_publisher(None)

    seconds, status = timed_action(alice, table_id, version, limit=20)
    assert status == 200
    # One attempt and one retry, each bounded by BROKER_SOCKET_TIMEOUT (1.5 s), plus the connect.
    assert seconds < 4 * settings.BROKER_SOCKET_TIMEOUT + 1, seconds
    assert OutboxMessage.objects.filter(published_at__isnull=True, task="games.tasks.play_bot").count() == 1


def test_the_broker_settings_bound_every_wait(settings, monkeypatch):
    """Fails on the code before the outbox: a Redis broker had no socket timeouts (a publish waited
    forever), and a worker gave up reconnecting after 100 tries."""
    monkeypatch.setenv("CELERY_BROKER_URL", "redis://127.0.0.1:6379/0")
    _, options = config_settings._broker()
    assert options["socket_connect_timeout"] <= 2 and options["socket_timeout"] <= 2
    assert settings.CELERY_BROKER_CONNECTION_TIMEOUT <= 2
    assert settings.CELERY_BROKER_CONNECTION_MAX_RETRIES is None
    assert settings.CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP is True
    assert scheduling.PUBLISH_RETRY_POLICY["max_retries"] <= 1


def test_no_task_is_lost_with_a_row_that_could_not_be_marked(counter_game, broker):
    """Fails on the code before the outbox. The database gone between the publish and the mark
    leaves the row pending: the relay sends it again (harmless) rather than losing it."""
    from django.db import OperationalError, connection

    def database_gone_at_the_mark(execute, sql, params, many, context):
        # Only the statement that marks the row: the database answers everything before it.
        if sql.lstrip().upper().startswith("UPDATE") and OutboxMessage._meta.db_table in sql:
            raise OperationalError("the database went away")
        return execute(sql, params, many, context)

    with connection.execute_wrapper(database_gone_at_the_mark), transaction.atomic():
        scheduling.schedule("games.tasks.play_bot", "t", 1)
    assert broker.names() == ["games.tasks.play_bot"]
    assert OutboxMessage.objects.get().published_at is None
    age_everything(seconds=2)
    assert outbox.relay() == 1
    assert len(broker.published) == 2
    assert timezone.now() - OutboxMessage.objects.get().published_at < timedelta(seconds=5)


def test_the_publisher_sends_through_the_project_app_in_any_thread(monkeypatch):
    """games.scheduling publishes through ``celery.current_app`` (it imports nothing of config): in
    a thread of its own, as a request or a worker's task runs, that is the project's app, with its
    settings, not Celery's unconfigured fallback."""
    import config.celery

    sent = []
    monkeypatch.setattr(config.celery.app, "send_task", lambda name, **options: sent.append((name, options)))
    thread = threading.Thread(target=scheduling._publish, args=("games.tasks.play_bot", ("t1",), 2.0, {"h": "1"}))
    thread.start()
    thread.join(10)
    assert [(name, options["args"], options["countdown"], options["headers"]) for name, options in sent] == [
        ("games.tasks.play_bot", ["t1"], 2.0, {"h": "1"})
    ]


PROCESS_APP = """
import threading
from celery import current_app
import {module}
seen = []
thread = threading.Thread(target=lambda: seen.append((current_app.main, current_app.conf.broker_url)))
thread.start()
thread.join(10)
print(seen[0][0], seen[0][1] == {broker!r})
"""


@pytest.mark.parametrize(
    ("process", "module", "settings_module"),
    [
        ("web", "config.asgi", "config.settings"),
        ("worker and beat (celery -A config)", "config", "config.settings"),
        ("tests", "django; django.setup()", "tests.settings"),
    ],
)
def test_every_process_publishes_through_the_project_app(process, module, settings_module):
    """A process that starts as the web, the worker, beat or the tests do has the project's app,
    configured from the settings, as ``celery.current_app`` in every thread."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": settings_module}
    script = PROCESS_APP.format(module=module, broker=settings.CELERY_BROKER_URL)
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["config", "True"], (process, done.stdout, done.stderr)
