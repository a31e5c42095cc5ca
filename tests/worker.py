"""A real Celery worker process for the tests: the project's tasks plus the small test game.

Started by the ``celery_worker_process`` fixture with the test database's name in
``DJANGO_DB_NAME``; it touches ``WORKER_READY_FILE`` once it consumes from the broker.
"""

from __future__ import annotations

import os
import pathlib
import sys

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import django

django.setup()

from celery.signals import worker_ready  # noqa: E402

from config.celery import app  # noqa: E402
from games.engine import registry  # noqa: E402
from tests.games import counter  # noqa: E402

registry.register(counter.DECIDER)


@app.task(name="tests.worker.backend_pid")
def backend_pid(path: str) -> None:
    """Append the PostgreSQL backend that ran this task to ``path`` (tests/config/test_pools.py)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    with open(path, "a") as out:
        out.write(f"{pid}\n")


@worker_ready.connect
def _ready(**_kwargs) -> None:
    pathlib.Path(os.environ["WORKER_READY_FILE"]).touch()


if __name__ == "__main__":
    schedule = os.environ["WORKER_READY_FILE"] + ".beat"
    app.worker_main(
        [
            "worker",
            "--pool=solo",
            "--loglevel=WARNING",
            "--without-gossip",
            "--without-mingle",
            "--beat",
            f"--schedule={schedule}",
        ]
    )
