"""config's Celery app, plus a signal that tells the shape the worker consumes: it touches
``WORKER_READY_FILE`` on ``worker_ready``. Run as ``celery -A tests.production.celery_app worker``."""

from __future__ import annotations

import os
import pathlib

from celery.signals import worker_ready

from config.celery import app

__all__ = ["app"]


@worker_ready.connect
def _ready(**_kwargs) -> None:
    ready = os.environ.get("WORKER_READY_FILE")
    if ready:
        pathlib.Path(ready).touch()
