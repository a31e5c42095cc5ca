"""Every error the API tests receive is one its operation declares: the status, and the ``code``
among the codes the document lists for it (``api.problems``). The contract tests check whole
answers; this checks the errors of every other API test too."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from tests.api.contract import operation


def undeclared(method: str, path: str, response) -> str | None:
    """What is wrong with an error answer of ``method path`` by the document, or ``None``."""
    if not path.startswith("/api/v1/") or response.status_code < 400:
        return None
    try:
        template, op = operation(path, method)
    except AssertionError:
        return None  # a method or URL no operation has: the catch-all's 404 and 405
    declared = op["responses"].get(str(response.status_code))
    if declared is None:
        return f"{method} {template} answered {response.status_code}, which it does not declare"
    if not response.get("Content-Type", "").startswith("application/json"):
        return None
    code = json.loads(response.content).get("code")
    allowed = declared["content"]["application/json"]["schema"]["allOf"][1]["properties"]["code"]["enum"]
    if code not in allowed:
        return f"{method} {template} answered {response.status_code} {code!r}, not among {allowed}"
    return None


@pytest.fixture(autouse=True)
def errors_as_documented(monkeypatch):
    wrong: list[str] = []
    request = APIClient.request

    def checked(self, **kwargs):
        response = request(self, **kwargs)
        fault = undeclared(kwargs.get("REQUEST_METHOD", "GET"), kwargs.get("PATH_INFO", ""), response)
        if fault:
            wrong.append(fault)
        return response

    monkeypatch.setattr(APIClient, "request", checked)
    yield
    assert not wrong, "errors the document does not declare (api/problems.py):\n" + "\n".join(sorted(set(wrong)))
