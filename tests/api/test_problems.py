"""The errors table of docs/api.md and each operation's error responses come from one inventory
(api/problems.py), every code the code raises is in it, and what the table says is what the API
answers."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from rest_framework.test import APIClient

from api import errors, problems
from api.schema import OPERATIONS
from tests.api.contract import check, document
from tests.api.play import person

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
API_MD = ROOT / "docs" / "api.md"
# ``ServiceError``'s own code, a placeholder: every raise of ``ServiceError`` itself names its code
# (``test_every_code_raised_is_in_the_inventory`` checks).
PLACEHOLDER = "bad_request"


def _text(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _raised_codes() -> dict[str, set[str]]:
    """Every code literal of the product's code, with where: a ``code=`` keyword or parameter
    default, a class's ``code``, a ``{"code": ...}`` body, a ``_Refused(message, code)`` and a
    ``(T(...), code)`` refusal of the rules; and the codes of DRF's own errors."""
    found: dict[str, set[str]] = {code: {"api/errors.py:_CODES"} for code in errors._CODES.values()}
    for package in ("api", "games", "ledger"):
        for path in (ROOT / package).rglob("*.py"):
            if {"migrations", "management"} & set(path.parts):
                continue
            where = str(path.relative_to(ROOT))
            for node in ast.walk(ast.parse(path.read_text())):
                for code in _codes_of(node):
                    found.setdefault(code, set()).add(f"{where}:{getattr(node, 'lineno', 0)}")
    return found


def _codes_of(node: ast.AST) -> list[str]:
    codes: list[str | None] = []
    if isinstance(node, ast.Call):
        codes += [_text(k.value) for k in node.keywords if k.arg == "code"]
        name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        if name == "_Refused" and len(node.args) > 1:
            codes.append(_text(node.args[1]))
    elif isinstance(node, ast.ClassDef):
        for statement in node.body:
            if isinstance(statement, ast.Assign) and any(getattr(t, "id", None) == "code" for t in statement.targets):
                codes.append(_text(statement.value))
            if isinstance(statement, ast.AnnAssign) and getattr(statement.target, "id", None) == "code":
                codes.append(_text(statement.value) if statement.value else None)
    elif isinstance(node, ast.Dict):
        codes += [
            _text(value) for key, value in zip(node.keys, node.values, strict=True) if key and _text(key) == "code"
        ]
    elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        arguments = node.args.args + node.args.kwonlyargs
        defaults = [None] * (len(node.args.args) - len(node.args.defaults)) + node.args.defaults + node.args.kw_defaults
        codes += [
            _text(default) for arg, default in zip(arguments, defaults, strict=True) if arg.arg == "code" and default
        ]
    elif (
        isinstance(node, ast.Tuple)
        and len(node.elts) == 2
        and isinstance(node.elts[0], ast.Call)
        and getattr(node.elts[0].func, "id", None) in ("T", "N")
    ):
        codes.append(_text(node.elts[1]))
    return [code for code in codes if code]


def test_every_code_raised_is_in_the_inventory():
    raised = _raised_codes()
    listed = {code.code for code in problems.CODES}
    missing = {code: sorted(where) for code, where in raised.items() if code not in listed and code != PLACEHOLDER}
    assert missing == {}, "add these codes to api/problems.py"
    # The collector sees the kinds of raise it claims to (a wrong reading finds nothing).
    for code in ("not_found", "seat_taken", "no_openers", "no_top_up", "table_not_open", "csrf_failed", "throttled"):
        assert code in raised, code
    assert listed - set(raised) == set(), "codes listed in api/problems.py that nothing raises"


def test_service_error_itself_is_always_raised_with_its_code():
    for package in ("api", "games", "ledger"):
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "ServiceError":
                    assert any(k.arg == "code" for k in node.keywords), f"{path}:{node.lineno}"


def test_every_operation_named_in_the_inventory_exists():
    ids = {operation_id for operation_id, _ in OPERATIONS.values()}
    named = {scope for code in problems.CODES for scope in code.by if scope not in problems.SCOPES}
    assert named - ids == set()
    assert len({(code.status, code.code) for code in problems.CODES}) == len(problems.CODES)


def test_the_docs_errors_table_is_the_one_the_inventory_makes():
    text = API_MD.read_text()
    assert problems.with_table(text) == text, "run `manage.py errors_table`"
    assert text.count("| status | code | when | answered by |") == 1
    call_command("errors_table", "--check")


def test_the_docs_check_fails_on_a_changed_table(tmp_path, settings):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "api.md").write_text(API_MD.read_text().replace("`throttled`", "`throttle`"))
    settings.BASE_DIR = tmp_path
    with pytest.raises(CommandError):
        call_command("errors_table", "--check")
    call_command("errors_table")
    assert (tmp_path / "docs" / "api.md").read_text() == API_MD.read_text()


def _error_schemas():
    for item in document()["paths"].values():
        for op in item.values():
            for status, response in op["responses"].items():
                if status[0] in "45":
                    yield f"{op['operationId']} {status}", status, response


def test_every_error_response_names_its_codes_and_says_each():
    for where, status, response in _error_schemas():
        schema = response["content"]["application/json"]["schema"]
        assert schema["allOf"][0] == {"$ref": "#/components/schemas/Error"}, where
        enum = schema["allOf"][1]["properties"]["code"]["enum"]
        assert enum, where
        for code in enum:
            assert f"`{code}`" in response["description"], (where, code)
            row = next(c for c in problems.CODES if c.code == code and str(c.status) == status)
            assert row.by, where


def test_an_operation_answers_its_own_codes_only():
    paths = document()["paths"]
    join = paths["/api/v1/tables/{table_id}/join/"]["post"]["responses"]
    assert (
        "seat_taken" in join["409"]["content"]["application/json"]["schema"]["allOf"][1]["properties"]["code"]["enum"]
    )
    games = paths["/api/v1/games/"]["get"]["responses"]
    assert "409" not in games and "404" not in games
    codes = json.dumps(games)
    assert "seat_taken" not in codes and "throttled" in codes


def test_the_contract_check_refuses_a_code_the_operation_does_not_answer():
    client = person("alice")
    answer = client.get("/api/v1/tables/00000000-0000-4000-8000-000000000000/")
    assert (answer.status_code, answer.json()["code"]) == (404, "not_found")
    check("GET", "/api/v1/tables/00000000-0000-4000-8000-000000000000/", answer)
    answer.content = json.dumps({**answer.json(), "code": "no_such_payout"}).encode()
    with pytest.raises(AssertionError, match="code"):
        check("GET", "/api/v1/tables/00000000-0000-4000-8000-000000000000/", answer)


def test_a_wrong_password_answers_as_the_table_says():
    person("alice")
    answer = APIClient().post(
        "/api/v1/auth/token/", {"username": "alice", "password": "not hers at all"}, format="json"
    )
    assert (answer.status_code, answer.json()["code"]) == (400, "authentication_failed")
    check("POST", "/api/v1/auth/token/", answer)


def test_every_tag_an_operation_has_is_named_in_the_docs():
    text = API_MD.read_text()
    section = text[text.index("## The document") :]
    tags = {tag for item in document()["paths"].values() for op in item.values() for tag in op["tags"]}
    assert {tag for tag in tags if f"`{tag}`" not in section} == set()
