"""One error shape for every refusal: ``{"code": ..., "detail": ..., ...}`` with the right status.

The services raise the one error family of ``ledger.errors`` (``games.errors`` extends it); DRF's
own errors are rewritten to the same shape."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from ledger.errors import ServiceError

_CODES = {
    exceptions.ParseError: "malformed_request",
    exceptions.AuthenticationFailed: "authentication_failed",
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.PermissionDenied: "forbidden",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.Throttled: "throttled",
    exceptions.ValidationError: "invalid",
}


def _flatten(detail: Any) -> str:
    if isinstance(detail, list):
        return " ".join(_flatten(item) for item in detail)
    if isinstance(detail, dict):
        return " ".join(
            f"{key}: {_flatten(value)}" if key != "non_field_errors" else _flatten(value)
            for key, value in detail.items()
        )
    return str(detail)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler with every error rewritten to the one shape."""
    if isinstance(exc, ServiceError):
        return Response({"code": exc.code, "detail": exc.detail, **exc.extra}, status=exc.status_code)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(str(exc) or "Not found.")
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or "You may not do this.")
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    code = next((c for cls, c in _CODES.items() if isinstance(exc, cls)), "error")
    body: dict[str, Any] = {
        "code": code,
        "detail": _flatten(
            response.data.get("detail", response.data) if isinstance(response.data, dict) else response.data
        ),
    }
    if isinstance(exc, exceptions.ValidationError):
        body["fields"] = response.data
    if isinstance(exc, exceptions.Throttled) and exc.wait is not None:
        body["retry_after"] = int(exc.wait)
    response.data = body
    return response
