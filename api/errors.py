"""One error shape for every refusal: RFC 9457 problem details (``type``, ``title``, ``status``,
``detail``, ``instance``) with the stable ``code`` and the refusal's extras beside them, e.g.
``{"type": "urn:gameledger:problem:illegal_action", "title": "Unprocessable Content", "status": 422,
"detail": ..., "instance": "/api/v1/tables/…/actions/", "code": "illegal_action", "legal_actions": [...]}``.
The media type stays ``application/json`` (clients and the document name one JSON type; RFC 9457
allows it), and ``code`` and ``detail`` keep their meaning: ``type`` is ``code`` as a URI.

The services raise the one error family of ``ledger.errors`` (``games.errors`` extends it); DRF's
own errors are rewritten to the same shape. A crash is one too: inside a DRF view the handler
answers ``server_error`` (or ``service_unavailable`` when the database is out of reach), and
Django's own 400/403/404/500 pages are replaced by ``handler400`` … ``handler500`` below, so no
client ever has to parse HTML."""

from __future__ import annotations

import logging
import re
from http import HTTPStatus
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponsePermanentRedirect, JsonResponse
from django.http.response import HttpResponseBase
from django.urls import Resolver404, resolve
from django.views.decorators.csrf import csrf_exempt
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from api.authentication import CsrfFailed
from games import telemetry
from games.engine.words import T
from games.words import say, say_all
from ledger.errors import ServiceError

logger = logging.getLogger("django.request")

# Seconds a client is asked to wait when the database could not be reached.
UNAVAILABLE_RETRY_AFTER = 5

