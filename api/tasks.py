"""Celery tasks of the API: the purge of expired tokens, the mailing of password reset links."""

from __future__ import annotations

import logging

from celery import shared_task
from django.utils import timezone
from knox.models import AuthToken

from api import password_reset

log = logging.getLogger(__name__)


@shared_task(acks_late=True, ignore_result=True)
def purge_expired_tokens(*, batch: int = 1000, max_batches: int = 100) -> int:
    """Beat's periodic purge of tokens past their expiry (with their device names). Knox deletes an
    expired token when it is presented, and the person's others when they next sign in; tokens of
    people who never come back would stay forever without this. ``batch`` rows per statement, at
    most ``max_batches`` per run: the next run takes the rest."""
    purged = 0
    for _ in range(max_batches):
        digests = list(AuthToken.objects.filter(expiry__lt=timezone.now()).values_list("digest", flat=True)[:batch])
        if not digests:
            break
        purged += AuthToken.objects.filter(digest__in=digests).delete()[1].get("knox.AuthToken", 0)
        if len(digests) < batch:
            break
    if purged:
        log.info("purged %d expired API tokens", purged)
    return purged


@shared_task(acks_late=True, ignore_result=True)
def send_reset_link(email: str, page: str, language: str, accounts: list[int] | None = None, attempt: int = 0) -> None:
    """Mail a password reset link to each account with ``email`` (``api.password_reset``), as the
    request that asked stored it in the outbox; a retry names the accounts whose mail failed."""
    password_reset.send_link(email=email, page=page, language=language, accounts=accounts, attempt=attempt)
