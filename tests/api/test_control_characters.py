"""No byte in a path or query parameter is a 500: every operation of the document, every one of its
path and query parameters, each holding a control character, answers a 4xx in the error shape its
operation declares. PostgreSQL refuses NUL in text (a ``DataError``), so CI runs this against it;
``test_without_the_guard_postgresql_refuses_nul`` shows the sweep would find the crash there."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from rest_framework.views import APIView

from api import errors
from games import play
from tests.api.contract import check, document
from tests.api.contract import person as checked_person

pytestmark = pytest.mark.django_db

# NUL, the other C0 controls at both ends and in the middle (a vertical tab, escape), and DEL.
CONTROLS = ["\x00", "\x01", "\x0b", "\x1b", "\x1f", "\x7f"]

# A value for each path parameter that reaches its view: the parameter under test alone is bad.
PATH_VALUES = {
    "table_id": "{table}",
    "seat": "1",
    "hand_no": "1",
    "username": "alice",
    "deposit_id": "00000000-0000-0000-0000-000000000000",
    "payout_id": "1",
    "dispute_id": "1",
    "token_id": "0123456789abcdef",
}
# A body each write would take, so a write's parameters are read past its body's checks.
BODIES = {
    "createDeposit": {"currency": "MXN", "amount": "1.00"},
    "rejectDeposit": {"reason": "no bank record"},
    "rejectPayout": {"reason": "no"},
    "joinTable": {},
    "setClientSeed": {"client_seed": "abc"},
}


def operations():
    for template, methods in document()["paths"].items():
        for method, operation in methods.items():
            yield template, method, operation


def cases():
    """(method, template, where, name) for every path and query parameter of the document."""
    for template, method, operation in operations():
        for parameter in operation.get("parameters", []):
            if parameter["in"] in ("path", "query"):
                yield method, template, parameter["in"], parameter["name"], operation["operationId"]


def url(template: str, table: str, *, bad: str | None = None, value: str = "") -> str:
    path = template
    for name, default in PATH_VALUES.items():
        path = path.replace("{" + name + "}", quote(value if name == bad else default.format(table=table), safe=""))
    assert "{" not in path, f"no value for a path parameter of {template}: add it to PATH_VALUES"
    return path


@pytest.fixture
def staff(monkeypatch):
    # Throttles would answer most of these hundreds of requests with 429 and hide the rest.
    monkeypatch.setattr(APIView, "get_throttles", lambda self: [])
    checked_person("alice")
    sam = checked_person("sam", staff=True)
    sam.raise_request_exception = False
    return sam


def send(client, method: str, path: str, operation_id: str):
    body = BODIES.get(operation_id, {}) if method in ("post", "put", "patch") else None
    call = getattr(client, method)
    return call(path, body, format="json") if body is not None else call(path)


def test_no_control_character_in_any_parameter_is_a_500(staff):
    """Every operation (with a staff token, so no permission check hides the crash), every path
    and query parameter, each control character: 400 ``invalid`` naming the parameter, or 404 for a
    path the URL's number pattern does not take; each answer as its operation declares it."""
    table = str(play.create_table(user=staff.user, game="la-viuda", seats=4).pk)
    sent = 0
    for method, template, where, name, operation_id in cases():
        for control in CONTROLS:
            for value in (control, f"a{control}b"):
                if where == "path":
                    path = url(template, table, bad=name, value=value)
                else:
                    path = f"{url(template, table)}?{name}={quote(value, safe='')}"
                response = send(staff, method, path, operation_id)
                sent += 1
                what = (method, template, name, repr(value), response.content[:200])
                assert response.status_code < 500, what
                check(method, path, response)  # the status and the error shape, as declared
                body = json.loads(response.content)
                assert body["code"] in ("invalid", "not_found"), what
                if where == "query" or body["code"] == "invalid":
                    assert response.status_code == 400 and list(body["fields"]) == [name], what
    assert sent > 500


def test_a_control_character_in_a_query_parameter_name_is_refused_too(staff):
    response = staff.get("/api/v1/tables/?game%00=x")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert list(response.json()["fields"]) == ["game?"]


def test_the_refusal_is_said_in_the_readers_language(staff):
    english = staff.get("/api/v1/tables/?status=%00").json()["detail"]
    for language in ("es-MX", "fa"):
        said = staff.get("/api/v1/tables/?status=%00", HTTP_ACCEPT_LANGUAGE=language).json()["detail"]
        assert said != english and "'status'" in said, (language, said)


def test_without_the_guard_postgresql_refuses_nul(postgres, staff, monkeypatch):
    """The sweep is meaningful where it runs in CI: with the guard switched off, PostgreSQL's
    refusal of NUL reaches the client as a 500."""
    monkeypatch.setattr(errors.ControlCharactersMiddleware, "process_view", lambda *args: None)
    assert staff.get("/api/v1/tables/?game=%00").status_code == 500
