"""Celery tasks: each takes ids, calls one service and is idempotent by the table's version."""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import OperationalError

from games import services
from games.errors import Conflict

log = logging.getLogger(__name__)


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def play_bot(table_id: str, expected_version: int) -> bool:
    """A bot's turn at ``expected_version``; does nothing if the table has moved on."""
    try:
        played = services.play_bot_turn(table_id=table_id, expected_version=expected_version) is not None
    except Conflict:
        played = False
    log.info("bot turn at table %s version %s: %s", table_id, expected_version, "played" if played else "moved on")
    return played


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def expire_deadline(table_id: str, expected_version: int) -> bool:
    """The fast path of a deadline: runs at its time; the sweep catches any that are missed."""
    try:
        expired = services.expire_deadline(table_id=table_id, expected_version=expected_version) is not None
    except Conflict:
        expired = False
    log.info("deadline of table %s version %s: %s", table_id, expected_version, "expired" if expired else "moved on")
    return expired


@shared_task(acks_late=True, ignore_result=True)
def sweep_deadlines() -> int:
    """Beat's periodic sweep of the deadlines stored in the database."""
    done = services.sweep_deadlines()
    # Every SWEEP_SECONDS (1 s): at DEBUG, or it drowns everything else.
    log.debug("swept deadlines: %d expired", done)
    return done


@shared_task(acks_late=True, ignore_result=True)
def purge_idempotency_records() -> int:
    """Beat's periodic purge of idempotency records past IDEMPOTENCY_TTL_SECONDS."""
    purged = services.purge_command_records()
    log.info("purged %d idempotency records past their TTL", purged)
    return purged
