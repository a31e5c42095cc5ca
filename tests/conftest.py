"""Shared fixtures. Tests that need a real service fail in CI when it is missing, and skip on a
developer's machine where it was never configured."""

from __future__ import annotations

import os

import pytest
from django.db import connection

pytest_plugins = ["tests.fixtures_tasks"]

IN_CI = bool(os.environ.get("CI"))


def require(condition: bool, what: str) -> None:
    """Skip a test whose service is not configured here; in CI, fail it instead."""
    if condition:
        return
    if IN_CI:
        pytest.fail(f"{what} is required in CI but is not available")
    pytest.skip(f"{what} not configured (set it up, or run under CI=1 to make this a failure)")


RUN_LONG = IN_CI or bool(os.environ.get("LONG_TESTS"))


def pytest_collection_modifyitems(config, items):
    """``long`` tests (thousands of seeded games) run in CI and with ``LONG_TESTS=1``; ``make test``
    on a developer's machine stays quick without them."""
    if RUN_LONG:
        return
    skip = pytest.mark.skip(reason="a long test: runs in CI, or locally with LONG_TESTS=1")
    for item in items:
        if "long" in item.keywords:
            item.add_marker(skip)


# The fast suite's budget per test, in seconds of CPU: the test process's own and that of the
# processes it ran and waited for. CPU time, not the wall clock, so the budget means the same on a
# quiet machine and on one whose other cores are busy. The tests that start servers, browsers or
# play thousands of games carry one of these markers and are timed by pytest-timeout alone.
FAST_TEST_SECONDS = 10.0
SLOW_MARKERS = frozenset({"long", "production", "browser", "node", "worker"})


def _cpu_seconds() -> float:
    spent = os.times()
    return spent.user + spent.system + spent.children_user + spent.children_system


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    started = _cpu_seconds()
    yield
    item.cpu_seconds = _cpu_seconds() - started


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A fast-suite test that passes but spends more than ``FAST_TEST_SECONDS`` of CPU fails: the
    suite a developer runs before every commit stays quick only while each of its tests does."""
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.passed or SLOW_MARKERS & {mark.name for mark in item.iter_markers()}:
        return
    spent = getattr(item, "cpu_seconds", 0.0)
    if spent > FAST_TEST_SECONDS:
        report.outcome = "failed"
        report.longrepr = (
            f"{item.nodeid} spent {spent:.1f} s of CPU ({report.duration:.1f} s of wall time), over the fast "
            f"suite's {FAST_TEST_SECONDS:.0f} s: make it quicker, or mark it long (it then runs in CI and in "
            "make test-all)"
        )


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


# --- the event store ---------------------------------------------------------------------------

from tests.games.tamper import allow_flush  # noqa: E402

# Between transactional tests Django empties every table (TRUNCATE / DELETE FROM); the append-only
# triggers refuse that, so the flush switches them off inside its own transaction.
allow_flush()


@pytest.fixture
def counter_game():
    """The small test game (the package ``tests/games/counter``) registered as ``counter``."""
    from games import store
    from games.engine import registry
    from tests.games import counter

    registry.register(counter.DECIDER)
    yield counter.DECIDER
    registry.unregister(counter.DECIDER.slug)
    store.forget()


@pytest.fixture
def counter_table(db, counter_game):
    """A two-seat counter table, not started."""
    from tests.games.play import make_table

    return make_table("counter", seats=2)


@pytest.fixture(autouse=True)
def _fresh_process_caches():
    """Each test starts with empty per-process caches: tests reuse table ids across databases,
    which a running service never does (database restores call for a restart, docs/operations.md)."""
    from django.core.cache import cache

    from api import limits
    from games import store
    from games.play import seeds

    store.forget()
    seeds.forget_seeds()
    # Throttle counts and waiting slots live in the cache; one test's logins must not throttle the next's.
    cache.clear()
    limits.forget_budgets()
    yield
    # A test that waited on a table started this process's listener: its LISTEN connection would
    # keep the test database from being dropped, and the next test may use another database.
    from games import notify

    notify.shutdown()
