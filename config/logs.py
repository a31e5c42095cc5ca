"""Logging filters named by ``LOGGING`` in the settings."""

from __future__ import annotations

import logging

from games import telemetry

SWEEP_TASK = "games.tasks.sweep_deadlines"


class RequestIdFilter(logging.Filter):
    """Puts the id of the request (or of the task it scheduled) on every record, ``-`` outside one."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = telemetry.current_request_id() or "-"
        return True


class SweepAtDebug(logging.Filter):
    """Celery's "received" and "succeeded" lines of the deadline sweep, which beat sends every
    ``SWEEP_SECONDS``, pass only when ``games.tasks`` logs at DEBUG: they are the sweep's lines too."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, dict) and args.get("name") == SWEEP_TASK:
            return logging.getLogger("games.tasks").isEnabledFor(logging.DEBUG)
        return True
