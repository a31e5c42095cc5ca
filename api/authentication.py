"""Token authentication: knox's per-device tokens, with the refusals a client can act on."""

from __future__ import annotations

import binascii
from hmac import compare_digest

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import BaseBackend
from django.db.models import Exists, OuterRef
from django.db.models.functions import Now
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.authentication import SessionScheme as SpectacularSessionScheme
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from knox.crypto import hash_token
from knox.models import get_token_model
from knox.settings import CONSTANTS, knox_settings
from knox.signals import token_expired
from rest_framework import authentication, exceptions
from rest_framework.authentication import CSRFCheck

from games.engine.words import T
from games.words import say
from ledger.rows import Compiled

# Lazy: said when raised, in the request's language (DRF keeps a refusal's detail as a plain string).
KNOX_INACTIVE = "User inactive or deleted."
REFUSED = gettext_lazy(
    "This token is not valid: it expired, was revoked or never existed. Ask auth/token/ for a new one."
)


def _prefer(authenticated):  # type: ignore[no-untyped-def]
    # Imported here: DRF loads these classes while its own views module is still loading.
    from api.languages import prefer

    return prefer(authenticated)


class TokenAuthentication(KnoxTokenAuthentication):
    """``Authorization: Token <key>`` against knox's hashed tokens. An expired token is deleted as it
    is presented (knox) and, like a revoked or unknown one, answered 401 ``authentication_failed``.
    A key that is not text (bytes outside UTF-8) is refused the same way instead of crashing.
    The person's language preference, if any, is the request's language from then on.

    One statement reads the token, its person and their language preference, and whether the person
    holds other expired tokens; only then are those read again and deleted (knox's cleanup, with its
    ``token_expired`` signal). Otherwise it is knox's own ``authenticate_credentials``: an expired
    token is deleted and skipped, ``AUTO_REFRESH`` renews the expiry (written only past
    ``MIN_REFRESH_INTERVAL``), an inactive person is refused."""

    def authenticate(self, request):  # type: ignore[no-untyped-def]
        return _prefer(super().authenticate(request))

    def authenticate_credentials(self, token):  # type: ignore[no-untyped-def]
        try:
            key = token.decode("utf-8")
        except UnicodeError:
            raise exceptions.AuthenticationFailed(REFUSED) from None
        try:
            return self._credentials(key)
        except exceptions.AuthenticationFailed as refused:
            # knox's own refusal, in the request's language (its catalogue says it).
            if refused.detail == gettext(KNOX_INACTIVE):
                raise
            raise exceptions.AuthenticationFailed(REFUSED) from None

    def _credentials(self, key: str):  # type: ignore[no-untyped-def]
        # knox 5.1's authenticate_credentials, its two reads (the token with its person, then all the
        # person's tokens) made one. tests/api/test_auth_tokens.py names the knox it was read from.
        found = _TOKENS.run(key[: CONSTANTS.TOKEN_KEY_LENGTH])
        for auth_token in found:
            if self._expired(auth_token):
                continue
            try:
                digest = hash_token(key)
            except (TypeError, binascii.Error):
                raise exceptions.AuthenticationFailed(REFUSED) from None
            if compare_digest(digest, auth_token.digest):
                if knox_settings.AUTO_REFRESH and auth_token.expiry:
                    self.renew_token(auth_token)
                return self.validate_user(auth_token)
        raise exceptions.AuthenticationFailed(REFUSED)

    def _expired(self, auth_token) -> bool:  # type: ignore[no-untyped-def]
        """knox's ``_cleanup_token``, run only when the person holds another expired token; else
        the token's own expiry, as knox checks it."""
        if auth_token.others_expired:
            return bool(self._cleanup_token(auth_token))
        if auth_token.expiry is not None and auth_token.expiry < timezone.now():
            username = auth_token.user.get_username()
            auth_token.delete()
            token_expired.send(sender=self.__class__, username=username, source="auth_token")
            return True
        return False


def _tokens(token_key: str):  # type: ignore[no-untyped-def]
    """The tokens of a key's first characters, each with its person, their language preference
    and whether they hold another token that has expired (by the database's clock: the same
    instant for every row of the statement)."""
    model = get_token_model()
    others_expired = model.objects.filter(user=OuterRef("user"), expiry__lt=Now()).exclude(digest=OuterRef("digest"))
    return (
        model.objects.filter(token_key=token_key)
        .select_related("user", "user__language_preference")
        .annotate(others_expired=Exists(others_expired))
    )


# Compiled once: every request with a token runs it, and compiling it cost more than running it.
_TOKENS = Compiled(_tokens, "\x00first", "\x00second")


class CsrfFailed(exceptions.PermissionDenied):
    """A session's write without its CSRF token: 403 ``csrf_failed``, as Django's own CSRF refusal
    (``api.errors.csrf_failure``) answers it, never the bare ``forbidden`` of a permission."""

    default_code = "csrf_failed"


class SessionAuthentication(authentication.SessionAuthentication):
    """DRF's session authentication, with the person's language preference applied as for a token,
    and a write without its CSRF token refused as ``csrf_failed``."""

    def authenticate(self, request):  # type: ignore[no-untyped-def]
        return _prefer(super().authenticate(request))

    def enforce_csrf(self, request):  # type: ignore[no-untyped-def]
        """DRF's check, with Django's reason said in the one CSRF refusal's words."""
        check = CSRFCheck(lambda request: None)  # type: ignore[arg-type, return-value]
        # Sets the CSRF cookie value on the request, which the check below reads.
        check.process_request(request)
        reason = check.process_view(request, None, (), {})
        if reason:
            raise CsrfFailed(say(T("CSRF check failed: {reason}.", reason=reason)))


# The name sessions opened at auth/session/ keep of the backend that loads their person.
SESSION_BACKEND = "api.authentication.SessionBackend"


class SessionBackend(BaseBackend):
    """Loads the person of a session opened at ``auth/session/`` (``get_user``) with their language
    preference in the same statement, as ``ModelBackend`` would load them without it; an inactive
    person is nobody, as there. It checks no password and grants no permission: ``ModelBackend``,
    first in ``AUTHENTICATION_BACKENDS``, does both, and still loads the sessions opened before
    this backend (or by the admin's login), which name it."""

    def get_user(self, user_id):  # type: ignore[no-untyped-def]
        model = get_user_model()
        try:
            user = model._default_manager.select_related("language_preference").get(pk=user_id)
        except model.DoesNotExist:
            return None
        return user if getattr(user, "is_active", True) else None


class TokenScheme(OpenApiAuthenticationExtension):
    """The schema's name for it: ``Authorization: Token <key>``."""

    target_class = "api.authentication.TokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):  # type: ignore[no-untyped-def]
        return build_bearer_security_scheme_object(header_name="Authorization", token_prefix="Token")


class SessionScheme(SpectacularSessionScheme):
    """The schema's name for the session subclass above: drf-spectacular's own ``cookieAuth``."""

    target_class = "api.authentication.SessionAuthentication"
