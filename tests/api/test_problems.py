"""The errors table of docs/api.md and the document's error statuses come from one list
(api/problems.py), and what the table says is what the API answers."""

from __future__ import annotations

from pathlib import Path

import pytest
from rest_framework.test import APIClient

from api import problems
from tests.api.contract import document
from tests.api.play import person

pytestmark = pytest.mark.django_db

API_MD = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def test_the_docs_errors_table_is_the_one_the_code_prints():
    text = API_MD.read_text()
    start = text.index("| status | code | when |")
    table = text[start : text.index("\n\n", start) + 1]
    assert table == problems.markdown(), "run `python -m api.problems` and paste its table into docs/api.md"
    assert text.count("| status | code | when |") == 1


def test_every_error_status_of_the_document_says_its_rows():
    words = problems.descriptions()
    responses = document()["paths"]["/api/v1/tables/{table_id}/actions/"]["post"]["responses"]
    for status in ("400", "403", "404", "409", "422", "429", "500", "503"):
        assert responses[status]["description"] == words[status], status


def test_a_wrong_password_answers_as_the_table_says():
    person("alice")
    answer = APIClient().post(
        "/api/v1/auth/token/", {"username": "alice", "password": "not hers at all"}, format="json"
    )
    assert (answer.status_code, answer.json()["code"]) == (400, "authentication_failed")
    assert any(p.status == 400 and "`authentication_failed`" in p.codes for p in problems.PROBLEMS)


def test_every_tag_an_operation_has_is_named_in_the_docs():
    text = API_MD.read_text()
    section = text[text.index("## The document") :]
    tags = {tag for item in document()["paths"].values() for op in item.values() for tag in op["tags"]}
    assert {tag for tag in tags if f"`{tag}`" not in section} == set()
