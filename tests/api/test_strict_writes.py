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


# --- integer query parameters ------------------------------------------------------------------

NOT_WHOLE = ["50.0", "1.0", "1.", " 7", "+7", "1_0", "1e2", "\u0661", "\u00b2", "\uff17"]


def integer_parameters():
    """(template, name) of every query parameter the document types as an integer."""
    for template, methods in document()["paths"].items():
        for operation in methods.values():
            for parameter in operation.get("parameters", []):
                kind = parameter.get("schema", {}).get("type")
                if parameter["in"] == "query" and (kind == "integer" or "integer" in (kind or [])):
                    yield template, parameter["name"]


def test_no_integer_query_parameter_takes_a_fraction_or_other_digits(staff):
    """``events?limit=50.0`` and ``after=1.0`` were taken (DRF's integer field strips ``.0``),
    and ``limit=²`` passed ``isdigit`` into ``int``. Every integer query parameter of the
    document, each not quite an integer: 400 ``invalid`` naming it."""
    from games import play

    table = play.create_table(user=staff.user, game="la-viuda", seats=4).pk
    checked = set()
    for template, name in integer_parameters():
        if "/stream/" in template:
            continue  # a stream's position is read by the stream's own parser
        path = template.replace("{table_id}", str(table))
        assert "{" not in path, template
        for value in NOT_WHOLE:
            response = staff.get(path, {name: value})
            check("get", path, response)
            assert response.status_code == 400, (template, name, value, response.content[:200])
            assert name in response.json()["fields"], (template, name, value, response.json())
        checked.add((template, name))
    assert {("/api/v1/tables/{table_id}/events/", "limit"), ("/api/v1/tables/{table_id}/events/", "after")} <= checked
    assert len(checked) >= 10
    assert staff.get(f"/api/v1/tables/{table}/events/", {"limit": "50", "after": "1"}).status_code == 200


# --- a finished table's client seed ------------------------------------------------------------


def test_cm_6_a_client_seed_is_refused_at_a_finished_table(counter_game, task_queue):
    """CM-6: a client seed counts for the hands that start from now on; at a finished table none
    will, so setting one is refused (409 ``table_finished``, as leaving is) and the seat keeps its own."""
    from games.models import Seat
    from tests.api.play import person
    from tests.api.test_payouts import finished_table

    # Not the contract client: the counter game is the tests' own, not in the document.
    alice, sam = person("alice"), person("sam", staff=True)
    table_id = finished_table(task_queue, alice, sam)
    before = Seat.objects.get(table_id=table_id, user=alice.user).client_seed
    refused = alice.put(f"/api/v1/tables/{table_id}/client-seed/", {"client_seed": "late"}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "table_finished"
    assert Seat.objects.get(table_id=table_id, user=alice.user).client_seed == before
