"""Shared fixtures. Tests that need a real service fail in CI when it is missing, and skip on a
developer's machine where it was never configured."""

from __future__ import annotations

import os

import pytest
from django.db import connection, transaction
from django.db.backends.base.operations import BaseDatabaseOperations

IN_CI = bool(os.environ.get("CI"))


def require(condition: bool, what: str) -> None:
    """Skip a test whose service is not configured here; in CI, fail it instead."""
    if condition:
        return
    if IN_CI:
        pytest.fail(f"{what} is required in CI but is not available")
    pytest.skip(f"{what} not configured (set it up, or run under CI=1 to make this a failure)")


@pytest.fixture
def postgres(db):
    """The test runs against PostgreSQL."""
    require(connection.vendor == "postgresql", "PostgreSQL (DATABASE_URL=postgres://…)")
    return connection


@pytest.fixture
def postgres_tx(transactional_db):
    """PostgreSQL with real commits, for tests where threads or processes race."""
    require(connection.vendor == "postgresql", "PostgreSQL (DATABASE_URL=postgres://…)")
    return connection


# Tables whose triggers refuse UPDATE, DELETE and TRUNCATE (the event store adds its own here).
APPEND_ONLY_TABLES = ["ledger_transaction", "ledger_posting"]


@pytest.fixture(scope="session", autouse=True)
def _flush_lifts_append_only_triggers():
    """After each transactional test Django empties every table (TRUNCATE on PostgreSQL, DELETE on
    SQLite), which the append-only triggers rightly refuse. The flush alone lifts them, inside its
    own transaction, as the tables' owner; the tests themselves always run with the triggers on."""
    from ledger.immutability import suspended

    original = BaseDatabaseOperations.execute_sql_flush

    def execute_sql_flush(self: BaseDatabaseOperations, sql_list: list[str]) -> None:
        with transaction.atomic(using=self.connection.alias), suspended(self.connection, APPEND_ONLY_TABLES):
            original(self, sql_list)

    BaseDatabaseOperations.execute_sql_flush = execute_sql_flush
    yield
    BaseDatabaseOperations.execute_sql_flush = original
