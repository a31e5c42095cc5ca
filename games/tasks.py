"""Celery tasks: each takes ids, calls one service and is idempotent by the table's version."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from games import services
from games.errors import Conflict


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def play_bot(table_id: str, expected_version: int) -> bool:
    """A bot's turn at ``expected_version``; does nothing if the table has moved on."""
    try:
        return services.play_bot_turn(table_id=table_id, expected_version=expected_version) is not None
    except Conflict:
        return False


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def expire_deadline(table_id: str, expected_version: int) -> bool:
    """The fast path of a deadline: runs at its time; the sweep catches any that are missed."""
    try:
        return services.expire_deadline(table_id=table_id, expected_version=expected_version) is not None
    except Conflict:
        return False


@shared_task(acks_late=True, ignore_result=True)
def sweep_deadlines() -> int:
    """Beat's periodic sweep of the deadlines stored in the database."""
    return services.sweep_deadlines()


@shared_task(acks_late=True, ignore_result=True)
def purge_idempotency_records() -> int:
    """Beat's periodic purge of idempotency records past IDEMPOTENCY_TTL_SECONDS."""
    return services.purge_command_records()
