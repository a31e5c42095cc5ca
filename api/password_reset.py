"""A forgotten password: a link mailed to the account's address, carrying Django's own one-time
token (it stops working once used, once the password changes, and after ``PASSWORD_RESET_TIMEOUT``),
and a new password set from it, which ends every token and browser session the account had.

Asking never says whether an address belongs to an account: the answer is the same either way,
and so is the work the request does. It only stores the mailing as a task in the outbox; the worker
looks the address up and mails (``send_link``), so a slow or failing mail server neither holds the
request nor times it differently, and a broker that is down delays the mail rather than losing it."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import transaction
from django.utils import translation
from django.utils.encoding import force_bytes, force_str
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode
from django.utils.translation import gettext, ngettext
from knox.models import AuthToken

from api.languages import codes, preference_of
from games import notify, scheduling
from games.engine.words import T
from games.errors import InvalidRequest

log = logging.getLogger(__name__)


def link_of(user: Any, page: str) -> str:
    """The page's address with the reset route: ``<page>#/reset/<uid>/<token>``. In the fragment,
    so the token never reaches a server's access log or another site's Referer."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    return f"{page}#/reset/{uid}/{default_token_generator.make_token(user)}"


def _mail(user: Any, page: str, language: str) -> None:
    hours = max(1, round(settings.PASSWORD_RESET_TIMEOUT / 3600))
    chosen = preference_of(user)
    with translation.override(chosen if chosen in codes() else language):
        subject = gettext("Reset your password")
        body = "\n\n".join(
            [
                gettext("Someone asked to reset the password of the account %(username)s.")
                % {"username": user.get_username()},
                ngettext(
                    "If it was you, open this link within %(hours)s hour to choose a new password:",
                    "If it was you, open this link within %(hours)s hours to choose a new password:",
                    hours,
                )
                % {"hours": hours},
                link_of(user, page),
                gettext("If it was not you, ignore this mail: your password stays as it is."),
            ]
        )
    send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [user.email])


SEND_LINK = "api.tasks.send_reset_link"


def ask_for_link(*, email: str, page: str, language: str) -> None:
    """Store the mailing of a reset link to ``email`` (``send_link``, run by the worker), whether or
    not any account has that address."""
    with transaction.atomic():
        scheduling.schedule(SEND_LINK, email.strip(), page, language)


# A mail the server refused is tried again after these many seconds, one after the other (beat's
# relay publishes each when due); then it is given up (logged), well inside the link's lifetime.
RETRY_SECONDS = (30, 60, 120, 240)


def send_link(
    *, email: str, page: str, language: str, accounts: list[int] | None = None, attempt: int = 0
) -> list[int]:
    """Mail a reset link to every active account with this address and a password (only those of
    ``accounts``, when a retry names them). A mail that cannot be sent is logged, not said (the
    answer must not tell which addresses have accounts), and tried again later through the outbox
    (``RETRY_SECONDS``), for its accounts alone. Returns the accounts whose mail failed."""
    found = get_user_model().objects.filter(email__iexact=email.strip(), is_active=True)
    if accounts is not None:
        found = found.filter(pk__in=accounts)
    failed = []
    for user in found.order_by("pk"):
        if not user.has_usable_password():
            continue
        try:
            _mail(user, page, language)
        except Exception:
            log.exception("the password reset mail to account %s could not be sent (attempt %d)", user.pk, attempt + 1)
            failed.append(user.pk)
    if failed and attempt < len(RETRY_SECONDS):
        with transaction.atomic():
            scheduling.schedule_later(
                SEND_LINK, email, page, language, failed, attempt + 1, seconds=RETRY_SECONDS[attempt]
            )
    elif failed:
        log.error("gave up the password reset mail to accounts %s after %d attempts", failed, attempt + 1)
    return failed


def _account_of(uid: str) -> Any:
    try:
        pk = force_str(urlsafe_base64_decode(uid))
        return get_user_model().objects.get(pk=pk, is_active=True)
    except (ValueError, TypeError, OverflowError, get_user_model().DoesNotExist):
        return None


def reset(*, uid: str, token: str, new_password: str) -> None:
    """Set the account's new password from a mailed link, end every token of it (their open
    streams end within a second) and, through Django's session hash, every browser session."""
    user = _account_of(uid)
    if user is None or not default_token_generator.check_token(user, token):
        raise InvalidRequest(
            T(
                "This reset link does not work: it was used already, it expired, or the password "
                "changed since it was sent. Ask for a new one."
            ),
            code="invalid_reset_link",
        )
    try:
        validate_password(new_password, user)
    except ValidationError as refused:
        raise InvalidRequest(
            T("Choose another password."), fields={"new_password": [str(message) for message in refused.messages]}
        ) from None
    with transaction.atomic():
        user.set_password(new_password)
        user.save(update_fields=["password"])
        AuthToken.objects.filter(user=user).delete()
        notify.rights_changed(user.pk)
