"""Fixtures for the work Celery does: an in-test queue of published tasks, and a real worker
process consuming from the configured broker."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from celery import current_app
from django.conf import settings
from django.db import connection

# The modules of the tasks a test may queue: importing them registers their tasks with the app.
import api.tasks  # noqa: F401
import games.tasks  # noqa: F401
from games import scheduling

ROOT = Path(__file__).resolve().parent.parent


class TaskQueue:
    """Tasks published after commit, kept in order so a test can run them one at a time.

    Running a task runs it through Celery's tracer with the headers it was published with, as a
    worker does (its ``task_prerun`` and ``task_postrun`` signals fire); only the broker hop is left
    out.
    """

    def __init__(self) -> None:
        self.published: list[tuple[str, tuple[Any, ...], float | None, dict[str, Any]]] = []

    def publish(self, name: str, args: tuple[Any, ...], countdown: float | None, headers: dict[str, Any]) -> None:
        self.published.append((name, args, countdown, headers))

    def names(self) -> list[str]:
        return [name for name, _, _, _ in self.published]

    @staticmethod
    def _run(name: str, args: tuple[Any, ...], headers: dict[str, Any]) -> Any:
        return current_app.tasks[name].apply(args=args, headers=headers, throw=True).get()

    def run_next(self) -> Any:
        name, args, _, headers = self.published.pop(0)
        return self._run(name, args, headers)

    def run_until_idle(self, *, limit: int = 10_000, skip_timers: bool = True) -> int:
        """Run queued tasks (and those they queue) until none is left; deadline tasks are dropped
        unless ``skip_timers`` is false, since their time has not come."""
        ran = 0
        while self.published and ran < limit:
            name, args, _, headers = self.published.pop(0)
            if skip_timers and name.endswith("expire_deadline"):
                continue
            self._run(name, args, headers)
            ran += 1
        return ran


@pytest.fixture
def task_queue() -> Iterator[TaskQueue]:
    queue = TaskQueue()
    scheduling.set_publisher(queue.publish)
    yield queue
    scheduling.set_publisher(None)


def wait_until(condition: Callable[[], Any], *, timeout: float = 30.0, what: str = "condition") -> Any:
    """Poll ``condition`` until it is true or ``timeout`` passes; the test fails on timeout."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout:.0f}s waiting for {what}")
        time.sleep(0.05)


@pytest.fixture
def celery_worker_process(transactional_db) -> Iterator[subprocess.Popen]:
    """A real ``celery worker`` process (with beat) on the configured broker and the test database."""
    with tempfile.TemporaryDirectory() as folder:
        ready = Path(folder) / "ready"
        env = {
            **os.environ,
            "DJANGO_DB_NAME": str(connection.settings_dict["NAME"]),
            "DATA_DIR": str(settings.DATA_DIR),
            "WORKER_READY_FILE": str(ready),
            "SWEEP_SECONDS": "0.5",
        }
        log = open(Path(folder) / "worker.log", "w+")  # noqa: SIM115 - read back on failure
        process = subprocess.Popen(
            [sys.executable, str(ROOT / "tests" / "worker.py")], env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT
        )
        try:
            wait_until(lambda: ready.exists() or process.poll() is not None, timeout=60, what="the worker to start")
            if process.poll() is not None:
                log.seek(0)
                pytest.fail(f"the worker exited at start:\n{log.read()[-4000:]}")
            yield process
        finally:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
            log.close()


@pytest.fixture(autouse=True)
def _no_broker_unless_asked(request) -> Iterator[None]:
    """Tests publish to the broker only with a real worker to consume; otherwise due tasks are
    dropped (or queued by ``task_queue``), so no stale messages pile up between runs."""
    if "celery_worker_process" in request.fixturenames:
        yield
        return
    scheduling.set_publisher(lambda name, args, countdown, headers: None)
    yield
    scheduling.set_publisher(None)
