"""The request id of a task, on a threads pool: each run logs under its own request's id and gives
the thread back as it found it, even when two runs of one task id overlap (a redelivered task
still running), which raised ``ValueError: <Token var=<ContextVar name='request_id'> ...> was
created in a different Context`` from the postrun signal."""

from __future__ import annotations

import logging
import threading

import pytest
from celery import current_app

from games import telemetry

# Both runs are inside their bodies, past prerun, before either reaches postrun.
_inside = threading.Barrier(2, timeout=10)


@current_app.task(name="tests.config.request_id_seen")
def request_id_seen() -> str | None:
    _inside.wait()
    return telemetry.current_request_id()


def run_in_thread(request_id: str, before: str | None) -> dict[str, object]:
    """Apply the task as a worker's thread does, with ``before`` already current in the thread."""
    seen: dict[str, object] = {}

    def work() -> None:
        telemetry.bind_request_id(before)
        try:
            seen["inside"] = request_id_seen.apply(
                task_id="one-id-twice", headers={telemetry.HEADER_REQUEST_ID: request_id}, throw=True
            ).get()
            seen["after"] = telemetry.current_request_id()
        except Exception as exc:  # the test reports whatever went wrong
            seen["error"] = exc

    thread = threading.Thread(target=work)
    seen["thread"] = thread
    thread.start()
    return seen


def test_two_overlapping_runs_of_one_task_id_each_keep_their_request_id(caplog):
    _inside.reset()
    with caplog.at_level(logging.ERROR):
        first = run_in_thread("request-a", before=None)
        second = run_in_thread("request-b", before="the-thread-s-own")
        for seen in (first, second):
            seen["thread"].join(timeout=20)  # type: ignore[attr-defined]
            assert not seen["thread"].is_alive()  # type: ignore[attr-defined]
    assert "error" not in first and "error" not in second, (first, second)
    assert (first["inside"], first["after"]) == ("request-a", None)
    assert (second["inside"], second["after"]) == ("request-b", "the-thread-s-own")
    assert not [record for record in caplog.records if "request_id" in record.getMessage()], caplog.text


@pytest.mark.parametrize("headers", [{}, {telemetry.HEADER_REQUEST_ID: "not a sane id!"}])
def test_a_task_without_a_usable_request_id_runs_under_none_and_restores_the_callers(headers):
    """A task run eagerly inside a request (here, with ``web`` current) runs under no id when
    it carries none fit for the logs, and the request has its own back afterwards."""
    _inside.reset()
    telemetry.bind_request_id("web")
    try:
        partner = threading.Thread(target=_inside.wait)
        partner.start()
        inside = request_id_seen.apply(headers=headers, throw=True).get()
        partner.join(timeout=10)
        assert inside is None
        assert telemetry.current_request_id() == "web"
    finally:
        telemetry.bind_request_id(None)