_CODES = {
    # Before PermissionDenied, which it is: the first class that matches names the code.
    CsrfFailed: "csrf_failed",
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


# Every problem's ``type`` is its code under this URN: stable, and names nothing to fetch.
PROBLEM_TYPE_PREFIX = "urn:gameledger:problem:"


# RFC 9110's reason phrases where Python's (before 3.13) still say RFC 7231's.
TITLES = {413: "Content Too Large", 422: "Unprocessable Content"}


def title(status: int) -> str:
    """The status's reason phrase, a problem's ``title``."""
    if status in TITLES:
        return TITLES[status]
    return HTTPStatus(status).phrase if status in HTTPStatus._value2member_map_ else "Error"


def problem(body: dict[str, Any], status: int, request: Any = None) -> dict[str, Any]:
    """``body`` (``code``, ``detail`` and extras) as RFC 9457 problem details for ``status``."""
    code = str(body.get("code", "error"))
    path = getattr(request, "path", None)
    # The problem's own members win over an extra of the same name.
    return {
        **body,
        "type": PROBLEM_TYPE_PREFIX + code,
        "title": title(status),
        "status": status,
        **({"instance": path} if path else {}),
    }


def as_problem(response: HttpResponseBase, request: Any = None) -> HttpResponseBase:
    """A DRF response whose data is an error body, made a problem (the handler's last step)."""
    data = getattr(response, "data", None)
    if isinstance(data, dict) and "code" in data and "type" not in data:
        response.data = problem(data, response.status_code, request)  # type: ignore[attr-defined]
    return response


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
    """DRF's handler with every error rewritten to the one shape: a problem."""
    response = _handle(exc, context)
    if response is not None:
        as_problem(response, context.get("request"))
    return response


def _handle(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ServiceError):
        return Response(_own_business_only(exc, context), status=exc.status_code)
    if isinstance(exc, SuspiciousOperation):
        # Django reads the body only when a view (or a throttle) asks for it, inside DRF: a body
        # over DATA_UPLOAD_MAX_MEMORY_SIZE is the client's, not a crash.
        body, status = _suspicious(exc)
        return Response(body, status=status)
    # DRF keeps a detail as a plain string: a Text is said now, in the request's language.
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(say(exc.args[0]) if exc.args and exc.args[0] else say(T("Not found.")))
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(
            say(exc.args[0]) if exc.args and exc.args[0] else say(T("You may not do this."))
        )
    response = drf_exception_handler(exc, context)
    if response is None:
        return _crash(exc, context)
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


def _own_business_only(exc: ServiceError, context: dict[str, Any]) -> dict[str, Any]:
    """The error's body, without another person's balance: the ledger refuses an overdraft naming
    the account and what it holds, and a command can move someone else's money (the owner starting
    a table buys every seat in), so the answer keeps only what the caller may see."""
    body = {"code": exc.code, "detail": exc.detail, **exc.extra}
    account = str(exc.extra.get("account", ""))
    if not account.startswith("wallet:"):
        return body
    user = getattr(context.get("request"), "user", None)
    if account.split(":")[1] == str(getattr(user, "pk", None)):
        return body
    return {
        "code": exc.code,
        "detail": T("Another player's wallet does not hold enough for this; they have to add money first."),
    }


def _crash(exc: Exception, context: dict[str, Any]) -> Response:
    """An exception no handler knows: logged with its traceback as Django would log it, answered
    in the one shape. The database out of reach (a restart, a dropped connection) is worth a retry."""
    request = context.get("request")
    path = getattr(request, "path", "")
    logger.error("Internal Server Error: %s", path, exc_info=exc, extra={"status_code": 500})
    unreachable = _unreachable(exc)
    if unreachable:
        return Response(
            {
                "code": "service_unavailable",
                "detail": unreachable,
                "retry_after": UNAVAILABLE_RETRY_AFTER,
            },
            status=503,
            headers={"Retry-After": str(UNAVAILABLE_RETRY_AFTER)},
        )
    return Response(_server_error_body(), status=500)


def _suspicious(exc: SuspiciousOperation) -> tuple[dict[str, Any], int]:
    """A request Django refuses to read: a body over the size limit (413), or anything else it
    finds suspicious (400, as Django itself answers it)."""
    if isinstance(exc, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        body = {
            "code": "request_too_large",
            "detail": T("The request body is larger than {limit} bytes.", limit=limit),
            "limit": limit,
        }
        return body, 413
    return {"code": "malformed_request", "detail": T("The request could not be read.")}, 400


def _unreachable(exc: Exception) -> str | None:
    """What to say when a crash says a shared service is out of reach (the database, or Redis behind
    the cache that throttles count in), or ``None``: those are worth a retry, not a bug report."""
    if isinstance(exc, (OperationalError, InterfaceError)):
        return T("The database could not be reached; try again in a few seconds.")
    if isinstance(exc, (RedisConnectionError, RedisTimeoutError)):
        return T("The cache could not be reached; try again in a few seconds.")
    return None


def _server_error_body() -> dict[str, Any]:
    body: dict[str, Any] = {
        "code": "server_error",
        "detail": T("Something went wrong on our side; it has been logged."),
    }
    request_id = telemetry.current_request_id()
    if request_id:
        # What to quote to the operator: the logs carry the same id.
        body["request_id"] = request_id
    return body


# Django's error views (config.urls names them): a crash outside DRF, an unknown URL, a refusal
# raised by middleware. Their signatures are Django's.


def _problem_response(request: HttpRequest, body: dict[str, Any], status: int) -> JsonResponse:
    return JsonResponse(say_all(problem(body, status, request)), status=status)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    if isinstance(exception, SuspiciousOperation):
        # A body too large for a view outside DRF (Django answers any suspicious request with 400).
        return _problem_response(request, *_suspicious(exception))
    return _problem_response(request, {"code": "malformed_request", "detail": T("The request could not be read.")}, 400)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    given = exception.args[0] if exception is not None and exception.args else None
    body = {"code": "forbidden", "detail": given or T("You may not do this.")}
    return _problem_response(request, body, 403)


# Exempt from CSRF: the catch-all /api/ route (config.urls) answers an unknown URL with this, and a
# token-authenticated POST there carries no CSRF cookie; it writes nothing, so the 404 comes first.
@csrf_exempt
def not_found(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return _problem_response(
        request, {"code": "not_found", "detail": T("There is nothing at {path}.", path=request.path)}, 404
    )


@csrf_exempt
def without_slash(request: HttpRequest) -> HttpResponseBase:
    """An ``/api/`` URL without its trailing slash. Django's ``APPEND_SLASH`` would redirect a
    ``POST`` with a 301 that drops its body (and with DEBUG on refuses it with a 500), and would do
    so for unknown URLs too. Here a URL that exists with the slash is redirected with the method
    kept (308; a plain 301 for reads, as Django does), and any other is the JSON 404, before any
    CSRF check as for every unknown URL."""
    target = request.path + "/"
    try:
        match = resolve(target)
    except Resolver404:
        match = None
    if match is None or match.url_name in ("api-not-found", "api-without-slash"):
        return not_found(request)
    query = request.META.get("QUERY_STRING", "")
    location = target + ("?" + query if query else "")
    response = HttpResponsePermanentRedirect(location)
    if request.method not in ("GET", "HEAD"):
        response.status_code = 308
    return response


def server_error(request: HttpRequest) -> JsonResponse:
    return _problem_response(request, _server_error_body(), 500)


def csrf_failure(request: HttpRequest, reason: str = "") -> JsonResponse:
    """``CSRF_FAILURE_VIEW``: a browser session's unsafe request without its CSRF token."""
    # Django's reason is a fixed English sentence about the token: kept as it is, inside our words.
    body = {"code": "csrf_failed", "detail": T("CSRF check failed: {reason}.", reason=reason or T("no valid token"))}
    return _problem_response(request, body, 403)


class JsonErrorsMiddleware:
    """The last word on ``/api/`` answers: an HTML error page Django made itself (its DEBUG 404
    page for a URL no route matches) is replaced by the problem-details answer of that status."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> Any:
        response = self.get_response(request)
        if (
            request.path.startswith("/api/")
            and response.status_code in (400, 403, 404, 500)
            and response.get("Content-Type", "").startswith("text/html")
        ):
            if response.status_code == 500:
                return server_error(request)
            return {400: bad_request, 403: permission_denied, 404: not_found}[response.status_code](request)
        return response


# C0 controls and DEL: no name, id, filter or cursor of this service holds one, and PostgreSQL
# refuses NUL in any text it is asked to compare (a DataError, which would be a 500).
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _controlled(request: HttpRequest, view_kwargs: dict[str, Any]) -> str | None:
    """The first path or query parameter (or query parameter name) holding a control character."""
    for name, value in view_kwargs.items():
        if isinstance(value, str) and _CONTROL.search(value):
            return name
    for name, values in request.GET.lists():
        if _CONTROL.search(name) or any(_CONTROL.search(value) for value in values):
            return name
    return None


class ControlCharactersMiddleware:
    """Refuses a request whose path or query parameters hold a control character (``\\x00`` to
    ``\\x1f``, ``\\x7f``) with ``400 invalid`` naming the parameter, before any view reads it:
    one guard at the edge, so no endpoint, present or future, hands such a value to the database."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> Any:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view_func: Any, view_args: Any, view_kwargs: dict[str, Any]
    ) -> JsonResponse | None:
        name = _controlled(request, view_kwargs)
        if name is None:
            return None
        shown = _CONTROL.sub("?", name)
        detail = T("'{name}' holds a control character; none is taken in a path or query parameter.", name=shown)
        return _problem_response(request, {"code": "invalid", "detail": detail, "fields": {shown: [detail]}}, 400)
