"""Token authentication: knox's per-device tokens, with the refusals a client can act on."""

from __future__ import annotations

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from rest_framework import exceptions

REFUSED = "This token is not valid: it expired, was revoked or never existed. Ask auth/token/ for a new one."


class TokenAuthentication(KnoxTokenAuthentication):
    """``Authorization: Token <key>`` against knox's hashed tokens. An expired token is deleted as it
    is presented (knox) and, like a revoked or unknown one, answered 401 ``authentication_failed``.
    A key that is not text (bytes outside UTF-8) is refused the same way instead of crashing."""

    def authenticate_credentials(self, token):  # type: ignore[no-untyped-def]
        try:
            token.decode("utf-8")
        except UnicodeError:
            raise exceptions.AuthenticationFailed(REFUSED) from None
        try:
            return super().authenticate_credentials(token)
        except exceptions.AuthenticationFailed as refused:
            if refused.detail == "User inactive or deleted.":
                raise
            raise exceptions.AuthenticationFailed(REFUSED) from None


class TokenScheme(OpenApiAuthenticationExtension):
    """The schema's name for it: ``Authorization: Token <key>``."""

    target_class = "api.authentication.TokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):  # type: ignore[no-untyped-def]
        return build_bearer_security_scheme_object(header_name="Authorization", token_prefix="Token")
