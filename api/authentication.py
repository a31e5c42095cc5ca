"""Token authentication: knox's per-device tokens, with the refusals a client can act on."""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.authentication import SessionScheme as SpectacularSessionScheme
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from rest_framework import authentication, exceptions

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
    The person's language preference, if any, is the request's language from then on."""

    def authenticate(self, request):  # type: ignore[no-untyped-def]
        return _prefer(super().authenticate(request))

    def authenticate_credentials(self, token):  # type: ignore[no-untyped-def]
        try:
            token.decode("utf-8")
        except UnicodeError:
            raise exceptions.AuthenticationFailed(REFUSED) from None
        try:
            return super().authenticate_credentials(token)
        except exceptions.AuthenticationFailed as refused:
            # knox's own refusal, in the request's language (its catalogue says it).
            if refused.detail == gettext(KNOX_INACTIVE):
                raise
            raise exceptions.AuthenticationFailed(REFUSED) from None


class SessionAuthentication(authentication.SessionAuthentication):
    """DRF's session authentication, with the person's language preference applied as for a token."""

    def authenticate(self, request):  # type: ignore[no-untyped-def]
        return _prefer(super().authenticate(request))


class TokenScheme(OpenApiAuthenticationExtension):
    """The schema's name for it: ``Authorization: Token <key>``."""

    target_class = "api.authentication.TokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):  # type: ignore[no-untyped-def]
        return build_bearer_security_scheme_object(header_name="Authorization", token_prefix="Token")


class SessionScheme(SpectacularSessionScheme):
    """The schema's name for the session subclass above: drf-spectacular's own ``cookieAuth``."""

    target_class = "api.authentication.SessionAuthentication"
