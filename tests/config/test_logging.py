"""JSON log lines carry the request id, from the request into the tasks it schedules; the sweep
and beat keep quiet unless asked."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest
from django.conf import settings
from django.test import Client
from pythonjsonlogger.json import JsonFormatter

from config.logs import RequestIdFilter, SweepAtDebug
from games import tasks
from tests.config.observability_helpers import bot_table, person_moves

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def json_lines() -> Iterator[io.StringIO]:
    """The root logger's lines, formatted as the ``json`` LOG_FORMAT formats them."""
    options = {k: v for k, v in settings.LOGGING["formatters"]["json"].items() if k != "()"}
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RequestIdFilter())
    handler.setFormatter(JsonFormatter(**options))
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield stream
    finally:
        root.removeHandler(handler)


def records(stream: io.StringIO) -> list[dict]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def test_a_request_and_the_task_it_schedules_log_under_its_id(counter_game, task_queue, json_lines):
    alice, table_id = bot_table(task_queue)
    response = person_moves(alice, table_id, HTTP_X_REQUEST_ID="abc-123")
    assert response["X-Request-ID"] == "abc-123"
    assert task_queue.published[0][3]["request_id"] == "abc-123"
    task_queue.run_until_idle()

    lines = records(json_lines)
    mine = [line for line in lines if line["request_id"] == "abc-123"]
    access = [line for line in mine if line["logger"] == "access"]
    assert len(access) == 1
    assert access[0]["route"] == "table-actions" and access[0]["status"] == 200
    bot = [line for line in mine if line["logger"] == "games.tasks"]
    assert len(bot) == 1 and "played" in bot[0]["message"], lines
    # Every other line belongs to another request, or to none.
    assert all(line["request_id"] != "abc-123" for line in lines if line not in mine)
    assert {"time", "level", "logger", "message"} <= set(access[0])


def test_an_insane_request_id_is_replaced():
    for sent in ("x" * 65, "abc 123", "abc\n123", "<script>"):
        answered = Client().get("/healthz", HTTP_X_REQUEST_ID=sent)["X-Request-ID"]
        assert answered != sent
        assert len(answered) == 32 and answered.isalnum()
    assert Client().get("/healthz", HTTP_X_REQUEST_ID="A.b_c-9")["X-Request-ID"] == "A.b_c-9"


def test_every_request_gets_an_id_and_refusals_log_it(json_lines):
    response = Client().get("/nowhere/", HTTP_X_REQUEST_ID="lost-1")
    assert response.status_code == 404
    assert response["X-Request-ID"] == "lost-1"
    warnings = [line for line in records(json_lines) if line["logger"] == "django.request"]
    assert warnings and all(line["request_id"] == "lost-1" for line in warnings)


def test_the_sweep_and_beat_log_at_debug(json_lines):
    assert logging.getLogger("celery.beat").getEffectiveLevel() == logging.WARNING
    tasks.sweep_deadlines.apply()
    assert [line for line in records(json_lines) if line["logger"] == "games.tasks"] == []

    quiet = SweepAtDebug()

    def celery_line(name: str) -> logging.LogRecord:
        return logging.LogRecord(
            "celery.app.trace", logging.INFO, __file__, 1, "Task %(name)s succeeded", ({"name": name},), None
        )

    assert quiet.filter(celery_line("games.tasks.play_bot"))
    assert not quiet.filter(celery_line("games.tasks.sweep_deadlines"))
    logging.getLogger("games.tasks").setLevel(logging.DEBUG)
    try:
        assert quiet.filter(celery_line("games.tasks.sweep_deadlines"))
    finally:
        logging.getLogger("games.tasks").setLevel(logging.NOTSET)


def test_log_format_follows_debug_unless_set():
    assert settings.LOG_FORMAT in {"json", "text"}
    handler = settings.LOGGING["handlers"]["console"]
    assert handler["formatter"] == settings.LOG_FORMAT
    assert "request_id" in handler["filters"]
