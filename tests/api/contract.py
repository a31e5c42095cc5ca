"""The API document as a test oracle: every answer a test client receives is checked against
``/api/schema/`` (the operation, its status, its content type and its body's schema)."""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator
from rest_framework.test import APIClient

from games.engine import registry
from tests.api import play
from tests.schemas import closed

# The headers the document declares where they are sent.
DECLARED_HEADERS = (
    "ETag",
    "Retry-After",
    "Idempotent-Replayed",
    "X-Request-ID",
    "Content-Language",
    "RateLimit",
    "RateLimit-Policy",
)


def document() -> dict[str, Any]:
    """The document served now. It names every registered game, and a test game registered by a
    fixture (``counter_game``) only while it is: each set of games has its own copy, so a test that
    read the document with the test game never leaves it in the document a later test reads."""
    return _document(_games())


def _games() -> tuple[str, ...]:
    return tuple(decider.slug for decider in registry.all_games())


@cache
def _document(games: tuple[str, ...]) -> dict[str, Any]:
    response = APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200, response.content[:500]
    return json.loads(response.content)


def strict_components() -> dict[str, Any]:
    return _strict_components(_games())


@cache
def _strict_components(games: tuple[str, ...]) -> dict[str, Any]:
    return closed(_document(games)["components"])


def _routes() -> list[tuple[re.Pattern[str], str]]:
    return _routes_of(_games())


@cache
def _routes_of(games: tuple[str, ...]) -> list[tuple[re.Pattern[str], str]]:
    routes = []
    # Literal paths first: /disputes/queue/ is not /disputes/{dispute_id}/.
    for template in sorted(_document(games)["paths"], key=lambda template: template.count("{")):
        pattern = re.sub(r"\\\{[a-z_]+\\\}", "[^/]+", re.escape(template))
        routes.append((re.compile(f"^{pattern}$"), template))
    return routes


def operation(path: str, method: str) -> tuple[str, dict[str, Any]]:
    path = path.split("?")[0]
    for pattern, template in _routes():
        if pattern.match(path):
            operations = document()["paths"][template]
            assert method.lower() in operations, f"{method} {template} is not in the document"
            return template, operations[method.lower()]
    raise AssertionError(f"{path} is not in the document")


def check(method: str, path: str, response: Any) -> None:
    """The response is one the document declares for this operation, body included."""
    template, op = operation(path, method)
    status = str(response.status_code)
    declared = op["responses"].get(status)
    assert declared is not None, f"{method} {template} answered {status}, which is not declared"
    sent = [name for name in DECLARED_HEADERS if response.has_header(name)]
    undeclared = [name for name in sent if name not in declared.get("headers", {})]
    assert not undeclared, f"{method} {template} {status}: headers {undeclared} are sent but not declared"
    content = declared.get("content")
    if not content:
        return
    media = response.get("Content-Type", "").split(";")[0].strip()
    assert media in content, f"{method} {template} {status}: content type {media!r} is not one of {list(content)}"
    schema = content[media].get("schema")
    if schema is None or not media.endswith("json"):
        return
    body = json.loads(response.content)
    validator = Draft202012Validator(
        {"$id": "urn:contract", "components": strict_components(), **schema},
        format_checker=Draft202012Validator.FORMAT_CHECKER,
    )
    errors = sorted(validator.iter_errors(body), key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        where = "/".join(str(p) for p in first.absolute_path)
        raise AssertionError(
            f"{method} {template} {status}: the body does not match the document at /{where}: {first.message[:500]}"
        )


class ContractClient(APIClient):
    """An ``APIClient`` whose every answer to an ``/api/v1/`` request is checked by ``check``."""

    checked = 0

    def request(self, **kwargs: Any) -> Any:
        response = super().request(**kwargs)
        path = kwargs.get("PATH_INFO", "")
        if path.startswith("/api/v1/"):
            check(kwargs.get("REQUEST_METHOD", "GET"), path, response)
            ContractClient.checked += 1
        return response


def person(name: str, *, staff: bool = False) -> ContractClient:
    """A signed-in person (``tests.api.play.person``) whose every answer is checked by ``check``."""
    return checked(play.person(name, staff=staff))


def checked(client) -> ContractClient:
    """The same person as ``client`` (its token), through a client whose every answer is checked."""
    twin = ContractClient()
    twin.credentials(**client._credentials)
    twin.user = client.user
    return twin
