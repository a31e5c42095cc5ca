"""Strict as documented: every write of the document refuses a field it does not know (400
``invalid`` naming it), those that take no body included, instead of ignoring it; and an integer
query parameter takes no fraction."""

from __future__ import annotations

import pytest
from rest_framework.views import APIView

from games.models import Event
from ledger.models import Transaction
from tests.api.contract import check, document
from tests.api.contract import person as checked_person

pytestmark = pytest.mark.django_db

WRITES = ("post", "put", "patch", "delete")
# Any id: the body is refused before anything is looked up.
PATH_VALUE = "1"


def writes():
    for template, methods in document()["paths"].items():
        for method, operation in methods.items():
            if method in WRITES:
                yield template, method, operation


@pytest.fixture
def staff(monkeypatch):
    # Throttles (the logins' and the reset's) would answer some of these with 429.
    monkeypatch.setattr(APIView, "get_throttles", lambda self: [])
    return checked_person("sam", staff=True)


def test_every_write_refuses_an_unknown_field(staff):
    """Every write operation of the document, the bodiless ones (``auth/logout/``,
    ``deposits/{id}/approve/``, ``disputes/{id}/take/``, …) included: a staff token passes every
    permission check, and the answer names the unknown field; nothing is written."""
    before = (Event.objects.count(), Transaction.objects.count())
    walked = []
    for template, method, operation in writes():
        path = template
        while "{" in path:
            path = path[: path.index("{")] + PATH_VALUE + path[path.index("}") + 1 :]
        response = getattr(staff, method)(path, {"surprise": 1}, format="json")
        check(method, path, response)
        assert response.status_code == 400, (method, template, response.content[:300])
        body = response.json()
        assert body["code"] == "invalid" and "surprise" in body["fields"], (method, template, body)
        walked.append(operation["operationId"])
    assert {"logout", "logoutAll", "approveDeposit", "takeDispute", "leaveTable", "startTable"} <= set(walked)
    assert (Event.objects.count(), Transaction.objects.count()) == before
    # Not logged out: the refused logouts revoked nothing.
    assert staff.get("/api/v1/auth/tokens/").status_code == 200


@pytest.mark.parametrize("body", ["[]", "null", '"x"', "3"])
def test_a_write_without_a_body_takes_no_other_json_than_an_object(staff, body):
    response = staff.post("/api/v1/auth/logout/", body, content_type="application/json")
    assert response.status_code == 400 and response.json()["code"] == "invalid"
    assert staff.get("/api/v1/auth/tokens/").status_code == 200


def test_a_write_without_a_body_takes_nothing_or_an_empty_object(staff):
    assert staff.post("/api/v1/auth/logout/", {}, format="json").status_code == 204
    other = checked_person("tina", staff=True)
    assert other.post("/api/v1/auth/logout/").status_code == 204
