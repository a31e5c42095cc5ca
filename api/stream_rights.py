"""What an open stream was opened with, checked for as long as the stream is read.

A stream outlives the request that authenticated it by hours, so the token or session that opened
it is checked again: exactly, from the database, every time the stream wakes (a table moved, a
notice came, a revocation was announced, the listener reconnected); and at each heartbeat only
against the expiry held in memory, so an idle stream costs no query until that moment passes.
A revocation (``auth/tokens/{id}/``, ``auth/logout/``, ``auth/logout-all/``, a session's logout)
publishes ``notify.rights_changed``, which wakes the person's streams in every process at commit.

When the rights are gone the stream's last message is ``event: stream_end`` with a machine
``code`` (``ENDS``) and the reason in the reader's language.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.utils import timezone, translation
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext, gettext_noop
from knox.models import AuthToken

TOKEN_REVOKED = "token_revoked"
TOKEN_EXPIRED = "token_expired"
SESSION_ENDED = "session_ended"
ACCOUNT_INACTIVE = "account_inactive"
TABLE_FINISHED = "table_finished"

# Every reason a stream ends by itself, with the words its last message carries.
ENDS = {
    TOKEN_REVOKED: gettext_noop(
        "This token was revoked or logged out, so the stream has ended. Ask auth/token/ for a new token."
    ),
    TOKEN_EXPIRED: gettext_noop("This token has expired, so the stream has ended. Ask auth/token/ for a new token."),
    SESSION_ENDED: gettext_noop(
        "Your session has ended (logged out or expired), so the stream has ended. Log in again."
    ),
    ACCOUNT_INACTIVE: gettext_noop("This account is no longer active, so the stream has ended."),
    TABLE_FINISHED: gettext_noop(
        "The table has finished and every event of it has been sent, so the stream has ended."
    ),
}

END_EVENT = "stream_end"


def end_data(code: str, language: str | None) -> dict[str, str]:
    """The ``data`` of a stream's last message: ``{"code", "detail"}``, said in ``language``."""
    with translation.override(language):
        return {"code": code, "detail": gettext(ENDS[code])}


@dataclass
class Rights:
    """The credential a stream was opened with: a knox token (its digest) or a Django session (its
    key), the person, and the credential's expiry as last read (held in memory for heartbeats)."""

    user_id: int
    token: str | None = None
    session_key: str | None = None
    expiry: datetime | None = None

    def lapsed(self) -> bool:
        """Whether the held expiry has passed (no query): then ``check`` says exactly."""
        return self.expiry is not None and timezone.now() >= self.expiry

    def check(self) -> str | None:
        """From the database: ``None`` while the stream may go on, else the ``ENDS`` code why not.
        Runs on a reading thread. Refreshes the held expiry."""
        if self.token is not None:
            return self._check_token()
        if self.session_key is not None:
            return self._check_session()
        return None

    def _check_token(self) -> str | None:
        row = AuthToken.objects.filter(digest=self.token).values_list("user_id", "expiry", "user__is_active").first()
        return self.token_answer(row)

    def token_answer(self, row: tuple[Any, ...] | None) -> str | None:
        """The check's answer from the token's row as read (``user_id, expiry, is_active``, or
        ``None`` when it is gone); refreshes the held expiry."""
        if row is None or row[0] != self.user_id:
            return TOKEN_REVOKED
        _, expiry, active = row
        if not active:
            return ACCOUNT_INACTIVE
        if expiry is not None and expiry <= timezone.now():
            return TOKEN_EXPIRED
        self.expiry = expiry
        return None

    def _check_session(self) -> str | None:
        data = _session_store(self.session_key).load()  # {} once it is gone or has expired
        if str(data.get(SESSION_KEY)) != str(self.user_id):
            return SESSION_ENDED
        user = get_user_model()._default_manager.filter(pk=self.user_id).first()
        return self.session_answer(data, user, _session_expiry(self.session_key))

    def session_answer(self, data: dict[str, Any], user: Any, expiry: datetime | None) -> str | None:
        """The check's answer from the session's data as read (``{}`` once it is gone or has
        expired), its person and its expiry; refreshes the held expiry."""
        if str(data.get(SESSION_KEY)) != str(self.user_id):
            return SESSION_ENDED
        if user is None or not user.is_active:
            return ACCOUNT_INACTIVE
        if not _session_hash_holds(data.get(HASH_SESSION_KEY), user):
            # The password changed since the login (Django's session hash): the session is over.
            return SESSION_ENDED
        self.expiry = expiry
        return None


def check_all(held: list[Rights]) -> list[str | None]:
    """``Rights.check`` of many streams at once, as each alone would answer it: the tokens in one
    statement, the database sessions in one and their people in another (a session kept elsewhere
    is checked on its own). What a table's fan-out asks at each wake for every stream it serves."""
    found: dict[int, str | None] = {}
    tokens = [rights for rights in held if rights.token is not None]
    if tokens:
        rows = AuthToken.objects.filter(digest__in={rights.token for rights in tokens}).values_list(
            "digest", "user_id", "expiry", "user__is_active"
        )
        by_digest = {row[0]: row[1:] for row in rows}
        for rights in tokens:
            found[id(rights)] = rights.token_answer(by_digest.get(rights.token))
    sessions = [rights for rights in held if rights.session_key is not None]
    if sessions:
        found.update(_check_sessions(sessions))
    return [found.get(id(rights)) for rights in held]


def _check_sessions(held: list[Rights]) -> dict[int, str | None]:
    store = import_module(settings.SESSION_ENGINE).SessionStore
    model = getattr(store, "get_model_class", None)
    if model is None:
        return {id(rights): rights.check() for rights in held}
    rows = (
        model()
        .objects.filter(session_key__in={rights.session_key for rights in held}, expire_date__gt=timezone.now())
        .values_list("session_key", "session_data", "expire_date")
    )
    kept = {key: (store().decode(data), expiry) for key, data, expiry in rows}
    people = get_user_model()._default_manager.in_bulk({rights.user_id for rights in held})
    found: dict[int, str | None] = {}
    for rights in held:
        data, expiry = kept.get(rights.session_key, ({}, None))  # type: ignore[arg-type]
        found[id(rights)] = rights.session_answer(data, people.get(rights.user_id), expiry)
    return found


def _session_store(key: str | None) -> Any:
    return import_module(settings.SESSION_ENGINE).SessionStore(session_key=key)


def _session_hash_holds(held: Any, user: Any) -> bool:
    """Django's check of a session's password hash (``django.contrib.auth.get_user``), without
    its side effects: a stream only reads the session, never cycles or flushes it."""
    if not isinstance(held, str) or not held:
        return False
    hashes = [user.get_session_auth_hash()]
    hashes += [user._get_session_auth_hash(secret=secret) for secret in settings.SECRET_KEY_FALLBACKS]
    return any(constant_time_compare(held, known) for known in hashes)


def _session_expiry(key: str | None) -> datetime | None:
    # The database's own expiry where the engine keeps one; elsewhere only wakes check.
    store = _session_store(key)
    model = getattr(store, "get_model_class", None)
    if model is None or key is None:
        return None
    return model().objects.filter(session_key=key).values_list("expire_date", flat=True).first()


def rights_of(request: Any) -> Rights:
    """The credential of an authenticated stream request (``TokenAuthentication`` or
    ``SessionAuthentication``)."""
    user_id = request.user.pk
    if isinstance(request.auth, AuthToken):
        return Rights(user_id=user_id, token=request.auth.digest, expiry=request.auth.expiry)
    key = request._request.session.session_key
    return Rights(user_id=user_id, session_key=key, expiry=_session_expiry(key))
